package fleet

import (
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
)

// The fuzz targets of the fleet model's parsers: maintenance windows and
// cluster properties (quantities). `go test` runs the seeds; `make fuzz`
// runs them longer.

// FuzzMaintenanceWindow: whatever a window holds, Validate states each rule
// at one of the window's attributes, in its own words; it accepts a time of
// day, a UTC offset and a date exactly when Go's time package reads them in
// AKS's formats (HH:mm, ±hh:mm up to 14 hours, YYYY-MM-DD), so that what it
// accepts can be evaluated; an accepted date is in canonical form; and a
// not-allowed span is said to end before it starts only when it does.
func FuzzMaintenanceWindow(f *testing.F) {
	f.Add(uint8(1), 1, 1, "Monday", "First", "02:00", "", 6, "", "2026-12-24", "2026-12-26")
	f.Add(uint8(0), 7, 0, "", "", "23:59", "+14:00", 24, "2026-02-28", "2026-01-02", "2026-01-01")
	f.Add(uint8(2), 6, 31, "", "", "24:00", "-14:59", 4, "2026-02-29", "2026-1-2", "x")
	f.Add(uint8(3), 0, 0, "Funday", "Fifth", "3:00", "+15:00", 3, "26-01-01", "", "1")
	f.Add(uint8(4), -1, 99, "monday", "last", "03:00 ", "05:30", 25, "2026-13-01", "2026-12-31", "2027-01-01")
	f.Fuzz(func(t *testing.T, typ uint8, a, b int, dow, weekIndex, start, offset string, hours int, startDate, naStart, naEnd string) {
		types := []string{ScheduleDaily, ScheduleWeekly, ScheduleAbsoluteMonthly, ScheduleRelativeMonthly, "Yearly"}
		w := MaintenanceWindow{
			Schedule: MaintenanceSchedule{Type: types[int(typ)%len(types)], IntervalDays: a, IntervalWeeks: a, IntervalMonths: a,
				DayOfMonth: b, DayOfWeek: dow, WeekIndex: weekIndex},
			StartTime: start, UTCOffset: offset, DurationHours: hours, StartDate: startDate,
			NotAllowed: []DateSpan{{Start: naStart, End: naEnd}},
		}
		errs := w.Validate()
		enginetest.CheckErrors(t, errs, dow, weekIndex, start, offset, startDate, naStart, naEnd)
		at := map[string]bool{}
		for _, e := range errs {
			steps := e.Path.Steps()
			switch steps[0].Name {
			case "schedule", "start_time", "utc_offset", "duration_hours", "start_date", "not_allowed_dates":
			default:
				t.Errorf("an error outside the window's attributes: %s", e.Error())
			}
			at[e.Path.String()] = true
		}
		clock := len(start) == 5 && start[2] == ':' && parses("15:04", start)
		zone := offset == "" || len(offset) == 6 && parses("-07:00", offset) && offset[1:3] <= "14" && offset[4:6] <= "59"
		check := func(path string, accepted, want bool, v string) {
			if accepted != want {
				t.Errorf("%s = %q: accepted %v, Go's time package says %v", path, v, accepted, want)
			}
		}
		check("start_time", !at["start_time"], clock, start)
		check("utc_offset", !at["utc_offset"], zone, offset)
		check("duration_hours", !at["duration_hours"], hours >= 4 && hours <= 24, "")
		if startDate != "" {
			check("start_date", !at["start_date"], canonicalDate(startDate), startDate)
		}
		check("not_allowed_dates[0].start", !at["not_allowed_dates[0].start"], canonicalDate(naStart), naStart)
		okEnd := canonicalDate(naEnd)
		for _, e := range errs {
			if e.Path.String() == "not_allowed_dates[0].end" && strings.Contains(e.Rule, "before it starts") {
				if !canonicalDate(naStart) || !okEnd || naEnd >= naStart {
					t.Errorf("said to end before it starts: %q .. %q", naStart, naEnd)
				}
				okEnd = false
			}
		}
		if canonicalDate(naStart) && canonicalDate(naEnd) && naEnd < naStart {
			okEnd = false
		}
		check("not_allowed_dates[0].end", !at["not_allowed_dates[0].end"], okEnd, naEnd)
	})
}

