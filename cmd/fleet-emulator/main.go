// Command fleet-emulator serves a simulated fleet over HTTPS as Azure
// Resource Manager serves a real one: the mock hub (its inventory file and
// state database, as the provider's mock block uses them) behind the ARM
// wire emulator (internal/emulator/armemu), until SIGINT or SIGTERM.
//
//	go run ./cmd/fleet-emulator -fleet fleet.yaml -state .aks-emulator/state.db \
//	    -listen 127.0.0.1:8443 -subscription 00000000-0000-0000-0000-000000000000 \
//	    -resource-group rg -name fleet [-clock fixed -clock-time 2026-11-23T08:00:00Z]
//
// It writes the server's self-signed certificate to -cert-out (by default
// emulator-cert.pem beside the state database) and prints the URL to use as
// the resource manager endpoint and the certificate's path.
//
// With -clusters (the default), the fleet hub cluster and the member
// clusters are real Kubernetes API servers, started in-process when first
// asked for (an embedded etcd and kube-apiserver with the real Fleet and
// Karpenter CRDs, package kubetest; a few seconds each), which the fleet's
// listCredentials and each managed cluster's listClusterUserCredential hand
// out, and on which package fleetsim plays Fleet's scheduler and Karpenter's
// nodes: placements and NodePools work as on Azure. -clusters=false serves
// only the hub cluster's MemberCluster list, read-only.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/fleetsim"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "fleet-emulator:", err)
		}
		stop()
		os.Exit(2)
	}
}

// run serves until ctx ends; args are the command line without the program name.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("fleet-emulator", flag.ContinueOnError)
	fs.SetOutput(stdout)
	fleetFile := fs.String("fleet", "", "the fleet's inventory YAML (default: the built-in sample fleet)")
	state := fs.String("state", filepath.Join(".aks-emulator", "state.db"), "the mock hub's state database")
	listen := fs.String("listen", "127.0.0.1:8443", "the address to serve HTTPS on")
	sub := fs.String("subscription", "00000000-0000-0000-0000-000000000000", "the fleet's subscription id")
	rg := fs.String("resource-group", "rg", "the fleet's resource group")
	name := fs.String("name", "fleet", "the fleet's name")
	location := fs.String("location", armemu.DefaultLocation, "the fleet's location")
	clockMode := fs.String("clock", mock.ClockReal, "the hub's clock: real, fixed or scaled")
	clockTime := fs.String("clock-time", "", "the fixed instant, or the start of scaled time (RFC 3339)")
	clockScale := fs.Float64("clock-scale", 0, "scaled clock: simulated seconds per real second")
	certOut := fs.String("cert-out", "", "where to write the certificate PEM (default: emulator-cert.pem beside -state)")
	pageSize := fs.Int("page-size", armemu.DefaultPageSize, "items per LIST page")
	polls := fs.Int("polls", armemu.DefaultPolls, "InProgress answers of each long-running operation (negative: none)")
	clusters := fs.Bool("clusters", true, "serve the hub and member clusters as real Kubernetes API servers in-process (placements, NodePools)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}

	clock := mock.ClockConfig{Mode: *clockMode, Scale: *clockScale}
	if *clockTime != "" {
		t, err := time.Parse(time.RFC3339, *clockTime)
		if err != nil {
			return fmt.Errorf("-clock-time: %w", err)
		}
		clock.Time = t
	}
	h, err := mock.New(mock.Config{FleetFile: *fleetFile, StatePath: *state, Clock: clock})
	if err != nil {
		return err
	}
	id := armfleet.FleetID{SubscriptionID: *sub, ResourceGroup: *rg, Fleet: *name}
	backend := func(context.Context) (hub.Hub, error) { return h, nil }
	opts := armemu.Options{Fleet: id, Location: *location, PageSize: *pageSize, Polls: *polls, Hub: backend}
	if *clusters {
		env, err := kubetest.Start(kubetest.Stderr)
		if err != nil {
			return err
		}
		defer env.Close()
		sim := fleetsim.New(env, backend)
		sim.Log = kubetest.Stderr
		defer sim.Close()
		opts.Kubeconfig = sim.Kubeconfig
	}
	srv := armemu.New(opts)
	r, err := armemu.Listen(*listen, srv)
	if err != nil {
		return err
	}
	defer r.Close()

	certPath := *certOut
	if certPath == "" {
		certPath = filepath.Join(filepath.Dir(*state), "emulator-cert.pem")
	}
	if err := os.MkdirAll(filepath.Dir(certPath), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(certPath, r.CertPEM, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "serving fleet %s at %s\ncertificate: %s\n", id, r.URL, certPath)

	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return r.Shutdown(shutdown)
}
