package fleetgen

import "github.com/fleetform/terraform-provider-aks/internal/engine/selector"

// BenchFilter is the selector the benchmarks filter a generated fleet with:
// three expressions over the labels and properties Generate writes (prod
// and staging members with at least 5 nodes and more than 8 CPUs free),
// eligible members only.
var BenchFilter = selector.ClusterFilter{
	Labels: &selector.LabelSelector{MatchExpressions: []selector.LabelExpression{{Key: "env", Operator: selector.OpIn, Values: []string{"prod", "staging"}}}},
	Properties: &selector.PropertySelector{MatchExpressions: []selector.PropertyExpression{
		{Name: "kubernetes-fleet.io/node-count", Operator: selector.OpGe, Values: []string{"5"}},
		{Name: "resources.kubernetes-fleet.io/available-cpu", Operator: selector.OpGt, Values: []string{"8"}},
	}},
	EligibleOnly: true,
}
