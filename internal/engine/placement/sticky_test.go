package placement

import (
	"slices"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// stickyFleet scores (with stickyPolicy) d=30, x=30, c=20, a=10, b=10, e=0;
// modify adjusts one cluster (nil opts removes it).
func stickyFleet(modify string, opts ...clusterOpt) *fleet.Fleet {
	cs := []fleet.Cluster{
		cluster("a", lbl("pref", "1")),
		cluster("b", lbl("pref", "1")),
		cluster("c", lbl("pref", "2")),
		cluster("d", lbl("pref", "3")),
		cluster("e"),
		cluster("x", lbl("pref", "3", "env", "dev")),
	}
	var out []fleet.Cluster
	for _, c := range cs {
		if c.Name == modify {
			if opts == nil {
				continue
			}
			for _, o := range opts {
				o(&c)
			}
		}
		out = append(out, c)
	}
	return newFleet(out...)
}

func stickyPolicy(n int, requireDev bool) Policy {
	p := pickN(n)
	p.Affinity = &Affinity{Preferred: []PreferredTerm{
		preferLabels(10, "pref", "1"), preferLabels(20, "pref", "2"), preferLabels(30, "pref", "3"),
	}}
	if requireDev {
		p.Affinity.Required = []ClusterSelectorTerm{{LabelSelector: matchLabels("env", "dev")}}
	}
	return p
}

func TestSticky(t *testing.T) {
	prev := func(p Policy) *Spec { s := spec(p); return &s }
	cases := []struct {
		name   string
		fleet  *fleet.Fleet
		policy Policy
		prev   *Spec
		held   []string
		want   []string
	}{
		{"create picks the best", stickyFleet(""), stickyPolicy(2, false), nil, nil, []string{"d", "x"}},
		{"scale out only adds", stickyFleet(""), stickyPolicy(4, false), prev(stickyPolicy(2, false)), []string{"a", "e"}, []string{"a", "e", "d", "x"}},
		{"unchanged policy keeps held", stickyFleet(""), stickyPolicy(2, false), prev(stickyPolicy(2, false)), []string{"a", "e"}, []string{"a", "e"}},
		{"resource selector change never reschedules", stickyFleet(""), stickyPolicy(2, false), &Spec{Name: "crp", Policy: stickyPolicy(2, false)}, []string{"a", "e"}, []string{"a", "e"}},
		{"scale in removes lowest recorded, ties smaller name first", stickyFleet(""), stickyPolicy(2, false), prev(stickyPolicy(4, false)), []string{"a", "b", "c", "e"}, []string{"b", "c"}},
		{"scale in to zero", stickyFleet(""), stickyPolicy(0, false), prev(stickyPolicy(2, false)), []string{"a", "b"}, nil},
		{"held cluster that left is replaced", stickyFleet("d"), stickyPolicy(2, false), prev(stickyPolicy(2, false)), []string{"d", "e"}, []string{"e", "x"}},
		{"held leaving cluster is replaced", stickyFleet("d", leaving()), stickyPolicy(2, false), prev(stickyPolicy(2, false)), []string{"d", "e"}, []string{"e", "x"}},
		{"relabelled held cluster stays", stickyFleet("x", lbl("env", "prod")), stickyPolicy(2, true), prev(stickyPolicy(2, true)), []string{"x"}, []string{"x"}},
		{"ineligible held cluster stays", stickyFleet("a", staleHeartbeat()), stickyPolicy(1, false), prev(stickyPolicy(1, false)), []string{"a"}, []string{"a"}},
		{"policy change re-evaluates", stickyFleet(""), stickyPolicy(1, true), prev(stickyPolicy(1, false)), []string{"d"}, []string{"x"}},
		{"policy change keeps a held cluster that is picked again", stickyFleet(""), stickyPolicy(3, false), prev(stickyPolicy(3, true)), []string{"x", "e"}, []string{"c", "d", "x"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The scores recorded when the held clusters were picked: their
			// affinity scores under stickyPolicy.
			recorded := map[string]Score{"a": {Affinity: 10}, "b": {Affinity: 10}, "c": {Affinity: 20}, "d": {Affinity: 30}, "x": {Affinity: 30}}
			r := mustSchedule(t, spec(tc.policy), tc.fleet, tc.held, ScheduleOptions{Prev: tc.prev, Recorded: recorded})
			if !sameNames(r.Selected, tc.want) {
				t.Fatalf("selected %v, want %v (%+v)", r.Selected, tc.want, r.Decisions)
			}
		})
	}
}

func TestStickyBonusBreaksTies(t *testing.T) {
	f := newFleet(cluster("a"), cluster("b"), cluster("c", lbl("env", "dev")))
	old := Policy{PlacementType: PickN, NumberOfClusters: intPtr(1), Tolerations: []Toleration{{Key: "k", Value: "v"}}}
	cur := pickN(1) // tolerations changed: a new policy
	s := spec(old)
	r := mustSchedule(t, spec(cur), f, nil, ScheduleOptions{})
	if !sameNames(r.Selected, []string{"c"}) {
		t.Fatalf("without held: %v, want c (largest name)", r.Selected)
	}
	r = mustSchedule(t, spec(cur), f, []string{"a"}, ScheduleOptions{Prev: &s})
	if !sameNames(r.Selected, []string{"a"}) {
		t.Fatalf("with held a after a policy change: %v, want a (obsolete placement bonus)", r.Selected)
	}
}

func TestStickyPickAll(t *testing.T) {
	f := newFleet(cluster("a", lbl("env", "dev")), cluster("b", lbl("env", "prod")), cluster("gone", leaving()))
	p := Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{LabelSelector: matchLabels("env", "prod")}}}}
	s := spec(p)
	r := mustSchedule(t, s, f, []string{"a", "gone"}, ScheduleOptions{Prev: &s})
	if !sameNames(r.Selected, []string{"a", "b"}) {
		t.Fatalf("unchanged policy: %v, want a (held) and b", r.Selected)
	}
	old := spec(Policy{})
	r = mustSchedule(t, s, f, []string{"a"}, ScheduleOptions{Prev: &old})
	if !sameNames(r.Selected, []string{"b"}) {
		t.Fatalf("changed policy: %v, want b", r.Selected)
	}
}

