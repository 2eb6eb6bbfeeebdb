package nodepool

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

const week = 7 * 24 * time.Hour

func intervalStrings(ivs []Interval) []string { return stringsOf(ivs) }

func TestTimelineSeedExamples(t *testing.T) {
	tests := []struct {
		name    string
		budgets []Budget
		total   int
		from    time.Time
		span    time.Duration
		want    []string
	}{
		{
			name: "business hours", budgets: seedBusinessHours, total: 20, from: monday, span: week,
			want: []string{
				"Mon 00:00–09:00 UTC: 2 (budget #1)",
				"Mon 09:00–17:00 UTC: 0 (budget #2)",
				"Mon 17:00–Tue 09:00 UTC: 2 (budget #1)",
				"Tue 09:00–17:00 UTC: 0 (budget #2)",
				"Tue 17:00–Wed 09:00 UTC: 2 (budget #1)",
				"Wed 09:00–17:00 UTC: 0 (budget #2)",
				"Wed 17:00–Thu 09:00 UTC: 2 (budget #1)",
				"Thu 09:00–17:00 UTC: 0 (budget #2)",
				"Thu 17:00–Fri 09:00 UTC: 2 (budget #1)",
				"Fri 09:00–17:00 UTC: 0 (budget #2)",
				"Fri 17:00–Mon 00:00 UTC: 2 (budget #1)",
			},
		},
		{
			name: "business hours starting inside a window", budgets: seedBusinessHours, total: 20,
			from: monday.Add(10 * time.Hour), span: 24 * time.Hour,
			want: []string{
				"Mon 10:00–17:00 UTC: 0 (budget #2)",
				"Mon 17:00–Tue 09:00 UTC: 2 (budget #1)",
				"Tue 09:00–10:00 UTC: 0 (budget #2)",
			},
		},
		{
			name: "daily 10 minute window", budgets: seedDailyWindow, total: 30, from: monday, span: 2 * 24 * time.Hour,
			want: []string{
				"Mon 00:00–00:10 UTC: 0 (budget #3)",
				"Mon 00:10–Tue 00:00 UTC: 5 (budget #2)",
				"Tue 00:00–00:10 UTC: 0 (budget #3)",
				"Tue 00:10–Wed 00:00 UTC: 5 (budget #2)",
			},
		},
		{
			name: "weekend only is 0 at all times", budgets: seedWeekendOnly, total: 30, from: monday, span: week,
			want: []string{"Mon 2024-01-01 00:00–Mon 2024-01-08 00:00 UTC: 0 (budget #2)"},
		},
		{
			name: "gradual is unlimited outside 02:00-08:00", budgets: seedGradual, total: 30, from: monday, span: 24 * time.Hour,
			want: []string{
				"Mon 00:00–02:00 UTC: unlimited (no active budget)",
				"Mon 02:00–04:00 UTC: 1 (budget #1)",
				"Mon 04:00–08:00 UTC: 3 (budget #2)",
				"Mon 08:00–Tue 00:00 UTC: unlimited (no active budget)",
			},
		},
		{
			name: "explicitly empty budgets", budgets: []Budget{}, total: 30, from: monday, span: week,
			want: []string{"Mon 2024-01-01 00:00–Mon 2024-01-08 00:00 UTC: unlimited (no active budget)"},
		},
		{
			name: "invalid schedule fails closed", budgets: []Budget{budget("10%"), scheduled("0", "0 0 * * 7", "1h")}, total: 30, from: monday, span: week,
			want: []string{"Mon 2024-01-01 00:00–Mon 2024-01-08 00:00 UTC: 0 (fail closed: budget #2 cannot be evaluated)"},
		},
		{
			name: "invalid nodes fail closed only while active", budgets: []Budget{budget("10%"), scheduled("abc", "@daily", "1h")}, total: 30, from: monday, span: 24 * time.Hour,
			want: []string{
				"Mon 00:00–01:00 UTC: 0 (fail closed: budget #2 cannot be evaluated)",
				"Mon 01:00–Tue 00:00 UTC: 3 (budget #1)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := Timeline(tt.budgets, tt.total, 0, tt.from, tt.span)
			for _, r := range Reasons {
				got := intervalStrings(tl[r])
				if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
					t.Errorf("%s:\n got: %q\nwant: %q", r, got, tt.want)
				}
			}
		})
	}
}

func TestTimelinePerReasonAndDisrupting(t *testing.T) {
	budgets := []Budget{budget("10%"), scheduled("0", "0 9 * * 1-5", "8h", "Drifted")}
	tl := Timeline(budgets, 20, 1, monday, 24*time.Hour)
	if got := intervalStrings(tl[Empty]); len(got) != 1 || got[0] != "Mon 00:00–Tue 00:00 UTC: 1 (budget #1)" {
		t.Errorf("Empty: %q", got)
	}
	if got := intervalStrings(tl[Drifted]); len(got) != 3 || got[1] != "Mon 09:00–17:00 UTC: 0 (budget #2)" || got[0] != "Mon 00:00–09:00 UTC: 1 (budget #1)" {
		t.Errorf("Drifted: %q", got)
	}
}

