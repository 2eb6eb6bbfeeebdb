package nodepool

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// richPool is a valid NodePool that sets every attribute.
func richPool() NodePool {
	np := validPool()
	np.Weight = wp(10)
	np.Limits = map[string]string{"cpu": "1000", "memory": "1000Gi", "nodes": "50", "ephemeral": "1.5e3", "m": "500m"}
	np.Template.Labels = map[string]string{"team": "payments", "example.com/tier": "", LabelCapacityType: "spot", "kubernetes.azure.com/mode": "user"}
	np.Template.Annotations = map[string]string{"anything/goes": "here"}
	np.Template.Taints = []Taint{{Key: "example.com/dedicated", Value: "gpu", Effect: "NoSchedule"}}
	np.Template.StartupTaints = []Taint{{Key: "example.com/dedicated", Effect: "NoExecute"}}
	np.Template.ExpireAfter = sp("Never")
	np.Template.TerminationGracePeriod = sp("1h30m")
	np.Template.Requirements = append(np.Template.Requirements,
		Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gte", Values: []string{"4"}},
		Requirement{Key: "karpenter.azure.com/sku-family", Operator: "In", Values: []string{"D", "E"}, MinValues: ip(2)},
		Requirement{Key: "kubernetes.azure.com/os-sku", Operator: "NotIn", Values: []string{"Ubuntu"}},
		Requirement{Key: "karpenter.azure.com/placement-scope", Operator: "In", Values: []string{"zonal"}},
		Requirement{Key: "topology.kubernetes.io/zone", Operator: "Exists"},
	)
	np.Disruption.ConsolidationPolicy = sp("WhenEmpty")
	np.Disruption.Budgets = append([]Budget{{Reasons: []string{"Drifted", "Empty"}}}, append(seedDailyWindow, seedBusinessHours...)...)
	return np
}

func TestValidPoolHasNoErrors(t *testing.T) {
	if errs := Validate(richPool()); len(errs) > 0 {
		t.Fatalf("unexpected errors:\n%v", errs)
	}
}

