package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A reviewed plan applies (designs/previews.md §8): the README's flow —
// plan -out, a pause, apply PLANFILE — on the real clock for every resource
// type; one `terraform apply` whose clock moves between its two plans; and
// saved plans applied after the world moved, each of which applies or fails
// with the guard's one diagnostic, as each case says and why. The CLI is
// TF_ACC_TERRAFORM_PATH (make test runs these on Terraform 1.5.7, OpenTofu
// 1.10.7 and the Terraform on PATH), the hub the mock or, with
// AKS_TEST_HUB=azure, the azure block through the emulator.

// worldFleet: four prod members by available CPU, a member whose
// maintenance window opens on Monday 10:00 UTC, and a release of 1.34 on
// Sunday 2026-11-29.
const worldFleet = `
regions:
  - name: eastus
    kubernetes_versions:
      - { version: 1.32.6, released_at: "2026-08-19T00:00:00Z" }
      - { version: 1.33.2, released_at: "2026-10-14T00:00:00Z" }
      - { version: 1.34.1, released_at: "2026-11-29T00:00:00Z" }
    node_images:
      - { family: AKSUbuntu-2204gen2containerd, version: 202611.10.0, released_at: "2026-11-12T00:00:00Z" }
clusters:
  - name: w-1
    region: eastus
    group: canary
    labels: { env: prod }
    agent: { heartbeat_age: 30s }
    resource_usage: { available: { cpu: "40", memory: 100Gi } }
    kubernetes_version: 1.32.6
    nap_nodes:
      - { name: w1-a, nodepool: default, age: 30h }
      - { name: w1-b, nodepool: default, age: 40h }
      - { name: w1-c, nodepool: lunch, age: 50h }
  - name: w-2
    region: eastus
    group: wave
    labels: { env: prod }
    agent: { heartbeat_age: 30s }
    resource_usage: { available: { cpu: "30", memory: 100Gi } }
    kubernetes_version: 1.32.6
  - name: w-3
    region: eastus
    group: wave
    labels: { env: prod }
    agent: { heartbeat_age: 30s }
    resource_usage: { available: { cpu: "20", memory: 100Gi } }
    kubernetes_version: 1.32.6
    maintenance_window:
      schedule: { weekly: { interval_weeks: 1, day_of_week: Monday } }
      start_time: "10:00"
      duration_hours: 4
  - name: w-4
    region: eastus
    group: wave
    labels: { env: prod }
    agent: { heartbeat_age: 30s }
    resource_usage: { available: { cpu: "10", memory: 100Gi } }
    kubernetes_version: 1.32.6
`

// The guarded resources of worldConfig, by name.
var allGuarded = map[string]bool{"by-cpu": true, "all-prod": true, "rollout": true, "rapid": true, "default": true, "lunch": true}

// Budgets of the worldConfig pools: 10% always; the business-hours block
// (weekdays 09:00–17:00 UTC); the lunch block (daily 11:00–12:00 UTC).
const (
	budgetsAlways   = `{ nodes = "10%" }`
	budgetsBusiness = `{ nodes = "10%" }, { nodes = "0", schedule = "0 9 * * 1-5", duration = "8h" }`
	budgetsLunch    = `{ nodes = "10%" }, { nodes = "0", schedule = "0 11 * * *", duration = "1h" }`
)

