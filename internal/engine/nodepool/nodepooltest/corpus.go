// Package nodepooltest is the NodePool engine's validation corpus: every
// NodePool its validation tests use, valid ones and one per broken rule, with
// the rules the engine reports for each. The engine's tests run it (so the
// corpus and the tests cannot drift), and so can any other test that needs
// NodePools whose verdict is known — e.g. one that sends them to a real API
// server with the AKS NodePool CRD to check that whatever the engine accepts,
// Kubernetes admits. No I/O.
package nodepooltest

import (
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

// Case is one NodePool of the engine's validation corpus.
type Case struct {
	Name string // unique, stable
	Pool nodepool.NodePool
	// Rules the engine reports for it (field.Error IDs or a short description); empty when the engine accepts it.
	Errors []string
}

// Cases returns every NodePool the engine's validation tests use: valid ones
// and one per broken rule. Errors holds field.Error IDs (nodepool.Rule…),
// one per error Validate returns, in its order. Each call returns fresh
// values that share nothing with earlier calls.
func Cases() []Case {
	out := []Case{
		{Name: "valid pool", Pool: ValidPool()},
		{Name: "rich pool: every attribute set", Pool: RichPool()},
	}
	for _, v := range validation {
		np := ValidPool()
		v.mutate(&np)
		c := Case{Name: v.name, Pool: np}
		if v.path != "" {
			c.Errors = []string{string(v.rule)}
		}
		out = append(out, c)
	}
	return out
}

// ErrorPath returns the attribute path (field.Path.String) at which the
// engine reports the error of the named case, or "" for a valid or unknown
// case.
func ErrorPath(name string) string {
	for _, v := range validation {
		if v.name == name {
			return v.path
		}
	}
	return ""
}

// ValidPool is the NodePool every case starts from: the smallest pool the
// engine accepts, with three requirements (an AKS SKU family, an
// architecture and a capacity type) that cases change by index.
func ValidPool() nodepool.NodePool {
	return nodepool.NodePool{
		Template: nodepool.Template{
			NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"},
			Requirements: []nodepool.Requirement{
				{Key: "karpenter.azure.com/sku-family", Operator: "In", Values: []string{"D"}},
				{Key: "kubernetes.io/arch", Operator: "In", Values: []string{"amd64"}},
				{Key: "karpenter.sh/capacity-type", Operator: "In", Values: []string{"on-demand"}},
			},
		},
		Disruption: &nodepool.Disruption{ConsolidateAfter: sp("30s")},
	}
}

// RichPool is a valid NodePool that sets every attribute.
func RichPool() nodepool.NodePool {
	np := ValidPool()
	np.Weight = wp(10)
	np.Limits = map[string]string{"cpu": "1000", "memory": "1000Gi", "nodes": "50", "ephemeral": "1.5e3", "m": "500m"}
	np.Template.Labels = map[string]string{"team": "payments", "example.com/tier": "", nodepool.LabelCapacityType: "spot", "kubernetes.azure.com/mode": "user"}
	np.Template.Annotations = map[string]string{"anything/goes": "here"}
	np.Template.Taints = []nodepool.Taint{{Key: "example.com/dedicated", Value: sp("gpu"), Effect: "NoSchedule"}}
	np.Template.StartupTaints = []nodepool.Taint{{Key: "example.com/dedicated", Effect: "NoExecute"}}
	np.Template.ExpireAfter = sp("Never")
	np.Template.TerminationGracePeriod = sp("1h30m")
	np.Template.Requirements = append(np.Template.Requirements,
		nodepool.Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gte", Values: []string{"4"}},
		nodepool.Requirement{Key: "karpenter.azure.com/sku-family", Operator: "In", Values: []string{"D", "E"}, MinValues: ip(2)},
		nodepool.Requirement{Key: "kubernetes.azure.com/os-sku", Operator: "NotIn", Values: []string{"Ubuntu"}},
		nodepool.Requirement{Key: "karpenter.azure.com/placement-scope", Operator: "In", Values: []string{"zonal"}},
		nodepool.Requirement{Key: "topology.kubernetes.io/zone", Operator: "Exists"},
	)
	np.Disruption.ConsolidationPolicy = sp("WhenEmpty")
	np.Disruption.Budgets = []nodepool.Budget{
		{Reasons: []string{"Drifted", "Empty"}},
		// The AKS NAP documentation's daily window: 20%, 5, and 0 on @daily for 10m.
		budget("20%"), budget("5"), scheduled("0", "@daily", "10m"),
		// Its business hours: 10%, and 0 on weekdays from 09:00 for 8h.
		budget("10%"), scheduled("0", "0 9 * * 1-5", "8h"),
	}
	return np
}

func sp(s string) *string { return &s }
func ip(i int) *int       { return &i }
func wp(i int32) *int32   { return &i }

func budget(nodes string) nodepool.Budget { return nodepool.Budget{Nodes: sp(nodes)} }

func scheduled(nodes, schedule, duration string, reasons ...string) nodepool.Budget {
	return nodepool.Budget{Nodes: sp(nodes), Schedule: sp(schedule), Duration: sp(duration), Reasons: reasons}
}

func withReasons(b nodepool.Budget, reasons ...string) nodepool.Budget {
	if reasons == nil {
		reasons = []string{}
	}
	b.Reasons = reasons
	return b
}
