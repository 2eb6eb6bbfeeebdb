package fleet

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// Window builders for the tables: a schedule, then options.

type windowOption func(*MaintenanceWindow)

func newWindow(s MaintenanceSchedule, start string, hours int, opts []windowOption) *MaintenanceWindow {
	w := &MaintenanceWindow{Schedule: s, StartTime: start, DurationHours: hours}
	for _, o := range opts {
		o(w)
	}
	return w
}

func daily(every int, start string, hours int, opts ...windowOption) *MaintenanceWindow {
	return newWindow(MaintenanceSchedule{Type: ScheduleDaily, IntervalDays: every}, start, hours, opts)
}

func weekly(every int, day, start string, hours int, opts ...windowOption) *MaintenanceWindow {
	return newWindow(MaintenanceSchedule{Type: ScheduleWeekly, IntervalWeeks: every, DayOfWeek: day}, start, hours, opts)
}

func absoluteMonthly(every, day int, start string, hours int, opts ...windowOption) *MaintenanceWindow {
	return newWindow(MaintenanceSchedule{Type: ScheduleAbsoluteMonthly, IntervalMonths: every, DayOfMonth: day}, start, hours, opts)
}

func relativeMonthly(every int, week, day, start string, hours int, opts ...windowOption) *MaintenanceWindow {
	return newWindow(MaintenanceSchedule{Type: ScheduleRelativeMonthly, IntervalMonths: every, WeekIndex: week, DayOfWeek: day}, start, hours, opts)
}

func offset(o string) windowOption { return func(w *MaintenanceWindow) { w.UTCOffset = o } }

func startDate(d string) windowOption { return func(w *MaintenanceWindow) { w.StartDate = d } }

func notAllowed(from, to string) windowOption {
	return func(w *MaintenanceWindow) { w.NotAllowed = append(w.NotAllowed, DateSpan{Start: from, End: to}) }
}

