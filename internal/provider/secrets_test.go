package provider

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
)

// jwt matches a JSON web token: base64url JSON header and payload, dot-separated.
var jwt = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.`)

// testOIDCToken is the federated token the OIDC half of the secrets test signs in with.
const testOIDCToken = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJyZXBvOmZsZWV0Zm9ybSJ9.oidc-token-that-must-never-leak"

// Secrets never reach state, plans or logs: the built provider, run by the
// real CLI at TF_LOG=trace against the wire emulator, signs in once with a
// client secret and once with an OIDC token, both from the ARM_* variables
// azurerm users set; neither appears in any output, log line, state or
// saved plan. The log must hold the provider's hub calls, so that a log
// that captured nothing cannot pass.
func TestAccAzureSecretsNeverLeak(t *testing.T) {
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		t.Skip("acceptance test: set TF_ACC and TF_ACC_TERRAFORM_PATH")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-aks"), ".")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	rc := filepath.Join(dir, "dev.tfrc")
	writeFile(t, rc, `provider_installation {
  dev_overrides {
    "fleetform/aks" = "`+bin+`"
  }
  direct {}
}
`)
	e, err := emulatorFor(filepath.Join(dir, "state.db"), "", testClock)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct {
		name string
		env  []string
		auth string
	}{
		{"client secret", []string{"ARM_CLIENT_SECRET=" + testClientSecret, "ARM_OIDC_TOKEN=" + testOIDCToken}, ""},
		{"OIDC token", []string{"ARM_OIDC_TOKEN=" + testOIDCToken}, "use_oidc = true"},
	} {
		t.Run(mode.name, func(t *testing.T) {
			work := filepath.Join(dir, strings.ReplaceAll(mode.name, " ", "-"))
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(work, "main.tf"), `
terraform {
  required_providers {
    aks = { source = "fleetform/aks" }
  }
}
provider "aks" {
  azure {
    subscription_id           = "`+emulatedFleet.SubscriptionID+`"
    resource_group_name       = "`+emulatedFleet.ResourceGroup+`"
    fleet_name                = "`+emulatedFleet.Fleet+`"
    tenant_id                 = "`+testTenant+`"
    client_id                 = "`+testClientID+`"
    resource_manager_endpoint = "`+e.run.URL+`"
    authority_host            = "`+e.run.URL+`"
    ca_certificate_path       = "`+e.certPath+`"
    `+mode.auth+`
  }
}
resource "aks_fleet_update_strategy" "s" {
  name   = "secrets-`+strings.ToLower(strings.ReplaceAll(mode.name, " ", "-"))+`"
  stages {
    name = "all"
    groups {
      name = "canary"
    }
  }
}
data "aks_fleet_member_clusters" "all" {}
output "members" { value = length(data.aks_fleet_member_clusters.all.names) }
resource "aks_fleet_placement" "p" {
  name               = "secrets-`+strings.ToLower(strings.ReplaceAll(mode.name, " ", "-"))+`"
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "web"
  }
  policy {
    placement_type = "PickAll"
  }
}
resource "aks_nap_nodepool" "np" {
  cluster  = "aks-east-prod-01"
  name     = "secrets-`+strings.ToLower(strings.ReplaceAll(mode.name, " ", "-"))+`"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind = "AKSNodeClass"
      name = "default"
    }
  }
}
`)
			logPath := filepath.Join(work, "trace.log")
			var outputs strings.Builder
			run := func(args ...string) {
				cmd := exec.Command(tf, append([]string{"-chdir=" + work}, args...)...)
				cmd.Env = append(os.Environ(), append(mode.env, "TF_CLI_CONFIG_FILE="+rc, "TF_LOG=trace", "TF_LOG_PATH="+logPath,
					"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")...)
				out, err := cmd.CombinedOutput()
				outputs.Write(out)
				if err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
				}
			}
			run("plan", "-out=tfplan", "-input=false")
			run("apply", "-input=false", "tfplan")
			run("show", "-json", "tfplan")
			run("state", "pull")
			run("destroy", "-auto-approve", "-input=false")
			logs, err := os.ReadFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(logs), "hub call") {
				t.Fatal("the trace log holds no hub call of the provider: it did not capture the provider's logs")
			}
			// The kubeconfigs' credentials of the hub and member clusters the
			// placement and the NodePool were written to.
			secrets := map[string]string{"client secret": testClientSecret, "OIDC token": testOIDCToken,
				"hub cluster token": armemu.HubClusterToken, "a bearer token": "Bearer ", "a private key": "PRIVATE KEY",
				"a client certificate": "client-certificate-data"}
			sim, err := simFor(filepath.Join(dir, "state.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			for what, get := range map[string]func(context.Context) (*kubetest.Cluster, error){
				"the hub cluster's token":    sim.Hub,
				"the member cluster's token": func(ctx context.Context) (*kubetest.Cluster, error) { return sim.Member(ctx, "aks-east-prod-01") },
			} {
				c, err := get(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				secrets[what] = c.Token
			}
			places := map[string]string{"CLI output": outputs.String(), "trace log": string(logs)}
			for _, f := range []string{"terraform.tfstate", "terraform.tfstate.backup"} {
				if b, err := os.ReadFile(filepath.Join(work, f)); err == nil {
					places[f] = string(b)
				}
			}
			plan, err := zip.OpenReader(filepath.Join(work, "tfplan")) // a saved plan is a zip archive
			if err != nil {
				t.Fatal(err)
			}
			defer plan.Close()
			for _, f := range plan.File {
				r, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				b, err := io.ReadAll(r)
				r.Close()
				if err != nil {
					t.Fatal(err)
				}
				places["saved plan "+f.Name] = string(b)
			}
			for where, text := range places {
				if jwt.MatchString(text) { // an access token the provider was issued (a JWT: header.payload.)
					t.Errorf("a JSON web token appears in the %s", where)
				}
				for what, secret := range secrets {
					if strings.Contains(text, secret) {
						t.Errorf("the %s appears in the %s", what, where)
					}
				}
			}
		})
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
