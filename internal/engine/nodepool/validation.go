package nodepool

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// RuleID names a validation rule. Every rule enforced by Validate and
// ValidateUpdate has one, so callers and tests can find errors by rule: each
// field.Error they return has ID string(rule), for use with
// field.Errors.Has.
type RuleID string

// add appends the violation of rule id at p.
func add(es *field.Errors, p field.Path, id RuleID, rule, fix string) {
	*es = append(*es, field.Error{Path: p, ID: string(id), Rule: rule, Fix: fix})
}

// Validation rules. Each is enforced by one function of this file, named
// after it (RuleWeightRange by validateWeight, and so on).
const (
	RuleWeightRange                  RuleID = "weight_range"
	RuleLimitQuantity                RuleID = "limit_quantity"
	RuleLabelsMax                    RuleID = "labels_max"
	RuleLabelKey                     RuleID = "label_key"
	RuleLabelValue                   RuleID = "label_value"
	RuleRestrictedLabel              RuleID = "restricted_label"
	RuleKnownLabelValue              RuleID = "known_label_value"
	RuleAnnotationKey                RuleID = "annotation_key"
	RuleAnnotationsSize              RuleID = "annotations_size"
	RuleNodeClassRefRequired         RuleID = "node_class_ref_required"
	RuleNodeClassRefGroup            RuleID = "node_class_ref_group"
	RuleNodeClassRefImmutable        RuleID = "node_class_ref_immutable"
	RuleRequirementsMax              RuleID = "requirements_max"
	RuleRequirementKey               RuleID = "requirement_key"
	RuleRequirementOperator          RuleID = "requirement_operator"
	RuleRequirementInValues          RuleID = "requirement_in_values"
	RuleRequirementNumericValue      RuleID = "requirement_numeric_value"
	RuleRequirementMinValues         RuleID = "requirement_min_values"
	RuleRequirementValue             RuleID = "requirement_value"
	RuleTaintKey                     RuleID = "taint_key"
	RuleTaintValue                   RuleID = "taint_value"
	RuleTaintEffect                  RuleID = "taint_effect"
	RuleTaintDuplicate               RuleID = "taint_duplicate"
	RuleExpireAfter                  RuleID = "expire_after"
	RuleTerminationGracePeriod       RuleID = "termination_grace_period"
	RuleConsolidationPolicy          RuleID = "consolidation_policy"
	RuleConsolidateAfter             RuleID = "consolidate_after"
	RuleConsolidateAfterRequired     RuleID = "consolidate_after_required"
	RuleBudgetsMax                   RuleID = "budgets_max"
	RuleBudgetNodes                  RuleID = "budget_nodes"
	RuleBudgetNodesInt32             RuleID = "budget_nodes_int32"
	RuleBudgetScheduleDurationPaired RuleID = "budget_schedule_duration_paired"
	RuleBudgetDuration               RuleID = "budget_duration"
	RuleBudgetSchedule               RuleID = "budget_schedule"
	RuleBudgetReasons                RuleID = "budget_reasons"
	RuleBudgetReasonsUnique          RuleID = "budget_reasons_unique"
	RuleNodeCount                    RuleID = "node_count"
)

// Limits of list sizes and values from the CRD.
const (
	MaxLabels       = 100
	MaxRequirements = 100
	MaxBudgets      = 50
	MaxMinValues    = 50
	MinWeight       = 1
	MaxWeight       = 100
	// MaxAnnotationsSize is Kubernetes' limit on the total size of an
	// object's annotations (keys and values), TotalAnnotationSizeLimitB.
	MaxAnnotationsSize = 256 * 1024
	// MaxBudgetNodes is the largest budget node count: Karpenter reads the
	// count as a 32-bit integer.
	MaxBudgetNodes = 2147483647
	// MaxNodeCount bounds the node counts given to the budget evaluator
	// (ValidateNodeCount).
	MaxNodeCount = 2147483647
)

// Operators lists the requirement operators Karpenter supports.
var Operators = []string{OperatorIn, OperatorNotIn, OperatorExists, OperatorDoesNotExist, OperatorGt, OperatorLt, OperatorGte, OperatorLte}

