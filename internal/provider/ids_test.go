package provider

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// testFleet is the fleet the test hub serves, as ARM names it.
func testFleet() hub.FleetRef {
	if testHubIsAzure() {
		return hub.FleetRef{SubscriptionID: emulatedFleet.SubscriptionID, ResourceGroup: emulatedFleet.ResourceGroup, Name: emulatedFleet.Fleet}
	}
	return mock.MockFleet
}

// An import id is checked against the hub (designs/hub.md §5): an ARM id of
// another subscription, resource group or fleet is refused, naming the part
// that differs, instead of adopting this fleet's object of the same name;
// a NodePool id naming no member names the closest members. On both hubs.
func TestAccImportIDsAreChecked(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	cfg := providerConfigAt(state, "", testClock)
	f := testFleet()
	strategy := `
resource "aks_fleet_update_strategy" "s" {
  name = "waves"
  stages {
    name = "one"
    groups { name = "canary" }
  }
}`
	imp := func(to, id string) string { return "\nimport {\n  to = " + to + "\n  id = \"" + id + "\"\n}\n" }
	other := func(sub, rg, name string) string {
		return hub.FleetRef{SubscriptionID: sub, ResourceGroup: rg, Name: name}.ID() + "/updateStrategies/waves"
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{
			PreConfig: func() {
				h := hubOf(t, state, "", testClock)
				if _, err := h.PutUpdateStrategy(context.Background(), hub.UpdateStrategy{Meta: hub.Meta{Name: "waves"},
					Spec: update.Strategy{Stages: []update.Stage{{Name: "one", Groups: []update.Group{{Name: "canary"}}}}}}, hub.Precondition{}); err != nil {
					t.Fatal(err)
				}
			},
			Config: cfg + strategy + imp("aks_fleet_update_strategy.s", other("11111111-1111-1111-1111-111111111111", f.ResourceGroup, f.Name)),
			ExpectError: expectError(`names subscription "11111111-1111-1111-1111-111111111111", but the provider manages fleet ` + f.ID() +
				`, in subscription "` + f.SubscriptionID + `"`),
		},
		{
			Config:      cfg + strategy + imp("aks_fleet_update_strategy.s", other(f.SubscriptionID, "rg-other", f.Name)),
			ExpectError: expectError(`names resource group "rg-other", but the provider manages fleet`),
		},
		{
			Config:      cfg + strategy + imp("aks_fleet_update_strategy.s", other(f.SubscriptionID, f.ResourceGroup, "other-fleet")),
			ExpectError: expectError(`names fleet "other-fleet", but the provider manages fleet "` + f.Name + `"`),
		},
		{
			Config: cfg + `resource "aks_fleet_update_run" "r" {
  name = "r"
  upgrade { type = "NodeImageOnly" }
}` + imp("aks_fleet_update_run.r", hub.FleetRef{SubscriptionID: f.SubscriptionID, ResourceGroup: f.ResourceGroup, Name: "other-fleet"}.ID()+"/updateRuns/r"),
			ExpectError: expectError(`names fleet "other-fleet"`),
		},
		{
			Config: cfg + `resource "aks_fleet_autoupgrade_profile" "p" {
  name    = "p"
  channel = "Stable"
}` + imp("aks_fleet_autoupgrade_profile.p", hub.FleetRef{SubscriptionID: f.SubscriptionID, ResourceGroup: "RG-ELSEWHERE", Name: f.Name}.ID()+"/autoUpgradeProfiles/p"),
			ExpectError: expectError(`names resource group "RG-ELSEWHERE"`),
		},
		{
			Config: cfg + `resource "aks_nap_nodepool" "n" {
  cluster = "aks-east-prd-01"
  name    = "default"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
  }
}` + imp("aks_nap_nodepool.n", "aks-east-prd-01/default"),
			ExpectError: expectError(`"aks-east-prd-01" is not a member cluster of the fleet; did you mean "aks-east-prod-01"`),
		},
		// A run or profile that follows another fleet's strategy by ARM id
		// is refused at plan, as an import of it is.
		{
			Config: cfg + `resource "aks_fleet_update_run" "r" {
  name               = "r"
  update_strategy_id = "` + other(f.SubscriptionID, f.ResourceGroup, "other-fleet") + `"
  upgrade { type = "NodeImageOnly" }
}`, PlanOnly: true,
			ExpectError: expectError(`update_strategy_id: "` + other(f.SubscriptionID, f.ResourceGroup, "other-fleet") + `" names fleet "other-fleet"`),
		},
		{
			Config: cfg + `resource "aks_fleet_autoupgrade_profile" "p" {
  name               = "p"
  channel            = "Stable"
  update_strategy_id = "` + other("22222222-2222-2222-2222-222222222222", f.ResourceGroup, f.Name) + `"
}`, PlanOnly: true,
			ExpectError: expectError(`names subscription "22222222-2222-2222-2222-222222222222"`),
		},
		// The fleet's own ARM id, in any letter case ARM allows, imports.
		{Config: cfg + strategy + imp("aks_fleet_update_strategy.s", hub.FleetRef{SubscriptionID: f.SubscriptionID,
			ResourceGroup: strings.ToUpper(f.ResourceGroup), Name: f.Name}.ID()+"/updateStrategies/waves")},
	}})
}
