package placement

import (
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

func TestWarnings(t *testing.T) {
	f := newFleet(
		cluster("a", prop(fleet.PropertyNodeCount, "3"), available("cpu", "4"), lbl("env", "prod")),
		cluster("b", prop(fleet.PropertyNodeCount, "8"), lbl("env", "prod")),
		cluster("stale", staleHeartbeat()),
	)
	cases := []struct {
		name   string
		policy Policy
		want   map[string]string // path → substring of the message
	}{
		{"seed typo in a required selector", Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{PropertySelector: propSel("kubernetes.azure.com/node-count", selector.OpGe, "5")}}}},
			map[string]string{
				"policy.affinity.required[0].property_selector.match_expressions[0].name": `no cluster of the fleet has property "kubernetes.azure.com/node-count", so this expression is false for every cluster and the term matches none; did you mean "kubernetes-fleet.io/node-count"?`,
				"policy.affinity.required": "no cluster of the fleet matches any required affinity term",
			}},
		{"sorter on a missing resource", func() Policy {
			p := pickN(1)
			p.Affinity = &Affinity{Preferred: []PreferredTerm{preferSorted(10, "resources.kubernetes-fleet.io/available-cpus", Descending)}}
			return p
		}(), map[string]string{
			"policy.affinity.preferred[0].preference.property_sorter.name": `did you mean "resources.kubernetes-fleet.io/available-cpu"?`,
		}},
		{"unfulfilled PickN", pickN(5), map[string]string{
			"policy.number_of_clusters": "5 cluster(s) requested but only 2 can be picked: could not find all clusters needed as specified by the scheduling policy, found 2 cluster(s) instead",
		}},
		{"PickFixed not found and not eligible", Policy{PlacementType: PickFixed, ClusterNames: []string{"a", "ghost", "stale"}}, map[string]string{
			"policy.cluster_names[1]": `cluster "ghost" is not a member of the fleet`,
			"policy.cluster_names[2]": `cluster "stale" is not eligible: heartbeat older than 5m`,
		}},
		{"nothing to warn about", func() Policy {
			p := pickN(2)
			p.Affinity = &Affinity{Required: []ClusterSelectorTerm{{LabelSelector: matchLabels("env", "prod"), PropertySelector: propSel(fleet.PropertyNodeCount, selector.OpGe, "1")}}}
			return p
		}(), map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := Schedule(spec(tc.policy), f, nil, now, ScheduleOptions{})
			ws := Warnings(spec(tc.policy), f, r, now)
			got := map[string]string{}
			for _, w := range ws {
				got[w.Path.String()] = w.Message
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want paths of %v", got, tc.want)
			}
			for p, sub := range tc.want {
				if !strings.Contains(got[p], sub) {
					t.Errorf("%s: %q does not contain %q", p, got[p], sub)
				}
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"kitten", "sitting", 3}, {"same", "same", 0}, {"available-cpu", "available-cpus", 1}} {
		if got := editDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("%s/%s: %d", tc.a, tc.b, got)
		}
	}
}
