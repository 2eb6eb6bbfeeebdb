package provider

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// upgradeState upgrades a stored state of an earlier schema version through
// the provider protocol, as Terraform does, and decodes it into model.
func upgradeState(t *testing.T, typeName string, version int64, raw string, model any) tftypes.Value {
	t.Helper()
	ctx := context.Background()
	server, schemas := protocolServer(t)
	typ := schemas.ResourceSchemas[typeName].ValueType()
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: typeName, Version: version, RawState: &tfprotov6.RawState{JSON: []byte(raw)},
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("upgrade %s v%d: %v %v", typeName, version, err, diagText(resp.Diagnostics))
	}
	v, err := resp.UpgradedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decode(v, model); err != nil {
		t.Fatal(err)
	}
	return v
}

func diagText(ds []*tfprotov6.Diagnostic) string {
	out := ""
	for _, d := range ds {
		out += d.Summary + ": " + d.Detail + "\n"
	}
	return out
}

// States written by the previous shapes (designs/previews.md §7) upgrade: the
// preview is dropped, the status keeps what it said, counted, and the
// configuration stays as written.
func TestStateUpgrades(t *testing.T) {
	const placementV1 = `{
  "id": "web", "name": "web", "preview_limit": 20, "revision_history_limit": null, "strategy": null,
  "resource_selectors": [{"group": null, "version": "v1", "kind": "Namespace", "name": "web", "label_selector": null}],
  "policy": {"placement_type": "PickN", "number_of_clusters": 2, "cluster_names": null, "affinity": null, "tolerations": null,
             "topology_spread_constraints": null},
  "preview": {"summary": "PickN: 2 of 2 clusters selected", "selected": {"a": "affinity 0, topology spread 0"}, "left_out": {},
              "left_out_total": 0, "left_out_counts": {}, "rollout": "RollingUpdate: up to 1 unavailable"},
  "status": {"selected_clusters": ["a", "b"], "requested": 2, "fulfilled": true, "message": null, "observed_generation": 3,
             "decisions": [{"cluster_name": "a", "selected": true, "affinity_score": 0, "topology_spread_score": 0, "reason": "picked by scheduling policy"}],
             "conditions": [{"type": "ClusterResourcePlacementScheduled", "status": "True", "reason": "SchedulingPolicyFulfilled",
                             "message": "found all", "last_transition_time": "2026-11-21T12:00:00Z"}]}
}`
	for _, v := range []int64{0, 1} {
		var m placementModel
		upgradeState(t, placementType, v, placementV1, &m)
		if m.Status == nil || m.Status.Selected != 2 || m.Status.ObservedGeneration != 3 || len(m.Status.Conditions) != 1 ||
			m.Status.Requested == nil || *m.Status.Requested != 2 || m.ReviewedPreview != "" {
			t.Fatalf("placement v%d: %+v", v, m.Status)
		}
		if m.Policy.NumberOfClusters == nil || *m.Policy.NumberOfClusters != 2 || m.Name != "web" {
			t.Fatalf("placement v%d: the configuration must survive: %+v", v, m)
		}
	}

	files, _ := filepath.Glob("testdata/nodepool_state_v0_*.json")
	if len(files) == 0 {
		t.Fatal("no NodePool state files")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m nodePoolModel
		upgradeState(t, nodePoolType, 0, string(raw), &m)
		if m.Cluster == "" || m.Name == "" || m.Template.NodeClassRef.Name == "" {
			t.Fatalf("%s: %+v", f, m)
		}
	}

	const runV0 = `{
  "id": "r", "name": "r", "update_strategy_id": null, "stages": null, "upgrade": {"type": "Full", "kubernetes_version": "1.33.2"},
  "node_image_selection": null, "start": true, "stopped": false, "wait_for_completion": false, "skip": null,
  "approved_gates": null, "rerun_trigger": null, "timeouts": null,
  "preview": {"evaluated_at": "2026-11-21T12:00:00Z", "summary": "2 members", "estimated_finish": null, "to_upgrade": 1, "skipped": 1,
              "pending": 0, "members": {"1. default/default/a": "Upgrade"}, "selected_node_images": null, "approval_gates": [], "gantt": "gantt"},
  "status": {"state": "Running", "message": null, "start_time": "2026-11-21T12:00:00Z", "end_time": null,
             "progress": "1 of 2 members done", "current_stage": "default", "stages": {"default": "Running"},
             "groups": {"default/default": "Running"}, "members": {"a": "Completed: 1.32.6 → 1.33.2", "b": "Running: upgrading", "c": "Completed"},
             "gates": {}, "selected_node_images": null}
}`
	var run updateRunModel
	upgradeState(t, updateRunType, 0, runV0, &run)
	if run.Status == nil || run.Status.MemberCounts["Completed"] != 2 || run.Status.MemberCounts["Running"] != 1 || !run.Start {
		t.Fatalf("run: %+v", run.Status)
	}

	const strategyV0 = `{"id": "s", "name": "s", "stages": [{"name": "a", "groups": [{"name": "g", "max_concurrency": null,
  "before_gates": null, "after_gates": null}], "after_stage_wait_in_seconds": null, "max_concurrency": null,
  "before_gates": null, "after_gates": null}], "preview": {"groups": {"a/g": "1 member"}, "members_in_no_group": [], "summary": "1 stage"}}`
	var strategy updateStrategyModel
	upgradeState(t, updateStrategyType, 0, strategyV0, &strategy)
	if len(strategy.Stages) != 1 || strategy.Stages[0].Groups[0].Name != "g" {
		t.Fatalf("strategy: %+v", strategy)
	}

	const profileV0 = `{"id": "p", "name": "p", "channel": "Rapid", "update_strategy_id": null, "node_image_selection": null,
  "disabled": true, "target_kubernetes_version": null, "long_term_support": false, "generate_run_trigger": null,
  "generated_run_id": null, "preview": {"evaluated_at": "2026-11-21T12:00:00Z", "summary": "channel Rapid"},
  "status": {"last_triggered_at": null, "last_trigger_status": null, "last_trigger_error": null,
             "last_trigger_upgrade_versions": null, "last_run": null, "runs": []}}`
	var profile autoUpgradeProfileModel
	upgradeState(t, autoUpgradeProfileType, 0, profileV0, &profile)
	if profile.Channel != "Rapid" || !profile.Disabled {
		t.Fatalf("profile: %+v", profile)
	}
}