// TaintEffects lists the valid taint effects.
var TaintEffects = []string{TaintEffectNoSchedule, TaintEffectPreferNoSchedule, TaintEffectNoExecute}

// ConsolidationPolicies lists the valid consolidation policies.
var ConsolidationPolicies = []string{ConsolidationPolicyWhenEmpty, ConsolidationPolicyWhenEmptyOrUnderutilized, ConsolidationPolicyBalanced}

// Validate checks np against every rule of designs/nap.md §2: the CRD's admission
// rules, the AKS provider's, and the values Kubernetes admits but Karpenter
// cannot evaluate (it would then fail closed and block disruption). It
// validates np as written; defaults need not be applied first.
func Validate(np NodePool) field.Errors {
	var es field.Errors
	validateWeight(&es, np.Weight)
	validateLimits(&es, np.Limits)
	t := field.Root("template")
	validateLabels(&es, t.Child("labels"), np.Template.Labels)
	validateAnnotations(&es, t.Child("annotations"), np.Template.Annotations)
	validateNodeClassRef(&es, t.Child("node_class_ref"), np.Template.NodeClassRef)
	validateRequirements(&es, t.Child("requirements"), np.Template.Requirements)
	validateTaints(&es, t, np.Template.Taints, np.Template.StartupTaints)
	validateExpireAfter(&es, t.Child("expire_after"), np.Template.ExpireAfter)
	validateTerminationGracePeriod(&es, t.Child("termination_grace_period"), np.Template.TerminationGracePeriod)
	if np.Disruption != nil {
		d := field.Root("disruption")
		validateConsolidationPolicy(&es, d.Child("consolidation_policy"), np.Disruption.ConsolidationPolicy)
		validateConsolidateAfter(&es, d.Child("consolidate_after"), np.Disruption.ConsolidateAfter)
		validateBudgets(&es, d.Child("budgets"), np.Disruption.Budgets)
	}
	return es
}

// ValidateUpdate validates next and the transition from prev: on top of
// Validate, nodeClassRef.group and nodeClassRef.kind are immutable.
func ValidateUpdate(prev, next NodePool) field.Errors {
	es := Validate(next)
	p := field.Root("template").Child("node_class_ref")
	if prev.Template.NodeClassRef.Group != next.Template.NodeClassRef.Group {
		add(&es, p.Child("group"), RuleNodeClassRefImmutable,
			fmt.Sprintf("node_class_ref.group is immutable (was %q, now %q)", prev.Template.NodeClassRef.Group, next.Template.NodeClassRef.Group),
			"Keep the previous group, or replace the NodePool")
	}
	if prev.Template.NodeClassRef.Kind != next.Template.NodeClassRef.Kind {
		add(&es, p.Child("kind"), RuleNodeClassRefImmutable,
			fmt.Sprintf("node_class_ref.kind is immutable (was %q, now %q)", prev.Template.NodeClassRef.Kind, next.Template.NodeClassRef.Kind),
			"Keep the previous kind, or replace the NodePool")
	}
	return es
}

// ValidateBudgets applies the disruption-budget rules alone (paths under
// disruption.budgets), to check a budget design without a whole NodePool.
func ValidateBudgets(budgets []Budget) field.Errors {
	var es field.Errors
	validateBudgets(&es, field.Root("disruption").Child("budgets"), budgets)
	return es
}

// validateWeight enforces RuleWeightRange: 1–100 when set.
func validateWeight(es *field.Errors, w *int32) {
	if w != nil && (*w < MinWeight || *w > MaxWeight) {
		weightRule.add(es, field.Root("weight"), strconv.Itoa(int(*w)))
	}
}

// numberRule is the range rule of a whole-number attribute.
type numberRule struct {
	id     RuleID
	name   string
	lo, hi int64
	fix    string
}

func (r numberRule) add(es *field.Errors, p field.Path, got string) {
	add(es, p, r.id, fmt.Sprintf("%s must be a whole number from %d to %d, got %s", r.name, r.lo, r.hi, got), r.fix)
}

