package placement

import (
	"k8s.io/apimachinery/pkg/api/resource"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

const availableCPU = "resources.kubernetes-fleet.io/available-cpu"

// TestSorterSeedExamples reproduces the worked examples of seed 000.
func TestSorterSeedExamples(t *testing.T) {
	cases := []struct {
		name   string
		order  string
		prop   string
		values map[string]string
		want   map[string]int
	}{
		{"available cpu descending", Descending, availableCPU,
			map[string]string{"bravelion": "100", "smartfish": "20", "jumpingcat": "10"},
			map[string]int{"bravelion": 100, "smartfish": 11, "jumpingcat": 0}},
		{"per-core cost ascending", Ascending, fleet.PropertyPerCPUCoreCost,
			map[string]string{"bravelion": "1", "smartfish": "0.2", "jumpingcat": "0.1"},
			map[string]int{"bravelion": 0, "smartfish": 89, "jumpingcat": 100}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var cs []fleet.Cluster
			for n, v := range tc.values {
				if tc.prop == availableCPU {
					cs = append(cs, cluster(n, available("cpu", v)))
				} else {
					cs = append(cs, cluster(n, prop(tc.prop, v)))
				}
			}
			p := pickN(3)
			p.Affinity = &Affinity{Preferred: []PreferredTerm{preferSorted(100, tc.prop, tc.order)}}
			r := mustSchedule(t, spec(p), newFleet(cs...), nil, ScheduleOptions{})
			for n, w := range tc.want {
				if d := decisionOf(t, r, n); d.AffinityScore != w || !d.Selected {
					t.Errorf("%s: got %+v, want affinity score %d", n, d, w)
				}
			}
		})
	}
}

func sorterScores(t *testing.T, weight int, order string, cs ...fleet.Cluster) map[string]int {
	t.Helper()
	f := newFleet(cs...)
	clusters := sortedClusters(f)
	terms, err := compilePreferred([]PreferredTerm{preferSorted(weight, "p", order)}, nil, clusters)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for i, cl := range clusters {
		out[cl.Name] = affinityScore(terms, cl, i)
	}
	return out
}

func TestSorterRoundingAndExtremes(t *testing.T) {
	cases := []struct {
		name   string
		weight int
		order  string
		cs     []fleet.Cluster
		want   map[string]int
	}{
		{"0.5 rounds to 1", 1, Descending,
			[]fleet.Cluster{cluster("a", prop("p", "0")), cluster("b", prop("p", "1")), cluster("c", prop("p", "2"))},
			map[string]int{"a": 0, "b": 1, "c": 1}},
		{"-0.5 rounds to -1", -1, Descending,
			[]fleet.Cluster{cluster("a", prop("p", "0")), cluster("b", prop("p", "1")), cluster("c", prop("p", "2"))},
			map[string]int{"a": 0, "b": -1, "c": -1}},
		{"2.5 rounds to 3", 5, Descending,
			[]fleet.Cluster{cluster("a", prop("p", "0")), cluster("b", prop("p", "1")), cluster("c", prop("p", "2"))},
			map[string]int{"a": 0, "b": 3, "c": 5}},
		{"-2.5 rounds to -3 ascending", -5, Ascending,
			[]fleet.Cluster{cluster("a", prop("p", "0")), cluster("b", prop("p", "1")), cluster("c", prop("p", "2"))},
			map[string]int{"a": -5, "b": -3, "c": 0}},
		{"min == max gives 0", 100, Descending,
			[]fleet.Cluster{cluster("a", prop("p", "7")), cluster("b", prop("p", "7"))},
			map[string]int{"a": 0, "b": 0}},
		{"single cluster with the property gives 0", 100, Ascending,
			[]fleet.Cluster{cluster("a", prop("p", "7")), cluster("b")},
			map[string]int{"a": 0, "b": 0}},
		{"missing property gives 0", 100, Ascending,
			[]fleet.Cluster{cluster("a", prop("p", "1")), cluster("b"), cluster("c", prop("p", "3"))},
			map[string]int{"a": 100, "b": 0, "c": 0}},
		{"min/max over ineligible clusters too", 100, Descending,
			[]fleet.Cluster{cluster("a", prop("p", "10")), cluster("b", prop("p", "20")), cluster("z", prop("p", "100"), staleHeartbeat())},
			map[string]int{"a": 0, "b": 11, "z": 100}},
		{"quantities compare exactly (1Gi is the max)", 100, Descending,
			[]fleet.Cluster{cluster("a", prop("p", "1Gi")), cluster("b", prop("p", "1000Mi")), cluster("c", prop("p", "0"))},
			map[string]int{"a": 100, "b": 98, "c": 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := sorterScores(t, tc.weight, tc.order, tc.cs...)
			for n, w := range tc.want {
				if got[n] != w {
					t.Errorf("%s: got %d, want %d (all: %v)", n, got[n], w, got)
				}
			}
		})
	}
}

