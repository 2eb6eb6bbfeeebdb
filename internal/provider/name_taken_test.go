package provider

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// A create whose name is taken on the hub (by hand, or by another state) is
// refused at plan, with the import that adopts it — for every resource, on
// both hubs — instead of failing at apply after other resources were applied.
func TestAccNameTakenIsCaughtAtPlan(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	ctx := context.Background()
	taken := func(t *testing.T) {
		h := hubOf(t, state, "", testClock)
		pre := hub.Precondition{IfNoneMatch: true}
		one := 1 // each object made by hand differs from the configuration below
		if _, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: placement.Spec{Name: "web",
			ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
			Policy:            placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &one}}}, pre); err != nil {
			t.Fatal(err)
		}
		stages := []update.Stage{{Name: "one", Groups: []update.Group{{Name: "canary", MaxConcurrency: "2"}}}}
		if _, err := h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: "waves"}, Spec: update.Strategy{Stages: stages}}, pre); err != nil {
			t.Fatal(err)
		}
		if _, err := h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: "images"}, Spec: update.RunSpec{
			ManagedClusterUpdate: update.ManagedClusterUpdate{Upgrade: update.Upgrade{Type: update.UpgradeNodeImageOnly},
				NodeImageSelection: update.NodeImageSelection{Type: update.NodeImageConsistent}}}}, pre); err != nil {
			t.Fatal(err)
		}
		if _, err := h.PutAutoUpgradeProfile(ctx, hub.AutoUpgradeProfile{Meta: hub.Meta{Name: "stable"},
			Spec: update.ProfileSpec{Channel: update.ChannelRapid, Disabled: true}}, pre); err != nil {
			t.Fatal(err)
		}
		weight := int32(5)
		if _, err := h.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: "spare"}, Cluster: "aks-east-prod-01", Spec: nodepool.NodePool{Weight: &weight,
			Template: nodepool.Template{NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}}}}, pre); err != nil {
			t.Fatal(err)
		}
	}
	cfg := providerConfigAt(state, "", testClock)
	var cases []struct{ config, want string }
	for _, c := range takenConfigs() {
		cases = append(cases, struct{ config, want string }{c.config, c.object + " already exists on the hub"})
	}
	for i, c := range cases {
		steps := []resource.TestStep{{Config: cfg + c.config, PlanOnly: true, ExpectError: expectError(c.want)}}
		if i == 0 {
			steps[0].PreConfig = func() { taken(t) }
		}
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: steps})
	}
	// The error gives the import that adopts the object.
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: cfg + cases[1].config, PlanOnly: true,
		ExpectError: expectError(`import { to = aks_fleet_update_strategy.<this resource's name> id = "waves" }`),
	}}})
	// Imported, the same configuration is the object's: no error, and a
	// replacement (a new placement type) of a resource in state is not a new name.
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{Config: cfg + "import {\n  to = aks_fleet_placement.test\n  id = \"web\"\n}\n" + simplePlacement("", "")},
		{Config: cfg + simplePlacement("", `policy {
  placement_type     = "PickN"
  number_of_clusters = 1
}`)},
	}})
}

// A tainted resource is replaced: Terraform plans it as a new object, with
// neither its prior state nor its private state, and its own object still
// holds the name. It holds what the configuration describes, so the plan
// warns instead of refusing, and apply deletes it and creates it again
// (issue 23: found by a user trial) — for every resource.
func TestAccNameTakenByATaintedResourceIsItsOwn(t *testing.T) {
	cfg := providerConfigAt(filepath.Join(t.TempDir(), "state.db"), "", testClock)
	for _, c := range takenConfigs() {
		addr, config := c.addr, c.config
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: cfg + config},
			{Config: cfg + config, Taint: []string{addr},
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)}}},
		}})
	}
}

// takenConfigs are a configuration of each resource, its address and the
// object it names (the objects the name-taken test makes by hand differ).
func takenConfigs() []struct{ addr, object, config string } {
	return []struct{ addr, object, config string }{
		{"aks_fleet_placement.test", "aks_fleet_placement web", simplePlacement("", "")},
		{"aks_fleet_update_strategy.s", "aks_fleet_update_strategy waves", `resource "aks_fleet_update_strategy" "s" {
  name = "waves"
  stages {
    name = "one"
    groups { name = "canary" }
  }
}`},
		{"aks_fleet_update_run.r", "aks_fleet_update_run images", `resource "aks_fleet_update_run" "r" {
  name = "images"
  upgrade { type = "NodeImageOnly" }
}`},
		{"aks_fleet_autoupgrade_profile.p", "aks_fleet_autoupgrade_profile stable", `resource "aks_fleet_autoupgrade_profile" "p" {
  name     = "stable"
  channel  = "Stable"
  disabled = true
}`},
		{"aks_nap_nodepool.n", "aks_nap_nodepool aks-east-prod-01/spare", `resource "aks_nap_nodepool" "n" {
  cluster = "aks-east-prod-01"
  name    = "spare"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
  }
}`},
	}
}

// A resource replaced under the same name keeps its id at plan, so what
// refers to it is not replaced along with it (from the user trial: -replace
// of a strategy replaced the run and the profile that name it).
func TestAccReplacementKeepsTheIDKnown(t *testing.T) {
	cfg := providerConfigAt(filepath.Join(t.TempDir(), "state.db"), "", testClock) + `
resource "aks_fleet_update_strategy" "s" {
  name = "waves"
  stages {
    name = "one"
    groups { name = "canary" }
  }
}
resource "aks_fleet_update_run" "r" {
  name               = "images"
  update_strategy_id = aks_fleet_update_strategy.s.id
  upgrade { type = "NodeImageOnly" }
}
resource "aks_fleet_autoupgrade_profile" "p" {
  name               = "stable"
  channel            = "Stable"
  disabled           = true
  update_strategy_id = aks_fleet_update_strategy.s.id
}
`
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{Config: cfg},
		{Config: cfg, Taint: []string{"aks_fleet_update_strategy.s"}, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction("aks_fleet_update_strategy.s", plancheck.ResourceActionDestroyBeforeCreate),
			plancheck.ExpectResourceAction("aks_fleet_update_run.r", plancheck.ResourceActionNoop),
			plancheck.ExpectResourceAction("aks_fleet_autoupgrade_profile.p", plancheck.ResourceActionNoop),
		}}},
	}})
}
