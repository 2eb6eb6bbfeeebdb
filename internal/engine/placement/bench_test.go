package placement_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/inventory"
)

// The benchmarks run on the project's synthetic fleets (internal/fleetgen),
// loaded through the mock hub's inventory parser: 10 regions, 4 update days,
// 2% of clusters with a stale heartbeat and 2.5% tainted.

var benchNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func generatedFleet(tb testing.TB, n int) *fleet.Fleet {
	tb.Helper()
	data := fleetgen.Generate(fleetgen.Options{Clusters: n, Regions: 10, Seed: 42, StaleEvery: 50, TaintEvery: 40})
	f, err := inventory.Parse("fleetgen.json", data, benchNow)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

func labels(k, v string) *selector.LabelSelector {
	return &selector.LabelSelector{MatchLabels: map[string]string{k: v}}
}

func pickN(n int) placement.Spec {
	return placement.Spec{
		Name:              "bench",
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app"}},
		Policy:            placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n},
	}
}

// preferred3Spec: PickN 25 among prod and staging clusters, with three preferred terms (one with a sorter).
func preferred3Spec() placement.Spec {
	s := pickN(25)
	s.Policy.Affinity = &placement.Affinity{
		Required: []placement.ClusterSelectorTerm{{LabelSelector: labels("env", "prod")}, {LabelSelector: labels("env", "staging")}},
		Preferred: []placement.PreferredTerm{
			{Weight: 40, Preference: placement.ClusterSelectorTerm{LabelSelector: labels("tier", "gold")}},
			{Weight: -20, Preference: placement.ClusterSelectorTerm{LabelSelector: labels("updateDay", "monday")}},
			{Weight: 60, Preference: placement.ClusterSelectorTerm{LabelSelector: labels("env", "prod"),
				PropertySorter: &placement.PropertySorter{Name: "resources.kubernetes-fleet.io/available-cpu", SortOrder: placement.Descending}}},
		},
	}
	return s
}

// topology50Spec: PickN 50 spread over regions (hard, skew 1) and update days (soft, skew 2).
func topology50Spec() placement.Spec {
	s := pickN(50)
	one, two := 1, 2
	s.Policy.Affinity = &placement.Affinity{Preferred: []placement.PreferredTerm{{Weight: 30, Preference: placement.ClusterSelectorTerm{LabelSelector: labels("tier", "gold")}}}}
	s.Policy.TopologySpreadConstraints = []placement.TopologySpreadConstraint{
		{MaxSkew: &one, TopologyKey: fleet.LabelLocation, WhenUnsatisfiable: placement.DoNotSchedule},
		{MaxSkew: &two, TopologyKey: "updateDay", WhenUnsatisfiable: placement.ScheduleAnyway},
	}
	return s
}