// TestTimelineMatchesEvaluateBudgets checks the change-point algorithm
// against direct evaluation (Karpenter's formula) at many instants, including
// just before, at and after every interval boundary.
func TestTimelineMatchesEvaluateBudgets(t *testing.T) {
	sets := []struct {
		name    string
		budgets []Budget
		from    time.Time
		span    time.Duration
	}{
		{"varied", variedBudgets(12), time.Date(2024, 2, 26, 7, 13, 0, 0, time.UTC), week},
		{"leap day and month end", []Budget{
			scheduled("0", "0 0 29 2 *", "24h"), scheduled("1", "0 0 1 * *", "48h", "Drifted"),
			scheduled("2", "0 0 28-31 * *", "1h"), budget("50%"),
		}, time.Date(2024, 2, 26, 0, 0, 0, 0, time.UTC), week},
		{"dense and zero durations", []Budget{
			scheduled("1", "* * * * *", "0m"), scheduled("2", "*/2 * * * *", "1m", "Empty"),
			scheduled("3", "*/7 * * * *", "3m", "Underutilized"), scheduled("0", "0 0 30 2 *", "0m", "Drifted"),
		}, time.Date(2024, 5, 5, 23, 0, 0, 0, time.UTC), 3 * time.Hour},
		{"long durations", []Budget{
			scheduled("4", "0 0 1 1 *", "1000h"), scheduled("2", "@weekly", "200h", "Empty"),
			scheduled("1", "30 23 31 12 *", "3h"),
		}, time.Date(2024, 12, 30, 0, 0, 0, 0, time.UTC), week},
		{"beyond the five-year horizon", []Budget{
			// The leap day of 2096 is followed by the one of 2104: after its
			// window, cron finds no hit within five years and Karpenter
			// treats the budget as always active.
			scheduled("0", "0 0 29 2 *", "1h"), budget("10"),
		}, time.Date(2096, 2, 28, 0, 0, 0, 0, time.UTC), week},
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			checkTimeline(t, set.budgets, 37, 1, set.from, set.span)
		})
	}
}

// checkTimeline checks Timeline against direct evaluation (EvaluateBudgets,
// Karpenter's formula) for every reason: the intervals cover the span
// without gaps, adjacent intervals differ, and the allowance agrees at every
// change point — each interval's bounds (and a second and a nanosecond
// around them), every schedule hit h and h+duration in the span (and a
// second before each), where a change could hide — and on a regular grid.
func checkTimeline(t *testing.T, budgets []Budget, total, disrupting int, from time.Time, span time.Duration) {
	t.Helper()
	to := from.Add(span)
	tl := Timeline(budgets, total, disrupting, from, span)
	var changes []time.Time
	for _, b := range budgets {
		sched, err := ParseSchedule(deref(b.Schedule))
		if !b.Scheduled() || err != nil {
			continue
		}
		d, err := parseBudgetDuration(b.Duration)
		if err != nil {
			continue
		}
		for _, h := range hitsBetween(sched, from.Add(-d-time.Second), to) {
			changes = append(changes, h, h.Add(-time.Second), h.Add(d), h.Add(d-time.Second))
		}
	}
	for _, r := range Reasons {
		ivs := tl[r]
		if len(ivs) == 0 || !ivs[0].Start.Equal(from) || !ivs[len(ivs)-1].End.Equal(to) {
			t.Fatalf("%s: intervals do not cover the span: %v", r, intervalStrings(ivs))
		}
		probes := append([]time.Time(nil), changes...)
		for i, iv := range ivs {
			if i > 0 && !iv.Start.Equal(ivs[i-1].End) {
				t.Fatalf("%s: gap before %s", r, iv)
			}
			if i > 0 && ivs[i-1].Allowed == iv.Allowed && ivs[i-1].Unlimited == iv.Unlimited && ivs[i-1].FailedClosed == iv.FailedClosed {
				t.Errorf("%s: adjacent equal intervals not merged: %s | %s", r, ivs[i-1], iv)
			}
			if iv.Allowed > Unlimited {
				t.Errorf("%s: %s allows more than %d", r, iv, Unlimited)
			}
			probes = append(probes, iv.Start, iv.Start.Add(time.Second), iv.End.Add(-time.Second), iv.End.Add(-time.Nanosecond))
		}
		for p := from; p.Before(to); p = p.Add(span/97 + 3*time.Second) {
			probes = append(probes, p)
		}
		for _, p := range probes {
			if p.Before(from) || !p.Before(to) {
				continue
			}
			want := EvaluateBudgets(budgets, r, total, disrupting, p)
			i := sort.Search(len(ivs), func(i int) bool { return ivs[i].End.After(p) })
			got := ivs[i]
			if got.Allowed != want.Allowed || got.Unlimited != (want.Unbounded && !want.FailedClosed) || got.FailedClosed != want.FailedClosed {
				t.Fatalf("%s at %s: timeline %s, direct %s (%+v)", r, p.Format(time.RFC3339Nano), got, want, want)
			}
		}
	}
	checkReviewerViews(t, tl)
}

