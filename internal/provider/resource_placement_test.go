package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
)

const plAddr = "aks_fleet_placement.test"

func attrPath(root string, steps ...any) tfjsonpath.Path {
	p := tfjsonpath.New(root)
	for _, s := range steps {
		switch v := s.(type) {
		case string:
			p = p.AtMapKey(v)
		case int:
			p = p.AtSliceIndex(v)
		}
	}
	return p
}

func previewPath(steps ...any) tfjsonpath.Path { return attrPath("preview", steps...) }

func listOf(names ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(names))
	for i, n := range names {
		checks[i] = knownvalue.StringExact(n)
	}
	return knownvalue.ListExact(checks)
}

// expectSelected checks the planned preview's selected clusters (one line each).
func expectSelected(addr string, names ...string) []plancheck.PlanCheck {
	checks := []plancheck.PlanCheck{plancheck.ExpectKnownValue(addr, previewPath("selected"), knownvalue.MapSizeExact(len(names)))}
	for _, n := range names {
		checks = append(checks, plancheck.ExpectKnownValue(addr, previewPath("selected", n), knownvalue.StringRegexp(regexp.MustCompile(`^affinity -?\d+, topology spread -?\d+`))))
	}
	return checks
}

// scores matches a selected cluster's line.
func scores(affinity, topology int) knownvalue.Check {
	return knownvalue.StringRegexp(regexp.MustCompile(fmt.Sprintf(`^affinity %d, topology spread %d\b`, affinity, topology)))
}

func expectHeld(addr string, names ...string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, attrPath("status", "selected_clusters"), listOf(names...))
}

