// Command terraform-provider-aks is the Terraform provider for Azure
// Kubernetes Fleet Manager and AKS Node Auto Provisioning.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/fleetform/terraform-provider-aks/internal/provider"
)

// Run "go generate" to format example terraform files and generate the docs for the registry/website.
//go:generate go tool tfplugindocs generate --provider-name aks

// version is set by goreleaser.
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.Parse()

	// TF_AKS_CPUPROFILE=<prefix> writes a CPU profile of this provider
	// process to <prefix>.<pid> (Terraform starts several per command), for
	// `go tool pprof`.
	if prefix := os.Getenv("TF_AKS_CPUPROFILE"); prefix != "" {
		if f, err := os.Create(prefix + "." + strconv.Itoa(os.Getpid())); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}

	if !debug {
		quietUnreadLogs()
	}

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/fleetform/aks",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		pprof.StopCPUProfile()
		log.Fatal(err.Error())
	}
}

// quietUnreadLogs turns the provider's own and the SDK's loggers off when no
// one can read them. Terraform reads a provider's logs from its standard
// error and shows them only when a TF_LOG variable asks for them; without
// one it parses every line and drops it. The framework traces every value
// of every plan, so formatting and dropping those lines was a sixth of a
// refresh's work over 200 placements (designs/hub.md §8). Any TF_LOG
// variable but TF_LOG_CORE (core's own logs) leaves the levels to it, as
// does -debug, whose logs the developer reads in the provider's terminal.
func quietUnreadLogs() {
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_LOG") && name != "TF_LOG_CORE" {
			return
		}
	}
	_ = os.Setenv("TF_LOG_SDK", "OFF")
	_ = os.Setenv("TF_LOG_PROVIDER", "OFF")
}
