package provider

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// rolloutFleet is 8 members aks-01…aks-08 and a hub cluster whose namespace
// web holds a ConfigMap (data: version) and a Job — a kind whose
// availability Fleet does not track, so that a cluster counts as available
// unavailable_period_seconds (60) after it applied — and a ClusterRole
// labelled app=web. failing members fail to apply.
func rolloutFleet(version string, failing ...string) string {
	var b strings.Builder
	b.WriteString("regions: [{ name: eastus }]\nclusters:\n")
	for i := 1; i <= 8; i++ {
		name := fmt.Sprintf("aks-%02d", i)
		fails := ""
		for _, f := range failing {
			if f == name {
				fails = `, failures: { placement: "admission webhook denied the request" }`
			}
		}
		fmt.Fprintf(&b, "  - { name: %s, region: eastus%s }\n", name, fails)
	}
	fmt.Fprintf(&b, `hub_cluster:
  namespaces:
    - name: web
      objects:
        - { kind: ConfigMap, name: settings, data: { version: "%s" } }
        - { group: batch, kind: Job, name: migrate }
  objects:
    - { group: rbac.authorization.k8s.io, kind: ClusterRole, name: web-reader, labels: { app: web } }
`, version)
	return b.String()
}

// TestAccPlacement_rollsOutInTheBatchesPreviewed is the placement
// document's rolling update (max_unavailable 25%, unavailable_period_seconds
// 60) over 8 clusters, on the hub's clock: a new placement goes to every
// cluster at once; a change of its resources is previewed in batches of two
// a minute apart and runs in exactly those batches, as the status reports
// after each minute; two clusters that fail to apply stop the next rollout,
// the status naming them, the condition and the resources.
func TestAccPlacement_rollsOutInTheBatchesPreviewed(t *testing.T) {
	fleetFile := writeFleet(t, rolloutFleet("1"))
	provider := providerConfigAt(t.TempDir()+"/state.db", fleetFile, clockFromEnv)
	at := func(ts string) func() { return func() { t.Setenv(EnvClockTime, ts) } }
	cfg := func(extra string) string { return provider + rolloutPlacement(extra+quarter) }
	role := roleByLabel
	obj, r := placementObj("web"), "aks_fleet_placement.test"
	available := func(n int64) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(r, attrPath("status", "clusters_available"), knownvalue.Int64Exact(n))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				PreConfig: at("2026-11-27T10:00:00Z"),
				Config:    cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectSection(obj, "rollout (RollingUpdate: up to 2 unavailable and 2 extra at a time, unavailable_period_seconds 60): 1 batch, all at apply", "1 · at apply · aks-01, aks-02, aks-03, aks-04, aks-05, aks-06 and 2 more"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{available(8),
					statecheck.ExpectKnownValue(r, attrPath("status", "selected_resource_count"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(r, attrPath("status", "resource_index"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(r, attrPath("status", "rollout"), knownvalue.Null()),
				},
			},
			{
				PreConfig: at("2026-11-27T10:10:00Z"),
				Config:    cfg(role),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectSection(obj, "rollout (RollingUpdate: up to 2 unavailable and 2 extra at a time, unavailable_period_seconds 60): 4 batches, the last +3m after apply",
						"1 · at apply · aks-01, aks-02", "2 · +1m · aks-03, aks-04", "3 · +2m · aks-05, aks-06", "4 · +3m · aks-07, aks-08"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{available(2),
					statecheck.ExpectKnownValue(r, attrPath("status", "resource_index"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(r, attrPath("status", "clusters_not_available").AtSliceIndex(0).AtMapKey("reason"), knownvalue.StringExact("RolloutNotStartedYet")),
				},
			},
			{PreConfig: at("2026-11-27T10:11:00Z"), Config: cfg(role), ConfigStateChecks: []statecheck.StateCheck{available(4)}},
			{PreConfig: at("2026-11-27T10:12:30Z"), Config: cfg(role), ConfigStateChecks: []statecheck.StateCheck{available(6)}},
			{PreConfig: at("2026-11-27T10:13:00Z"), Config: cfg(role), ConfigStateChecks: []statecheck.StateCheck{available(8),
				statecheck.ExpectKnownValue(r, attrPath("status", "rollout"), knownvalue.Null())}},
			{
				// The ConfigMap changes on the hub and two clusters fail to
				// apply: Fleet updates them first, and they hold the budget.
				PreConfig: func() {
					t.Setenv(EnvClockTime, "2026-11-27T10:30:00Z")
					rewriteFleet(t, fleetFile, rolloutFleet("2", "aks-01", "aks-02"))
				},
				Config: cfg(role),
				ConfigStateChecks: []statecheck.StateCheck{available(0),
					statecheck.ExpectKnownValue(r, attrPath("status", "resource_index"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(r, attrPath("status", "rollout"), knownvalue.StringRegexp(regexp.MustCompile(`^blocked: 6 cluster\(s\) cannot be updated`))),
					statecheck.ExpectKnownValue(r, attrPath("status", "clusters_not_available").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"cluster": knownvalue.StringExact("aks-01"), "condition": knownvalue.StringExact("Applied"), "status": knownvalue.StringExact("False"),
						"reason": knownvalue.StringExact("NotAllWorkHaveBeenApplied"), "message": knownvalue.StringExact("Work object web-work is not applied"),
						"failed_placements": listOf("v1 Namespace web: admission webhook denied the request",
							"v1 ConfigMap web/settings: admission webhook denied the request",
							"rbac.authorization.k8s.io/v1 ClusterRole web-reader: admission webhook denied the request",
							"batch/v1 Job web/migrate: admission webhook denied the request"),
					})),
					statecheck.ExpectKnownValue(r, attrPath("status", "conditions").AtSliceIndex(1).AtMapKey("reason"), knownvalue.StringExact("RolloutNotStartedYet")),
					statecheck.ExpectKnownValue(r, attrPath("status", "conditions").AtSliceIndex(1).AtMapKey("message"),
						knownvalue.StringExact("The rollout is being blocked by the rollout strategy in 6 cluster(s)")),
				},
			},
		},
	})
}

// TestAccPlacement_reportsStatusAsKubectlDescribe is the placement
// document's `kubectl describe crp crp-1`: PickN 2 of the namespace test
// with its ConfigMap test-1, on aks-member-1 and aks-member-2 — read back in
// Fleet's v1 conditions (the document shows an earlier API's names): the
// placement scheduled and its resources applied and available, each
// cluster scheduled with its scores, the selected resources in Fleet's
// order.
func TestAccPlacement_reportsStatusAsKubectlDescribe(t *testing.T) {
	fleetFile := writeFleet(t, `
regions: [{ name: eastus }]
clusters:
  - { name: aks-member-1, region: eastus }
  - { name: aks-member-2, region: eastus }
hub_cluster:
  namespaces:
    - name: test
      objects:
        - { kind: ConfigMap, name: test-1 }
`)
	config := providerConfig(t, fleetFile) + `
resource "aks_fleet_placement" "crp" {
  name = "crp-1"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "test"
  }
  policy {
    placement_type     = "PickN"
    number_of_clusters = 2
  }
}

data "aks_fleet_placement" "crp" {
  name = aks_fleet_placement.crp.name
}`
	d := "data.aks_fleet_placement.crp"
	condition := func(typ, reason, message string) knownvalue.Check {
		return knownvalue.ObjectPartial(map[string]knownvalue.Check{"type": knownvalue.StringExact(typ), "status": knownvalue.StringExact("True"),
			"reason": knownvalue.StringExact(reason), "message": knownvalue.StringExact(message)})
	}
	member := func(name string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"cluster_name": knownvalue.StringExact(name),
			"conditions": knownvalue.ListExact([]knownvalue.Check{
				condition("Scheduled", "Scheduled", "Successfully scheduled resources for placement in "+name+
					" (affinity score: 0, topology spread score: 0): picked by scheduling policy"),
				condition("RolloutStarted", "RolloutStarted", "Detected the new changes on the resources and started the rollout process"),
				condition("Overridden", "NoOverrideSpecified", "No override rules are configured for the selected resources"),
				condition("WorkSynchronized", "AllWorkSynced", "All of the works are synchronized to the latest"),
				condition("Applied", "AllWorkHaveBeenApplied", "All corresponding work objects are applied"),
				condition("Available", "AllWorkAreAvailable", "All corresponding work objects are available"),
			}),
			"failed_placements": knownvalue.Null(),
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(d, tfjsonpath.New("selected_resources"), listOf("v1 Namespace test", "v1 ConfigMap test/test-1")),
				statecheck.ExpectKnownValue(d, tfjsonpath.New("resource_index"), knownvalue.Int64Exact(0)),
				statecheck.ExpectKnownValue(d, tfjsonpath.New("conditions"), knownvalue.ListExact([]knownvalue.Check{
					condition("ClusterResourcePlacementScheduled", "SchedulingPolicyFulfilled", "found all cluster needed as specified by the scheduling policy"),
					condition("ClusterResourcePlacementRolloutStarted", "RolloutStarted", "All 2 cluster(s) start rolling out the latest resource"),
					condition("ClusterResourcePlacementOverridden", "NoOverrideSpecified", "No override rules are configured for the selected resources"),
					condition("ClusterResourcePlacementWorkSynchronized", "WorkSynchronized", "Works(s) are succcesfully created or updated in 2 target cluster(s)' namespaces"),
					condition("ClusterResourcePlacementApplied", "ApplySucceeded", "The selected resources are successfully applied to 2 cluster(s)"),
					condition("ClusterResourcePlacementAvailable", "ResourceAvailable", "The selected resources in 2 cluster(s) are available now"),
				})),
				statecheck.ExpectKnownValue(d, tfjsonpath.New("placement_statuses"), knownvalue.ListExact([]knownvalue.Check{member("aks-member-1"), member("aks-member-2")})),
				statecheck.ExpectKnownValue("aks_fleet_placement.crp", attrPath("status", "conditions").AtSliceIndex(1).AtMapKey("type"),
					knownvalue.StringExact("ClusterResourcePlacementAvailable")),
			},
		}},
	})
}

