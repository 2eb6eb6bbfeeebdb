package mock

import (
	"context"
	"reflect"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

const twoZones = `
regions: [{ name: r }]
clusters:
  - { name: a, region: r, labels: { zone: x } }
  - { name: b, region: r, labels: { zone: y } }
`

func spreadOverZones(n int) placement.Spec {
	return placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app"}},
		Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n,
			TopologySpreadConstraints: []placement.TopologySpreadConstraint{{TopologyKey: "zone"}}},
	}
}

// Fleet records each selected cluster's score on its binding when it picks
// the cluster and removes the lowest recorded first on scale-in
// (framework.go downscale → sortByClusterScoreAndName). The mock keeps the
// recorded scores in the stored decisions of the selected clusters: PickN 2
// spread over zones picks b (−1) then a (+1); scaled to 1 it keeps a, whose
// decision still shows +1, across a re-read after the fleet changed.
func TestPlacementScaleInByRecordedScores(t *testing.T) {
	h, file := newTestHub(t, twoZones)
	ctx := context.Background()
	p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: spreadOverZones(2)}, store.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := placement.RecordedScores(p.Status.Decisions)
	if rec["a"] != (placement.Score{TopologySpread: 1}) || rec["b"] != (placement.Score{TopologySpread: -1}) {
		t.Fatalf("recorded %v", rec)
	}
	p, err = h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: spreadOverZones(1)}, store.Precondition{IfMatch: p.ETag})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Status.Selected, []string{"a"}) || !p.Status.Fulfilled {
		t.Fatalf("scale-in kept %v, want a", p.Status.Selected)
	}
	rewrite(t, h, file, twoZones+"  - { name: c, region: r, labels: { zone: z } }\n")
	p, err = h.GetPlacement(ctx, "web")
	if err != nil {
		t.Fatal(err)
	}
	if rec := placement.RecordedScores(p.Status.Decisions); !reflect.DeepEqual(rec, map[string]placement.Score{"a": {TopologySpread: 1}}) {
		t.Fatalf("after a fleet change: recorded %v", rec)
	}
}

// When every scheduling cycle fails, Fleet changes no binding: the mock
// keeps the clusters held, with their recorded scores, and the policy they
// were scheduled with, so they stay obsolete bindings for the next cycle.
func TestPlacementFailingCycleKeepsBindings(t *testing.T) {
	h, _ := newTestHub(t, `
regions: [{ name: r }]
clusters:
  - { name: a, region: r, properties: { version: 1.30.2 } }
  - { name: b, region: r }
`)
	ctx := context.Background()
	good := spreadOverZones(1)
	p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: good}, store.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	held := p.Status.Selected
	bad := spreadOverZones(1)
	bad.Policy.Affinity = &placement.Affinity{Preferred: []placement.PreferredTerm{{Weight: 0,
		Preference: placement.ClusterSelectorTerm{PropertySorter: &placement.PropertySorter{Name: "version", SortOrder: placement.Ascending}}}}}
	p, err = h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: bad}, store.Precondition{IfMatch: p.ETag})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Status.Selected, held) || p.Status.Fulfilled || len(p.Status.Decisions) != 1 ||
		p.Status.Decisions[0].Reason != placement.ReasonKeptCycleFails {
		t.Fatalf("status %+v, want %v kept", p.Status, held)
	}
	r, _, err := store.Load[store.Placement](h.Store(), store.BucketPlacements, "web")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Status.Policy, good.Policy) {
		t.Errorf("stored policy %+v, want the one the held cluster was scheduled with", r.Status.Policy)
	}
}