func TestTimelineHorizonEdgeCase(t *testing.T) {
	tl := Timeline([]Budget{scheduled("0", "0 0 29 2 *", "1h")}, 10, 0, time.Date(2096, 2, 28, 0, 0, 0, 0, time.UTC), 3*24*time.Hour)
	got := intervalStrings(tl[Drifted])
	want := []string{
		"Tue 00:00–Wed 00:00 UTC: unlimited (no active budget)",
		"Wed 00:00–Fri 00:00 UTC: 0 (budget #1)",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Issue 9 item 11. Budget.IsActive is !Next(now-duration).After(now), and
// robfig's Next returns the zero time when there is no hit within five years,
// which counts as active. With duration 0m the windows are empty, yet at the
// hit of 2096-02-29 the next hit (2104-02-29) is beyond the horizon, so the
// budget turns active there and stays active until 2099-01-01, when the
// horizon reaches 2104 (sigs.k8s.io/karpenter pkg/apis/v1/nodepool.go
// Budget.IsActive; robfig/cron/v3 spec.go Next).
func TestTimelineZeroDurationBeyondHorizon(t *testing.T) {
	budgets := []Budget{scheduled("0", "0 0 29 2 *", "0m")}
	from := time.Date(2096, 2, 28, 12, 0, 0, 0, time.UTC)
	got := intervalStrings(Timeline(budgets, 10, 0, from, 48*time.Hour)[Drifted])
	want := []string{
		"Tue 12:00–Wed 00:00 UTC: unlimited (no active budget)",
		"Wed 00:00–Thu 12:00 UTC: 0 (budget #1)",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	checkTimeline(t, budgets, 10, 0, from, 48*time.Hour)
	checkTimeline(t, budgets, 10, 0, time.Date(2098, 12, 30, 0, 0, 0, 0, time.UTC), 72*time.Hour)
}

// Issue 9 item 11. GetAllowedDisruptionsByReason starts from math.MaxInt32
// and takes the minimum over the budgets, so no allowance exceeds
// 2147483647, even 100% of a larger pool (sigs.k8s.io/karpenter
// pkg/apis/v1/nodepool.go).
func TestAllowanceCappedAtMaxInt32(t *testing.T) {
	const total = 3_000_000_000
	budgets := []Budget{budget("100%"), scheduled("90%", "@daily", "1h", "Drifted")}
	tl := Timeline(budgets, total, 1, monday, 2*time.Hour)
	if got := intervalStrings(tl[Empty]); len(got) != 1 || got[0] != "Mon 00:00–02:00 UTC: 2147483646 (budget #1)" {
		t.Errorf("Empty: %q", got)
	}
	if a := EvaluateBudgets(budgets, Empty, total, 0, monday); a.Allowed != Unlimited || a.Limit != Unlimited || a.Unbounded || a.String() != "2147483647 (budget #1)" {
		t.Errorf("EvaluateBudgets: %+v %s", a, a)
	}
	if a := EvaluateBudgets(budgets, Drifted, total, 0, monday); a.Allowed != Unlimited || a.String() != "2147483647 (budgets #1, #2)" {
		t.Errorf("EvaluateBudgets Drifted: %+v %s", a, a)
	}
	checkTimeline(t, budgets, total, 1, monday, 2*time.Hour)
}

// variedBudgets returns n realistic scheduled budgets (plus reasons).
func variedBudgets(n int) []Budget {
	schedules := []struct{ s, d string }{
		{"0 9 * * 1-5", "8h"}, {"@daily", "10m"}, {"0 2 * * *", "2h"}, {"0 4 * * *", "4h"},
		{"0 0 * * 6", "48h"}, {"30 22 * * *", "3h30m"}, {"0 */6 * * *", "1h"}, {"*/15 * * * *", "5m"},
		{"@weekly", "12h"}, {"0 0 1 * *", "24h"}, {"15 3 * * sun", "90m"}, {"0 12 * * mon,wed,fri", "1h"},
		{"0 0 30 2 *", "1h"}, {"@hourly", "20m"}, {"45 17 * * 1-5", "45m"}, {"0 8-18/2 * * *", "30m"},
	}
	nodes := []string{"0", "1", "3", "10%", "25%", "5"}
	reasons := [][]string{nil, {"Drifted"}, {"Empty", "Underutilized"}, nil, {"Underutilized"}}
	out := make([]Budget, n)
	for i := range out {
		s := schedules[i%len(schedules)]
		out[i] = scheduled(nodes[i%len(nodes)], s.s, s.d, reasons[i%len(reasons)]...)
	}
	return out
}

func BenchmarkTimeline50Budgets(b *testing.B) {
	budgets := variedBudgets(50)
	from := time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		Timeline(budgets, 40, 2, from, week)
	}
}

func ExampleInterval_String() {
	tl := Timeline(seedBusinessHours, 20, 0, monday, 24*time.Hour)
	for _, iv := range tl[Drifted] {
		fmt.Println(iv)
	}
	// Output:
	// Mon 00:00–09:00 UTC: 2 (budget #1)
	// Mon 09:00–17:00 UTC: 0 (budget #2)
	// Mon 17:00–Tue 00:00 UTC: 2 (budget #1)
}
