package nodepool

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func driftPool() NodePool {
	np := validPool()
	np.Template.Requirements = []Requirement{
		{Key: "karpenter.azure.com/sku-family", Operator: "In", Values: []string{"D", "E"}},
		{Key: "karpenter.sh/capacity-type", Operator: "In", Values: []string{"on-demand", "spot"}},
	}
	np.Template.Labels = map[string]string{"team": "payments"}
	np.Template.Taints = []Taint{{Key: "a", Effect: "NoSchedule"}, {Key: "b", Value: sp("x"), Effect: "NoExecute"}}
	return np
}

func driftNodes() []Node {
	mk := func(name, family, capacity, cpu string) Node {
		l := map[string]string{"karpenter.azure.com/sku-family": family, "karpenter.sh/capacity-type": capacity, "team": "payments"}
		if cpu != "" {
			l["karpenter.azure.com/sku-cpu"] = cpu
		}
		return Node{Name: name, Labels: l, Ready: true}
	}
	return []Node{mk("d1", "D", "on-demand", "2"), mk("e1", "E", "spot", "8"), mk("e2", "E", "on-demand", "")}
}

func TestDrift(t *testing.T) {
	tests := []struct {
		name        string
		change      func(*NodePool)
		wantDrifted []string // node names
		wantReason  string   // a reason every drifted node has
		behaviour   []string
	}{
		{"no change", func(*NodePool) {}, nil, "", nil},
		{"label change drifts every node", func(np *NodePool) { np.Template.Labels["team"] = "billing" }, []string{"d1", "e1", "e2"}, "template.labels", nil},
		{"annotation added drifts every node", func(np *NodePool) { np.Template.Annotations = map[string]string{"x": "y"} }, []string{"d1", "e1", "e2"}, "template.annotations", nil},
		{"taint added drifts every node", func(np *NodePool) {
			np.Template.Taints = append(np.Template.Taints, Taint{Key: "c", Effect: "NoSchedule"})
		}, []string{"d1", "e1", "e2"}, "template.taints", nil},
		{"taint reorder drifts none", func(np *NodePool) {
			np.Template.Taints[0], np.Template.Taints[1] = np.Template.Taints[1], np.Template.Taints[0]
		}, nil, "", nil},
		{"startup taint drifts every node", func(np *NodePool) { np.Template.StartupTaints = []Taint{{Key: "s", Effect: "NoSchedule"}} }, []string{"d1", "e1", "e2"}, "template.startup_taints", nil},
		{"node class drifts every node", func(np *NodePool) { np.Template.NodeClassRef.Name = "gpu" }, []string{"d1", "e1", "e2"}, "template.node_class_ref", nil},
		{"expireAfter change drifts every node", func(np *NodePool) { np.Template.ExpireAfter = sp("168h") }, []string{"d1", "e1", "e2"}, "template.expire_after", nil},
		{"explicit default expireAfter drifts none", func(np *NodePool) { np.Template.ExpireAfter = sp("720h") }, nil, "", nil},
		{"equivalent expireAfter drifts none", func(np *NodePool) { np.Template.ExpireAfter = sp("43200m") }, nil, "", nil},
		{"terminationGracePeriod drifts every node", func(np *NodePool) { np.Template.TerminationGracePeriod = sp("1h") }, []string{"d1", "e1", "e2"}, "template.termination_grace_period", nil},
		// NodePool.Hash uses hashstructure's IgnoreZeroValue, which skips a
		// nil pointer but hashes a set "0s": unset → 0s is a change.
		{"terminationGracePeriod unset to 0s drifts every node", func(np *NodePool) { np.Template.TerminationGracePeriod = sp("0s") }, []string{"d1", "e1", "e2"}, "template.termination_grace_period", nil},
		{"widening In drifts none", func(np *NodePool) { np.Template.Requirements[0].Values = []string{"D", "E", "F"} }, nil, "", nil},
		{"narrowing In drifts only excluded nodes", func(np *NodePool) { np.Template.Requirements[0].Values = []string{"D"} }, []string{"e1", "e2"},
			"requirement karpenter.azure.com/sku-family In [D] excludes value E", nil},
		{"NotIn excludes", func(np *NodePool) {
			np.Template.Requirements = append(np.Template.Requirements, Requirement{Key: "karpenter.sh/capacity-type", Operator: "NotIn", Values: []string{"spot"}})
		}, []string{"e1"}, "requirement karpenter.sh/capacity-type NotIn [spot] excludes value spot", nil},
		{"Gt excludes smaller and missing", func(np *NodePool) {
			np.Template.Requirements = append(np.Template.Requirements, Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gt", Values: []string{"4"}})
		}, []string{"d1", "e2"}, "requirement karpenter.azure.com/sku-cpu Gt [4]", nil},
		{"Gte includes the bound", func(np *NodePool) {
			np.Template.Requirements = append(np.Template.Requirements, Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gte", Values: []string{"8"}})
		}, []string{"d1", "e2"}, "karpenter.azure.com/sku-cpu", nil},
		{"Exists needs the label", func(np *NodePool) {
			np.Template.Requirements = append(np.Template.Requirements, Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Exists"})
		}, []string{"e2"}, "requirement karpenter.azure.com/sku-cpu Exists requires label karpenter.azure.com/sku-cpu, which the node does not have", nil},
		{"DoesNotExist excludes nodes with the label", func(np *NodePool) {
			np.Template.Requirements = append(np.Template.Requirements, Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "DoesNotExist"})
		}, []string{"d1", "e1"}, "requirement karpenter.azure.com/sku-cpu DoesNotExist excludes value", nil},
		{"NotIn accepts nodes without the label", func(np *NodePool) {
			np.Template.Requirements = append(np.Template.Requirements, Requirement{Key: "karpenter.azure.com/sku-gpu-name", Operator: "NotIn", Values: []string{"A100"}})
		}, nil, "", nil},
		{"In on a label no node has drifts all", func(np *NodePool) {
			np.Template.Requirements = append(np.Template.Requirements, Requirement{Key: "karpenter.azure.com/sku-gpu-name", Operator: "In", Values: []string{"A100"}})
		}, []string{"d1", "e1", "e2"}, "requires label karpenter.azure.com/sku-gpu-name", nil},
		{"weight never drifts", func(np *NodePool) { np.Weight = wp(50) }, nil, "", []string{"weight"}},
		{"limits never drift", func(np *NodePool) { np.Limits = map[string]string{"cpu": "10"} }, nil, "", []string{"limits"}},
		{"budgets never drift", func(np *NodePool) { np.Disruption.Budgets = seedBusinessHours }, nil, "", []string{"disruption.budgets"}},
		{"disruption policy never drifts", func(np *NodePool) {
			np.Disruption.ConsolidationPolicy = sp("WhenEmpty")
			np.Disruption.ConsolidateAfter = sp("Never")
		}, nil, "", []string{"disruption.consolidation_policy", "disruption.consolidate_after"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after := driftPool()
			tt.change(&after)
			res := Drift(driftPool(), after, driftNodes())
			var got []string
			for _, n := range res.Nodes {
				if n.Drifted {
					got = append(got, n.Node.Name)
					found := false
					for _, r := range n.Reasons {
						found = found || strings.Contains(r, tt.wantReason)
					}
					if !found {
						t.Errorf("%s: reasons %q lack %q", n.Node.Name, n.Reasons, tt.wantReason)
					}
				} else if len(n.Reasons) > 0 {
					t.Errorf("%s: not drifted but has reasons %q", n.Node.Name, n.Reasons)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.wantDrifted, ",") || res.Drifted != len(tt.wantDrifted) || res.Total != 3 {
				t.Errorf("drifted %v (%d/%d), want %v\n%s", got, res.Drifted, res.Total, tt.wantDrifted, res.Summary)
			}
			if strings.Join(res.BehaviourFields, ",") != strings.Join(tt.behaviour, ",") {
				t.Errorf("behaviour fields %v, want %v", res.BehaviourFields, tt.behaviour)
			}
			if !strings.HasPrefix(res.Summary, fmt.Sprintf("%d of 3 node(s) drift", len(tt.wantDrifted))) {
				t.Errorf("summary %q", res.Summary)
			}
		})
	}
}

func TestIncompatibilitiesKarpenterSemantics(t *testing.T) {
	labels := map[string]string{"beta.kubernetes.io/arch": "arm64", "example.com/x": "a"}
	tests := []struct {
		name string
		reqs []Requirement
		want int
	}{
		{"beta keys are normalized", []Requirement{{Key: "kubernetes.io/arch", Operator: "In", Values: []string{"amd64"}}}, 1},
		{"normalized match", []Requirement{{Key: "kubernetes.io/arch", Operator: "In", Values: []string{"arm64"}}}, 0},
		{"requirements on one key intersect", []Requirement{
			{Key: "example.com/x", Operator: "In", Values: []string{"a", "b"}},
			{Key: "example.com/x", Operator: "NotIn", Values: []string{"a"}},
		}, 1},
		// Exists + NotIn intersect to NotIn, which a node without the label
		// satisfies (Karpenter's Compatible).
		{"Exists and NotIn on a missing key", []Requirement{
			{Key: "example.com/y", Operator: "Exists"},
			{Key: "example.com/y", Operator: "NotIn", Values: []string{"z"}},
		}, 0},
		{"Gt on a non-integer value", []Requirement{{Key: "example.com/x", Operator: "Gt", Values: []string{"1"}}}, 1},
		{"Gt and Lt that cannot both hold", []Requirement{
			{Key: "example.com/n", Operator: "Gt", Values: []string{"5"}},
			{Key: "example.com/n", Operator: "Lt", Values: []string{"3"}},
		}, 0}, // intersects to DoesNotExist, which a missing label satisfies
	}
	for _, tt := range tests {
		if got := Incompatibilities(labels, tt.reqs); len(got) != tt.want {
			t.Errorf("%s: %v", tt.name, got)
		}
	}
}

func TestReplacementEstimate(t *testing.T) {
	mon10 := monday.Add(10 * time.Hour)
	tests := []struct {
		name        string
		drifted     int
		budgets     []Budget
		total       int
		disrupting  int
		now         time.Time
		perPass     int
		passes      int
		blockedNow  bool
		blocked     bool
		startsAt    time.Time
		msgContains string
	}{
		{"default 10% of 20", 5, DefaultBudgets(), 20, 0, mon10, 2, 3, false, false, mon10, "2 per pass (budget #1), 3 pass(es), starting now"},
		{"blocked during business hours", 5, seedBusinessHours, 20, 0, mon10, 2, 3, true, false, monday.Add(17 * time.Hour), "starting Mon 2024-01-01 17:00 UTC"},
		{"unlimited", 5, []Budget{}, 20, 0, mon10, 5, 1, false, false, mon10, "all at once"},
		{"fewer drifted than allowed", 1, seedDailyWindow, 30, 0, mon10, 1, 1, false, false, mon10, "1 per pass"},
		{"always blocked", 3, []Budget{withReasons(budget("0"), "Drifted"), budget("50%")}, 20, 0, mon10, 0, 0, true, true, time.Time{}, "cannot be replaced within the next 7 days"},
		{"nothing drifted", 0, seedBusinessHours, 20, 0, mon10, 0, 0, false, false, time.Time{}, "no drifted node"},
		// Karpenter subtracts the nodes already disrupting from every
		// allowance (disruption/helpers.go BuildDisruptionBudgetMapping):
		// 10 nodes, budget 5, 3 disrupting leave 2 per pass.
		{"net of nodes disrupting", 3, []Budget{budget("5")}, 10, 3, mon10, 2, 2, false, false, mon10, "2 per pass (budget #1), 2 pass(es), starting now"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ReplacementEstimate(tt.drifted, tt.budgets, tt.total, tt.disrupting, tt.now)
			if r.PerPass != tt.perPass || r.Passes != tt.passes || r.BlockedNow != tt.blockedNow || r.Blocked != tt.blocked || !r.StartsAt.Equal(tt.startsAt) {
				t.Errorf("got %+v", r)
			}
			if !strings.Contains(r.Message, tt.msgContains) {
				t.Errorf("message %q lacks %q", r.Message, tt.msgContains)
			}
		})
	}
}