// check adds the rule's error when number (a decimal, as written) is not a
// whole number in range.
func (r numberRule) check(es *field.Errors, p field.Path, number string) {
	if v, ok := new(big.Rat).SetString(number); !ok || !v.IsInt() || v.Num().Cmp(big.NewInt(r.lo)) < 0 || v.Num().Cmp(big.NewInt(r.hi)) > 0 {
		r.add(es, p, number)
	}
}

var (
	weightRule = numberRule{RuleWeightRange, "weight", MinWeight, MaxWeight,
		"Set a weight from 1 to 100, or omit it (unset weight is treated as 0)"}
	minValuesRule = numberRule{RuleRequirementMinValues, "min_values", 1, MaxMinValues, "Set min_values from 1 to 50, or omit it"}
)

// ValidateNodeCount enforces RuleNodeCount on a node count given to the
// budget evaluator (a pool's nodes, or those disrupting), as written: a
// whole number from 0 to MaxNodeCount.
func ValidateNodeCount(p field.Path, number string) field.Errors {
	var es field.Errors
	numberRule{RuleNodeCount, p.String(), 0, MaxNodeCount, "Give a node count from 0 to 2147483647"}.check(&es, p, number)
	return es
}

// ValidateNumber checks a number written for a whole-number attribute of a
// NodePool — weight or template.requirements[i].min_values — before it is
// read into the model, whose integer fields cannot hold a fraction or a
// value beyond their range: it gets the attribute's own rule and range
// (RuleWeightRange, RuleRequirementMinValues), as Validate would give it.
// number is the decimal as written ("2.5", "99999999999999999999"). Other
// paths have no number rule and get nil.
func ValidateNumber(p field.Path, number string) field.Errors {
	var es field.Errors
	steps := p.Steps()
	switch {
	case len(steps) == 1 && steps[0].Name == "weight":
		weightRule.check(&es, p, number)
	case len(steps) == 4 && steps[0].Name == "template" && steps[1].Name == "requirements" && steps[3].Name == "min_values":
		minValuesRule.check(&es, p, number)
	}
	return es
}

// validateLimits enforces RuleLimitQuantity. Resource names are not
// checked: the CRD admits any key (an empty one too), and Karpenter only
// compares the resources it knows.
func validateLimits(es *field.Errors, limits map[string]string) {
	p := field.Root("limits")
	for _, k := range sortedKeys(limits) {
		if v := limits[k]; !validQuantity(v) {
			add(es, p.Key(k), RuleLimitQuantity, fmt.Sprintf("%q is not a Kubernetes quantity", v),
				`Use a quantity such as "100", "1000m", "64Gi" or "1e3"`)
		}
	}
}

// validateLabels enforces RuleLabelsMax, RuleLabelKey, RuleLabelValue,
// RuleRestrictedLabel and RuleKnownLabelValue on template labels.
func validateLabels(es *field.Errors, p field.Path, labels map[string]string) {
	if len(labels) > MaxLabels {
		add(es, p, RuleLabelsMax, fmt.Sprintf("at most %d labels are allowed, got %d", MaxLabels, len(labels)), "Remove labels, or move data that is not for selection into annotations")
	}
	for _, k := range sortedKeys(labels) {
		kp := p.Key(k)
		if errs := qualifiedNameErrors(k); len(errs) > 0 {
			add(es, kp, RuleLabelKey, fmt.Sprintf("label key %q is not a qualified name: %s", k, strings.Join(errs, "; ")),
				"Use an optional DNS subdomain prefix and a name of at most 63 alphanumerics, '-', '_' or '.', e.g. example.com/team")
		} else if why := RestrictedLabel(k); why != "" {
			add(es, kp, RuleRestrictedLabel, why, restrictedFix)
		}
		v := labels[k]
		if errs := labelValueErrors(v); len(errs) > 0 {
			add(es, kp, RuleLabelValue, fmt.Sprintf("label value %q is invalid: %s", v, strings.Join(errs, "; ")), labelValueFix)
		} else if allowed, bad := unknownValue(k, v); bad {
			add(es, kp, RuleKnownLabelValue, fmt.Sprintf("%q is not a known value of %s", v, k), "Use one of "+strings.Join(allowed, ", "))
		}
	}
}

