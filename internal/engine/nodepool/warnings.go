package nodepool

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// Kinds of warnings returned by Warnings: the ID of each field.Warning.
const (
	// WarnEmptyBudgets: an explicitly empty budget list (no_budgets = true,
	// Karpenter's budgets: []) means unlimited disruption.
	WarnEmptyBudgets = "empty_budgets"
	// WarnBlocksForever: an unscheduled nodes = "0" budget blocks voluntary
	// disruption at all times.
	WarnBlocksForever = "blocks_forever"
	// WarnNeverFires: a schedule that never fires makes its budget always
	// active.
	WarnNeverFires = "schedule_never_fires"
	// WarnDurationCoversPeriod: duration >= the longest gap between schedule
	// hits makes the budget always active.
	WarnDurationCoversPeriod = "duration_covers_period"
	// WarnNeverActive: a duration of 0 makes the budget never active.
	WarnNeverActive = "never_active"
	// WarnReasonsEmpty: reasons = [] makes the budget apply to nothing.
	WarnReasonsEmpty = "reasons_empty"
	// WarnCannotRaise: a scheduled budget next to an always-active,
	// at-least-as-strict budget has no effect (the "weekend only" pattern).
	WarnCannotRaise = "scheduled_budget_cannot_raise"
	// WarnUnlimitedOutsideWindows: every budget of a reason is scheduled, so
	// disruption is unlimited whenever none is active (the "gradual"
	// pattern).
	WarnUnlimitedOutsideWindows = "unlimited_outside_windows"
	// WarnReasonUnbudgeted: no budget applies to a reason, so it is
	// unlimited at all times.
	WarnReasonUnbudgeted = "reason_unbudgeted"
	// WarnUnknownValues: an In requirement on a key with a closed value set
	// lists known and unknown values; Karpenter admits it and the unknown
	// ones never match.
	WarnUnknownValues = "unknown_label_values"
	// WarnBalanced: consolidation_policy = Balanced consolidates an
	// underutilized node only when the saving outweighs the disruption.
	WarnBalanced = "balanced_consolidation"
)

func newWarning(p field.Path, id, msg string) field.Warning {
	return field.Warning{Path: p, ID: id, Message: msg}
}

// budgetFacts is the static analysis of one (defaulted, valid) budget.
type budgetFacts struct {
	index     int
	budget    Budget
	pct       bool // nodes is a percentage
	n         int  // nodes number (count or percent)
	scheduled bool
	// always is true when the budget is active at all times: unscheduled,
	// a schedule that never fires, or duration >= the longest gap.
	always bool
	// never is true when the budget is never active (duration 0).
	never   bool
	pattern firingPattern
	d       time.Duration
}

func (f budgetFacts) zero() bool { return f.n == 0 }

// Warnings returns the accepted-but-surprising aspects of np (designs/nap.md §2),
// each saying what actually happens. It needs no clock: schedules are
// analysed over their whole cycle. Budgets that fail Validate are ignored.
func Warnings(np NodePool) []field.Warning {
	ws := requirementWarnings(np.Template.Requirements)
	if np.Disruption != nil && deref(np.Disruption.ConsolidationPolicy) == ConsolidationPolicyBalanced {
		ws = append(ws, newWarning(field.Root("disruption").Child("consolidation_policy"), WarnBalanced,
			"Balanced consolidates an underutilized node only when the cost it saves outweighs the disruption it causes (Karpenter scores each move, with k = 2), "+
				"so whether Karpenter uses the Underutilized allowance of the preview also depends on instance prices. Budgets, the timeline and empty-node consolidation are those of WhenEmptyOrUnderutilized"))
	}
	return append(ws, budgetWarnings(np)...)
}

