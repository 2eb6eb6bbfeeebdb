package provider

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Regression tests for defects found in review: each failed before its fix.

func simplePlacement(selector, extra string) string {
	return `
resource "aks_fleet_placement" "test" {
  name               = "web"
  resource_selectors {
    ` + selector + `
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
  ` + extra + `
}`
}

// A configuration change that means nothing to the engine (an empty
// strategy) keeps the preview instead of leaving it unknown after apply.
func TestAccRegression_emptyStrategyKeepsPreview(t *testing.T) {
	cfg := providerConfig(t, "")
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{Config: cfg + simplePlacement("", "")},
		{Config: cfg + simplePlacement("", "strategy {}")},
	}})
}

// Importing a placement written with group = "" (the core group, as in
// Kubernetes YAML) converges: the import plans one in-place update, and then nothing.
func TestAccRegression_importWithExplicitEmptyGroup(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		PreConfig: func() {
			h := hubOf(t, state, "", testClock)
			spec := placement.Spec{Name: "web", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}}}
			if _, err := h.ApplyPlacement(context.Background(), hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: spec}, hub.Precondition{}); err != nil {
				t.Fatal(err)
			}
		},
		Config: providerConfigAt(state, "", testClock) + `
import {
  to = aks_fleet_placement.test
  id = "web"
}` + simplePlacement(`group = ""`, ""),
	}}})
}

// pause waits between plan and apply, as a person at the approval prompt does.
type pause time.Duration

func (p pause) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	time.Sleep(time.Duration(p))
}

// On the real clock, the NodePool preview planned a moment before apply is
// still the preview Terraform gets when it plans again during apply.
func TestAccRegression_nodePoolPreviewOnTheRealClock(t *testing.T) {
	if left := time.Until(time.Now().Truncate(time.Hour).Add(time.Hour)); left < 10*time.Second {
		time.Sleep(left + time.Second) // the preview is anchored to the hour: do not straddle one
	}
	cfg := `
provider "aks" {
  mock { state_path = "` + filepath.Join(t.TempDir(), "state.db") + `" }
}`
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config:           cfg + nodePoolConfig(`team = "web"`, `{ nodes = "10%" }`),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{pause(1500 * time.Millisecond)}},
	}}})
}

// Renaming replaces the placement, so removing a toleration at the same time is allowed.
func TestAccRegression_renameIsAReplacement(t *testing.T) {
	cfg := providerConfig(t, "")
	pl := func(name, toleration string) string {
		return `
resource "aks_fleet_placement" "test" {
  name               = "` + name + `"
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "web"
  }
  policy {
` + blocksOf("tolerations", toleration) + `
  }
}`
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{Config: cfg + pl("web-a", `{ key = "dedicated", operator = "Exists" }`)},
		{
			Config:           cfg + pl("web-b", ``),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(plAddr, plancheck.ResourceActionReplace)}},
		},
	}})
}

// A value known only after apply hides neither the replacement a new
// placement type needs nor the errors in the rest of the configuration.
func TestAccRegression_unknownValues(t *testing.T) {
	cfg := providerConfig(t, "")
	unknownNamespace := `resource "terraform_data" "ns" { input = "api" }`
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{
			Config: cfg + unknownNamespace + strings.Replace(simplePlacement("", `policy {
  placement_type = "PickSome"
}`), `name    = "web"`, `name    = terraform_data.ns.output`, 1),
			ExpectError: expectError(`policy.placement_type: "PickSome" is not a placement type`),
		},
		{Config: cfg + simplePlacement("", `policy {
  placement_type = "PickN"
  number_of_clusters = 1
}`)},
		{
			Config: cfg + unknownNamespace + strings.Replace(simplePlacement("", `policy {
  placement_type = "PickAll"
}`), `name    = "web"`, `name    = terraform_data.ns.output`, 1),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(plAddr, plancheck.ResourceActionReplace),
				// The preview waits for the value: apply previews it.
				expectNoPreview(placementObj("web")),
				plancheck.ExpectUnknownValue(plAddr, tfjsonpath.New("status")),
			}},
		},
	}})
}

// A NodePool's name and cluster are validated at plan.
func TestAccRegression_nodePoolIdentity(t *testing.T) {
	cfg := providerConfig(t, "")
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{
			Config:      cfg + strings.Replace(nodePoolConfig(`team = "web"`, `{ nodes = "10%" }`), `name    = "default"`, `name = ""`, 1),
			ExpectError: expectError(`name: "" is not a valid NodePool name`),
			PlanOnly:    true,
		},
		{
			Config:      cfg + strings.Replace(nodePoolConfig(`team = "web"`, `{ nodes = "10%" }`), `name    = "default"`, `name = "gpu/spot"`, 1),
			ExpectError: expectError(`name: "gpu/spot" is not a valid NodePool name`),
			PlanOnly:    true,
		},
		{
			Config:      cfg + strings.Replace(nodePoolConfig(`team = "web"`, `{ nodes = "10%" }`), `cluster = "aks-east-prod-01"`, "cluster = \"aks-east-prod-01\"\n  weight  = 3000000000", 1),
			ExpectError: expectError(`weight: weight must be a whole number from 1 to 100, got 3000000000`),
			PlanOnly:    true,
		},
	}})
}

// Issue 9 item 12: a NodePool number that comes from another resource, so
// that validation sees it unknown, gets the engine's rule and range once it
// is known (at plan), not a decoding error. The AKS CRD declares weight an
// int32 from 1 to 100.
func TestAccRegression_nodePoolNumberFromAnotherResource(t *testing.T) {
	cfg := providerConfig(t, "") + `
resource "terraform_data" "weight" { input = 2.5 }
` + strings.Replace(nodePoolConfig(`team = "web"`, `{ nodes = "10%" }`), `name    = "default"`, "name    = \"default\"\n  weight  = terraform_data.weight.output", 1)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config:      cfg,
		ExpectError: expectError(`weight: weight must be a whole number from 1 to 100, got 2.5`),
	}}})
}
