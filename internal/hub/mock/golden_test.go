package mock

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// The golden state files are databases of each format as the code of its
// time wrote them, committed so that every later build must read them: a
// change that breaks reading one changes the format, and needs a new version,
// a migration and a new golden file, never a rewritten old one. Only the
// file of the current format is written, and only on purpose:
//
//	go test ./internal/hub/mock -run TestGolden -update
var updateGolden = flag.Bool("update", false, "rewrite "+goldenState(store.FormatVersion)+" from the fixtures of golden_test.go")

func goldenState(version int) string { return fmt.Sprintf("testdata/state-v%d.db", version) }

const goldenInventory = `
regions: [{ name: westeurope }]
clusters:
  - { name: member-a, region: westeurope, group: canary, labels: { env: prod } }
  - { name: member-b, region: westeurope, group: prod, labels: { env: prod },
      nap_nodes: [{ name: node-1, nodepool: general, age: 2h }] }
  - { name: member-c, region: westeurope, group: prod, labels: { env: dev } }
`

func goldenHub(t *testing.T, statePath string) *Hub {
	t.Helper()
	inventory := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(inventory, []byte(goldenInventory), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := New(Config{FleetFile: inventory, StatePath: statePath, Clock: ClockConfig{Mode: ClockFixed, Time: testNow}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// The fixtures: what the golden file was written from.
var (
	prodOnly = &placement.Affinity{Required: []placement.ClusterSelectorTerm{{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}}}}
	webV1    = placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
		Policy:            placement.Policy{PlacementType: placement.PickN, NumberOfClusters: new(1), Affinity: prodOnly},
	}
	webV2 = placement.Spec{
		ResourceSelectors: webV1.ResourceSelectors,
		Policy:            placement.Policy{PlacementType: placement.PickN, NumberOfClusters: new(2), Affinity: prodOnly},
		Strategy:          placement.Strategy{Type: placement.RollingUpdateStrategy, RollingUpdate: &placement.RollingUpdate{UnavailablePeriodSeconds: new(60)}},
	}
	everywhere = placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "monitoring"}},
		Policy:            placement.Policy{Tolerations: []placement.Toleration{{Key: "dedicated", Operator: placement.TolerationOpExists}}},
	}
	general = nodepool.NodePool{
		Limits: map[string]string{"cpu": "64"},
		Template: nodepool.Template{
			Labels:       map[string]string{"team": "web"},
			NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"},
			Requirements: []nodepool.Requirement{{Key: "karpenter.sh/capacity-type", Operator: nodepool.OperatorIn, Values: []string{"on-demand"}}},
		},
		Disruption: &nodepool.Disruption{Budgets: []nodepool.Budget{{Nodes: new("20%")}}},
	}
	// tainted is in format 2 and later: taints with and without a value, and
	// an omitted disruption block.
	tainted = nodepool.NodePool{
		Template: nodepool.Template{
			NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"},
			Taints: []nodepool.Taint{{Key: "example.com/gpu", Value: new("example.com/a100"), Effect: nodepool.TaintEffectNoSchedule},
				{Key: "example.com/dedicated", Effect: nodepool.TaintEffectNoExecute}},
			StartupTaints: []nodepool.Taint{{Key: "example.com/warming", Effect: nodepool.TaintEffectNoSchedule}},
		},
	}
	safe = update.Strategy{Stages: []update.Stage{
		{Name: "canary", Groups: []update.Group{{Name: "canary"}}, AfterStageWaitInSeconds: update.WaitSeconds(3600)},
		// Written when the wait was a plain int: an unset wait is stored as 0,
		// which reads back as an explicit 0 (the same spec: StrategyWithDefaults).
		{Name: "prod", Groups: []update.Group{{Name: "prod", MaxConcurrency: "50%"}}, AfterStageWaitInSeconds: update.WaitSeconds(0)},
	}}
	run1 = update.RunSpec{UpdateStrategyID: "safe", ManagedClusterUpdate: update.ManagedClusterUpdate{
		Upgrade:            update.Upgrade{Type: update.UpgradeNodeImageOnly},
		NodeImageSelection: update.NodeImageSelection{Type: update.NodeImageLatest},
	}}
	stable = update.ProfileSpec{Channel: update.ChannelStable, UpdateStrategyID: "safe"}
)