func benchSchedule(b *testing.B, s placement.Spec, n int) {
	f := generatedFleet(b, n)
	if r, err := placement.Schedule(s, f, nil, benchNow, placement.ScheduleOptions{}); err != nil || !r.Fulfilled {
		b.Fatalf("err=%v fulfilled=%v", err, r.Fulfilled)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := placement.Schedule(s, f, nil, benchNow, placement.ScheduleOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPickN3Preferred1k(b *testing.B)  { benchSchedule(b, preferred3Spec(), 1_000) }
func BenchmarkPickN3Preferred10k(b *testing.B) { benchSchedule(b, preferred3Spec(), 10_000) }
func BenchmarkPickN50Topology1k(b *testing.B)  { benchSchedule(b, topology50Spec(), 1_000) }
func BenchmarkPickN50Topology10k(b *testing.B) { benchSchedule(b, topology50Spec(), 10_000) }

// On a large generated fleet the greedy pick keeps the region skew within 1.
func TestGeneratedFleetTopologyPick(t *testing.T) {
	f := generatedFleet(t, 2_000)
	r, err := placement.Schedule(topology50Spec(), f, nil, benchNow, placement.ScheduleOptions{})
	if err != nil || !r.Fulfilled || len(r.Selected) != 50 {
		t.Fatalf("err=%v fulfilled=%v selected=%d", err, r.Fulfilled, len(r.Selected))
	}
	per := map[string]int{}
	for _, r := range f.Regions {
		per[r.Name] = 0
	}
	for _, n := range r.Selected {
		c, _ := f.Cluster(n)
		per[c.Labels[fleet.LabelLocation]]++
	}
	lo, hi := 1<<30, 0
	for _, n := range per {
		lo, hi = min(lo, n), max(hi, n)
	}
	if len(per) != 10 || hi-lo > 1 {
		t.Fatalf("region skew %d over %d regions: %v", hi-lo, len(per), per)
	}
}

// BenchmarkScaleIn5kHalfUnbound: PickAll-sized scale-in of a PickN holding
// 5,000 clusters, half of them not bound yet, down to 1,000 (designs/placement.md §7).
func BenchmarkScaleIn5kHalfUnbound(b *testing.B) {
	f := generatedFleet(b, 5_000)
	held := make([]string, len(f.Clusters))
	recorded := map[string]placement.Score{}
	var unbound []string
	for i, c := range f.Clusters {
		held[i] = c.Name
		recorded[c.Name] = placement.Score{Affinity: i % 97}
		if i%2 == 0 {
			unbound = append(unbound, c.Name)
		}
	}
	prev := pickN(5_000)
	opts := placement.ScheduleOptions{Prev: &prev, Recorded: recorded, Scheduled: unbound}
	b.ReportAllocs()
	for b.Loop() {
		if r, err := placement.Schedule(pickN(1_000), f, held, benchNow, opts); err != nil || len(r.Selected) != 1_000 {
			b.Fatalf("err=%v selected=%d", err, len(r.Selected))
		}
	}
}

// BenchmarkSelectResources500: three selectors (a namespace by name,
// namespaces by label, cluster roles by label) over a hub of 500 objects
// in 50 namespaces and 50 cluster roles (designs/placement.md §9).
func BenchmarkSelectResources500(b *testing.B) {
	hub, sels := hub500()
	if s := placement.SelectResources(sels, hub); s.Error != nil || len(s.Resources) != 9+90+10 {
		b.Fatalf("err=%v selected=%d", s.Error, len(s.Resources))
	}
	b.ReportAllocs()
	for b.Loop() {
		placement.SelectResources(sels, hub)
	}
}

// hub500 is 500 hub objects in 50 namespaces (a Namespace, 4 ConfigMaps, 4
// Deployments and a ClusterRole each) and three selectors over them.
func hub500() (fleet.HubResources, []placement.ResourceSelector) {
	var hub fleet.HubResources
	hub.APIs = []fleet.APIResource{{Version: "v1", Kind: "Namespace"}, {Version: "v1", Kind: "ConfigMap", Namespaced: true},
		{Group: "apps", Version: "v1", Kind: "Deployment", Namespaced: true}, {Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}}
	for n := range 50 {
		ns := fmt.Sprintf("ns-%02d", n)
		hub.Objects = append(hub.Objects, fleet.HubObject{ResourceID: fleet.ResourceID{Version: "v1", Kind: "Namespace", Name: ns},
			Labels: map[string]string{"team": fmt.Sprintf("t%d", n%5)}})
		for i := range 8 {
			kind, group := "ConfigMap", ""
			if i%2 == 1 {
				kind, group = "Deployment", "apps"
			}
			hub.Objects = append(hub.Objects, fleet.HubObject{ResourceID: fleet.ResourceID{Group: group, Version: "v1", Kind: kind, Namespace: ns, Name: fmt.Sprintf("o-%d", i)}})
		}
		hub.Objects = append(hub.Objects, fleet.HubObject{ResourceID: fleet.ResourceID{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole",
			Name: fmt.Sprintf("role-%02d", n)}, Labels: map[string]string{"team": fmt.Sprintf("t%d", n%5)}})
	}
	sels := []placement.ResourceSelector{
		{Version: "v1", Kind: "Namespace", Name: "ns-07"},
		{Version: "v1", Kind: "Namespace", LabelSelector: labels("team", "t1")},
		{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole", LabelSelector: labels("team", "t2")},
	}
	return hub, sels
}

// BenchmarkSelectionAndRolloutPreview1k500 is what the plan of a resource
// change computes besides scheduling (designs/placement.md §9, §10): the
// selection over 500 hub objects and the rollout over 1,000 clusters held
// (max_unavailable 10%: 10 batches), with the status of the first.
func BenchmarkSelectionAndRolloutPreview1k500(b *testing.B) {
	hub, sels := hub500()
	var st placement.RolloutState
	var selected []string
	for i := range 1000 {
		c := fmt.Sprintf("member-%04d", i)
		selected = append(selected, c)
		st.Bindings = append(st.Bindings, placement.Binding{Cluster: c, Index: 0, AppliedAt: time.Unix(0, 0)})
	}
	ten := "10%"
	spec := placement.Spec{ResourceSelectors: sels, Strategy: placement.Strategy{Type: placement.RollingUpdateStrategy,
		RollingUpdate: &placement.RollingUpdate{MaxUnavailable: &ten}}}
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	if p := placement.NextRollout(spec, st, selected, true, placement.SelectResources(sels, hub), nil, now); len(p.Batches) != 10 {
		b.Fatalf("%d batches", len(p.Batches))
	}
	b.ReportAllocs()
	for b.Loop() {
		sel := placement.SelectResources(sels, hub)
		placement.NextRollout(spec, st, selected, true, sel, nil, now)
	}
}

// BenchmarkAdvanceRollout1k is the rollout part of a placement read on the
// mock hub (designs/placement.md §10): 1,000 clusters mid-rollout (10% at a
// time, a batch due), brought to now with every cluster's status.
func BenchmarkAdvanceRollout1k(b *testing.B) {
	hub, sels := hub500()
	f := &fleet.Fleet{Hub: hub}
	ten := "10%"
	spec := placement.Spec{ResourceSelectors: sels, Strategy: placement.Strategy{Type: placement.RollingUpdateStrategy,
		RollingUpdate: &placement.RollingUpdate{MaxUnavailable: &ten}}}
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	sel := placement.SelectResources(sels, hub)
	st := &placement.RolloutState{Index: 1, Digest: sel.Digest, Untracked: true, IndexAt: t0, At: t0}
	var selected []string
	var decisions []placement.Decision
	for i := range 1000 {
		c := fmt.Sprintf("member-%04d", i)
		selected = append(selected, c)
		decisions = append(decisions, placement.Decision{ClusterName: c, Selected: true})
		b := placement.Binding{Cluster: c, Index: 0, AppliedAt: t0.Add(-time.Hour), Since: t0.Add(-time.Hour)}
		if i < 300 {
			b.Index, b.AppliedAt = 1, t0
		}
		st.Bindings = append(st.Bindings, b)
	}
	b.ReportAllocs()
	for b.Loop() {
		placement.AdvanceRollout("web", spec, st, false, selected, decisions, f, t0.Add(90*time.Second))
	}
}
