package nodepool

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The reviewer's view of a timeline (designs/nap.md §7): each window once,
// with the reasons it applies to, and when each blocked reason is next
// allowed to disrupt.

// Window is an interval of a timeline together with every reason whose
// allowance over exactly that interval is the same.
type Window struct {
	// Interval is the span and the allowance (number, unlimited, fail
	// closed, and the budgets that set it).
	Interval
	// Reasons are the reasons the window applies to, in Karpenter's method
	// order (Reasons).
	Reasons []Reason
}

// String renders the window, e.g.
// "Mon 09:00–17:00 UTC · Empty, Drifted: 0 (budget #2)".
func (w Window) String() string {
	names := make([]string, len(w.Reasons))
	for i, r := range w.Reasons {
		names[i] = string(r)
	}
	return formatRange(w.Start, w.End) + " · " + strings.Join(names, ", ") + ": " + w.Verdict()
}

// sameAllowance reports whether two intervals allow the same: the same
// number, both unlimited or not, both failing closed or not, and set by the
// same budgets.
func sameAllowance(a, b Interval) bool {
	return a.Allowed == b.Allowed && a.Unlimited == b.Unlimited && a.FailedClosed == b.FailedClosed && slices.Equal(a.Budgets, b.Budgets)
}

// MergeReasons lists every interval of a timeline (as returned by Timeline)
// once: intervals of different reasons with the same start, end and
// allowance — the same number set by the same budgets — become one window
// naming all of them. Windows are sorted by start, then end, then reason
// order, so they read as a chronology; windows of different reasons may
// overlap (each reason's intervals still partition the span). A reason
// whose allowance is the same but set by other budgets keeps its own window,
// so that every window still says which budgets bind.
func MergeReasons(tl map[Reason][]Interval) []Window {
	var out []Window
	type instant struct {
		sec  int64
		nsec int
	}
	byStart := map[instant][]int{} // windows by start, as indexes into out
	for _, r := range Reasons {
	next:
		for _, iv := range tl[r] {
			key := instant{iv.Start.Unix(), iv.Start.Nanosecond()}
			for _, i := range byStart[key] {
				if w := &out[i]; w.End.Equal(iv.End) && sameAllowance(w.Interval, iv) {
					w.Reasons = append(w.Reasons, r)
					continue next
				}
			}
			iv.Budgets = slices.Clone(iv.Budgets)
			byStart[key] = append(byStart[key], len(out))
			out = append(out, Window{Interval: iv, Reasons: []Reason{r}})
		}
	}
	slices.SortStableFunc(out, func(a, b Window) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		if c := a.End.Compare(b.End); c != 0 {
			return c
		}
		return cmp.Compare(slices.Index(Reasons, a.Reasons[0]), slices.Index(Reasons, b.Reasons[0]))
	})
	return out
}

// NextAllowance says when a reason that may not disrupt any node at the
// start of a timeline is next allowed to.
type NextAllowance struct {
	Reason Reason
	// Found is true when the reason is allowed to disrupt within the
	// timeline: from At, by Interval's allowance (the first interval whose
	// allowance is not 0). Otherwise the reason stays blocked at least until
	// Until, the end of the timeline.
	Found    bool
	At       time.Time
	Interval Interval
	Until    time.Time
}

// Blocked reports whether an interval allows no disruption: an allowance of
// 0 (a budget of 0, nodes already disrupting using it up, or fail closed).
func (iv Interval) Blocked() bool { return iv.Allowed <= 0 }

// NextAllowed returns, for every reason blocked at the start of the timeline
// tl (as returned by Timeline), when it is next allowed to disrupt. Reasons
// not blocked at the start are absent.
func NextAllowed(tl map[Reason][]Interval) map[Reason]NextAllowance {
	out := map[Reason]NextAllowance{}
	for _, r := range Reasons {
		ivs := tl[r]
		if len(ivs) == 0 || !ivs[0].Blocked() {
			continue
		}
		n := NextAllowance{Reason: r, Until: ivs[len(ivs)-1].End}
		for _, iv := range ivs[1:] {
			if !iv.Blocked() {
				n.Found, n.At, n.Interval = true, iv.Start, iv
				n.Interval.Budgets = slices.Clone(iv.Budgets)
				break
			}
		}
		out[r] = n
	}
	return out
}

// String renders the next allowance, e.g. "2026-11-23T17:00:00Z: 1 (budget #1)",
// or "not before 2026-11-28T12:00:00Z (blocked for the whole timeline)".
func (n NextAllowance) String() string {
	if !n.Found {
		return "not before " + n.Until.UTC().Format(time.RFC3339) + " (blocked for the whole timeline)"
	}
	return n.At.UTC().Format(time.RFC3339) + ": " + n.Interval.Verdict()
}

// DescribeBudget renders the i-th (0-based) budget on one line, numbered
// from 1 as the timeline refers to it, e.g.
// `#2: 0 · schedule "0 9 * * 1-5" for 8h · all reasons`.
func DescribeBudget(i int, b Budget) string {
	nodes := DefaultBudgetNodes + " (default)"
	if b.Nodes != nil {
		nodes = *b.Nodes
	}
	when := "always"
	switch {
	case b.Schedule != nil && b.Duration != nil:
		when = fmt.Sprintf("schedule %q for %s", *b.Schedule, *b.Duration)
	case b.Schedule != nil:
		when = fmt.Sprintf("schedule %q without a duration", *b.Schedule)
	case b.Duration != nil:
		when = fmt.Sprintf("for %s without a schedule", *b.Duration)
	}
	reasons := "all reasons"
	switch {
	case b.Reasons == nil:
	case len(b.Reasons) == 0:
		reasons = "no reason (reasons = [])"
	default:
		reasons = strings.Join(b.Reasons, ", ")
	}
	return fmt.Sprintf("#%d: %s · %s · %s", i+1, nodes, when, reasons)
}
