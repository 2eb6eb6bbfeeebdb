package hubtest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// testNodePoolRoundTrip applies NodePools, from one with every default left
// to the hub to one with every field set, and reads them back: the object
// the write returns and the one read back are the one applied, the nodes
// are the pool's own, and NodePoolNodes lists the same ones.
func testNodePoolRoundTrip(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	f := fleetOf(t, h)
	cluster := f.Clusters[len(f.Clusters)-1].Name
	for i, c := range nodePoolCases() {
		t.Run(c.name, func(t *testing.T) {
			name := fmt.Sprintf("hubtest-pool-%d", i)
			applied, err := h.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: name}, Cluster: cluster, Spec: c.spec}, hub.Precondition{IfNoneMatch: true})
			if err != nil {
				t.Fatalf("apply: %v", err)
			}
			read, err := h.GetNodePool(ctx, cluster, name)
			if err != nil {
				t.Fatalf("get: %v", err)
			}
			for _, np := range []struct {
				what string
				np   *hub.NodePool
			}{{"applied", applied}, {"read back", read}} {
				if np.np.Name != name || np.np.Cluster != cluster {
					t.Errorf("%s: NodePool %s/%s, want %s/%s", np.what, np.np.Cluster, np.np.Name, cluster, name)
				}
				equal(t, np.what+": the specification", nodepool.WithDefaults(np.np.Spec), nodepool.WithDefaults(c.spec))
				checkNodes(t, np.what, name, np.np.Status)
			}
			if read.ETag != applied.ETag {
				t.Errorf("read back with ETag %q, applied with %q", read.ETag, applied.ETag)
			}
			live, err := h.NodePoolNodes(ctx, cluster, name)
			if err != nil {
				t.Fatalf("NodePoolNodes: %v", err)
			}
			equal(t, "NodePoolNodes", live, read.Status)
			if err := h.DeleteNodePool(ctx, cluster, name, hub.Precondition{IfMatch: read.ETag}); err != nil {
				t.Fatalf("delete: %v", err)
			}
		})
	}
}

func checkNodes(t *testing.T, what, pool string, s hub.NodePoolStatus) {
	t.Helper()
	// The budgets count only initialized nodes whose instance is not
	// terminating (nodepool.CountNodes); every node is listed.
	if s.Total > len(s.Nodes) || s.Disrupting < 0 || s.Disrupting > s.Total {
		t.Errorf("%s: %d nodes listed, total %d, disrupting %d", what, len(s.Nodes), s.Total, s.Disrupting)
	}
	for _, n := range s.Nodes {
		if n.NodePool != pool {
			t.Errorf("%s: node %s of pool %q listed in pool %q", what, n.Name, n.NodePool, pool)
		}
	}
}

// testPlacementRoundTrip applies placements of each type and reads them
// back: the specification is the one applied, and the status reports a
// scheduling decision consistent with the policy and the fleet.
func testPlacementRoundTrip(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	f := fleetOf(t, h)
	for i, c := range placementCases(f) {
		t.Run(c.name, func(t *testing.T) {
			name := fmt.Sprintf("hubtest-placement-%d", i)
			c.spec.Name = name // the spec names the placement, as the provider writes it
			applied, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: name}, Spec: c.spec}, hub.Precondition{IfNoneMatch: true})
			if err != nil {
				t.Fatalf("apply: %v", err)
			}
			read, err := h.GetPlacement(ctx, name)
			if err != nil {
				t.Fatalf("get: %v", err)
			}
			want := placement.WithDefaults(c.spec)
			for _, p := range []struct {
				what string
				p    *hub.Placement
			}{{"applied", applied}, {"read back", read}} {
				if p.p.Name != name {
					t.Errorf("%s: placement %q, want %q", p.what, p.p.Name, name)
				}
				equal(t, p.what+": the specification", placement.WithDefaults(p.p.Spec), want)
				checkDecisions(t, p.what, p.p, want.Policy, f)
			}
			if read.ETag != applied.ETag {
				t.Errorf("read back with ETag %q, applied with %q", read.ETag, applied.ETag)
			}
			equal(t, "the clusters selected, read back", read.Status.Selected, applied.Status.Selected)
			if err := h.DeletePlacement(ctx, name, hub.Precondition{IfMatch: read.ETag}); err != nil {
				t.Fatalf("delete: %v", err)
			}
		})
	}
}

// checkDecisions checks that a placement's status is one scheduling
// decision for its current generation: one decision per cluster, the
// selected clusters exactly those decided selected, all of them members
// (named ones for PickFixed), and fulfilment matching the number requested.
func checkDecisions(t *testing.T, what string, p *hub.Placement, policy placement.Policy, f *fleet.Fleet) {
	t.Helper()
	s := p.Status
	if s.ObservedGeneration != p.Generation {
		t.Errorf("%s: status observed generation %d, the placement is at %d", what, s.ObservedGeneration, p.Generation)
	}
	if len(s.Decisions) == 0 {
		t.Errorf("%s: no scheduling decisions", what)
	}
	decided := map[string]bool{}
	picked := 0
	for _, d := range s.Decisions {
		if _, dup := decided[d.ClusterName]; dup {
			t.Errorf("%s: two decisions for %s", what, d.ClusterName)
		}
		decided[d.ClusterName] = d.Selected
		if d.Selected {
			picked++
		}
	}
	if !slices.IsSorted(s.Selected) || picked != len(s.Selected) {
		t.Errorf("%s: selected %v (sorted, one each) but %d decisions select", what, s.Selected, picked)
	}
	for _, c := range s.Selected {
		_, member := f.Cluster(c)
		if !member || !decided[c] || (policy.PlacementType == placement.PickFixed && !slices.Contains(policy.ClusterNames, c)) {
			t.Errorf("%s: %s selected (a member: %t, decided selected: %t, policy %s %v)", what, c, member, decided[c], policy.PlacementType, policy.ClusterNames)
		}
	}
	requested := -1
	switch policy.PlacementType {
	case placement.PickN:
		requested = *policy.NumberOfClusters
	case placement.PickFixed:
		requested = len(policy.ClusterNames)
	}
	fulfilled := requested < 0 || len(s.Selected) == requested
	if s.Requested != requested || s.Fulfilled != fulfilled || s.Fulfilled != (s.Message == "") {
		t.Errorf("%s: requested %d, fulfilled %t (%q) with %d selected; want requested %d, fulfilled %t",
			what, s.Requested, s.Fulfilled, s.Message, len(s.Selected), requested, fulfilled)
	}
}