// validateAnnotations enforces RuleAnnotationKey and RuleAnnotationsSize.
// The CRD does not check annotations, but Karpenter copies them onto every
// NodeClaim it creates, and the API server then applies its object-metadata
// rules (ValidateAnnotations: a qualified name, case-insensitively; 256 KiB
// in all): a pool that breaks them can never launch a node.
func validateAnnotations(es *field.Errors, p field.Path, annotations map[string]string) {
	size := 0
	for _, k := range sortedKeys(annotations) {
		size += len(k) + len(annotations[k])
		if errs := qualifiedNameErrors(strings.ToLower(k)); len(errs) > 0 {
			add(es, p.Key(k), RuleAnnotationKey, fmt.Sprintf("annotation key %q is not a qualified name: %s (Kubernetes would reject every NodeClaim the pool creates)", k, strings.Join(errs, "; ")),
				"Use an optional DNS subdomain prefix and a name of at most 63 alphanumerics, '-', '_' or '.', e.g. example.com/owner")
		}
	}
	if size > MaxAnnotationsSize {
		add(es, p, RuleAnnotationsSize, fmt.Sprintf("annotations take %d bytes, more than Kubernetes' limit of %d (Kubernetes would reject every NodeClaim the pool creates)", size, MaxAnnotationsSize),
			"Shorten or remove annotations")
	}
}

const restrictedFix = "Use a custom label in your own domain, or one of the well-known keys NAP allows"
const labelValueFix = "Use at most 63 characters: alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric (or an empty value)"

// validateNodeClassRef enforces RuleNodeClassRefRequired and
// RuleNodeClassRefGroup.
func validateNodeClassRef(es *field.Errors, p field.Path, ref NodeClassRef) {
	if strings.Contains(ref.Group, "/") {
		add(es, p.Child("group"), RuleNodeClassRefGroup, fmt.Sprintf("group %q contains '/': it is an API group, without a version", ref.Group),
			`Use the group alone, e.g. "karpenter.azure.com"`)
	}
	for _, f := range []struct{ name, value, example string }{
		{"group", ref.Group, "karpenter.azure.com"},
		{"kind", ref.Kind, "AKSNodeClass"},
		{"name", ref.Name, "default"},
	} {
		if f.value == "" {
			add(es, p.Child(f.name), RuleNodeClassRefRequired, "node_class_ref."+f.name+" is required",
				fmt.Sprintf("Set it, e.g. %q", f.example))
		}
	}
}

// validateRequirements enforces RuleRequirementsMax, RuleRequirementKey,
// RuleRestrictedLabel, RuleRequirementOperator, RuleRequirementInValues,
// RuleRequirementNumericValue, RuleRequirementMinValues,
// RuleRequirementValue and RuleKnownLabelValue.
func validateRequirements(es *field.Errors, p field.Path, reqs []Requirement) {
	if len(reqs) > MaxRequirements {
		add(es, p, RuleRequirementsMax, fmt.Sprintf("at most %d requirements are allowed, got %d", MaxRequirements, len(reqs)), "Merge or remove requirements")
	}
	for i, r := range reqs {
		rp := p.Index(i)
		if errs := qualifiedNameErrors(r.Key); len(errs) > 0 {
			add(es, rp.Child("key"), RuleRequirementKey, fmt.Sprintf("key %q is not a qualified name: %s", r.Key, strings.Join(errs, "; ")),
				"Use a label key such as karpenter.azure.com/sku-family")
		} else if why := RestrictedLabel(r.Key); why != "" {
			add(es, rp.Child("key"), RuleRestrictedLabel, why, restrictedFix)
		}
		if !slices.Contains(Operators, r.Operator) {
			add(es, rp.Child("operator"), RuleRequirementOperator, fmt.Sprintf("operator %q is not supported", r.Operator),
				"Use one of "+strings.Join(Operators, ", "))
		}
		vp := rp.Child("values")
		switch r.Operator {
		case OperatorIn:
			if len(r.Values) == 0 {
				add(es, vp, RuleRequirementInValues, "operator In needs at least one value", "Add a value, or use Exists")
			}
		case OperatorGt, OperatorLt, OperatorGte, OperatorLte:
			if len(r.Values) != 1 || !nonNegativeInt(r.Values[0]) {
				add(es, vp, RuleRequirementNumericValue, fmt.Sprintf("operator %s needs exactly one non-negative integer value, got %q", r.Operator, r.Values),
					`Use a single value such as ["4"]`)
			}
		}
		for _, v := range r.Values {
			if errs := labelValueErrors(v); len(errs) > 0 {
				add(es, vp, RuleRequirementValue, fmt.Sprintf("value %q is not a valid label value: %s", v, strings.Join(errs, "; ")), labelValueFix)
			}
		}
		validateKnownValues(es, rp, r)
		if mv := r.MinValues; mv != nil {
			switch {
			case *mv < 1 || *mv > MaxMinValues:
				minValuesRule.add(es, rp.Child("min_values"), strconv.Itoa(*mv))
			case r.Operator == OperatorIn && len(r.Values) < *mv:
				add(es, rp.Child("min_values"), RuleRequirementMinValues, fmt.Sprintf("min_values is %d but only %d values are listed", *mv, len(r.Values)),
					"List at least min_values values, or lower min_values")
			}
		}
	}
}

