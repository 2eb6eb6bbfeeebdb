package nodepool

import (
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
)

// warningCases are budgets of validPool with the warnings they get.
var warningCases = []struct {
	name    string
	budgets []Budget
	want    []enginetest.WantWarning
}{
	{"budgets unset: default 10%, nothing to say", nil, nil},
	{"seed: business hours", seedBusinessHours, nil},
	{"seed: daily window", seedDailyWindow, nil},
	{"explicitly empty budgets are unlimited", []Budget{}, []enginetest.WantWarning{
		{ID: WarnEmptyBudgets, Path: "disruption.budgets", Contains: "every node of the pool at once"},
	}},
	{"unscheduled 0 blocks forever", []Budget{budget("0")}, []enginetest.WantWarning{
		{ID: WarnBlocksForever, Path: "disruption.budgets[0].nodes", Contains: "at all times"},
	}},
	{"unscheduled 0% blocks forever", []Budget{budget("10%"), budget("0%")}, []enginetest.WantWarning{
		{ID: WarnBlocksForever, Path: "disruption.budgets[1].nodes", Contains: "Empty, Drifted and Underutilized"},
	}},
	{"never-firing schedule is always active", []Budget{budget("10%"), scheduled("0", "0 0 30 2 *", "1h")}, []enginetest.WantWarning{
		{ID: WarnNeverFires, Path: "disruption.budgets[1].schedule", Contains: "always active"},
	}},
	{"duration covering the period", []Budget{budget("10%"), scheduled("1", "@hourly", "1h")}, []enginetest.WantWarning{
		{ID: WarnDurationCoversPeriod, Path: "disruption.budgets[1].duration", Contains: "which is 1h,"},
	}},
	{"weekday duration covering the weekend gap", []Budget{budget("10%"), scheduled("0", "0 9 * * 1-5", "72h")}, []enginetest.WantWarning{
		{ID: WarnDurationCoversPeriod, Path: "disruption.budgets[1].duration", Contains: "which is 3d (72h),"},
	}},
	{"weekday duration just short of the weekend gap", []Budget{budget("10%"), scheduled("0", "0 9 * * 1-5", "71h")}, nil},
	{"duration 0 is never active", []Budget{budget("10%"), scheduled("0", "@daily", "0m")}, []enginetest.WantWarning{
		{ID: WarnNeverActive, Path: "disruption.budgets[1].duration", Contains: "never active"},
	}},
	{"reasons = [] applies to nothing", []Budget{budget("10%"), withReasons(budget("0"))}, []enginetest.WantWarning{
		{ID: WarnReasonsEmpty, Path: "disruption.budgets[1].reasons", Contains: "applies to no disruption reason"},
	}},
	{"seed: weekend only allows 0 at all times", seedWeekendOnly, []enginetest.WantWarning{
		{ID: WarnBlocksForever, Path: "disruption.budgets[1].nodes", Contains: "at all times"},
		{ID: WarnCannotRaise, Path: "disruption.budgets[0]", Contains: "Actually allowed for Empty, Drifted and Underutilized: 0 at all times (budgets[1])"},
	}},
	{"scheduled budget looser than an unscheduled one", []Budget{budget("5"), scheduled("10", "@daily", "1h")}, []enginetest.WantWarning{
		{ID: WarnCannotRaise, Path: "disruption.budgets[1]", Contains: "at most 5 node(s) at all times (budgets[0])"},
	}},
	{"scheduled budget stricter than an unscheduled one", []Budget{budget("5"), scheduled("2", "@daily", "1h")}, nil},
	{"looser only for the reasons they share", []Budget{withReasons(budget("0"), "Drifted"), scheduled("50%", "0 0 * * 6", "48h")}, []enginetest.WantWarning{
		{ID: WarnBlocksForever, Path: "disruption.budgets[0].nodes", Contains: "(Drifted)"},
		{ID: WarnCannotRaise, Path: "disruption.budgets[1]", Contains: "Actually allowed for Drifted: 0 at all times"},
		{ID: WarnUnlimitedOutsideWindows, Path: "disruption.budgets", Contains: "for Empty and Underutilized"},
	}},
	{"seed: gradual is unlimited outside 02:00-08:00", seedGradual, []enginetest.WantWarning{
		{ID: WarnUnlimitedOutsideWindows, Path: "disruption.budgets", Contains: "unlimited outside 02:00–08:00 UTC"},
	}},
	{"window across midnight", []Budget{scheduled("2", "0 22 * * *", "4h")}, []enginetest.WantWarning{
		{ID: WarnUnlimitedOutsideWindows, Path: "disruption.budgets", Contains: "unlimited outside 22:00–02:00 UTC (every day)"},
	}},
	{"two daily windows", []Budget{scheduled("2", "0 1 * * *", "1h"), scheduled("2", "30 12 * * *", "30m")}, []enginetest.WantWarning{
		{ID: WarnUnlimitedOutsideWindows, Path: "disruption.budgets", Contains: "unlimited outside 01:00–02:00 and 12:30–13:00 UTC"},
	}},
	{"weekly windows", []Budget{scheduled("0", "0 9 * * 1-5", "8h")}, []enginetest.WantWarning{
		{ID: WarnUnlimitedOutsideWindows, Path: "disruption.budgets", Contains: "unlimited outside Mon 09:00–17:00, Tue 09:00–17:00, Wed 09:00–17:00, Thu 09:00–17:00 and Fri 09:00–17:00 UTC (every week)"},
	}},
	{"weekend window across the week boundary", []Budget{scheduled("1", "0 0 * * 6", "48h")}, []enginetest.WantWarning{
		{ID: WarnUnlimitedOutsideWindows, Path: "disruption.budgets", Contains: "unlimited outside Sat 00:00–Mon 00:00 UTC (every week)"},
	}},
	{"monthly windows", []Budget{scheduled("1", "0 0 1 * *", "24h")}, []enginetest.WantWarning{
		{ID: WarnUnlimitedOutsideWindows, Path: "disruption.budgets", Contains: "outside the windows of budgets[0]"},
	}},
	{"windows that together cover every day", []Budget{scheduled("1", "0 0 * * *", "12h"), scheduled("1", "0 12 * * *", "12h")}, nil},
	{"reason without any budget", []Budget{withReasons(budget("0"), "Drifted")}, []enginetest.WantWarning{
		{ID: WarnBlocksForever, Path: "disruption.budgets[0].nodes", Contains: "(Drifted)"},
		{ID: WarnReasonUnbudgeted, Path: "disruption.budgets", Contains: "Empty and Underutilized"},
	}},
}

func TestWarnings(t *testing.T) {
	for _, tt := range warningCases {
		t.Run(tt.name, func(t *testing.T) {
			np := validPool()
			np.Disruption.Budgets = tt.budgets
			if errs := Validate(np); len(errs) > 0 {
				t.Fatalf("test pool must be valid: %v", errs)
			}
			got := Warnings(np)
			enginetest.CheckWarnings(t, got, tt.want)
			for _, g := range got {
				if pathFromSteps(g.Path.Steps()).String() != g.Path.String() {
					t.Errorf("steps %v do not render as %q", g.Path.Steps(), g.Path)
				}
			}
		})
	}
}

func TestWarningsIgnoreInvalidBudgets(t *testing.T) {
	np := validPool()
	np.Disruption.Budgets = []Budget{budget("10%"), scheduled("0", "0 0 * * 7", "1h"), budget("2147483648")}
	if ws := Warnings(np); len(ws) != 0 {
		t.Errorf("invalid budgets should be left to Validate:\n%s", enginetest.WarningLines(ws))
	}
}