// TestAccPlacement_waitsForRollout: with wait_for_rollout, apply returns
// when every cluster has the resources applied and available — on the
// hub's clock, an hour a second, the four batches of a change — and fails
// at once, naming the clusters, resources and why, when clusters fail to
// apply them.
func TestAccPlacement_waitsForRollout(t *testing.T) {
	fleetFile := writeFleet(t, rolloutFleet("1"))
	provider := providerConfigAt(t.TempDir()+"/state.db", fleetFile, clockScaled)
	cfg := func(extra string) string {
		return provider + rolloutPlacement(extra+quarter+"\n  wait_for_rollout = true")
	}
	role := roleByLabel
	r := "aks_fleet_placement.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: cfg("")},
			{
				Config: cfg(role),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(r, attrPath("status", "clusters_available"), knownvalue.Int64Exact(8)),
					statecheck.ExpectKnownValue(r, attrPath("status", "resource_index"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(r, attrPath("status", "rollout"), knownvalue.Null()),
				},
			},
			{
				PreConfig:   func() { rewriteFleet(t, fleetFile, rolloutFleet("2", "aks-03")) },
				Config:      cfg(""),
				ExpectError: expectError("aks-03: v1 Namespace web: admission webhook denied the request; v1 ConfigMap web/settings: admission webhook denied the request"),
			},
		},
	})
}