// requirementWarnings reports In requirements that mix known and unknown
// values of a key with a closed value set. Karpenter's
// validateWellKnownValues admits them (it only logs the unknown values), and
// the unknown values can never match a node. Requirements Validate rejects
// are left to it.
func requirementWarnings(reqs []Requirement) []field.Warning {
	var ws []field.Warning
	for i, r := range reqs {
		allowed, ok := KnownLabelValues[r.Key]
		if !ok || r.Operator != OperatorIn {
			continue
		}
		known, unknown := splitKnown(allowed, r.Values)
		if len(known) == 0 || len(unknown) == 0 || (r.MinValues != nil && len(known) < *r.MinValues) {
			continue
		}
		ws = append(ws, newWarning(field.Root("template").Child("requirements").Index(i).Child("values"), WarnUnknownValues, fmt.Sprintf(
			"%q can never match: %s only takes %s. Karpenter admits the requirement, logs the unknown values and uses %q only; remove them",
			unknown, r.Key, strings.Join(allowed, ", "), known)))
	}
	return ws
}

// budgetWarnings are the warnings about disruption budgets.
func budgetWarnings(np NodePool) []field.Warning {
	bp := field.Root("disruption").Child("budgets")
	if b := np.Budgets(); b != nil && len(b) == 0 {
		return []field.Warning{newWarning(bp, WarnEmptyBudgets,
			"no_budgets = true (Karpenter's budgets: []), so no budget limits voluntary disruption: Karpenter may disrupt every node of the pool at once (Empty, Drifted and Underutilized are unlimited). Remove no_budgets to get the default budget (nodes = \"10%\")")}
	}
	budgets := WithDefaults(np).Disruption.Budgets
	var ws []field.Warning
	var facts []budgetFacts
	for i, b := range budgets {
		f, ok := analyzeBudget(i, b)
		if !ok {
			continue
		}
		p := bp.Index(i)
		if b.Reasons != nil && len(b.Reasons) == 0 {
			ws = append(ws, newWarning(p.Child("reasons"), WarnReasonsEmpty,
				"reasons is explicitly empty, so this budget applies to no disruption reason and has no effect. Remove reasons to apply it to every reason, or list the reasons it should limit"))
			continue
		}
		facts = append(facts, f)
		switch {
		case !f.scheduled && f.zero():
			ws = append(ws, newWarning(p.Child("nodes"), WarnBlocksForever, fmt.Sprintf(
				"nodes = %q without a schedule blocks voluntary disruption (%s) at all times; nodes are only replaced when they expire. Add schedule and duration to block only during a window",
				*b.Nodes, joinReasons(budgetReasons(b)))))
		case f.scheduled && !f.pattern.fires:
			ws = append(ws, newWarning(p.Child("schedule"), WarnNeverFires, fmt.Sprintf(
				"schedule %q never fires, so Karpenter treats the budget as always active (nodes = %q at all times)", *b.Schedule, *b.Nodes)))
		case f.scheduled && f.d > 0 && f.d >= f.pattern.maxGap:
			ws = append(ws, newWarning(p.Child("duration"), WarnDurationCoversPeriod, fmt.Sprintf(
				"duration %s is at least the longest gap between hits of %q, which is %s, so the budget is always active (nodes = %q at all times)",
				*b.Duration, *b.Schedule, formatDuration(f.pattern.maxGap), *b.Nodes)))
		case f.never:
			ws = append(ws, newWarning(p.Child("duration"), WarnNeverActive, fmt.Sprintf(
				"duration %s makes the budget never active (its windows [hit, hit+%s) are empty)", *b.Duration, *b.Duration)))
		}
	}
	ws = append(ws, cannotRaiseWarnings(bp, facts)...)
	ws = append(ws, unlimitedWarnings(bp, facts, len(budgets))...)
	return ws
}

// analyzeBudget returns the facts of a budget, or false if it is invalid.
func analyzeBudget(i int, b Budget) (budgetFacts, bool) {
	f := budgetFacts{index: i, budget: b, scheduled: b.Scheduled()}
	nodes := deref(b.Nodes)
	if !budgetNodesPattern.MatchString(nodes) {
		return f, false
	}
	f.pct = strings.HasSuffix(nodes, "%")
	n, err := strconv.ParseInt(strings.TrimSuffix(nodes, "%"), 10, 32)
	if err != nil {
		return f, false
	}
	f.n = int(n)
	if !f.scheduled {
		f.always = true
		return f, true
	}
	if b.Schedule == nil || b.Duration == nil || !budgetDurationPattern.MatchString(*b.Duration) {
		return f, false
	}
	if _, _, ok := checkSchedule(*b.Schedule); !ok {
		return f, false
	}
	sched, _ := ParseSchedule(*b.Schedule)
	d, err := time.ParseDuration(*b.Duration)
	if err != nil {
		return f, false
	}
	p, ok := analyze(sched)
	if !ok {
		return f, false
	}
	f.pattern, f.d = p, d
	f.always = !p.fires || (d > 0 && d >= p.maxGap)
	f.never = p.fires && d <= 0
	return f, true
}

