package provider

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Every misconfiguration of the azure block fails at plan with one
// diagnostic that says what to fix — never Go error text alone.
func TestAccAzureMisconfiguration(t *testing.T) {
	e, err := emulatorFor(filepath.Join(t.TempDir(), "state.db"), "", testClock)
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range []string{"ARM_SUBSCRIPTION_ID", "ARM_CLIENT_SECRET", "ARM_CLIENT_ID", "ARM_TENANT_ID", "ARM_USE_CLI", "AKS_FLEET_NAME", "AKS_FLEET_RESOURCE_GROUP"} {
		t.Setenv(env, "")
	}
	const read = "\ndata \"aks_fleet_member_clusters\" \"all\" {}\n"
	for _, tc := range []struct {
		name  string
		edits map[string]string
		want  string
	}{
		{"no subscription", map[string]string{"subscription_id": ""}, `no subscription: set subscription_id in the azure block or ARM_SUBSCRIPTION_ID`},
		{"no fleet name", map[string]string{"fleet_name": ""}, `The azure hub needs the fleet's fleet_name: set fleet_name in the azure block or AKS_FLEET_NAME`},
		{"a fleet that does not exist", map[string]string{"fleet_name": "no-such-fleet"}, `fleets/no-such-fleet does not exist: check subscription_id, resource_group_name and fleet_name`},
		{"a secret without a tenant", map[string]string{"tenant_id": ""}, `client secret authentication needs the service principal's tenant ID: set tenant_id in the azure block or ARM_TENANT_ID`},
		{"a refused credential", map[string]string{"client_id": deniedClientID}, `signing in to Microsoft Entra ID failed — check tenant_id, client_id and the secret`},
		{"an unreachable endpoint", map[string]string{"resource_manager_endpoint": "https://127.0.0.1:1"}, `Cannot reach Azure Resource Manager`},
		{"an untrusted certificate", map[string]string{"ca_certificate_path": ""}, `set ca_certificate_path (or AKS_ARM_CA_CERTIFICATE_PATH) to the PEM file of its certificate authority`},
		{"a bad CA file", map[string]string{"ca_certificate_path": "/nonexistent/ca.pem"}, `azure.ca_certificate_path (or AKS_ARM_CA_CERTIFICATE_PATH): cannot read "/nonexistent/ca.pem"`},
		{"two hubs", map[string]string{}, `The provider uses one hub: keep either the mock block`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := e.config(tc.edits)
			if tc.name == "two hubs" {
				cfg = cfg[:len(cfg)-2] + "  mock {}\n}\n"
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviders,
				Steps:                    []resource.TestStep{{Config: cfg + read, PlanOnly: true, ExpectError: expectError(tc.want)}},
			})
		})
	}
}

// Throttling and server errors in the middle of an apply — a 429 storm
// longer than azcore's default three retries, operation-status polls
// failing, 500s on a write — are retried: each apply succeeds, the plan
// after it is empty, and the fleet holds one strategy and one run (no
// duplicate from a retried write).
func TestAccAzureApplyThroughFaults(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	e, err := emulatorFor(state, "", testClock)
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(wait int) string {
		return e.config(nil) + fmt.Sprintf(`
resource "aks_fleet_update_strategy" "s" {
  name   = "faulty"
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
    after_stage_wait_in_seconds = %d
  }
}
resource "aks_fleet_update_run" "r" {
  name               = "faulty"
  update_strategy_id = aks_fleet_update_strategy.s.id
  upgrade {
    type = "Full"
    kubernetes_version = "1.33.2"
  }
}
`, wait)
	}
	holds := func(wait int) func(*terraform.State) error {
		return func(*terraform.State) error {
			e.server.SetFaults(armemu.Faults{})
			var err error
			storedIn(t, state)(func(h hub.Hub) error {
				s, gerr := h.GetUpdateStrategy(context.Background(), "faulty")
				switch {
				case gerr != nil:
					err = gerr
				case s.Spec.Stages[0].AfterStageWait() != wait:
					err = fmt.Errorf("the strategy waits %d s, want %d", s.Spec.Stages[0].AfterStageWait(), wait)
				}
				if _, gerr := h.GetUpdateRun(context.Background(), "faulty"); gerr != nil {
					err = gerr
				}
				return nil
			})()
			return err
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { e.server.SetFaults(armemu.Faults{Throttle: 6, OperationErrors: 1, Match: "/update"}) },
				Config:    cfg(0),
				Check:     holds(0),
			},
			{
				PreConfig: func() { e.server.SetFaults(armemu.Faults{ServerErrors: 2, Match: "PUT "}) },
				Config:    cfg(60),
				Check:     holds(60),
			},
		},
	})
}

