package nodepool

import (
	"strings"
	"testing"
)

func TestWarnings(t *testing.T) {
	type want struct {
		id       WarningID
		path     string
		contains string
	}
	tests := []struct {
		name    string
		budgets []Budget
		want    []want
	}{
		{"budgets unset: default 10%, nothing to say", nil, nil},
		{"seed: business hours", seedBusinessHours, nil},
		{"seed: daily window", seedDailyWindow, nil},
		{"explicitly empty budgets are unlimited", []Budget{}, []want{
			{WarnEmptyBudgets, "disruption.budgets", "every node of the pool at once"},
		}},
		{"unscheduled 0 blocks forever", []Budget{budget("0")}, []want{
			{WarnBlocksForever, "disruption.budgets[0].nodes", "at all times"},
		}},
		{"unscheduled 0% blocks forever", []Budget{budget("10%"), budget("0%")}, []want{
			{WarnBlocksForever, "disruption.budgets[1].nodes", "Empty, Drifted and Underutilized"},
		}},
		{"never-firing schedule is always active", []Budget{budget("10%"), scheduled("0", "0 0 30 2 *", "1h")}, []want{
			{WarnNeverFires, "disruption.budgets[1].schedule", "always active"},
		}},
		{"duration covering the period", []Budget{budget("10%"), scheduled("1", "@hourly", "1h")}, []want{
			{WarnDurationCoversPeriod, "disruption.budgets[1].duration", "which is 1h,"},
		}},
		{"weekday duration covering the weekend gap", []Budget{budget("10%"), scheduled("0", "0 9 * * 1-5", "72h")}, []want{
			{WarnDurationCoversPeriod, "disruption.budgets[1].duration", "which is 3d (72h),"},
		}},
		{"weekday duration just short of the weekend gap", []Budget{budget("10%"), scheduled("0", "0 9 * * 1-5", "71h")}, nil},
		{"duration 0 is never active", []Budget{budget("10%"), scheduled("0", "@daily", "0m")}, []want{
			{WarnNeverActive, "disruption.budgets[1].duration", "never active"},
		}},
		{"reasons = [] applies to nothing", []Budget{budget("10%"), withReasons(budget("0"))}, []want{
			{WarnReasonsEmpty, "disruption.budgets[1].reasons", "applies to no disruption reason"},
		}},
		{"seed: weekend only allows 0 at all times", seedWeekendOnly, []want{
			{WarnBlocksForever, "disruption.budgets[1].nodes", "at all times"},
			{WarnCannotRaise, "disruption.budgets[0]", "Actually allowed for Empty, Drifted and Underutilized: 0 at all times (budgets[1])"},
		}},
		{"scheduled budget looser than an unscheduled one", []Budget{budget("5"), scheduled("10", "@daily", "1h")}, []want{
			{WarnCannotRaise, "disruption.budgets[1]", "at most 5 node(s) at all times (budgets[0])"},
		}},
		{"scheduled budget stricter than an unscheduled one", []Budget{budget("5"), scheduled("2", "@daily", "1h")}, nil},
		{"looser only for the reasons they share", []Budget{withReasons(budget("0"), "Drifted"), scheduled("50%", "0 0 * * 6", "48h")}, []want{
			{WarnBlocksForever, "disruption.budgets[0].nodes", "(Drifted)"},
			{WarnCannotRaise, "disruption.budgets[1]", "Actually allowed for Drifted: 0 at all times"},
			{WarnUnlimitedOutsideWindows, "disruption.budgets", "for Empty and Underutilized"},
		}},
		{"seed: gradual is unlimited outside 02:00-08:00", seedGradual, []want{
			{WarnUnlimitedOutsideWindows, "disruption.budgets", "unlimited outside 02:00–08:00 UTC"},
		}},
		{"window across midnight", []Budget{scheduled("2", "0 22 * * *", "4h")}, []want{
			{WarnUnlimitedOutsideWindows, "disruption.budgets", "unlimited outside 22:00–02:00 UTC (every day)"},
		}},
		{"two daily windows", []Budget{scheduled("2", "0 1 * * *", "1h"), scheduled("2", "30 12 * * *", "30m")}, []want{
			{WarnUnlimitedOutsideWindows, "disruption.budgets", "unlimited outside 01:00–02:00 and 12:30–13:00 UTC"},
		}},
		{"weekly windows", []Budget{scheduled("0", "0 9 * * 1-5", "8h")}, []want{
			{WarnUnlimitedOutsideWindows, "disruption.budgets", "unlimited outside Mon 09:00–17:00, Tue 09:00–17:00, Wed 09:00–17:00, Thu 09:00–17:00 and Fri 09:00–17:00 UTC (every week)"},
		}},
		{"weekend window across the week boundary", []Budget{scheduled("1", "0 0 * * 6", "48h")}, []want{
			{WarnUnlimitedOutsideWindows, "disruption.budgets", "unlimited outside Sat 00:00–Mon 00:00 UTC (every week)"},
		}},
		{"monthly windows", []Budget{scheduled("1", "0 0 1 * *", "24h")}, []want{
			{WarnUnlimitedOutsideWindows, "disruption.budgets", "outside the windows of budgets[0]"},
		}},
		{"windows that together cover every day", []Budget{scheduled("1", "0 0 * * *", "12h"), scheduled("1", "0 12 * * *", "12h")}, nil},
		{"reason without any budget", []Budget{withReasons(budget("0"), "Drifted")}, []want{
			{WarnBlocksForever, "disruption.budgets[0].nodes", "(Drifted)"},
			{WarnReasonUnbudgeted, "disruption.budgets", "Empty and Underutilized"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			np := validPool()
			np.Disruption.Budgets = tt.budgets
			if errs := Validate(np); len(errs) > 0 {
				t.Fatalf("test pool must be valid: %v", errs)
			}
			got := Warnings(np)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d warnings, want %d:\n%s", len(got), len(tt.want), warningLines(got))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.ID != w.id || g.Path.String() != w.path || !strings.Contains(g.Message, w.contains) {
					t.Errorf("warning %d = %s %q: %s\nwant %s %q containing %q", i, g.ID, g.Path, g.Message, w.id, w.path, w.contains)
				}
				if pathFromSteps(g.Path.Steps()).String() != w.path {
					t.Errorf("steps %v do not render as %q", g.Path.Steps(), w.path)
				}
				if want := w.path + ": " + g.Message; g.String() != want {
					t.Errorf("String() = %q, want %q", g.String(), want)
				}
			}
		})
	}
}

func warningLines(ws []Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString("  " + string(w.ID) + " " + w.String() + "\n")
	}
	return b.String()
}

func TestWarningsIgnoreInvalidBudgets(t *testing.T) {
	np := validPool()
	np.Disruption.Budgets = []Budget{budget("10%"), scheduled("0", "0 0 * * 7", "1h"), budget("2147483648")}
	if ws := Warnings(np); len(ws) != 0 {
		t.Errorf("invalid budgets should be left to Validate:\n%s", warningLines(ws))
	}
}
