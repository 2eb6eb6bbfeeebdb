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

func listOf(names ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(names))
	for i, n := range names {
		checks[i] = knownvalue.StringExact(n)
	}
	return knownvalue.ListExact(checks)
}

// placementObj names a placement in its preview's summary.
func placementObj(name string) string { return placementType + " " + name }

// expectSelected checks the plan's preview of a new placement: exactly these
// clusters selected, each with its scores.
func expectSelected(name string, clusters ...string) []plancheck.PlanCheck {
	checks := []plancheck.PlanCheck{expectPreview(placementObj(name), fmt.Sprintf("selected (%d):", len(clusters)))}
	for _, c := range clusters {
		checks = append(checks, expectPreviewLine(placementObj(name), regexp.MustCompile(`^`+regexp.QuoteMeta(c)+`\s+affinity -?\d+, topology spread -?\d+`)))
	}
	return checks
}

// scoreLine matches a selected cluster's line in a preview.
func scoreLine(cluster string, affinity, topology int) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`^%s\s+affinity %d, topology spread %d\b`, regexp.QuoteMeta(cluster), affinity, topology))
}

// heldData reads, after apply, the clusters the placement of resource addr holds.
func heldData(label, addr string) string {
	return fmt.Sprintf("\ndata \"aks_fleet_placement\" %q {\n  name = %s.name\n}\n", label, addr)
}

// expectHeld checks the clusters a placement holds, read by heldData(label, …).
func expectHeld(label string, names ...string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue("data.aks_fleet_placement."+label, tfjsonpath.New("selected_clusters"), listOf(names...))
}

