package placement

import (
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// Regression tests of issue 9, items 1–6: each states what Fleet does and
// where (kubefleet-dev/kubefleet, pkg/scheduler unless said otherwise).

// Item 1: the decisions of held clusters carry the score recorded on their
// binding when they were picked — Fleet's status copies each binding's
// ClusterDecision (frameworkutils.go newSchedulingDecisionsFromBindings) —
// and a scale-out keeps them, while the newly picked cluster records the
// score it is picked with (crossReferencePickedClustersAndDeDupBindings).
func TestHeldClustersShowRecordedScores(t *testing.T) {
	f := newFleet(cluster("a", lbl("tier", "gold")), cluster("b"), cluster("c"))
	p := pickN(2)
	p.Affinity = &Affinity{Preferred: []PreferredTerm{preferLabels(50, "tier", "gold")}}
	old := spec(pickN(1))
	old.Policy.Affinity = p.Affinity
	r := mustSchedule(t, spec(p), f, []string{"b"}, ScheduleOptions{Prev: &old, Recorded: map[string]Score{"b": {Affinity: 7, TopologySpread: 3}}})
	if !slices.Equal(r.Selected, []string{"a", "b"}) {
		t.Fatalf("selected %v", r.Selected)
	}
	if d := decisionOf(t, r, "b"); d.AffinityScore != 7 || d.TopologySpreadScore != 3 {
		t.Errorf("held b shows %+v, want its recorded 7/3", d)
	}
	if d := decisionOf(t, r, "a"); d.AffinityScore != 50 {
		t.Errorf("picked a shows %+v, want 50", d)
	}
	if rec := RecordedScores(r.Decisions); rec["a"] != (Score{Affinity: 50}) || rec["b"] != (Score{Affinity: 7, TopologySpread: 3}) || len(rec) != 2 {
		t.Errorf("recorded %v", rec)
	}
}

// Item 2: Fleet's eligibility checker (clustereligibilitychecker.IsEligible)
// gives a Healthy condition that is Unknown the same five minutes as False;
// only an absent condition is ineligible at once.
func TestHealthUnknownBlipIsEligible(t *testing.T) {
	blip := func(c *fleet.Cluster) {
		c.Agent.Healthy, c.Agent.HealthSince = fleet.ConditionUnknown, now.Add(-2*time.Minute)
	}
	long := func(c *fleet.Cluster) {
		c.Agent.Healthy, c.Agent.HealthSince = fleet.ConditionUnknown, now.Add(-10*time.Minute)
	}
	absent := func(c *fleet.Cluster) { c.Agent.Healthy = "" }
	f := newFleet(cluster("blip", blip), cluster("long", long), cluster("absent", absent))
	r := mustSchedule(t, spec(Policy{}), f, nil, ScheduleOptions{})
	if !slices.Equal(r.Selected, []string{"blip"}) {
		t.Fatalf("selected %v, want blip", r.Selected)
	}
	if d := decisionOf(t, r, "long"); d.Reason != "not eligible: health unknown for more than 5m" {
		t.Errorf("long: %q", d.Reason)
	}
	if d := decisionOf(t, r, "absent"); d.Reason != "not eligible: no health condition reported" {
		t.Errorf("absent: %q", d.Reason)
	}
}

// Item 3: Fleet validates a property name segment by segment (pkg/utils/validator
// validateName), so `kubernetes.azure.com/vm-sizes/<sku>/count` is a
// property a placement can select on; an upper-case resource name is
// admitted and matches nothing (resource names are compared exactly).
func TestSegmentedAndUpperCasePropertyNames(t *testing.T) {
	const d4 = fleet.PropertyVMSizeCountPrefix + "Standard_D4s_v3/count"
	f := newFleet(cluster("a", prop(d4, "3"), available("cpu", "4")), cluster("b", available("cpu", "8")))
	p := Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{PropertySelector: propSel(d4, selector.OpGe, "1")}}}}
	if errs := Validate(spec(p)); len(errs) > 0 {
		t.Fatal(errs)
	}
	if r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{}); !slices.Equal(r.Selected, []string{"a"}) {
		t.Errorf("vm-size count: selected %v, want a", r.Selected)
	}
	p = Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{PropertySelector: propSel("resources.kubernetes-fleet.io/available-CPU", selector.OpGe, "1")}}}}
	if errs := Validate(spec(p)); len(errs) > 0 {
		t.Fatal(errs)
	}
	if r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{}); len(r.Selected) != 0 || r.Failure != nil {
		t.Errorf("available-CPU: %+v, want nothing selected and no failure", r)
	}
}

