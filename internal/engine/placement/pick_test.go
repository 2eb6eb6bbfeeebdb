package placement

import (
	"slices"
	"testing"
)

func TestPickFixed(t *testing.T) {
	f := newFleet(
		cluster("valid", taint("dedicated", "gpu")), // taints are ignored for PickFixed
		cluster("stale", staleHeartbeat()),
		cluster("other"),
	)
	cases := []struct {
		name      string
		names     []string
		selected  []string
		fulfilled bool
		reasons   map[string]string
	}{
		{"all valid", []string{"valid"}, []string{"valid"}, true,
			map[string]string{"valid": ReasonPicked, "other": ReasonNotInFixedList}},
		{"invalid and not found", []string{"valid", "stale", "ghost"}, []string{"valid"}, false,
			map[string]string{"stale": "not eligible: heartbeat older than 5m", "ghost": ReasonNotFound}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mustSchedule(t, spec(Policy{PlacementType: PickFixed, ClusterNames: tc.names}), f, nil, ScheduleOptions{})
			if !sameNames(r.Selected, tc.selected) || r.Fulfilled != tc.fulfilled || r.Requested != len(tc.names) {
				t.Fatalf("got %+v", r)
			}
			for n, w := range tc.reasons {
				if d := decisionOf(t, r, n); d.Reason != w || d.Selected != (w == ReasonPicked) {
					t.Errorf("%s: %+v, want reason %q", n, d, w)
				}
			}
			if !tc.fulfilled && r.UnfulfilledMessage != "could not find all clusters needed as specified by the scheduling policy, found 1 cluster(s) instead" {
				t.Errorf("message %q", r.UnfulfilledMessage)
			}
		})
	}
}

func TestPickAllTaintsAndTolerations(t *testing.T) {
	f := newFleet(
		cluster("plain"),
		cluster("gpu", taint("dedicated", "gpu")),
		cluster("gpu-spot", taint("dedicated", "gpu"), taint("spot", "")),
		cluster("stale", staleHeartbeat(), taint("dedicated", "gpu")),
		cluster("dev", lbl("env", "dev")),
	)
	required := &Affinity{Required: []ClusterSelectorTerm{{LabelSelector: matchLabels()}}} // empty selector matches all
	cases := []struct {
		name     string
		tols     []Toleration
		affinity *Affinity
		selected []string
		reasons  map[string]string
	}{
		{"no tolerations", nil, nil, []string{"plain", "dev"}, map[string]string{
			"gpu":      "taint dedicated=gpu:NoSchedule cannot be tolerated",
			"gpu-spot": "taint dedicated=gpu:NoSchedule cannot be tolerated",
			"stale":    "not eligible: heartbeat older than 5m",
		}},
		{"equal toleration", []Toleration{{Key: "dedicated", Value: "gpu"}}, required, []string{"plain", "dev", "gpu"}, map[string]string{
			"gpu-spot": "taint spot:NoSchedule cannot be tolerated",
		}},
		{"exists on key and effect", []Toleration{{Key: "dedicated", Operator: TolerationOpExists, Effect: TaintEffectNoSchedule}, {Key: "spot", Operator: TolerationOpExists}}, nil,
			[]string{"plain", "dev", "gpu", "gpu-spot"}, nil},
		{"wrong value", []Toleration{{Key: "dedicated", Value: "cpu"}}, nil, []string{"plain", "dev"}, nil},
		{"exists with empty key tolerates all", []Toleration{{Operator: TolerationOpExists}}, nil, []string{"plain", "dev", "gpu", "gpu-spot"}, nil},
		{"required affinity is checked first", []Toleration{{Operator: TolerationOpExists}},
			&Affinity{Required: []ClusterSelectorTerm{{LabelSelector: matchLabels("env", "prod")}, {LabelSelector: matchLabels("env", "dev")}}},
			[]string{"dev"}, map[string]string{"stale": ReasonNoRequiredMatch, "gpu": ReasonNoRequiredMatch}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mustSchedule(t, spec(Policy{Tolerations: tc.tols, Affinity: tc.affinity}), f, nil, ScheduleOptions{})
			if !sameNames(r.Selected, tc.selected) || !r.Fulfilled || r.Requested != -1 {
				t.Fatalf("selected %v, want %v (%+v)", r.Selected, tc.selected, r)
			}
			for n, w := range tc.reasons {
				if d := decisionOf(t, r, n); d.Reason != w {
					t.Errorf("%s: reason %q, want %q", n, d.Reason, w)
				}
			}
		})
	}
}

func TestPickNUnfulfilled(t *testing.T) {
	f := newFleet(cluster("a"), cluster("b"), cluster("c"), cluster("t", taint("k", "v")))
	r := mustSchedule(t, spec(pickN(5)), f, nil, ScheduleOptions{})
	if r.Fulfilled || len(r.Selected) != 3 || r.Requested != 5 ||
		r.UnfulfilledMessage != "could not find all clusters needed as specified by the scheduling policy, found 3 cluster(s) instead" {
		t.Fatalf("got %+v", r)
	}
	r = mustSchedule(t, spec(pickN(0)), f, nil, ScheduleOptions{})
	if !r.Fulfilled || len(r.Selected) != 0 || r.UnfulfilledMessage != "" {
		t.Fatalf("N=0: got %+v", r)
	}
	// N = 0: Fleet runs no plugin (framework.go shouldSchedule) and lists no
	// left-out cluster.
	if d := decisionOf(t, r, "c"); d.Reason != ReasonNotEvaluated {
		t.Errorf("N=0 reason %q", d.Reason)
	}
}

// Every cluster has a decision, in the order Fleet's status lists them:
// selected by name, scored best first, filtered by name; PickFixed: the
// names not found after the named clusters, the members not named last.
func TestDecisionsCoverTheFleet(t *testing.T) {
	f := newFleet(cluster("b"), cluster("a"), cluster("c", leaving()))
	for _, tc := range []struct {
		p    Policy
		want []string
	}{
		{Policy{}, []string{"a", "b", "c"}},
		{pickN(1), []string{"b", "a", "c"}},
		{Policy{PlacementType: PickFixed, ClusterNames: []string{"zz", "a"}}, []string{"a", "zz", "b", "c"}},
	} {
		r := mustSchedule(t, spec(tc.p), f, nil, ScheduleOptions{})
		var names []string
		for _, d := range r.Decisions {
			names = append(names, d.ClusterName)
		}
		if !slices.Equal(names, tc.want) {
			t.Errorf("%s: decisions %v, want %v", tc.p.PlacementType, names, tc.want)
		}
	}
}

func TestScheduleRejectsUnschedulableSpecs(t *testing.T) {
	f := newFleet(cluster("a"))
	for name, p := range map[string]Policy{
		"no number":       {PlacementType: PickN},
		"negative number": pickN(-1),
		"unknown type":    {PlacementType: "PickSome"},
	} {
		if _, err := Schedule(spec(p), f, []string{"a"}, now, ScheduleOptions{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