// Issue 9 item 1: Fleet ranks the clusters to remove by the score recorded
// on each binding when it was picked (framework.go downscale →
// frameworkutils.go sortByClusterScoreAndName), never by a score computed
// again. PickN 2 over a (region x) and b (region y) with a spread on region
// picks b first (every cluster scores −1, the larger name wins) and then a
// (+1); scaled to 1, Fleet keeps a, even though a score computed now would
// rank them the other way.
func TestScaleInRanksByRecordedScore(t *testing.T) {
	f := newFleet(cluster("a", lbl("region", "x")), cluster("b", lbl("region", "y")))
	mk := func(n int) Spec {
		p := pickN(n)
		p.TopologySpreadConstraints = []TopologySpreadConstraint{spread("region", DoNotSchedule, 1)}
		return spec(p)
	}
	two := mustSchedule(t, mk(2), f, nil, ScheduleOptions{})
	rec := RecordedScores(two.Decisions)
	if rec["a"] != (Score{TopologySpread: 1}) || rec["b"] != (Score{TopologySpread: -1}) {
		t.Fatalf("recorded %v, want a +1 and b −1", rec)
	}
	old := mk(2)
	one := mustSchedule(t, mk(1), f, two.Selected, ScheduleOptions{Prev: &old, Recorded: rec})
	if !slices.Equal(one.Selected, []string{"a"}) {
		t.Fatalf("selected %v, want a (recorded +1 beats b's −1)", one.Selected)
	}
	if d := decisionOf(t, one, "a"); d.TopologySpreadScore != 1 || d.Reason != ReasonPicked {
		t.Errorf("a keeps its recorded score: %+v", d)
	}
	if d := decisionOf(t, one, "b"); d.Reason != ReasonScaledIn || d.TopologySpreadScore != -1 {
		t.Errorf("b: %+v", d)
	}
	// Fleet's status lists the selected clusters only (no left-out decision).
	if pv := Preview(one, 0); len(pv.LeftOut) != 0 || pv.LeftOutCounts[ReasonScaledIn] != 1 {
		t.Errorf("preview %+v", pv)
	}
	// Without recorded scores (Fleet: a binding without a score) the smaller name goes first.
	if r := mustSchedule(t, mk(1), f, two.Selected, ScheduleOptions{Prev: &old}); !slices.Equal(r.Selected, []string{"b"}) {
		t.Errorf("no recorded scores: selected %v, want b", r.Selected)
	}
	// A held cluster without a score is removed before any with one.
	if r := mustSchedule(t, mk(1), f, two.Selected, ScheduleOptions{Prev: &old, Recorded: map[string]Score{"b": {TopologySpread: -5}}}); !slices.Equal(r.Selected, []string{"b"}) {
		t.Errorf("a without a score: selected %v, want b", r.Selected)
	}
}