// validateCases change validPool, each breaking one rule or none.
var validateCases = []struct {
	name   string
	mutate func(*NodePool)
	path   string // "" means valid
	rule   RuleID
}{
	// weight
	{"weight 0", func(np *NodePool) { np.Weight = wp(0) }, "weight", RuleWeightRange},
	{"weight 101", func(np *NodePool) { np.Weight = wp(101) }, "weight", RuleWeightRange},
	{"weight 1", func(np *NodePool) { np.Weight = wp(1) }, "", ""},
	{"weight 100", func(np *NodePool) { np.Weight = wp(100) }, "", ""},
	// limits
	{"limit not a quantity", func(np *NodePool) { np.Limits = map[string]string{"cpu": "lots"} }, `limits["cpu"]`, RuleLimitQuantity},
	{"limit fractional exponent", func(np *NodePool) { np.Limits = map[string]string{"cpu": "1e1.5"} }, `limits["cpu"]`, RuleLimitQuantity},
	{"limit K is not a suffix", func(np *NodePool) { np.Limits = map[string]string{"memory": "10K"} }, `limits["memory"]`, RuleLimitQuantity},
	{"limit empty name", func(np *NodePool) { np.Limits = map[string]string{"": "1"} }, `limits[""]`, RuleLimitName},
	{"limit lone dot (ParseQuantity accepts, CRD rejects)", func(np *NodePool) { np.Limits = map[string]string{"cpu": "."} }, `limits["cpu"]`, RuleLimitQuantity},
	{"limit trailing dot before suffix", func(np *NodePool) { np.Limits = map[string]string{"memory": "1.Gi"} }, "", ""},
	{"limit 64Gi", func(np *NodePool) { np.Limits = map[string]string{"memory": "64Gi"} }, "", ""},
	// labels
	{"label nodepool restricted", func(np *NodePool) { np.Template.Labels = map[string]string{"karpenter.sh/nodepool": "x"} }, `template.labels["karpenter.sh/nodepool"]`, RuleRestrictedLabel},
	{"label karpenter.sh domain", func(np *NodePool) { np.Template.Labels = map[string]string{"karpenter.sh/custom": "x"} }, `template.labels["karpenter.sh/custom"]`, RuleRestrictedLabel},
	{"label karpenter.sh subdomain", func(np *NodePool) { np.Template.Labels = map[string]string{"x.karpenter.sh/custom": "x"} }, `template.labels["x.karpenter.sh/custom"]`, RuleRestrictedLabel},
	{"label hostname", func(np *NodePool) { np.Template.Labels = map[string]string{"kubernetes.io/hostname": "x"} }, `template.labels["kubernetes.io/hostname"]`, RuleRestrictedLabel},
	{"label karpenter.azure.com unknown", func(np *NodePool) { np.Template.Labels = map[string]string{"karpenter.azure.com/foo": "x"} }, `template.labels["karpenter.azure.com/foo"]`, RuleRestrictedLabel},
	{"label kubernetes.azure.com agentpool", func(np *NodePool) { np.Template.Labels = map[string]string{"kubernetes.azure.com/agentpool": "x"} }, `template.labels["kubernetes.azure.com/agentpool"]`, RuleRestrictedLabel},
	{"label bare agentpool", func(np *NodePool) { np.Template.Labels = map[string]string{"agentpool": "x"} }, `template.labels["agentpool"]`, RuleRestrictedLabel},
	{"label bare accelerator", func(np *NodePool) { np.Template.Labels = map[string]string{"accelerator": "x"} }, `template.labels["accelerator"]`, RuleRestrictedLabel},
	{"label sku-family allowed", func(np *NodePool) { np.Template.Labels = map[string]string{"karpenter.azure.com/sku-family": "D"} }, "", ""},
	{"label bad key", func(np *NodePool) { np.Template.Labels = map[string]string{"bad key": "x"} }, `template.labels["bad key"]`, RuleLabelKey},
	{"label value too long", func(np *NodePool) { np.Template.Labels = map[string]string{"team": strings.Repeat("a", 64)} }, `template.labels["team"]`, RuleLabelValue},
	{"label value pattern", func(np *NodePool) { np.Template.Labels = map[string]string{"team": "-a"} }, `template.labels["team"]`, RuleLabelValue},
	{"label capacity-type unknown value", func(np *NodePool) { np.Template.Labels = map[string]string{LabelCapacityType: "reserved"} }, `template.labels["karpenter.sh/capacity-type"]`, RuleKnownLabelValue},
	{"label mode unknown value", func(np *NodePool) { np.Template.Labels = map[string]string{LabelAKSMode: "System"} }, `template.labels["kubernetes.azure.com/mode"]`, RuleKnownLabelValue},
	// node class ref
	{"node class name missing", func(np *NodePool) { np.Template.NodeClassRef.Name = "" }, "template.node_class_ref.name", RuleNodeClassRefRequired},
	{"node class group missing", func(np *NodePool) { np.Template.NodeClassRef.Group = "" }, "template.node_class_ref.group", RuleNodeClassRefRequired},
	{"node class kind missing", func(np *NodePool) { np.Template.NodeClassRef.Kind = "" }, "template.node_class_ref.kind", RuleNodeClassRefRequired},
	// requirements
	{"operator unsupported", func(np *NodePool) { np.Template.Requirements[2].Operator = "Equals" }, "template.requirements[2].operator", RuleRequirementOperator},
	{"In without values", func(np *NodePool) { np.Template.Requirements[0].Values = nil }, "template.requirements[0].values", RuleRequirementInValues},
	{"Gt not an integer", func(np *NodePool) {
		np.Template.Requirements[0] = Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gt", Values: []string{"1.5"}}
	}, "template.requirements[0].values", RuleRequirementNumericValue},
	{"Lt two values", func(np *NodePool) {
		np.Template.Requirements[0] = Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Lt", Values: []string{"1", "2"}}
	}, "template.requirements[0].values", RuleRequirementNumericValue},
	{"Lte not a number", func(np *NodePool) {
		np.Template.Requirements[0] = Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Lte", Values: []string{"four"}}
	}, "template.requirements[0].values", RuleRequirementNumericValue},
	{"Gte zero", func(np *NodePool) {
		np.Template.Requirements[0] = Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gte", Values: []string{"0"}}
	}, "", ""},
	{"minValues 0", func(np *NodePool) { np.Template.Requirements[0].MinValues = ip(0) }, "template.requirements[0].min_values", RuleRequirementMinValues},
	{"minValues 51", func(np *NodePool) { np.Template.Requirements[0].MinValues = ip(51) }, "template.requirements[0].min_values", RuleRequirementMinValues},
	{"minValues above In values", func(np *NodePool) { np.Template.Requirements[0].MinValues = ip(2) }, "template.requirements[0].min_values", RuleRequirementMinValues},
	{"minValues with Exists", func(np *NodePool) {
		np.Template.Requirements[0] = Requirement{Key: "karpenter.azure.com/sku-name", Operator: "Exists", MinValues: ip(5)}
	}, "", ""},
	{"requirement value invalid", func(np *NodePool) { np.Template.Requirements[0].Values = []string{"D E"} }, "template.requirements[0].values", RuleRequirementValue},
	{"requirement key invalid", func(np *NodePool) { np.Template.Requirements[0].Key = "a/b/c" }, "template.requirements[0].key", RuleRequirementKey},
	{"requirement nodepool key", func(np *NodePool) { np.Template.Requirements[0].Key = "karpenter.sh/nodepool" }, "template.requirements[0].key", RuleRestrictedLabel},
	{"requirement hostname key", func(np *NodePool) { np.Template.Requirements[0].Key = "kubernetes.io/hostname" }, "template.requirements[0].key", RuleRestrictedLabel},
	{"requirement bare storagetier", func(np *NodePool) { np.Template.Requirements[0].Key = "storagetier" }, "template.requirements[0].key", RuleRestrictedLabel},
	{"requirement unknown capacity type", func(np *NodePool) { np.Template.Requirements[2].Values = []string{"on-demand", "reserved"} }, "template.requirements[2].values", RuleKnownLabelValue},
	{"requirement unknown os-sku", func(np *NodePool) {
		np.Template.Requirements[0] = Requirement{Key: "kubernetes.azure.com/os-sku", Operator: "In", Values: []string{"Windows"}}
	}, "template.requirements[0].values", RuleKnownLabelValue},
	{"requirement unknown placement scope", func(np *NodePool) {
		np.Template.Requirements[0] = Requirement{Key: "karpenter.azure.com/placement-scope", Operator: "In", Values: []string{"global"}}
	}, "template.requirements[0].values", RuleKnownLabelValue},
	{"too many requirements", func(np *NodePool) {
		for i := 0; i < 98; i++ {
			np.Template.Requirements = append(np.Template.Requirements, Requirement{Key: fmt.Sprintf("example.com/k%d", i), Operator: "Exists"})
		}
	}, "template.requirements", RuleRequirementsMax},
	// taints
	{"taint effect empty", func(np *NodePool) { np.Template.Taints = []Taint{{Key: "a", Value: "b"}} }, "template.taints[0].effect", RuleTaintEffect},
	{"taint effect unknown", func(np *NodePool) { np.Template.Taints = []Taint{{Key: "a", Effect: "NoEvict"}} }, "template.taints[0].effect", RuleTaintEffect},
	{"taint key missing", func(np *NodePool) { np.Template.Taints = []Taint{{Effect: "NoSchedule"}} }, "template.taints[0].key", RuleTaintKey},
	{"taint value invalid", func(np *NodePool) { np.Template.Taints = []Taint{{Key: "a", Value: "a/b", Effect: "NoSchedule"}} }, "template.taints[0].value", RuleTaintValue},
	{"startup taint effect", func(np *NodePool) { np.Template.StartupTaints = []Taint{{Key: "a", Effect: "x"}} }, "template.startup_taints[0].effect", RuleTaintEffect},
	{"duplicate taint within taints", func(np *NodePool) {
		np.Template.Taints = []Taint{{Key: "a", Value: "1", Effect: "NoSchedule"}, {Key: "a", Value: "2", Effect: "NoSchedule"}}
	}, "template.taints[1]", RuleTaintDuplicate},
	{"duplicate taint across startup taints", func(np *NodePool) {
		np.Template.Taints = []Taint{{Key: "a", Effect: "NoSchedule"}}
		np.Template.StartupTaints = []Taint{{Key: "b", Effect: "NoSchedule"}, {Key: "a", Value: "x", Effect: "NoSchedule"}}
	}, "template.startup_taints[1]", RuleTaintDuplicate},
	{"same key different effect", func(np *NodePool) {
		np.Template.Taints = []Taint{{Key: "a", Effect: "NoSchedule"}}
		np.Template.StartupTaints = []Taint{{Key: "a", Effect: "NoExecute"}}
	}, "", ""},
	// durations
	{"expireAfter in days", func(np *NodePool) { np.Template.ExpireAfter = sp("30d") }, "template.expire_after", RuleExpireAfter},
	{"expireAfter never lowercase", func(np *NodePool) { np.Template.ExpireAfter = sp("never") }, "template.expire_after", RuleExpireAfter},
	{"expireAfter overflow", func(np *NodePool) { np.Template.ExpireAfter = sp("99999999999h") }, "template.expire_after", RuleExpireAfter},
	{"expireAfter compound", func(np *NodePool) { np.Template.ExpireAfter = sp("1h30m10s") }, "", ""},
	{"terminationGracePeriod Never", func(np *NodePool) { np.Template.TerminationGracePeriod = sp("Never") }, "template.termination_grace_period", RuleTerminationGracePeriod},
	{"terminationGracePeriod 30s", func(np *NodePool) { np.Template.TerminationGracePeriod = sp("30s") }, "", ""},
	{"consolidation policy unknown", func(np *NodePool) { np.Disruption.ConsolidationPolicy = sp("WhenUnderutilized") }, "disruption.consolidation_policy", RuleConsolidationPolicy},
	{"consolidateAfter required on AKS", func(np *NodePool) { np.Disruption.ConsolidateAfter = nil }, "disruption.consolidate_after", RuleConsolidateAfterRequired},
	{"consolidateAfter 1d", func(np *NodePool) { np.Disruption.ConsolidateAfter = sp("1d") }, "disruption.consolidate_after", RuleConsolidateAfter},
	{"consolidateAfter Never", func(np *NodePool) { np.Disruption.ConsolidateAfter = sp("Never") }, "", ""},
	{"consolidateAfter 0s", func(np *NodePool) { np.Disruption.ConsolidateAfter = sp("0s") }, "", ""},
	// budgets: nodes
	{"nodes 101%", func(np *NodePool) { np.Disruption.Budgets = []Budget{budget("101%")} }, "disruption.budgets[0].nodes", RuleBudgetNodes},
	{"nodes 10.5%", func(np *NodePool) { np.Disruption.Budgets = []Budget{budget("10.5%")} }, "disruption.budgets[0].nodes", RuleBudgetNodes},
	{"nodes negative", func(np *NodePool) { np.Disruption.Budgets = []Budget{budget("-1")} }, "disruption.budgets[0].nodes", RuleBudgetNodes},
	{"nodes empty", func(np *NodePool) { np.Disruption.Budgets = []Budget{budget("")} }, "disruption.budgets[0].nodes", RuleBudgetNodes},
	{"nodes max int32", func(np *NodePool) { np.Disruption.Budgets = []Budget{budget("2147483647")} }, "", ""},
	{"nodes too large for int32", func(np *NodePool) { np.Disruption.Budgets = []Budget{budget("10%"), budget("2147483648")} }, "disruption.budgets[1].nodes", RuleBudgetNodesInt32},
	{"nodes too large for int64", func(np *NodePool) { np.Disruption.Budgets = []Budget{budget("99999999999999999999")} }, "disruption.budgets[0].nodes", RuleBudgetNodesInt32},
	{"nodes unset is fine", func(np *NodePool) { np.Disruption.Budgets = []Budget{{}} }, "", ""},
	// budgets: schedule and duration
	{"schedule without duration", func(np *NodePool) { np.Disruption.Budgets = []Budget{{Nodes: sp("0"), Schedule: sp("@daily")}} }, "disruption.budgets[0].duration", RuleBudgetScheduleDurationPaired},
	{"duration without schedule", func(np *NodePool) { np.Disruption.Budgets = []Budget{{Nodes: sp("0"), Duration: sp("1h")}} }, "disruption.budgets[0].schedule", RuleBudgetScheduleDurationPaired},
	{"duration in seconds", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "@daily", "30s")} }, "disruption.budgets[0].duration", RuleBudgetDuration},
	{"duration in days", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "@daily", "1d")} }, "disruption.budgets[0].duration", RuleBudgetDuration},
	{"duration minutes then hours", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "@daily", "30m1h")} }, "disruption.budgets[0].duration", RuleBudgetDuration},
	{"duration 1h30m", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "@daily", "1h30m")} }, "", ""},
	{"duration 8h0m0s", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "@daily", "8h0m0s")} }, "", ""},
	{"duration 0m", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "@daily", "0m")} }, "", ""},
	{"duration overflow", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "@daily", "9999999999h")} }, "disruption.budgets[0].duration", RuleBudgetDuration},
	{"day-of-week 7", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "0 0 * * 7", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"day-of-week range to 7", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "0 0 * * 5-7", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"wrapping range sat-sun", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "0 0 * * sat-sun", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"wrapping hour range", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "0 22-2 * * *", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"list sat,sun", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "0 0 * * sat,sun", "1h")} }, "", ""},
	{"TZ prefix", func(np *NodePool) {
		np.Disruption.Budgets = []Budget{scheduled("0", "TZ=Europe/Paris 0 0 * * *", "1h")}
	}, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"CRON_TZ prefix", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "CRON_TZ=UTC 0 0 * * *", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"seconds field", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "0 0 0 * * *", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"four fields", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "0 0 * *", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"@every", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "@every 1h", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"@reboot", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "@reboot", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"empty schedule", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"quartz L", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "0 0 L * *", "1h")} }, "disruption.budgets[0].schedule", RuleBudgetSchedule},
	{"never-firing schedule is valid", func(np *NodePool) { np.Disruption.Budgets = []Budget{scheduled("0", "0 0 30 2 *", "1h")} }, "", ""},
	{"names and steps", func(np *NodePool) {
		np.Disruption.Budgets = []Budget{scheduled("0", "*/30 9-17 * JAN-JUN MON-FRI", "1h")}
	}, "", ""},
	{"every macro", func(np *NodePool) {
		for _, m := range []string{"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"} {
			np.Disruption.Budgets = append(np.Disruption.Budgets, scheduled("0", m, "1h"))
		}
	}, "", ""},
	// budgets: reasons and count
	{"unknown reason", func(np *NodePool) { np.Disruption.Budgets = []Budget{withReasons(budget("1"), "Drifted", "Expired")} }, "disruption.budgets[0].reasons", RuleBudgetReasons},
	{"empty reasons is valid", func(np *NodePool) { np.Disruption.Budgets = []Budget{withReasons(budget("1"))} }, "", ""},
	{"explicitly empty budgets are valid", func(np *NodePool) { np.Disruption.Budgets = []Budget{} }, "", ""},
	{"51 budgets", func(np *NodePool) { np.Disruption.Budgets = make([]Budget, 51) }, "disruption.budgets", RuleBudgetsMax},
}