// TestAccPlacement_rolloutWaitTimesOut: a rollout that cannot finish in
// time fails the apply naming the clusters not done and where each stands.
func TestAccPlacement_rolloutWaitTimesOut(t *testing.T) {
	fleetFile := writeFleet(t, rolloutFleet("1"))
	t.Setenv(EnvClockTime, "2026-11-27T10:00:00Z")
	provider := providerConfigAt(t.TempDir()+"/state.db", fleetFile, clockFromEnv)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: provider + rolloutPlacement("")},
			{
				// The hub's clock stays: after the first batch, the next waits a minute that never comes.
				PreConfig: func() { t.Setenv(EnvClockTime, "2026-11-27T10:10:00Z") },
				Config: provider + rolloutPlacement(`
  resource_selectors {
    group   = "rbac.authorization.k8s.io"
    version = "v1"
    kind    = "ClusterRole"
    name    = "web-reader"
  }
  wait_for_rollout = true
  timeouts {
    update = "1s"
  }`),
				ExpectError: expectError("after 1s, 6 clusters without the latest resources available"),
			},
		},
	})
}

// rolloutPlacement is the placement "web" of the namespace web, with extra
// blocks and attributes after its selector.
func rolloutPlacement(extra string) string {
	return `
resource "aks_fleet_placement" "test" {
  name = "web"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }` + extra + `
}`
}