// utc reads "2006-01-02 15:04" (or a date alone, midnight) in UTC; "" is the zero time.
func utc(t testing.TB, s string) time.Time {
	t.Helper()
	if s == "" {
		return time.Time{}
	}
	layout := "2006-01-02 15:04"
	if len(s) == len(time.DateOnly) {
		layout = time.DateOnly
	}
	v, err := time.Parse(layout, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Every worked example of designs/maintenance.md §3, then calendar cases
// worked by hand. closes is ClosesAt when open; next is NextOpening when
// closed ("" when it never opens again).
func TestWindowAt(t *testing.T) {
	monday := weekly(1, "Monday", "02:00", 4)
	cases := []struct {
		name     string
		w        *MaintenanceWindow
		at       string
		open     bool
		closes   string
		next     string
		priority int // 0: not checked here
	}{
		// designs/maintenance.md §3, row by row.
		{"§3 row 1: open, closes 06:00", monday, "2026-11-23 03:30", true, "2026-11-23 06:00", "", PriorityOpen},
		{"§3 row 2: opens in 3 h", monday, "2026-11-22 23:00", false, "", "2026-11-23 02:00", PriorityOpensSoon},
		{"§3 row 3: end excluded", monday, "2026-11-23 06:00", false, "", "2026-11-30 02:00", PriorityClosed},
		{"§3 row 4: Friday 00:00 at +05:30 is Thursday 18:30 UTC", weekly(1, "Friday", "00:00", 8, offset("+05:30")),
			"2026-11-26 18:30", true, "2026-11-27 02:30", "", PriorityOpen},
		{"§3 row 5: 30 Nov 2026 is the last Monday", relativeMonthly(1, "Last", "Monday", "01:00", 4),
			"2026-11-30 02:00", true, "2026-11-30 05:00", "", PriorityOpen},
		{"§3 row 6: no day 31 in February", absoluteMonthly(1, 31, "00:00", 4, startDate("2027-01-01")),
			"2027-02-15", false, "", "2027-03-31 00:00", PriorityClosed},
		{"§3 row 7: leap year", absoluteMonthly(1, 29, "00:00", 4, startDate("2028-01-01")),
			"2028-02-29 01:00", true, "2028-02-29 04:00", "", PriorityOpen},
		{"§3 row 8: blocked", weekly(1, "Tuesday", "01:00", 4, notAllowed("2026-12-22", "2026-12-31")),
			"2026-12-29 02:00", false, "", "2027-01-05 01:00", PriorityClosed},
		{"§3 row 9: every second Friday from 2026-11-20", weekly(2, "Friday", "22:00", 8, startDate("2026-11-20")),
			"2026-11-28 03:00", false, "", "2026-12-04 22:00", PriorityClosed},
		{"§3 row 10: every third day from the 20th", daily(3, "10:00", 4, startDate("2026-11-20")),
			"2026-11-26 11:00", true, "2026-11-26 14:00", "", PriorityOpen},
		{"§3 row 11: not yet active", weekly(1, "Monday", "02:00", 4, startDate("2027-01-01")),
			"2026-12-15", false, "", "2027-01-04 02:00", PriorityClosed},
		{"§3 row 11: not yet active, daily", daily(1, "00:00", 4, startDate("2027-01-01")),
			"2026-12-31 23:00", false, "", "2027-01-01 00:00", PriorityOpensSoon},

		// Instants exactly at the edges: the start is included, the end excluded.
		{"exactly at open", monday, "2026-11-23 02:00", true, "2026-11-23 06:00", "", PriorityOpen},
		{"a second before close", monday, "2026-11-23 05:59", true, "2026-11-23 06:00", "", PriorityOpen},
		{"exactly at close", monday, "2026-11-23 06:00", false, "", "2026-11-30 02:00", PriorityClosed},

		// Month ends: a month that lacks day_of_month has no occurrence.
		{"day 31: April lacks it", absoluteMonthly(1, 31, "03:00", 4), "2027-04-15", false, "", "2027-05-31 03:00", 0},
		{"day 31: June lacks it", absoluteMonthly(1, 31, "03:00", 4), "2027-06-01", false, "", "2027-07-31 03:00", 0},
		{"day 31: March has it", absoluteMonthly(1, 31, "03:00", 4), "2027-03-31 03:00", true, "2027-03-31 07:00", "", 0},
		{"day 30: February lacks it", absoluteMonthly(1, 30, "03:00", 4), "2027-02-01", false, "", "2027-03-30 03:00", 0},
		{"day 30: February lacks it in a leap year", absoluteMonthly(1, 30, "03:00", 4), "2028-02-10", false, "", "2028-03-30 03:00", 0},
		{"day 29: 2027 has no 29 February", absoluteMonthly(1, 29, "03:00", 4), "2027-02-01", false, "", "2027-03-29 03:00", 0},
		{"day 29: 2028 has 29 February", absoluteMonthly(1, 29, "03:00", 4), "2028-02-01", false, "", "2028-02-29 03:00", 0},
		// Every second month from February: February, April and June lack
		// day 31, August has it.
		{"day 31 of every second month from February", absoluteMonthly(2, 31, "03:00", 4, startDate("2027-02-01")),
			"2027-02-01", false, "", "2027-08-31 03:00", 0},
		// Last: Monday 30 Nov 2026 is the fifth Monday, 22 Feb 2027 the fourth.
		{"Last Monday, five Mondays (November 2026)", relativeMonthly(1, "Last", "Monday", "01:00", 4),
			"2026-11-23 02:00", false, "", "2026-11-30 01:00", 0},
		{"Fourth Monday, five Mondays (November 2026)", relativeMonthly(1, "Fourth", "Monday", "01:00", 4),
			"2026-11-23 02:00", true, "2026-11-23 05:00", "", 0},
		{"Last Monday, four Mondays (February 2027)", relativeMonthly(1, "Last", "Monday", "01:00", 4),
			"2027-02-01", false, "", "2027-02-22 01:00", 0},
		{"Fourth Monday, four Mondays (February 2027) is the last", relativeMonthly(1, "Fourth", "Monday", "01:00", 4),
			"2027-02-22 01:00", true, "2027-02-22 05:00", "", 0},
		{"First Monday: 1 February 2027", relativeMonthly(1, "First", "Monday", "01:00", 4),
			"2027-01-31", false, "", "2027-02-01 01:00", 0},

		// Offsets that move an occurrence across midnight UTC, both ways.
		{"+05:30: Friday 03:00 local is Thursday 21:30 UTC", weekly(1, "Friday", "03:00", 4, offset("+05:30")),
			"2026-11-26 21:29", false, "", "2026-11-26 21:30", PriorityOpensSoon},
		{"-08:00: Monday 20:00 local is Tuesday 04:00 UTC", weekly(1, "Monday", "20:00", 4, offset("-08:00")),
			"2026-11-24 05:00", true, "2026-11-24 08:00", "", PriorityOpen},
		{"-08:00: Monday 21:00 UTC is Monday 13:00 local, before the opening", weekly(1, "Monday", "20:00", 4, offset("-08:00")),
			"2026-11-23 21:00", false, "", "2026-11-24 04:00", PriorityClosed},
		{"+14:00: 1 January 08:00 local is 31 December 18:00 UTC", daily(1, "08:00", 4, offset("+14:00"), startDate("2027-01-01")),
			"2026-12-31 18:00", true, "2026-12-31 22:00", "", PriorityOpen},
		{"+14:00: start_date is local", daily(1, "08:00", 4, offset("+14:00"), startDate("2027-01-01")),
			"2026-12-31 17:00", false, "", "2026-12-31 18:00", PriorityOpensSoon},
		{"-12:00: Sunday 18:00 local is Monday 06:00 UTC", weekly(1, "Sunday", "18:00", 4, offset("-12:00")),
			"2026-12-28 07:00", true, "2026-12-28 10:00", "", PriorityOpen},
		// 2027-01-03 local at -12:00 is 2027-01-03 12:00 to 2027-01-04 12:00 UTC.
		{"-12:00: blocked dates are local", weekly(1, "Sunday", "18:00", 4, offset("-12:00"), notAllowed("2027-01-03", "2027-01-03")),
			"2027-01-04 07:00", false, "", "2027-01-11 06:00", PriorityClosed},

		// A 24-hour window, open since yesterday 22:00.
		{"24 h: opened yesterday 22:00", daily(2, "22:00", 24, startDate("2026-11-20")),
			"2026-11-25 21:59", true, "2026-11-25 22:00", "", PriorityOpen},
		{"24 h: closes at 22:00 on an off day", daily(2, "22:00", 24, startDate("2026-11-20")),
			"2026-11-25 22:00", false, "", "2026-11-26 22:00", PriorityClosed},
		{"24 h every day: the next occurrence opens as one closes", daily(1, "00:00", 24),
			"2026-11-25 13:00", true, "2026-11-26 00:00", "", PriorityOpen},

		// A blocked day cuts the occurrences that overlap it (20:00 to 04:00):
		// 24 December's closes at midnight, 25 December's opens at midnight.
		{"blocked: open before the blocked day", daily(1, "20:00", 8, notAllowed("2026-12-25", "2026-12-25")),
			"2026-12-24 21:00", true, "2026-12-25 00:00", "", PriorityOpen},
		{"blocked: inside an occurrence, opens when the block ends", daily(1, "20:00", 8, notAllowed("2026-12-25", "2026-12-25")),
			"2026-12-25 01:00", false, "", "2026-12-26 00:00", PriorityClosed},
		{"blocked: between occurrences", daily(1, "20:00", 8, notAllowed("2026-12-25", "2026-12-25")),
			"2026-12-25 12:00", false, "", "2026-12-26 00:00", PriorityClosed},
		{"blocked: open after the blocked day", daily(1, "20:00", 8, notAllowed("2026-12-25", "2026-12-25")),
			"2026-12-26 00:00", true, "2026-12-26 04:00", "", PriorityOpen},
		{"blocked: overlapping spans join", weekly(1, "Tuesday", "01:00", 4, notAllowed("2026-12-28", "2027-01-06"), notAllowed("2026-12-22", "2026-12-31")),
			"2026-12-21", false, "", "2027-01-12 01:00", 0},
		{"blocked: a block ending in a year and a half", weekly(1, "Tuesday", "01:00", 4, notAllowed("2026-01-01", "2028-06-30")),
			"2026-12-21", false, "", "2028-07-04 01:00", 0},
		{"blocked: every occurrence in the horizon", weekly(1, "Tuesday", "01:00", 4, notAllowed("2026-01-01", "2040-12-31")),
			"2026-12-21", false, "", "", PriorityClosed},

		// Intervals count from start_date.
		{"every 3 weeks: first Wednesday on or after start_date", weekly(3, "Wednesday", "09:00", 4, startDate("2026-11-20")),
			"2026-11-20", false, "", "2026-11-25 09:00", 0},
		{"every 3 weeks: 2 December is not one", weekly(3, "Wednesday", "09:00", 4, startDate("2026-11-20")),
			"2026-12-02 10:00", false, "", "2026-12-16 09:00", 0},
		{"every 3 weeks: 6 January is one", weekly(3, "Wednesday", "09:00", 4, startDate("2026-11-20")),
			"2027-01-06 12:00", true, "2027-01-06 13:00", "", 0},
		{"every 2 months: the 15th before start_date moves to the next eligible month", absoluteMonthly(2, 15, "03:00", 4, startDate("2026-11-20")),
			"2026-11-21", false, "", "2027-01-15 03:00", 0},
		{"every 2 months: February is skipped", absoluteMonthly(2, 15, "03:00", 4, startDate("2026-11-20")),
			"2027-02-15 04:00", false, "", "2027-03-15 03:00", 0},
		{"every 2 months: the anchor month when the day is not before start_date", absoluteMonthly(2, 25, "03:00", 4, startDate("2026-11-20")),
			"2026-11-21", false, "", "2026-11-25 03:00", 0},
		{"every 2 months, First Tuesday: 3 November is before start_date", relativeMonthly(2, "First", "Tuesday", "03:00", 4, startDate("2026-11-20")),
			"2026-11-21", false, "", "2027-01-05 03:00", 0},
		{"a start_date far ahead still opens", daily(1, "03:00", 4, startDate("2040-06-01")),
			"2026-11-21", false, "", "2040-06-01 03:00", PriorityClosed},

		// Without start_date, intervals count from 1970-01-01, a Thursday:
		// 2026-11-19 is 20,776 days later, 1,484 fortnights.
		{"no start_date: every second Thursday from 1970-01-01", weekly(2, "Thursday", "10:00", 4),
			"2026-11-26 11:00", false, "", "2026-12-03 10:00", 0},
		{"no start_date: 19 November 2026 is one", weekly(2, "Thursday", "10:00", 4),
			"2026-11-19 11:00", true, "2026-11-19 14:00", "", 0},
		// 20,776 = 3 × 6,925 + 1: the 19th is not a third day, the 21st is.
		{"no start_date: every third day from 1970-01-01", daily(3, "10:00", 4),
			"2026-11-19 11:00", false, "", "2026-11-21 10:00", 0},
		// November 2026 is 682 months after January 1970, 682 = 5 × 136 + 2:
		// the next month of the cycle is February 2027.
		{"no start_date: every 5 months from January 1970", absoluteMonthly(5, 1, "03:00", 4),
			"2026-11-21", false, "", "2027-02-01 03:00", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if errs := c.w.Validate(); len(errs) > 0 {
				t.Fatalf("invalid window: %v", errs)
			}
			at := utc(t, c.at)
			got := c.w.At(at)
			want := WindowState{Open: c.open, ClosesAt: utc(t, c.closes), NextOpening: utc(t, c.next), HasNext: c.next != ""}
			if !sameState(got, want) {
				t.Fatalf("At(%s) = %s, want %s", c.at, showState(got), showState(want))
			}
			checkWindow(t, c.w, at)
			if c.priority != 0 {
				if p := WindowPriority(c.w, at); p != c.priority {
					t.Fatalf("priority %d, want %d", p, c.priority)
				}
			}
		})
	}
}

func sameState(a, b WindowState) bool {
	return a.Open == b.Open && a.HasNext == b.HasNext && a.ClosesAt.Equal(b.ClosesAt) && a.NextOpening.Equal(b.NextOpening)
}

func showState(s WindowState) string {
	f := func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") }
	switch {
	case s.Open:
		return "open until " + f(s.ClosesAt)
	case s.HasNext:
		return "closed until " + f(s.NextOpening)
	}
	return "closed for good"
}

func TestWindowPriority(t *testing.T) {
	monday := weekly(1, "Monday", "02:00", 4)
	opens := utc(t, "2026-11-23 02:00")
	cases := []struct {
		name string
		w    *MaintenanceWindow
		at   time.Time
		want int
	}{
		{"open", monday, opens, PriorityOpen},
		{"opens in 3 h", monday, opens.Add(-3 * time.Hour), PriorityOpensSoon},
		// Exactly 4 hours before the opening: opens soon. The rule is
		// NextOpening <= t + OpensSoon: "opens within 4 hours" includes the
		// 4th hour, so that a member reached at 22:00 ranks with those that
		// start by 02:00 rather than behind the members with no window.
		{"opens in exactly 4 h", monday, opens.Add(-OpensSoon), PriorityOpensSoon},
		{"opens in 4 h and a second", monday, opens.Add(-OpensSoon - time.Second), PriorityClosed},
		{"no window", nil, opens, PriorityNoWindow},
		{"closed at the end", monday, opens.Add(4 * time.Hour), PriorityClosed},
		{"never opens again", weekly(1, "Monday", "02:00", 4, notAllowed("2026-01-01", "2040-01-01")), opens.Add(-time.Hour), PriorityClosed},
		{"invalid: never opens", weekly(5, "Monday", "02:00", 4), opens, PriorityClosed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := WindowPriority(c.w, c.at); got != c.want {
				t.Fatalf("priority %d, want %d", got, c.want)
			}
		})
	}
}

