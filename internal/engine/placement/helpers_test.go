package placement

import (
	"sort"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

type clusterOpt func(*fleet.Cluster)

// cluster builds a healthy, joined member cluster.
func cluster(name string, opts ...clusterOpt) fleet.Cluster {
	c := fleet.Cluster{
		Name: name, Region: "eastus",
		Labels:     map[string]string{},
		Properties: map[string]string{},
		Agent: fleet.AgentStatus{Present: true, Joined: true, Healthy: fleet.ConditionTrue,
			HealthSince: now.Add(-time.Hour), LastHeartbeat: now.Add(-30 * time.Second)},
	}
	for _, o := range opts {
		o(&c)
	}
	return c
}

func lbl(kv ...string) clusterOpt {
	return func(c *fleet.Cluster) {
		for i := 0; i+1 < len(kv); i += 2 {
			c.Labels[kv[i]] = kv[i+1]
		}
	}
}

func prop(name, v string) clusterOpt {
	return func(c *fleet.Cluster) { c.Properties[name] = v }
}

func available(res, q string) clusterOpt {
	return func(c *fleet.Cluster) {
		if c.Usage.Available == nil {
			c.Usage.Available = map[string]resource.Quantity{}
		}
		c.Usage.Available[res] = resource.MustParse(q)
	}
}

func taint(k, v string) clusterOpt {
	return func(c *fleet.Cluster) {
		c.Taints = append(c.Taints, fleet.Taint{Key: k, Value: v, Effect: fleet.TaintEffectNoSchedule})
	}
}

func staleHeartbeat() clusterOpt {
	return func(c *fleet.Cluster) { c.Agent.LastHeartbeat = now.Add(-10 * time.Minute) }
}

func leaving() clusterOpt {
	return func(c *fleet.Cluster) { c.Agent.Leaving = true }
}

func newFleet(cs ...fleet.Cluster) *fleet.Fleet {
	f := &fleet.Fleet{Clusters: cs}
	f.Sort()
	return f
}

// Spec builders.

func pickN(n int) Policy { return Policy{PlacementType: PickN, NumberOfClusters: intPtr(n)} }

func spec(p Policy) Spec {
	return Spec{Name: "crp", ResourceSelectors: []ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app"}}, Policy: p}
}

func matchLabels(kv ...string) *selector.LabelSelector {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return &selector.LabelSelector{MatchLabels: m}
}

func propSel(name, op, v string) *selector.PropertySelector {
	return &selector.PropertySelector{MatchExpressions: []selector.PropertyExpression{{Name: name, Operator: op, Values: []string{v}}}}
}

func preferLabels(w int, kv ...string) PreferredTerm {
	return PreferredTerm{Weight: w, Preference: ClusterSelectorTerm{LabelSelector: matchLabels(kv...)}}
}

func preferSorted(w int, name, order string) PreferredTerm {
	return PreferredTerm{Weight: w, Preference: ClusterSelectorTerm{PropertySorter: &PropertySorter{Name: name, SortOrder: order}}}
}

func spread(key, when string, maxSkew int) TopologySpreadConstraint {
	return TopologySpreadConstraint{TopologyKey: key, WhenUnsatisfiable: when, MaxSkew: intPtr(maxSkew)}
}

// Result helpers.

func mustSchedule(t *testing.T, s Spec, f *fleet.Fleet, held []string, opts ScheduleOptions) Result {
	t.Helper()
	r, err := Schedule(s, f, held, now, opts)
	if err != nil {
		t.Fatalf("Schedule: %v", err)
	}
	return r
}

func decisionOf(t *testing.T, r Result, name string) Decision {
	t.Helper()
	for _, d := range r.Decisions {
		if d.ClusterName == name {
			return d
		}
	}
	t.Fatalf("no decision for %s in %+v", name, r.Decisions)
	return Decision{}
}

func sameNames(got, want []string) bool {
	g := append([]string(nil), got...)
	w := append([]string(nil), want...)
	sort.Strings(g)
	sort.Strings(w)
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if g[i] != w[i] {
			return false
		}
	}
	return true
}
