package nodepool

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/robfig/cron/v3"
)

// Interval is a span [Start, End) over which the allowance of one reason is
// constant.
type Interval struct {
	Start, End time.Time
	// Allowed is the effective allowance, max(limit - disrupting, 0); when
	// Unlimited it is Unlimited - disrupting, as in Karpenter.
	Allowed int
	// Unlimited is true when no active budget applies to the reason.
	Unlimited bool
	// Budgets lists the 0-based indexes of the budgets that set the
	// allowance (or, when FailedClosed, of the budgets that fail).
	Budgets []int
	// FailedClosed is true when some budget cannot be evaluated in the
	// interval, so Karpenter allows 0 for every reason.
	FailedClosed bool
}

// String renders the interval, e.g. "Mon 09:00–17:00 UTC: 0 (budget #2)".
// Budget numbers are 1-based, matching the order in which budgets are
// written.
func (iv Interval) String() string {
	return formatRange(iv.Start, iv.End) + ": " + iv.Verdict()
}

// Verdict renders the interval's allowance without its span, e.g.
// "0 (budget #2)", "unlimited (no active budget)" or
// "0 (fail closed: budget #1 cannot be evaluated)".
func (iv Interval) Verdict() string {
	switch {
	case iv.FailedClosed:
		return fmt.Sprintf("0 (fail closed: %s cannot be evaluated)", budgetRefs(iv.Budgets))
	case iv.Unlimited:
		return "unlimited (no active budget)"
	}
	return fmt.Sprintf("%d (%s)", iv.Allowed, budgetRefs(iv.Budgets))
}

// formatRange renders [start, end) with weekdays, e.g. "Mon 09:00–17:00 UTC"
// or "Fri 17:00–Mon 09:00 UTC"; dates are added for ranges of six days or
// more, seconds when a bound is not on a whole minute.
func formatRange(start, end time.Time) string {
	start, end = start.UTC(), end.UTC()
	clock := "15:04"
	if start.Truncate(time.Minute) != start || end.Truncate(time.Minute) != end {
		clock = "15:04:05"
	}
	day := "Mon "
	if end.Sub(start) >= 6*24*time.Hour {
		day = "Mon 2006-01-02 "
	}
	sy, sm, sd := start.Date()
	ey, em, ed := end.Date()
	if sy == ey && sm == em && sd == ed {
		return start.Format(day+clock) + "–" + end.Format(clock) + " UTC"
	}
	return start.Format(day+clock) + "–" + end.Format(day+clock) + " UTC"
}

// Timeline computes, for every reason, the sorted intervals of [from,
// from+span) over which the allowance is constant, adjacent intervals with
// the same allowance merged. Allowances are what AllowedDisruptions would
// return at any instant of the interval.
//
// Budgets are evaluated as given (pass WithDefaults(np).Disruption.Budgets
// for defaults). The computation works from change points — schedule hits
// and hit+duration — rather than stepping through time, so its cost is
// proportional to the number of schedule hits in the span.
func Timeline(budgets []Budget, total, disrupting int, from time.Time, span time.Duration) map[Reason][]Interval {
	from = from.UTC()
	to := from.Add(span)
	out := make(map[Reason][]Interval, len(Reasons))
	for _, r := range Reasons {
		out[r] = []Interval{}
	}
	if span <= 0 {
		return out
	}

	// Per-budget activity. A schedule or duration that does not parse makes
	// IsActive fail at every instant: the whole span fails closed.
	type plan struct {
		spans    []window
		value    int
		valueErr error
	}
	plans := make([]plan, len(budgets))
	var broken []int
	for i, b := range budgets {
		p := &plans[i]
		p.value, p.valueErr = b.NodesValue(total)
		if !b.Scheduled() {
			p.spans = []window{{from, to}}
			continue
		}
		sched, err := ParseSchedule(deref(b.Schedule))
		if err != nil {
			broken = append(broken, i)
			continue
		}
		d, err := parseBudgetDuration(b.Duration)
		if err != nil {
			broken = append(broken, i)
			continue
		}
		p.spans = activeSpans(sched, d, from, to)
	}
	if len(broken) > 0 {
		for _, r := range Reasons {
			out[r] = []Interval{{Start: from, End: to, FailedClosed: true, Budgets: append([]int(nil), broken...)}}
		}
		return out
	}

	// Sweep over the change points of all budgets, as offsets from `from`.
	type event struct {
		at     time.Duration
		budget int
		on     bool
	}
	var events []event
	for i, p := range plans {
		for _, w := range p.spans {
			events = append(events, event{w.start.Sub(from), i, true}, event{w.end.Sub(from), i, false})
		}
	}
	slices.SortFunc(events, func(a, b event) int { return cmp.Compare(a.at, b.at) })
	applies := make([][]bool, len(Reasons))
	for ri, r := range Reasons {
		applies[ri] = make([]bool, len(budgets))
		for i, b := range budgets {
			applies[ri][i] = b.AppliesTo(r)
		}
	}
	active := make([]bool, len(plans))
	var failing, binding []int
	for k, at := 0, time.Duration(0); at < span; {
		for k < len(events) && events[k].at <= at {
			active[events[k].budget] = events[k].on
			k++
		}
		next := span
		if k < len(events) && events[k].at < span {
			next = events[k].at
		}
		failing = failing[:0]
		for i := range plans {
			if active[i] && plans[i].valueErr != nil {
				failing = append(failing, i)
			}
		}
		for ri, r := range Reasons {
			iv := Interval{Start: from.Add(at), End: from.Add(next)}
			if len(failing) > 0 {
				iv.FailedClosed, iv.Budgets = true, failing
			} else {
				limit, bound := Unlimited, false
				binding = binding[:0]
				for i := range plans {
					if !active[i] || !applies[ri][i] {
						continue
					}
					switch v := min(plans[i].value, Unlimited); {
					case !bound || v < limit:
						limit, bound = v, true
						binding = append(binding[:0], i)
					case v == limit:
						binding = append(binding, i)
					}
				}
				iv.Unlimited, iv.Allowed, iv.Budgets = !bound, max(limit-disrupting, 0), binding
			}
			out[r] = appendMerged(out[r], iv)
		}
		at = next
	}
	return out
}