// The ineligible cluster sets the maximum even though it is filtered out.
func TestSorterExtremesIncludeFilteredClusters(t *testing.T) {
	f := newFleet(
		cluster("a", available("cpu", "10")),
		cluster("b", available("cpu", "20")),
		cluster("z", available("cpu", "100"), staleHeartbeat()),
	)
	p := pickN(1)
	p.Affinity = &Affinity{Preferred: []PreferredTerm{preferSorted(100, availableCPU, Descending)}}
	r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{})
	if d := decisionOf(t, r, "b"); d.AffinityScore != 11 || !d.Selected {
		t.Errorf("b: %+v, want selected with 11 (min 10, max 100 from the ineligible cluster)", d)
	}
	if d := decisionOf(t, r, "z"); d.Selected || d.Reason != "not eligible: heartbeat older than 5m" {
		t.Errorf("z: %+v", d)
	}
}

func TestPreferredTerms(t *testing.T) {
	f := newFleet(
		cluster("prod-a", lbl("env", "prod", "tier", "gold")),
		cluster("prod-b", lbl("env", "prod")),
		cluster("dev-a", lbl("env", "dev", "tier", "gold")),
		cluster("test-a", lbl("env", "test")),
	)
	cases := []struct {
		name  string
		terms []PreferredTerm
		n     int
		want  map[string]int
		picks []string
	}{
		{"summed", []PreferredTerm{preferLabels(30, "env", "prod"), preferLabels(20, "tier", "gold")}, 2,
			map[string]int{"prod-a": 50, "prod-b": 30, "dev-a": 20, "test-a": 0}, []string{"prod-a", "prod-b"}},
		{"negative weight ranks last", []PreferredTerm{preferLabels(-50, "env", "dev")}, 3,
			map[string]int{"prod-a": 0, "prod-b": 0, "dev-a": -50, "test-a": 0}, []string{"prod-a", "prod-b", "test-a"}},
		{"weight 0 ignored, empty preference gets full weight", []PreferredTerm{preferLabels(0, "env", "dev"), {Weight: 7}}, 1,
			map[string]int{"prod-a": 7, "prod-b": 7, "dev-a": 7, "test-a": 7}, []string{"test-a"}},
		{"label selector gates the sorter", []PreferredTerm{{Weight: 100, Preference: ClusterSelectorTerm{LabelSelector: matchLabels("env", "prod"), PropertySorter: &PropertySorter{Name: "missing", SortOrder: Ascending}}}}, 1,
			map[string]int{"prod-a": 0, "test-a": 0}, []string{"test-a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := pickN(tc.n)
			p.Affinity = &Affinity{Preferred: tc.terms}
			r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{})
			for n, w := range tc.want {
				if d := decisionOf(t, r, n); d.AffinityScore != w {
					t.Errorf("%s: score %d, want %d", n, d.AffinityScore, w)
				}
			}
			if !sameNames(r.Selected, tc.picks) {
				t.Errorf("selected %v, want %v", r.Selected, tc.picks)
			}
		})
	}
}

