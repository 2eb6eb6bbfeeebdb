package placement

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

func TestPreview(t *testing.T) {
	f := newFleet(
		cluster("p1", lbl("pref", "hi")), cluster("p2", lbl("pref", "hi")),
		cluster("m1", lbl("pref", "mid")), cluster("m2", lbl("pref", "mid")),
		cluster("z1"), cluster("z2"),
		cluster("t1", taint("k", "v")),
		cluster("s1", staleHeartbeat()), cluster("s0", staleHeartbeat()),
	)
	p := pickN(1)
	p.Affinity = &Affinity{Preferred: []PreferredTerm{preferLabels(50, "pref", "hi"), preferLabels(10, "pref", "mid")}}
	r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{})
	pv := Preview(r, 5)

	if len(pv.Selected) != 1 || pv.Selected[0].ClusterName != "p2" {
		t.Fatalf("selected %+v", pv.Selected)
	}
	var left []string
	for _, d := range pv.LeftOut {
		left = append(left, d.ClusterName)
	}
	// best scored first (score desc, ties larger name first), then filtered by name
	if want := []string{"p1", "m2", "m1", "z2", "z1"}; !reflect.DeepEqual(left, want) {
		t.Errorf("left out %v, want %v", left, want)
	}
	wantCounts := map[string]int{
		ReasonNotScoredEnough:                      5,
		"taint k=v:NoSchedule cannot be tolerated": 1,
		"not eligible: heartbeat older than 5m":    2,
	}
	if !reflect.DeepEqual(pv.LeftOutCounts, wantCounts) {
		t.Errorf("counts %v, want %v", pv.LeftOutCounts, wantCounts)
	}
	if pv.Summary != (PreviewSummary{Requested: 1, Selected: 1, Fulfilled: true}) {
		t.Errorf("summary %+v", pv.Summary)
	}

	pv = Preview(r, 0)
	left = left[:0]
	for _, d := range pv.LeftOut {
		left = append(left, d.ClusterName)
	}
	if want := []string{"p1", "m2", "m1", "z2", "z1", "s0", "s1", "t1"}; !reflect.DeepEqual(left, want) {
		t.Errorf("default limit: left out %v, want %v", left, want)
	}
}

// The preview stays readable on a big fleet: 20 left out by default, counts for the rest.
func TestPreviewBounded(t *testing.T) {
	var cs []fleet.Cluster
	for i := 0; i < 1000; i++ {
		opts := []clusterOpt{}
		if i%10 == 0 {
			opts = append(opts, staleHeartbeat())
		}
		cs = append(cs, cluster(fmt.Sprintf("c%04d", i), opts...))
	}
	r := mustSchedule(t, spec(pickN(10)), newFleet(cs...), nil, ScheduleOptions{})
	pv := Preview(r, 0)
	if len(pv.Selected) != 10 || len(pv.LeftOut) != DefaultPreviewLimit {
		t.Fatalf("selected %d, left out %d", len(pv.Selected), len(pv.LeftOut))
	}
	if pv.LeftOutCounts[ReasonNotScoredEnough] != 890 || pv.LeftOutCounts["not eligible: heartbeat older than 5m"] != 100 {
		t.Fatalf("counts %v", pv.LeftOutCounts)
	}
}

func TestPreviewPickFixed(t *testing.T) {
	f := newFleet(cluster("a"), cluster("b", staleHeartbeat()), cluster("c"))
	r := mustSchedule(t, spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"a", "b", "zz"}}), f, nil, ScheduleOptions{})
	pv := Preview(r, 0)
	var left []string
	for _, d := range pv.LeftOut {
		left = append(left, d.ClusterName)
	}
	if want := []string{"b", "zz", "c"}; !reflect.DeepEqual(left, want) {
		t.Errorf("left out %v, want %v", left, want)
	}
	if pv.Summary != (PreviewSummary{Requested: 3, Selected: 1, Fulfilled: false}) {
		t.Errorf("summary %+v", pv.Summary)
	}
}

func TestResolveRollout(t *testing.T) {
	cases := []struct {
		name     string
		strategy Strategy
		n        int
		want     Rollout
	}{
		{"defaults", Strategy{}, 10, Rollout{Type: RollingUpdateStrategy, MaxUnavailable: 3, MaxSurge: 3, UnavailablePeriodSeconds: 60}},
		{"defaults on 4", Strategy{}, 4, Rollout{Type: RollingUpdateStrategy, MaxUnavailable: 1, MaxSurge: 1, UnavailablePeriodSeconds: 60}},
		{"defaults on 0", Strategy{}, 0, Rollout{Type: RollingUpdateStrategy, MaxUnavailable: 0, MaxSurge: 0, UnavailablePeriodSeconds: 60}},
		{"ints and percents", Strategy{RollingUpdate: &RollingUpdate{MaxUnavailable: strPtr("2"), MaxSurge: strPtr("100%"), UnavailablePeriodSeconds: intPtr(0)}}, 7,
			Rollout{Type: RollingUpdateStrategy, MaxUnavailable: 2, MaxSurge: 7, UnavailablePeriodSeconds: 0}},
		{"ceil", Strategy{RollingUpdate: &RollingUpdate{MaxUnavailable: strPtr("1%"), MaxSurge: strPtr("0%")}}, 101,
			Rollout{Type: RollingUpdateStrategy, MaxUnavailable: 2, MaxSurge: 0, UnavailablePeriodSeconds: 60}},
		{"external", Strategy{Type: ExternalStrategy}, 10, Rollout{Type: ExternalStrategy}},
	}
	for _, tc := range cases {
		if got := ResolveRollout(tc.strategy, tc.n); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
