package hubtest

import (
	"context"
	"slices"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// testPlacementRecordedScores checks that a hub records, on each selected
// cluster's decision, the score the cluster was picked with, and scales in
// by it (designs/placement.md §7), as Fleet keeps the score on each binding
// and its downscale removes the lowest first, ties the smaller name
// (sortByClusterScoreAndName): a PickN spread over locations, with a
// preference for one member, is scaled in by one, and the cluster removed
// is the lowest recorded while the others keep their recorded scores.
func testPlacementRecordedScores(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	f := fleetOf(t, h)
	n := min(3, len(f.Clusters))
	spec := placementCases(f)[1].spec
	spec.Name = "hubtest-scale-in"
	spec.Policy.NumberOfClusters = &n
	p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "hubtest-scale-in"}, Spec: spec}, hub.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	held := p.Status.Selected
	if len(held) < 2 {
		t.Skipf("the fleet has %d eligible members for the policy; the check needs 2", len(held))
	}
	recorded := placement.RecordedScores(p.Status.Decisions)
	lowest := held[0]
	for _, c := range held[1:] {
		a, b := recorded[c], recorded[lowest]
		if a.TopologySpread < b.TopologySpread || a.TopologySpread == b.TopologySpread && a.Affinity < b.Affinity {
			lowest = c
		}
	}
	less := len(held) - 1
	spec.Policy.NumberOfClusters = &less
	p, err = h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "hubtest-scale-in"}, Spec: spec}, hub.Precondition{IfMatch: p.ETag})
	if err != nil {
		t.Fatalf("scale in: %v", err)
	}
	want := slices.DeleteFunc(slices.Clone(held), func(c string) bool { return c == lowest })
	equal(t, "the clusters kept on scale-in", p.Status.Selected, want)
	for c, s := range placement.RecordedScores(p.Status.Decisions) {
		if s != recorded[c] {
			t.Errorf("%s: decision shows %+v after scale-in, recorded %+v", c, s, recorded[c])
		}
	}
	if err := h.DeletePlacement(ctx, "hubtest-scale-in", hub.Precondition{IfMatch: p.ETag}); err != nil {
		t.Fatalf("delete: %v", err)
	}
}

// testPlacementBindingStates checks that a hub keeps, as Fleet's bindings
// do, which selected clusters are not bound yet (placement.BindingStates)
// and scales in by it (designs/placement.md §7): with an External strategy
// nothing binds, so the clusters a scale-out adds stay Scheduled, and a
// scale-in removes them before any bound one — whatever their recorded
// scores — as Fleet's downscale trims Scheduled bindings first; a
// RollingUpdate strategy binds every one.
func testPlacementBindingStates(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	f := fleetOf(t, h)
	if len(f.Clusters) < 3 {
		t.Skipf("the fleet has %d members; the check needs 3", len(f.Clusters))
	}
	const name = "hubtest-binding-states"
	spec := placementCases(f)[1].spec
	spec.Name = name
	two, three := 2, 3
	spec.Policy.NumberOfClusters = &two
	apply := func(p hub.Placement, pre hub.Precondition) *hub.Placement {
		t.Helper()
		out, err := h.ApplyPlacement(ctx, p, pre)
		if err != nil {
			t.Fatalf("apply: %v", err)
		}
		return out
	}
	p := apply(hub.Placement{Meta: hub.Meta{Name: name}, Spec: spec}, hub.Precondition{IfNoneMatch: true})
	if len(p.Status.Selected) < 2 {
		t.Skipf("the fleet has %d eligible members for the policy; the check needs 3", len(p.Status.Selected))
	}
	equal(t, "scheduled under RollingUpdate", names(p.Status.Scheduled), []string(nil))
	bound := p.Status.Selected

	spec.Strategy = placement.Strategy{Type: placement.ExternalStrategy}
	spec.Policy.NumberOfClusters = &three
	p = apply(hub.Placement{Meta: hub.Meta{Name: name}, Spec: spec}, hub.Precondition{IfMatch: p.ETag})
	added := slices.DeleteFunc(slices.Clone(p.Status.Selected), func(c string) bool { return slices.Contains(bound, c) })
	if len(added) != 1 {
		t.Skipf("the scale-out added %v; the check needs one cluster", added)
	}
	equal(t, "scheduled after an External scale-out", names(p.Status.Scheduled), added)

	spec.Policy.NumberOfClusters = &two
	p = apply(hub.Placement{Meta: hub.Meta{Name: name}, Spec: spec}, hub.Precondition{IfMatch: p.ETag})
	equal(t, "the clusters kept on scale-in (the Scheduled one removed first)", p.Status.Selected, bound)
	equal(t, "scheduled after the scale-in", names(p.Status.Scheduled), []string(nil))

	spec.Strategy = placement.Strategy{}
	p = apply(hub.Placement{Meta: hub.Meta{Name: name}, Spec: spec}, hub.Precondition{IfMatch: p.ETag})
	equal(t, "scheduled under RollingUpdate again", names(p.Status.Scheduled), []string(nil))
	if err := h.DeletePlacement(ctx, name, hub.Precondition{IfMatch: p.ETag}); err != nil {
		t.Fatalf("delete: %v", err)
	}
}