func TestSkipsShortMonths(t *testing.T) {
	for _, c := range []struct {
		w    *MaintenanceWindow
		want bool
	}{
		{absoluteMonthly(1, 28, "00:00", 4), false},
		{absoluteMonthly(1, 29, "00:00", 4), true},
		{absoluteMonthly(1, 31, "00:00", 4), true},
		{relativeMonthly(1, "Last", "Monday", "00:00", 4), false},
		{weekly(1, "Monday", "00:00", 4), false},
	} {
		if got := c.w.SkipsShortMonths(); got != c.want {
			t.Errorf("%+v: SkipsShortMonths %v, want %v", c.w.Schedule, got, c.want)
		}
	}
}

// A window Validate rejects never opens; one it accepts is evaluated.
func TestWindowAtInvalid(t *testing.T) {
	at := utc(t, "2026-11-23 03:00")
	for _, w := range []*MaintenanceWindow{
		weekly(0, "Monday", "02:00", 4),
		weekly(1, "monday", "02:00", 4),
		weekly(1, "Monday", "2:00", 4),
		weekly(1, "Monday", "02:00", 3),
		weekly(1, "Monday", "02:00", 4, offset("+15:00")),
		weekly(1, "Monday", "02:00", 4, startDate("2026-11-31")),
		weekly(1, "Monday", "02:00", 4, notAllowed("2026-12-02", "2026-12-01")),
		absoluteMonthly(1, 32, "02:00", 4),
		relativeMonthly(1, "Fifth", "Monday", "02:00", 4),
		{Schedule: MaintenanceSchedule{Type: "Yearly"}, StartTime: "02:00", DurationHours: 4},
	} {
		if got := w.At(at); got != (WindowState{}) {
			t.Errorf("%+v: %s, want closed for good", w, showState(got))
		}
	}
	if got := weekly(1, "Monday", "02:00", 4, offset("+14:59")).At(at); !got.Open && !got.HasNext {
		t.Errorf("+14:59 passes Validate but the window never opens")
	}
}

