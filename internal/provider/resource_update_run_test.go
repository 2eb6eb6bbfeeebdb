package provider

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// runsFleet: one region, four members in three update groups. The test
// clock (Saturday 2026-11-21 12:00 UTC) is outside r-wave-1's Monday window;
// r-wave-2 is already at 1.33.2; r-late's upgrades fail.
const runsFleet = `
regions:
  - name: eastus
    kubernetes_versions:
      - { version: 1.32.6, released_at: "2026-08-19T00:00:00Z" }
      - { version: 1.33.2, released_at: "2026-10-14T00:00:00Z" }
clusters:
  - { name: r-canary-1, region: eastus, group: canary, kubernetes_version: 1.32.6 }
  - name: r-wave-1
    region: eastus
    group: wave
    kubernetes_version: 1.32.6
    maintenance_window:
      schedule: { weekly: { interval_weeks: 1, day_of_week: Monday } }
      start_time: "02:00"
      duration_hours: 4
  - { name: r-wave-2, region: eastus, group: wave, kubernetes_version: 1.33.2 }
  - name: r-late
    region: eastus
    group: late
    kubernetes_version: 1.32.6
    failures: { upgrade: "UpgradeFailed: drain timed out" }
`

func runConfig(provider, extra string) string {
	return provider + fmt.Sprintf(`
resource "aks_fleet_update_run" "r" {
  name    = "rollout-1"
  upgrade {
    type = "ControlPlaneOnly"
    kubernetes_version = "1.33.2"
  }
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
    after_stage_wait_in_seconds = 0
  }
  stages {
    name = "waves"
    groups {
      name = "wave"
    }
  }
%s
}

data "aks_fleet_member_clusters" "all" {
  depends_on = [aks_fleet_update_run.r]
}
`, extra) + runData("r", "aks_fleet_update_run.r")
}

// runData reads, after apply, every member of the run of resource addr.
func runData(label, addr string) string {
	return fmt.Sprintf("\ndata \"aks_fleet_update_run\" %q {\n  name = %s.name\n}\n", label, addr)
}

// expectMember checks a member's line read by runData(label, …).
func expectMember(label, member, want string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue("data.aks_fleet_update_run."+label, attrPath("members", member), knownvalue.StringExact(want))
}

// runObj names a run in its preview's summary.
func runObj(name string) string { return updateRunType + " " + name }

// A run is previewed at plan, created without starting, started as code; a
// member behind a closed window is Pending and the run waits on it; a
// completed upgrade changes the cluster for good; plan stays empty; import
// round-trips.
func TestAccUpdateRun_previewStartPendingImport(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "0s")
	p := providerConfig(t, writeFleet(t, runsFleet))
	addr := "aks_fleet_update_run.r"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: runConfig(p, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(runObj("rollout-1"), "— 3 members: 1 to upgrade, 1 skipped, 1 pending; estimated duration 38h0m0s",
						"Evaluated at 2026-11-21T12:00:00Z if the run started then"),
					expectSection(runObj("rollout-1"), "members in rollout order",
						"1. canary/canary/r-canary-1 Upgrade 1.32.6 → 1.33.2, 2026-11-21 12:00 – 2026-11-21 12:00",
						"2. waves/wave/r-wave-2 Skipped 1.33.2 → 1.33.2 (already up to date)",
						"3. waves/wave/r-wave-1 Pending 1.32.6 → 1.33.2 (maintenance window closed; next opening "+
							"2026-11-23T02:00:00Z), 2026-11-23 02:00 – 2026-11-23 02:00"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact("NotStarted")),
				},
			},
			{
				// Starting it previews what it does once started.
				Config: runConfig(p, "  start = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(runObj("rollout-1"), "what the run does once started then", "1. canary/canary/r-canary-1 Upgrade"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact("Pending")),
					expectMember("r", "r-canary-1", "Completed: upgraded 1.32.6 → 1.33.2"),
					expectMember("r", "r-wave-1", "Pending: maintenance window closed; next opening 2026-11-23T02:00:00Z"),
					statecheck.ExpectKnownValue(addr, attrPath("status", "member_counts"), knownvalue.MapExact(map[string]knownvalue.Check{
						"Completed": knownvalue.Int64Exact(1), "Skipped": knownvalue.Int64Exact(1), "Pending": knownvalue.Int64Exact(1)})),
					statecheck.ExpectKnownValue(addr, attrPath("status", "progress"), knownvalue.StringExact("2 of 3 members done; stage waves")),
				},
			},
			{
				// The completed upgrade shows in the fleet (read after the run's refresh).
				Config: runConfig(p, "  start = true"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.aks_fleet_member_clusters.all", attrPath("clusters", 0, "kubernetes_version"), knownvalue.StringExact("1.33.2")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"status"},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           testFleet().ID() + "/updateRuns/rollout-1",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"status"},
			},
		},
	})
}