func TestTiesGoToLargerName(t *testing.T) {
	f := newFleet(cluster("alpha"), cluster("charlie"), cluster("bravo"))
	r := mustSchedule(t, spec(pickN(2)), f, nil, ScheduleOptions{})
	if !sameNames(r.Selected, []string{"charlie", "bravo"}) {
		t.Fatalf("selected %v, want charlie and bravo", r.Selected)
	}
	if d := decisionOf(t, r, "alpha"); d.Reason != "does not score high enough (affinity score: 0, topology spread score: 0)" {
		t.Errorf("alpha reason %q", d.Reason)
	}
}

func TestSkewChangeTable(t *testing.T) {
	cases := []struct {
		name                                     string
		count, smallest, second, largest, maxSkw int
		change                                   int
		violated                                 bool
	}{
		{"all equal", 2, 2, 2, 2, 1, +1, false},
		{"all equal, zero", 0, 0, 0, 0, 1, +1, false},
		{"unique smallest", 0, 0, 1, 1, 1, -1, false},
		{"unique smallest, skew over max stays over", 0, 0, 3, 3, 1, -1, true},
		{"unique smallest, skew reduced within max", 0, 0, 2, 2, 1, -1, false},
		{"largest", 1, 0, 0, 1, 1, +1, true},
		{"largest within max", 1, 0, 0, 1, 2, +1, false},
		{"shared smallest", 0, 0, 0, 1, 1, 0, false},
		{"shared smallest over max", 0, 0, 0, 3, 1, 0, true},
		{"between", 1, 0, 1, 2, 2, 0, false},
		{"between, current skew over max", 1, 0, 1, 3, 2, 0, true},
		{"unique smallest with smaller largest", 1, 1, 2, 2, 1, -1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ch, v := skewChange(tc.count, tc.smallest, tc.second, tc.largest, tc.maxSkw)
			if ch != tc.change || v != tc.violated {
				t.Errorf("got change %d violated %v, want %d %v", ch, v, tc.change, tc.violated)
			}
		})
	}
}

func TestSpecialCounts(t *testing.T) {
	cases := []struct {
		counts            []int
		small, sec, large int
	}{
		{[]int{3}, 3, 3, 3},
		{[]int{2, 1}, 1, 2, 2},
		{[]int{1, 1}, 1, 1, 1},
		{[]int{4, 0, 0, 2}, 0, 0, 4},
		{[]int{5, 1, 3, 2}, 1, 2, 5},
	}
	for _, tc := range cases {
		s, s2, l := specialCounts(tc.counts)
		if s != tc.small || s2 != tc.sec || l != tc.large {
			t.Errorf("%v: got %d %d %d", tc.counts, s, s2, l)
		}
	}
}

// Topology spread comes first: a cluster with affinity 100 loses to one with
// affinity 0 whose placement reduces the skew. Summed scores would rank it
// the other way round (99 vs 1).
func TestLexicographicTopologyBeforeAffinity(t *testing.T) {
	f := newFleet(
		cluster("a1", lbl("region", "a", "pref", "yes")),
		cluster("a2", lbl("region", "a", "pref", "yes")),
		cluster("b1", lbl("region", "b")),
	)
	p := pickN(2)
	p.Affinity = &Affinity{Preferred: []PreferredTerm{preferLabels(100, "pref", "yes")}}
	p.TopologySpreadConstraints = []TopologySpreadConstraint{spread("region", ScheduleAnyway, 5)}
	r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{})
	if !sameNames(r.Selected, []string{"a2", "b1"}) {
		t.Fatalf("selected %v, want a2 and b1", r.Selected)
	}
	want := map[string]Decision{
		"a2": {ClusterName: "a2", Selected: true, AffinityScore: 100, TopologySpreadScore: -1, Reason: ReasonPicked},
		"b1": {ClusterName: "b1", Selected: true, AffinityScore: 0, TopologySpreadScore: 1, Reason: ReasonPicked},
		"a1": {ClusterName: "a1", AffinityScore: 100, TopologySpreadScore: -1, Reason: "does not score high enough (affinity score: 100, topology spread score: -1)"},
	}
	for n, w := range want {
		if d := decisionOf(t, r, n); d != w {
			t.Errorf("%s: got %+v, want %+v", n, d, w)
		}
	}
}

