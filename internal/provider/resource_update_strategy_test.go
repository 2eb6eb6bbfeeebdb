package provider

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

const usAddr = "aks_fleet_update_strategy.test"

// The sample fleet's update groups (internal/hub/mock/inventory/sample_fleet.yaml);
// aks-sea-edge-01 and aks-weu-dev-01 have none.
const (
	canaryLine = "4 members: aks-east-dev-01, aks-east-prod-01, aks-sea-stage-01, aks-weu-stage-01 (concurrency 1)"
	wave1Line  = "3 members: aks-east-prod-02, aks-sea-prod-01, aks-weu-prod-01 (concurrency 1)"
	wave2Line  = "3 members: aks-east-gpu-01, aks-sea-prod-02, aks-weu-prod-02 (concurrency 1)"
)

// strategyConfig is an aks_fleet_update_strategy named name with the given stages.
func strategyConfig(name, stages string) string {
	return `
resource "aks_fleet_update_strategy" "test" {
  name   = "` + name + `"
` + blocksOf("stages", stages) + `
}`
}

// threeWaves is canary → wave-1 → wave-2 over the sample fleet's groups.
const threeWaves = `
    { name = "canary", groups {
      name = "canary"
    }, after_stage_wait_in_seconds = 3600 },
    { name = "wave-1", groups {
      name = "wave-1"
    }, before_gates {
      display_name = "Approve wave 1"
    } },
    { name = "wave-2", groups {
      name = "wave-2"
    } },`

// strategyARMID is the ARM id of a strategy of the test hub's fleet.
func strategyARMID(name string) string {
	return testFleet().ID() + "/updateStrategies/" + name
}

// storedHub opens the mock hub on a test's state, as another client would.
func storedHub(t *testing.T, state string) *mock.Hub {
	t.Helper()
	at, _ := time.Parse(time.RFC3339, testClock)
	h, err := mock.New(mock.Config{StatePath: state, Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: at}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// strategyObj names a strategy in its preview's summary.
func strategyObj(name string) string { return updateStrategyType + " " + name }

// Create shows what each group resolves to in the sample fleet; a change of
// the stages updates in place with a new preview; the strategy imports by
// name and by ARM id.
func TestAccUpdateStrategy_lifecycle(t *testing.T) {
	cfg := providerConfig(t, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg + strategyConfig("canary-first", threeWaves),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(usAddr, plancheck.ResourceActionCreate),
						expectPreviewLine(strategyObj("canary-first"), keyLine("canary/canary", canaryLine)),
						expectPreviewLine(strategyObj("canary-first"), keyLine("wave-1/wave-1", wave1Line)),
						expectPreviewLine(strategyObj("canary-first"), keyLine("wave-2/wave-2", wave2Line)),
						expectPreview(strategyObj("canary-first"), "— 3 stages, 3 groups: 10 of 12 members, 2 in no group",
							"members in no group (a run that follows the strategy never upgrades them):", "aks-sea-edge-01, aks-weu-dev-01"),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(usAddr, tfjsonpath.New("id"), knownvalue.StringExact("canary-first")),
					statecheck.ExpectKnownValue(usAddr, attrPath("stages", 0, "after_stage_wait_in_seconds"), knownvalue.Int64Exact(3600)),
					statecheck.ExpectKnownValue(usAddr, attrPath("stages", 1, "after_stage_wait_in_seconds"), knownvalue.Null()),
				},
			},
			{
				// Half the canaries at once, the two waves in one stage: an
				// update in place, previewed again.
				Config: cfg + strategyConfig("canary-first", `
    { name = "canary", groups {
      name = "canary"
      max_concurrency = "50%"
    }, after_stage_wait_in_seconds = 1800 },
    { name = "waves", groups {
      name = "wave-1"
      max_concurrency = "2"
    }
    groups {
      name = "wave-2"
    }, max_concurrency = "3",
      after_gates {
        type = "Approval"
        display_name = "Waves done"
      } },`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(usAddr, plancheck.ResourceActionUpdate),
					expectPreviewLine(strategyObj("canary-first"), keyLine("canary/canary", strings.Replace(canaryLine, "(concurrency 1)", "(concurrency 2)", 1))),
					expectPreviewLine(strategyObj("canary-first"), keyLine("waves/wave-1", strings.Replace(wave1Line, "(concurrency 1)", "(concurrency 2)", 1))),
					expectPreviewLine(strategyObj("canary-first"), keyLine("waves/wave-2", wave2Line)),
					expectPreview(strategyObj("canary-first"), "— 2 stages, 3 groups: 10 of 12 members, 2 in no group"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(usAddr, attrPath("stages", 1, "after_gates", 0, "display_name"), knownvalue.StringExact("Waves done")),
				},
			},
			{
				ResourceName:      usAddr,
				ImportState:       true,
				ImportStateId:     "canary-first",
				ImportStateVerify: true,
				// The configuration writes the gate type's default; an import
				// records the shortest form (designs/hub.md §5).
				ImportStateVerifyIgnore: []string{"stages.1.after_gates.0.type"},
			},
			{
				ResourceName:      usAddr,
				ImportState:       true,
				ImportStateId:     strategyARMID("canary-first"),
				ImportStateVerify: true,
				// The configuration writes the gate type's default; an import
				// records the shortest form (designs/hub.md §5).
				ImportStateVerifyIgnore: []string{"stages.1.after_gates.0.type"},
			},
			{
				ResourceName:  usAddr,
				ImportState:   true,
				ImportStateId: "/subscriptions/x/resourceGroups/y/providers/Microsoft.ContainerService/fleets/f/updateRuns/canary-first",
				ExpectError:   expectError(`Invalid import id`),
			},
		},
	})
}

