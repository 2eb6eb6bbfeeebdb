package placement

import (
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// warningsFleet is the fleet the warning cases are evaluated on.
func warningsFleet() *fleet.Fleet {
	return newFleet(
		cluster("a", prop(fleet.PropertyNodeCount, "3"), available("cpu", "4"), lbl("env", "prod")),
		cluster("b", prop(fleet.PropertyNodeCount, "8"), prop("version", "1.30.2"), lbl("env", "prod")),
		cluster("stale", staleHeartbeat()),
	)
}

// warningsOn evaluates Warnings as a plan does: on the result of scheduling spec.
func warningsOn(f *fleet.Fleet, s Spec) []field.Warning {
	r, _ := Schedule(s, f, nil, now, ScheduleOptions{})
	return Warnings(s, f, r, now)
}

// warningCases are policies on warningsFleet with the warnings they get.
var warningCases = []struct {
	name   string
	policy Policy
	want   []enginetest.WantWarning // in the order Warnings returns them
}{
	{"seed typo in a required selector", Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{PropertySelector: propSel("kubernetes.azure.com/node-count", selector.OpGe, "5")}}}},
		[]enginetest.WantWarning{
			{ID: WarnPropertyNotInFleet, Path: "policy.affinity.required[0].property_selector.match_expressions[0].name", Contains: `no cluster of the fleet has property "kubernetes.azure.com/node-count", so this expression is false for every cluster and the term matches none; did you mean "kubernetes-fleet.io/node-count"?`},
			{ID: WarnRequiredMatchesNone, Path: "policy.affinity.required", Contains: "no cluster of the fleet matches any required affinity term"},
		}},
	{"sorter on a missing resource", func() Policy {
		p := pickN(1)
		p.Affinity = &Affinity{Preferred: []PreferredTerm{preferSorted(10, "resources.kubernetes-fleet.io/available-cpus", Descending)}}
		return p
	}(), []enginetest.WantWarning{
		{ID: WarnPropertyNotInFleet, Path: "policy.affinity.preferred[0].preference.property_sorter.name", Contains: `did you mean "resources.kubernetes-fleet.io/available-cpu"?`},
	}},
	{"unfulfilled PickN", pickN(5), []enginetest.WantWarning{
		{ID: WarnPickNUnfulfilled, Path: "policy.number_of_clusters", Contains: "5 cluster(s) requested but only 2 can be picked: could not find all clusters needed as specified by the scheduling policy, found 2 cluster(s) instead"},
	}},
	{"PickFixed not found and not eligible", Policy{PlacementType: PickFixed, ClusterNames: []string{"a", "ghost", "stale"}}, []enginetest.WantWarning{
		{ID: WarnClusterNotMember, Path: "policy.cluster_names[1]", Contains: `cluster "ghost" is not a member of the fleet`},
		{ID: WarnClusterNotEligible, Path: "policy.cluster_names[2]", Contains: `cluster "stale" is not eligible: heartbeat older than 5m`},
	}},
	// Issue 9 item 5: Fleet admits PickFixed without names and places nowhere.
	{"PickFixed without names", Policy{PlacementType: PickFixed}, []enginetest.WantWarning{
		{ID: WarnPickFixedEmpty, Path: "policy.cluster_names", Contains: "cluster_names is empty: Fleet admits the placement but skips its scheduling cycle, so it places nowhere"},
	}},
	// Issue 9 item 4: Fleet's PreScore reads every sorter, whatever its weight
	// (clusteraffinity preparePluginState), so a weight-0 sorter on a value
	// that is not a quantity fails every cycle.
	{"weight-0 sorter on a non-quantity property", func() Policy {
		p := pickN(1)
		p.Affinity = &Affinity{Preferred: []PreferredTerm{preferSorted(0, "version", Ascending)}}
		return p
	}(), []enginetest.WantWarning{
		{ID: WarnSchedulingFails, Path: "policy.affinity.preferred[0].preference.property_sorter.name",
			Contains: `Fleet admits this placement, but every scheduling cycle fails, so it is never scheduled (clusters it already holds keep their resources): cluster "b": property "version" has value "1.30.2", which is not a quantity. Use a property whose values are quantities`},
	}},
	// Issue 9 item 3: an upper-case resource name is admitted and matches nothing.
	{"upper-case resource name", func() Policy {
		p := pickN(1)
		p.Affinity = &Affinity{Preferred: []PreferredTerm{preferSorted(10, "resources.kubernetes-fleet.io/available-CPU", Descending)}}
		return p
	}(), []enginetest.WantWarning{
		{ID: WarnPropertyNotInFleet, Path: "policy.affinity.preferred[0].preference.property_sorter.name",
			Contains: `(Kubernetes resource names are lower case, and Fleet compares them exactly); did you mean "resources.kubernetes-fleet.io/available-cpu"?`},
	}},
	// Issue 23: Fleet compares a quantity exactly as written.
	{"CPU with a byte suffix", Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{PropertySelector: propSel("resources.kubernetes-fleet.io/available-cpu", selector.OpLe, "4Gi")}}}},
		[]enginetest.WantWarning{
			{ID: WarnQuantityUnit, Path: "policy.affinity.required[0].property_selector.match_expressions[0].values[0]",
				Contains: `"4Gi" is 4294967296 cores (a byte suffix on CPU): write cores, e.g. "4", or millicores, e.g. "400m"`},
		}},
	{"nothing to warn about", func() Policy {
		p := pickN(2)
		p.Affinity = &Affinity{Required: []ClusterSelectorTerm{{LabelSelector: matchLabels("env", "prod"), PropertySelector: propSel(fleet.PropertyNodeCount, selector.OpGe, "1")}}}
		return p
	}(), nil},
}

func TestWarnings(t *testing.T) {
	f := warningsFleet()
	for _, tc := range warningCases {
		t.Run(tc.name, func(t *testing.T) {
			enginetest.CheckWarnings(t, warningsOn(f, spec(tc.policy)), tc.want)
		})
	}
}

// Issue 23: a whole-number max_unavailable above the clusters selected rolls
// a change out to all of them at once; a percentage, or a number within the
// selection, is no surprise.
func TestMaxUnavailableWarning(t *testing.T) {
	f := warningsFleet()
	withMax := func(v string) Spec {
		s := spec(pickN(2))
		s.Strategy = Strategy{RollingUpdate: &RollingUpdate{MaxUnavailable: strPtr(v)}}
		return s
	}
	enginetest.CheckWarnings(t, warningsOn(f, withMax("5")), []enginetest.WantWarning{
		{ID: WarnMaxUnavailableAboveClusters, Path: "strategy.rolling_update.max_unavailable",
			Contains: "max_unavailable 5 is more than the 2 cluster(s) the placement selects"}})
	for _, v := range []string{"2", "100%", "1"} {
		enginetest.CheckWarnings(t, warningsOn(f, withMax(v)), nil)
	}
}