// The seed policies of the Fleet documentation (examples/resources/aks_fleet_placement)
// give the decisions Fleet gives on the sample fleet.
func TestAccPlacement_seedPolicies(t *testing.T) {
	src, err := os.ReadFile("../../examples/resources/aks_fleet_placement/resource.tf")
	if err != nil {
		t.Fatal(err)
	}
	cfg := providerConfig(t, "") + string(src)
	r := func(name string) string { return "aks_fleet_placement." + name }
	var pre []plancheck.PlanCheck
	pre = append(pre, expectSelected(r("five_nodes"), "aks-east-prod-01", "aks-east-prod-02", "aks-sea-prod-01", "aks-sea-prod-02", "aks-weu-prod-01", "aks-weu-prod-02")...)
	pre = append(pre, expectSelected(r("east_five_nodes"), "aks-east-prod-01", "aks-east-prod-02")...)
	pre = append(pre, expectSelected(r("most_cpu"), "aks-east-prod-01", "aks-sea-prod-01", "aks-weu-prod-01")...)
	pre = append(pre, expectSelected(r("cheapest_cpu"), "aks-east-prod-01", "aks-sea-prod-01", "aks-sea-prod-02")...)
	pre = append(pre, expectSelected(r("prod_gold"), "aks-east-prod-02", "aks-sea-prod-01", "aks-weu-prod-01")...)
	pre = append(pre, expectSelected(r("spread"), "aks-east-prod-01", "aks-east-prod-02", "aks-sea-edge-01", "aks-sea-stage-01", "aks-weu-prod-02", "aks-weu-stage-01")...)
	pre = append(pre, expectSelected(r("fixed"), "aks-east-prod-01", "aks-weu-prod-01")...)
	pre = append(pre,
		// Scores: available CPU normalised over the whole fleet (min 2, max 100).
		plancheck.ExpectKnownValue(r("most_cpu"), previewPath("selected", "aks-sea-prod-01"), scores(49, 0)),
		// The best-scored cluster left out comes first among the left-out ones.
		plancheck.ExpectKnownValue(r("most_cpu"), previewPath("left_out", "aks-east-prod-02"), knownvalue.StringExact("#1 does not score high enough (affinity score: 18, topology spread score: 0)")),
		// Per-core cost 0.1 … 1, ascending: 0.15 → 94, 0.18 → 91.
		plancheck.ExpectKnownValue(r("cheapest_cpu"), previewPath("selected", "aks-sea-prod-02"), scores(91, 0)),
		plancheck.ExpectKnownValue(r("prod_gold"), previewPath("selected", "aks-east-prod-02"), scores(20, 0)),
		plancheck.ExpectKnownValue(r("prod_gold"), previewPath("summary"), knownvalue.StringExact("PickN: 3 of 3 clusters selected")),
		plancheck.ExpectKnownValue(r("five_nodes"), previewPath("summary"), knownvalue.StringExact("PickAll: 6 clusters selected")),
		plancheck.ExpectKnownValue(r("five_nodes"), previewPath("left_out_counts"), knownvalue.MapExact(map[string]knownvalue.Check{
			// Fleet filters by affinity before eligibility: the stale cluster (2 nodes) counts here.
			"does not match any required cluster affinity term":  knownvalue.Int64Exact(5),
			"taint dedicated=gpu:NoSchedule cannot be tolerated": knownvalue.Int64Exact(1),
		})),
		plancheck.ExpectKnownValue(r("spread"), previewPath("rollout"),
			knownvalue.StringExact("RollingUpdate: up to 3 unavailable and 1 extra at a time, each available after 60s")),
		plancheck.ExpectUnknownValue(r("fixed"), tfjsonpath.New("status")),
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: pre},
				ConfigStateChecks: []statecheck.StateCheck{
					expectHeld(r("most_cpu"), "aks-east-prod-01", "aks-sea-prod-01", "aks-weu-prod-01"),
					expectHeld(r("fixed"), "aks-east-prod-01", "aks-weu-prod-01"),
					statecheck.ExpectKnownValue(r("fixed"), attrPath("status", "conditions", 0, "reason"), knownvalue.StringExact("SchedulingPolicyFulfilled")),
				},
			},
			{
				ResourceName:      r("spread"),
				ImportState:       true,
				ImportStateId:     "spread",
				ImportStateVerify: true,
				// The configuration writes this default explicitly; an import
				// records the shortest form, without defaults (designs/hub.md §5).
				ImportStateVerifyIgnore: []string{"policy.topology_spread_constraints.0.when_unsatisfiable"},
			},
			{
				ResourceName:      r("most_cpu"),
				ImportState:       true,
				ImportStateId:     "most-cpu",
				ImportStateVerify: true,
			},
		},
	})
}

const changingFleet = `
regions: [{ name: eastus }, { name: westeurope }]
clusters:
  - { name: east-1, region: eastus, labels: { env: prod, region: east } }
  - { name: east-2, region: eastus, labels: { env: prod, region: east } }
  - { name: west-1, region: westeurope, labels: { env: prod, region: west } }
  - { name: west-2, region: westeurope, labels: { env: dev, region: west } }
`

// After: east-2 left the fleet, west-3 joined, west-1 was relabelled away from
// prod and tainted, and west-2 became prod.
const changedFleet = `
regions: [{ name: eastus }, { name: westeurope }]
clusters:
  - { name: east-1, region: eastus, labels: { env: prod, region: east } }
  - { name: west-1, region: westeurope, labels: { env: dev, region: west }, taints: [{ key: maintenance, value: "true" }] }
  - { name: west-2, region: westeurope, labels: { env: prod, region: west } }
  - { name: west-3, region: westeurope, labels: { env: prod, region: west } }
`

