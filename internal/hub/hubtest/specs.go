package hubtest

import (
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

// The specifications the suite applies. Each is valid for any fleet of two
// or more members: cluster names and update groups come from the fleet,
// labels are the ones every member carries.

type placementCase struct {
	name string
	spec placement.Spec
}

func placementCases(f *fleet.Fleet) []placementCase {
	a, b := f.Clusters[0].Name, f.Clusters[1].Name
	namespace := []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "hubtest"}}
	return []placementCase{
		{"PickAll with the defaults left to the hub", placement.Spec{ResourceSelectors: namespace}},
		{"PickN with affinity, topology spread and tolerations", placement.Spec{
			ResourceSelectors: namespace,
			Policy: placement.Policy{
				PlacementType:    placement.PickN,
				NumberOfClusters: new(2),
				Affinity: &placement.Affinity{
					Required: []placement.ClusterSelectorTerm{{LabelSelector: &selector.LabelSelector{
						MatchExpressions: []selector.LabelExpression{{Key: fleet.LabelLocation, Operator: selector.OpExists}},
					}}},
					Preferred: []placement.PreferredTerm{{Weight: 50, Preference: placement.ClusterSelectorTerm{
						LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{fleet.LabelMemberName: a}},
					}}},
				},
				TopologySpreadConstraints: []placement.TopologySpreadConstraint{{TopologyKey: fleet.LabelLocation, WhenUnsatisfiable: placement.ScheduleAnyway}},
				Tolerations:               []placement.Toleration{{Key: "dedicated", Operator: placement.TolerationOpExists}},
			},
			Strategy:             placement.Strategy{Type: placement.RollingUpdateStrategy, RollingUpdate: &placement.RollingUpdate{MaxUnavailable: new("1")}},
			RevisionHistoryLimit: new(5),
		}},
		{"PickFixed of two members", placement.Spec{
			ResourceSelectors: namespace,
			Policy:            placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{a, b}},
		}},
	}
}

// placementVariants are two different placements for the object contract,
// of one placement type: Fleet's CRD refuses to change a placement's type
// (the provider replaces the placement instead).
func placementVariants(f *fleet.Fleet) [2]placement.Spec {
	c := placementCases(f)
	other := c[1].spec
	n := 1
	other.Policy.NumberOfClusters = &n
	limit := 3
	other.RevisionHistoryLimit = &limit
	return [2]placement.Spec{c[1].spec, other}
}

type nodePoolCase struct {
	name string
	spec nodepool.NodePool
}

var aksNodeClass = nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}

func nodePoolCases() []nodePoolCase {
	return []nodePoolCase{
		{"the defaults left to the hub", nodepool.NodePool{Template: nodepool.Template{NodeClassRef: aksNodeClass}}},
		{"every field", nodepool.NodePool{
			Weight: new(int32(10)),
			Limits: map[string]string{"cpu": "100", "memory": "400Gi"},
			Template: nodepool.Template{
				Labels:       map[string]string{"team": "hubtest"},
				Annotations:  map[string]string{"example.com/owner": "hubtest"},
				NodeClassRef: aksNodeClass,
				Requirements: []nodepool.Requirement{
					{Key: "karpenter.azure.com/sku-family", Operator: nodepool.OperatorIn, Values: []string{"D"}},
					{Key: "karpenter.sh/capacity-type", Operator: nodepool.OperatorIn, Values: []string{"on-demand", "spot"}, MinValues: new(1)},
				},
				Taints:                 []nodepool.Taint{{Key: "example.com/dedicated", Value: new("hubtest"), Effect: nodepool.TaintEffectNoSchedule}},
				StartupTaints:          []nodepool.Taint{{Key: "example.com/warming", Effect: nodepool.TaintEffectNoExecute}},
				ExpireAfter:            new("336h"),
				TerminationGracePeriod: new("1h"),
			},
			Disruption: &nodepool.Disruption{
				ConsolidationPolicy: new(nodepool.ConsolidationPolicyWhenEmpty),
				ConsolidateAfter:    new("5m"),
				Budgets: []nodepool.Budget{
					{Nodes: new("20%")},
					{Nodes: new("0"), Schedule: new("0 9 * * mon-fri"), Duration: new("8h"), Reasons: []string{string(nodepool.Drifted)}},
				},
			},
		}},
	}
}

// nodePoolVariants are two different NodePools for the object contract.
func nodePoolVariants() [2]nodepool.NodePool {
	c := nodePoolCases()
	return [2]nodepool.NodePool{c[0].spec, c[1].spec}
}

// strategy is a one-stage strategy updating group.
func strategy(group, maxConcurrency string) update.Strategy {
	return update.Strategy{Stages: []update.Stage{{
		Name:                    "hubtest",
		Groups:                  []update.Group{{Name: group, MaxConcurrency: maxConcurrency}},
		AfterStageWaitInSeconds: update.WaitSeconds(60),
	}}}
}

// runSpec is a node-image update of group with an inline strategy.
func runSpec(group, nodeImage string) update.RunSpec {
	s := strategy(group, "")
	return update.RunSpec{Strategy: &s, ManagedClusterUpdate: update.ManagedClusterUpdate{
		Upgrade:            update.Upgrade{Type: update.UpgradeNodeImageOnly},
		NodeImageSelection: update.NodeImageSelection{Type: nodeImage},
	}}
}
