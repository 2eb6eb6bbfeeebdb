package nodepool

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// The fuzz targets of the NodePool parsers: durations (expire_after,
// termination_grace_period, consolidate_after, budget durations) and budget
// schedules. FuzzTimeline (timeline_fuzz_test.go) covers the evaluation of
// budget designs. `go test` runs the seeds; `make fuzz` runs them longer.

// The CRD's patterns, the reference for what the API server admits.
var (
	crdNillableDuration = regexp.MustCompile(`^(([0-9]+(s|m|h))+|Never)$`)
	crdDuration         = regexp.MustCompile(`^([0-9]+(s|m|h))+$`)
	crdBudgetDuration   = regexp.MustCompile(`^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$`)
	crdSchedule         = regexp.MustCompile(`^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\s(.+)\s(.+)\s(.+)\s(.+))$`)
)

var fuzzNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// errorAt tells whether errs holds an error at p.
func errorAt(errs field.Errors, p field.Path) bool {
	for _, e := range errs {
		if e.Path.String() == p.String() {
			return true
		}
	}
	return false
}

// durationPool is a valid pool with d in every duration attribute.
func durationPool(d string) NodePool {
	np := validPool()
	np.Template.ExpireAfter = &d
	np.Template.TerminationGracePeriod = &d
	np.Disruption.ConsolidateAfter = &d
	np.Disruption.Budgets = []Budget{{Nodes: sp("1"), Schedule: sp("@daily"), Duration: &d}}
	return np
}

// FuzzDurations: whatever the text of a duration attribute, Validate states
// its rule at the attribute; it accepts exactly what both the CRD pattern
// and Go's time.ParseDuration (Karpenter's reader) accept; an accepted
// duration round-trips through its canonical form (time.Duration.String)
// without drifting nodes; and every reader of durations — defaults,
// warnings, expiry, drift, budget evaluation and the timeline — takes it
// without panicking.
func FuzzDurations(f *testing.F) {
	for _, d := range []string{"30s", "0s", "0m", "720h", "1h30m", "1h30m0s", "10m0s", "Never", "never", "", "1.5h", "-1h", "1d", "+1h",
		" 1h", "1h ", "1e3s", "1µs", "00h", "1h1h", "9999999999h", "2562047h", "2562048h", "2562047h47m16s", "18446744073709551616s"} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, d string) {
		np := durationPool(d)
		errs := Validate(np)
		enginetest.CheckErrors(t, errs, d)
		parsed, perr := time.ParseDuration(d)
		budgetPath := field.Root("disruption").Child("budgets").Index(0).Child("duration")
		for _, c := range []struct {
			path    field.Path
			pattern *regexp.Regexp
			never   bool
		}{
			{field.Root("template").Child("expire_after"), crdNillableDuration, true},
			{field.Root("template").Child("termination_grace_period"), crdDuration, false},
			{field.Root("disruption").Child("consolidate_after"), crdNillableDuration, true},
			{budgetPath, crdBudgetDuration, false},
		} {
			want := c.pattern.MatchString(d) && (perr == nil || c.never && d == Never)
			if accepted := !errorAt(errs, c.path); accepted != want {
				t.Errorf("%s = %q: accepted %v, the CRD and time.ParseDuration say %v (%v)", c.path, d, accepted, want, errs)
			}
		}

		_ = WithDefaults(np)
		_ = Warnings(np)
		nodes := []Node{{Name: "old", CreatedAt: fuzzNow.Add(-800 * time.Hour), Ready: true}, {Name: "new", CreatedAt: fuzzNow, Ready: true}}
		expiries := Expiring(nodes, d, fuzzNow, 1000*time.Hour)
		if len(errs) > 0 || d == Never {
			_ = Drift(np, validPool(), nodes)
			_ = AllowedDisruptionsByReason(np.Budgets(), 10, 0, fuzzNow)
			_ = Timeline(np.Budgets(), 10, 0, fuzzNow, 24*time.Hour)
			return
		}
		for _, e := range expiries {
			if !e.At.Equal(e.Node.CreatedAt.Add(parsed)) {
				t.Errorf("expire_after %q: %s expires at %s, want %s", d, e.Node.Name, e.At, e.Node.CreatedAt.Add(parsed))
			}
		}
		if _, err := np.Disruption.Budgets[0].IsActive(fuzzNow); err != nil {
			t.Errorf("an accepted budget duration %q does not evaluate: %v", d, err)
		}
		// The canonical form: accepted again, read as the same duration,
		// and no drift (a zero budget duration prints as "0s", which the
		// CRD's budget pattern does not admit).
		canonical := parsed.String()
		again := durationPool(canonical)
		if parsed == 0 {
			again.Disruption.Budgets[0].Duration = np.Disruption.Budgets[0].Duration
		}
		if errs := Validate(again); len(errs) > 0 {
			t.Errorf("%q is accepted, its canonical form %q is not: %v", d, canonical, errs)
		}
		if res := Drift(np, again, nodes); res.Drifted != 0 || len(res.HashFields) != 0 {
			t.Errorf("%q and its canonical form %q drift nodes: %s", d, canonical, res.Summary)
		}
		checkTimeline(t, np.Budgets(), 10, 0, fuzzNow, 24*time.Hour)
	})
}