func TestValidate(t *testing.T) {
	for _, tt := range validateCases {
		t.Run(tt.name, func(t *testing.T) {
			np := validPool()
			tt.mutate(&np)
			errs := Validate(np)
			if tt.path == "" {
				if len(errs) > 0 {
					t.Fatalf("expected valid, got:\n%v", errs)
				}
				return
			}
			if len(errs) != 1 {
				t.Fatalf("expected exactly one error %s at %s, got %d:\n%v", tt.rule, tt.path, len(errs), errs)
			}
			e := errs[0]
			if e.Path.String() != tt.path || e.ID != string(tt.rule) {
				t.Fatalf("got %s at %q, want %s at %q (%v)", e.ID, e.Path, tt.rule, tt.path, e)
			}
			if pathFromSteps(e.Path.Steps()).String() != tt.path || e.Rule == "" || e.Fix == "" {
				t.Errorf("incomplete error %+v", e)
			}
			if want := tt.path + ": " + e.Rule + ". " + e.Fix; e.Error() != want {
				t.Errorf("Error() = %q, want %q", e.Error(), want)
			}
		})
	}
}

func TestFieldErrorSteps(t *testing.T) {
	np := validPool()
	np.Disruption.Budgets = []Budget{budget("10%"), budget("2147483648")}
	np.Template.Labels = map[string]string{"karpenter.sh/nodepool": "x"}
	errs := Validate(np)
	if !errs.Has(string(RuleBudgetNodesInt32)) || !errs.Has(string(RuleRestrictedLabel)) || errs.Has(string(RuleWeightRange)) {
		t.Fatalf("Has: %v", errs)
	}
	e := errs.At("disruption.budgets[1].nodes")
	if len(e) != 1 || e[0].ID != string(RuleBudgetNodesInt32) {
		t.Fatalf("At: %v", errs)
	}
	want := []field.Step{{Name: "disruption", Index: -1}, {Name: "budgets", Index: -1}, {Index: 1}, {Name: "nodes", Index: -1}}
	if got := e[0].Path.Steps(); !slices.Equal(got, want) {
		t.Errorf("Steps = %+v, want %+v", got, want)
	}
	l := errs.At(`template.labels["karpenter.sh/nodepool"]`)
	if len(l) != 1 || l[0].ID != string(RuleRestrictedLabel) {
		t.Fatalf("label At: %+v", l)
	}
	wantLabel := []field.Step{{Name: "template", Index: -1}, {Name: "labels", Index: -1}, {Index: -1, Key: "karpenter.sh/nodepool", IsKey: true}}
	if got := l[0].Path.Steps(); !slices.Equal(got, wantLabel) {
		t.Errorf("label steps = %+v, want %+v", got, wantLabel)
	}
	if !strings.HasPrefix(e[0].Error(), "disruption.budgets[1].nodes: 2147483648 does not fit a 32-bit integer") {
		t.Errorf("Error() = %q", e[0].Error())
	}
	if errs.Err() == nil || (field.Errors{}).Err() != nil {
		t.Error("Err()")
	}
}