// Random valid windows at random instants agree with a day-by-day reading of
// designs/maintenance.md §2 (reference), and their states chain: the next opening
// is open and the minute before it closed; the second before ClosesAt is open
// and ClosesAt closed, unless an occurrence opens right there.
func TestWindowAtProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 2026))
	base := utc(t, "2025-06-01").Unix()
	var open, closed, never, split int
	for i := range 3000 {
		w := randomWindow(r)
		if errs := w.Validate(); len(errs) > 0 {
			t.Fatalf("randomWindow made an invalid window: %v", errs)
		}
		for range 3 {
			at := time.Unix(base+r.Int64N(6*365*secondsPerDay), 0).UTC()
			switch r.IntN(3) {
			case 0:
				at = at.Truncate(time.Hour) // on the hour, where windows open
			case 1:
				if s := w.At(at); s.HasNext { // within an occurrence, or after it
					at = s.NextOpening.Add(time.Duration(r.Int64N(int64(w.DurationHours+1) * int64(time.Hour))))
				}
			}
			if !checkWindow(t, w, at) {
				t.Fatalf("case %d: %+v at %s", i, *w, at)
			}
			switch s := w.At(at); {
			case s.Open:
				open++
			case s.HasNext:
				closed++
				if o, _ := newReference(w).occurrence(newReference(w).day(s.NextOpening)); !o.Equal(s.NextOpening) {
					split++ // opens at the end of a blocked span
				}
			default:
				never++
			}
		}
	}
	// The random cases reach every kind of state.
	t.Logf("open %d, closed %d (%d opening at the end of a block), never opening %d", open, closed, split, never)
	if open < 100 || closed < 100 || split < 10 || never < 10 {
		t.Fatalf("too few of a kind: open %d, closed %d, split %d, never %d", open, closed, split, never)
	}
}