func TestPolicyChanged(t *testing.T) {
	base := spec(stickyPolicy(2, false))
	cases := []struct {
		name string
		cur  func(Spec) Spec
		want bool
	}{
		{"identical", func(s Spec) Spec { return s }, false},
		{"scale only", func(s Spec) Spec { s.Policy.NumberOfClusters = intPtr(9); return s }, false},
		{"resource selectors", func(s Spec) Spec { s.ResourceSelectors = nil; return s }, false},
		{"defaults are not a change", func(s Spec) Spec {
			s.Policy.TopologySpreadConstraints = []TopologySpreadConstraint{{TopologyKey: "r"}}
			return s
		}, true},
		{"empty vs nil slices", func(s Spec) Spec { s.Policy.Tolerations = []Toleration{}; return s }, false},
		{"preferred weight", func(s Spec) Spec {
			s.Policy.Affinity = &Affinity{Preferred: []PreferredTerm{preferLabels(11, "pref", "1")}}
			return s
		}, true},
	}
	for _, tc := range cases {
		b := base
		if got := policyChanged(&b, tc.cur(base)); got != tc.want {
			t.Errorf("%s: got %v", tc.name, got)
		}
	}
	withDefaulted := spec(Policy{PlacementType: PickN, NumberOfClusters: intPtr(1), TopologySpreadConstraints: []TopologySpreadConstraint{{TopologyKey: "r"}}})
	explicit := spec(Policy{PlacementType: PickN, NumberOfClusters: intPtr(1), TopologySpreadConstraints: []TopologySpreadConstraint{{TopologyKey: "r", MaxSkew: intPtr(1), WhenUnsatisfiable: DoNotSchedule}}})
	if policyChanged(&withDefaulted, explicit) {
		t.Error("explicit defaults must not count as a change")
	}
}

// With topology spread constraints Fleet picks one cluster per cycle and
// unschedules the obsolete bindings that were not picked at the end of the
// first cycle, so the obsolete-placement bonus only decides the first pick.
func TestStickyBonusOnlyForFirstGreedyPick(t *testing.T) {
	f := newFleet(cluster("a"), cluster("b"), cluster("c"), cluster("d")) // no cluster has the key: all scores tie
	cur := pickN(2)
	cur.TopologySpreadConstraints = []TopologySpreadConstraint{spread("region", DoNotSchedule, 1)}
	old := cur
	old.Tolerations = []Toleration{{Key: "k", Value: "v"}}
	s := spec(old)
	r := mustSchedule(t, spec(cur), f, []string{"a", "b"}, ScheduleOptions{Prev: &s})
	if !sameNames(r.Selected, []string{"b", "d"}) {
		t.Fatalf("selected %v, want b (bonus, first pick) and d (larger name, second pick)", r.Selected)
	}
	cur.TopologySpreadConstraints = nil
	old.TopologySpreadConstraints = nil
	s = spec(old)
	r = mustSchedule(t, spec(cur), f, []string{"a", "b"}, ScheduleOptions{Prev: &s})
	if !sameNames(r.Selected, []string{"a", "b"}) {
		t.Fatalf("without constraints (one batch) selected %v, want a and b", r.Selected)
	}
}

