package fleet

import (
	"errors"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func healthy() AgentStatus {
	return AgentStatus{Present: true, Joined: true, Healthy: ConditionTrue, HealthSince: now.Add(-time.Hour), LastHeartbeat: now.Add(-30 * time.Second)}
}

func TestCheckEligibility(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(a *AgentStatus)
		reason string
	}{
		{"healthy", func(a *AgentStatus) {}, ""},
		{"leaving wins over everything", func(a *AgentStatus) { a.Leaving = true; a.Present = false }, "not eligible: cluster is leaving the fleet"},
		{"no agent status", func(a *AgentStatus) { *a = AgentStatus{} }, "not eligible: no member agent status"},
		{"heartbeat exactly 5m is fresh", func(a *AgentStatus) { a.LastHeartbeat = now.Add(-5 * time.Minute) }, ""},
		{"stale heartbeat", func(a *AgentStatus) { a.LastHeartbeat = now.Add(-5*time.Minute - time.Second) }, "not eligible: heartbeat older than 5m"},
		{"not joined", func(a *AgentStatus) { a.Joined = false }, "not eligible: member agent has not joined"},
		// Fleet (clustereligibilitychecker.IsEligible): only an absent Healthy
		// condition is ineligible at once; any status other than True, Unknown
		// as well as False, gets five minutes from its last transition.
		{"health not reported", func(a *AgentStatus) { a.Healthy = "" }, "not eligible: no health condition reported"},
		{"health unknown blip tolerated", func(a *AgentStatus) { a.Healthy = ConditionUnknown; a.HealthSince = now.Add(-4 * time.Minute) }, ""},
		{"health unknown exactly 5m tolerated", func(a *AgentStatus) { a.Healthy = ConditionUnknown; a.HealthSince = now.Add(-5 * time.Minute) }, ""},
		{"health unknown too long", func(a *AgentStatus) { a.Healthy = ConditionUnknown; a.HealthSince = now.Add(-6 * time.Minute) }, "not eligible: health unknown for more than 5m"},
		{"unhealthy blip tolerated", func(a *AgentStatus) { a.Healthy = ConditionFalse; a.HealthSince = now.Add(-4 * time.Minute) }, ""},
		{"unhealthy too long", func(a *AgentStatus) { a.Healthy = ConditionFalse; a.HealthSince = now.Add(-6 * time.Minute) }, "not eligible: unhealthy for more than 5m"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := Cluster{Name: "a", Agent: healthy()}
			c.mutate(&cl.Agent)
			got := CheckEligibility(&cl, now)
			if got.Eligible != (c.reason == "") || got.Reason != c.reason {
				t.Fatalf("got %+v, want reason %q", got, c.reason)
			}
		})
	}
}

func TestProperty(t *testing.T) {
	cl := Cluster{
		Name:       "a",
		Properties: map[string]string{PropertyNodeCount: "5", "version": "1.30.2", "mem": "1Gi"},
		Usage: ResourceUsage{
			Capacity:  map[string]resource.Quantity{ResourceCPU: resource.MustParse("16")},
			Available: map[string]resource.Quantity{ResourceCPU: resource.MustParse("3500m")},
		},
	}
	cases := []struct {
		name    string
		want    string
		found   bool
		wantErr bool
	}{
		{PropertyNodeCount, "5", true, false},
		{"resources.kubernetes-fleet.io/total-cpu", "16", true, false},
		{"resources.kubernetes-fleet.io/available-cpu", "3500m", true, false},
		{"resources.kubernetes-fleet.io/allocatable-cpu", "", false, false},
		{"resources.kubernetes-fleet.io/available-memory", "", false, false},
		{"mem", "1073741824", true, false},
		{"missing", "", false, false},
		{"version", "", true, true},
		{"resources.kubernetes-fleet.io/total-ephemeral-storage", "", false, true},
	}
	for _, c := range cases {
		q, found, err := cl.Property(c.name)
		if found != c.found || (err != nil) != c.wantErr {
			t.Errorf("%s: found=%v err=%v", c.name, found, err)
			continue
		}
		if found && !c.wantErr {
			w := resource.MustParse(c.want)
			if q.Cmp(w) != 0 {
				t.Errorf("%s: got %s want %s", c.name, q.String(), c.want)
			}
		}
	}
	if !cl.HasProperty("version") || cl.HasProperty("missing") {
		t.Error("HasProperty")
	}
}

