package nodepool

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Field names used in drift explanations.
const (
	FieldTemplateLabels         = "template.labels"
	FieldTemplateAnnotations    = "template.annotations"
	FieldTemplateTaints         = "template.taints"
	FieldTemplateStartupTaints  = "template.startup_taints"
	FieldTemplateNodeClassRef   = "template.node_class_ref"
	FieldTemplateExpireAfter    = "template.expire_after"
	FieldTemplateTerminationGP  = "template.termination_grace_period"
	FieldTemplateRequirements   = "template.requirements"
	FieldWeight                 = "weight"
	FieldLimits                 = "limits"
	FieldDisruption             = "disruption"
	FieldDisruptionBudgets      = "disruption.budgets"
	FieldDisruptionPolicy       = "disruption.consolidation_policy"
	FieldDisruptionConsolidateA = "disruption.consolidate_after"
)

// NodeDrift is the drift verdict for one existing node.
type NodeDrift struct {
	Node    Node
	Drifted bool
	// Reasons are changed hash fields (e.g. "template.labels") and/or
	// incompatible requirements (e.g. "requirement
	// karpenter.azure.com/sku-family In [D] excludes value E").
	Reasons []string
}

// DriftResult is what a change from one NodePool spec to another does to the
// pool's existing nodes.
type DriftResult struct {
	Nodes []NodeDrift
	// Drifted is the number of drifted nodes, Total the number of nodes.
	Drifted, Total int
	// HashFields are the changed fields that drift every node.
	HashFields []string
	// RequirementsChanged is true when the requirements differ; only nodes
	// whose labels they exclude drift.
	RequirementsChanged bool
	// BehaviourFields are changed fields that never drift (weight, limits,
	// disruption.*).
	BehaviourFields []string
	// Summary is a one-line explanation.
	Summary string
}

// Drift classifies what changing a NodePool from before to after does to nodes
// (designs/nap.md §6), as Karpenter's drift controller would:
//
//   - a change to a hash field — template labels, annotations, taints,
//     startup taints, nodeClassRef, expireAfter or terminationGracePeriod,
//     compared after defaults and by value (taint order and equivalent
//     durations such as 60m/1h do not count) — drifts every node;
//   - a change to requirements drifts only the nodes whose labels are
//     incompatible with the new requirements (see Incompatibilities), so
//     widening an In drifts none;
//   - weight, limits and disruption.* are behaviour fields and never drift.
func Drift(before, after NodePool, nodes []Node) DriftResult {
	o, n := WithDefaults(before), WithDefaults(after)
	res := DriftResult{Total: len(nodes)}
	ot, nt := o.Template, n.Template
	if !equalMaps(ot.Labels, nt.Labels) {
		res.HashFields = append(res.HashFields, FieldTemplateLabels)
	}
	if !equalMaps(ot.Annotations, nt.Annotations) {
		res.HashFields = append(res.HashFields, FieldTemplateAnnotations)
	}
	if !equalTaints(ot.Taints, nt.Taints) {
		res.HashFields = append(res.HashFields, FieldTemplateTaints)
	}
	if !equalTaints(ot.StartupTaints, nt.StartupTaints) {
		res.HashFields = append(res.HashFields, FieldTemplateStartupTaints)
	}
	if ot.NodeClassRef != nt.NodeClassRef {
		res.HashFields = append(res.HashFields, FieldTemplateNodeClassRef)
	}
	if !equalDurations(ot.ExpireAfter, nt.ExpireAfter) {
		res.HashFields = append(res.HashFields, FieldTemplateExpireAfter)
	}
	if !equalDurations(ot.TerminationGracePeriod, nt.TerminationGracePeriod) {
		res.HashFields = append(res.HashFields, FieldTemplateTerminationGP)
	}
	res.RequirementsChanged = !equalRequirements(ot.Requirements, nt.Requirements)

	if (o.Weight == nil) != (n.Weight == nil) || (o.Weight != nil && *o.Weight != *n.Weight) {
		res.BehaviourFields = append(res.BehaviourFields, FieldWeight)
	}
	if !equalMaps(o.Limits, n.Limits) {
		res.BehaviourFields = append(res.BehaviourFields, FieldLimits)
	}
	if deref(o.Disruption.ConsolidationPolicy) != deref(n.Disruption.ConsolidationPolicy) {
		res.BehaviourFields = append(res.BehaviourFields, FieldDisruptionPolicy)
	}
	if !equalPtr(o.Disruption.ConsolidateAfter, n.Disruption.ConsolidateAfter) {
		res.BehaviourFields = append(res.BehaviourFields, FieldDisruptionConsolidateA)
	}
	if !equalBudgets(o.Disruption.Budgets, n.Disruption.Budgets) {
		res.BehaviourFields = append(res.BehaviourFields, FieldDisruptionBudgets)
	}

	for _, node := range nodes {
		nd := NodeDrift{Node: node, Reasons: append([]string(nil), res.HashFields...)}
		if res.RequirementsChanged {
			for _, in := range Incompatibilities(node.Labels, nt.Requirements) {
				nd.Reasons = append(nd.Reasons, in.String())
			}
		}
		nd.Drifted = len(nd.Reasons) > 0
		if nd.Drifted {
			res.Drifted++
		}
		res.Nodes = append(res.Nodes, nd)
	}
	res.Summary = res.summary()
	return res
}

