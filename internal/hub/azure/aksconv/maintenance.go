package aksconv

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// The maintenance window shapes. The fleet model keeps the
// aksManagedAutoUpgradeSchedule maintenanceWindow field for field
// (designs/maintenance.md §1); ARM's camelCase kinds (daily, weekly,
// absoluteMonthly, relativeMonthly) are fleet's schedule types, and the
// day-of-week and week-index strings are the SDK's WeekDay and Type enum
// values with the same spelling ("Monday", "First"). Dates (startDate,
// notAllowedDates) are YYYY-MM-DD strings in the fleet model and *time.Time
// in the SDK, which writes them as dates ("2026-12-23", its dateType: the
// year, month and day of the time in its own location); this package makes
// them midnight UTC and reads back the time's own year, month and day.

// MaintenanceConfiguration is the aksManagedAutoUpgradeSchedule maintenance
// configuration ARM returns for c; false when c has no maintenance window
// (ARM answers 404). The window is expected to pass
// fleet.MaintenanceWindow.Validate, as every window of a mock inventory does;
// MaintenanceWindow says what becomes of one that does not.
func MaintenanceConfiguration(c *fleet.Cluster) (armcontainerservice.MaintenanceConfiguration, bool) {
	if c.MaintenanceWindow == nil {
		return armcontainerservice.MaintenanceConfiguration{}, false
	}
	return armcontainerservice.MaintenanceConfiguration{
		ID:   to.Ptr(c.ResourceID + "/maintenanceConfigurations/" + AutoUpgradeScheduleName),
		Name: to.Ptr(AutoUpgradeScheduleName),
		Type: to.Ptr(MaintenanceConfigurationType),
		Properties: &armcontainerservice.MaintenanceConfigurationProperties{
			MaintenanceWindow: MaintenanceWindow(c.MaintenanceWindow),
		},
	}, true
}

// MaintenanceWindow is w in ARM's maintenanceWindow shape. An empty
// UTCOffset or StartDate is left out (ARM's defaults: +00:00, the creation
// day). For a window that fails Validate the result says so to the client
// rather than guess: an unknown schedule type gives a schedule with no kind,
// an unknown day or week index is passed on as written, a start date that is
// not a date is left out and a not-allowed span's bound that is not a date is
// left empty — WindowFromARM rejects all but the start date.
func MaintenanceWindow(w *fleet.MaintenanceWindow) *armcontainerservice.MaintenanceWindow {
	out := &armcontainerservice.MaintenanceWindow{
		Schedule:      schedule(w.Schedule),
		StartTime:     to.Ptr(w.StartTime),
		DurationHours: to.Ptr(int32(w.DurationHours)),
		StartDate:     date(w.StartDate),
	}
	if w.UTCOffset != "" {
		out.UTCOffset = to.Ptr(w.UTCOffset)
	}
	for _, d := range w.NotAllowed {
		out.NotAllowedDates = append(out.NotAllowedDates, &armcontainerservice.DateSpan{Start: date(d.Start), End: date(d.End)})
	}
	return out
}

// schedule is s as ARM's schedule: the one kind s.Type names.
func schedule(s fleet.MaintenanceSchedule) *armcontainerservice.Schedule {
	weekday := func() *armcontainerservice.WeekDay {
		d, ok := canonical(s.DayOfWeek, armcontainerservice.PossibleWeekDayValues())
		if !ok {
			d = armcontainerservice.WeekDay(s.DayOfWeek)
		}
		return to.Ptr(d)
	}
	switch s.Type {
	case fleet.ScheduleDaily:
		return &armcontainerservice.Schedule{Daily: &armcontainerservice.DailySchedule{IntervalDays: to.Ptr(int32(s.IntervalDays))}}
	case fleet.ScheduleWeekly:
		return &armcontainerservice.Schedule{Weekly: &armcontainerservice.WeeklySchedule{
			IntervalWeeks: to.Ptr(int32(s.IntervalWeeks)), DayOfWeek: weekday()}}
	case fleet.ScheduleAbsoluteMonthly:
		return &armcontainerservice.Schedule{AbsoluteMonthly: &armcontainerservice.AbsoluteMonthlySchedule{
			IntervalMonths: to.Ptr(int32(s.IntervalMonths)), DayOfMonth: to.Ptr(int32(s.DayOfMonth))}}
	case fleet.ScheduleRelativeMonthly:
		wi, ok := canonical(s.WeekIndex, armcontainerservice.PossibleTypeValues())
		if !ok {
			wi = armcontainerservice.Type(s.WeekIndex)
		}
		return &armcontainerservice.Schedule{RelativeMonthly: &armcontainerservice.RelativeMonthlySchedule{
			IntervalMonths: to.Ptr(int32(s.IntervalMonths)), WeekIndex: to.Ptr(wi), DayOfWeek: weekday()}}
	}
	return &armcontainerservice.Schedule{}
}

// date is a YYYY-MM-DD date as the SDK holds it (midnight UTC); nil when s
// is empty or not such a date.
func date(s string) *time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if s == "" || err != nil || t.Format(time.DateOnly) != s {
		return nil
	}
	return &t
}