// The seed policies of the Fleet documentation (examples/resources/aks_fleet_placement)
// give the decisions Fleet gives on the sample fleet.
func TestAccPlacement_seedPolicies(t *testing.T) {
	src, err := os.ReadFile("../../examples/resources/aks_fleet_placement/resource.tf")
	if err != nil {
		t.Fatal(err)
	}
	r := func(name string) string { return "aks_fleet_placement." + name }
	cfg := providerConfig(t, "") + string(src) + heldData("most_cpu", r("most_cpu")) + heldData("fixed", r("fixed"))
	var pre []plancheck.PlanCheck
	pre = append(pre, expectSelected("five-nodes", "aks-east-prod-01", "aks-east-prod-02", "aks-sea-prod-01", "aks-sea-prod-02", "aks-weu-prod-01", "aks-weu-prod-02")...)
	pre = append(pre, expectSelected("east-five-nodes", "aks-east-prod-01", "aks-east-prod-02")...)
	pre = append(pre, expectSelected("most-cpu", "aks-east-prod-01", "aks-sea-prod-01", "aks-weu-prod-01")...)
	pre = append(pre, expectSelected("cheapest-cpu", "aks-east-prod-01", "aks-sea-prod-01", "aks-sea-prod-02")...)
	pre = append(pre, expectSelected("prod-gold", "aks-east-prod-02", "aks-sea-prod-01", "aks-weu-prod-01")...)
	pre = append(pre, expectSelected("spread", "aks-east-prod-01", "aks-east-prod-02", "aks-sea-edge-01", "aks-sea-stage-01", "aks-weu-prod-02", "aks-weu-stage-01")...)
	pre = append(pre, expectSelected("fixed", "aks-east-prod-01", "aks-weu-prod-01")...)
	pre = append(pre,
		// Scores: available CPU normalised over the whole fleet (min 2, max 100).
		expectPreviewLine(placementObj("most-cpu"), scoreLine("aks-sea-prod-01", 49, 0)),
		// The best-scored cluster left out comes first among the left-out ones.
		expectPreviewLine(placementObj("most-cpu"), regexp.MustCompile(`^#1 aks-east-prod-02\s+does not score high enough \(affinity score: 18, topology spread score: 0\)$`)),
		// Per-core cost 0.1 … 1, ascending: 0.15 → 94, 0.18 → 91.
		expectPreviewLine(placementObj("cheapest-cpu"), scoreLine("aks-sea-prod-02", 91, 0)),
		expectPreviewLine(placementObj("prod-gold"), scoreLine("aks-east-prod-02", 20, 0)),
		expectPreview(placementObj("prod-gold"), "Preview: aks_fleet_placement prod-gold — PickN: 3 of 3 clusters selected"),
		expectPreview(placementObj("five-nodes"), "— PickAll: 6 clusters selected",
			// Fleet filters by affinity before eligibility: the stale cluster (2 nodes) counts here.
			"left out (6; the best first):", "does not match any required cluster affinity term",
			"taint dedicated=gpu:NoSchedule cannot be tolerated"),
		expectPreview(placementObj("spread"), "RollingUpdate: up to 3 unavailable and 1 extra at a time, unavailable_period_seconds 60"),
		// A prediction is not state: what the hub holds is known after apply.
		plancheck.ExpectUnknownValue(r("fixed"), tfjsonpath.New("status")),
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: pre},
				ConfigStateChecks: []statecheck.StateCheck{
					expectHeld("most_cpu", "aks-east-prod-01", "aks-sea-prod-01", "aks-weu-prod-01"),
					expectHeld("fixed", "aks-east-prod-01", "aks-weu-prod-01"),
					statecheck.ExpectKnownValue(r("fixed"), attrPath("status", "selected"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(r("fixed"), attrPath("status", "conditions", 0, "reason"), knownvalue.StringExact("SchedulingPolicyFulfilled")),
					// The data source has every decision with the score recorded when the cluster was picked.
					statecheck.ExpectKnownValue("data.aks_fleet_placement.most_cpu", attrPath("decisions", 1), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"cluster_name": knownvalue.StringExact("aks-sea-prod-01"), "selected": knownvalue.Bool(true),
						"affinity_score": knownvalue.Int64Exact(49), "topology_spread_score": knownvalue.Int64Exact(0),
						"reason": knownvalue.StringExact(placement.ReasonPicked)})),
				},
			},
			{
				// A plan without changes previews nothing.
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(),
					expectNoPreview(placementObj("most-cpu"))}},
			},
			{
				ResourceName:      r("spread"),
				ImportState:       true,
				ImportStateId:     "spread",
				ImportStateVerify: true,
				// The configuration writes this default explicitly; an import
				// records the shortest form, without defaults (designs/hub.md §5).
				// Waiting for the rollout is how apply behaves, not what the hub
				// holds: an import cannot know it.
				ImportStateVerifyIgnore: []string{"policy.topology_spread_constraints.0.when_unsatisfiable", "wait_for_rollout", "timeouts"},
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
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "web"
  }
  policy {
    affinity {
      required {
        label_selector {
          match_labels = { env = "prod" }
        }
      }
    }
  }
}
resource "aks_fleet_placement" "two" {
  name               = "two"
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "web"
  }
  policy {
    placement_type     = "PickN"
    number_of_clusters = 2
    affinity {
      required {
        label_selector {
          match_labels = { env = "prod" }
        }
      }
    }
  }
}` + heldData("all_prod", "aks_fleet_placement.all_prod") + heldData("two", "aks_fleet_placement.two")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectHeld("all_prod", "east-1", "east-2", "west-1"),
					expectHeld("two", "east-2", "west-1"), // ties go to the larger names
				},
			},
			{
				PreConfig: func() { rewriteFleet(t, file, changedFleet) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					// Nothing to apply, nothing previewed: the hub's decisions moved with the fleet.
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), expectNoPreview(placementObj("two"))},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					// PickAll: the departed cluster is dropped, new matching clusters are taken,
					// the relabelled and tainted cluster is held (IgnoredDuringExecution).
					expectHeld("all_prod", "east-1", "west-1", "west-2", "west-3"),
					// PickN: west-1 stays held; the departed east-2 is replaced by the best candidate.
					expectHeld("two", "west-1", "west-3"),
					statecheck.ExpectKnownValue("aks_fleet_placement.two", attrPath("status", "selected"), knownvalue.Int64Exact(2)),
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
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "` + ns + `"
  }
  policy {
    placement_type     = "` + placementType + `"
    number_of_clusters = ` + strconv.Itoa(n) + `
` + blocksOf("tolerations", tolerations) + `
    affinity {
      preferred {
        weight     = 100
        preference {
          property_sorter {
            name = "resources.kubernetes-fleet.io/available-cpu"
            sort_order = "Descending"
          }
        }
      }
    }
  }
}` + heldData("test", plAddr)
	}
	gpu := `{ key = "dedicated", value = "gpu" }`
	obj := placementObj("app")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config:            placementCfg(2, "web", gpu, "PickN"),
				ConfigStateChecks: []statecheck.StateCheck{expectHeld("test", "aks-east-prod-01", "aks-sea-prod-01")},
			},
			{
				// Scaling out only adds clusters: the preview shows what it adds.
				Config: placementCfg(4, "web", gpu, "PickN"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(obj, "PickN: 4 of 4 clusters selected, 2 added, 0 released", "keeps 2 clusters it holds", "added (2) and released (0):"),
					expectPreviewLine(obj, regexp.MustCompile(`^\+ aks-east-gpu-01\s+affinity \d+`)),
					expectPreviewLine(obj, regexp.MustCompile(`^\+ aks-weu-prod-01\s+affinity \d+`)),
					plancheck.ExpectResourceAction(plAddr, plancheck.ResourceActionUpdate)}},
				ConfigStateChecks: []statecheck.StateCheck{expectHeld("test", "aks-east-gpu-01", "aks-east-prod-01", "aks-sea-prod-01", "aks-weu-prod-01")},
			},
			{
				// Scaling in drops the held cluster with the lowest score recorded when it was picked.
				Config: placementCfg(3, "web", gpu, "PickN"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(obj, "3 of 3 clusters selected, 0 added, 1 released", "- aks-weu-prod-01 released: "+placement.ReasonScaledIn)}},
				ConfigStateChecks: []statecheck.StateCheck{expectHeld("test", "aks-east-gpu-01", "aks-east-prod-01", "aks-sea-prod-01")},
			},
			{
				// Changing only the resource selectors never reschedules.
				Config:            placementCfg(3, "api", gpu, "PickN"),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{expectPreview(obj, "0 added, 0 released", "keeps 3 clusters")}},
				ConfigStateChecks: []statecheck.StateCheck{expectHeld("test", "aks-east-gpu-01", "aks-east-prod-01", "aks-sea-prod-01")},
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
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "api"
  }
  policy {
    placement_type = "PickAll"
` + blocksOf("tolerations", gpu) + `
  }
}`,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(plAddr, plancheck.ResourceActionReplace),
					// A new placement: nothing is held.
					expectPreview(obj, "PickAll: 11 clusters selected", "selected (11):"),
				}},
			},
		},
	})
}

// On a 1,000-cluster fleet the plan lists the picks and a bounded number of
// left-out clusters, and counts the rest by reason.
func TestAccPlacement_largeFleetPreviewIsBounded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "fleet.json")
	if err := os.WriteFile(file, fleetgen.Generate(fleetgen.Options{Clusters: 1000, Seed: 11, StaleEvery: 50, TaintEvery: 40}), 0o644); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: providerConfig(t, file) + `