func randomWindow(r *rand.Rand) *MaintenanceWindow {
	w := &MaintenanceWindow{
		StartTime:     fmt.Sprintf("%02d:%02d", r.IntN(24), []int{0, 0, 30, r.IntN(60)}[r.IntN(4)]),
		DurationHours: []int{4, 8, 24, 4 + r.IntN(21)}[r.IntN(4)],
	}
	if r.IntN(4) > 0 {
		sign := []string{"+", "-"}[r.IntN(2)]
		w.UTCOffset = fmt.Sprintf("%s%02d:%02d", sign, r.IntN(15), []int{0, 30, 45, r.IntN(60)}[r.IntN(4)])
	}
	day := func(from string, within int) string {
		return mustDate(from).AddDate(0, 0, r.IntN(within)).Format(time.DateOnly)
	}
	s := &w.Schedule
	switch r.IntN(4) {
	case 0:
		s.Type, s.IntervalDays = ScheduleDaily, 1+r.IntN(7)
	case 1:
		s.Type, s.IntervalWeeks, s.DayOfWeek = ScheduleWeekly, 1+r.IntN(4), Weekdays[r.IntN(7)]
	case 2:
		s.Type, s.IntervalMonths, s.DayOfMonth = ScheduleAbsoluteMonthly, 1+r.IntN(6), []int{1 + r.IntN(31), 28 + r.IntN(4)}[r.IntN(2)]
	case 3:
		s.Type, s.IntervalMonths, s.DayOfWeek, s.WeekIndex = ScheduleRelativeMonthly, 1+r.IntN(6), Weekdays[r.IntN(7)], WeekIndexes[r.IntN(5)]
	}
	if r.IntN(2) == 0 {
		w.StartDate = day("2024-01-01", 8*365)
	}
	for range r.IntN(4) {
		from := day("2025-01-01", 6*365)
		length := r.IntN(40)
		switch r.IntN(20) {
		case 0, 1:
			length = r.IntN(4 * 365)
		case 2:
			length = 10 * 365 // beyond the horizon
		}
		w.NotAllowed = append(w.NotAllowed, DateSpan{Start: from, End: mustDate(from).AddDate(0, 0, length).Format(time.DateOnly)})
	}
	return w
}