// cannotRaiseWarnings finds scheduled budgets that can never lower the
// allowance below an always-active budget of the same reasons: they cannot
// "open" a window, because budgets only restrict.
func cannotRaiseWarnings(bp field.Path, facts []budgetFacts) []field.Warning {
	var ws []field.Warning
	for _, s := range facts {
		if s.always || s.never {
			continue
		}
		var reasons []Reason
		var by *budgetFacts
		for _, r := range Reasons {
			if !s.budget.AppliesTo(r) {
				continue
			}
			for j := range facts {
				u := &facts[j]
				if !u.always || !u.budget.AppliesTo(r) || !neverBelow(s, *u) {
					continue
				}
				if by == nil || u.n < by.n {
					by = u
				}
				reasons = append(reasons, r)
				break
			}
		}
		if by == nil {
			continue
		}
		actual := fmt.Sprintf("at most %s at all times (budgets[%d])", nodesPhrase(*by), by.index)
		if by.zero() {
			actual = fmt.Sprintf("0 at all times (budgets[%d])", by.index)
		}
		kind := "has no schedule"
		if by.scheduled {
			kind = "is active at all times"
		}
		ws = append(ws, newWarning(bp.Index(s.index), WarnCannotRaise, fmt.Sprintf(
			"this budget (nodes = %q on %q for %s) can never raise the allowance: budgets[%d] (nodes = %q) %s, and the most restrictive active budget wins. Actually allowed for %s: %s. Budgets only restrict: to allow disruption only in this window, give budgets[%d] a schedule covering the other times instead",
			*s.budget.Nodes, *s.budget.Schedule, *s.budget.Duration, by.index, *by.budget.Nodes, kind, joinReasons(reasons), actual, by.index)))
	}
	return ws
}

// neverBelow reports whether budget s allows at least as much as u for every
// pool size, so that s can never be the binding one while u is active.
func neverBelow(s, u budgetFacts) bool {
	switch {
	case u.zero():
		return true
	case s.pct == u.pct:
		return s.n >= u.n
	}
	return false
}

func nodesPhrase(f budgetFacts) string {
	if f.pct {
		return strconv.Itoa(f.n) + "% of the nodes"
	}
	return strconv.Itoa(f.n) + " node(s)"
}

// unlimitedWarnings reports reasons that some time (or always) have no
// active budget, grouping reasons with the same applicable budgets.
func unlimitedWarnings(bp field.Path, facts []budgetFacts, nBudgets int) []field.Warning {
	groups := map[string][]Reason{}
	var order []string
	applicable := map[string][]budgetFacts{}
	for _, r := range Reasons {
		var fs []budgetFacts
		var ids []string
		for _, f := range facts {
			if f.budget.AppliesTo(r) && !f.never {
				fs = append(fs, f)
				ids = append(ids, strconv.Itoa(f.index))
			}
		}
		key := strings.Join(ids, ",")
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], r)
		applicable[key] = fs
	}
	var ws []field.Warning
	for _, key := range order {
		reasons, fs := groups[key], applicable[key]
		if len(fs) == 0 {
			if nBudgets > 0 {
				ws = append(ws, newWarning(bp, WarnReasonUnbudgeted, fmt.Sprintf(
					"no active budget applies to %s, so that disruption is unlimited at all times. Add a budget without reasons, or one listing them", joinReasons(reasons))))
			}
			continue
		}
		anyAlways := false
		for _, f := range fs {
			anyAlways = anyAlways || f.always
		}
		if anyAlways {
			continue
		}
		when, ok := describeUnlimited(fs)
		if !ok {
			continue // the windows together cover all times
		}
		ws = append(ws, newWarning(bp, WarnUnlimitedOutsideWindows, fmt.Sprintf(
			"every budget for %s has a schedule, so disruption is unlimited whenever none of them is active: %s. Add a budget without schedule (e.g. nodes = \"10%%\") to bound those times",
			joinReasons(reasons), when)))
	}
	return ws
}