// A strategy imported with an import block, from a configuration that
// leaves the default wait out, plans nothing more after the import; a
// stage's wait written as 0 plans nothing either once applied.
func TestAccUpdateStrategy_importBlockConverges(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	seed := func() {
		s := update.Strategy{Stages: []update.Stage{
			{Name: "canary", Groups: []update.Group{{Name: "canary"}}, AfterStageWaitInSeconds: update.WaitSeconds(600)},
			{Name: "rest", Groups: []update.Group{{Name: "wave-1"}, {Name: "wave-2"}}},
		}}
		if _, err := storedHub(t, state).PutUpdateStrategy(context.Background(), hub.UpdateStrategy{Meta: hub.Meta{Name: "safe"}, Spec: s}, hub.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
	cfg := providerConfigAt(state, "", testClock)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{
			PreConfig: seed,
			Config: cfg + `
import {
  to = aks_fleet_update_strategy.test
  id = "` + strategyARMID("safe") + `"
}` + strategyConfig("safe", `
    { name = "canary", groups {
      name = "canary"
    }, after_stage_wait_in_seconds = 600 },
    { name = "rest", groups {
      name = "wave-1"
    }
    groups {
      name = "wave-2"
    } },`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(usAddr, plancheck.ResourceActionNoop),
				// An import changes nothing: nothing to preview.
				expectNoPreview(strategyObj("safe")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(usAddr, tfjsonpath.New("id"), knownvalue.StringExact("safe")),
			},
		},
		{
			Config: cfg + strategyConfig("safe", `
    { name = "canary", groups {
      name = "canary"
    }, after_stage_wait_in_seconds = 600 },
    { name = "rest", groups {
      name = "wave-1"
    }
    groups {
      name = "wave-2"
    }, after_stage_wait_in_seconds = 0 },`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(usAddr, plancheck.ResourceActionUpdate),
			}},
			// plugin-testing then requires the refreshed plan to be empty.
		},
	}})
}

