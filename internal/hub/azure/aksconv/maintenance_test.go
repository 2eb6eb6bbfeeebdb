package aksconv

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

const testClusterID = "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg-test/providers/Microsoft.ContainerService/managedClusters/aks-test"

// TestMaintenanceWindowShapes converts a window of each schedule kind (and
// one with a start date and not-allowed dates) to ARM, checks the JSON the
// wire carries, and reads it back.
func TestMaintenanceWindowShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    fleet.MaintenanceWindow
		json string
	}{{
		name: "daily",
		w:    fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule{Type: fleet.ScheduleDaily, IntervalDays: 3}, StartTime: "22:00", DurationHours: 4},
		json: `{"durationHours":4,"schedule":{"daily":{"intervalDays":3}},"startTime":"22:00"}`,
	}, {
		name: "weekly",
		w: fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule{Type: fleet.ScheduleWeekly, IntervalWeeks: 2, DayOfWeek: "Friday"},
			StartTime: "23:30", UTCOffset: "+02:00", DurationHours: 8},
		json: `{"durationHours":8,"schedule":{"weekly":{"dayOfWeek":"Friday","intervalWeeks":2}},"startTime":"23:30","utcOffset":"+02:00"}`,
	}, {
		name: "absoluteMonthly",
		w: fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule{Type: fleet.ScheduleAbsoluteMonthly, IntervalMonths: 3, DayOfMonth: 31},
			StartTime: "00:00", UTCOffset: "-07:00", DurationHours: 24},
		json: `{"durationHours":24,"schedule":{"absoluteMonthly":{"dayOfMonth":31,"intervalMonths":3}},"startTime":"00:00","utcOffset":"-07:00"}`,
	}, {
		name: "relativeMonthly",
		w: fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule{Type: fleet.ScheduleRelativeMonthly, IntervalMonths: 6, WeekIndex: "Last", DayOfWeek: "Sunday"},
			StartTime: "03:15", DurationHours: 6},
		json: `{"durationHours":6,"schedule":{"relativeMonthly":{"dayOfWeek":"Sunday","intervalMonths":6,"weekIndex":"Last"}},"startTime":"03:15"}`,
	}, {
		name: "startDate and notAllowedDates",
		w: fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule{Type: fleet.ScheduleWeekly, IntervalWeeks: 1, DayOfWeek: "Monday"},
			StartTime: "02:00", UTCOffset: "+05:30", DurationHours: 4, StartDate: "2026-12-01",
			NotAllowed: []fleet.DateSpan{{Start: "2026-12-23", End: "2027-01-02"}, {Start: "2027-02-28", End: "2027-02-28"}}},
		json: `{"durationHours":4,"notAllowedDates":[{"end":"2027-01-02","start":"2026-12-23"},{"end":"2027-02-28","start":"2027-02-28"}],` +
			`"schedule":{"weekly":{"dayOfWeek":"Monday","intervalWeeks":1}},"startDate":"2026-12-01","startTime":"02:00","utcOffset":"+05:30"}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if errs := tc.w.Validate(); len(errs) > 0 {
				t.Fatalf("test window is invalid: %v", errs)
			}
			b, err := json.Marshal(MaintenanceWindow(&tc.w))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.json {
				t.Errorf("wire:\n got %s\nwant %s", b, tc.json)
			}
			cfg, ok := MaintenanceConfiguration(&fleet.Cluster{ResourceID: testClusterID, MaintenanceWindow: &tc.w})
			if !ok {
				t.Fatal("no maintenance configuration for a cluster with a window")
			}
			cfg = wire(t, cfg)
			if deref(cfg.Name) != "aksManagedAutoUpgradeSchedule" || deref(cfg.ID) != testClusterID+"/maintenanceConfigurations/aksManagedAutoUpgradeSchedule" ||
				deref(cfg.Type) != "Microsoft.ContainerService/managedClusters/maintenanceConfigurations" {
				t.Errorf("configuration id %q, name %q, type %q", deref(cfg.ID), deref(cfg.Name), deref(cfg.Type))
			}
			got, err := WindowFromARM(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tc.w) {
				t.Errorf("round trip:\n got %+v\nwant %+v", *got, tc.w)
			}
		})
	}
	if _, ok := MaintenanceConfiguration(&fleet.Cluster{ResourceID: testClusterID}); ok {
		t.Error("a cluster without a window has a maintenance configuration")
	}
}

// TestDatesAsTheSDKWritesThem: the client reads an SDK date as the SDK
// would write it (year, month and day in the time's own location), whatever
// location the time is in.
func TestDatesAsTheSDKWritesThem(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 12, 1, 0, 0, 0, 0, time.FixedZone("+14", 14*3600)),
		time.Date(2026, 12, 1, 23, 59, 0, 0, time.FixedZone("-12", -12*3600)),
		time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC),
	} {
		mw := &armcontainerservice.MaintenanceWindow{
			Schedule:  &armcontainerservice.Schedule{Daily: &armcontainerservice.DailySchedule{IntervalDays: ptr(int32(1))}},
			StartTime: ptr("00:00"), DurationHours: ptr(int32(4)), StartDate: &at,
			NotAllowedDates: []*armcontainerservice.DateSpan{{Start: &at, End: &at}},
		}
		b, err := json.Marshal(mw)
		if err != nil {
			t.Fatal(err)
		}
		var onWire struct {
			StartDate       string           `json:"startDate"`
			NotAllowedDates []fleet.DateSpan `json:"notAllowedDates"`
		}
		if err := json.Unmarshal(b, &onWire); err != nil {
			t.Fatal(err)
		}
		w, err := windowFromARM(mw)
		if err != nil {
			t.Fatal(err)
		}
		if w.StartDate != onWire.StartDate || !reflect.DeepEqual(w.NotAllowed, onWire.NotAllowedDates) {
			t.Errorf("%s: read %q %v, the SDK writes %q %v", at, w.StartDate, w.NotAllowed, onWire.StartDate, onWire.NotAllowedDates)
		}
	}
}

// TestEnumCase: ARM's enum values are read whatever their case and come
// back in the fleet model's spelling.
func TestEnumCase(t *testing.T) {
	for _, tc := range []struct {
		json string
		want fleet.MaintenanceSchedule
	}{
		{`{"weekly":{"intervalWeeks":1,"dayOfWeek":"monday"}}`, fleet.MaintenanceSchedule{Type: fleet.ScheduleWeekly, IntervalWeeks: 1, DayOfWeek: "Monday"}},
		{`{"relativeMonthly":{"intervalMonths":2,"weekIndex":"LAST","dayOfWeek":"saturday"}}`,
			fleet.MaintenanceSchedule{Type: fleet.ScheduleRelativeMonthly, IntervalMonths: 2, WeekIndex: "Last", DayOfWeek: "Saturday"}},
	} {
		var s armcontainerservice.Schedule
		if err := json.Unmarshal([]byte(tc.json), &s); err != nil {
			t.Fatal(err)
		}
		got, err := scheduleFromARM(&s)
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v", tc.json, got, err, tc.want)
		}
	}
	// And the SDK constants are fleet's spellings, so the emulator writes them as fleet does.
	for _, d := range fleet.Weekdays {
		if _, ok := canonical(d, armcontainerservice.PossibleWeekDayValues()); !ok {
			t.Errorf("weekday %s has no SDK constant", d)
		}
		if s := schedule(fleet.MaintenanceSchedule{Type: fleet.ScheduleWeekly, DayOfWeek: d}); string(*s.Weekly.DayOfWeek) != d {
			t.Errorf("weekday %s written as %s", d, *s.Weekly.DayOfWeek)
		}
	}
	for _, wi := range fleet.WeekIndexes {
		s := schedule(fleet.MaintenanceSchedule{Type: fleet.ScheduleRelativeMonthly, WeekIndex: wi, DayOfWeek: "Monday"})
		if _, ok := canonical(wi, armcontainerservice.PossibleTypeValues()); !ok || string(*s.RelativeMonthly.WeekIndex) != wi {
			t.Errorf("week index %s written as %s", wi, *s.RelativeMonthly.WeekIndex)
		}
	}
}

// TestInvalidFleetWindow: the emulator passes a window that fails Validate
// on in a form the client rejects, rather than guess.
func TestInvalidFleetWindow(t *testing.T) {
	base := fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule{Type: fleet.ScheduleDaily, IntervalDays: 1}, StartTime: "01:00", DurationHours: 4}
	for _, tc := range []struct {
		name    string
		mutate  func(*fleet.MaintenanceWindow)
		wantErr string
	}{
		{"unknown schedule type", func(w *fleet.MaintenanceWindow) { w.Schedule.Type = "Hourly" }, "schedule names no recurrence"},
		{"unknown weekday", func(w *fleet.MaintenanceWindow) {
			w.Schedule = fleet.MaintenanceSchedule{Type: fleet.ScheduleWeekly, IntervalWeeks: 1, DayOfWeek: "Funday"}
		}, `"Funday" is not a day of the week`},
		{"not-allowed date that is not a date", func(w *fleet.MaintenanceWindow) {
			w.NotAllowed = []fleet.DateSpan{{Start: "2026-12-23", End: "2027-13-01"}}
		}, "notAllowedDates[0] lacks its start or end date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := base
			tc.mutate(&w)
			cfg, _ := MaintenanceConfiguration(&fleet.Cluster{ResourceID: testClusterID, MaintenanceWindow: &w})
			cfg = wire(t, cfg)
			_, err := WindowFromARM(&cfg)
			if err == nil || !contains(err.Error(), tc.wantErr) {
				t.Errorf("got %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
	// A start date that is not a date is left out (ARM's default: the creation day).
	w := base
	w.StartDate = "2026-02-30"
	if mw := MaintenanceWindow(&w); mw.StartDate != nil {
		t.Errorf("start date %q written as %v", w.StartDate, mw.StartDate)
	}
}