// Reference periods for describing schedules without a clock: 2001-01-01
// is a Monday.
var (
	refWeek = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	refDay  = refWeek.Add(24 * time.Hour)
)

// describeUnlimited says when none of the scheduled budgets fs is active, or
// false when they cover all times.
func describeUnlimited(fs []budgetFacts) (string, bool) {
	daily, weekly := true, true
	for _, f := range fs {
		daily = daily && f.pattern.everyDay
		weekly = weekly && f.pattern.weekly
	}
	union := func(from time.Time, length time.Duration) []window {
		var all []window
		for _, f := range fs {
			sched, _ := ParseSchedule(*f.budget.Schedule)
			all = append(all, activeSpans(sched, f.d, from, from.Add(length))...)
		}
		sort.Slice(all, func(i, j int) bool { return all[i].start.Before(all[j].start) })
		return joinWrap(mergeSpans(all, from, from.Add(length)), from, from.Add(length))
	}
	refs := make([]string, len(fs))
	for i, f := range fs {
		refs[i] = fmt.Sprintf("budgets[%d]", f.index)
	}
	switch {
	case daily:
		ws := union(refDay, 24*time.Hour)
		if len(ws) == 1 && ws[0].end.Sub(ws[0].start) >= 24*time.Hour {
			return "", false
		}
		parts := make([]string, len(ws))
		for i, w := range ws {
			parts[i] = clockOf(w.start, refDay) + "–" + clockOf(w.end, refDay)
		}
		return "unlimited outside " + field.And(parts) + " UTC (every day)", true
	case weekly:
		ws := union(refWeek, 7*24*time.Hour)
		if len(ws) == 1 && ws[0].end.Sub(ws[0].start) >= 7*24*time.Hour {
			return "", false
		}
		parts := make([]string, len(ws))
		for i, w := range ws {
			parts[i] = strings.TrimSuffix(formatRange(w.start, w.end), " UTC")
		}
		return "unlimited outside " + field.And(parts) + " UTC (every week)", true
	}
	return "unlimited at any time outside the windows of " + field.And(refs) + " (see the timeline for dates)", true
}

// joinWrap joins a window ending at the end of a periodic range with one
// starting at its beginning, so that a window crossing the period boundary
// reads as one (e.g. 22:00–02:00). The joined window's end lies past `to`.
func joinWrap(ws []window, from, to time.Time) []window {
	n := len(ws)
	if n >= 2 && ws[0].start.Equal(from) && ws[n-1].end.Equal(to) {
		last := ws[n-1]
		last.end = to.Add(ws[0].end.Sub(from))
		return append(ws[1:n-1:n-1], last)
	}
	return ws
}

// clockOf renders t as a time of day relative to the day starting at day,
// using 24:00 for the end of the day.
func clockOf(t, day time.Time) string {
	if t.Sub(day) == 24*time.Hour {
		return "24:00"
	}
	if t.Truncate(time.Minute) != t {
		return t.Format("15:04:05")
	}
	return t.Format("15:04")
}

func budgetReasons(b Budget) []Reason {
	var out []Reason
	for _, r := range Reasons {
		if b.AppliesTo(r) {
			out = append(out, r)
		}
	}
	return out
}

func joinReasons(rs []Reason) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = string(r)
	}
	return field.And(parts)
}

// formatDuration renders a duration compactly ("8h", "1h30m", "10m"), with
// whole days spelled out from two days on ("7d (168h)").
func formatDuration(d time.Duration) string {
	s := strings.TrimSuffix(d.String(), "0s")
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd (%s)", d/(24*time.Hour), s)
	}
	return s
}