func TestAccPlacement_fleetChangesKeepThePlanEmpty(t *testing.T) {
	file := writeFleet(t, changingFleet)
	cfg := providerConfig(t, file) + `
resource "aks_fleet_placement" "all_prod" {
  name               = "all-prod"
  resource_selectors = [{ version = "v1", kind = "Namespace", name = "web" }]
  policy = { affinity = { required = [{ label_selector = { match_labels = { env = "prod" } } }] } }
}
resource "aks_fleet_placement" "two" {
  name               = "two"
  resource_selectors = [{ version = "v1", kind = "Namespace", name = "web" }]
  policy = {
    placement_type     = "PickN"
    number_of_clusters = 2
    affinity           = { required = [{ label_selector = { match_labels = { env = "prod" } } }] }
  }
}`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectHeld("aks_fleet_placement.all_prod", "east-1", "east-2", "west-1"),
					expectHeld("aks_fleet_placement.two", "east-2", "west-1"), // ties go to the larger names
				},
			},
			{
				PreConfig: func() { rewriteFleet(t, file, changedFleet) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					// PickAll: the departed cluster is dropped, new matching clusters are taken,
					// the relabelled and tainted cluster is held (IgnoredDuringExecution).
					expectHeld("aks_fleet_placement.all_prod", "east-1", "west-1", "west-2", "west-3"),
					// PickN: west-1 stays held; the departed east-2 is replaced by the best candidate.
					expectHeld("aks_fleet_placement.two", "west-1", "west-3"),
					// The plan-time preview is kept: it only changes with the configuration.
					statecheck.ExpectKnownValue("aks_fleet_placement.two", previewPath("selected", "east-2"), knownvalue.NotNull()),
				},
			},
		},
	})
}

func rewriteFleet(t *testing.T, file, body string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAccPlacement_updates(t *testing.T) {
	cfg := providerConfig(t, "")
	placementCfg := func(n int, ns, tolerations, placementType string) string {
		return cfg + `
resource "aks_fleet_placement" "test" {
  name               = "app"
  resource_selectors = [{ version = "v1", kind = "Namespace", name = "` + ns + `" }]
  policy = {
    placement_type     = "` + placementType + `"
    number_of_clusters = ` + strconv.Itoa(n) + `
    tolerations        = [` + tolerations + `]
    affinity = {
      preferred = [{
        weight     = 100
        preference = { property_sorter = { name = "resources.kubernetes-fleet.io/available-cpu", sort_order = "Descending" } }
      }]
    }
  }
}`
	}
	gpu := `{ key = "dedicated", value = "gpu" }`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config:            placementCfg(2, "web", gpu, "PickN"),
				ConfigStateChecks: []statecheck.StateCheck{expectHeld(plAddr, "aks-east-prod-01", "aks-sea-prod-01")},
			},
			{
				// Scaling out only adds clusters.
				Config: placementCfg(4, "web", gpu, "PickN"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(expectSelected(plAddr, "aks-east-gpu-01", "aks-east-prod-01", "aks-sea-prod-01", "aks-weu-prod-01"),
					plancheck.ExpectResourceAction(plAddr, plancheck.ResourceActionUpdate))},
				ConfigStateChecks: []statecheck.StateCheck{expectHeld(plAddr, "aks-east-gpu-01", "aks-east-prod-01", "aks-sea-prod-01", "aks-weu-prod-01")},
			},
			{
				// Scaling in drops the held cluster with the lowest score recorded when it was picked.
				Config:            placementCfg(3, "web", gpu, "PickN"),
				ConfigStateChecks: []statecheck.StateCheck{expectHeld(plAddr, "aks-east-gpu-01", "aks-east-prod-01", "aks-sea-prod-01")},
			},
			{
				// Changing only the resource selectors never reschedules.
				Config:            placementCfg(3, "api", gpu, "PickN"),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: expectSelected(plAddr, "aks-east-gpu-01", "aks-east-prod-01", "aks-sea-prod-01")},
				ConfigStateChecks: []statecheck.StateCheck{expectHeld(plAddr, "aks-east-gpu-01", "aks-east-prod-01", "aks-sea-prod-01")},
			},
			{
				// Tolerations may only be added.
				Config:      placementCfg(3, "api", "", "PickN"),
				ExpectError: regexp.MustCompile(`(?s)policy\.tolerations.*removing a toleration requires\s+replacing the placement`),
			},
			{
				// A different placement type replaces the placement.
				Config: cfg + `
resource "aks_fleet_placement" "test" {
  name               = "app"
  resource_selectors = [{ version = "v1", kind = "Namespace", name = "api" }]
  policy             = { placement_type = "PickAll", tolerations = [` + gpu + `] }
}`,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(plAddr, plancheck.ResourceActionReplace),
					plancheck.ExpectKnownValue(plAddr, previewPath("selected"), knownvalue.MapSizeExact(11)),
				}},
			},
		},
	})
}