// FuzzSchedule: whatever the text of a budget schedule, Validate states its
// rule at the attribute, in its own words (not robfig/cron's errors); it
// accepts exactly what the CRD pattern and Karpenter's parser
// (cron.ParseStandard with "TZ=UTC " before the schedule) accept, without a
// time zone of its own. For an accepted schedule, the budget evaluates, the
// hits the timeline enumerates from the parsed bit fields are those of
// chained cron Next calls, and the static analysis of warnings agrees with
// them: a schedule that never fires has no hit, and any span longer than the
// longest gap holds one.
func FuzzSchedule(f *testing.F) {
	for _, s := range []string{"0 9 * * 1-5", "@daily", "@hourly", "@weekly", "@monthly", "@yearly", "@annually", "@midnight", "*/15 * * * *",
		"0 0 29 2 *", "0 0 30 2 *", "0 0 1,15 * mon", "0 8-18/2 jan-mar * *", "5/20 * * * *", "0 0 * * 7", "0 0 * * sat-sun", "0 22-2 * * *",
		"TZ=UTC 0 0 * * *", "CRON_TZ=Europe/Paris 0 9 * * *", "@every 1m", "@every 1 2 3 4", "@dailyx", "@ daily", " @daily", "0 0 * * x",
		"60 * * * *", "*/0 * * * *", "1-2-3 * * * *", "1/2/3 * * * *", "0 0 0 * *", "-1 * * * *", "99999999999999999999 * * * *",
		"0 0 * * * *", "0 0 * *", "? ? ? ? ?", "0 0 1 JAN SUN", "0 0 L * *", "0\t0\t*\t*\t*", "", " ", "0 0 13 * 5"} {
		f.Add(s, uint32(0), uint16(24*60))
	}
	f.Add("*/7 3-5 */9 * 2", uint32(45*365*24*60), uint16(7*24*60))
	f.Fuzz(func(t *testing.T, s string, fromMinutes uint32, spanMinutes uint16) {
		errs := ValidateBudgets([]Budget{{Nodes: sp("1"), Schedule: &s, Duration: sp("1h")}})
		enginetest.CheckErrors(t, errs, s)
		trimmed := strings.TrimSpace(s)
		sched, perr := cron.ParseStandard("TZ=UTC " + s)
		want := perr == nil && crdSchedule.MatchString(s) && !strings.HasPrefix(trimmed, "TZ=") && !strings.HasPrefix(trimmed, "CRON_TZ=")
		if accepted := len(errs) == 0; accepted != want {
			t.Fatalf("schedule %q: accepted %v, the CRD pattern and robfig/cron say %v (%v)", s, accepted, want, errs)
		}
		if fields := strings.Fields(trimmed); len(fields) == 5 && !strings.HasPrefix(trimmed, "@") && !strings.HasPrefix(trimmed, "TZ=") && !strings.HasPrefix(trimmed, "CRON_TZ=") {
			if pr, bad := diagnoseCron(fields); bad != (perr != nil) {
				t.Fatalf("schedule %q: diagnoseCron finds %v (%+v), robfig/cron says %v", s, bad, pr, perr)
			}
		}
		if !want {
			if perr != nil {
				if _, err := (Budget{Schedule: &s, Duration: sp("1h")}).IsActive(fuzzNow); err == nil {
					t.Fatalf("schedule %q does not parse, yet the budget evaluates (Karpenter fails closed)", s)
				}
			}
			return
		}
		if _, err := (Budget{Schedule: &s, Duration: sp("1h")}).IsActive(fuzzNow); err != nil {
			t.Fatalf("an accepted schedule %q does not evaluate: %v", s, err)
		}
		// 2001-2090: the range over which analyze's 28-year cycle holds.
		from := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(fromMinutes%(90*365*24*60)) * time.Minute)
		span := time.Duration(1+int(spanMinutes)%(14*24*60)) * time.Minute
		hits := checkHitsMatchNext(t, s, sched, from, from.Add(span))
		p, ok := analyze(sched)
		if !ok {
			return
		}
		if !p.fires && len(hits) > 0 {
			t.Fatalf("schedule %q: analyzed as never firing, yet hits %s", s, hits[0])
		}
		if p.fires && span > p.maxGap+time.Minute && len(hits) == 0 {
			t.Fatalf("schedule %q: no hit in %s from %s, longer than its longest gap %s", s, span, from, p.maxGap)
		}
	})
}

// checkHitsMatchNext checks the hits hitsBetween enumerates in (from, to)
// against chained calls of the library's Next, and returns them.
func checkHitsMatchNext(t testing.TB, label string, sched cron.Schedule, from, to time.Time) []time.Time {
	t.Helper()
	var want []time.Time
	for x := from; ; {
		h := sched.Next(x)
		if h.IsZero() || !h.Before(to) {
			break
		}
		want, x = append(want, h), h
	}
	got := hitsBetween(sched, from, to)
	if len(got) != len(want) {
		t.Fatalf("%q: %d hits, want %d", label, len(got), len(want))
	}
	for i := range got {
		if !got[i].Equal(want[i]) {
			t.Fatalf("%q: hit %d = %s, want %s", label, i, got[i], want[i])
		}
	}
	return got
}
