package nodepooltest

import (
	"fmt"
	"strings"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

// validation lists the corpus: each entry changes ValidPool, breaking one
// rule (the error is expected at path) or none (path "").
//
// Sources named below: "the AKS CRD" is
// internal/emulator/kubetest/crds/aks-karpenter.sh_nodepools.yaml (Azure/karpenter-provider-azure
// pkg/apis/crds/karpenter.sh_nodepools.yaml); Karpenter functions are
// sigs.k8s.io/karpenter v1.14.1 pkg/apis/v1; AKS Karpenter's label sets are
// Azure/karpenter-provider-azure pkg/apis/v1beta1/labels.go.
var validation = []struct {
	name   string
	mutate func(*nodepool.NodePool)
	path   string // "" means valid
	rule   nodepool.RuleID
}{
	// weight
	{"weight 0", func(np *nodepool.NodePool) { np.Weight = wp(0) }, "weight", nodepool.RuleWeightRange},
	{"weight 101", func(np *nodepool.NodePool) { np.Weight = wp(101) }, "weight", nodepool.RuleWeightRange},
	{"weight 1", func(np *nodepool.NodePool) { np.Weight = wp(1) }, "", ""},
	{"weight 100", func(np *nodepool.NodePool) { np.Weight = wp(100) }, "", ""},
	// limits
	{"limit not a quantity", func(np *nodepool.NodePool) { np.Limits = map[string]string{"cpu": "lots"} }, `limits["cpu"]`, nodepool.RuleLimitQuantity},
	{"limit fractional exponent", func(np *nodepool.NodePool) { np.Limits = map[string]string{"cpu": "1e1.5"} }, `limits["cpu"]`, nodepool.RuleLimitQuantity},
	{"limit K is not a suffix", func(np *nodepool.NodePool) { np.Limits = map[string]string{"memory": "10K"} }, `limits["memory"]`, nodepool.RuleLimitQuantity},
	// Issue 9 item 10: the AKS CRD's spec.limits (additionalProperties) admits
	// any key, an empty one too; Karpenter ignores resources it does not know.
	{"limit empty name is admitted", func(np *nodepool.NodePool) { np.Limits = map[string]string{"": "1"} }, "", ""},
	{"limit lone dot (ParseQuantity accepts, CRD rejects)", func(np *nodepool.NodePool) { np.Limits = map[string]string{"cpu": "."} }, `limits["cpu"]`, nodepool.RuleLimitQuantity},
	{"limit trailing dot before suffix", func(np *nodepool.NodePool) { np.Limits = map[string]string{"memory": "1.Gi"} }, "", ""},
	{"limit 64Gi", func(np *nodepool.NodePool) { np.Limits = map[string]string{"memory": "64Gi"} }, "", ""},
	// labels
	{"label nodepool restricted", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"karpenter.sh/nodepool": "x"} }, `template.labels["karpenter.sh/nodepool"]`, nodepool.RuleRestrictedLabel},
	{"label karpenter.sh domain", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"karpenter.sh/custom": "x"} }, `template.labels["karpenter.sh/custom"]`, nodepool.RuleRestrictedLabel},
	{"label karpenter.sh subdomain", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"x.karpenter.sh/custom": "x"} }, `template.labels["x.karpenter.sh/custom"]`, nodepool.RuleRestrictedLabel},
	{"label hostname", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"kubernetes.io/hostname": "x"} }, `template.labels["kubernetes.io/hostname"]`, nodepool.RuleRestrictedLabel},
	{"label karpenter.azure.com unknown", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"karpenter.azure.com/foo": "x"} }, `template.labels["karpenter.azure.com/foo"]`, nodepool.RuleRestrictedLabel},
	{"label kubernetes.azure.com agentpool", func(np *nodepool.NodePool) {
		np.Template.Labels = map[string]string{"kubernetes.azure.com/agentpool": "x"}
	}, `template.labels["kubernetes.azure.com/agentpool"]`, nodepool.RuleRestrictedLabel},
	{"label bare agentpool", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"agentpool": "x"} }, `template.labels["agentpool"]`, nodepool.RuleRestrictedLabel},
	{"label bare accelerator", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"accelerator": "x"} }, `template.labels["accelerator"]`, nodepool.RuleRestrictedLabel},
	{"label sku-family allowed", func(np *nodepool.NodePool) {
		np.Template.Labels = map[string]string{"karpenter.azure.com/sku-family": "D"}
	}, "", ""},
	{"label bad key", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"bad key": "x"} }, `template.labels["bad key"]`, nodepool.RuleLabelKey},
	{"label value too long", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"team": strings.Repeat("a", 64)} }, `template.labels["team"]`, nodepool.RuleLabelValue},
	{"label value pattern", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{"team": "-a"} }, `template.labels["team"]`, nodepool.RuleLabelValue},
	{"label capacity-type unknown value", func(np *nodepool.NodePool) {
		np.Template.Labels = map[string]string{nodepool.LabelCapacityType: "reserved"}
	}, `template.labels["karpenter.sh/capacity-type"]`, nodepool.RuleKnownLabelValue},
	{"label mode unknown value", func(np *nodepool.NodePool) { np.Template.Labels = map[string]string{nodepool.LabelAKSMode: "System"} }, `template.labels["kubernetes.azure.com/mode"]`, nodepool.RuleKnownLabelValue},
	{"label scalesetpriority unknown value", func(np *nodepool.NodePool) {
		np.Template.Labels = map[string]string{"kubernetes.azure.com/scalesetpriority": "low"}
	}, `template.labels["kubernetes.azure.com/scalesetpriority"]`, nodepool.RuleKnownLabelValue},
	// Issue 9 item 9: the AKS CRD's template.metadata.labels has maxProperties: 100.
	{"100 labels", func(np *nodepool.NodePool) { np.Template.Labels = manyLabels(100) }, "", ""},
	{"101 labels", func(np *nodepool.NodePool) { np.Template.Labels = manyLabels(101) }, "template.labels", nodepool.RuleLabelsMax},
	// Issue 9 item 9: the AKS CRD admits karpenter.azure.com/aksnodeclass, but
	// Karpenter's IsRestrictedLabel (labels.go) rejects it at runtime
	// (NodePool.RuntimeValidate): AKS Karpenter's labels.go adds
	// karpenter.azure.com to RestrictedLabelDomains and aksnodeclass is not
	// one of its well-known labels.
	{"label aksnodeclass", func(np *nodepool.NodePool) {
		np.Template.Labels = map[string]string{"karpenter.azure.com/aksnodeclass": "default"}
	},
		`template.labels["karpenter.azure.com/aksnodeclass"]`, nodepool.RuleRestrictedLabel},
	// Karpenter v1.14.1 (IsRestrictedLabel; hack/validation/labels.sh) and the
	// AKS CRD restrict only the karpenter.sh, karpenter.azure.com and
	// kubernetes.azure.com domains and a few keys: kubernetes.io and k8s.io
	// keys are admitted (older Karpenter CRDs restricted them).
	{"label in the kubernetes.io domain is admitted", func(np *nodepool.NodePool) {
		np.Template.Labels = map[string]string{"kubernetes.io/team": "a", "example.kubernetes.io/x": "b", "node.kubernetes.io/pool": "c"}
	}, "", ""},
	{"label in the k8s.io domain is admitted", func(np *nodepool.NodePool) {
		np.Template.Labels = map[string]string{"k8s.io/team": "a", "kops.k8s.io/instancegroup": "b"}
	}, "", ""},
	// Issue 9 item 9, annotations: the AKS CRD does not check them, but
	// Karpenter copies them onto every NodeClaim it creates
	// (pkg/controllers/provisioning/scheduling/nodeclaimtemplate.go), whose
	// metadata the API server validates (k8s.io/apimachinery
	// pkg/api/validation ValidateAnnotations: IsQualifiedName of the
	// lower-cased key, 256 KiB in all).
	{"annotation key invalid", func(np *nodepool.NodePool) { np.Template.Annotations = map[string]string{"bad key": "x"} },
		`template.annotations["bad key"]`, nodepool.RuleAnnotationKey},
	{"annotation key prefix not a DNS subdomain", func(np *nodepool.NodePool) { np.Template.Annotations = map[string]string{"example_com/owner": "x"} },
		`template.annotations["example_com/owner"]`, nodepool.RuleAnnotationKey},
	{"annotation key upper case is admitted", func(np *nodepool.NodePool) { np.Template.Annotations = map[string]string{"Example.com/Owner": "x"} }, "", ""},
	{"annotations too large", func(np *nodepool.NodePool) {
		np.Template.Annotations = map[string]string{"example.com/a": strings.Repeat("x", 200*1024), "example.com/b": strings.Repeat("x", 60*1024)}
	}, "template.annotations", nodepool.RuleAnnotationsSize},
	// node class ref
	{"node class name missing", func(np *nodepool.NodePool) { np.Template.NodeClassRef.Name = "" }, "template.node_class_ref.name", nodepool.RuleNodeClassRefRequired},
	{"node class group missing", func(np *nodepool.NodePool) { np.Template.NodeClassRef.Group = "" }, "template.node_class_ref.group", nodepool.RuleNodeClassRefRequired},
	{"node class kind missing", func(np *nodepool.NodePool) { np.Template.NodeClassRef.Kind = "" }, "template.node_class_ref.kind", nodepool.RuleNodeClassRefRequired},
	// Issue 9 item 9: the AKS CRD's nodeClassRef.group pattern is ^[^/]*$.
	{"node class group with a version", func(np *nodepool.NodePool) { np.Template.NodeClassRef.Group = "karpenter.azure.com/v1beta1" },
		"template.node_class_ref.group", nodepool.RuleNodeClassRefGroup},
	// requirements
	{"operator unsupported", func(np *nodepool.NodePool) { np.Template.Requirements[2].Operator = "Equals" }, "template.requirements[2].operator", nodepool.RuleRequirementOperator},
	{"In without values", func(np *nodepool.NodePool) { np.Template.Requirements[0].Values = nil }, "template.requirements[0].values", nodepool.RuleRequirementInValues},
	{"Gt not an integer", func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gt", Values: []string{"1.5"}}
	}, "template.requirements[0].values", nodepool.RuleRequirementNumericValue},
	{"Lt two values", func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Lt", Values: []string{"1", "2"}}
	}, "template.requirements[0].values", nodepool.RuleRequirementNumericValue},
	{"Lte not a number", func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Lte", Values: []string{"four"}}
	}, "template.requirements[0].values", nodepool.RuleRequirementNumericValue},
	{"Gte zero", func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gte", Values: []string{"0"}}
	}, "", ""},
	{"minValues 0", func(np *nodepool.NodePool) { np.Template.Requirements[0].MinValues = ip(0) }, "template.requirements[0].min_values", nodepool.RuleRequirementMinValues},
	{"minValues 51", func(np *nodepool.NodePool) { np.Template.Requirements[0].MinValues = ip(51) }, "template.requirements[0].min_values", nodepool.RuleRequirementMinValues},
	{"minValues above In values", func(np *nodepool.NodePool) { np.Template.Requirements[0].MinValues = ip(2) }, "template.requirements[0].min_values", nodepool.RuleRequirementMinValues},
	{"minValues with Exists", func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: "karpenter.azure.com/sku-name", Operator: "Exists", MinValues: ip(5)}
	}, "", ""},
	{"requirement value invalid", func(np *nodepool.NodePool) { np.Template.Requirements[0].Values = []string{"D E"} }, "template.requirements[0].values", nodepool.RuleRequirementValue},
	{"requirement key invalid", func(np *nodepool.NodePool) { np.Template.Requirements[0].Key = "a/b/c" }, "template.requirements[0].key", nodepool.RuleRequirementKey},
	{"requirement nodepool key", func(np *nodepool.NodePool) { np.Template.Requirements[0].Key = "karpenter.sh/nodepool" }, "template.requirements[0].key", nodepool.RuleRestrictedLabel},
	{"requirement hostname key", func(np *nodepool.NodePool) { np.Template.Requirements[0].Key = "kubernetes.io/hostname" }, "template.requirements[0].key", nodepool.RuleRestrictedLabel},
	{"requirement bare storagetier", func(np *nodepool.NodePool) { np.Template.Requirements[0].Key = "storagetier" }, "template.requirements[0].key", nodepool.RuleRestrictedLabel},
	// Issue 9 item 8: Karpenter's validateWellKnownValues
	// (nodeclaim_validation.go) fails open. It checks In only, rejects when
	// none of the values is known or fewer known values remain than
	// minValues, and admits a mixed list (logging the unknown values). AKS
	// Karpenter's labels.go registers the closed value sets.
	{"requirement unknown capacity type", func(np *nodepool.NodePool) { np.Template.Requirements[2].Values = []string{"reserved"} }, "template.requirements[2].values", nodepool.RuleKnownLabelValue},
	{"requirement mixed known and unknown capacity types", func(np *nodepool.NodePool) { np.Template.Requirements[2].Values = []string{"on-demand", "reserved"} }, "", ""},
	{"requirement mixed values below min_values", func(np *nodepool.NodePool) {
		np.Template.Requirements[2].Values, np.Template.Requirements[2].MinValues = []string{"on-demand", "reserved"}, ip(2)
	}, "template.requirements[2].min_values", nodepool.RuleKnownLabelValue},
	{"requirement NotIn unknown value is not checked", func(np *nodepool.NodePool) {
		np.Template.Requirements[2] = nodepool.Requirement{Key: nodepool.LabelCapacityType, Operator: "NotIn", Values: []string{"reserved"}}
	}, "", ""},
	{"requirement aksnodeclass", func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: "karpenter.azure.com/aksnodeclass", Operator: "In", Values: []string{"default"}}
	}, "template.requirements[0].key", nodepool.RuleRestrictedLabel},
	{"requirement key in the k8s.io domain is admitted", func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: "example.k8s.io/tier", Operator: "In", Values: []string{"a"}}
	}, "", ""},
	{"requirement unknown os-sku", func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: "kubernetes.azure.com/os-sku", Operator: "In", Values: []string{"Windows"}}
	}, "template.requirements[0].values", nodepool.RuleKnownLabelValue},
	{"requirement unknown scalesetpriority", knownValue("kubernetes.azure.com/scalesetpriority", "low"), "template.requirements[0].values", nodepool.RuleKnownLabelValue},
	{"requirement unknown priority", knownValue("kubernetes.azure.com/priority", "Spot"), "template.requirements[0].values", nodepool.RuleKnownLabelValue},
	{"requirement unknown fips_enabled", knownValue("kubernetes.azure.com/fips_enabled", "false"), "template.requirements[0].values", nodepool.RuleKnownLabelValue},
	{"requirement unknown sku-gpu-manufacturer", knownValue("karpenter.azure.com/sku-gpu-manufacturer", "intel"), "template.requirements[0].values", nodepool.RuleKnownLabelValue},
	{"requirement unknown sku-networking-accelerated", knownValue("karpenter.azure.com/sku-networking-accelerated", "yes"), "template.requirements[0].values", nodepool.RuleKnownLabelValue},
	{"requirement unknown sku-storage-premium-capable", knownValue("karpenter.azure.com/sku-storage-premium-capable", "True"), "template.requirements[0].values", nodepool.RuleKnownLabelValue},
	{"requirement unknown sku-storage-ultra-ssd", knownValue("karpenter.azure.com/sku-storage-ultra-ssd", "1"), "template.requirements[0].values", nodepool.RuleKnownLabelValue},
	{"requirement known values of every closed key", func(np *nodepool.NodePool) {
		for _, kv := range [][2]string{{"kubernetes.azure.com/scalesetpriority", "regular"}, {"kubernetes.azure.com/priority", "spot"},
			{"kubernetes.azure.com/fips_enabled", "true"}, {"karpenter.azure.com/sku-gpu-manufacturer", "amd"},
			{"karpenter.azure.com/sku-networking-accelerated", "false"}, {"karpenter.azure.com/sku-storage-premium-capable", "true"},
			{"karpenter.azure.com/sku-storage-ultra-ssd", "false"}, {"kubernetes.azure.com/os-sku", "AzureLinux"}, {"kubernetes.azure.com/mode", "system"}} {
			np.Template.Requirements = append(np.Template.Requirements, nodepool.Requirement{Key: kv[0], Operator: "In", Values: []string{kv[1]}})
		}
	}, "", ""},
	{"requirement unknown placement scope", func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: "karpenter.azure.com/placement-scope", Operator: "In", Values: []string{"global"}}
	}, "template.requirements[0].values", nodepool.RuleKnownLabelValue},
	{"too many requirements", func(np *nodepool.NodePool) {
		for i := 0; i < 98; i++ {
			np.Template.Requirements = append(np.Template.Requirements, nodepool.Requirement{Key: fmt.Sprintf("example.com/k%d", i), Operator: "Exists"})
		}
	}, "template.requirements", nodepool.RuleRequirementsMax},
	// taints
	{"taint effect empty", func(np *nodepool.NodePool) { np.Template.Taints = []nodepool.Taint{{Key: "a", Value: sp("b")}} }, "template.taints[0].effect", nodepool.RuleTaintEffect},
	{"taint effect unknown", func(np *nodepool.NodePool) { np.Template.Taints = []nodepool.Taint{{Key: "a", Effect: "NoEvict"}} }, "template.taints[0].effect", nodepool.RuleTaintEffect},
	{"taint key missing", func(np *nodepool.NodePool) { np.Template.Taints = []nodepool.Taint{{Effect: "NoSchedule"}} }, "template.taints[0].key", nodepool.RuleTaintKey},
	// Issue 9 items 9 and 10: a set taint value must match the AKS CRD's
	// pattern, which needs a character (no explicit ""), and pass Karpenter's
	// runtime IsQualifiedName (validateTaintsField in
	// nodeclaim_validation.go), which admits a prefix and limits the length.
	{"taint value invalid", func(np *nodepool.NodePool) {
		np.Template.Taints = []nodepool.Taint{{Key: "a", Value: sp("a b"), Effect: "NoSchedule"}}
	}, "template.taints[0].value", nodepool.RuleTaintValue},
	{"taint value too long", func(np *nodepool.NodePool) {
		np.Template.Taints = []nodepool.Taint{{Key: "a", Value: sp(strings.Repeat("v", 64)), Effect: "NoSchedule"}}
	}, "template.taints[0].value", nodepool.RuleTaintValue},
	{"taint value explicitly empty", func(np *nodepool.NodePool) {
		np.Template.Taints = []nodepool.Taint{{Key: "a", Value: sp(""), Effect: "NoSchedule"}}
	}, "template.taints[0].value", nodepool.RuleTaintValue},
	{"startup taint value explicitly empty", func(np *nodepool.NodePool) {
		np.Template.StartupTaints = []nodepool.Taint{{Key: "a", Value: sp(""), Effect: "NoSchedule"}}
	}, "template.startup_taints[0].value", nodepool.RuleTaintValue},
	{"taint value with a prefix is admitted", func(np *nodepool.NodePool) {
		np.Template.Taints = []nodepool.Taint{{Key: "a", Value: sp("example.com/foo"), Effect: "NoSchedule"}}
	}, "", ""},
	{"startup taint effect", func(np *nodepool.NodePool) { np.Template.StartupTaints = []nodepool.Taint{{Key: "a", Effect: "x"}} }, "template.startup_taints[0].effect", nodepool.RuleTaintEffect},
	{"duplicate taint within taints", func(np *nodepool.NodePool) {
		np.Template.Taints = []nodepool.Taint{{Key: "a", Value: sp("1"), Effect: "NoSchedule"}, {Key: "a", Value: sp("2"), Effect: "NoSchedule"}}
	}, "template.taints[1]", nodepool.RuleTaintDuplicate},
	{"duplicate taint across startup taints", func(np *nodepool.NodePool) {
		np.Template.Taints = []nodepool.Taint{{Key: "a", Effect: "NoSchedule"}}
		np.Template.StartupTaints = []nodepool.Taint{{Key: "b", Effect: "NoSchedule"}, {Key: "a", Value: sp("x"), Effect: "NoSchedule"}}
	}, "template.startup_taints[1]", nodepool.RuleTaintDuplicate},
	{"same key different effect", func(np *nodepool.NodePool) {
		np.Template.Taints = []nodepool.Taint{{Key: "a", Effect: "NoSchedule"}}
		np.Template.StartupTaints = []nodepool.Taint{{Key: "a", Effect: "NoExecute"}}
	}, "", ""},
	// durations
	{"expireAfter in days", func(np *nodepool.NodePool) { np.Template.ExpireAfter = sp("30d") }, "template.expire_after", nodepool.RuleExpireAfter},
	{"expireAfter never lowercase", func(np *nodepool.NodePool) { np.Template.ExpireAfter = sp("never") }, "template.expire_after", nodepool.RuleExpireAfter},
	{"expireAfter overflow", func(np *nodepool.NodePool) { np.Template.ExpireAfter = sp("99999999999h") }, "template.expire_after", nodepool.RuleExpireAfter},
	{"expireAfter compound", func(np *nodepool.NodePool) { np.Template.ExpireAfter = sp("1h30m10s") }, "", ""},
	{"terminationGracePeriod Never", func(np *nodepool.NodePool) { np.Template.TerminationGracePeriod = sp("Never") }, "template.termination_grace_period", nodepool.RuleTerminationGracePeriod},
	{"terminationGracePeriod 30s", func(np *nodepool.NodePool) { np.Template.TerminationGracePeriod = sp("30s") }, "", ""},
	{"consolidation policy unknown", func(np *nodepool.NodePool) { np.Disruption.ConsolidationPolicy = sp("WhenUnderutilized") }, "disruption.consolidation_policy", nodepool.RuleConsolidationPolicy},
	// Issue 9 item 7: both CRDs list Balanced (nodepool.go's
	// consolidationPolicy enum: WhenEmpty;WhenEmptyOrUnderutilized;Balanced).
	{"consolidation policy Balanced", func(np *nodepool.NodePool) { np.Disruption.ConsolidationPolicy = sp("Balanced") }, "", ""},
	// Issue 9 item 10: the AKS CRD defaults an omitted spec.disruption to
	// {consolidateAfter: 0s}; consolidateAfter is required inside an explicit
	// one (required: [consolidateAfter]).
	{"disruption block omitted", func(np *nodepool.NodePool) { np.Disruption = nil }, "", ""},
	{"explicit disruption block without consolidate_after", func(np *nodepool.NodePool) { np.Disruption.ConsolidateAfter = nil }, "disruption.consolidate_after", nodepool.RuleConsolidateAfterRequired},
	{"explicit disruption block with budgets only", func(np *nodepool.NodePool) {
		np.Disruption = &nodepool.Disruption{Budgets: []nodepool.Budget{budget("1")}}
	}, "disruption.consolidate_after", nodepool.RuleConsolidateAfterRequired},
	{"consolidateAfter 1d", func(np *nodepool.NodePool) { np.Disruption.ConsolidateAfter = sp("1d") }, "disruption.consolidate_after", nodepool.RuleConsolidateAfter},
	{"consolidateAfter Never", func(np *nodepool.NodePool) { np.Disruption.ConsolidateAfter = sp("Never") }, "", ""},
	{"consolidateAfter 0s", func(np *nodepool.NodePool) { np.Disruption.ConsolidateAfter = sp("0s") }, "", ""},
	// budgets: nodes. Issue 9 item 12: Karpenter reads an integer with
	// strconv.Atoi and intstr.FromInt (GetIntStrFromValue in nodepool.go),
	// which keeps 32 bits: a larger count passes the CRD's pattern and is
	// misread, so the range 0–2147483647 is checked.
	{"nodes 101%", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{budget("101%")} }, "disruption.budgets[0].nodes", nodepool.RuleBudgetNodes},
	{"nodes 10.5%", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{budget("10.5%")} }, "disruption.budgets[0].nodes", nodepool.RuleBudgetNodes},
	{"nodes negative", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{budget("-1")} }, "disruption.budgets[0].nodes", nodepool.RuleBudgetNodes},
	{"nodes empty", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{budget("")} }, "disruption.budgets[0].nodes", nodepool.RuleBudgetNodes},
	{"nodes max int32", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{budget("2147483647")} }, "", ""},
	{"nodes too large for int32", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{budget("10%"), budget("2147483648")}
	}, "disruption.budgets[1].nodes", nodepool.RuleBudgetNodesInt32},
	{"nodes too large for int64", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{budget("99999999999999999999")} }, "disruption.budgets[0].nodes", nodepool.RuleBudgetNodesInt32},
	{"nodes unset is fine", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{{}} }, "", ""},
	// budgets: schedule and duration
	{"schedule without duration", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{{Nodes: sp("0"), Schedule: sp("@daily")}}
	}, "disruption.budgets[0].duration", nodepool.RuleBudgetScheduleDurationPaired},
	{"duration without schedule", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{{Nodes: sp("0"), Duration: sp("1h")}}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetScheduleDurationPaired},
	{"duration in seconds", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "@daily", "30s")}
	}, "disruption.budgets[0].duration", nodepool.RuleBudgetDuration},
	{"duration in days", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "@daily", "1d")} }, "disruption.budgets[0].duration", nodepool.RuleBudgetDuration},
	{"duration minutes then hours", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "@daily", "30m1h")}
	}, "disruption.budgets[0].duration", nodepool.RuleBudgetDuration},
	{"duration 1h30m", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "@daily", "1h30m")}
	}, "", ""},
	{"duration 8h0m0s", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "@daily", "8h0m0s")}
	}, "", ""},
	{"duration 0m", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "@daily", "0m")} }, "", ""},
	{"duration overflow", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "@daily", "9999999999h")}
	}, "disruption.budgets[0].duration", nodepool.RuleBudgetDuration},
	{"day-of-week 7", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "0 0 * * 7", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"day-of-week range to 7", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "0 0 * * 5-7", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"wrapping range sat-sun", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "0 0 * * sat-sun", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"wrapping hour range", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "0 22-2 * * *", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"list sat,sun", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "0 0 * * sat,sun", "1h")}
	}, "", ""},
	{"TZ prefix", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "TZ=Europe/Paris 0 0 * * *", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"CRON_TZ prefix", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "CRON_TZ=UTC 0 0 * * *", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"seconds field", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "0 0 0 * * *", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"four fields", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "0 0 * *", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"@every", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "@every 1h", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"@reboot", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "@reboot", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"empty schedule", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "", "1h")} }, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"quartz L", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "0 0 L * *", "1h")}
	}, "disruption.budgets[0].schedule", nodepool.RuleBudgetSchedule},
	{"never-firing schedule is valid", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "0 0 30 2 *", "1h")}
	}, "", ""},
	{"names and steps", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{scheduled("0", "*/30 9-17 * JAN-JUN MON-FRI", "1h")}
	}, "", ""},
	{"every macro", func(np *nodepool.NodePool) {
		for _, m := range []string{"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"} {
			np.Disruption.Budgets = append(np.Disruption.Budgets, scheduled("0", m, "1h"))
		}
	}, "", ""},
	// budgets: reasons and count
	// Issue 9 item 9: the AKS CRD declares budgets[].reasons
	// x-kubernetes-list-type: set, so the API server rejects a duplicate.
	{"duplicate reason", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{withReasons(budget("1"), "Drifted", "Empty", "Drifted")}
	},
		"disruption.budgets[0].reasons", nodepool.RuleBudgetReasonsUnique},
	{"unknown reason", func(np *nodepool.NodePool) {
		np.Disruption.Budgets = []nodepool.Budget{withReasons(budget("1"), "Drifted", "Expired")}
	}, "disruption.budgets[0].reasons", nodepool.RuleBudgetReasons},
	{"empty reasons is valid", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{withReasons(budget("1"))} }, "", ""},
	{"explicitly empty budgets are valid", func(np *nodepool.NodePool) { np.Disruption.Budgets = []nodepool.Budget{} }, "", ""},
	{"51 budgets", func(np *nodepool.NodePool) { np.Disruption.Budgets = make([]nodepool.Budget, 51) }, "disruption.budgets", nodepool.RuleBudgetsMax},
}

// knownValue makes requirements[0] an In requirement on key with one value.
func knownValue(key, value string) func(*nodepool.NodePool) {
	return func(np *nodepool.NodePool) {
		np.Template.Requirements[0] = nodepool.Requirement{Key: key, Operator: "In", Values: []string{value}}
	}
}

// manyLabels returns n labels in a domain of one's own.
func manyLabels(n int) map[string]string {
	out := make(map[string]string, n)
	for i := range n {
		out[fmt.Sprintf("example.com/label-%d", i)] = "x"
	}
	return out
}