// On a 1,000-cluster fleet the plan lists the picks and a bounded number of
// left-out clusters, and counts the rest by reason.
func TestAccPlacement_largeFleetPreviewIsBounded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(file, fleetgen.Generate(fleetgen.Options{Clusters: 1000, Seed: 11, StaleEvery: 50, TaintEvery: 40}), 0o644); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: providerConfig(t, file) + `
resource "aks_fleet_placement" "test" {
  name               = "big"
  resource_selectors = [{ version = "v1", kind = "Namespace", name = "web" }]
  preview_limit      = 10
  policy = {
    placement_type     = "PickN"
    number_of_clusters = 5
    affinity = {
      required  = [{ label_selector = { match_labels = { env = "prod" } } }]
      preferred = [{ weight = 100, preference = { property_sorter = { name = "resources.kubernetes-fleet.io/available-cpu", sort_order = "Descending" } } }]
    }
  }
}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(plAddr, previewPath("selected"), knownvalue.MapSizeExact(5)),
				plancheck.ExpectKnownValue(plAddr, previewPath("left_out"), knownvalue.MapSizeExact(10)),
				plancheck.ExpectKnownValue(plAddr, previewPath("left_out_total"), knownvalue.Int64Exact(995)),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(plAddr, attrPath("status", "selected_clusters"), knownvalue.ListSizeExact(5)),
			},
		}},
	})
}

// Issue 9 item 1: Fleet removes, on scale-in, the cluster with the lowest
// score recorded on its binding when it was picked (framework.go downscale →
// sortByClusterScoreAndName). PickN 2 spread over zones picks b (−1) and
// then a (+1); the plan of number_of_clusters = 1 reads the recorded scores
// from the status in state, keeps a, and shows a's recorded +1. Computed
// again, the scores would keep b.
func TestAccPlacement_scaleInByRecordedScores(t *testing.T) {
	file := writeFleet(t, `
regions: [{ name: r }]
clusters:
  - { name: a, region: r, labels: { zone: x } }
  - { name: b, region: r, labels: { zone: y } }
`)
	provider := providerConfig(t, file)
	cfg := func(n int) string {
		return provider + `
resource "aks_fleet_placement" "test" {
  name               = "app"
  resource_selectors = [{ version = "v1", kind = "Namespace", name = "web" }]
  policy = {
    placement_type              = "PickN"
    number_of_clusters          = ` + strconv.Itoa(n) + `
    topology_spread_constraints = [{ topology_key = "zone" }]
  }
}`
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: cfg(2), ConfigStateChecks: []statecheck.StateCheck{expectHeld(plAddr, "a", "b")}},
			{
				Config: cfg(1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(expectSelected(plAddr, "a"),
					plancheck.ExpectKnownValue(plAddr, previewPath("selected", "a"), knownvalue.StringRegexp(regexp.MustCompile(`topology spread 1\b`))),
					// Fleet's status lists no left-out cluster on scale-in; the count says what happened.
					plancheck.ExpectKnownValue(plAddr, previewPath("left_out"), knownvalue.MapSizeExact(0)),
					plancheck.ExpectKnownValue(plAddr, previewPath("left_out_counts"), knownvalue.MapExact(map[string]knownvalue.Check{
						placement.ReasonScaledIn: knownvalue.Int64Exact(1)})))},
				ConfigStateChecks: []statecheck.StateCheck{expectHeld(plAddr, "a")},
			},
		},
	})
}