resource "aks_fleet_placement" "test" {
  name               = "big"
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "web"
  }
  preview_limit      = 10
  policy {
    placement_type     = "PickN"
    number_of_clusters = 5
    affinity {
      required {
        label_selector {
          match_labels = { env = "prod" }
        }
      }
      preferred {
        weight = 100
        preference {
          property_sorter {
            name = "resources.kubernetes-fleet.io/available-cpu"
            sort_order = "Descending"
          }
        }
      }
    }
  }
}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				// 10 lines in all: the 5 picks, the 5 best left out, then counts per reason.
				expectPreview(placementObj("big"), "selected (5):", "left out (995; the best first):", "… and 990 more", "left out per reason:"),
				expectPreviewLine(placementObj("big"), regexp.MustCompile(`^#5 `)),
				expectPreviewLacks(placementObj("big"), "#6 "),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(plAddr, attrPath("status", "selected"), knownvalue.Int64Exact(5)),
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
	cfg := func(n int) string { return provider + zoneSpreadPlacement(n, "") }
	obj := placementObj("app")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: cfg(2) + heldData("test", plAddr), ConfigStateChecks: []statecheck.StateCheck{expectHeld("test", "a", "b")}},
			{
				Config: cfg(1) + heldData("test", plAddr),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					// b goes, a is kept: its recorded score (+1) beats b's (−1).
					expectPreview(obj, "1 of 1 cluster selected, 0 added, 1 released", "keeps 1 cluster it holds",
						"- b released: "+placement.ReasonScaledIn+" (affinity 0, topology spread -1)"),
					// Fleet's status lists no left-out cluster on scale-in; the count says what happened.
					expectPreview(obj, "left out per reason:", "1 "+placement.ReasonScaledIn),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					expectHeld("test", "a"),
					statecheck.ExpectKnownValue("data.aks_fleet_placement.test", attrPath("decisions", 0, "topology_spread_score"), knownvalue.Int64Exact(1)),
				},
			},
		},
	})
}