// A run whose member fails is reported naming the member, its group and
// stage, and its error (designs/updates.md §4). The apply that creates it
// warns and keeps it (issue 24, finding 3: an error would taint the run, and
// the next plan would destroy and create it again); progress does not count
// the failed member as done; the next plan is empty; the advised next step —
// fix the cause, change rerun_trigger — re-runs it; an apply that changes an
// existing run fails when the run fails.
func TestAccUpdateRun_failureIsReportedAndTheRunKept(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "0s")
	fleet := writeFleet(t, runsFleet)
	p := providerConfigAt(filepath.Join(t.TempDir(), "state.db"), fleet, testClock)
	addr := "aks_fleet_update_run.late"
	cfg := func(trigger string) string {
		return p + `
resource "aks_fleet_update_run" "late" {
  name                = "late"
  upgrade {
    type = "ControlPlaneOnly"
    kubernetes_version = "1.33.2"
  }
  stages {
    name = "late"
    groups {
      name = "late"
    }
  }
  start               = true
  wait_for_completion = true
  rerun_trigger       = "` + trigger + `"
}
`
	}
	status := func(field, want string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, attrPath("status", field), knownvalue.StringExact(want))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg("1"),
				ConfigStateChecks: []statecheck.StateCheck{status("state", "Failed"),
					status("message", "member r-late (group late, stage late) failed: UpgradeFailed: drain timed out"),
					status("progress", "0 of 1 members done, 1 failed")},
			},
			{ // kept, not tainted: nothing to do
				Config:           cfg("1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ // a re-run of the existing run that fails again fails the apply
				Config:      cfg("2"),
				ExpectError: expectError("member r-late (group late, stage late) failed: UpgradeFailed: drain timed out"),
			},
			{ // the advised next step: fix the cause, change rerun_trigger
				PreConfig: func() {
					rewriteFleet(t, fleet, strings.Replace(runsFleet, `    failures: { upgrade: "UpgradeFailed: drain timed out" }`+"\n", "", 1))
				},
				Config:            cfg("3"),
				ConfigStateChecks: []statecheck.StateCheck{status("state", "Completed"), status("progress", "1 of 1 members done")},
			},
		},
	})
}