// writeGolden builds the golden state through the hub, as Terraform would.
func writeGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	h := goldenHub(t, path)
	ctx := context.Background()
	create := store.Precondition{IfNoneMatch: true}
	web, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: webV1}, create)
	must(t, err)
	_, err = h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: webV2}, store.Precondition{IfMatch: web.ETag})
	must(t, err)
	_, err = h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "everywhere"}, Spec: everywhere}, create)
	must(t, err)
	_, err = h.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: "general"}, Cluster: "member-b", Spec: general}, create)
	must(t, err)
	_, err = h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: "safe"}, Spec: safe}, create)
	must(t, err)
	_, err = h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: "run-1"}, Spec: run1}, create)
	must(t, err)
	_, err = h.StartUpdateRun(ctx, "run-1", store.Precondition{})
	must(t, err)
	_, err = h.SkipUpdateRun(ctx, "run-1", []update.SkipTarget{{Type: update.TargetGroup, Name: "canary"}}, store.Precondition{})
	must(t, err)
	_, err = h.PutAutoUpgradeProfile(ctx, hub.AutoUpgradeProfile{Meta: hub.Meta{Name: "stable"}, Spec: stable}, create)
	must(t, err)
	_, err = h.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: "tainted"}, Cluster: "member-c", Spec: tainted}, create)
	must(t, err)

	// Without the inventory snapshot (a cache, not part of the format) and
	// compacted into a fresh file, so that the committed file is small.
	src, err := bolt.Open(path, 0o600, nil)
	must(t, err)
	defer src.Close()
	must(t, src.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte(bucketInventoryCache)) }))
	_ = os.Remove(goldenState(store.FormatVersion))
	dst, err := bolt.Open(goldenState(store.FormatVersion), 0o644, nil)
	must(t, err)
	must(t, bolt.Compact(dst, src, 0))
	must(t, dst.Close())
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestGolden(t *testing.T) {
	if *updateGolden {
		writeGolden(t)
	}
	for v := 1; v <= store.FormatVersion; v++ {
		t.Run(fmt.Sprintf("format %d", v), func(t *testing.T) { checkGolden(t, v) })
	}
}

