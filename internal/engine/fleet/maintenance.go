package fleet

import (
	"regexp"
	"slices"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// Maintenance schedule types (AKS aksManagedAutoUpgradeSchedule).
const (
	ScheduleDaily           = "Daily"
	ScheduleWeekly          = "Weekly"
	ScheduleAbsoluteMonthly = "AbsoluteMonthly"
	ScheduleRelativeMonthly = "RelativeMonthly"
)

// ScheduleKey is the snake_case attribute that holds a schedule of the given type.
func ScheduleKey(scheduleType string) string {
	switch scheduleType {
	case ScheduleDaily:
		return "daily"
	case ScheduleWeekly:
		return "weekly"
	case ScheduleAbsoluteMonthly:
		return "absolute_monthly"
	case ScheduleRelativeMonthly:
		return "relative_monthly"
	}
	return ""
}

// WeekIndexes are the allowed relativeMonthly week indexes.
var WeekIndexes = []string{"First", "Second", "Third", "Fourth", "Last"}

// Weekdays are the allowed day-of-week names.
var Weekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// MaintenanceWindow is an AKS planned-maintenance window.
type MaintenanceWindow struct {
	Schedule      MaintenanceSchedule `json:"schedule"`
	StartTime     string              `json:"start_time"`     // HH:mm
	UTCOffset     string              `json:"utc_offset"`     // ±hh:mm; empty means +00:00
	DurationHours int                 `json:"duration_hours"` //
	StartDate     string              `json:"start_date"`     // YYYY-MM-DD; optional
	NotAllowed    []DateSpan          `json:"not_allowed_dates"`
}

// MaintenanceSchedule is the recurrence of a maintenance window; exactly one type.
type MaintenanceSchedule struct {
	Type           string `json:"type"`
	IntervalDays   int    `json:"interval_days"`
	IntervalWeeks  int    `json:"interval_weeks"`
	IntervalMonths int    `json:"interval_months"`
	DayOfWeek      string `json:"day_of_week"`
	DayOfMonth     int    `json:"day_of_month"`
	WeekIndex      string `json:"week_index"`
}

// DateSpan is an inclusive range of dates (YYYY-MM-DD) on which maintenance is not allowed.
type DateSpan struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

var (
	hhmm      = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
	utcOffset = regexp.MustCompile(`^[+-](0[0-9]|1[0-4]):[0-5][0-9]$`)
)

// Validate checks a maintenance window against the AKS maintenance-configuration
// rules. Paths are relative to the window.
func (w *MaintenanceWindow) Validate() field.Errors {
	var errs field.Errors
	s := w.Schedule
	sp := field.Root("schedule").Child(ScheduleKey(s.Type))
	rangeCheck := func(name string, v, lo, hi int) {
		if v < lo || v > hi {
			errs = append(errs, field.Errorf(sp.Child(name), "", "must be between %d and %d for a %s schedule, got %d", lo, hi, s.Type, v))
		}
	}
	weekday := func() {
		if !slices.Contains(Weekdays, s.DayOfWeek) {
			errs = append(errs, field.Errorf(sp.Child("day_of_week"), "Use one of Sunday … Saturday.", "%q is not a day of the week", s.DayOfWeek))
		}
	}
	switch s.Type {
	case ScheduleDaily:
		rangeCheck("interval_days", s.IntervalDays, 1, 7)
	case ScheduleWeekly:
		rangeCheck("interval_weeks", s.IntervalWeeks, 1, 4)
		weekday()
	case ScheduleAbsoluteMonthly:
		rangeCheck("interval_months", s.IntervalMonths, 1, 6)
		rangeCheck("day_of_month", s.DayOfMonth, 1, 31)
	case ScheduleRelativeMonthly:
		rangeCheck("interval_months", s.IntervalMonths, 1, 6)
		weekday()
		if !slices.Contains(WeekIndexes, s.WeekIndex) {
			errs = append(errs, field.Errorf(sp.Child("week_index"), "Use First, Second, Third, Fourth or Last.", "%q is not a week index", s.WeekIndex))
		}
	default:
		errs = append(errs, field.Errorf(field.Root("schedule"), "Use exactly one of daily, weekly, absolute_monthly or relative_monthly.", "the schedule has no recognised type"))
	}
	if !hhmm.MatchString(w.StartTime) {
		errs = append(errs, field.Errorf(field.Root("start_time"), "Write it as HH:mm, e.g. 03:00.", "%q is not a time of day", w.StartTime))
	}
	if w.UTCOffset != "" && !utcOffset.MatchString(w.UTCOffset) {
		errs = append(errs, field.Errorf(field.Root("utc_offset"), "Write it as ±hh:mm, e.g. +05:30.", "%q is not a UTC offset", w.UTCOffset))
	}
	if w.DurationHours < 4 || w.DurationHours > 24 {
		errs = append(errs, field.Errorf(field.Root("duration_hours"), "AKS requires a window of at least 4 hours.", "must be between 4 and 24, got %d", w.DurationHours))
	}
	// A date is YYYY-MM-DD as written: Go also reads "+202-01-02" as the
	// year 202. Dates in that form compare as strings.
	date := func(p field.Path, v string) bool {
		if t, err := time.Parse(time.DateOnly, v); err != nil || t.Format(time.DateOnly) != v {
			errs = append(errs, field.Errorf(p, "Write dates as YYYY-MM-DD.", "%q is not a date", v))
			return false
		}
		return true
	}
	if w.StartDate != "" {
		date(field.Root("start_date"), w.StartDate)
	}
	for i, d := range w.NotAllowed {
		p := field.Root("not_allowed_dates").Index(i)
		start, end := date(p.Child("start"), d.Start), date(p.Child("end"), d.End)
		if start && end && d.End < d.Start {
			errs = append(errs, field.Errorf(p.Child("end"), "", "ends (%s) before it starts (%s)", d.End, d.Start))
		}
	}
	return errs
}
