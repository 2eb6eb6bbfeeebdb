package mock

import (
	"context"
	"reflect"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
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
	p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: spreadOverZones(2)}, Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := placement.RecordedScores(p.Status.Decisions)
	if rec["a"] != (placement.Score{TopologySpread: 1}) || rec["b"] != (placement.Score{TopologySpread: -1}) {
		t.Fatalf("recorded %v", rec)
	}
	p, err = h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: spreadOverZones(1)}, Precondition{IfMatch: p.ETag})
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
	p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: good}, Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	held := p.Status.Selected
	bad := spreadOverZones(1)
	bad.Policy.Affinity = &placement.Affinity{Preferred: []placement.PreferredTerm{{Weight: 0,
		Preference: placement.ClusterSelectorTerm{PropertySorter: &placement.PropertySorter{Name: "version", SortOrder: placement.Ascending}}}}}
	p, err = h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: bad}, Precondition{IfMatch: p.ETag})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Status.Selected, held) || p.Status.Fulfilled || len(p.Status.Decisions) != 1 ||
		p.Status.Decisions[0].Reason != placement.ReasonKeptCycleFails {
		t.Fatalf("status %+v, want %v kept", p.Status, held)
	}
	r, _, err := get[placementRecord](h.Store(), bucketPlacements, "web")
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
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app"}}}}, Precondition{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Status.Selected, []string{"blip"}) {
		t.Fatalf("selected %v, want blip", p.Status.Selected)
	}
}
