package provider

import (
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
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

// A placement or a NodePool with the azure hub fails at plan, saying so,
// rather than at apply.
func TestAccAzurePlacementsNotYet(t *testing.T) {
	e, err := emulatorFor(filepath.Join(t.TempDir(), "state.db"), "", testClock)
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []string{`
resource "aks_fleet_placement" "p" {
  name               = "web"
  resource_selectors = [{ version = "v1", kind = "Namespace", name = "web" }]
  policy             = { placement_type = "PickAll" }
}`, `
resource "aks_nap_nodepool" "np" {
  cluster = "aks-east-prod-01"
  name    = "general"
  template = { node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" } }
}`} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testAccProviders,
			Steps: []resource.TestStep{{Config: e.config(nil) + cfg, PlanOnly: true,
				ExpectError: expectError(`are not yet available with the azure hub`)}},
		})
	}
}
