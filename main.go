// Command terraform-provider-aks is the Terraform provider for Azure
// Kubernetes Fleet Manager and AKS Node Auto Provisioning.
package main

import (
	"context"
	"flag"
	"log"

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

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/fleetform/aks",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