func TestTopologyDoNotScheduleGreedy(t *testing.T) {
	f := newFleet(
		cluster("a1", lbl("region", "a")), cluster("a2", lbl("region", "a")), cluster("a3", lbl("region", "a")),
		cluster("b1", lbl("region", "b")),
		cluster("c1", lbl("region", "c"), staleHeartbeat()), // domain c counts with 0
		cluster("nokey"),
	)
	cases := []struct {
		name     string
		n        int
		when     string
		selected []string
		reasons  map[string]string
	}{
		// nokey (no key: score 0) first, then b1 (tie at -1 with the a*,
		// larger name), then a3 (a shares the smallest count with c: change
		// 0). Domain c exists with count 0 and cannot be placed on, so a
		// second cluster in a would make the skew 2: a1 and a2 are filtered.
		{"domain of ineligible clusters counts", 4, DoNotSchedule, []string{"a3", "b1", "nokey"},
			map[string]string{"a1": "violates DoNotSchedule topology spread constraint on region (max skew 1)",
				"c1": "not eligible: heartbeat older than 5m"}},
		{"schedule anyway fills up", 4, ScheduleAnyway, []string{"a2", "a3", "b1", "nokey"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := pickN(tc.n)
			p.TopologySpreadConstraints = []TopologySpreadConstraint{spread("region", tc.when, 1)}
			r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{})
			if !sameNames(r.Selected, tc.selected) {
				t.Fatalf("selected %v, want %v (%+v)", r.Selected, tc.selected, r.Decisions)
			}
			for n, w := range tc.reasons {
				if d := decisionOf(t, r, n); d.Reason != w {
					t.Errorf("%s: reason %q, want %q", n, d.Reason, w)
				}
			}
		})
	}
}

func TestTopologySpreadsEvenly(t *testing.T) {
	var cs []fleet.Cluster
	for _, region := range []string{"east", "west", "north"} {
		for i := 0; i < 4; i++ {
			cs = append(cs, cluster(region+string(rune('0'+i)), lbl("region", region)))
		}
	}
	p := pickN(6)
	p.TopologySpreadConstraints = []TopologySpreadConstraint{spread("region", DoNotSchedule, 1)}
	r := mustSchedule(t, spec(p), newFleet(cs...), nil, ScheduleOptions{})
	per := map[string]int{}
	for _, n := range r.Selected {
		per[strings.TrimRight(n, "0123")]++
	}
	if !r.Fulfilled || per["east"] != 2 || per["west"] != 2 || per["north"] != 2 {
		t.Fatalf("selected %v (%v)", r.Selected, per)
	}
}

func TestPropertySelectorQuantities(t *testing.T) {
	f := newFleet(
		cluster("bytes", prop("mem", "1073741824")),
		cluster("gi", prop("mem", "1Gi")),
		cluster("smaller", prop("mem", "1000Mi")),
		cluster("none"),
		cluster("half", prop("mem", "500m")),
	)
	cases := []struct {
		op, v string
		want  []string
	}{
		{selector.OpEq, "1Gi", []string{"bytes", "gi"}},
		{selector.OpEq, "1073741824", []string{"bytes", "gi"}},
		{selector.OpNe, "1Gi", []string{"smaller", "half"}},
		{selector.OpEq, "0.5", []string{"half"}},
		{selector.OpLt, "1Gi", []string{"smaller", "half"}},
	}
	for _, tc := range cases {
		p := Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{PropertySelector: propSel("mem", tc.op, tc.v)}}}}
		r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{})
		if !sameNames(r.Selected, tc.want) {
			t.Errorf("%s %s: selected %v, want %v", tc.op, tc.v, r.Selected, tc.want)
		}
		if d := decisionOf(t, r, "none"); d.Reason != ReasonNoRequiredMatch {
			t.Errorf("missing property: %q", d.Reason)
		}
	}
}

