package mock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

func newTestHub(t *testing.T, inventory string) (*Hub, string) {
	t.Helper()
	dir := t.TempDir()
	cfg := Config{StatePath: filepath.Join(dir, "state.db"), Clock: ClockConfig{Mode: ClockFixed, Time: testNow}}
	if inventory != "" {
		cfg.FleetFile = filepath.Join(dir, "fleet.yaml")
		if err := os.WriteFile(cfg.FleetFile, []byte(inventory), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h, cfg.FleetFile
}

// rewrite replaces the inventory, as a user editing the file between commands.
func rewrite(t *testing.T, h *Hub, file, inventory string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(inventory), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	_ = os.Chtimes(file, later, later)
}

const threeClusters = `
regions: [{ name: r }]
clusters:
  - { name: a, region: r, labels: { env: prod } }
  - { name: b, region: r, labels: { env: prod } }
  - { name: c, region: r, labels: { env: dev } }
`

func TestPlacementSchedulingFollowsTheFleet(t *testing.T) {
	h, file := newTestHub(t, threeClusters)
	ctx := context.Background()
	n := 2
	pickN := hub.Placement{Meta: hub.Meta{Name: "pick-two"}, Spec: placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{{Group: "", Version: "v1", Kind: "Namespace", Name: "app"}},
		Policy:            placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n},
	}}
	pickAll := hub.Placement{Meta: hub.Meta{Name: "prod-all"}, Spec: placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app"}},
		Policy:            placement.Policy{PlacementType: placement.PickAll},
	}}
	p, err := h.ApplyPlacement(ctx, pickN, store.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"b", "c"}; !reflect.DeepEqual(p.Status.Selected, want) || !p.Status.Fulfilled || p.Generation != 1 {
		t.Fatalf("PickN: %+v (ties go to the larger names)", p.Status)
	}
	if _, err := h.ApplyPlacement(ctx, pickAll, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ApplyPlacement(ctx, pickN, store.Precondition{IfNoneMatch: true}); !errors.Is(err, hub.ErrPreconditionFailed) {
		t.Fatalf("create over existing: %v", err)
	}

	// The fleet changes between commands: c leaves, d joins, a is relabelled.
	rewrite(t, h, file, `
regions: [{ name: r }]
clusters:
  - { name: a, region: r, labels: { env: dev } }
  - { name: b, region: r, labels: { env: prod } }
  - { name: d, region: r, labels: { env: prod } }
`)
	got, err := h.GetPlacement(ctx, "pick-two")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"b", "d"}; !reflect.DeepEqual(got.Status.Selected, want) {
		t.Fatalf("PickN must replace the departed cluster and keep b: %v", got.Status.Selected)
	}
	if got.Generation != 1 {
		t.Fatalf("rescheduling is a status change, generation %d", got.Generation)
	}
	all, _ := h.GetPlacement(ctx, "prod-all")
	if want := []string{"a", "b", "d"}; !reflect.DeepEqual(all.Status.Selected, want) {
		t.Fatalf("PickAll takes the new cluster and keeps the relabelled one: %v", all.Status.Selected)
	}
	again, _ := h.GetPlacement(ctx, "pick-two")
	if again.ETag != got.ETag {
		t.Fatal("a read without fleet change must not write")
	}
	if err := h.DeletePlacement(ctx, "pick-two", store.Precondition{IfMatch: got.ETag}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.GetPlacement(ctx, "pick-two"); !errors.Is(err, hub.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
}

func TestNodePools(t *testing.T) {
	h, _ := newTestHub(t, "")
	ctx := context.Background()
	np := hub.NodePool{Meta: hub.Meta{Name: "default"}, Cluster: "aks-east-prod-01", Spec: nodepool.NodePool{
		Template: nodepool.Template{NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}},
	}}
	out, err := h.ApplyNodePool(ctx, np, store.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status.Total != 3 || len(out.Status.Nodes) != 3 {
		t.Fatalf("the sample fleet has 3 NAP nodes in aks-east-prod-01/default: %+v", out.Status)
	}
	got, err := h.GetNodePool(ctx, "aks-east-prod-01", "default")
	if err != nil || got.Spec.Template.NodeClassRef.Name != "default" || got.Status.Total != 3 {
		t.Fatalf("%+v %v", got, err)
	}
	np.Cluster = "no-such-cluster"
	if _, err := h.ApplyNodePool(ctx, np, store.Precondition{}); !errors.Is(err, hub.ErrNotFound) {
		t.Fatalf("unknown member: %v", err)
	}
	if err := h.DeleteNodePool(ctx, "aks-east-prod-01", "default", store.Precondition{}); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateRunsAndProfiles(t *testing.T) {
	h, _ := newTestHub(t, "")
	ctx := context.Background()
	strategy := update.Strategy{Stages: []update.Stage{{Name: "canary", Groups: []update.Group{{Name: "canary"}}}}}
	if _, err := h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: "safe"}, Spec: strategy}, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
	run := hub.UpdateRun{Meta: hub.Meta{Name: "r1"}, Spec: update.RunSpec{
		UpdateStrategyID:     "/subscriptions/x/resourceGroups/y/providers/Microsoft.ContainerService/fleets/f/updateStrategies/safe",
		ManagedClusterUpdate: update.ManagedClusterUpdate{Upgrade: update.Upgrade{Type: update.UpgradeFull, KubernetesVersion: "1.33.2"}},
	}}
	r, err := h.PutUpdateRun(ctx, run, store.Precondition{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status.State != update.StateNotStarted || !reflect.DeepEqual(r.ResolvedStrategy, &strategy) {
		t.Fatalf("created run: %+v", r)
	}
	// Later edits of the strategy do not affect the run.
	if _, err := h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: "safe"}}, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
	if r, _ := h.GetUpdateRun(ctx, "r1"); !reflect.DeepEqual(r.ResolvedStrategy, &strategy) {
		t.Fatal("the run's copy of the strategy changed")
	}
	if _, err := h.StopUpdateRun(ctx, "r1", store.Precondition{}); !isConflict(err) {
		t.Fatalf("stop before start: %v", err)
	}
	if r, err = h.StartUpdateRun(ctx, "r1", store.Precondition{}); err != nil || r.Status.State != update.StateRunning {
		t.Fatalf("start: %+v %v", r, err)
	}
	if _, err := h.PutUpdateRun(ctx, run, store.Precondition{}); !isConflict(err) {
		t.Fatalf("PUT on a started run must conflict: %v", err)
	}
	if _, err := h.SkipUpdateRun(ctx, "r1", []update.SkipTarget{{Type: "Cluster", Name: "x"}}, store.Precondition{}); err == nil {
		t.Fatal("bad skip target accepted")
	}
	if _, err := h.SkipUpdateRun(ctx, "r1", []update.SkipTarget{{Type: update.TargetMember, Name: "no-such-member"}}, store.Precondition{}); err == nil {
		t.Fatal("skip of a member the run does not have accepted")
	}
	if _, err := h.SkipUpdateRun(ctx, "r1", []update.SkipTarget{{Type: update.TargetMember, Name: "aks-east-dev-01"}}, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
	// One member is upgrading (15 minutes on the fixed clock): the run is
	// Stopping until it finishes.
	if r, err = h.StopUpdateRun(ctx, "r1", store.Precondition{}); err != nil || (r.Status.State != update.StateStopping && r.Status.State != update.StateStopped) {
		t.Fatalf("stop: %+v %v", r.Status, err)
	}
	if err := h.DeleteUpdateRun(ctx, "r1", store.Precondition{}); err != nil {
		t.Fatal(err)
	}

	if _, err := h.PutAutoUpgradeProfile(ctx, hub.AutoUpgradeProfile{Meta: hub.Meta{Name: "stable"}, Spec: update.ProfileSpec{Channel: update.ChannelStable}}, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
	name, err := h.GenerateUpdateRun(ctx, "stable")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := h.GetUpdateRun(ctx, name)
	// Sample catalog: newest GA minor is 1.33 (1.34.0 is a preview), so Stable is the newest 1.32.
	if err != nil || gen.Spec.ManagedClusterUpdate.Upgrade.KubernetesVersion != "1.32.6" || gen.Status.State != update.StateNotStarted {
		t.Fatalf("generated run %s: %+v %v", name, gen, err)
	}
}

func isConflict(err error) bool {
	var c *hub.ConflictError
	return errors.As(err, &c)
}