// checkWindow compares w.At(at) with the reference and checks the chain of
// states from it; it reports whether all held.
func checkWindow(t testing.TB, w *MaintenanceWindow, at time.Time) bool {
	t.Helper()
	ok := true
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%+v at %s: "+format, append([]any{*w, at.UTC()}, args...)...)
		ok = false
	}
	if _, valid := w.compile(); !valid {
		fail("Validate accepts the window, At does not")
		return false
	}
	got := w.At(at)
	ref := newReference(w)
	want := ref.state(at)
	if !sameState(got, want) {
		fail("At = %s, the reference says %s", showState(got), showState(want))
	}
	switch {
	case got.Open:
		if !got.ClosesAt.After(at) {
			fail("open, closing at %s", got.ClosesAt)
		}
		if !w.At(got.ClosesAt.Add(-time.Second)).Open {
			fail("the second before ClosesAt %s is closed", got.ClosesAt)
		}
		if w.At(got.ClosesAt).Open && !ref.opensAt(got.ClosesAt) {
			fail("open at ClosesAt %s, where no occurrence opens", got.ClosesAt)
		}
	case got.HasNext:
		if !got.NextOpening.After(at) {
			fail("closed, opening at %s", got.NextOpening)
		}
		if !w.At(got.NextOpening).Open {
			fail("closed at NextOpening %s", got.NextOpening)
		}
		if w.At(got.NextOpening.Add(-time.Minute)).Open {
			fail("open the minute before NextOpening %s", got.NextOpening)
		}
	}
	return ok
}