func (r DriftResult) summary() string {
	var why []string
	if len(r.HashFields) > 0 {
		why = append(why, strings.Join(r.HashFields, ", ")+" changed (drifts every node)")
	}
	if r.RequirementsChanged {
		req := 0
		for _, n := range r.Nodes {
			for _, reason := range n.Reasons {
				if strings.HasPrefix(reason, "requirement ") {
					req++
					break
				}
			}
		}
		why = append(why, fmt.Sprintf("template.requirements changed (%d node(s) no longer satisfy them)", req))
	}
	if len(r.BehaviourFields) > 0 {
		why = append(why, strings.Join(r.BehaviourFields, ", ")+" changed (never drifts)")
	}
	s := fmt.Sprintf("%d of %d node(s) drift", r.Drifted, r.Total)
	if len(why) == 0 {
		return s + ": no change"
	}
	return s + ": " + strings.Join(why, "; ")
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// equalTaints compares taints as sets, as Karpenter's hash does
// (SlicesAsSets). Karpenter's corev1.Taint has a plain string value, so an
// omitted value hashes like an empty one.
func equalTaints(a, b []Taint) bool {
	key := func(ts []Taint) []string {
		out := make([]string, len(ts))
		for i, t := range ts {
			out[i] = t.Key + "\x00" + deref(t.Value) + "\x00" + t.Effect
		}
		sort.Strings(out)
		return out
	}
	return equalStrings(key(a), key(b))
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// equalDurations compares duration attributes by value ("60m" == "1h");
// "Never" only equals "Never". Unset differs from "0s": Karpenter's hash
// (hashstructure with IgnoreZeroValue) skips a nil pointer but hashes a set
// pointer to a zero duration, and the two mean different things for
// terminationGracePeriod (wait for the drain forever, or not at all).
func equalDurations(a, b *string) bool {
	val := func(p *string) string {
		if p == nil {
			return "unset"
		}
		if *p == Never {
			return Never
		}
		d, err := time.ParseDuration(*p)
		if err != nil {
			return "invalid:" + *p
		}
		return d.String()
	}
	return val(a) == val(b)
}

func equalPtr(a, b *string) bool { return (a == nil) == (b == nil) && deref(a) == deref(b) }

// equalRequirements compares requirements ignoring order (of requirements
// and of values).
func equalRequirements(a, b []Requirement) bool {
	key := func(rs []Requirement) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			vals := append([]string(nil), r.Values...)
			sort.Strings(vals)
			mv := "-"
			if r.MinValues != nil {
				mv = fmt.Sprint(*r.MinValues)
			}
			out[i] = strings.Join([]string{normalizeKey(r.Key), r.Operator, strings.Join(vals, "\x01"), mv}, "\x00")
		}
		sort.Strings(out)
		return out
	}
	return equalStrings(key(a), key(b))
}

