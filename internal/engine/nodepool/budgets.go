package nodepool

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// IsActive reports whether the budget is active at now, exactly as
// Karpenter's Budget.IsActive:
//
//   - a budget with neither schedule nor duration is always active;
//   - otherwise it is active when some schedule hit h (UTC) satisfies
//     now-duration < h <= now, i.e. now is in a window [h, h+duration)
//     (start inclusive, end exclusive). A duration of 0 is therefore never
//     active;
//   - a schedule with no hit within five years (such as "0 0 30 2 *") is
//     always active, because cron's Next then returns the zero time.
//
// An unparseable schedule or duration returns an error; Karpenter then fails
// closed (see AllowedDisruptions). A schedule without duration is evaluated
// with duration 0, and a duration without schedule fails to parse, as in
// Karpenter.
func (b Budget) IsActive(now time.Time) (bool, error) {
	if !b.Scheduled() {
		return true, nil
	}
	sched, err := ParseSchedule(deref(b.Schedule))
	if err != nil {
		return false, fmt.Errorf("invalid schedule %q: %w", deref(b.Schedule), err)
	}
	d, err := parseBudgetDuration(b.Duration)
	if err != nil {
		return false, fmt.Errorf("invalid duration %q: %w", deref(b.Duration), err)
	}
	return isActive(sched, d, now), nil
}

func isActive(sched cron.Schedule, d time.Duration, now time.Time) bool {
	now = now.UTC()
	return !sched.Next(now.Add(-d)).After(now)
}

// NodesValue returns how many nodes the budget allows when active, for a pool
// of total nodes: the integer as given, or ceil(p*total/100) for "p%".
// A nil Nodes means the default "10%". The parsing mirrors Karpenter
// (intstr.GetScaledValueFromIntOrPercent with rounding up), including its
// int32 truncation of integers that do not fit int32; Validate rejects
// those.
func (b Budget) NodesValue(total int) (int, error) {
	nodes := DefaultBudgetNodes
	if b.Nodes != nil {
		nodes = *b.Nodes
	}
	if v, err := strconv.Atoi(nodes); err == nil {
		return int(int32(v)), nil //nolint:gosec // deliberate: Karpenter converts to int32 the same way
	}
	if !strings.HasSuffix(nodes, "%") {
		return 0, fmt.Errorf("invalid nodes %q: not an integer or a percentage", nodes)
	}
	p, err := strconv.Atoi(strings.TrimSuffix(nodes, "%"))
	if err != nil {
		return 0, fmt.Errorf("invalid nodes %q: %w", nodes, err)
	}
	return int(math.Ceil(float64(p) * float64(total) / 100)), nil
}

// Allowance is the result of evaluating budgets for one reason at one time.
type Allowance struct {
	Reason Reason
	// Allowed is the number of nodes that may start disrupting now:
	// max(Limit - disrupting, 0).
	Allowed int
	// Limit is the minimum over the active budgets that apply to the reason
	// (Unlimited when there is none), before subtracting disrupting nodes.
	Limit int
	// Unbounded is true when no active budget applies to the reason.
	Unbounded bool
	// Binding lists the (0-based) indexes of the active, applicable budgets
	// whose value equals Limit, i.e. the ones that set the allowance.
	Binding []int
	// FailedClosed is true when some budget could not be evaluated; every
	// reason then gets 0, as in Karpenter.
	FailedClosed bool
	// Err holds the evaluation errors when FailedClosed.
	Err error
}

// AllowedDisruptions returns how many nodes may start disrupting for reason
// at now, exactly as Karpenter computes it: the minimum over the active
// budgets that apply to the reason of their node value (percentages of total
// rounded up; an inactive budget or no budget at all allows Unlimited), 0 for
// every reason if any budget fails to parse, minus the nodes already
// disrupting, floored at 0.
//
// budgets is evaluated as given: pass WithDefaults(np).Disruption.Budgets (or
// use NodePool.AllowedDisruptions) to get the default 10% budget for a pool
// that sets none.
func AllowedDisruptions(budgets []Budget, reason Reason, total, disrupting int, now time.Time) int {
	return EvaluateBudgets(budgets, reason, total, disrupting, now).Allowed
}

// EvaluateBudgets is AllowedDisruptions with the explanation: the limit
// before subtracting disrupting nodes, and which budgets bind.
func EvaluateBudgets(budgets []Budget, reason Reason, total, disrupting int, now time.Time) Allowance {
	a := Allowance{Reason: reason, Limit: Unlimited, Unbounded: true}
	var errs []error
	for i, b := range budgets {
		v, err := budgetValueAt(b, total, now)
		if err != nil {
			errs = append(errs, fmt.Errorf("disruption.budgets[%d]: %w", i, err))
			continue
		}
		if v == nil || !b.AppliesTo(reason) {
			continue
		}
		a.Unbounded = false
		// Karpenter starts from math.MaxInt32 and takes the minimum, so no
		// allowance exceeds it (a percentage of a huge pool, say).
		switch v := min(*v, Unlimited); {
		case v < a.Limit:
			a.Limit, a.Binding = v, []int{i}
		case v == a.Limit:
			a.Binding = append(a.Binding, i)
		}
	}
	if len(errs) > 0 {
		return Allowance{Reason: reason, FailedClosed: true, Err: errors.Join(errs...)}
	}
	a.Allowed = max(a.Limit-disrupting, 0)
	return a
}

// budgetValueAt returns the budget's value at now, or nil when inactive. As
// in Karpenter, nodes is only parsed while the budget is active, so a
// malformed nodes value fails closed only during the budget's windows.
func budgetValueAt(b Budget, total int, now time.Time) (*int, error) {
	active, err := b.IsActive(now)
	if err != nil || !active {
		return nil, err
	}
	v, err := b.NodesValue(total)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// AllowedDisruptionsByReason evaluates every reason.
func AllowedDisruptionsByReason(budgets []Budget, total, disrupting int, now time.Time) map[Reason]Allowance {
	out := make(map[Reason]Allowance, len(Reasons))
	for _, r := range Reasons {
		out[r] = EvaluateBudgets(budgets, r, total, disrupting, now)
	}
	return out
}

// AllowedDisruptions evaluates the pool's budgets, after defaults, for
// reason at now given its current nodes.
func (np NodePool) AllowedDisruptions(reason Reason, nodes []Node, now time.Time) Allowance {
	total, disrupting := CountNodes(nodes)
	return EvaluateBudgets(WithDefaults(np).Disruption.Budgets, reason, total, disrupting, now)
}

// String renders the allowance, e.g. "0 (budget #2)" or
// "unlimited (no active budget)". Budget numbers are 1-based.
func (a Allowance) String() string {
	switch {
	case a.FailedClosed:
		return "0 (fail closed: a budget is invalid)"
	case a.Unbounded:
		return "unlimited (no active budget)"
	}
	return fmt.Sprintf("%d (%s)", a.Allowed, budgetRefs(a.Binding))
}

// budgetRefs renders 0-based indexes as "budget #2" or "budgets #1, #3".
func budgetRefs(idx []int) string {
	idx = append([]int(nil), idx...)
	sort.Ints(idx)
	refs := make([]string, len(idx))
	for i, x := range idx {
		refs[i] = "#" + strconv.Itoa(x+1)
	}
	if len(refs) == 1 {
		return "budget " + refs[0]
	}
	return "budgets " + strings.Join(refs, ", ")
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