// An inventory can describe a health blip of either kind: `unhealthy_for`
// applies to `healthy: unknown` as to `healthy: false`, and a short one
// leaves the cluster eligible, as Fleet's eligibility checker tolerates any
// status other than True for five minutes (clustereligibilitychecker.IsEligible).
func TestInventoryHealthUnknownBlip(t *testing.T) {
	h, _ := newTestHub(t, `
regions: [{ name: r }]
clusters:
  - { name: blip, region: r, agent: { healthy: unknown, unhealthy_for: 2m } }
  - { name: long, region: r, agent: { healthy: unknown } }
`)
	p, err := h.ApplyPlacement(context.Background(), hub.Placement{Meta: hub.Meta{Name: "all"}, Spec: placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app"}}}}, store.Precondition{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Status.Selected, []string{"blip"}) {
		t.Fatalf("selected %v, want blip", p.Status.Selected)
	}
}

// A placement keeps the decisions Fleet's status keeps, not one per member:
// every selected cluster's, with its recorded score, and the 20 left out a
// preview lists, in its order. What is read from them — a preview at any
// limit up to 20, the recorded scores, the next cycle's scale-in and
// scale-out — is what the whole cycle's decisions give.
func TestPlacementDecisionsAreBounded(t *testing.T) {
	h, _ := newTestHub(t, string(fleetgen.Generate(fleetgen.Options{Clusters: 300, Seed: 2, StaleEvery: 50, TaintEvery: 40})))
	ctx := context.Background()
	f, err := h.Fleet(ctx)
	must(t, err)
	fixed := scaleSpec(1)
	fixed.Policy = placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{"member-00000", "member-00007", "member-00050", "nowhere"}}
	all := scaleSpec(2)
	all.Policy.PlacementType, all.Policy.NumberOfClusters, all.Policy.Affinity.Preferred = placement.PickAll, nil, nil
	for name, spec := range map[string]placement.Spec{"pickn": scaleSpec(0), "pickall": all, "pickfixed": fixed} {
		t.Run(name, func(t *testing.T) {
			full, err := placement.Schedule(spec, f, nil, h.Now(), placement.ScheduleOptions{})
			must(t, err)
			p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: name}, Spec: spec}, store.Precondition{IfNoneMatch: true})
			must(t, err)
			checkBounded(t, p.Status.Decisions, full)
			if name != "pickn" {
				return
			}
			// Scale in, then out, from the stored decisions: as from the whole cycle's.
			for _, n := range []int{1, 6} {
				next := spec
				next.Policy.NumberOfClusters = new(n)
				want, err := placement.Schedule(next, f, full.Selected, h.Now(), placement.ScheduleOptions{Prev: &spec, Recorded: placement.RecordedScores(full.Decisions)})
				must(t, err)
				if p, err = h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: name}, Spec: next}, store.Precondition{IfMatch: p.ETag}); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(p.Status.Selected, want.Selected) {
					t.Fatalf("scaled to %d: selected %v, want %v", n, p.Status.Selected, want.Selected)
				}
				checkBounded(t, p.Status.Decisions, want)
				spec, full = next, want
			}
		})
	}
}

// checkBounded checks that stored are the decisions of full a placement keeps.
func checkBounded(t *testing.T, stored []placement.Decision, full placement.Result) {
	t.Helper()
	whole := placement.Preview(full, placement.DefaultPreviewLimit)
	if want := append(append([]placement.Decision{}, whole.Selected...), whole.LeftOut...); !reflect.DeepEqual(stored, want) {
		t.Fatalf("stored %d decisions, want the %d selected and the %d a preview lists:\n got  %+v\n want %+v",
			len(stored), len(whole.Selected), len(whole.LeftOut), stored, want)
	}
	if len(full.Decisions) <= len(stored) {
		t.Fatalf("the test schedules only %d decisions: nothing to leave out", len(full.Decisions))
	}
	for _, limit := range []int{1, 7, placement.DefaultPreviewLimit} {
		got, want := placement.Preview(placement.Result{Decisions: stored}, limit), placement.Preview(full, limit)
		if !reflect.DeepEqual(got.Selected, want.Selected) || !reflect.DeepEqual(got.LeftOut, want.LeftOut) {
			t.Errorf("preview at %d differs from the whole cycle's", limit)
		}
	}
	if got, want := placement.RecordedScores(stored), placement.RecordedScores(full.Decisions); !reflect.DeepEqual(got, want) {
		t.Errorf("recorded scores %v, want %v", got, want)
	}
}
