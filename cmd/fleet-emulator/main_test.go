package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armclient"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// The command serves the mock hub's fleet until its context ends, with the
// certificate it wrote and the URL it printed.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	certPath := filepath.Join(dir, "cert.pem")
	url, cert, cancel, done := start(t, "-state", filepath.Join(dir, "state.db"), "-listen", "127.0.0.1:0", "-cert-out", certPath,
		"-subscription", "sub", "-resource-group", "group", "-name", "demo", "-clock", "fixed", "-clock-time", "2026-11-23T08:00:00Z")
	if url == "" || cert != certPath {
		t.Fatalf("printed URL %q and certificate %q", url, cert)
	}

	pem, err := os.ReadFile(certPath)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("the certificate file holds no certificate")
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	fleet := armfleet.FleetID{SubscriptionID: "sub", ResourceGroup: "group", Fleet: "demo"}
	resp, err := client.Get(url + fleet.String() + "?api-version=" + armfleet.APIVersion)
	if err != nil {
		t.Fatal(err)
	}
	var f armfleet.Fleet
	err = json.NewDecoder(resp.Body).Decode(&f)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || f.ID != fleet.String() {
		t.Fatalf("GET fleet: %d %+v %v", resp.StatusCode, f, err)
	}
	if d, _ := http.ParseTime(resp.Header.Get("Date")); !d.Equal(time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("Date %q is not the fixed clock", resp.Header.Get("Date"))
	}
	client.CloseIdleConnections()

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after its context ended")
	}
}

// Bad flags are errors, not a server.
func TestRunFlags(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"extra"}, {"-clock-time", "tomorrow"}, {"-clock", "sideways", "-state", filepath.Join(t.TempDir(), "s.db")}} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("run %q: no error", args)
		}
	}
}

// start runs the command with args until the test cancels, and returns
// the URL and certificate path it printed.
func start(t *testing.T, args ...string) (url, cert string, cancel context.CancelFunc, done chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done = make(chan error, 1)
	go func() {
		done <- run(ctx, args, w)
		w.Close()
	}()
	lines := bufio.NewScanner(out)
	for (url == "" || cert == "") && lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "serving fleet "); ok {
			url = rest[strings.LastIndex(rest, " ")+1:]
		}
		if rest, ok := strings.CutPrefix(lines.Text(), "certificate: "); ok {
			cert = rest
		}
	}
	go io.Copy(io.Discard, out)
	return url, cert, cancel, done
}

// With -clusters (the default) placements and NodePools work through the
// emulator as on Azure: the hub and member clusters are real API servers.
func TestRunServesClusters(t *testing.T) {
	dir := t.TempDir()
	url, cert, cancel, done := start(t, "-state", filepath.Join(dir, "state.db"), "-listen", "127.0.0.1:0",
		"-clock", "fixed", "-clock-time", "2026-11-23T08:00:00Z")
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	pem, err := os.ReadFile(cert)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	h, err := azure.New(context.Background(), azure.Config{
		Fleet: armfleet.FleetID{SubscriptionID: "00000000-0000-0000-0000-000000000000", ResourceGroup: "rg", Fleet: "fleet"},
		Client: armclient.Options{Credential: &azfake.TokenCredential{}, Transport: client, DisableRPRegistration: true, PollFrequency: time.Millisecond,
			Cloud: cloud.Configuration{Services: map[cloud.ServiceName]cloud.ServiceConfiguration{cloud.ResourceManager: {Endpoint: url, Audience: url}}}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: placement.Spec{Name: "web",
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}}}}, hub.Precondition{IfNoneMatch: true})
	if err != nil || len(p.Status.Selected) == 0 || !p.Status.Fulfilled {
		t.Fatalf("placement: %+v %v", p, err)
	}
	np, err := h.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: "default"}, Cluster: "aks-east-prod-01",
		Spec: nodepool.NodePool{Template: nodepool.Template{NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}}}},
		hub.Precondition{IfNoneMatch: true})
	if err != nil || np.Status.Total != 3 {
		t.Fatalf("NodePool: %+v %v", np, err)
	}
	client.CloseIdleConnections()
}