func equalBudgets(a, b []Budget) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !equalPtr(x.Nodes, y.Nodes) || !equalPtr(x.Schedule, y.Schedule) || !equalPtr(x.Duration, y.Duration) ||
			(x.Reasons == nil) != (y.Reasons == nil) || !equalStrings(x.Reasons, y.Reasons) {
			return false
		}
	}
	return true
}

// Replacement estimates how drifted nodes get replaced at the pace the
// Drifted budgets allow.
type Replacement struct {
	Drifted int
	// PerPass is how many nodes one pass replaces (the Drifted allowance,
	// capped at Drifted).
	PerPass int
	// Passes is ceil(Drifted / PerPass); 0 when nothing drifts or when
	// replacement is blocked for the whole look-ahead.
	Passes int
	// Unlimited is true when no budget restricts Drifted (all nodes in one
	// pass).
	Unlimited bool
	// BlockedNow is true when the Drifted allowance is 0 at now.
	BlockedNow bool
	// StartsAt is now, or when the allowance next becomes non-zero; zero
	// when it stays 0 for the whole look-ahead (Blocked).
	StartsAt time.Time
	Blocked  bool
	// Budgets are the 0-based indexes of the budgets that set the pace.
	Budgets []int
	// Message explains the estimate.
	Message string
}

// ReplacementLookahead is how far ReplacementEstimate looks for a non-zero
// Drifted allowance.
const ReplacementLookahead = 7 * 24 * time.Hour

// ReplacementEstimate estimates how many passes Karpenter needs to replace
// drifted nodes of a pool of total nodes, disrupting of them already being
// disrupted: ceil(drifted / allowance), using the Drifted allowance now (net
// of the nodes disrupting, designs/nap.md §4), or — when it is 0 now — the
// first non-zero allowance of the next 7 days (from the Timeline). budgets
// are evaluated as given (pass WithDefaults(np).Disruption.Budgets for defaults).
func ReplacementEstimate(drifted int, budgets []Budget, total, disrupting int, now time.Time) Replacement {
	r := Replacement{Drifted: drifted}
	if drifted <= 0 {
		r.Message = "no drifted node to replace"
		return r
	}
	now = now.UTC()
	tl := Timeline(budgets, total, disrupting, now, ReplacementLookahead)[Drifted]
	for i, iv := range tl {
		if !iv.Unlimited && iv.Allowed <= 0 {
			continue
		}
		r.BlockedNow = i > 0
		r.StartsAt = iv.Start
		r.Unlimited = iv.Unlimited
		r.Budgets = iv.Budgets
		r.PerPass = min(iv.Allowed, drifted)
		r.Passes = (drifted + r.PerPass - 1) / r.PerPass
		break
	}
	if r.PerPass == 0 {
		r.Blocked, r.BlockedNow = true, true
		why := "no budget allows it"
		if len(tl) > 0 {
			why = "the Drifted allowance is 0"
			if tl[0].FailedClosed {
				why = "a budget cannot be evaluated (fail closed)"
			} else if len(tl[0].Budgets) > 0 {
				why += " (" + budgetRefs(tl[0].Budgets) + ")"
			}
		}
		r.Message = fmt.Sprintf("%d drifted node(s) cannot be replaced within the next 7 days: %s", drifted, why)
		return r
	}
	pace := fmt.Sprintf("%d per pass", r.PerPass)
	if r.Unlimited {
		pace = "all at once (no budget restricts Drifted)"
	} else {
		pace += " (" + budgetRefs(r.Budgets) + ")"
	}
	when := "starting now"
	if r.BlockedNow {
		when = fmt.Sprintf("starting %s (Drifted allowance is 0 until then)", r.StartsAt.Format("Mon 2006-01-02 15:04 UTC"))
	}
	r.Message = fmt.Sprintf("%d drifted node(s): %s, %d pass(es), %s", drifted, pace, r.Passes, when)
	return r
}
