package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
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
  upgrade = { type = "ControlPlaneOnly", kubernetes_version = "1.33.2" }
  stages = [
    { name = "canary", groups = [{ name = "canary" }], after_stage_wait_in_seconds = 0 },
    { name = "waves", groups = [{ name = "wave" }] },
  ]
%s
}

data "aks_fleet_member_clusters" "all" {
  depends_on = [aks_fleet_update_run.r]
}
`, extra)
}

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
					plancheck.ExpectKnownValue(addr, attrPath("preview", "summary"),
						knownvalue.StringExact("3 members: 1 to upgrade, 1 skipped, 1 pending; estimated duration 38h0m0s")),
					plancheck.ExpectKnownValue(addr, attrPath("preview", "members"), knownvalue.MapExact(map[string]knownvalue.Check{
						"1. canary/canary/r-canary-1": knownvalue.StringExact("Upgrade 1.32.6 → 1.33.2, 2026-11-21 12:00 – 2026-11-21 12:00"),
						"2. waves/wave/r-wave-2":      knownvalue.StringExact("Skipped 1.33.2 → 1.33.2 (already up to date)"),
						"3. waves/wave/r-wave-1": knownvalue.StringExact("Pending 1.32.6 → 1.33.2 (maintenance window closed; next opening " +
							"2026-11-23T02:00:00Z), 2026-11-23 02:00 – 2026-11-23 02:00"),
					})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact("NotStarted")),
				},
			},
			{
				Config: runConfig(p, "  start = true"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("status", "state"), knownvalue.StringExact("Pending")),
					statecheck.ExpectKnownValue(addr, attrPath("status", "members", "r-canary-1"), knownvalue.StringExact("Completed: upgraded 1.32.6 → 1.33.2")),
					statecheck.ExpectKnownValue(addr, attrPath("status", "members", "r-wave-1"),
						knownvalue.StringExact("Pending: maintenance window closed; next opening 2026-11-23T02:00:00Z")),
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
				ImportStateVerifyIgnore: []string{"preview", "status"},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/f/updateRuns/rollout-1",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"preview", "status"},
			},
		},
	})
}

// A failed member fails the apply, naming the member, its group and stage,
// and its error (designs/updates.md §4).
func TestAccUpdateRun_failureFailsTheApply(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "0s")
	p := providerConfig(t, writeFleet(t, runsFleet))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: p + `
resource "aks_fleet_update_run" "late" {
  name                = "late"
  upgrade             = { type = "ControlPlaneOnly", kubernetes_version = "1.33.2" }
  stages              = [{ name = "late", groups = [{ name = "late" }] }]
  start               = true
  wait_for_completion = true
}
`,
			ExpectError: expectError("member r-late (group late, stage late) failed: UpgradeFailed: drain timed out"),
		}},
	})
}

// Validation at plan, with the attribute path.
func TestAccUpdateRun_validation(t *testing.T) {
	p := providerConfig(t, writeFleet(t, runsFleet))
	for name, tc := range map[string]struct{ body, err string }{
		"version forbidden for NodeImageOnly": {`upgrade = { type = "NodeImageOnly", kubernetes_version = "1.33.2" }`, "upgrade.kubernetes_version"},
		"version required for Full":           {`upgrade = { type = "Full" }`, "upgrade.kubernetes_version"},
		"strategy id and stages": {`upgrade = { type = "Full", kubernetes_version = "1.33.2" }
  update_strategy_id = "s"
  stages = [{ name = "a", groups = [{ name = "canary" }] }]`, "update_strategy_id"},
		"group twice": {`upgrade = { type = "Full", kubernetes_version = "1.33.2" }
  stages = [{ name = "a", groups = [{ name = "canary" }] }, { name = "b", groups = [{ name = "canary" }] }]`, "stages[1].groups[0].name"},
		"skip names nothing": {`upgrade = { type = "Full", kubernetes_version = "1.33.2" }
  stages = [{ name = "a", groups = [{ name = "canary" }] }]
  skip = [{ type = "Group", name = "wave" }]`, "skip[0].name: the run has no groups named \"wave\""},
		"skip type": {`upgrade = { type = "Full", kubernetes_version = "1.33.2" }
  skip = [{ type = "Cluster", name = "r-late" }]`, "skip[0].type"},
		"gate not in the run": {`upgrade = { type = "Full", kubernetes_version = "1.33.2" }
  stages = [{ name = "a", groups = [{ name = "canary" }] }]
  approved_gates = ["a:before"]`, "approved_gates[0]: \"a:before\" is not an approval gate of the run"},
		"custom without versions": {`upgrade = { type = "NodeImageOnly" }
  node_image_selection = { type = "Custom" }`, "node_image_selection.custom_node_image_versions"},
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