// Issue 24, finding 7: a scale-in removes the clusters whose bindings Fleet
// has not bound yet before any bound one, whatever the scores recorded
// (framework.go downscale: Scheduled bindings first, then
// sortByClusterScoreAndName over the bound ones). PickN 2 spread over three
// zones picks c (−1), then b (0); with strategy External a scale-out to 3
// adds a with +1, and nothing binds it. Scaling in to 2 then removes a,
// although c's recorded −1 is the lowest: ranked by recorded score alone, c
// would go.
func TestAccPlacement_scaleInRemovesUnboundBindingsFirst(t *testing.T) {
	file := writeFleet(t, `
regions: [{ name: r }]
clusters:
  - { name: a, region: r, labels: { zone: x } }
  - { name: b, region: r, labels: { zone: y } }
  - { name: c, region: r, labels: { zone: z } }
`)
	provider := providerConfig(t, file)
	cfg := func(n int, strategy string) string { return provider + zoneSpreadPlacement(n, strategy) }
	external := "  strategy {\n    type = \"External\"\n  }\n"
	obj := placementObj("app")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: cfg(2, "") + heldData("test", plAddr), ConfigStateChecks: []statecheck.StateCheck{expectHeld("test", "b", "c")}},
			{Config: cfg(3, external) + heldData("test", plAddr), ConfigStateChecks: []statecheck.StateCheck{expectHeld("test", "a", "b", "c")}},
			{
				Config: cfg(2, external) + heldData("test", plAddr),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(obj, "2 of 2 clusters selected, 0 added, 1 released (-a)", "- a released: "+placement.ReasonScaledInUnbound),
				}},
				ConfigStateChecks: []statecheck.StateCheck{expectHeld("test", "b", "c")},
			},
		},
	})
}

// zoneSpreadPlacement is the placement "app" of PickN n spread over the
// label zone, with strategy (a strategy block, or "" for the default).
func zoneSpreadPlacement(n int, strategy string) string {
	return `
resource "aks_fleet_placement" "test" {
  name               = "app"
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "web"
  }
  policy {
    placement_type              = "PickN"
    number_of_clusters          = ` + strconv.Itoa(n) + `
    topology_spread_constraints {
      topology_key = "zone"
    }
  }
` + strategy + `
}`
}

// Issue 25, Deliver 2: the plan shows which hub-cluster resources a
// placement selects, as Fleet resolves its selectors (designs/placement.md
// §9) — a Namespace with the objects in it, an envelope with what it
// carries, a ClusterRole by label, in Fleet's order; a selector that
// selects nothing is a warning naming it; selectors Fleet refuses are an
// error at plan.
func TestAccPlacement_previewsTheResourcesItSelects(t *testing.T) {
	provider := providerConfig(t, "")
	cfg := func(selectors string) string {
		return provider + `
resource "aks_fleet_placement" "test" {
  name = "web"
` + selectors + `
  policy {
    placement_type = "PickFixed"
    cluster_names  = ["aks-east-prod-01"]
  }
}`
	}
	web := `
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
  resource_selectors {
    group   = "rbac.authorization.k8s.io"
    version = "v1"
    kind    = "ClusterRole"
    label_selector {
      match_labels = { app = "web" }
    }
  }`
	obj := placementObj("web")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg(web),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectSection(obj, "resources (8 selected, 1 envelope)", "v1 Namespace web", "v1 ServiceAccount web/web",
						"v1 Secret web/web-tls",
						"v1 ConfigMap web/web-policies (envelope of admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration web-guard)",
						"v1 ConfigMap web/web-settings", "rbac.authorization.k8s.io/v1 ClusterRole web-reader", "v1 Service web/web",
						"apps/v1 Deployment web/web"),
				}},
			},
			{
				Config: cfg(web + `
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "nope"
  }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectWarning("resource_selectors[2]: selects nothing on the hub cluster (no v1 Namespace named nope)"),
				}},
			},
			{
				Config:      cfg("  resource_selectors {\n    version = \"v1\"\n    kind = \"Namespace\"\n  }"),
				PlanOnly:    true,
				ExpectError: expectError("namespaces default, kube-node-lease, kube-public, kube-system are not allowed to propagate"),
			},
			{
				Config:      cfg("  resource_selectors {\n    version = \"v1\"\n    kind = \"ConfigMap\"\n    name = \"web-settings\"\n  }"),
				PlanOnly:    true,
				ExpectError: expectError("ConfigMap is namespace-scoped: a cluster resource placement selects cluster-scoped resources only"),
			},
		},
	})
}