// A strategy deleted outside Terraform is removed from the state by the
// refresh and created again by the next apply.
func TestAccUpdateStrategy_deletedOutOfBandIsRecreated(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	cfg := providerConfigAt(state, "", testClock) + strategyConfig("canary-first", threeWaves)
	exists := func(*terraform.State) error {
		_, err := storedHub(t, state).GetUpdateStrategy(context.Background(), "canary-first")
		return err
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{Config: cfg, Check: exists},
		{
			PreConfig: func() {
				if err := storedHub(t, state).DeleteUpdateStrategy(context.Background(), "canary-first", hub.Precondition{}); err != nil {
					t.Fatal(err)
				}
			},
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(usAddr, plancheck.ResourceActionCreate),
				expectPreviewLine(strategyObj("canary-first"), keyLine("canary/canary", canaryLine)),
			}},
			Check: exists,
		},
	}})
}

// A change made outside Terraform shows as an update back to the
// configuration, in the practitioner's form (no diff for unset waits), and
// the apply restores it.
func TestAccUpdateStrategy_changedOutOfBandIsAdopted(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	cfg := providerConfigAt(state, "", testClock) + strategyConfig("canary-first", threeWaves)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{Config: cfg},
		{
			PreConfig: func() {
				h := storedHub(t, state)
				s, err := h.GetUpdateStrategy(context.Background(), "canary-first")
				if err == nil {
					s.Spec.Stages[2].MaxConcurrency = "25%"
					_, err = h.PutUpdateStrategy(context.Background(), *s, hub.Precondition{IfMatch: s.ETag})
				}
				if err != nil {
					t.Fatal(err)
				}
			},
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(usAddr, plancheck.ResourceActionUpdate),
				expectOnlyChanged(usAddr, "stages.2.max_concurrency"),
			}},
			Check: func(*terraform.State) error {
				s, err := storedHub(t, state).GetUpdateStrategy(context.Background(), "canary-first")
				if err == nil && s.Spec.Stages[2].MaxConcurrency != "" {
					err = fmt.Errorf("the hub holds max_concurrency %q, want the configuration's (unset)", s.Spec.Stages[2].MaxConcurrency)
				}
				return err
			},
		},
	}})
}

// expectOnlyChanged checks that a planned update changes exactly the given
// stages attributes (flatmap-style paths below stages), nothing else.
type onlyChanged struct {
	addr string
	want []string
}

func expectOnlyChanged(addr string, want ...string) plancheck.PlanCheck {
	return onlyChanged{addr, want}
}

func (c onlyChanged) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr {
			continue
		}
		var got []string
		diffPaths("", rc.Change.Before, rc.Change.After, &got)
		if !reflect.DeepEqual(got, c.want) {
			resp.Error = fmt.Errorf("%s: the plan changes %v, want %v", c.addr, got, c.want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: not in the plan", c.addr)
}

// diffPaths lists the leaves that differ between two JSON values.
func diffPaths(at string, a, b any, out *[]string) {
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range av {
			keys[k] = true
		}
		for k := range bv {
			keys[k] = true
		}
		var sorted []string
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			diffPaths(join(k), av[k], bv[k], out)
		}
		return
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			break
		}
		for i := range av {
			diffPaths(join(fmt.Sprint(i)), av[i], bv[i], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, at)
	}
}