// Item 4: policies Fleet admits but fails to schedule are previewed as
// failing, with no decision (the framework returns the plugin's error before
// it touches a binding, framework.go runAllPluginsForPickNPlacementType).
func TestAdmittedButUnschedulable(t *testing.T) {
	const storage = "resources.kubernetes-fleet.io/total-ephemeral-storage"
	const cost = fleet.PropertyPerCPUCoreCost
	withStorage := func(c *fleet.Cluster) {
		c.Usage.Capacity = map[string]resource.Quantity{"ephemeral-storage": resource.MustParse("100Gi")}
	}
	sorted := func(w int, name string) Policy {
		p := pickN(1)
		p.Affinity = &Affinity{Preferred: []PreferredTerm{preferSorted(w, name, Ascending)}}
		return p
	}
	cases := []struct {
		name   string
		fleet  *fleet.Fleet
		policy Policy
		path   string
		reason string
	}{
		// Fleet's webhook splits a resource property at its first '-' and
		// admits it; the scheduler of the same release splits at every '-'
		// (clusteraffinity retrieveResourceUsageFrom) and fails.
		{"resource name with a dash, required", newFleet(cluster("a", withStorage)),
			Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{PropertySelector: propSel(storage, selector.OpGe, "1")}}}},
			"policy.affinity.required[0].property_selector.match_expressions[0].name", `property "` + storage + `" cannot be read by Fleet's scheduler`},
		{"resource name with a dash, sorter", newFleet(cluster("a", withStorage)), sorted(10, storage),
			"policy.affinity.preferred[0].preference.property_sorter.name", "a resource name containing '-' fails every scheduling cycle"},
		// Equal values spelled differently read as different floats; Fleet
		// takes min and max from the first cluster it lists and the other
		// lies outside (clusteraffinity interpolateWeightFor's range check).
		{"sorter values equal but spelled differently", newFleet(cluster("a", prop(cost, "0.045")), cluster("b", prop(cost, "0.0450"))), sorted(10, cost),
			"policy.affinity.preferred[0].preference.property_sorter.name", `clusters "a" and "b" report the same value of property "` + cost + `", spelled differently`},
		// Fleet's PreScore reads every sorter over every cluster, whatever
		// the term's weight (clusteraffinity preparePluginState).
		{"weight-0 sorter on a non-quantity", newFleet(cluster("a", prop("version", "1.30.2"))), sorted(0, "version"),
			"policy.affinity.preferred[0].preference.property_sorter.name", `cluster "a": property "version" has value "1.30.2", which is not a quantity`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if errs := Validate(spec(tc.policy)); len(errs) > 0 {
				t.Fatalf("Fleet admits it; Validate: %v", errs)
			}
			r := mustSchedule(t, spec(tc.policy), tc.fleet, nil, ScheduleOptions{})
			if r.Failure == nil || r.Failure.Path.String() != tc.path || !strings.Contains(r.Failure.Reason, tc.reason) || r.Failure.Fix == "" {
				t.Fatalf("got %+v (failure %+v), want a failure at %s: %q", r, r.Failure, tc.path, tc.reason)
			}
			if len(r.Decisions) != 0 || r.Fulfilled || !r.Unchanged || !strings.HasPrefix(r.UnfulfilledMessage, "every scheduling cycle fails: ") {
				t.Errorf("result %+v", r)
			}
			ws := Warnings(spec(tc.policy), tc.fleet, r, now)
			if len(ws) == 0 || ws[0].ID != WarnSchedulingFails || ws[0].Path.String() != tc.path {
				t.Errorf("warnings %v", ws)
			}
		})
	}
}

// Item 4, converse: a spelling difference only matters when every cluster
// has the same value; with a third value, some listing order (Fleet lists
// clusters in no fixed order and retries a failed cycle) passes the check.
func TestSorterSpellingsWithDistinctExtremesSchedule(t *testing.T) {
	const cost = fleet.PropertyPerCPUCoreCost
	f := newFleet(cluster("a", prop(cost, "0.045")), cluster("b", prop(cost, "0.0450")), cluster("c", prop(cost, "0.1")))
	p := pickN(1)
	p.Affinity = &Affinity{Preferred: []PreferredTerm{preferSorted(10, cost, Ascending)}}
	if r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{}); r.Failure != nil || len(r.Selected) != 1 {
		t.Fatalf("got %+v", r)
	}
}