// TestScheduleRejectionsAreKubernetesAdmitted documents why the extra
// schedule rules exist: the API server's pattern admits these, and only
// Karpenter's parse (with its "TZ=UTC " prefix) rejects them.
func TestScheduleRejectionsAreKubernetesAdmitted(t *testing.T) {
	for _, s := range []string{"0 0 * * 7", "0 0 * * sat-sun", "TZ=Europe/Paris 0 0 * * *", "CRON_TZ=UTC 0 0 * * *", "0 0 0 * * *"} {
		if !schedulePattern.MatchString(s) {
			t.Errorf("%q: expected the CRD pattern to admit it", s)
		}
		if _, err := ParseSchedule(s); err == nil {
			t.Errorf("%q: expected Karpenter's parse to reject it", s)
		}
		rule, fix, ok := checkSchedule(s)
		if ok || rule == "" || fix == "" {
			t.Errorf("%q: expected a rejection with a fix", s)
		}
	}
	for s, want := range map[string]string{
		"0 0 * * 7":       "day-of-week 7",
		"0 0 * * sat-sun": "wrapping range",
		"TZ=UTC @daily":   "time zone",
		"0 0 0 * * *":     "seconds field",
	} {
		if rule, _, _ := checkSchedule(s); !strings.Contains(rule, want) {
			t.Errorf("%q: rule %q does not mention %q", s, rule, want)
		}
	}
}

