package placement

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

func validPickN() Spec {
	s := spec(pickN(3))
	s.Policy.Affinity = &Affinity{
		Required:  []ClusterSelectorTerm{{LabelSelector: matchLabels("env", "prod"), PropertySelector: propSel("kubernetes-fleet.io/node-count", selector.OpGe, "5")}},
		Preferred: []PreferredTerm{preferLabels(20, "tier", "gold"), preferSorted(-50, "resources.kubernetes-fleet.io/available-cpu", Descending)},
	}
	s.Policy.TopologySpreadConstraints = []TopologySpreadConstraint{{TopologyKey: "fleet.azure.com/location"}}
	s.Policy.Tolerations = []Toleration{{Key: "dedicated", Value: "gpu"}, {Key: "spot", Operator: TolerationOpExists, Effect: TaintEffectNoSchedule}}
	s.Strategy = Strategy{RollingUpdate: &RollingUpdate{MaxUnavailable: strPtr("1"), MaxSurge: strPtr("100%"), UnavailablePeriodSeconds: intPtr(0)}}
	return s
}

func paths(errs field.Errors) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Path.String())
	}
	return out
}

// validSpecs are specs that Validate accepts, one of each placement type.
func validSpecs() map[string]Spec {
	return map[string]Spec{
		"pickN":     validPickN(),
		"pickN 0":   spec(pickN(0)),
		"pickAll":   spec(Policy{Affinity: &Affinity{Required: []ClusterSelectorTerm{{}}}, Tolerations: []Toleration{{Operator: TolerationOpExists}}}),
		"pickFixed": spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"member-1", "member-2"}}),
		// Fleet admits PickFixed without names: the CRD sets no minItems and the
		// webhook checks only DNS names and uniqueness (kubefleet
		// pkg/utils/validator validatePolicyForPickFixedPlacementType, the
		// release of internal/emulator/kubetest/crds, whose CEL rules took over the rest); the
		// scheduler then skips the cycle (framework.go
		// runSchedulingCycleForPickFixedPlacementType). A warning says so (issue 9 item 5).
		"pickFixed without names": spec(Policy{PlacementType: PickFixed}),
		// Fleet's webhook checks a property name segment by segment
		// (pkg/utils/validator validateName): a property the fleet model itself
		// defines, and an upper-case resource name, are admitted (issue 9 item 3).
		"pickN on vm-size counts and total-CPU": func() Spec {
			s := spec(pickN(1))
			s.Policy.Affinity = &Affinity{
				Required:  []ClusterSelectorTerm{{PropertySelector: propSel("kubernetes.azure.com/vm-sizes/Standard_D4s_v3/count", selector.OpGe, "1")}},
				Preferred: []PreferredTerm{preferSorted(10, "resources.kubernetes-fleet.io/total-CPU", Descending)},
			}
			return s
		}(),
		"external": {Name: "crp", ResourceSelectors: []ResourceSelector{{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole", LabelSelector: matchLabels("app", "x")}}, Strategy: Strategy{Type: ExternalStrategy}},
	}
}

func TestValidateAcceptsValidSpecs(t *testing.T) {
	for name, s := range validSpecs() {
		if errs := Validate(s); len(errs) != 0 {
			t.Errorf("%s: %v", name, errs)
		}
	}
}

// ruleCases break one rule each of validPickN.
var ruleCases = []struct {
	name   string
	mutate func(s *Spec)
	path   string
	rule   string // substring of the rule
}{
	// name
	{"name required", func(s *Spec) { s.Name = "" }, "name", "required"},
	{"name DNS-1035", func(s *Spec) { s.Name = "1crp" }, "name", "DNS-1035"},
	{"name too long", func(s *Spec) { s.Name = strings.Repeat("a", 64) }, "name", "DNS-1035"},
	// resource selectors
	{"no resource selectors", func(s *Spec) { s.ResourceSelectors = nil }, "resource_selectors", "between 1 and 100"},
	{"too many resource selectors", func(s *Spec) {
		for i := 0; i < 100; i++ {
			s.ResourceSelectors = append(s.ResourceSelectors, ResourceSelector{Version: "v1", Kind: "Namespace"})
		}
	}, "resource_selectors", "between 1 and 100"},
	{"kind required", func(s *Spec) { s.ResourceSelectors[0].Kind = "" }, "resource_selectors[0].kind", "required"},
	{"version required", func(s *Spec) { s.ResourceSelectors[0].Version = "" }, "resource_selectors[0].version", "required"},
	{"name and label selector exclusive", func(s *Spec) { s.ResourceSelectors[0].LabelSelector = matchLabels("a", "b") }, "resource_selectors[0].label_selector", "mutually exclusive"},
	{"resource label selector validated", func(s *Spec) {
		s.ResourceSelectors[0] = ResourceSelector{Version: "v1", Kind: "Namespace", LabelSelector: &selector.LabelSelector{MatchExpressions: []selector.LabelExpression{{Key: "a", Operator: "Bad"}}}}
	}, "resource_selectors[0].label_selector.match_expressions[0].operator", "not a label selector operator"},
	// placement type
	{"unknown placement type", func(s *Spec) { s.Policy.PlacementType = "PickSome" }, "policy.placement_type", "not a placement type"},
	// PickN
	{"pickN needs number", func(s *Spec) { s.Policy.NumberOfClusters = nil }, "policy.number_of_clusters", "required"},
	{"pickN number negative", func(s *Spec) { s.Policy.NumberOfClusters = intPtr(-1) }, "policy.number_of_clusters", "between 0 and 2147483647"},
	// Fleet's numberOfClusters is an int32 (CRD: format int32, minimum 0;
	// apis/placement/v1 PlacementPolicy.NumberOfClusters *int32): the API
	// server rejects a larger number (issue 9 item 12).
	{"pickN number beyond int32", func(s *Spec) { s.Policy.NumberOfClusters = intPtr(1 << 31) }, "policy.number_of_clusters",
		"number_of_clusters must be between 0 and 2147483647 (numberOfClusters is a 32-bit integer in Fleet's API), got 2147483648"},
	{"pickN no cluster names", func(s *Spec) { s.Policy.ClusterNames = []string{"a"} }, "policy.cluster_names", "cannot be set"},
	// PickAll
	{"pickAll no number", func(s *Spec) {
		s.Policy.PlacementType = PickAll
		s.Policy.Affinity.Preferred = nil
		s.Policy.TopologySpreadConstraints = nil
	}, "policy.number_of_clusters", "cannot be set"},
	{"pickAll no preferred", func(s *Spec) {
		s.Policy.PlacementType, s.Policy.NumberOfClusters, s.Policy.TopologySpreadConstraints = PickAll, nil, nil
	}, "policy.affinity.preferred", "ignored for PickAll"},
	{"pickAll no topology", func(s *Spec) {
		s.Policy.PlacementType, s.Policy.NumberOfClusters, s.Policy.Affinity = PickAll, nil, nil
	}, "policy.topology_spread_constraints", "cannot be set"},
	{"pickAll no cluster names", func(s *Spec) { *s = spec(Policy{ClusterNames: []string{"a"}}) }, "policy.cluster_names", "cannot be set"},
	// PickFixed
	{"pickFixed too many names", func(s *Spec) {
		*s = spec(Policy{PlacementType: PickFixed})
		for i := 0; i < 101; i++ {
			s.Policy.ClusterNames = append(s.Policy.ClusterNames, "c"+strings.Repeat("x", i%50)+string(rune('a'+i%26))+string(rune('a'+i/26)))
		}
	}, "policy.cluster_names", "at most 100 cluster names, got 101"},
	// Fleet's webhook admits a dotted name (IsDNS1123Subdomain, pkg/utils/validator
	// validatePolicyForPickFixedPlacementType), but the scheduler names each
	// binding <placement>-<cluster>-<suffix> and requires a DNS label
	// (pkg/scheduler/framework/uniquename NewBindingName), so every cycle that
	// binds the cluster fails: rejected, and the message says why (issue 9 item 5).
	{"pickFixed dotted name", func(s *Spec) { *s = spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"member.eastus"}}) }, "policy.cluster_names[0]",
		`"member.eastus" is not a valid cluster name: Fleet admits a dotted name, but its scheduler names the cluster's binding after it as a DNS label, so every scheduling cycle that places on this cluster fails`},
	{"pickFixed name DNS-1123", func(s *Spec) { *s = spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"Bad_Name"}}) }, "policy.cluster_names[0]", "not a valid cluster name"},
	{"pickFixed name too long", func(s *Spec) {
		*s = spec(Policy{PlacementType: PickFixed, ClusterNames: []string{strings.Repeat("a", 64)}})
	}, "policy.cluster_names[0]", "not a valid cluster name"},
	{"pickFixed unique", func(s *Spec) { *s = spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"a", "a"}}) }, "policy.cluster_names[1]", "already listed"},
	{"pickFixed no affinity", func(s *Spec) {
		*s = spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"a"}, Affinity: &Affinity{}})
	}, "policy.affinity", "cannot be set"},
	{"pickFixed no number", func(s *Spec) {
		*s = spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"a"}, NumberOfClusters: intPtr(1)})
	}, "policy.number_of_clusters", "cannot be set"},
	{"pickFixed no topology", func(s *Spec) {
		*s = spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"a"}, TopologySpreadConstraints: []TopologySpreadConstraint{{TopologyKey: "r"}}})
	}, "policy.topology_spread_constraints", "cannot be set"},
	{"pickFixed no tolerations", func(s *Spec) {
		*s = spec(Policy{PlacementType: PickFixed, ClusterNames: []string{"a"}, Tolerations: []Toleration{{Operator: TolerationOpExists}}})
	}, "policy.tolerations", "cannot be set"},
	// required terms
	{"at most 10 required terms", func(s *Spec) {
		s.Policy.Affinity.Required = make([]ClusterSelectorTerm, 11)
	}, "policy.affinity.required", "at most 10"},
	{"required term has no sorter", func(s *Spec) {
		s.Policy.Affinity.Required[0].PropertySorter = &PropertySorter{Name: "kubernetes-fleet.io/node-count", SortOrder: Ascending}
	}, "policy.affinity.required[0].property_sorter", "cannot have a property_sorter"},
	{"required label selector validated", func(s *Spec) {
		s.Policy.Affinity.Required[0].LabelSelector = &selector.LabelSelector{MatchExpressions: []selector.LabelExpression{{Key: "env", Operator: "Equals", Values: []string{"x"}}}}
	}, "policy.affinity.required[0].label_selector.match_expressions[0].operator", "not a label selector operator"},
	{"property operator", func(s *Spec) {
		s.Policy.Affinity.Required[0].PropertySelector = propSel("kubernetes-fleet.io/node-count", "Gte", "5")
	}, "policy.affinity.required[0].property_selector.match_expressions[0].operator", "not a property selector operator"},
	{"property exactly one value", func(s *Spec) {
		s.Policy.Affinity.Required[0].PropertySelector.MatchExpressions[0].Values = []string{"1", "2"}
	}, "policy.affinity.required[0].property_selector.match_expressions[0].values", "exactly one value"},
	{"property value is a quantity", func(s *Spec) {
		s.Policy.Affinity.Required[0].PropertySelector = propSel("kubernetes-fleet.io/node-count", selector.OpGe, "five")
	}, "policy.affinity.required[0].property_selector.match_expressions[0].values[0]", "not a quantity"},
	{"resource property name", func(s *Spec) {
		s.Policy.Affinity.Required[0].PropertySelector = propSel("resources.kubernetes-fleet.io/free-cpu", selector.OpGe, "1")
	}, "policy.affinity.required[0].property_selector.match_expressions[0].name", "not a valid resource property name"},
	{"property contradiction", func(s *Spec) {
		s.Policy.Affinity.Required[0].PropertySelector.MatchExpressions = []selector.PropertyExpression{
			{Name: "p", Operator: selector.OpGt, Values: []string{"5"}}, {Name: "p", Operator: selector.OpLt, Values: []string{"5"}}}
	}, "policy.affinity.required[0].property_selector.match_expressions[1]", "empty range"},
	// preferred terms
	{"weight too high", func(s *Spec) { s.Policy.Affinity.Preferred[0].Weight = 101 }, "policy.affinity.preferred[0].weight", "between -100 and 100"},
	{"weight too low", func(s *Spec) { s.Policy.Affinity.Preferred[0].Weight = -101 }, "policy.affinity.preferred[0].weight", "between -100 and 100"},
	{"preferred has no property selector", func(s *Spec) {
		s.Policy.Affinity.Preferred[0].Preference.PropertySelector = propSel("p", selector.OpGe, "1")
	}, "policy.affinity.preferred[0].preference.property_selector", "cannot have a property_selector"},
	{"sort order", func(s *Spec) { s.Policy.Affinity.Preferred[1].Preference.PropertySorter.SortOrder = "Desc" }, "policy.affinity.preferred[1].preference.property_sorter.sort_order", "not a sort order"},
	{"sorter resource name", func(s *Spec) {
		s.Policy.Affinity.Preferred[1].Preference.PropertySorter.Name = "resources.kubernetes-fleet.io/cpu"
	}, "policy.affinity.preferred[1].preference.property_sorter.name", "not a valid resource property name"},
	{"preferred label selector validated", func(s *Spec) {
		s.Policy.Affinity.Preferred[0].Preference.LabelSelector = matchLabels("bad key!", "x")
	}, `policy.affinity.preferred[0].preference.label_selector.match_labels["bad key!"]`, "not a valid label key"},
	// tolerations
	{"toleration key qualified", func(s *Spec) { s.Policy.Tolerations[0].Key = "bad key" }, "policy.tolerations[0].key", "not a valid taint key"},
	{"toleration exists has no value", func(s *Spec) { s.Policy.Tolerations[1].Value = "x" }, "policy.tolerations[1].value", "takes no value"},
	{"toleration equal needs key", func(s *Spec) { s.Policy.Tolerations[0].Key = "" }, "policy.tolerations[0].key", "needs a key"},
	{"toleration equal value is a label value", func(s *Spec) { s.Policy.Tolerations[0].Value = "not ok!" }, "policy.tolerations[0].value", "not a valid taint value"},
	{"toleration operator", func(s *Spec) { s.Policy.Tolerations[0].Operator = "In" }, "policy.tolerations[0].operator", "not a toleration operator"},
	{"toleration effect", func(s *Spec) { s.Policy.Tolerations[0].Effect = "NoExecute" }, "policy.tolerations[0].effect", "not a taint effect"},
	{"tolerations unique", func(s *Spec) {
		s.Policy.Tolerations = append(s.Policy.Tolerations, Toleration{Key: "dedicated", Value: "gpu", Operator: TolerationOpEqual})
	}, "policy.tolerations[2]", "already listed"},
	{"at most 100 tolerations", func(s *Spec) {
		s.Policy.Tolerations = nil
		for i := 0; i < 101; i++ {
			s.Policy.Tolerations = append(s.Policy.Tolerations, Toleration{Key: "k", Value: "v" + strconv.Itoa(i)})
		}
	}, "policy.tolerations", "at most 100"},
	// topology spread
	{"max skew at least 1", func(s *Spec) { s.Policy.TopologySpreadConstraints[0].MaxSkew = intPtr(0) }, "policy.topology_spread_constraints[0].max_skew", "between 1 and 2147483647"},
	// maxSkew is an int32 in Fleet's API (CRD: format int32, minimum 1).
	{"max skew beyond int32", func(s *Spec) { s.Policy.TopologySpreadConstraints[0].MaxSkew = intPtr(1 << 31) }, "policy.topology_spread_constraints[0].max_skew", "between 1 and 2147483647"},
	{"topology key required", func(s *Spec) { s.Policy.TopologySpreadConstraints[0].TopologyKey = "" }, "policy.topology_spread_constraints[0].topology_key", "required"},
	{"when unsatisfiable", func(s *Spec) { s.Policy.TopologySpreadConstraints[0].WhenUnsatisfiable = "Never" }, "policy.topology_spread_constraints[0].when_unsatisfiable", "not a whenUnsatisfiable value"},
	// strategy
	{"strategy type", func(s *Spec) { s.Strategy.Type = "BlueGreen" }, "strategy.type", "not a rollout strategy type"},
	{"rolling update with external", func(s *Spec) { s.Strategy.Type = ExternalStrategy }, "strategy.rolling_update", "cannot be set with type External"},
	{"max unavailable pattern", func(s *Spec) { s.Strategy.RollingUpdate.MaxUnavailable = strPtr("101%") }, "strategy.rolling_update.max_unavailable", "not an integer or a percentage"},
	{"max unavailable negative", func(s *Spec) { s.Strategy.RollingUpdate.MaxUnavailable = strPtr("-1") }, "strategy.rolling_update.max_unavailable", "not an integer or a percentage"},
	{"max surge pattern", func(s *Spec) { s.Strategy.RollingUpdate.MaxSurge = strPtr("25 %") }, "strategy.rolling_update.max_surge", "not an integer or a percentage"},
	{"unavailable period", func(s *Spec) { s.Strategy.RollingUpdate.UnavailablePeriodSeconds = intPtr(-1) }, "strategy.rolling_update.unavailable_period_seconds", "at least 0"},
	{"revision history limit", func(s *Spec) { s.RevisionHistoryLimit = intPtr(0) }, "revision_history_limit", "between 1 and 1000"},
}

