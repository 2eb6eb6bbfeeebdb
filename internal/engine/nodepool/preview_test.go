package nodepool

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// stringsOf renders each element.
func stringsOf[T fmt.Stringer](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}

// timelineInput is what Timeline is called with.
type timelineInput struct {
	budgets           []Budget
	total, disrupting int
	from              time.Time
	span              time.Duration
}

func (in timelineInput) timeline() map[Reason][]Interval {
	return Timeline(in.budgets, in.total, in.disrupting, in.from, in.span)
}

func TestMergeReasons(t *testing.T) {
	// Reason-scoped budgets: Empty and Drifted, and Underutilized, are
	// blocked by different budgets on weekdays; Drifted has its own night
	// window.
	scoped := []Budget{
		budget("10%"),
		scheduled("0", "0 9 * * 1-5", "8h", "Empty", "Drifted"),
		scheduled("0", "0 9 * * 1-5", "8h", "Underutilized"),
		scheduled("1", "0 2 * * *", "2h", "Drifted"),
	}
	tests := []struct {
		name string
		in   timelineInput
		want []string
	}{
		{
			name: "the same for every reason", in: timelineInput{budgets: seedBusinessHours, total: 20, from: monday, span: 24 * time.Hour},
			want: []string{
				"Mon 00:00–09:00 UTC · Empty, Drifted, Underutilized: 2 (budget #1)",
				"Mon 09:00–17:00 UTC · Empty, Drifted, Underutilized: 0 (budget #2)",
				"Mon 17:00–Tue 00:00 UTC · Empty, Drifted, Underutilized: 2 (budget #1)",
			},
		},
		{
			name: "reason-scoped budgets", in: timelineInput{budgets: scoped, total: 20, from: monday, span: 24 * time.Hour},
			want: []string{
				"Mon 00:00–02:00 UTC · Drifted: 2 (budget #1)",
				"Mon 00:00–09:00 UTC · Empty, Underutilized: 2 (budget #1)",
				"Mon 02:00–04:00 UTC · Drifted: 1 (budget #4)",
				"Mon 04:00–09:00 UTC · Drifted: 2 (budget #1)",
				// The same allowance set by different budgets: one window each.
				"Mon 09:00–17:00 UTC · Empty, Drifted: 0 (budget #2)",
				"Mon 09:00–17:00 UTC · Underutilized: 0 (budget #3)",
				"Mon 17:00–Tue 00:00 UTC · Empty, Drifted, Underutilized: 2 (budget #1)",
			},
		},
		{
			name: "seed: 20%, 5 and 0 daily for 10m", in: timelineInput{budgets: seedDailyWindow, total: 30, from: monday, span: 2 * 24 * time.Hour},
			want: []string{
				"Mon 00:00–00:10 UTC · Empty, Drifted, Underutilized: 0 (budget #3)",
				"Mon 00:10–Tue 00:00 UTC · Empty, Drifted, Underutilized: 5 (budget #2)",
				"Tue 00:00–00:10 UTC · Empty, Drifted, Underutilized: 0 (budget #3)",
				"Tue 00:10–Wed 00:00 UTC · Empty, Drifted, Underutilized: 5 (budget #2)",
			},
		},
		{
			name: "seed: gradual, unlimited outside its windows", in: timelineInput{budgets: seedGradual, total: 30, from: monday, span: 24 * time.Hour},
			want: []string{
				"Mon 00:00–02:00 UTC · Empty, Drifted, Underutilized: unlimited (no active budget)",
				"Mon 02:00–04:00 UTC · Empty, Drifted, Underutilized: 1 (budget #1)",
				"Mon 04:00–08:00 UTC · Empty, Drifted, Underutilized: 3 (budget #2)",
				"Mon 08:00–Tue 00:00 UTC · Empty, Drifted, Underutilized: unlimited (no active budget)",
			},
		},
		{
			name: "reasons = [] applies to nothing", in: timelineInput{budgets: []Budget{withReasons(budget("0")), scheduled("3", "@daily", "1h", "Drifted")},
				total: 10, from: monday, span: 24 * time.Hour},
			want: []string{
				"Mon 00:00–01:00 UTC · Drifted: 3 (budget #2)",
				"Mon 00:00–Tue 00:00 UTC · Empty, Underutilized: unlimited (no active budget)",
				"Mon 01:00–Tue 00:00 UTC · Drifted: unlimited (no active budget)",
			},
		},
		{
			name: "malformed nodes fail closed in the window only", in: timelineInput{budgets: []Budget{budget("5"), scheduled("x", "@daily", "1h")},
				total: 10, from: monday, span: 24 * time.Hour},
			want: []string{
				"Mon 00:00–01:00 UTC · Empty, Drifted, Underutilized: 0 (fail closed: budget #2 cannot be evaluated)",
				"Mon 01:00–Tue 00:00 UTC · Empty, Drifted, Underutilized: 5 (budget #1)",
			},
		},
		{
			name: "explicitly empty budgets", in: timelineInput{budgets: []Budget{}, total: 10, from: monday, span: week},
			want: []string{"Mon 2024-01-01 00:00–Mon 2024-01-08 00:00 UTC · Empty, Drifted, Underutilized: unlimited (no active budget)"},
		},
		{
			name: "an empty span", in: timelineInput{budgets: seedBusinessHours, total: 10, from: monday, span: 0}, want: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := tt.in.timeline()
			got := stringsOf(MergeReasons(tl))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			checkReviewerViews(t, tl)
		})
	}
}