// names is a list of cluster names, nil when empty.
func names(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// testHubResources checks what a hub reads of the hub cluster for the
// selection (designs/placement.md §9): the kinds it serves with their
// scope, the namespaces every API server has, and each object once.
func testHubResources(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	res, err := h.HubResources(ctx, []placement.ResourceSelector{{Version: "v1", Kind: "Namespace"}})
	if err != nil {
		t.Fatalf("HubResources: %v", err)
	}
	scope := map[string]bool{}
	for _, a := range res.APIs {
		if a.Group == "" {
			scope[a.Kind] = a.Namespaced
		}
	}
	if ns, ok := scope["Namespace"]; !ok || ns {
		t.Errorf("Namespace: served %v, namespaced %v; want a cluster-scoped kind", ok, ns)
	}
	if ns, ok := scope["ConfigMap"]; !ok || !ns {
		t.Errorf("ConfigMap: served %v, namespaced %v; want a namespaced kind", ok, ns)
	}
	seen := map[fleet.ResourceID]bool{}
	for _, o := range res.Objects {
		if seen[o.ResourceID] {
			t.Errorf("%s read twice", o.ResourceID)
		}
		seen[o.ResourceID] = true
	}
	for _, name := range []string{"default", "kube-system"} {
		if !seen[fleet.ResourceID{Version: "v1", Kind: "Namespace", Name: name}] {
			t.Errorf("no namespace %s", name)
		}
	}
	// Every namespace: default is one, which Fleet refuses.
	if s := placement.SelectResources([]placement.ResourceSelector{{Version: "v1", Kind: "Namespace"}}, res); s.Error == nil {
		t.Errorf("selecting every namespace: no error")
	}
}

// testPlacementRolloutStatus: a placement reports what Fleet's controllers
// report once its resources are on every cluster — the resources selected
// (a namespace with its objects, in Fleet's order), snapshot 0, and for the
// placement and each cluster the v1 conditions in their order, all True
// (designs/placement.md §11).
func testPlacementRolloutStatus(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	f := fleetOf(t, h)
	res, err := h.HubResources(ctx, []placement.ResourceSelector{{Version: "v1", Kind: "Namespace"}})
	if err != nil {
		t.Fatalf("HubResources: %v", err)
	}
	ns := ""
	for _, o := range res.Objects {
		if o.Kind == "Namespace" && o.Group == "" && !placement.ReservedNamespace(o.Name) {
			ns = o.Name
			break
		}
	}
	if ns == "" {
		t.Skip("the hub cluster has no namespace a placement may select")
	}
	const name = "hubtest-rollout-status"
	spec := placement.Spec{Name: name, ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: ns}},
		Policy: placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{f.Clusters[0].Name, f.Clusters[1].Name}}}
	p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: name}, Spec: spec}, hub.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	t.Cleanup(func() { _ = h.DeletePlacement(ctx, name, hub.Precondition{}) })
	if p, err = h.GetPlacement(ctx, name); err != nil {
		t.Fatalf("get: %v", err)
	}
	want := placement.SelectResources(spec.ResourceSelectors, res)
	equal(t, "selected resources", p.Status.SelectedResources, want.Resources)
	equal(t, "resource index", p.Status.ResourceIndex, 0)
	var types []string
	for _, c := range p.Status.Conditions {
		types = append(types, c.Type+"="+c.Status)
	}
	equal(t, "placement conditions", types, []string{"ClusterResourcePlacementScheduled=True", "ClusterResourcePlacementRolloutStarted=True",
		"ClusterResourcePlacementOverridden=True", "ClusterResourcePlacementWorkSynchronized=True", "ClusterResourcePlacementApplied=True",
		"ClusterResourcePlacementAvailable=True"})
	var clusters []string
	for _, cs := range p.Status.Clusters {
		clusters = append(clusters, cs.Cluster)
		types = nil
		for _, c := range cs.Conditions {
			types = append(types, c.Type+"="+c.Status)
		}
		equal(t, cs.Cluster+" conditions", types, []string{"Scheduled=True", "RolloutStarted=True", "Overridden=True", "WorkSynchronized=True",
			"Applied=True", "Available=True"})
	}
	equal(t, "clusters with a status", clusters, p.Status.Selected)
	equal(t, "rollout", p.Status.Rollout, "")
}