// quarter is the placement document's rolling update: max_unavailable 25%.
const quarter = `
  strategy {
    type = "RollingUpdate"
    rolling_update {
      max_unavailable = "25%"
    }
  }`

// roleByLabel selects the ClusterRole web-reader by its label app=web.
const roleByLabel = `
  resource_selectors {
    group   = "rbac.authorization.k8s.io"
    version = "v1"
    kind    = "ClusterRole"
    label_selector {
      match_labels = { app = "web" }
    }
  }`

// TestAccPlacement_changeTriggersAsTheDocumentLists: the placement
// document's "Placement change triggers". A resource-only change — the
// resources on the hub cluster, or resource_selectors — rolls out to the
// clusters the placement holds without rescheduling; scale-out adds
// clusters without moving the others; a policy change reschedules.
func TestAccPlacement_changeTriggersAsTheDocumentLists(t *testing.T) {
	fleetFile := writeFleet(t, rolloutFleet("1"))
	t.Setenv(EnvClockTime, "2026-11-27T10:00:00Z")
	provider := providerConfigAt(t.TempDir()+"/state.db", fleetFile, clockFromEnv)
	cfg := func(selectors, policy string) string {
		return provider + `
resource "aks_fleet_placement" "test" {
  name = "web"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }` + selectors + `
  policy {
    placement_type = "PickN"
` + policy + `
  }
}

data "aks_fleet_placement" "test" {
  name = aks_fleet_placement.test.name
}`
	}
	two, three := "    number_of_clusters = 2", "    number_of_clusters = 3"
	role := `
  resource_selectors {
    group   = "rbac.authorization.k8s.io"
    version = "v1"
    kind    = "ClusterRole"
    name    = "web-reader"
  }`
	prefer := three + `
    affinity {
      required {
        label_selector {
          match_labels = { tier = "gold" }
        }
      }
    }`
	obj, r, d := placementObj("web"), "aks_fleet_placement.test", "data.aks_fleet_placement.test"
	index := func(n int64) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(r, attrPath("status", "resource_index"), knownvalue.Int64Exact(n))
	}
	held := func(names ...string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(d, tfjsonpath.New("selected_clusters"), listOf(names...))
	}
	at := func(ts string) func() { return func() { t.Setenv(EnvClockTime, ts) } }
	scaleOut := expectSection(obj, "rollout (RollingUpdate: up to 1 unavailable and 1 extra at a time, unavailable_period_seconds 60): 2 batches, the last +1m after apply",
		"1 · at apply · aks-06", "2 · +1m · aks-08")
	if testHubIsAzure() {
		scaleOut = expectSection(obj, "rollout (RollingUpdate: up to 1 unavailable and 1 extra at a time, unavailable_period_seconds 60): 1 batch, all at apply",
			"1 · at apply · aks-06")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: cfg("", two), ConfigStateChecks: []statecheck.StateCheck{index(0), held("aks-07", "aks-08")}},
			{
				// resource_selectors change: the same clusters, a new snapshot rolled out to them.
				PreConfig: at("2026-11-27T10:10:00Z"),
				Config:    cfg(role, two),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(obj, "PickN: 2 of 2 clusters selected, 0 added, 0 released", "keeps 2 clusters it holds: aks-07, aks-08"),
					expectSection(obj, "rollout (RollingUpdate: up to 1 unavailable and 1 extra at a time, unavailable_period_seconds 60): 2 batches, the last +1m after apply",
						"1 · at apply · aks-07", "2 · +1m · aks-08"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{index(1), held("aks-07", "aks-08")},
			},
			{
				// The resources change on the hub: no change to plan, the
				// clusters held get the new snapshot, nothing is rescheduled.
				PreConfig: func() {
					t.Setenv(EnvClockTime, "2026-11-27T10:20:00Z")
					rewriteFleet(t, fleetFile, rolloutFleet("2"))
				},
				Config:           cfg(role, two),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{index(2), held("aks-07", "aks-08"),
					statecheck.ExpectKnownValue(r, attrPath("status", "clusters_available"), knownvalue.Int64Exact(1))},
			},
			{
				// Scale-out: one cluster added, bound at apply; the two held
				// stay. The emulator's Fleet rolled snapshot 2 out from 10:20, when
				// it synced. The mock hub has no controller running, and no
				// write stored the edit (reads are reads); a fixed clock has no
				// instant for the file's modification time, so there the edit
				// takes effect at this command's instant, 10:30: aks-07 takes
				// snapshot 2 now, aks-08 a minute after (on the real clock it
				// counts from the edit: designs/hub.md §2 and its known difference 5).
				PreConfig: at("2026-11-27T10:30:00Z"),
				Config:    cfg(role, three),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(obj, "PickN: 3 of 3 clusters selected, 1 added, 0 released (+aks-06)", "keeps 2 clusters it holds: aks-07, aks-08"),
					scaleOut,
				}},
				ConfigStateChecks: []statecheck.StateCheck{index(2), held("aks-06", "aks-07", "aks-08")},
			},
			{
				// A policy change reschedules: the gold clusters only.
				PreConfig: func() {
					t.Setenv(EnvClockTime, "2026-11-27T10:40:00Z")
					rewriteFleet(t, fleetFile, strings.Replace(strings.Replace(rolloutFleet("2"), "name: aks-01, region: eastus", "name: aks-01, region: eastus, labels: { tier: gold }", 1),
						"name: aks-02, region: eastus", "name: aks-02, region: eastus, labels: { tier: gold }", 1))
				},
				Config: cfg(role, prefer),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(obj, "PickN: 2 of 3 clusters selected, 2 added, 3 released"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{held("aks-01", "aks-02")},
			},
		},
	})
}

