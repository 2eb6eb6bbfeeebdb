package placement

import (
	"reflect"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// FleetFingerprint changes with each fact scheduling reads, and with nothing
// else: a member's Kubernetes version or node pools never reschedule.
func TestFleetFingerprintNamesWhatSchedulingReads(t *testing.T) {
	base := func(opts ...clusterOpt) *fleet.Fleet {
		return newFleet(cluster("a", append([]clusterOpt{lbl("env", "prod")}, opts...)...), cluster("b"))
	}
	fp := func(f *fleet.Fleet) string { return FleetFingerprint(f, now) }
	// A held cluster already ineligible (a stale heartbeat) that starts
	// leaving: Fleet keeps the first and removes the second.
	if stale := base(staleHeartbeat()); fp(stale) == fp(base(staleHeartbeat(), leaving())) {
		t.Error("an ineligible cluster that starts leaving leaves the fingerprint unchanged")
	}
	was := fp(base())
	if fp(base()) != was {
		t.Fatal("the same fleet has two fingerprints")
	}
	for name, f := range map[string]*fleet.Fleet{
		"label":     base(lbl("zone", "1")),
		"taint":     base(taint("dedicated", "gpu")),
		"property":  base(prop("kubernetes-fleet.io/node-count", "3")),
		"available": base(available("cpu", "2")),
		"heartbeat": base(staleHeartbeat()),
		"leaving":   base(leaving()),
		"a member":  newFleet(cluster("a", lbl("env", "prod"))),
	} {
		if fp(f) == was {
			t.Errorf("a changed %s leaves the fingerprint unchanged", name)
		}
	}
	same := base()
	same.Clusters[0].KubernetesVersion = "1.31.2"
	same.Clusters[0].NodePools = []fleet.NodePool{{Name: "system", NodeCount: 3}}
	if fp(same) != was {
		t.Error("a member's Kubernetes version or node pools changed the fingerprint")
	}
	if fp(base(available("cpu", "1000m"))) != fp(base(available("cpu", "1"))) {
		t.Error("1000m and 1 CPU are one quantity, with two fingerprints")
	}
}

// A fingerprint made with the member facts of an earlier fleet is the
// fingerprint of the fleet, as long as its members have the facts they had
// (the hub's promise): times and what scheduling does not read may differ;
// a member added or gone is read from the fleet itself.
func TestFleetFingerprintWithMemberFacts(t *testing.T) {
	earlier := newFleet(cluster("a", lbl("env", "prod"), available("cpu", "2")), cluster("b", taint("dedicated", "gpu")), cluster("c"))
	facts := FleetMemberFacts(earlier)
	later := newFleet(cluster("a", lbl("env", "prod"), available("cpu", "2"), staleHeartbeat()), cluster("b", taint("dedicated", "gpu"), leaving()), cluster("c"))
	later.Clusters[2].KubernetesVersion = "1.31.2"
	others := newFleet(cluster("a", lbl("env", "prod"), available("cpu", "2")), cluster("c"), cluster("d", lbl("env", "dev")))
	for name, f := range map[string]*fleet.Fleet{"the same fleet": earlier, "a later instant": later, "members added and gone": others} {
		if got, want := FleetFingerprintWith(facts, f, now), FleetFingerprint(f, now); got != want {
			t.Errorf("%s: fingerprint %s with the member facts, %s without", name, got, want)
		}
	}
	if FleetFingerprintWith(facts, later, now) == FleetFingerprintWith(facts, earlier, now) {
		t.Error("the member facts hide a change of eligibility")
	}
	// The facts keep the last fingerprint of their members: the same
	// members again, at instants where their eligibility holds and where it
	// does not (every heartbeat gone stale), in turns.
	stale := now.Add(fleet.HeartbeatTimeout + time.Hour)
	for i, c := range []struct {
		f  *fleet.Fleet
		at time.Time
	}{{earlier, now}, {earlier, now.Add(time.Minute)}, {earlier, stale}, {later, now}, {earlier, now}, {earlier, stale}, {others, now}, {earlier, stale}} {
		if got, want := FleetFingerprintWith(facts, c.f, c.at), FleetFingerprint(c.f, c.at); got != want {
			t.Errorf("read %d: fingerprint %s with the member facts, %s without", i, got, want)
		}
	}
	if FleetFingerprint(earlier, now) == FleetFingerprint(earlier, stale) {
		t.Error("the test's stale instant changes no member's eligibility")
	}
}

// scheduleKey tells apart policies that differ in any field, and a new
// field of a policy type fails this test until the key writes it.
func TestScheduleKeyNamesEveryPolicyField(t *testing.T) {
	for typ, fields := range map[reflect.Type]int{
		reflect.TypeFor[Policy]():                      6,
		reflect.TypeFor[Affinity]():                    2,
		reflect.TypeFor[PreferredTerm]():               2,
		reflect.TypeFor[ClusterSelectorTerm]():         3,
		reflect.TypeFor[PropertySorter]():              2,
		reflect.TypeFor[TopologySpreadConstraint]():    3,
		reflect.TypeFor[Toleration]():                  4,
		reflect.TypeFor[selector.LabelSelector]():      2,
		reflect.TypeFor[selector.LabelExpression]():    3,
		reflect.TypeFor[selector.PropertyExpression](): 3,
		reflect.TypeFor[selector.PropertySelector]():   1,
		reflect.TypeFor[Score]():                       2,
	} {
		if typ.NumField() != fields {
			t.Errorf("%s has %d fields, scheduleKey writes %d: write the new one in key.go", typ, typ.NumField(), fields)
		}
	}
	full := func() Policy {
		p := pickN(3)
		p.ClusterNames = []string{"a"}
		p.Affinity = &Affinity{
			Required:  []ClusterSelectorTerm{{LabelSelector: matchLabels("env", "prod"), PropertySelector: propSel("p", "Gt", "1")}},
			Preferred: []PreferredTerm{preferLabels(10, "zone", "1"), preferSorted(5, "p", Ascending)},
		}
		p.TopologySpreadConstraints = []TopologySpreadConstraint{spread("zone", DoNotSchedule, 1)}
		p.Tolerations = []Toleration{{Key: "k", Operator: TolerationOpEqual, Value: "v", Effect: TaintEffectNoSchedule}}
		return p
	}
	key := func(p Policy) string { return scheduleKey(p, []string{"a"}, now, ScheduleOptions{}) }
	was := key(full())
	for name, change := range map[string]func(p *Policy){
		"placement type":     func(p *Policy) { p.PlacementType = PickAll },
		"cluster names":      func(p *Policy) { p.ClusterNames = []string{"b"} },
		"number of clusters": func(p *Policy) { p.NumberOfClusters = intPtr(4) },
		"no number":          func(p *Policy) { p.NumberOfClusters = nil },
		"required label":     func(p *Policy) { p.Affinity.Required[0].LabelSelector.MatchLabels["env"] = "dev" },
		"label expression": func(p *Policy) {
			p.Affinity.Required[0].LabelSelector.MatchExpressions = []selector.LabelExpression{{Key: "k", Operator: "Exists"}}
		},
		"property value":    func(p *Policy) { p.Affinity.Required[0].PropertySelector.MatchExpressions[0].Values[0] = "2" },
		"property operator": func(p *Policy) { p.Affinity.Required[0].PropertySelector.MatchExpressions[0].Operator = "Lt" },
		"weight":            func(p *Policy) { p.Affinity.Preferred[0].Weight = 11 },
		"sort order":        func(p *Policy) { p.Affinity.Preferred[1].Preference.PropertySorter.SortOrder = Descending },
		"sorter name":       func(p *Policy) { p.Affinity.Preferred[1].Preference.PropertySorter.Name = "q" },
		"max skew":          func(p *Policy) { p.TopologySpreadConstraints[0].MaxSkew = intPtr(2) },
		"topology key":      func(p *Policy) { p.TopologySpreadConstraints[0].TopologyKey = "region" },
		"when":              func(p *Policy) { p.TopologySpreadConstraints[0].WhenUnsatisfiable = ScheduleAnyway },
		"toleration key":    func(p *Policy) { p.Tolerations[0].Key = "j" },
		"toleration op":     func(p *Policy) { p.Tolerations[0].Operator = TolerationOpExists },
		"toleration value":  func(p *Policy) { p.Tolerations[0].Value = "w" },
		"toleration effect": func(p *Policy) { p.Tolerations[0].Effect = "" },
		"no affinity":       func(p *Policy) { p.Affinity = nil },
	} {
		p := full()
		change(&p)
		if key(p) == was {
			t.Errorf("a changed %s leaves the schedule key unchanged", name)
		}
	}
	opts := func(o ScheduleOptions) string { return scheduleKey(full(), []string{"a"}, now, o) }
	prev := Spec{Policy: pickN(2)}
	for name, o := range map[string]ScheduleOptions{
		"previous policy": {Prev: &prev},
		"recorded score":  {Recorded: map[string]Score{"a": {Affinity: 1}}},
		"scheduled":       {Scheduled: []string{"a"}},
	} {
		if opts(o) == was {
			t.Errorf("a %s leaves the schedule key unchanged", name)
		}
	}
	if scheduleKey(full(), []string{"b"}, now, ScheduleOptions{}) == was || scheduleKey(full(), []string{"a"}, now.Add(time.Second), ScheduleOptions{}) == was {
		t.Error("the held clusters or the time leave the schedule key unchanged")
	}
}