// Item 4, converse: with number_of_clusters already met, or 0, Fleet runs no
// plugin (framework.go shouldDownscale / shouldSchedule) and reports
// fulfilled, so a property it could not read does not fail anything.
func TestNothingToScheduleRunsNoPlugin(t *testing.T) {
	f := newFleet(cluster("a", prop("version", "1.30.2")), cluster("b", prop("version", "1.31.0")))
	p := pickN(1)
	p.Affinity = &Affinity{Required: []ClusterSelectorTerm{{PropertySelector: propSel("version", selector.OpGe, "1")}}}
	s := spec(p)
	for name, tc := range map[string]struct {
		n    int
		held []string
	}{"met": {1, []string{"a"}}, "scale in": {1, []string{"a", "b"}}, "zero": {0, nil}} {
		p.NumberOfClusters = intPtr(tc.n)
		r := mustSchedule(t, spec(p), f, tc.held, ScheduleOptions{Prev: &s})
		if r.Failure != nil || !r.Fulfilled || len(r.Selected) != tc.n {
			t.Errorf("%s: %+v", name, r)
		}
		// Fleet's status lists the selected clusters only (item 6).
		if pv := Preview(r, 0); len(pv.LeftOut) != 0 {
			t.Errorf("%s: left out %+v", name, pv.LeftOut)
		}
	}
	// With a scheduling need the same policy fails.
	p.NumberOfClusters = intPtr(2)
	if r := mustSchedule(t, spec(p), f, []string{"a"}, ScheduleOptions{Prev: &s}); r.Failure == nil || !slices.Equal(r.Selected, []string{"a"}) {
		t.Errorf("scale out: %+v, want a failure that keeps a", r)
	}
}

// Item 5: Fleet admits PickFixed without names and skips its cycle
// (framework.go runSchedulingCycleForPickFixedPlacementType): nothing is
// placed, and clusters already bound keep their bindings.
func TestPickFixedWithoutNames(t *testing.T) {
	f := newFleet(cluster("a"), cluster("b"))
	p := Policy{PlacementType: PickFixed}
	r := mustSchedule(t, spec(p), f, nil, ScheduleOptions{})
	if len(r.Selected) != 0 || !r.Fulfilled || r.Requested != 0 || !r.Unchanged {
		t.Fatalf("create: %+v", r)
	}
	old := spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"a"}})
	r = mustSchedule(t, spec(p), f, []string{"a"}, ScheduleOptions{Prev: &old})
	if !slices.Equal(r.Selected, []string{"a"}) || decisionOf(t, r, "a").Reason != ReasonKeptNoNames {
		t.Fatalf("update: %+v", r)
	}
}

// Item 6: Fleet lists a PickFixed placement's named clusters that are not
// eligible in cluster_names order, then the names not found
// (frameworkutils.go newSchedulingDecisionsForPickFixedPlacementType).
func TestPickFixedLeftOutInNameOrder(t *testing.T) {
	f := newFleet(cluster("a", staleHeartbeat()), cluster("b", leaving()), cluster("c"), cluster("d"))
	r := mustSchedule(t, spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"zz", "b", "c", "a", "yy"}}), f, nil, ScheduleOptions{})
	var left []string
	for _, d := range Preview(r, 0).LeftOut {
		left = append(left, d.ClusterName)
	}
	if want := []string{"b", "a", "zz", "yy", "d"}; !slices.Equal(left, want) {
		t.Errorf("left out %v, want %v", left, want)
	}
}

// Item 6: after a policy change, Fleet ranks the clusters it does not pick
// with the bonus it gives previously held clusters (sameplacementaffinity
// scoring; pickTopNScoredClusters sorts the whole ClusterScore), so the
// bounded list names the same clusters as Fleet's status.
func TestLeftOutRankedWithObsoleteBonus(t *testing.T) {
	f := newFleet(cluster("a"), cluster("b"), cluster("c"), cluster("d")) // every score ties
	old := spec(Policy{PlacementType: PickN, NumberOfClusters: intPtr(1), Tolerations: []Toleration{{Key: "k", Value: "v"}}})
	r := mustSchedule(t, spec(pickN(1)), f, []string{"a", "b"}, ScheduleOptions{Prev: &old})
	if !slices.Equal(r.Selected, []string{"b"}) {
		t.Fatalf("selected %v, want b (bonus, larger name)", r.Selected)
	}
	var left []string
	for _, d := range Preview(r, 2).LeftOut {
		left = append(left, d.ClusterName)
	}
	if want := []string{"a", "d"}; !slices.Equal(left, want) {
		t.Errorf("left out %v, want %v (a has the bonus)", left, want)
	}
}
