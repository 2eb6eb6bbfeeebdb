package fleet

import (
	"math"
	"testing"
	"time"
)

// FuzzWindowAt: whatever a window holds and whatever the instant, At and
// WindowPriority return (no panic, no endless search); a window Validate
// rejects never opens; and for a window it accepts, at the instant folded
// into the years 1900–2400, At agrees with the day-by-day reference of
// window_test.go and its states chain (checkWindow): the next opening is
// open and the minute before it closed, the second before ClosesAt is open
// and ClosesAt closed unless an occurrence opens there. `go test` runs the
// seeds; `make fuzz` runs them longer.
func FuzzWindowAt(f *testing.F) {
	at := func(s string) int64 {
		t, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			f.Fatal(err)
		}
		return t.Unix()
	}
	const (
		daily, weekly, absolute, relative, yearly = 0, 1, 2, 3, 4
	)
	// designs/maintenance.md §3
	f.Add(uint8(weekly), 1, 0, "Monday", "", "02:00", "", 4, "", "", "", at("2026-11-23 03:30"))
	f.Add(uint8(weekly), 1, 0, "Friday", "", "00:00", "+05:30", 8, "", "", "", at("2026-11-26 18:30"))
	f.Add(uint8(relative), 1, 0, "Monday", "Last", "01:00", "", 4, "", "", "", at("2026-11-30 02:00"))
	f.Add(uint8(absolute), 1, 31, "", "", "00:00", "", 4, "2027-01-01", "", "", at("2027-02-15 00:00"))
	f.Add(uint8(absolute), 1, 29, "", "", "00:00", "", 4, "2028-01-01", "", "", at("2028-02-29 01:00"))
	f.Add(uint8(weekly), 1, 0, "Tuesday", "", "01:00", "", 4, "", "2026-12-22", "2026-12-31", at("2026-12-29 02:00"))
	f.Add(uint8(weekly), 2, 0, "Friday", "", "22:00", "", 8, "2026-11-20", "", "", at("2026-11-28 03:00"))
	f.Add(uint8(daily), 3, 0, "", "", "10:00", "", 4, "2026-11-20", "", "", at("2026-11-26 11:00"))
	f.Add(uint8(daily), 1, 0, "", "", "00:00", "", 4, "2027-01-01", "", "", at("2026-12-15 00:00"))
	// Offsets, blocked spans inside occurrences, 24-hour windows.
	f.Add(uint8(daily), 1, 0, "", "", "20:00", "-12:00", 8, "", "2026-12-25", "2026-12-25", at("2026-12-25 12:00"))
	f.Add(uint8(daily), 1, 0, "", "", "00:00", "+14:00", 24, "", "2027-01-01", "2027-01-01", at("2026-12-31 09:59"))
	f.Add(uint8(relative), 6, 0, "Sunday", "Fourth", "23:59", "+14:59", 24, "2024-02-29", "2026-01-01", "2026-03-31", at("2026-02-22 10:00"))
	f.Add(uint8(absolute), 6, 31, "", "", "12:30", "-14:59", 5, "", "2025-05-31", "2025-05-31", at("2025-05-30 23:00"))
	// Never opens again within the horizon; start_date far ahead; the
	// calendar's ends.
	f.Add(uint8(weekly), 4, 0, "Saturday", "", "03:00", "", 6, "", "2020-01-01", "2099-12-31", at("2026-11-21 12:00"))
	f.Add(uint8(daily), 7, 0, "", "", "03:00", "", 6, "9999-12-31", "", "", at("2026-11-21 12:00"))
	f.Add(uint8(relative), 1, 0, "Monday", "First", "03:00", "-01:00", 6, "0000-01-01", "0000-01-01", "9999-12-31", at("2026-11-21 12:00"))
	// Instants at the ends of time.
	f.Add(uint8(absolute), 1, 31, "", "", "03:00", "+14:00", 6, "", "", "", int64(math.MaxInt64))
	f.Add(uint8(relative), 5, 0, "Monday", "Last", "03:00", "-14:00", 6, "", "", "", int64(math.MinInt64))
	f.Add(uint8(weekly), 3, 0, "Monday", "", "03:00", "+01:00", 6, "", "", "", int64(-62135596800)) // 0001-01-01
	// Invalid windows.
	f.Add(uint8(yearly), 1, 1, "", "", "03:00", "", 6, "", "", "", at("2026-11-21 12:00"))
	f.Add(uint8(weekly), 0, 0, "monday", "", "3:00", "+15:00", 3, "2026-02-29", "2026-01-02", "2026-01-01", at("2026-11-21 12:00"))
	f.Add(uint8(absolute), 7, 32, "", "", "24:00", "05:30", 25, "+202-01-02", "x", "", at("2026-11-21 12:00"))
	f.Fuzz(func(t *testing.T, typ uint8, interval, dayOfMonth int, dow, weekIndex, start, offset string, hours int,
		startDate, naStart, naEnd string, instant int64) {
		types := []string{ScheduleDaily, ScheduleWeekly, ScheduleAbsoluteMonthly, ScheduleRelativeMonthly, "Yearly"}
		w := &MaintenanceWindow{
			Schedule: MaintenanceSchedule{Type: types[int(typ)%len(types)], IntervalDays: interval, IntervalWeeks: interval,
				IntervalMonths: interval, DayOfMonth: dayOfMonth, DayOfWeek: dow, WeekIndex: weekIndex},
			StartTime: start, UTCOffset: offset, DurationHours: hours, StartDate: startDate,
		}
		if naStart != "" || naEnd != "" {
			w.NotAllowed = []DateSpan{{Start: naStart, End: naEnd}}
		}
		raw := time.Unix(instant, 0)
		s := w.At(raw)
		p := WindowPriority(w, raw)
		if len(w.Validate()) > 0 {
			if s != (WindowState{}) || p != PriorityClosed {
				t.Fatalf("Validate rejects the window, yet At says %s (priority %d)", showState(s), p)
			}
			return
		}
		if s.Open && p != PriorityOpen || !s.Open && p == PriorityOpen {
			t.Fatalf("At says %s, WindowPriority %d", showState(s), p)
		}
		lo := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		years := time.Date(2400, 1, 1, 0, 0, 0, 0, time.UTC).Unix() - lo
		checkWindow(t, w, time.Unix(lo+floorMod(instant, years), 0).UTC())
	})
}