// Every strategy rule of designs/updates.md §2 fails at plan, naming the attribute.
func TestAccUpdateStrategy_validation(t *testing.T) {
	cfg := providerConfig(t, "")
	fiftyOne := make([]string, 51)
	for i := range fiftyOne {
		fiftyOne[i] = fmt.Sprintf("groups {\n  name = \"g-%d\"\n}", i)
	}
	cases := []struct{ config, want string }{
		{strategyConfig("Canary_First", threeWaves), `name: update strategy name "Canary_First" may contain only lower-case letters, digits and '-'`},
		{strategyConfig("-canary", threeWaves), `name: update strategy name "-canary" must start and end with a lower-case letter or a digit`},
		{strategyConfig("s", ""), `stages: at least one stages block is required here. Add one: stages { … }.`},
		{strategyConfig("s", `
    { name = "canary", groups {
      name = "canary"
    } },
    { name = "prod", groups {
      name = "wave-1"
    }
    groups {
      name = "canary"
    } },`),
			`stages[1].groups[1].name: group "canary" is already in stage "canary" (stages[0].groups[0]) and appears again in stage "prod": a group may appear in only one stage`},
		{strategyConfig("s", `
    { name = "canary", groups {
      name = "canary"
    } },
    { name = "canary", groups {
      name = "wave-1"
    } },`), `stages[1].name`},
		{strategyConfig("s", `{ name = "canary" },`), `stages[0].groups: at least one groups block is required in stages[0]. Add one: groups { … }.`},
		{strategyConfig("s", `{ name = "all", `+strings.Join(fiftyOne, ", ")+` },`), `stages[0].groups: stage "all" has 51 groups: at most 50 are allowed`},
		{strategyConfig("s", `{ name = "canary", groups {
  name = "canary"
  max_concurrency = "0"
} },`),
			`stages[0].groups[0].max_concurrency: "0" is not a max_concurrency`},
		{strategyConfig("s", `{ name = "canary", groups {
  name = "canary"
}, max_concurrency = "51" },`),
			`stages[0].max_concurrency: a stage's max_concurrency cannot exceed the system limit of 50, got 51`},
		{strategyConfig("s", `{ name = "canary", groups {
  name = "canary"
  max_concurrency = "5"
}, max_concurrency = "2" },`),
			`stages[0].groups[0].max_concurrency: a group's max_concurrency cannot exceed its stage's: got 5, the stage's is "2"`},
		{strategyConfig("s", `{ name = "canary", groups {
  name = "canary"
  before_gates {
    type = "ScheduledStart"
  }
} },`),
			`stages[0].groups[0].before_gates[0].type: gate type ScheduledStart exists only in preview API versions`},
		{strategyConfig("s", `{ name = "Canary", groups {
  name = "canary"
} },`), `stages[0].name: stage name "Canary"`},
		{strategyConfig("s", `{ name = "canary", groups {
  name = "canary"
}, after_stage_wait_in_seconds = -1 },`),
			`stages[0].after_stage_wait_in_seconds`},
	}
	for _, c := range cases {
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: cfg + c.config, PlanOnly: true, ExpectError: expectError(c.want)},
		}})
	}
}