// validateKnownValues enforces RuleKnownLabelValue on a requirement the way
// Karpenter's validateWellKnownValues does: it fails open. Only In is
// checked, and only for keys with a closed value set; the requirement is
// rejected when none of its values is known, or when fewer known values
// remain than min_values. A list that mixes known and unknown values is
// admitted (Warnings says that the unknown ones never match).
func validateKnownValues(es *field.Errors, rp field.Path, r Requirement) {
	allowed, ok := KnownLabelValues[r.Key]
	if !ok || r.Operator != OperatorIn || len(r.Values) == 0 {
		return
	}
	known, _ := splitKnown(allowed, r.Values)
	switch {
	case len(known) == 0:
		add(es, rp.Child("values"), RuleKnownLabelValue, fmt.Sprintf("none of %q is a known value of %s, so Karpenter rejects the requirement (the NodePool never becomes ready)", r.Values, r.Key),
			"Use one of "+strings.Join(allowed, ", "))
	case r.MinValues != nil && len(known) < *r.MinValues:
		add(es, rp.Child("min_values"), RuleKnownLabelValue, fmt.Sprintf("min_values is %d but only %d of %q are known values of %s, so Karpenter rejects the requirement (the NodePool never becomes ready)", *r.MinValues, len(known), r.Values, r.Key),
			fmt.Sprintf("List at least %d of %s, or lower min_values", *r.MinValues, strings.Join(allowed, ", ")))
	}
}

// splitKnown splits values into those in allowed and the others, keeping
// duplicates as Karpenter's lo.FilterReject does.
func splitKnown(allowed, values []string) (known, unknown []string) {
	for _, v := range values {
		if slices.Contains(allowed, v) {
			known = append(known, v)
		} else {
			unknown = append(unknown, v)
		}
	}
	return known, unknown
}

func nonNegativeInt(s string) bool {
	v, err := strconv.ParseInt(s, 10, 64)
	return err == nil && v >= 0
}

// validateTaints enforces RuleTaintKey, RuleTaintValue, RuleTaintEffect and
// RuleTaintDuplicate across taints and startup_taints together.
func validateTaints(es *field.Errors, t field.Path, taints, startup []Taint) {
	type keyEffect struct{ key, effect string }
	seen := map[keyEffect]string{}
	for _, set := range []struct {
		name   string
		taints []Taint
	}{{"taints", taints}, {"startup_taints", startup}} {
		for i, taint := range set.taints {
			tp := t.Child(set.name).Index(i)
			if taint.Key == "" {
				add(es, tp.Child("key"), RuleTaintKey, "taint key is required", "Set a key such as example.com/dedicated")
			} else if errs := qualifiedNameErrors(taint.Key); len(errs) > 0 {
				add(es, tp.Child("key"), RuleTaintKey, fmt.Sprintf("taint key %q is not a qualified name: %s", taint.Key, strings.Join(errs, "; ")),
					"Use a key such as example.com/dedicated")
			}
			validateTaintValue(es, tp.Child("value"), taint.Value)
			if !slices.Contains(TaintEffects, taint.Effect) {
				add(es, tp.Child("effect"), RuleTaintEffect, fmt.Sprintf("effect %q is not valid", taint.Effect),
					"Use one of "+strings.Join(TaintEffects, ", "))
			}
			ke := keyEffect{taint.Key, taint.Effect}
			if first, dup := seen[ke]; dup {
				add(es, tp, RuleTaintDuplicate, fmt.Sprintf("taint %s:%s duplicates %s (the key/effect pair must be unique across taints and startup_taints)", taint.Key, taint.Effect, first),
					"Remove one of them, or change its key or effect")
			} else {
				seen[ke] = tp.String()
			}
		}
	}
}

