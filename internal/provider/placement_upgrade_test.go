package provider

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A state written by the previous release (schema version 0, the preview's
// structured decisions) upgrades to one line per cluster, with the same
// facts, and then plans no change.
func TestUpgradePlacementStateV0(t *testing.T) {
	v0 := `{
  "id": "web", "name": "web", "preview_limit": 20, "revision_history_limit": null, "strategy": null,
  "resource_selectors": [{"group": null, "version": "v1", "kind": "Namespace", "name": "web", "label_selector": null}],
  "policy": {"placement_type": "PickN", "number_of_clusters": 2, "cluster_names": null, "affinity": null, "tolerations": null,
             "topology_spread_constraints": null},
  "preview": {
    "summary": {"requested": 2, "selected": 2, "fulfilled": true, "message": null},
    "decisions": [
      {"cluster_name": "aks-east-prod-01", "selected": true, "affinity_score": 0, "topology_spread_score": 0, "reason": "picked by scheduling policy"},
      {"cluster_name": "aks-east-prod-02", "selected": true, "affinity_score": 0, "topology_spread_score": 0, "reason": "picked by scheduling policy"},
      {"cluster_name": "aks-sea-prod-01", "selected": false, "affinity_score": 0, "topology_spread_score": 0, "reason": "does not score high enough (affinity score: 0, topology spread score: 0)"}
    ],
    "left_out_total": 10,
    "left_out_counts": {"does not score high enough": 9, "taint dedicated=gpu:NoSchedule cannot be tolerated": 1},
    "rollout": {"type": "RollingUpdate", "max_unavailable": 1, "max_surge": 1, "unavailable_period_seconds": 60}
  },
  "status": null
}`
	ctx := context.Background()
	server, schemas := protocolServer(t)
	typ := schemas.ResourceSchemas[placementType].ValueType()
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: placementType, Version: 0, RawState: &tfprotov6.RawState{JSON: []byte(v0)},
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("upgrade: %v %v", err, resp.Diagnostics)
	}
	v, err := resp.UpgradedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	var m placementModel
	if _, err := decode(v, &m); err != nil {
		t.Fatal(err)
	}
	want := planPreviewDoc{
		Summary:       "PickN: 2 of 2 clusters selected",
		Selected:      map[string]string{"aks-east-prod-01": "affinity 0, topology spread 0", "aks-east-prod-02": "affinity 0, topology spread 0"},
		LeftOut:       map[string]string{"aks-sea-prod-01": "#1 does not score high enough (affinity score: 0, topology spread score: 0)"},
		LeftOutTotal:  10,
		LeftOutCounts: map[string]int{"does not score high enough": 9, "taint dedicated=gpu:NoSchedule cannot be tolerated": 1},
		Rollout:       "RollingUpdate: up to 1 unavailable and 1 extra at a time, each available after 60s",
	}
	if m.Preview == nil || !reflect.DeepEqual(*m.Preview, want) {
		got, _ := json.MarshalIndent(m.Preview, "", "  ")
		t.Fatalf("upgraded preview:\n%s", got)
	}
	if m.Name != "web" || m.Policy.NumberOfClusters == nil || *m.Policy.NumberOfClusters != 2 {
		t.Fatalf("the rest of the state must survive: %+v", m)
	}
	// The configuration that wrote it plans no change against the upgraded state.
	config := v.Copy()
	plan, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: placementType, PriorState: resp.UpgradedState, ProposedNewState: resp.UpgradedState, Config: mustDynamic(t, typ, config),
	})
	if err != nil || len(plan.Diagnostics) > 0 || len(plan.RequiresReplace) > 0 {
		t.Fatalf("plan: %v %v %v", err, plan.Diagnostics, plan.RequiresReplace)
	}
	planned, err := plan.PlannedState.Unmarshal(typ)
	if err != nil || !planned.Equal(v) {
		t.Fatalf("the plan changes the upgraded state: %v\n%v\n%v", err, planned, v)
	}
}

func mustDynamic(t *testing.T, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}