// A value known only after apply causes no false error, and the preview
// waits for it.
func TestAccUpdateStrategy_unknownValues(t *testing.T) {
	cfg := providerConfig(t, "")
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: cfg + `
resource "terraform_data" "g" { input = "wave-1" }
resource "aks_fleet_update_strategy" "test" {
  name   = "late"
  stages {
    name = "one"
    groups {
      name = terraform_data.g.output
      max_concurrency = "2"
    }
    max_concurrency = "3"
  }
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			// Previewed at apply, once the group is known.
			expectNoPreview(strategyObj("late")),
		}},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(usAddr, attrPath("stages", 0, "groups", 0, "max_concurrency"), knownvalue.StringExact("2")),
		},
	}}})
}

// A group no member has is accepted with a preview that says so (the mock,
// like the service, stores the strategy; a run that uses it is rejected).
func TestAccUpdateStrategy_groupWithoutMembers(t *testing.T) {
	cfg := providerConfig(t, "")
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: cfg + strategyConfig("typo", `
    { name = "canary", groups {
      name = "canary"
    } },
    { name = "prod", groups {
      name = "prodd"
    } },`),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			expectPreviewLine(strategyObj("typo"), keyLine("prod/prodd", "0 members: no member of the fleet is in this group")),
			expectPreview(strategyObj("typo"), "— 2 stages, 2 groups: 4 of 12 members, 8 in no group; 1 group without members"),
		}},
	}}})
}

// The plan warns (plugin-testing does not show warnings: through the protocol).
func TestUpdateStrategyPlanWarnings(t *testing.T) {
	strategy := func(stages ...update.Stage) updateStrategyModel {
		return updateStrategyModel{Name: "s", Strategy: update.Strategy{Stages: stages}}
	}
	groups := func(names ...string) []update.Group {
		out := make([]update.Group, len(names))
		for i, n := range names {
			out[i] = update.Group{Name: n}
		}
		return out
	}
	cases := []struct {
		name     string
		strategy updateStrategyModel
		want     []string
	}{
		{"group no member has", strategy(update.Stage{Name: "canary", Groups: groups("canary")}, update.Stage{Name: "prod", Groups: groups("prodd")}),
			[]string{`stages[1].groups[0].name: no member of the fleet is in update group "prodd", so the service rejects a run that uses it; the fleet's groups are canary, wave-1, wave-2`}},
		{"members in no group", strategy(update.Stage{Name: "canary", Groups: groups("canary")}),
			[]string{`stages: 8 member(s) of the fleet are in no group of these stages and are never upgraded by it: aks-east-gpu-01 (group "wave-2")`}},
		{"group concurrency above its members", strategy(update.Stage{Name: "all", Groups: []update.Group{{Name: "wave-1", MaxConcurrency: "4"}, {Name: "canary"}, {Name: "wave-2"}}}),
			[]string{`stages[0].groups[0].max_concurrency: max_concurrency 4 exceeds the 3 member(s) of group "wave-1"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diags := protocolPlan(t, updateStrategyType, c.strategy)
			if errs := errorsOf(diags); len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			warnings := strings.Join(warningsOf(diags), "\n")
			for _, w := range c.want {
				if !strings.Contains(warnings, w) {
					t.Errorf("warnings do not say %q:\n%s", w, warnings)
				}
			}
		})
	}
	// Every group of the fleet covered: only the two members without a group are left.
	diags := protocolPlan(t, updateStrategyType, strategy(update.Stage{Name: "canary", Groups: groups("canary")},
		update.Stage{Name: "waves", Groups: groups("wave-1", "wave-2")}))
	if ws := warningsOf(diags); len(ws) != 1 || !strings.Contains(ws[0], "aks-sea-edge-01 (no group), aks-weu-dev-01 (no group)") {
		t.Fatalf("want one warning about the members without a group, got %v", ws)
	}
}

// The preview lists at most 10 members of a group, counts the rest, and
// bounds a group's concurrency by its stage's.
func TestStrategyPreviewDoc(t *testing.T) {
	f := &fleet.Fleet{}
	for i := range 13 {
		f.Clusters = append(f.Clusters, fleet.Cluster{Name: fmt.Sprintf("m-%02d", i), Group: "big"})
	}
	f.Clusters = append(f.Clusters, fleet.Cluster{Name: "n-1", Group: "small"}, fleet.Cluster{Name: "n-2", Group: "other"}, fleet.Cluster{Name: "n-3"})
	s := update.Strategy{Stages: []update.Stage{
		{Name: "one", MaxConcurrency: "2", Groups: []update.Group{{Name: "big", MaxConcurrency: "50%"}, {Name: "small"}}},
		{Name: "two", Groups: []update.Group{{Name: "gone"}}},
	}}
	got := newStrategyPreviewDoc(s, f)
	want := strategyPreviewDoc{
		order: []string{"one/big", "one/small", "two/gone"},
		Groups: map[string]string{
			"one/big":   "13 members: m-00, m-01, m-02, m-03, m-04, m-05, m-06, m-07, m-08, m-09 and 3 more (concurrency 2)",
			"one/small": "1 member: n-1 (concurrency 1)",
			"two/gone":  "0 members: no member of the fleet is in this group",
		},
		MembersInNoGroup: []string{"n-2", "n-3"},
		Summary:          "2 stages, 3 groups: 14 of 16 members, 2 in no group; 1 group without members",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
}

// Import accepts a name or an update strategy's ARM id and records the name.
func TestStrategyImportName(t *testing.T) {
	for id, want := range map[string]string{
		"canary-first":                                 "canary-first",
		strategyARMID("canary-first"):                  "canary-first",
		strings.ToLower(strategyARMID("canary-first")): "canary-first", // ARM ids are case-insensitive
		"Canary": "",
		"/subscriptions/x/resourceGroups/y/providers/Microsoft.ContainerService/fleets/f/updateRuns/r": "",
		"": "",
	} {
		got, err := strategyImportName(id)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("%q: got %q, %v; want %q", id, got, err, want)
		}
	}
}