// validateTaintValue enforces RuleTaintValue: an omitted value is fine; a
// set one must match the CRD's pattern, which rejects "", and pass
// Karpenter's runtime check IsQualifiedName (validateTaintsField), which
// admits "example.com/foo" and limits the length.
func validateTaintValue(es *field.Errors, p field.Path, v *string) {
	switch {
	case v == nil:
	case *v == "":
		add(es, p, RuleTaintValue, `taint value "" is not allowed: the CRD rejects an explicit empty value`, "Omit value for a taint without one")
	default:
		if errs := qualifiedNameErrors(*v); len(errs) > 0 {
			add(es, p, RuleTaintValue, fmt.Sprintf("taint value %q is invalid: %s", *v, strings.Join(errs, "; ")),
				"Use an optional DNS subdomain prefix and a name of at most 63 alphanumerics, '-', '_' or '.', e.g. gpu or example.com/gpu")
		}
	}
}

// ValidateExpireAfter checks an expireAfter value at p (RuleExpireAfter): a
// NodeClaim's, say, which takes the same values as the pool's template.
func ValidateExpireAfter(p field.Path, v string) field.Errors {
	var es field.Errors
	validateExpireAfter(&es, p, &v)
	return es
}

// validateExpireAfter enforces RuleExpireAfter.
func validateExpireAfter(es *field.Errors, p field.Path, v *string) {
	if v != nil {
		checkDuration(es, p, RuleExpireAfter, *v, true)
	}
}

// validateTerminationGracePeriod enforces RuleTerminationGracePeriod.
func validateTerminationGracePeriod(es *field.Errors, p field.Path, v *string) {
	if v != nil {
		checkDuration(es, p, RuleTerminationGracePeriod, *v, false)
	}
}

// checkDuration checks a duration attribute against its CRD pattern and that
// Go can represent it (Kubernetes admits "9999999999h", which Karpenter then
// cannot read).
func checkDuration(es *field.Errors, p field.Path, id RuleID, v string, allowNever bool) {
	pattern, units, example := durationPattern, "only s, m and h units", `"30s", "10m" or "1h30m"`
	if allowNever {
		pattern, units, example = nillableDurationPattern, `only s, m and h units, or "Never"`, `"30s", "720h", "1h30m" or "Never"`
	}
	if !pattern.MatchString(v) {
		add(es, p, id, fmt.Sprintf("%q is not a valid duration (%s)", v, units), "Use e.g. "+example)
		return
	}
	if v != Never {
		if _, err := time.ParseDuration(v); err != nil {
			add(es, p, id, fmt.Sprintf("%q is too large to represent", v), "Use a duration below about 2562047h")
		}
	}
}

// validateConsolidationPolicy enforces RuleConsolidationPolicy.
func validateConsolidationPolicy(es *field.Errors, p field.Path, v *string) {
	if v != nil && !slices.Contains(ConsolidationPolicies, *v) {
		add(es, p, RuleConsolidationPolicy, fmt.Sprintf("consolidation policy %q is not valid", *v), "Use WhenEmpty, WhenEmptyOrUnderutilized or Balanced")
	}
}