// WindowFromARM reads the maintenance window of an
// aksManagedAutoUpgradeSchedule maintenance configuration. A configuration
// without a maintenanceWindow (e.g. one written in the legacy timeInWeek
// form), a schedule with no kind or several, or a required field missing or
// out of its enum, is an error that names the field. A nil configuration
// (none: ARM answered 404) is no window.
func WindowFromARM(cfg *armcontainerservice.MaintenanceConfiguration) (*fleet.MaintenanceWindow, error) {
	if cfg == nil {
		return nil, nil
	}
	name := deref(cfg.Name)
	if name == "" {
		name = AutoUpgradeScheduleName
	}
	if cfg.Properties == nil || cfg.Properties.MaintenanceWindow == nil {
		return nil, fmt.Errorf("maintenance configuration %q has no maintenanceWindow; the fleet model reads auto-upgrade windows only in that form", name)
	}
	w, err := windowFromARM(cfg.Properties.MaintenanceWindow)
	if err != nil {
		return nil, fmt.Errorf("maintenance configuration %q: maintenanceWindow.%w", name, err)
	}
	return w, nil
}

// windowFromARM reads a maintenanceWindow; errors start with the field's
// path below maintenanceWindow.
func windowFromARM(mw *armcontainerservice.MaintenanceWindow) (*fleet.MaintenanceWindow, error) {
	s, err := scheduleFromARM(mw.Schedule)
	if err != nil {
		return nil, err
	}
	w := &fleet.MaintenanceWindow{Schedule: s, UTCOffset: deref(mw.UTCOffset)}
	if mw.StartTime == nil {
		return nil, errors.New("startTime is missing; AKS requires the time of day the window opens")
	}
	w.StartTime = *mw.StartTime
	if mw.DurationHours == nil {
		return nil, errors.New("durationHours is missing; AKS requires the window's length")
	}
	w.DurationHours = int(*mw.DurationHours)
	if mw.StartDate != nil {
		w.StartDate = mw.StartDate.Format(time.DateOnly)
	}
	for i, d := range mw.NotAllowedDates {
		if d == nil {
			continue
		}
		if d.Start == nil || d.End == nil {
			return nil, fmt.Errorf("notAllowedDates[%d] lacks its start or end date; a span needs both", i)
		}
		w.NotAllowed = append(w.NotAllowed, fleet.DateSpan{Start: d.Start.Format(time.DateOnly), End: d.End.Format(time.DateOnly)})
	}
	return w, nil
}

// scheduleFromARM reads a schedule: exactly one kind, its fields present.
func scheduleFromARM(s *armcontainerservice.Schedule) (fleet.MaintenanceSchedule, error) {
	var out fleet.MaintenanceSchedule
	if s == nil {
		return out, errors.New("schedule is missing; AKS requires one of daily, weekly, absoluteMonthly or relativeMonthly")
	}
	var kinds []string
	for _, k := range []struct {
		set  bool
		name string
	}{{s.Daily != nil, "daily"}, {s.Weekly != nil, "weekly"}, {s.AbsoluteMonthly != nil, "absoluteMonthly"}, {s.RelativeMonthly != nil, "relativeMonthly"}} {
		if k.set {
			kinds = append(kinds, k.name)
		}
	}
	switch len(kinds) {
	case 0:
		return out, errors.New("schedule names no recurrence; AKS requires one of daily, weekly, absoluteMonthly or relativeMonthly")
	case 1:
	default:
		return out, fmt.Errorf("schedule names %d recurrences (%s); AKS allows exactly one", len(kinds), strings.Join(kinds, ", "))
	}
	var err error
	need := func(path string, v *int32) int {
		if v == nil && err == nil {
			err = fmt.Errorf("schedule.%s is missing", path)
		}
		return int(deref(v))
	}
	weekday := func(path string, v *armcontainerservice.WeekDay) string {
		if err != nil {
			return ""
		}
		if v == nil {
			err = fmt.Errorf("schedule.%s is missing", path)
			return ""
		}
		d, ok := canonical(string(*v), fleet.Weekdays)
		if !ok {
			err = fmt.Errorf("schedule.%s: %q is not a day of the week (Sunday … Saturday)", path, *v)
		}
		return d
	}
	switch {
	case s.Daily != nil:
		out = fleet.MaintenanceSchedule{Type: fleet.ScheduleDaily, IntervalDays: need("daily.intervalDays", s.Daily.IntervalDays)}
	case s.Weekly != nil:
		out = fleet.MaintenanceSchedule{Type: fleet.ScheduleWeekly, IntervalWeeks: need("weekly.intervalWeeks", s.Weekly.IntervalWeeks),
			DayOfWeek: weekday("weekly.dayOfWeek", s.Weekly.DayOfWeek)}
	case s.AbsoluteMonthly != nil:
		out = fleet.MaintenanceSchedule{Type: fleet.ScheduleAbsoluteMonthly, IntervalMonths: need("absoluteMonthly.intervalMonths", s.AbsoluteMonthly.IntervalMonths),
			DayOfMonth: need("absoluteMonthly.dayOfMonth", s.AbsoluteMonthly.DayOfMonth)}
	case s.RelativeMonthly != nil:
		r := s.RelativeMonthly
		out = fleet.MaintenanceSchedule{Type: fleet.ScheduleRelativeMonthly, IntervalMonths: need("relativeMonthly.intervalMonths", r.IntervalMonths),
			DayOfWeek: weekday("relativeMonthly.dayOfWeek", r.DayOfWeek)}
		if err == nil {
			switch wi, ok := canonical(string(deref(r.WeekIndex)), fleet.WeekIndexes); {
			case r.WeekIndex == nil:
				err = errors.New("schedule.relativeMonthly.weekIndex is missing")
			case !ok:
				err = fmt.Errorf("schedule.relativeMonthly.weekIndex: %q is not a week index (First, Second, Third, Fourth or Last)", *r.WeekIndex)
			default:
				out.WeekIndex = wi
			}
		}
	}
	if err != nil {
		return fleet.MaintenanceSchedule{}, err
	}
	return out, nil
}