func TestValidateNegativeNumericRequirement(t *testing.T) {
	np := validPool()
	np.Template.Requirements[0] = Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gt", Values: []string{"-1"}}
	errs := Validate(np).At("template.requirements[0].values")
	if !errs.Has(string(RuleRequirementNumericValue)) {
		t.Errorf("Gt -1 must be rejected as negative: %v", errs)
	}
}

func TestValidateUpdate(t *testing.T) {
	prev := validPool()
	next := validPool()
	next.Template.NodeClassRef.Name = "other"
	if errs := ValidateUpdate(prev, next); len(errs) != 0 {
		t.Fatalf("name change should be allowed: %v", errs)
	}
	next.Template.NodeClassRef.Group = "example.com"
	next.Template.NodeClassRef.Kind = "Other"
	errs := ValidateUpdate(prev, next)
	if len(errs.At("template.node_class_ref.group")) != 1 || len(errs.At("template.node_class_ref.kind")) != 1 || !errs.Has(string(RuleNodeClassRefImmutable)) {
		t.Fatalf("immutability: %v", errs)
	}
}

func TestValidateBudgetsAlone(t *testing.T) {
	s, d := "0 9 * * 7", "8h"
	errs := ValidateBudgets([]Budget{{Nodes: strPtrForBudgetsTest("10%")}, {Nodes: strPtrForBudgetsTest("0"), Schedule: &s, Duration: &d}})
	if len(errs) != 1 || errs[0].Path.String() != "disruption.budgets[1].schedule" {
		t.Fatalf("got %v", errs)
	}
	if errs := ValidateBudgets(nil); len(errs) != 0 {
		t.Fatalf("no budgets is valid: %v", errs)
	}
}

func strPtrForBudgetsTest(s string) *string { return &s }