func parses(layout, v string) bool {
	_, err := time.Parse(layout, v)
	return err == nil
}

// canonicalDate tells whether v is a date Go reads as YYYY-MM-DD and writes
// back the same, so that dates compare as strings.
func canonicalDate(v string) bool {
	d, err := time.Parse(time.DateOnly, v)
	return err == nil && d.Format(time.DateOnly) == v
}

// FuzzClusterProperty: whatever a property's name and reported value, the
// lookup never panics nor hangs; a reported value reads as exactly the
// quantity apimachinery's resource.ParseQuantity reads, within the bounds of
// ParseQuantity (enginetest.ReferenceQuantity), and FormatQuantity writes it
// so that it reads back the same; or it fails with the engine's own message; a resource
// property name reads the usage of its capacity type, or fails as
// unreadable exactly when Fleet's scheduler cannot split it.
func FuzzClusterProperty(f *testing.F) {
	for _, s := range [][2]string{{"kubernetes-fleet.io/node-count", "12"}, {"p", "0.5"}, {"p", "500m"}, {"p", "16Gi"}, {"p", "1e3"}, {"p", "twelve"},
		{"p", ""}, {"p", "."}, {"p", "+"}, {"p", "1e1.5"}, {"p", "-0"}, {"p", "0.0000000001"}, {"p", "9223372036854775807Ei"}, {"p", "1E"},
		{ResourcePropertyPrefix + "available-cpu", "3500m"}, {ResourcePropertyPrefix + "total-memory", "64Gi"},
		{ResourcePropertyPrefix + "total-ephemeral-storage", "1"}, {ResourcePropertyPrefix + "used-cpu", "1"}, {ResourcePropertyPrefix + "-cpu", "1"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		c := Cluster{Name: "c", Properties: map[string]string{name: value}}
		ref, rok := enginetest.ReferenceQuantity(value)
		capacity, res, serr := SplitResourceProperty(name)
		if serr == nil {
			c.Usage = ResourceUsage{Capacity: map[string]resource.Quantity{}, Allocatable: map[string]resource.Quantity{}, Available: map[string]resource.Quantity{}}
			if rok {
				c.Usage.ByCapacity(capacity)[res] = ref
			}
		}
		q, found, err := c.Property(name)
		if found != c.HasProperty(name) {
			t.Fatalf("%q: HasProperty disagrees with Property", name)
		}
		if IsResourceProperty(name) {
			segs := strings.Split(strings.TrimPrefix(name, ResourcePropertyPrefix), "-")
			readable := len(segs) == 2 && IsCapacityType(segs[0]) && segs[1] != ""
			switch {
			case readable != (err == nil):
				t.Fatalf("%q: readable %v, error %v", name, readable, err)
			case err != nil && !errors.Is(err, ErrUnreadableResourceProperty):
				t.Fatalf("%q: %v is not ErrUnreadableResourceProperty", name, err)
			case err == nil && (found != rok || found && q.Cmp(ref) != 0):
				t.Fatalf("%q: read %v (found %v), usage holds %v (%v)", name, q.String(), found, ref.String(), rok)
			}
			return
		}
		if !found || (err == nil) != rok {
			t.Fatalf("property %q = %q: found %v, error %v; the reference reads it: %v", name, value, found, err, rok)
		}
		if err != nil {
			if frag, bad := enginetest.LibraryErrorText(err.Error(), name, value); bad {
				t.Fatalf("the error passes on apimachinery's (%q): %v", frag, err)
			}
			return
		}
		if q.Cmp(ref) != 0 {
			t.Fatalf("%q reads as %s, ParseQuantity as %s", value, q.String(), ref.String())
		}
		if again, err := resource.ParseQuantity(FormatQuantity(q)); err != nil || again.Cmp(q) != 0 {
			t.Fatalf("%q: its canonical form %q reads back as %v (%v)", value, FormatQuantity(q), again.String(), err)
		}
	})
}