// appendMerged appends iv, extending the last interval instead when the
// allowance is the same. iv.Budgets is copied (callers reuse it).
func appendMerged(ivs []Interval, iv Interval) []Interval {
	if n := len(ivs); n > 0 {
		last := &ivs[n-1]
		if last.End.Equal(iv.Start) && last.Allowed == iv.Allowed && last.Unlimited == iv.Unlimited && last.FailedClosed == iv.FailedClosed {
			last.End = iv.End
			last.Budgets = unionSorted(last.Budgets, iv.Budgets)
			return ivs
		}
	}
	iv.Budgets = append([]int(nil), iv.Budgets...)
	return append(ivs, iv)
}

// unionSorted returns the union of two ascending lists, reusing a when b
// adds nothing.
func unionSorted(a, b []int) []int {
	i := 0
	for _, x := range b {
		for i < len(a) && a[i] < x {
			i++
		}
		if i == len(a) || a[i] != x {
			goto merge
		}
	}
	return a
merge:
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

func uniqueTimes(ts []time.Time) []time.Time {
	out := ts[:0]
	for i, t := range ts {
		if i == 0 || !t.Equal(out[len(out)-1]) {
			out = append(out, t)
		}
	}
	return out
}

// window is a half-open time range [start, end).
type window struct{ start, end time.Time }

// activeSpans returns the merged spans of [from, to) in which a scheduled
// budget is active, agreeing with Budget.IsActive at every instant.
//
// IsActive(t) = Next(t-d) is zero, or Next(t-d) <= t. The second clause holds
// exactly inside the windows [h, h+d) of the hits h. The first ("no hit
// within five years") can only change where t-d crosses a hit (t = h+d) or a
// new year (the library's horizon is counted in calendar years).
// So activity is constant between those change points and is evaluated once
// per segment.
func activeSpans(sched cron.Schedule, d time.Duration, from, to time.Time) []window {
	if _, ok := sched.(*cron.SpecSchedule); !ok {
		// Not a calendar schedule (e.g. @every, rejected by Validate): its
		// hits depend on the query time, so only the value at from is
		// meaningful.
		if isActive(sched, d, from) {
			return []window{{from, to}}
		}
		return nil
	}
	// Hits and their windows.
	var wins []window
	if d > 0 {
		if h, ok := lastHit(sched, from.Add(-d), from); ok {
			wins = append(wins, window{h, h.Add(d)})
		}
	}
	hits := hitsBetween(sched, from, to) // hits in (from, to)
	if d > 0 {
		for _, h := range hits {
			wins = append(wins, window{h, h.Add(d)})
		}
	}
	x := from
	if len(hits) > 0 {
		x = hits[len(hits)-1]
	}
	tail := sched.Next(x) // first hit after the last known one (may be zero)
	union := mergeSpans(wins, from, to)

	// Change points: window bounds, every hit h and h+d (where the first
	// hit after t-d changes, which can switch the "no hit within five years"
	// clause on or off — also with a zero duration, whose windows are
	// empty), and the year boundaries of t-d.
	cands := []time.Time{from}
	for _, s := range union {
		cands = append(cands, s.start, s.end)
	}
	for _, h := range hits {
		cands = append(cands, h, h.Add(d))
	}
	for y := ceilSecond(from.Add(-d)).Year() + 1; y <= ceilSecond(to.Add(-d)).Year()+1; y++ {
		cands = append(cands, time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Second+d))
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].Before(cands[j]) })
	cands = uniqueTimes(cands)

	// firstHitAfter returns the first hit strictly after t (t in [from, to)).
	firstHitAfter := func(t time.Time) time.Time {
		i := sort.Search(len(hits), func(i int) bool { return hits[i].After(t) })
		if i < len(hits) {
			return hits[i]
		}
		return tail
	}

	var out []window
	u := 0
	for i, c := range cands {
		if c.Before(from) || !c.Before(to) {
			continue
		}
		end := to
		if i+1 < len(cands) && cands[i+1].Before(to) {
			end = cands[i+1]
		}
		for u < len(union) && !union[u].end.After(c) {
			u++
		}
		on := u < len(union) && !union[u].start.After(c)
		if !on {
			// No hit in (c-d, c]: Next(c-d) is the first hit after c, unless
			// it lies beyond the library's horizon.
			x := c.Add(-d)
			h := firstHitAfter(c)
			if h.IsZero() || h.Year() > ceilSecond(x).Year()+5 {
				on = sched.Next(x).IsZero()
			}
		}
		if on {
			if n := len(out); n > 0 && out[n-1].end.Equal(c) {
				out[n-1].end = end
			} else {
				out = append(out, window{c, end})
			}
		}
	}
	return out
}

// mergeSpans merges overlapping or touching spans (sorted by start) and clips
// them to [from, to).
func mergeSpans(in []window, from, to time.Time) []window {
	var out []window
	for _, s := range in {
		if s.start.Before(from) {
			s.start = from
		}
		if s.end.After(to) {
			s.end = to
		}
		if !s.start.Before(s.end) {
			continue
		}
		if n := len(out); n > 0 && !s.start.After(out[n-1].end) {
			if s.end.After(out[n-1].end) {
				out[n-1].end = s.end
			}
			continue
		}
		out = append(out, s)
	}
	return out
}