// worldConfig is every resource type, each guarded by its preview data
// source when guarded names it. pools are the budgets of the pools default
// and lunch; without pools only the pools are configured. A preview data
// source and its resource take the same blocks (written once here, as a
// configuration writes them twice).
func worldConfig(guarded map[string]bool, defaultBudgets, lunchBudgets string, pools bool) string {
	g := func(name, ds string) string {
		if !guarded[name] {
			return ""
		}
		return "  reviewed_preview   = " + ds + ".review\n"
	}
	pool := func(name, budgets string) string {
		return fmt.Sprintf(`
data "aks_nap_disruption_preview" %[1]q {
  cluster  = "w-1"
  nodepool = %[1]q
%[2]s}
resource "aks_nap_nodepool" %[1]q {
  cluster = "w-1"
  name    = %[1]q
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
  }
  disruption {
    consolidate_after = "5m"
%[2]s  }
%[3]s}
`, name, blocksOf("budgets", budgets), g(name, "data.aks_nap_disruption_preview."+name))
	}
	cfg := pool("default", defaultBudgets) + pool("lunch", lunchBudgets)
	if !pools {
		return cfg
	}
	const byCPU = `
  policy {
    placement_type     = "PickN"
    number_of_clusters = 2
    affinity {
      required {
        label_selector { match_labels = { env = "prod" } }
      }
      preferred {
        weight = 100
        preference {
          property_sorter {
            name       = "resources.kubernetes-fleet.io/available-cpu"
            sort_order = "Descending"
          }
        }
      }
    }
  }
`
	const allProd = `
  policy {
    affinity {
      required {
        label_selector { match_labels = { env = "prod" } }
      }
    }
  }
`
	const web = `
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
`
	const upgrade = `
  upgrade {
    type               = "ControlPlaneOnly"
    kubernetes_version = "1.33.2"
  }
`
	const stages = `
  stages {
    name = "canary"
    groups { name = "canary" }
  }
  stages {
    name = "waves"
    groups {
      name            = "wave"
      max_concurrency = "3"
    }
  }
`
	return cfg + `
data "aks_fleet_placement_preview" "by_cpu" {
  name   = "by-cpu"` + byCPU + `}
resource "aks_fleet_placement" "by_cpu" {
  name = "by-cpu"` + web + byCPU + g("by-cpu", "data.aks_fleet_placement_preview.by_cpu") + `}

data "aks_fleet_placement_preview" "all_prod" {
  name = "all-prod"` + allProd + `}
resource "aks_fleet_placement" "all_prod" {
  name = "all-prod"` + web + allProd + g("all-prod", "data.aks_fleet_placement_preview.all_prod") + `}

resource "aks_fleet_update_strategy" "waves" {
  name = "waves"` + stages + `}
data "aks_fleet_update_preview" "rollout" {
  name  = "rollout"
  start = true` + stages + upgrade + `}
resource "aks_fleet_update_run" "rollout" {
  name               = "rollout"
  update_strategy_id = aks_fleet_update_strategy.waves.id
  start              = true` + upgrade + g("rollout", "data.aks_fleet_update_preview.rollout") + `}

data "aks_fleet_autoupgrade_preview" "rapid" {
  name     = "rapid"
  channel  = "Rapid"
  disabled = true
}
resource "aks_fleet_autoupgrade_profile" "rapid" {
  name     = "rapid"
  channel  = "Rapid"
  disabled = true
` + g("rapid", "data.aks_fleet_autoupgrade_preview.rapid") + `}
`
}

// world is a working directory whose provider uses worldFleet, a state of
// its own and a clock.
type world struct {
	t        *testing.T
	dir      string
	fleet    string
	provider string
	run      func(args ...string) (string, bool)
}

func newWorld(t *testing.T, clock string) *world {
	t.Helper()
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		t.Skip("set TF_ACC and TF_ACC_TERRAFORM_PATH to run with the real CLI")
	}
	t.Setenv(EnvUpgradeDuration, "1h") // runs stay in progress: a start is the decision
	w := &world{t: t, dir: t.TempDir()}
	w.fleet = writeFleet(t, worldFleet)
	w.provider = providerConfigAt(filepath.Join(w.dir, "state.db"), w.fleet, clock)
	w.run = cliRun(t, tf, w.dir)
	return w
}