func TestNextAllowed(t *testing.T) {
	saturdayNoon := monday.Add(5*24*time.Hour + 12*time.Hour) // 2024-01-06
	weekend := []Budget{budget("2"), scheduled("0", "0 0 * * 6", "48h", "Empty"), withReasons(budget("0"), "Drifted")}
	tests := []struct {
		name string
		in   timelineInput
		want map[Reason]string
	}{
		{
			name: "nothing blocked", in: timelineInput{budgets: seedBusinessHours, total: 20, from: monday, span: week},
			want: map[Reason]string{},
		},
		{
			name: "blocked over the weekend, and for good", in: timelineInput{budgets: weekend, total: 10, from: saturdayNoon, span: week},
			want: map[Reason]string{
				Empty:   "2024-01-08T00:00:00Z: 2 (budget #1)",
				Drifted: "not before 2024-01-13T12:00:00Z (blocked for the whole timeline)",
			},
		},
		{
			name: "inside a business-hours window", in: timelineInput{budgets: seedBusinessHours, total: 20, from: monday.Add(10 * time.Hour), span: week},
			want: map[Reason]string{
				Empty:         "2024-01-01T17:00:00Z: 2 (budget #1)",
				Drifted:       "2024-01-01T17:00:00Z: 2 (budget #1)",
				Underutilized: "2024-01-01T17:00:00Z: 2 (budget #1)",
			},
		},
		{
			// 1 allowed, 1 disrupting: 0 now; the 3 of the next window leaves 2.
			name: "disrupting nodes use up the allowance", in: timelineInput{budgets: seedGradual, total: 30, disrupting: 1,
				from: monday.Add(2*time.Hour + 30*time.Minute), span: 24 * time.Hour},
			want: map[Reason]string{
				Empty:         "2024-01-01T04:00:00Z: 2 (budget #2)",
				Drifted:       "2024-01-01T04:00:00Z: 2 (budget #2)",
				Underutilized: "2024-01-01T04:00:00Z: 2 (budget #2)",
			},
		},
		{
			name: "fail closed until the window ends", in: timelineInput{budgets: []Budget{scheduled("x", "@daily", "1h")}, total: 10, from: monday, span: 24 * time.Hour},
			want: map[Reason]string{
				Empty:         "2024-01-01T01:00:00Z: unlimited (no active budget)",
				Drifted:       "2024-01-01T01:00:00Z: unlimited (no active budget)",
				Underutilized: "2024-01-01T01:00:00Z: unlimited (no active budget)",
			},
		},
		{
			name: "an unparseable schedule fails closed everywhere", in: timelineInput{budgets: []Budget{scheduled("1", "0 0 * * 7", "1h")}, total: 10, from: monday, span: 24 * time.Hour},
			want: map[Reason]string{
				Empty:         "not before 2024-01-02T00:00:00Z (blocked for the whole timeline)",
				Drifted:       "not before 2024-01-02T00:00:00Z (blocked for the whole timeline)",
				Underutilized: "not before 2024-01-02T00:00:00Z (blocked for the whole timeline)",
			},
		},
		{
			name: "seed: weekend only is 0 at all times", in: timelineInput{budgets: seedWeekendOnly, total: 30, from: monday, span: week},
			want: map[Reason]string{
				Empty:         "not before 2024-01-08T00:00:00Z (blocked for the whole timeline)",
				Drifted:       "not before 2024-01-08T00:00:00Z (blocked for the whole timeline)",
				Underutilized: "not before 2024-01-08T00:00:00Z (blocked for the whole timeline)",
			},
		},
		{
			name: "an empty span", in: timelineInput{budgets: seedWeekendOnly, total: 30, from: monday, span: 0}, want: map[Reason]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := tt.in.timeline()
			next := NextAllowed(tl)
			got := map[Reason]string{}
			for r, n := range next {
				if n.Reason != r {
					t.Errorf("%s: keyed as %s", n.Reason, r)
				}
				got[r] = n.String()
			}
			for _, r := range Reasons {
				if got[r] != tt.want[r] {
					t.Errorf("%s: got %q, want %q", r, got[r], tt.want[r])
				}
			}
			checkReviewerViews(t, tl)
		})
	}
}