// Validation at plan, with the attribute path.
func TestAccUpdateRun_validation(t *testing.T) {
	p := providerConfig(t, writeFleet(t, runsFleet))
	for name, tc := range map[string]struct{ body, err string }{
		"version forbidden for NodeImageOnly": {`upgrade {
  type = "NodeImageOnly"
  kubernetes_version = "1.33.2"
}`, "upgrade.kubernetes_version"},
		"version required for Full": {`upgrade {
  type = "Full"
}`, "upgrade.kubernetes_version"},
		"strategy id and stages": {`upgrade {
  type = "Full"
  kubernetes_version = "1.33.2"
}
  update_strategy_id = "s"
  stages {
    name = "a"
    groups {
      name = "canary"
    }
  }`, "update_strategy_id"},
		"group twice": {`upgrade {
  type = "Full"
  kubernetes_version = "1.33.2"
}
  stages {
    name = "a"
    groups {
      name = "canary"
    }
  }
  stages {
    name = "b"
    groups {
      name = "canary"
    }
  }`, "stages[1].groups[0].name"},
		"skip names nothing": {`upgrade {
  type = "Full"
  kubernetes_version = "1.33.2"
}
  stages {
    name = "a"
    groups {
      name = "canary"
    }
  }
  skip {
    type = "Group"
    name = "wave"
  }`, "skip[0].name: the run has no groups named \"wave\""},
		"skip type": {`upgrade {
  type = "Full"
  kubernetes_version = "1.33.2"
}
  skip {
    type = "Cluster"
    name = "r-late"
  }`, "skip[0].type"},
		"gate not in the run": {`upgrade {
  type = "Full"
  kubernetes_version = "1.33.2"
}
  stages {
    name = "a"
    groups {
      name = "canary"
    }
  }
  approved_gates = ["a:before"]`, "approved_gates[0]: \"a:before\" is not an approval gate of the run"},
		"custom without versions": {`upgrade {
  type = "NodeImageOnly"
}
  node_image_selection {
    type = "Custom"
  }`, "node_image_selection.custom_node_image_versions"},
	} {
		t.Run(name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviders,
				Steps: []resource.TestStep{{
					Config:      p + "resource \"aks_fleet_update_run\" \"r\" {\n  name = \"r\"\n  " + tc.body + "\n}\n",
					PlanOnly:    true,
					ExpectError: expectError(tc.err),
				}},
			})
		})
	}
}