// config writes main.tf: the provider and body.
func (w *world) config(body string) {
	w.t.Helper()
	src := "terraform {\n  required_providers {\n    aks = { source = \"fleetform/aks\" }\n  }\n}\n" + w.provider + body
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(src), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// must runs a command that must succeed and never report an inconsistent plan or result.
func (w *world) must(args ...string) string {
	w.t.Helper()
	out, ok := w.run(args...)
	if !ok {
		w.t.Fatalf("%s failed:\n%s", strings.Join(args, " "), out)
	}
	w.consistent(out)
	return out
}

func (w *world) consistent(out string) {
	w.t.Helper()
	for _, bad := range []string{"inconsistent final plan", "inconsistent result after apply", "This is a bug in the provider"} {
		if strings.Contains(out, bad) {
			w.t.Fatalf("Terraform reports %q:\n%s", bad, out)
		}
	}
}

// settled applies what is left and checks that the next plan is empty.
func (w *world) settled() {
	w.t.Helper()
	w.must("apply", "-input=false", "-no-color", "-auto-approve")
	if out := w.must("plan", "-input=false", "-no-color"); !strings.Contains(out, "No changes.") {
		w.t.Fatalf("the plan after apply is not empty:\n%s", out)
	}
}

// rewrite edits the world's inventory.
func (w *world) rewrite(edit func(string) string) {
	w.t.Helper()
	b, err := os.ReadFile(w.fleet)
	if err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(w.fleet, []byte(edit(string(b))), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// The README's flow on the real clock, unpinned: every resource type
// previewed at plan, the saved plan applied after a pause, then nothing
// more to do.
func TestAccPreviewsHold_realClock(t *testing.T) {
	w := newWorld(t, clockReal)
	w.config(worldConfig(allGuarded, budgetsAlways, budgetsBusiness, true))
	w.must("init", "-input=false", "-no-color")
	plan := w.must("plan", "-input=false", "-no-color", "-out=reviewed.tfplan")
	for _, obj := range []string{"aks_fleet_placement by-cpu — PickN: 2 of 2 clusters selected", "aks_fleet_placement all-prod — PickAll: 4 clusters selected",
		"aks_fleet_update_strategy waves — 2 stages, 2 groups: 4 of 4 members", "aks_fleet_update_run rollout", "aks_fleet_autoupgrade_profile rapid — channel Rapid",
		"aks_nap_nodepool w-1/default — 2 nodes", "aks_nap_nodepool w-1/lunch — 1 node"} {
		if !strings.Contains(plan, "Preview: "+obj) {
			t.Errorf("the plan shows no preview %q:\n%s", obj, plan)
		}
	}
	time.Sleep(2 * time.Second)
	w.must("apply", "-input=false", "-no-color", "reviewed.tfplan")
	if out := w.must("plan", "-input=false", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan after apply is not empty:\n%s", out)
	}
	// A change applied in one `terraform apply`: its plan and apply phases
	// run on a clock that moved meanwhile; the re-plan at apply is the plan.
	w.config(worldConfig(allGuarded, budgetsBusiness, budgetsBusiness, true))
	w.must("apply", "-input=false", "-no-color", "-auto-approve")
	if out := w.must("plan", "-input=false", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan after apply is not empty:\n%s", out)
	}
}

// One `terraform apply` on a clock that runs an hour per second: between
// its plan and its apply the hub's clock moves on by minutes to hours, and
// the apply goes through. The run and the profile are guarded: what they
// decide does not move in that time. The pools' previews and the
// placements' move with the clock (the emulated member agents report on the
// real clock: an hour per second, their heartbeats age), and they are not
// guarded.
func TestAccPreviewsHold_applyOnAMovingClock(t *testing.T) {
	w := newWorld(t, clockScaled)
	w.config(worldConfig(map[string]bool{"rollout": true, "rapid": true}, budgetsLunch, budgetsBusiness, true))
	w.must("init", "-input=false", "-no-color")
	w.settled()
}

// A saved plan applied later, at fixed instants of the hub's clock and with
// the inventory edited in between.
func TestAccPreviewsHold_worldMoves(t *testing.T) {
	const fri1059, fri1059s2, fri1101, mon1101 = "2026-11-27T10:59:00Z", "2026-11-27T10:59:02Z", "2026-11-27T11:01:00Z", "2026-11-30T11:01:00Z"
	cases := []struct {
		name       string
		guarded    map[string]bool
		lunch      string // the lunch pool's budgets in the reviewed plan
		applyAt    string
		edit       func(string) string
		diagnostic []string // each must be in the apply's output; none: the apply succeeds
	}{
		{
			// Two seconds: nothing that matters moved.
			name: "2 seconds", guarded: allGuarded, lunch: budgetsBusiness, applyAt: fri1059s2,
		},
		{
			// Across an hour boundary: the business-hours block holds at 10:59
			// and at 11:01 (the default pool applies, its timeline and next
			// allowance moved); the lunch block starts at 11:00, so the lunch
			// pool's budgets would now allow no disruption where the plan said 1.
			name: "hour boundary", guarded: allGuarded, lunch: budgetsLunch, applyAt: fri1101,
			diagnostic: []string{"aks_nap_nodepool w-1/lunch: what apply would do now (2026-11-27T11:01:00Z) differs from the preview reviewed",
				"- Empty: 0 nodes may be disrupted now (reviewed: 1)", "Nothing was applied to aks_nap_nodepool w-1/lunch"},
		},
		{
			// Three days later: w-3's maintenance window opened (it upgrades
			// now instead of waiting: the same fate, the run starts), and
			// 1.34.1 entered the Rapid channel: the profile, written now, would
			// start from 1.34.1 and never trigger that release's run.
			name: "three days later", guarded: allGuarded, lunch: budgetsBusiness, applyAt: mon1101,
			diagnostic: []string{"aks_fleet_autoupgrade_profile rapid: what apply would do now",
				"- the channel now resolves to Kubernetes 1.34.1 (reviewed: Kubernetes 1.33.2)"},
		},
		{
			// The fleet changed: w-3's available CPU tripled, w-4's agent
			// stopped reporting, w-5 joined and w-2 left. Fleet would pick
			// other clusters, and the run would upgrade other members.
			name: "fleet change, guarded", guarded: allGuarded, lunch: budgetsBusiness, applyAt: fri1059s2, edit: fleetChange,
			diagnostic: []string{
				"aks_fleet_placement by-cpu: what apply would do now", "- Fleet would now also select w-3", "- Fleet would no longer select w-2",
				"aks_fleet_placement all-prod: what apply would do now", "- Fleet would now also select w-5", "- Fleet would no longer select w-2, w-4",
				"aks_fleet_update_run rollout: what apply would do now", "- w-5 is now in the run (waves/wave) and upgrades to 1.33.2",
				"- w-2 is no longer in the run (reviewed: upgrades to 1.33.2)"},
		},
		{
			// The same change without reviewed_preview: apply does what the
			// hub decides now.
			name: "fleet change, not guarded", guarded: nil, lunch: budgetsBusiness, applyAt: fri1059s2, edit: fleetChange,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, clockFromEnv)
			t.Setenv(EnvClockTime, "2026-11-27T10:00:00Z")
			w.config(worldConfig(nil, budgetsAlways, budgetsAlways, false)) // the pools exist: their nodes count
			w.must("init", "-input=false", "-no-color")
			w.must("apply", "-input=false", "-no-color", "-auto-approve")

			t.Setenv(EnvClockTime, fri1059)
			w.config(worldConfig(c.guarded, budgetsBusiness, c.lunch, true))
			w.must("plan", "-input=false", "-no-color", "-out=reviewed.tfplan")
			t.Setenv(EnvClockTime, c.applyAt)
			if c.edit != nil {
				w.rewrite(c.edit)
			}
			out, ok := w.run("apply", "-input=false", "-no-color", "reviewed.tfplan")
			w.consistent(out)
			switch {
			case len(c.diagnostic) == 0 && !ok:
				t.Fatalf("the saved plan does not apply:\n%s", out)
			case len(c.diagnostic) > 0 && ok:
				t.Fatalf("the saved plan applied although what it does changed:\n%s", out)
			}
			for _, d := range c.diagnostic {
				if !expectError(d).MatchString(out) {
					t.Errorf("the apply does not say %q:\n%s", d, out)
				}
			}
			if len(c.diagnostic) > 0 && strings.Count(out, "Error: The fleet changed since the plan was made") != strings.Count(strings.Join(c.diagnostic, "\n"), ": what apply would do now") {
				t.Errorf("one diagnostic per resource whose decisions moved:\n%s", out)
			}
			// Planned again, the new plan applies and settles.
			w.settled()
		})
	}
}

// fleetChange: w-3's available CPU from 20 to 60, w-4's agent silent since
// 09:00, w-5 joins (prod, wave), w-2 leaves.
func fleetChange(fleet string) string {
	fleet = strings.Replace(fleet, `available: { cpu: "20", memory: 100Gi }`, `available: { cpu: "60", memory: 100Gi }`, 1)
	fleet = strings.Replace(fleet, "    resource_usage: { available: { cpu: \"10\", memory: 100Gi } }",
		"    resource_usage: { available: { cpu: \"10\", memory: 100Gi } }\n    agent: { last_heartbeat: \"2026-11-27T09:00:00Z\" }", 1)
	fleet = strings.Replace(fleet, "  - name: w-4\n    region: eastus\n    group: wave\n    labels: { env: prod }\n    agent: { heartbeat_age: 30s }\n",
		"  - name: w-4\n    region: eastus\n    group: wave\n    labels: { env: prod }\n", 1)
	i := strings.Index(fleet, "  - name: w-2\n")
	j := strings.Index(fleet, "  - name: w-3\n")
	fleet = fleet[:i] + fleet[j:]
	return fleet + `  - name: w-5
    region: eastus
    group: wave
    labels: { env: prod }
    agent: { heartbeat_age: 30s }
    resource_usage: { available: { cpu: "5", memory: 100Gi } }
    kubernetes_version: 1.32.6
`
}