// checkGolden opens the golden file of format version (migrating it) and
// reads back every fixture it was written from.
func checkGolden(t *testing.T, version int) {
	data, err := os.ReadFile(goldenState(version))
	must(t, err)
	path := filepath.Join(t.TempDir(), "state.db")
	must(t, os.WriteFile(path, data, 0o600))
	h := goldenHub(t, path)
	ctx := context.Background()
	meta := func(name, etag string, generation int64) hub.Meta {
		return hub.Meta{Name: name, ETag: etag, Generation: generation, CreatedAt: testNow, UpdatedAt: testNow}
	}
	scheduled := []hub.Condition{{Type: ConditionScheduled, Status: conditionStatusTrue, Reason: ReasonFulfilled,
		Message: "found all cluster needed as specified by the scheduling policy", LastTransitionTime: testNow}}
	picked := func(name string) placement.Decision {
		return placement.Decision{ClusterName: name, Selected: true, Reason: placement.ReasonPicked}
	}

	// Placements are read as GetPlacement reads them when the fleet has not
	// changed: the stored decisions, not a new scheduling cycle.
	for _, want := range []hub.Placement{
		{Meta: meta("web", `"4"`, 2), Spec: webV2, Status: hub.PlacementStatus{ObservedGeneration: 2,
			Selected: []string{"member-a", "member-b"}, Requested: 2, Fulfilled: true, Conditions: scheduled,
			Decisions: []placement.Decision{picked("member-a"), picked("member-b"), {ClusterName: "member-c", Reason: placement.ReasonNoRequiredMatch}}}},
		{Meta: meta("everywhere", `"6"`, 1), Spec: everywhere, Status: hub.PlacementStatus{ObservedGeneration: 1,
			Selected: []string{"member-a", "member-b", "member-c"}, Requested: -1, Fulfilled: true, Conditions: scheduled,
			Decisions: []placement.Decision{picked("member-a"), picked("member-b"), picked("member-c")}}},
	} {
		r, rec, err := store.Load[store.Placement](h.Store(), store.BucketPlacements, want.Name)
		must(t, err)
		want.Written = written(want.Spec) // the mock fills in no defaults
		got := placementObject(r, rec.Meta(want.Name))
		if version >= 5 { // written since placements roll out: Fleet's rollout conditions and a binding per selected cluster
			if len(got.Status.Conditions) != 6 || got.Status.ResourceDigest == "" || len(got.Status.Bindings) != len(want.Status.Selected) {
				t.Errorf("placement %s: rollout state lost: %d conditions, digest %q, %d bindings", want.Name,
					len(got.Status.Conditions), got.Status.ResourceDigest, len(got.Status.Bindings))
			}
			want.Status.Conditions = append(scheduled, got.Status.Conditions[min(1, len(got.Status.Conditions)):]...)
			want.Status.ResourceDigest, want.Status.Bindings = got.Status.ResourceDigest, got.Status.Bindings
		}
		same(t, "placement "+want.Name, got, &want)
		if r.Status.ObservedFleet == "" || !reflect.DeepEqual(r.Status.Policy, want.Spec.Policy) {
			t.Errorf("placement %s: scheduling state lost: policy %+v, fleet %q", want.Name, r.Status.Policy, r.Status.ObservedFleet)
		}
	}

	np, err := h.GetNodePool(ctx, "member-b", "general")
	must(t, err)
	same(t, "NodePool", np.Meta, meta("general", `"1"`, 1))
	same(t, "NodePool spec", np.Spec, general)
	if np.Cluster != "member-b" || np.Status.Total != 1 {
		t.Errorf("NodePool %s with %d nodes", np.Cluster, np.Status.Total)
	}

	strategy, err := h.GetUpdateStrategy(ctx, "safe")
	must(t, err)
	same(t, "strategy", strategy, &hub.UpdateStrategy{Meta: meta("safe", `"1"`, 1), Spec: safe, Written: written(safe)})

	run, err := h.GetUpdateRun(ctx, "run-1")
	must(t, err)
	// A run's status is computed from its events on every read (update.Execution).
	same(t, "run", &hub.UpdateRun{Meta: run.Meta, Spec: run.Spec, ResolvedStrategy: run.ResolvedStrategy},
		&hub.UpdateRun{Meta: meta("run-1", `"3"`, 1), Spec: run1, ResolvedStrategy: &safe})
	if run.Status.State != update.StateRunning || !run.Status.StartTime.Equal(testNow) || run.Status.Stages[0].Groups[0].State != update.StateSkipped {
		t.Errorf("run status from its events: %+v", run.Status)
	}
	events, rec, err := store.Load[store.RunEvents](h.Store(), store.BucketRunEvents, "run-1")
	must(t, err)
	for i := range events.Events { // the members a start saw: recorded from format 4 on
		events.Events[i].Members = nil
	}
	same(t, "run events", events, &store.RunEvents{Events: []store.RunEvent{{Action: "start", At: testNow},
		{Action: "skip", At: testNow, Targets: []update.SkipTarget{{Type: update.TargetGroup, Name: "canary"}}}}})
	same(t, "run events envelope", rec.Meta("run-1"), meta("run-1", `"2"`, 2))

	profile, err := h.GetAutoUpgradeProfile(ctx, "stable")
	must(t, err)
	same(t, "profile", profile, &hub.AutoUpgradeProfile{Meta: meta("stable", `"1"`, 1), Spec: stable, Written: written(stable)})

	if version >= 2 {
		np, err := h.GetNodePool(ctx, "member-c", "tainted")
		must(t, err)
		same(t, "NodePool tainted", np.Meta, meta("tainted", `"2"`, 1))
		same(t, "NodePool tainted spec", np.Spec, tainted)
	}
	var v string
	must(t, h.Store().View(func(tx *bolt.Tx) error {
		v = string(tx.Bucket([]byte(store.BucketMeta)).Get([]byte(store.FormatKey)))
		return nil
	}))
	if v != strconv.Itoa(store.FormatVersion) {
		t.Errorf("format %q after opening, want %d", v, store.FormatVersion)
	}
}

func same(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s read back differs:\n got  %s\n want %s", what, g, w)
	}
}