// validateConsolidateAfter enforces RuleConsolidateAfterRequired and
// RuleConsolidateAfter. It is called for an explicit disruption block only:
// the CRD requires consolidateAfter inside the block, and defaults an
// omitted block to {consolidateAfter: 0s}.
func validateConsolidateAfter(es *field.Errors, p field.Path, v *string) {
	if v == nil {
		add(es, p, RuleConsolidateAfterRequired, "consolidate_after is required when the disruption block is set",
			`Set it, e.g. "30s", "0s" or "Never", or omit the whole disruption block (consolidate_after "0s" and the default budget)`)
		return
	}
	checkDuration(es, p, RuleConsolidateAfter, *v, true)
}

// validateBudgets enforces RuleBudgetsMax, RuleBudgetNodes,
// RuleBudgetNodesInt32, RuleBudgetScheduleDurationPaired,
// RuleBudgetDuration, RuleBudgetSchedule and RuleBudgetReasons.
func validateBudgets(es *field.Errors, p field.Path, budgets []Budget) {
	if len(budgets) > MaxBudgets {
		add(es, p, RuleBudgetsMax, fmt.Sprintf("at most %d budgets are allowed, got %d", MaxBudgets, len(budgets)), "Merge or remove budgets")
	}
	for i, b := range budgets {
		bp := p.Index(i)
		if b.Nodes != nil {
			validateBudgetNodes(es, bp.Child("nodes"), *b.Nodes)
		}
		if (b.Schedule == nil) != (b.Duration == nil) {
			missing, present := "duration", "schedule"
			if b.Schedule == nil {
				missing, present = "schedule", "duration"
			}
			add(es, bp.Child(missing), RuleBudgetScheduleDurationPaired, fmt.Sprintf("%s is set without %s; schedule and duration must be set together", present, missing),
				fmt.Sprintf("Set %s too, or remove %s to make the budget always active", missing, present))
		}
		if b.Duration != nil && !budgetDurationPattern.MatchString(*b.Duration) {
			add(es, bp.Child("duration"), RuleBudgetDuration, fmt.Sprintf("%q is not a valid budget duration (hours and minutes only)", *b.Duration),
				`Use e.g. "10m", "8h" or "1h30m"`)
		} else if b.Duration != nil {
			if _, err := time.ParseDuration(*b.Duration); err != nil {
				add(es, bp.Child("duration"), RuleBudgetDuration, fmt.Sprintf("%q is too large to represent", *b.Duration), "Use a duration below about 2562047h")
			}
		}
		if b.Schedule != nil {
			if rule, fix, ok := checkSchedule(*b.Schedule); !ok {
				add(es, bp.Child("schedule"), RuleBudgetSchedule, rule, fix)
			}
		}
		for j, r := range b.Reasons {
			switch {
			case !slices.Contains(reasonNames(), r):
				add(es, bp.Child("reasons"), RuleBudgetReasons, fmt.Sprintf("reason %q is not a disruption reason", r), "Use Empty, Drifted or Underutilized")
			case slices.Contains(b.Reasons[:j], r):
				add(es, bp.Child("reasons"), RuleBudgetReasonsUnique, fmt.Sprintf("reason %q is listed twice (the CRD declares reasons a set)", r), "List each reason once")
			}
		}
	}
}

// validateBudgetNodes enforces RuleBudgetNodes and RuleBudgetNodesInt32.
func validateBudgetNodes(es *field.Errors, p field.Path, nodes string) {
	if !budgetNodesPattern.MatchString(nodes) {
		add(es, p, RuleBudgetNodes, fmt.Sprintf("%q is not a node count or a percentage from 0%% to 100%%", nodes), `Use e.g. "5" or "10%"`)
		return
	}
	if !strings.HasSuffix(nodes, "%") {
		if _, err := strconv.ParseInt(nodes, 10, 32); err != nil {
			add(es, p, RuleBudgetNodesInt32, fmt.Sprintf("%s is out of range: a node count must be from 0 to %d (Kubernetes admits a larger one, but Karpenter reads it as a 32-bit integer and gets it wrong)", nodes, MaxBudgetNodes),
				fmt.Sprintf("Use a count from 0 to %d, or remove the budget for unlimited disruption", MaxBudgetNodes))
		}
	}
}

func reasonNames() []string {
	out := make([]string, len(Reasons))
	for i, r := range Reasons {
		out[i] = string(r)
	}
	return out
}