// The reference: designs/maintenance.md §2 read day by day with the time
// package, each local day tested against the rules, rather than the
// occurrences computed from the anchor.
type reference struct {
	w       *MaintenanceWindow
	loc     *time.Location
	hh, mm  int
	anchor  time.Time // a local date, as midnight UTC
	bounded bool
	blocked [][2]time.Time // local dates, as midnight UTC
}

func newReference(w *MaintenanceWindow) *reference {
	r := &reference{w: w, anchor: time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)}
	off, _ := parseOffset(w.UTCOffset)
	r.loc = time.FixedZone(w.UTCOffset, int(off))
	fmt.Sscanf(w.StartTime, "%d:%d", &r.hh, &r.mm)
	if w.StartDate != "" {
		r.anchor, r.bounded = mustDate(w.StartDate), true
	}
	for _, s := range w.NotAllowed {
		r.blocked = append(r.blocked, [2]time.Time{mustDate(s.Start), mustDate(s.End)})
	}
	return r
}

func mustDate(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

// occurs reports whether the local date d is an occurrence day.
func (r *reference) occurs(d time.Time) bool {
	if r.bounded && d.Before(r.anchor) {
		return false
	}
	daysBetween := func(a, b time.Time) int { return int((b.Unix() - a.Unix()) / secondsPerDay) }
	months := (d.Year()-r.anchor.Year())*12 + int(d.Month()) - int(r.anchor.Month())
	in := func(n, every int) bool { return (n%every+every)%every == 0 }
	s := r.w.Schedule
	weekday := d.Weekday().String() == s.DayOfWeek
	switch s.Type {
	case ScheduleDaily:
		return in(daysBetween(r.anchor, d), s.IntervalDays)
	case ScheduleWeekly:
		first := r.anchor
		for first.Weekday().String() != s.DayOfWeek {
			first = first.AddDate(0, 0, 1)
		}
		return weekday && in(daysBetween(first, d)/7, s.IntervalWeeks)
	case ScheduleAbsoluteMonthly:
		return d.Day() == s.DayOfMonth && in(months, s.IntervalMonths)
	case ScheduleRelativeMonthly:
		if s.WeekIndex == "Last" {
			return weekday && d.AddDate(0, 0, 7).Month() != d.Month() && in(months, s.IntervalMonths)
		}
		return weekday && WeekIndexes[(d.Day()-1)/7] == s.WeekIndex && in(months, s.IntervalMonths)
	}
	return false
}

// isBlocked reports whether the local date d is a not-allowed date.
func (r *reference) isBlocked(d time.Time) bool {
	for _, s := range r.blocked {
		if !d.Before(s[0]) && !d.After(s[1]) {
			return true
		}
	}
	return false
}

// day is the local date of t, as midnight UTC.
func (r *reference) day(t time.Time) time.Time {
	y, m, d := t.In(r.loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// occurrence is the opening and the closing of the occurrence of the local date d.
func (r *reference) occurrence(d time.Time) (time.Time, time.Time) {
	open := time.Date(d.Year(), d.Month(), d.Day(), r.hh, r.mm, 0, 0, r.loc)
	return open, open.Add(time.Duration(r.w.DurationHours) * time.Hour)
}

// open is the closing of the occurrence open at t, if one is and t is not blocked.
func (r *reference) open(t time.Time) (time.Time, bool) {
	today := r.day(t)
	if r.isBlocked(today) {
		return time.Time{}, false
	}
	for _, d := range []time.Time{today.AddDate(0, 0, -1), today} {
		if o, e := r.occurrence(d); r.occurs(d) && !t.Before(o) && t.Before(e) {
			return e, true
		}
	}
	return time.Time{}, false
}

// opensAt reports whether an occurrence opens at t, unblocked.
func (r *reference) opensAt(t time.Time) bool {
	d := r.day(t)
	o, _ := r.occurrence(d)
	return o.Equal(t) && r.occurs(d) && !r.isBlocked(d)
}

func (r *reference) state(t time.Time) WindowState {
	t = t.Truncate(time.Second)
	if end, ok := r.open(t); ok {
		// The occurrence closes at its end, or at the next local midnight
		// if that day is blocked (an occurrence spans one at most).
		y, m, d := t.In(r.loc).Date()
		if midnight := time.Date(y, m, d+1, 0, 0, 0, 0, r.loc); midnight.Before(end) && r.isBlocked(r.day(midnight)) {
			end = midnight
		}
		return WindowState{Open: true, ClosesAt: end.UTC()}
	}
	// The next opening is the first instant after t, among the openings of
	// the occurrences and the local midnights inside them, that is open.
	// The search ends as At's does, horizonDays after the later of t's day
	// and start_date; it starts at start_date when that is later.
	first, last := r.day(t).AddDate(0, 0, -1), r.day(t)
	if r.bounded && r.anchor.After(last) {
		first, last = r.anchor, r.anchor
	}
	last = last.AddDate(0, 0, horizonDays)
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		if !r.occurs(d) {
			continue
		}
		open, end := r.occurrence(d)
		midnight := time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, r.loc)
		for _, x := range []time.Time{open, midnight} {
			if _, ok := r.open(x); ok && x.After(t) && x.Before(end) {
				return WindowState{NextOpening: x.UTC(), HasNext: true}
			}
		}
	}
	return WindowState{}
}

// The reference agrees with the hand-worked cases on its own.
func TestWindowReference(t *testing.T) {
	w := relativeMonthly(1, "Last", "Monday", "01:00", 4)
	if got := newReference(w).state(utc(t, "2026-11-30 02:00")); !got.Open || !got.ClosesAt.Equal(utc(t, "2026-11-30 05:00")) {
		t.Fatalf("reference: %s", showState(got))
	}
	w = weekly(1, "Tuesday", "01:00", 4, notAllowed("2026-12-22", "2026-12-31"))
	if got := newReference(w).state(utc(t, "2026-12-29 02:00")); got.Open || !got.NextOpening.Equal(utc(t, "2027-01-05 01:00")) {
		t.Fatalf("reference: %s", showState(got))
	}
}

// BenchmarkWindowAt evaluates 1,000 windows per iteration.
func BenchmarkWindowAt(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	windows := make([]*MaintenanceWindow, 1000)
	for i := range windows {
		windows[i] = randomWindow(r)
	}
	at := time.Date(2027, 3, 14, 15, 9, 26, 0, time.UTC)
	for b.Loop() {
		for _, w := range windows {
			w.At(at)
		}
	}
}