// A run driven as code while the hub's clock moves (designs/updates.md §4):
// it waits at an approval gate until the configuration approves it; a member
// behind a closed window is Pending and is upgraded once the clock passes
// the opening; a failing member fails the run; with the failure removed, a
// new rerun_trigger re-runs only what failed. Plan stays empty whenever the
// configuration is unchanged, however far the clock moved.
func TestAccUpdateRun_gatesWindowsFailureRerun(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "0s")
	state, fleet := filepath.Join(t.TempDir(), "state.db"), writeFleet(t, runsFleet)
	const sat, mon = "2026-11-21T12:00:00Z", "2026-11-23T03:00:00Z" // r-wave-1's window: Monday 02:00–06:00
	addr := "aks_fleet_update_run.r"
	cfg := func(clock, extra string) string {
		return providerConfigAt(state, fleet, clock) + `
resource "aks_fleet_update_run" "r" {
  name    = "gated"
  upgrade {
    type = "ControlPlaneOnly"
    kubernetes_version = "1.33.2"
  }
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
  }
  stages {
    name = "waves"
    groups {
      name = "wave"
      before_gates {
        display_name = "Canary looks good"
      }
    }
  }
  stages {
    name = "late"
    groups {
      name = "late"
    }
  }
  start = true
` + extra + "\n}\n" + runData("r", addr)
	}
	member := func(name, want string) statecheck.StateCheck { return expectMember("r", name, want) }
	runState := func(want string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact(want))
	}
	gate := func(want string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, attrPath("status", "gates", "waves/wave:before"), knownvalue.StringExact(want))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg(sat, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectSection(runObj("gated"), "approval gates, assumed approved when reached", "waves/wave:before"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{runState("Pending"), gate("Pending"),
					member("r-canary-1", "Completed: upgraded 1.32.6 → 1.33.2"), member("r-wave-1", "NotStarted")},
			},
			{
				Config: cfg(sat, `  approved_gates = ["waves/wave:before"]`),
				ConfigStateChecks: []statecheck.StateCheck{runState("Pending"), gate("Completed"),
					member("r-wave-2", "Skipped: already up to date"),
					member("r-wave-1", "Pending: maintenance window closed; next opening 2026-11-23T02:00:00Z")},
			},
			{
				// Monday: the window opened, r-wave-1 is upgraded and the late
				// stage's member fails. Nothing in the configuration changed.
				Config:           cfg(mon, `  approved_gates = ["waves/wave:before"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{runState("Failed"),
					member("r-wave-1", "Completed: upgraded 1.32.6 → 1.33.2"),
					member("r-late", "Failed: UpgradeFailed: drain timed out"),
					statecheck.ExpectKnownValue(addr, attrPath("status", "message"),
						knownvalue.StringExact("member r-late (group late, stage late) failed: UpgradeFailed: drain timed out")),
				},
			},
			{
				PreConfig: func() {
					rewriteFleet(t, fleet, strings.Replace(runsFleet, `    failures: { upgrade: "UpgradeFailed: drain timed out" }`+"\n", "", 1))
				},
				Config: cfg(mon, `  approved_gates = ["waves/wave:before"]`+"\n  rerun_trigger = \"fixed\"\n"),
				ConfigStateChecks: []statecheck.StateCheck{runState("Completed"),
					member("r-late", "Completed: upgraded 1.32.6 → 1.33.2"),
					// Upgraded by the first start, kept by the re-run (not skipped as up to date).
					member("r-canary-1", "Completed: upgraded 1.32.6 → 1.33.2")},
			},
		},
	})
}

// Skipping a group (a skip target added to the configuration) skips its
// members; the stage and the run go on (designs/updates.md §4).
func TestAccUpdateRun_skipGroup(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "0s")
	p := providerConfig(t, writeFleet(t, runsFleet))
	addr := "aks_fleet_update_run.r"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: runConfig(p, "  start = true"),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact("Pending"))}},
			{Config: runConfig(p, "  start = true\n  skip {\n    type = \"Group\"\n    name = \"wave\"\n  }"),
				// A skip added previews what the run does from now on.
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(runObj("rollout-1"), "what the run does from then on", "waves/wave/r-wave-1 Skipped"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("status", "groups", "waves/wave"), knownvalue.StringExact("Skipped")),
					expectMember("r", "r-wave-1", "Skipped: skipped by the user"),
					statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact("Completed")),
				}},
		},
	})
}

// Destroying a running run stops it first: the hub refuses nothing, and the
// member upgrade in flight still completes on its cluster.
func TestAccUpdateRun_destroyStopsARunningRun(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "1h")
	state, fleet := filepath.Join(t.TempDir(), "state.db"), writeFleet(t, runsFleet)
	calls := &[]string{}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providersWith(func(h hub.Hub) hub.Hub { return recordingHub{Hub: h, calls: calls} }),
		Steps: []resource.TestStep{{
			Config: runConfig(providerConfigAt(state, fleet, testClock), "  start = true"),
			ConfigStateChecks: []statecheck.StateCheck{
				expectMember("r", "r-canary-1", "Running: upgrading 1.32.6 → 1.33.2"),
			},
		}},
		CheckDestroy: func(*terraform.State) error {
			got := strings.Join(*calls, " ")
			if !strings.Contains(got, "stop rollout-1 delete rollout-1") {
				return fmt.Errorf("destroy did not stop the running run first: %s", got)
			}
			return nil
		},
	})
}

// recordingHub records the run actions a provider sends.
type recordingHub struct {
	hub.Hub
	calls *[]string
}

func (h recordingHub) StopUpdateRun(ctx context.Context, name string, pre hub.Precondition) (*hub.UpdateRun, error) {
	*h.calls = append(*h.calls, "stop "+name)
	return h.Hub.StopUpdateRun(ctx, name, pre)
}

func (h recordingHub) DeleteUpdateRun(ctx context.Context, name string, pre hub.Precondition) error {
	*h.calls = append(*h.calls, "delete "+name)
	return h.Hub.DeleteUpdateRun(ctx, name, pre)
}

// The what-if data source previews exactly the run's rollout: same order,
// same outcomes, same estimates (one simulation, previewRunCourse).
func TestAccUpdatePreview_matchesTheRun(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "0s")
	p := providerConfig(t, writeFleet(t, runsFleet))
	const what = `
data "aks_fleet_update_preview" "what_if" {
  name    = "rollout-1"
  start   = true
  upgrade {
    type = "ControlPlaneOnly"
    kubernetes_version = "1.33.2"
  }
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
    after_stage_wait_in_seconds = 0
  }
  stages {
    name = "waves"
    groups {
      name = "wave"
    }
  }
}
`
	ds := "data.aks_fleet_update_preview.what_if"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: runConfig(p, "  start = true") + what,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				expectPreview(runObj("rollout-1"), "— 3 members: 1 to upgrade, 1 skipped, 1 pending; estimated duration 38h0m0s"),
				expectSection(runObj("rollout-1"), "members in rollout order",
					"1. canary/canary/r-canary-1 Upgrade 1.32.6 → 1.33.2, 2026-11-21 12:00 – 2026-11-21 12:00",
					"2. waves/wave/r-wave-2 Skipped 1.33.2 → 1.33.2 (already up to date)",
					"3. waves/wave/r-wave-1 Pending 1.32.6 → 1.33.2 (maintenance window closed; next opening "+
						"2026-11-23T02:00:00Z), 2026-11-23 02:00 – 2026-11-23 02:00"),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, attrPath("preview", "summary"), knownvalue.StringExact("3 members: 1 to upgrade, 1 skipped, 1 pending; estimated duration 38h0m0s")),
				statecheck.ExpectKnownValue(ds, attrPath("preview", "members"), knownvalue.MapExact(map[string]knownvalue.Check{
					"1. canary/canary/r-canary-1": knownvalue.StringExact("Upgrade 1.32.6 → 1.33.2, 2026-11-21 12:00 – 2026-11-21 12:00"),
					"2. waves/wave/r-wave-2":      knownvalue.StringExact("Skipped 1.33.2 → 1.33.2 (already up to date)"),
					"3. waves/wave/r-wave-1": knownvalue.StringExact("Pending 1.32.6 → 1.33.2 (maintenance window closed; next opening " +
						"2026-11-23T02:00:00Z), 2026-11-23 02:00 – 2026-11-23 02:00"),
				})),
				statecheck.ExpectKnownValue("aks_fleet_update_run.r", attrPath("status", "state"), knownvalue.StringExact("Pending")),
			},
		}},
	})
}

// A run that follows a strategy the hub does not have is refused with one
// diagnostic that says so (an *InvalidError, not "not found" of the run).
func TestAccUpdateRun_missingStrategy(t *testing.T) {
	p := providerConfig(t, writeFleet(t, runsFleet))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: p + `
resource "aks_fleet_update_run" "r" {
  name               = "r"
  update_strategy_id = "no-such-strategy"
  upgrade {
    type = "NodeImageOnly"
  }
}
`,
			// The azure hub names the strategy by the ARM id it sent, after the error code.
			ExpectError: regexp.MustCompile(`aks_fleet_update_run r: (InvalidParameter:\s+)?the\s+update\s+strategy\s+"(/subscriptions/\S+/updateStrategies/)?no-such-strategy"\s+does\s+not\s+exist\.\s+Change\s+the\s+configuration`),
		}},
	})
}

// A three-stage run over the built-in sample fleet (canary → wave-1 →
// wave-2), skipping the member with an injected failure and the two that are
// two minor versions behind (AKS would refuse them): it waits for the
// members' maintenance windows and, once the clock has passed them all, has
// completed and the clusters run the new version.
func TestAccUpdateRun_sampleFleetThreeStages(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "0s")
	state := filepath.Join(t.TempDir(), "state.db")
	cfg := func(clock string) string {
		return providerConfigAt(state, "", clock) + `
resource "aks_fleet_update_run" "waves" {
  name    = "waves-1-32"
  upgrade {
    type = "ControlPlaneOnly"
    kubernetes_version = "1.32.6"
  }
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
  }
  stages {
    name = "wave-1"
    groups {
      name = "wave-1"
    }
  }
  stages {
    name = "wave-2"
    groups {
      name = "wave-2"
    }
  }
  skip {
    type = "Member"
    name = "aks-sea-prod-01"
  }
  skip {
    type = "Member"
    name = "aks-weu-prod-02"
  }
  skip {
    type = "Member"
    name = "aks-sea-prod-02"
  }
  start = true
}

data "aks_fleet_member_clusters" "after" {
  depends_on     = [aks_fleet_update_run.waves]
  label_selector {
    match_labels = { "fleet.azure.com/member-name" = "aks-weu-prod-01" }
  }
}
` + runData("waves", "aks_fleet_update_run.waves")
	}
	addr := "aks_fleet_update_run.waves"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg(testClock),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact("Pending")),
				},
			},
			{
				// A month later every window has opened (the First-Saturday one on 5 December).
				Config:           cfg("2026-12-21T12:00:00Z"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact("Completed")),
					expectMember("waves", "aks-sea-prod-01", "Skipped: skipped by the user"),
					statecheck.ExpectKnownValue("data.aks_fleet_member_clusters.after", attrPath("clusters", 0, "kubernetes_version"), knownvalue.StringExact("1.32.6")),
				},
			},
		},
	})
}

// The configuration's skips hold through every start (issue 24, findings 1
// and 2; designs/updates.md §4): a run stopped and resumed keeps the members
// the configuration skips skipped; a failed member skipped together with a
// new rerun_trigger is skipped and the run continues past it; a run created
// with start = true and a skip begins with the skip, even when it completes
// at once. Plan stays empty after each.
func TestAccUpdateRun_skipsHoldThroughStarts(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "0s")
	const sat, mon = "2026-11-21T12:00:00Z", "2026-11-23T03:00:00Z" // r-wave-1's window: Monday 02:00–06:00
	addr := "aks_fleet_update_run.r"
	runState := func(want string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact(want))
	}
	skipLate := "\n  skip {\n    type = \"Member\"\n    name = \"r-late\"\n  }"
	run := func(state, fleet, clock, extra string) string {
		return providerConfigAt(state, fleet, clock) + `
resource "aks_fleet_update_run" "r" {
  name    = "skips"
  upgrade {
    type = "ControlPlaneOnly"
    kubernetes_version = "1.33.2"
  }
  stages {
    name = "waves"
    groups {
      name = "wave"
    }
  }
  stages {
    name = "late"
    groups {
      name = "late"
    }
  }
  start = true` + extra + "\n}\n" + runData("r", addr)
	}
	empty := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}

	t.Run("stop and resume", func(t *testing.T) {
		state, fleet := filepath.Join(t.TempDir(), "state.db"), writeFleet(t, runsFleet)
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: run(state, fleet, sat, skipLate), // r-wave-1 waits for Monday's window
				ConfigStateChecks: []statecheck.StateCheck{runState("Pending"), expectMember("r", "r-late", "Skipped: skipped by the user")}},
			{Config: run(state, fleet, sat, skipLate+"\n  stopped = true"), ConfigStateChecks: []statecheck.StateCheck{runState("Stopped")}},
			{Config: run(state, fleet, sat, skipLate+"\n  stopped = false"),
				ConfigStateChecks: []statecheck.StateCheck{runState("Pending"), expectMember("r", "r-late", "Skipped: skipped by the user")}},
			{Config: run(state, fleet, sat, skipLate+"\n  stopped = false"), ConfigPlanChecks: empty},
		}})
	})

	// On the real clock: a skip sent after the re-run's start would arrive
	// when the failed member, first in line again, has started (and failed).
	t.Run("skip a failed member and re-run", func(t *testing.T) {
		state, fleet := filepath.Join(t.TempDir(), "state.db"), writeFleet(t, runsFleet)
		late := func(extra string) string {
			return providerConfigAt(state, fleet, clockReal) + `
resource "aks_fleet_update_run" "r" {
  name    = "late"
  upgrade {
    type = "ControlPlaneOnly"
    kubernetes_version = "1.33.2"
  }
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
  }
  stages {
    name = "late"
    groups {
      name = "late"
    }
  }
  start = true` + extra + "\n}\n" + runData("r", addr)
		}
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: late(""),
				ConfigStateChecks: []statecheck.StateCheck{runState("Failed"), expectMember("r", "r-late", "Failed: UpgradeFailed: drain timed out")}},
			{Config: late(skipLate + "\n  rerun_trigger = \"skip-late\""),
				ConfigStateChecks: []statecheck.StateCheck{runState("Completed"), expectMember("r", "r-late", "Skipped: skipped by the user"),
					expectMember("r", "r-canary-1", "Completed: upgraded 1.32.6 → 1.33.2")}},
			{Config: late(skipLate + "\n  rerun_trigger = \"skip-late\""), ConfigPlanChecks: empty},
		}})
	})

	// On a fixed clock every action happens at the same instant as the
	// failure: the skip comes after it (designs/updates.md §4). Skip and
	// re-run in one apply continues past the member; a skip alone leaves the
	// run failed, says so, is no failure of its own, and holds for the re-run.
	t.Run("fixed clock: skip a failed member, with and without the re-run", func(t *testing.T) {
		state, fleet := filepath.Join(t.TempDir(), "state.db"), writeFleet(t, runsFleet)
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: run(state, fleet, mon, ""), ConfigStateChecks: []statecheck.StateCheck{runState("Failed")}},
			{Config: run(state, fleet, mon, skipLate),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{expectPreview(runObj("skips"), "the run is Failed; the skip holds for its next start")}},
				ConfigStateChecks: []statecheck.StateCheck{runState("Failed")}},
			{Config: run(state, fleet, mon, skipLate+"\n  rerun_trigger = \"again\""),
				ConfigStateChecks: []statecheck.StateCheck{runState("Completed"), expectMember("r", "r-late", "Skipped: skipped by the user")}},
		}})
		state, fleet = filepath.Join(t.TempDir(), "state.db"), writeFleet(t, runsFleet)
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: run(state, fleet, mon, ""), ConfigStateChecks: []statecheck.StateCheck{runState("Failed")}},
			{Config: run(state, fleet, mon, skipLate+"\n  rerun_trigger = \"again\""),
				ConfigStateChecks: []statecheck.StateCheck{runState("Completed"), expectMember("r", "r-late", "Skipped: skipped by the user")}},
			{Config: run(state, fleet, mon, skipLate+"\n  rerun_trigger = \"again\""), ConfigPlanChecks: empty},
		}})
	})

	t.Run("created started, completing at once", func(t *testing.T) {
		state, fleet := filepath.Join(t.TempDir(), "state.db"), writeFleet(t, runsFleet)
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: run(state, fleet, mon, skipLate),
				ConfigStateChecks: []statecheck.StateCheck{runState("Completed"), expectMember("r", "r-late", "Skipped: skipped by the user")}},
			{Config: run(state, fleet, mon, skipLate), ConfigPlanChecks: empty},
		}})
	})
}

// The hub refuses what the service refuses (issue 24, finding 5): a run
// whose update group no member has is warned about at plan, then refused at
// apply with the reason, on both hubs — never created and started.
func TestAccUpdateRun_refusedLikeTheService(t *testing.T) {
	p := providerConfig(t, writeFleet(t, runsFleet))
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: p + `
resource "aks_fleet_update_run" "r" {
  name = "nobody"
  upgrade { type = "NodeImageOnly" }
  stages {
    name = "one"
    groups { name = "prodd" }
  }
  start = true
}
`,
		ExpectError: regexp.MustCompile(`(?s)Refused by the hub.*no\s+member\s+of\s+the\s+fleet\s+is\s+in\s+update\s+group\s+"prodd"`),
	}}})
}
