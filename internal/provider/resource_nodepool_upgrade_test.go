package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// nodePoolStatesV0 are states written by the previous release (schema
// version 0), recorded with `terraform apply` on the sample fleet at the
// test clock: the resource example when created and after a label change
// (drift), the seed designs with reason-scoped scheduled budgets, budgets = []
// (unlimited), and nodePoolConfig with blockedBudgets (reasons blocked at the
// time of the plan).
var nodePoolStatesV0 = []string{"create", "drift", "multi", "empty", "blocked"}

func readNodePoolStateV0(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "nodepool_state_v0_"+name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// upgradeNodePoolV0 sends a version-0 state through UpgradeResourceState.
func upgradeNodePoolV0(t *testing.T, server tfprotov6.ProviderServer, raw []byte) *tfprotov6.DynamicValue {
	t.Helper()
	resp, err := server.UpgradeResourceState(context.Background(), &tfprotov6.UpgradeResourceStateRequest{
		TypeName: nodePoolType, Version: 0, RawState: &tfprotov6.RawState{JSON: raw},
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("upgrade: %v %v", err, errorsOf(resp.Diagnostics))
	}
	return resp.UpgradedState
}

// Every recorded version-0 state upgrades to the preview a plan of the same
// change computes now, with the spec and status kept as they were, and then
// plans no change.
func TestUpgradeNodePoolStateV0(t *testing.T) {
	ctx := context.Background()
	server, schemas := protocolServer(t)
	typ := schemas.ResourceSchemas[nodePoolType].ValueType()

	// The nodes the recorded plans saw: the sample fleet at the test clock.
	at, _ := time.Parse(time.RFC3339, testClock)
	h, err := mock.New(mock.Config{StatePath: filepath.Join(t.TempDir(), "state.db"), Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: at}})
	if err != nil {
		t.Fatal(err)
	}
	live, err := h.NodePoolNodes(ctx, "aks-east-prod-01", "default")
	if err != nil {
		t.Fatal(err)
	}
	var created nodePoolModelV0 // the spec before the drifting change
	if err := json.Unmarshal(readNodePoolStateV0(t, "create"), &created); err != nil {
		t.Fatal(err)
	}

	for _, name := range nodePoolStatesV0 {
		t.Run(name, func(t *testing.T) {
			raw := readNodePoolStateV0(t, name)
			upgraded := upgradeNodePoolV0(t, server, raw)
			v, err := upgraded.Unmarshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			var m nodePoolModel
			if _, err := decode(v, &m); err != nil {
				t.Fatal(err)
			}
			var before *nodepool.NodePool
			if name == "drift" {
				before = &created.NodePool
			}
			want := newNodePoolPreviewDoc(before, m.NodePool, live.Nodes, at)
			if m.Preview == nil || !reflect.DeepEqual(*m.Preview, want) {
				got, _ := json.MarshalIndent(m.Preview, "", "  ")
				exp, _ := json.MarshalIndent(want, "", "  ")
				t.Fatalf("upgraded preview:\n%s\nwant (a plan now):\n%s", got, exp)
			}

			// Everything but the preview is as it was.
			var old, now map[string]json.RawMessage
			if err := json.Unmarshal(raw, &old); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(mustJSON(t, m), &now); err != nil {
				t.Fatal(err)
			}
			for k := range old {
				if k != "preview" && !sameJSON(t, old[k], now[k]) {
					t.Errorf("%s: %s became %s", k, old[k], now[k])
				}
			}

			// The configuration that wrote it plans no change against the upgraded state.
			plan, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
				TypeName: nodePoolType, PriorState: upgraded, ProposedNewState: upgraded, Config: upgraded,
			})
			if err != nil || len(plan.Diagnostics) > 0 || len(plan.RequiresReplace) > 0 {
				t.Fatalf("plan: %v %v %v", err, plan.Diagnostics, plan.RequiresReplace)
			}
			planned, err := plan.PlannedState.Unmarshal(typ)
			if err != nil || !planned.Equal(v) {
				t.Fatalf("the plan changes the upgraded state: %v\n%v\n%v", err, planned, v)
			}
		})
	}
}