// A NodePool is planned without contacting its member cluster, so the plan
// succeeds whatever the cluster's state; at apply, a cluster that does not
// serve NodePools says that Node Auto Provisioning is not enabled on it,
// and one that cannot be reached says so and what to check — each one
// diagnostic naming the cluster. The member clusters are reached here
// through explicit kubeconfigs (azure.member_clusters).
func TestAccAzureMemberClusterDiagnostics(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	e, err := emulatorFor(state, "", testClock)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := simFor(state, nil); err != nil { // starts the test binary's API servers
		t.Fatal(err)
	}
	withoutNAP, err := kube.env.Cluster("without-nap") // a cluster without the NodePool CRD
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	noNAP, gone := filepath.Join(dir, "without-nap.yaml"), filepath.Join(dir, "gone.yaml")
	writeFile(t, noNAP, string(withoutNAP.Kubeconfig))
	writeFile(t, gone, `apiVersion: v1
kind: Config
clusters: [{name: gone, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: not-a-secret}}]
contexts: [{name: gone, context: {cluster: gone, user: u}}]
current-context: gone
`)
	cfg := strings.Replace(e.config(nil), "  }\n}\n", fmt.Sprintf(`    member_clusters {
      name            = "aks-east-prod-01"
      kubeconfig_path = %q
    }
    member_clusters {
      name            = "aks-east-dev-01"
      kubeconfig_path = %q
      context         = "gone"
    }
  }
}
`, noNAP, gone), 1)
	pool := func(cluster string) string {
		return cfg + `
resource "aks_nap_nodepool" "np" {
  cluster  = "` + cluster + `"
  name     = "general"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind = "AKSNodeClass"
      name = "default"
    }
  }
}`
	}
	// A kubeconfig that cannot be loaded is known without contacting anyone: it fails at plan.
	missing := strings.Replace(e.config(nil), "  }\n}\n", fmt.Sprintf(`    member_clusters {
      name            = "aks-east-prod-01"
      kubeconfig_path = %q
    }
    member_clusters {
      name            = "aks-east-dev-01"
      kubeconfig_path = %q
      context         = "other"
    }
  }
}
`, filepath.Join(dir, "missing.yaml"), gone), 1)
	for _, want := range []string{`The kubeconfig of member cluster "aks-east-prod-01" (azure.member_clusters) cannot be used`,
		`The kubeconfig of member cluster "aks-east-dev-01" (azure.member_clusters) cannot be used: it has no context "other"`} {
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: missing + "\ndata \"aks_fleet_member_clusters\" \"all\" {}\n", PlanOnly: true, ExpectError: expectError(want)},
		}})
	}
	for _, tc := range []struct{ cluster, want string }{
		{"aks-east-prod-01", `Cannot create aks_nap_nodepool on member cluster "aks-east-prod-01"`},
		{"aks-east-prod-01", `Node Auto Provisioning is not enabled on it: it does not serve karpenter.sh/v1 NodePools`},
		{"aks-east-dev-01", `its API server https://127.0.0.1:1 cannot be reached`},
		{"aks-east-dev-01", `Check that the cluster is running and that its API server is reachable from this machine`},
	} {
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: pool(tc.cluster), PlanOnly: true, ExpectNonEmptyPlan: true}, // no contact at plan
			{Config: pool(tc.cluster), ExpectError: expectError(tc.want)},
		}})
	}
}