func TestDescribeBudget(t *testing.T) {
	tests := []struct {
		b    Budget
		want string
	}{
		{budget("10%"), `#1: 10% · always · all reasons`},
		{Budget{}, `#1: 10% (default) · always · all reasons`},
		{scheduled("0", "0 9 * * 1-5", "8h"), `#1: 0 · schedule "0 9 * * 1-5" for 8h · all reasons`},
		{scheduled("1", "@daily", "10m", "Empty", "Drifted"), `#1: 1 · schedule "@daily" for 10m · Empty, Drifted`},
		{withReasons(budget("0")), `#1: 0 · always · no reason (reasons = [])`},
		{Budget{Nodes: sp("1"), Schedule: sp("@daily")}, `#1: 1 · schedule "@daily" without a duration · all reasons`},
		{Budget{Nodes: sp("1"), Duration: sp("1h")}, `#1: 1 · for 1h without a schedule · all reasons`},
	}
	for _, tt := range tests {
		if got := DescribeBudget(0, tt.b); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
	if got := DescribeBudget(4, budget("5")); got != "#5: 5 · always · all reasons" {
		t.Errorf("numbered from 1: got %q", got)
	}
}

// checkReviewerViews checks MergeReasons and NextAllowed against the
// timeline they summarise: each reason's windows, in order, are exactly its
// intervals; no two windows could have been one; the windows are sorted;
// and a reason is in NextAllowed exactly when its first interval is
// blocked, with the first interval that is not.
func checkReviewerViews(t *testing.T, tl map[Reason][]Interval) {
	t.Helper()
	ws := MergeReasons(tl)
	for i := 1; i < len(ws); i++ {
		a, b := ws[i-1], ws[i]
		if a.Start.After(b.Start) || (a.Start.Equal(b.Start) && a.End.After(b.End)) {
			t.Fatalf("windows out of order: %s | %s", a, b)
		}
	}
	for i, a := range ws {
		for _, b := range ws[i+1:] {
			if a.Start.Equal(b.Start) && a.End.Equal(b.End) && sameAllowance(a.Interval, b.Interval) {
				t.Fatalf("windows not merged: %s | %s", a, b)
			}
		}
	}
	next := NextAllowed(tl)
	for _, r := range Reasons {
		var mine []Interval
		for _, w := range ws {
			if slices.Contains(w.Reasons, r) {
				mine = append(mine, w.Interval)
			}
		}
		ivs := tl[r]
		if len(mine) != len(ivs) {
			t.Fatalf("%s: %d windows for %d intervals", r, len(mine), len(ivs))
		}
		for i := range ivs {
			if !mine[i].Start.Equal(ivs[i].Start) || !mine[i].End.Equal(ivs[i].End) || !sameAllowance(mine[i], ivs[i]) {
				t.Fatalf("%s: window %s for interval %s", r, mine[i], ivs[i])
			}
		}
		n, ok := next[r]
		if blocked := len(ivs) > 0 && ivs[0].Blocked(); ok != blocked {
			t.Fatalf("%s: in NextAllowed %v, blocked at the start %v", r, ok, blocked)
		}
		if !ok {
			continue
		}
		first := slices.IndexFunc(ivs, func(iv Interval) bool { return !iv.Blocked() })
		switch {
		case first < 0 && (n.Found || !n.Until.Equal(ivs[len(ivs)-1].End)):
			t.Fatalf("%s: blocked throughout, got %s", r, n)
		case first >= 0 && (!n.Found || !n.At.Equal(ivs[first].Start) || !sameAllowance(n.Interval, ivs[first])):
			t.Fatalf("%s: next allowed at %s, got %s", r, ivs[first], n)
		}
	}
}

// The reviewer's views of the 50-budget timeline of BenchmarkTimeline50Budgets.
func BenchmarkMergeReasons50Budgets(b *testing.B) {
	tl := Timeline(variedBudgets(50), 40, 2, time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC), week)
	b.ReportAllocs()
	for b.Loop() {
		MergeReasons(tl)
		NextAllowed(tl)
	}
}

func ExampleWindow_String() {
	tl := Timeline([]Budget{budget("10%"), scheduled("0", "0 9 * * 1-5", "8h", "Empty", "Drifted")}, 20, 0, monday, 24*time.Hour)
	for _, w := range MergeReasons(tl) {
		fmt.Println(w)
	}
	// Output:
	// Mon 00:00–09:00 UTC · Empty, Drifted: 2 (budget #1)
	// Mon 00:00–Tue 00:00 UTC · Underutilized: 2 (budget #1)
	// Mon 09:00–17:00 UTC · Empty, Drifted: 0 (budget #2)
	// Mon 17:00–Tue 00:00 UTC · Empty, Drifted: 2 (budget #1)
}