// TestAccPreviewsHold_placementRolloutPlanFile: a resource change planned
// with -out on the real clock, the fleet and the hub's resources changed
// before the saved plan is applied (a cluster joins, the ConfigMap is edited,
// another cluster fails to apply), then applied: apply goes through — the
// rollout is previewed, not planned state — and the status reports what
// Fleet did with the world as it was at apply; the next plan is empty.
func TestAccPreviewsHold_placementRolloutPlanFile(t *testing.T) {
	w := newWorld(t, clockReal)
	w.fleet = writeFleet(t, rolloutFleet("1"))
	w.provider = providerConfigAt(filepath.Join(w.dir, "state.db"), w.fleet, clockReal)
	placementCfg := func(extra string) string {
		return `
resource "aks_fleet_placement" "web" {
  name = "web"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }` + extra + `
  strategy {
    rolling_update {
      max_unavailable           = "25%"
      unavailable_period_seconds = 1
    }
  }
}

data "aks_fleet_placement" "web" {
  name = aks_fleet_placement.web.name
}

output "resource_index" {
  value = data.aks_fleet_placement.web.resource_index
}
`
	}
	w.config(placementCfg(""))
	w.must("init", "-input=false", "-no-color")
	w.settled()
	time.Sleep(1500 * time.Millisecond) // every cluster available (a second after it applied)

	w.config(placementCfg(`
  resource_selectors {
    group   = "rbac.authorization.k8s.io"
    version = "v1"
    kind    = "ClusterRole"
    name    = "web-reader"
  }`))
	plan := w.must("plan", "-input=false", "-no-color", "-out=reviewed.tfplan")
	if !strings.Contains(plan, "4 batches, the last +3s after apply") || !strings.Contains(plan, "1 · at apply · aks-01, aks-02") {
		t.Fatalf("the plan does not preview the rollout:\n%s", plan)
	}
	time.Sleep(1500 * time.Millisecond)
	w.rewrite(func(s string) string {
		s = strings.Replace(s, `version: "1"`, `version: "2"`, 1)
		s = strings.Replace(s, "name: aks-05, region: eastus", `name: aks-05, region: eastus, failures: { placement: "quota exceeded" }`, 1)
		return strings.Replace(s, "hub_cluster:", "  - { name: aks-09, region: eastus }\nhub_cluster:", 1)
	})
	w.must("apply", "-input=false", "-no-color", "reviewed.tfplan")
	time.Sleep(6 * time.Second) // the rollout goes on: every batch due, but the failed cluster
	out := w.must("apply", "-input=false", "-no-color", "-auto-approve", "-refresh-only")
	// The edit on the hub took snapshot 1 (Fleet watches the hub's
	// resources), the new selector at apply snapshot 2.
	if !strings.Contains(out, "resource_index = 2") {
		t.Errorf("after the edit and apply, the placement is not on snapshot 2:\n%s", out)
	}
	show := w.must("state", "show", "-no-color", "aks_fleet_placement.web")
	for _, want := range []string{`cluster                = "aks-05"`, `web: quota exceeded"`, "selected                = 9", "clusters_available      = 8"} {
		if !strings.Contains(strings.Join(strings.Fields(show), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("the state lacks %q:\n%s", want, show)
		}
	}
	if out := w.must("plan", "-input=false", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan after apply is not empty:\n%s", out)
	}
}

// TestAccPlacement_selectorsRefusedAfterPlan: the hub's resources change
// between plan and apply so that Fleet would refuse the selectors the plan
// admitted (the namespace web gets the label the second selector selects,
// so both select it): the saved plan's apply stops before writing, saying
// what changed and what to fix.
func TestAccPlacement_selectorsRefusedAfterPlan(t *testing.T) {
	w := newWorld(t, clockReal)
	w.fleet = writeFleet(t, rolloutFleet("1"))
	w.provider = providerConfigAt(filepath.Join(w.dir, "state.db"), w.fleet, clockReal)
	w.config(`
resource "aks_fleet_placement" "web" {
  name = "web"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    label_selector {
      match_labels = { team = "web" }
    }
  }
}
`)
	w.must("init", "-input=false", "-no-color")
	w.must("plan", "-input=false", "-no-color", "-out=reviewed.tfplan")
	w.rewrite(func(s string) string {
		return strings.Replace(s, "    - name: web\n", "    - name: web\n      labels: { team: web }\n", 1)
	})
	out, ok := w.run("apply", "-input=false", "-no-color", "reviewed.tfplan")
	w.consistent(out)
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Resource selectors Fleet refuses", "selects v1 Namespace web, which resource_selectors[0] selects too", "Select each resource once"} {
		if ok || !strings.Contains(flat, want) {
			t.Errorf("apply does not stop saying %q:\n%s", want, out)
		}
	}
	if out, _ := w.run("state", "list"); strings.Contains(out, "aks_fleet_placement.web") {
		t.Errorf("the placement was written:\n%s", out)
	}
}

// TestAccPlacement_rolloutStrategiesThatStall: max_unavailable 0, which
// Fleet admits and then never updates a cluster that has the resources, and
// wait_for_rollout with the External strategy, whose rollout apply cannot
// bring about — each a plan warning on the attribute.
func TestAccPlacement_rolloutStrategiesThatStall(t *testing.T) {
	provider := providerConfig(t, writeFleet(t, rolloutFleet("1")))
	cfg := func(strategy string) string { return provider + rolloutPlacement("\n"+strategy) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg("  strategy {\n    rolling_update {\n      max_unavailable = \"0\"\n    }\n  }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectWarning("strategy.rolling_update.max_unavailable", "any change of them stalls on every cluster"),
				}},
			},
			{
				Config: cfg("  strategy {\n    type = \"External\"\n  }\n  wait_for_rollout = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectWarning("apply waits for an external rollout", "Leave wait_for_rollout out, or use RollingUpdate"),
				}},
			},
		},
	})
}