// TestScaleInRemovesScheduledBindingsFirst: Fleet's downscale
// (pkg/scheduler/framework/framework.go) trims the bindings the rollout has
// not bound (Scheduled) before any bound one: when fewer are to go than are
// Scheduled, the lowest recorded scores among those (sortByClusterScoreAndName);
// when as many, all of them whatever their scores; when more, all of them and
// then the bound ones with the lowest recorded scores.
func TestScaleInRemovesScheduledBindingsFirst(t *testing.T) {
	f := newFleet(cluster("a"), cluster("b"), cluster("c"), cluster("d"))
	held := []string{"a", "b", "c", "d"}
	rec := map[string]Score{"a": {Affinity: 5}, "b": {Affinity: 10}, "c": {Affinity: 20}, "d": {Affinity: 40}}
	old := spec(pickN(4))
	for _, c := range []struct {
		name      string
		n         int
		scheduled []string
		want      []string
	}{
		{"all bound: the lowest scores go", 2, nil, []string{"c", "d"}},
		{"fewer to go than scheduled: the lowest scheduled", 3, []string{"c", "d"}, []string{"a", "b", "d"}},
		{"as many as scheduled: all of them, whatever their scores", 2, []string{"c", "d"}, []string{"a", "b"}},
		{"more than scheduled: all of them, then the lowest bound", 1, []string{"d"}, []string{"c"}},
		{"every one scheduled: by score", 1, held, []string{"d"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := mustSchedule(t, spec(pickN(c.n)), f, held, ScheduleOptions{Prev: &old, Recorded: rec, Scheduled: c.scheduled})
			if !slices.Equal(r.Selected, c.want) {
				t.Errorf("selected %v, want %v", r.Selected, c.want)
			}
		})
	}
}

// TestBindingStates: a binding the scheduler creates is Scheduled; Fleet's
// rollout controller binds it at once with RollingUpdate and never with
// External, where a cluster held keeps its binding's state.
func TestBindingStates(t *testing.T) {
	r := Result{Selected: []string{"a", "b", "c"}}
	ext := spec(pickN(3))
	ext.Strategy = Strategy{Type: ExternalStrategy}
	if got := BindingStates(ext, []string{"a", "b"}, []string{"b"}, r); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("External: %v, want b (held scheduled) and c (new)", got)
	}
	if got := BindingStates(spec(pickN(3)), []string{"a", "b"}, []string{"b"}, r); len(got) != 0 {
		t.Errorf("RollingUpdate: %v, want none", got)
	}
}

// TestScaleOutWithExistingBindings: a scale-out schedules only the shortfall
// against the bindings the placement holds, as kubefleet's PickN cycle does
// (pkg/scheduler/framework/framework.go runSchedulingCycleForPickNPlacementType):
// the held clusters are neither scored nor listed (the same-placement
// plugin's ClusterAlreadySelected), they keep the score recorded on their
// binding's ClusterDecision, they count in the topology domains
// (countByDomain: HasScheduledOrBoundBindingFor), and with a spread
// constraint one cluster is picked per cycle (PostBatch limit 1), each with
// the score of its own cycle.
func TestScaleOutWithExistingBindings(t *testing.T) {
	f := newFleet(cluster("a", lbl("zone", "x")), cluster("b", lbl("zone", "y")), cluster("c", lbl("zone", "z")), cluster("d", lbl("zone", "x")))
	mk := func(n int) Spec {
		p := pickN(n)
		p.TopologySpreadConstraints = []TopologySpreadConstraint{spread("zone", DoNotSchedule, 1)}
		return spec(p)
	}
	two := mustSchedule(t, mk(2), f, nil, ScheduleOptions{})
	// All zones at 0: every cluster raises the skew (−1), d wins the tie;
	// then y and z stay level (0) and c wins; a, in d's zone, would raise it.
	if !slices.Equal(two.Selected, []string{"c", "d"}) {
		t.Fatalf("PickN 2 selected %v, want c and d", two.Selected)
	}
	rec := RecordedScores(two.Decisions)
	if rec["d"] != (Score{TopologySpread: -1}) || rec["c"] != (Score{}) {
		t.Fatalf("recorded %v", rec)
	}
	old := mk(2)
	four := mustSchedule(t, mk(4), f, two.Selected, ScheduleOptions{Prev: &old, Recorded: rec})
	// Zones x 1 (d), y 0, z 1 (c): b lowers the skew (+1) and is picked; a
	// would raise it to 2 (filtered in that cycle). Then every zone holds 1:
	// a raises the skew to 1 (−1) and is picked in the next cycle.
	if !slices.Equal(four.Selected, []string{"a", "b", "c", "d"}) || !four.Fulfilled {
		t.Fatalf("selected %v (fulfilled %v), want all four", four.Selected, four.Fulfilled)
	}
	for name, want := range map[string]Score{"c": rec["c"], "d": rec["d"], "b": {TopologySpread: 1}, "a": {TopologySpread: -1}} {
		if d := decisionOf(t, four, name); d.TopologySpreadScore != want.TopologySpread || d.AffinityScore != want.Affinity || !d.Selected {
			t.Errorf("%s: %+v, want selected with %+v", name, d, want)
		}
	}
}