// A property value that is not a quantity fails Fleet's whole scheduling
// cycle (clusteraffinity retrievePropertyValueFrom returns an error, the
// framework returns it): the result says so instead of scheduling, naming
// the cluster, the property and the attribute.
func TestNonQuantityPropertyFailsTheCycle(t *testing.T) {
	f := newFleet(cluster("a", prop("version", "5")), cluster("b", prop("version", "1.30.2")))
	for name, tc := range map[string]struct {
		p    Policy
		path string
	}{
		"required": {Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{PropertySelector: propSel("version", selector.OpGe, "1")}}}},
			"policy.affinity.required[0].property_selector.match_expressions[0].name"},
		"sorter": {Policy{PlacementType: PickN, NumberOfClusters: intPtr(1), Affinity: &Affinity{Preferred: []PreferredTerm{preferSorted(10, "version", Ascending)}}},
			"policy.affinity.preferred[0].preference.property_sorter.name"},
	} {
		r, err := Schedule(spec(tc.p), f, nil, now, ScheduleOptions{})
		if err != nil || r.Failure == nil || !strings.Contains(r.Failure.Reason, `"b"`) || !strings.Contains(r.Failure.Reason, `"version"`) ||
			r.Failure.Path.String() != tc.path || len(r.Decisions) != 0 || r.Fulfilled {
			t.Errorf("%s: got %+v %v, want a failure at %s naming cluster b and property version", name, r, err, tc.path)
		}
	}
}

// The sorter's property reader answers exactly as (*fleet.Cluster).Property.
func TestPropertyReaderMatchesFleetModel(t *testing.T) {
	cl := fleet.Cluster{
		Name:       "member-1",
		Properties: map[string]string{fleet.PropertyNodeCount: "12", fleet.PropertyPerCPUCoreCost: "0.125", "version": "1.30.2"},
		Usage: fleet.ResourceUsage{
			Capacity:    map[string]resource.Quantity{fleet.ResourceCPU: resource.MustParse("96"), fleet.ResourceMemory: resource.MustParse("384Gi")},
			Allocatable: map[string]resource.Quantity{fleet.ResourceCPU: resource.MustParse("86400m")},
			Available:   map[string]resource.Quantity{fleet.ResourceCPU: resource.MustParse("40500m"), fleet.ResourceMemory: resource.MustParse("100Gi")},
		},
	}
	names := []string{
		"resources.kubernetes-fleet.io/total-cpu", "resources.kubernetes-fleet.io/total-memory",
		"resources.kubernetes-fleet.io/allocatable-cpu", "resources.kubernetes-fleet.io/allocatable-memory",
		"resources.kubernetes-fleet.io/available-cpu", "resources.kubernetes-fleet.io/available-memory",
		"resources.kubernetes-fleet.io/free-cpu", "resources.kubernetes-fleet.io/total-ephemeral-storage", fleet.PropertyNodeCount, fleet.PropertyPerCPUCoreCost, "version", "missing",
	}
	for _, n := range names {
		q1, f1, e1 := newPropertyReader(n).read(&cl)
		q2, f2, e2 := cl.Property(n)
		if f1 != f2 || (e1 == nil) != (e2 == nil) || q1.Cmp(q2) != 0 || (e1 != nil && e1.Error() != e2.Error()) {
			t.Errorf("%s: reader (%v %v %v) vs fleet (%v %v %v)", n, q1.String(), f1, e1, q2.String(), f2, e2)
		}
	}
}