// Fleet's scheduler (clusteraffinity retrieveResourceUsageFrom, in the
// kubefleet release whose CRDs are in internal/emulator/kubetest/crds) splits the part after
// the prefix at every '-' and needs exactly <capacity>-<resource>; anything
// else is an error for the whole scheduling cycle.
func TestSplitResourceProperty(t *testing.T) {
	for name, want := range map[string][2]string{
		"resources.kubernetes-fleet.io/total-cpu":               {"total", "cpu"},
		"resources.kubernetes-fleet.io/allocatable-memory":      {"allocatable", "memory"},
		"resources.kubernetes-fleet.io/available-nvidia.com":    {"available", "nvidia.com"},
		"resources.kubernetes-fleet.io/total-CPU":               {"total", "CPU"}, // readable: matches nothing
		"resources.kubernetes-fleet.io/total-ephemeral-storage": {},
		"resources.kubernetes-fleet.io/free-cpu":                {},
		"resources.kubernetes-fleet.io/available":               {},
		"resources.kubernetes-fleet.io/available-":              {},
		"kubernetes-fleet.io/node-count":                        {},
	} {
		capacity, res, err := SplitResourceProperty(name)
		if (err == nil) != (want != [2]string{}) || capacity != want[0] || res != want[1] {
			t.Errorf("%s: got %q %q %v, want %q", name, capacity, res, err, want)
		}
		if err != nil && !errors.Is(err, ErrUnreadableResourceProperty) {
			t.Errorf("%s: %v is not ErrUnreadableResourceProperty", name, err)
		}
	}
}

func TestMaintenanceWindowValidate(t *testing.T) {
	good := MaintenanceWindow{Schedule: MaintenanceSchedule{Type: ScheduleWeekly, IntervalWeeks: 1, DayOfWeek: "Sunday"}, StartTime: "03:00", UTCOffset: "+05:30", DurationHours: 4}
	if errs := good.Validate(); len(errs) != 0 {
		t.Fatalf("valid window rejected: %v", errs)
	}
	cases := []struct {
		name   string
		mutate func(w *MaintenanceWindow)
		path   string
	}{
		{"short", func(w *MaintenanceWindow) { w.DurationHours = 3 }, "duration_hours"},
		{"bad time", func(w *MaintenanceWindow) { w.StartTime = "25:00" }, "start_time"},
		{"bad offset", func(w *MaintenanceWindow) { w.UTCOffset = "5:30" }, "utc_offset"},
		{"bad day", func(w *MaintenanceWindow) { w.Schedule.DayOfWeek = "Funday" }, "schedule.weekly.day_of_week"},
		{"no type", func(w *MaintenanceWindow) { w.Schedule.Type = "" }, "schedule"},
		{"daily interval", func(w *MaintenanceWindow) { w.Schedule = MaintenanceSchedule{Type: ScheduleDaily, IntervalDays: 8} }, "schedule.daily.interval_days"},
		{"relative week index", func(w *MaintenanceWindow) {
			w.Schedule = MaintenanceSchedule{Type: ScheduleRelativeMonthly, IntervalMonths: 1, DayOfWeek: "Monday", WeekIndex: "Fifth"}
		}, "schedule.relative_monthly.week_index"},
		{"absolute day", func(w *MaintenanceWindow) {
			w.Schedule = MaintenanceSchedule{Type: ScheduleAbsoluteMonthly, IntervalMonths: 1, DayOfMonth: 32}
		}, "schedule.absolute_monthly.day_of_month"},
		{"bad date", func(w *MaintenanceWindow) { w.NotAllowed = []DateSpan{{Start: "2026-12-24", End: "2026-13-01"}} }, "not_allowed_dates[0].end"},
	}
	for _, c := range cases {
		w := good
		c.mutate(&w)
		errs := w.Validate()
		if len(errs) != 1 || errs[0].Path.String() != c.path {
			t.Errorf("%s: got %v, want one error at %s", c.name, errs, c.path)
		}
	}
}

func TestFleetLookup(t *testing.T) {
	f := Fleet{Clusters: []Cluster{{Name: "c"}, {Name: "a"}, {Name: "b"}}}
	f.Sort()
	if c, ok := f.Cluster("b"); !ok || c.Name != "b" {
		t.Fatal("lookup b")
	}
	if _, ok := f.Cluster("z"); ok {
		t.Fatal("found z")
	}
}