// A version-0 preview that failed closed or was blocked reads as such.
func TestUpgradeNodePoolPreviewV0FailedClosed(t *testing.T) {
	zero := 0
	var p nodePoolPreviewV0
	p.EvaluatedAt = "2026-11-21T12:00:00Z"
	p.AllowedNow = []allowanceDoc{{Reason: "Empty", Allowed: &zero, BudgetIndexes: []int{}}}
	p.Timeline = []intervalDoc{
		{Reason: "Empty", spanDoc: spanDoc{Start: "2026-11-21T12:00:00Z", End: "2026-11-21T13:00:00Z", Allowed: &zero, BudgetIndexes: []int{1},
			Description: "Sat 12:00–13:00 UTC: 0 (fail closed: budget #2 cannot be evaluated)"}},
		{Reason: "Empty", spanDoc: spanDoc{Start: "2026-11-21T13:00:00Z", End: "2026-11-28T12:00:00Z", Unlimited: true, BudgetIndexes: []int{},
			Description: "Sat 2026-11-21 13:00–Sat 2026-11-28 12:00 UTC: unlimited (no active budget)"}},
	}
	d, err := p.upgrade()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.AllowedNow["Empty"], "0 (fail closed: a budget is invalid)"; got != want {
		t.Errorf("allowed_now: got %q, want %q", got, want)
	}
	want := []string{
		"Sat 12:00–13:00 UTC · Empty: 0 (fail closed: budget #2 cannot be evaluated)",
		"Sat 2026-11-21 13:00–Sat 2026-11-28 12:00 UTC · Empty: unlimited (no active budget)",
	}
	if !reflect.DeepEqual(d.Timeline, want) {
		t.Errorf("timeline: got %q, want %q", d.Timeline, want)
	}
	if got, want := d.NextAllowed["Empty"], "2026-11-21T13:00:00Z: unlimited (no active budget)"; got != want {
		t.Errorf("next_allowed: got %q, want %q", got, want)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// sameJSON compares two JSON texts as data.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

// The CLI upgrades a state of the previous release: the pool is applied,
// then its state is replaced by the one the previous release wrote for the
// same configuration (schema version 0, recorded in
// nodepool_state_v0_blocked.json); Terraform upgrades it, refreshes it, and
// plans no change, and the upgraded preview says what a new plan says.
func TestAccNodePool_upgradeFromV0(t *testing.T) {
	work := t.TempDir()
	t.Setenv("TF_ACC_TEMP_DIR", work) // where the test harness keeps its working directory and state
	cfg := providerConfig(t, "") + nodePoolConfig(`team = "web"`, blockedBudgets)
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(npAddr, attrPath("preview", "evaluated_at"), knownvalue.StringExact(testClock)),
		statecheck.ExpectKnownValue(npAddr, attrPath("status", "nodes"), knownvalue.Int64Exact(3)),
	}
	for _, c := range blockedPreview {
		checks = append(checks, statecheck.ExpectKnownValue(npAddr, c.path, c.check))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig:         func() { writeStateV0(t, work, readNodePoolStateV0(t, "blocked")) },
				Config:            cfg,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: checks,
			},
		},
	})
}

// writeStateV0 replaces the attributes of the only resource instance in the
// test harness's state file with a version-0 state, as the previous release
// left it (the private data, with the hub object's ETag, stays).
func writeStateV0(t *testing.T, work string, attrs []byte) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(work, "plugintest*", "work*", "terraform.tfstate"))
	if len(files) != 1 {
		t.Fatalf("want one state file under %s, found %v", work, files)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var state map[string]any
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	var v0 map[string]any
	if err := json.Unmarshal(attrs, &v0); err != nil {
		t.Fatal(err)
	}
	resources, _ := state["resources"].([]any)
	if len(resources) != 1 {
		t.Fatalf("want one resource in the state, got %d", len(resources))
	}
	instances, _ := resources[0].(map[string]any)["instances"].([]any)
	if len(instances) != 1 {
		t.Fatalf("want one instance in the state, got %d", len(instances))
	}
	instance := instances[0].(map[string]any)
	if instance["schema_version"] != float64(1) {
		t.Fatalf("the current release writes schema version 1, got %v", instance["schema_version"])
	}
	instance["schema_version"] = 0
	instance["attributes"] = v0
	state["serial"] = state["serial"].(float64) + 1
	if err := os.WriteFile(files[0], mustJSON(t, state), 0o600); err != nil {
		t.Fatal(err)
	}
}