func TestValidateRules(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			s := validPickN()
			tc.mutate(&s)
			errs := Validate(s)
			if len(errs) != 1 || errs[0].Path.String() != tc.path || !strings.Contains(errs[0].Rule, tc.rule) {
				t.Fatalf("got %v (paths %v), want one error at %s containing %q", errs, paths(errs), tc.path, tc.rule)
			}
		})
	}
}

// updateCases change validPickN, allowed or not.
var updateCases = []struct {
	name   string
	mutate func(s *Spec)
	paths  []string
	rule   string
}{
	{"adding a toleration", func(s *Spec) { s.Policy.Tolerations = append(s.Policy.Tolerations, Toleration{Key: "new", Value: "x"}) }, nil, ""},
	{"reordering tolerations", func(s *Spec) {
		s.Policy.Tolerations = []Toleration{s.Policy.Tolerations[1], s.Policy.Tolerations[0]}
	}, nil, ""},
	{"spelling out the default operator", func(s *Spec) { s.Policy.Tolerations[0].Operator = TolerationOpEqual }, nil, ""},
	{"removing a toleration", func(s *Spec) { s.Policy.Tolerations = s.Policy.Tolerations[:1] }, []string{"policy.tolerations"},
		"toleration spot:NoSchedule (Exists) was removed: tolerations may only be added"},
	{"changing a toleration", func(s *Spec) { s.Policy.Tolerations[0].Value = "cpu" }, []string{"policy.tolerations[0]"},
		"toleration dedicated=gpu (Equal) was changed"},
	{"placement type is immutable", func(s *Spec) {
		*s = spec(Policy{Tolerations: s.Policy.Tolerations})
	}, []string{"policy.placement_type"}, "immutable: cannot change from PickN to PickAll"},
	{"the new spec is validated too", func(s *Spec) { s.Policy.NumberOfClusters = intPtr(-1) }, []string{"policy.number_of_clusters"}, "between 0 and"},
}

func TestValidateUpdate(t *testing.T) {
	old := validPickN()
	for _, tc := range updateCases {
		t.Run(tc.name, func(t *testing.T) {
			n := validPickN()
			tc.mutate(&n)
			errs := ValidateUpdate(old, n)
			got := paths(errs)
			if len(got) != len(tc.paths) {
				t.Fatalf("got %v, want paths %v", errs, tc.paths)
			}
			for i := range got {
				if got[i] != tc.paths[i] || !strings.Contains(errs[i].Rule, tc.rule) {
					t.Fatalf("got %v, want %v containing %q", errs, tc.paths, tc.rule)
				}
			}
		})
	}
}

func TestValidatePolicyAlone(t *testing.T) {
	n := 2
	if errs := ValidatePolicy(Policy{PlacementType: PickN, NumberOfClusters: &n}, Strategy{}); len(errs) != 0 {
		t.Fatalf("valid policy rejected: %v", errs)
	}
	errs := ValidatePolicy(Policy{PlacementType: PickN}, Strategy{Type: "Blue"})
	if len(errs) != 2 || errs[0].Path.String() != "policy.number_of_clusters" || errs[1].Path.String() != "strategy.type" {
		t.Fatalf("got %v", errs)
	}
}
