package nodepool

import (
	"reflect"
	"testing"
	"time"

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

// poolWarningCases change validPool outside the budgets, with the warnings
// they get.
var poolWarningCases = []struct {
	name   string
	mutate func(*NodePool)
	want   []enginetest.WantWarning
}{
	// Issue 9 item 8. Karpenter's validateWellKnownValues
	// (sigs.k8s.io/karpenter pkg/apis/v1/nodeclaim_validation.go) admits an
	// In requirement with at least one known value and only logs the
	// unknown ones ("proceeding with valid values"): they never match.
	{"mixed known and unknown capacity types", func(np *NodePool) { np.Template.Requirements[2].Values = []string{"on-demand", "reserved", "spot"} },
		[]enginetest.WantWarning{{ID: WarnUnknownValues, Path: "template.requirements[2].values",
			Contains: `["reserved"] can never match: karpenter.sh/capacity-type only takes on-demand, spot. Karpenter admits the requirement, logs the unknown values and uses ["on-demand" "spot"] only`}}},
	{"mixed values with enough known ones for min_values", func(np *NodePool) {
		np.Template.Requirements = append(np.Template.Requirements, Requirement{Key: "kubernetes.azure.com/priority", Operator: OperatorIn,
			Values: []string{"regular", "low", "spot"}, MinValues: ip(2)})
	}, []enginetest.WantWarning{{ID: WarnUnknownValues, Path: "template.requirements[3].values", Contains: `["low"] can never match`}}},
	// NotIn is not checked by Karpenter: nothing to say.
	{"NotIn with an unknown value", func(np *NodePool) {
		np.Template.Requirements[2] = Requirement{Key: LabelCapacityType, Operator: OperatorNotIn, Values: []string{"reserved"}}
	}, nil},
	// Issue 9 item 7. Balanced is in both CRDs' enum; Karpenter's
	// EvaluateBalancedMove (pkg/controllers/disruption/balanced.go) approves
	// a consolidation move only when ScoreMove(savings, disruption cost,
	// k = BalancedK = 2) passes; budgets are evaluated as for any policy.
	{"Balanced", func(np *NodePool) { np.Disruption.ConsolidationPolicy = new(ConsolidationPolicyBalanced) },
		[]enginetest.WantWarning{{ID: WarnBalanced, Path: "disruption.consolidation_policy", Contains: "only when the cost it saves outweighs the disruption"}}},
	{"omitted disruption block: nothing to say", func(np *NodePool) { np.Disruption = nil }, nil},
}

func TestPoolWarnings(t *testing.T) {
	for _, tt := range poolWarningCases {
		t.Run(tt.name, func(t *testing.T) {
			np := validPool()
			tt.mutate(&np)
			if errs := Validate(np); len(errs) > 0 {
				t.Fatalf("test pool must be valid: %v", errs)
			}
			enginetest.CheckWarnings(t, Warnings(np), tt.want)
		})
	}
}

// Issue 9 item 7: for budgets and the timeline, Balanced is like
// WhenEmptyOrUnderutilized — Karpenter's budget evaluation
// (GetAllowedDisruptionsByReason) does not read the policy.
func TestBalancedBudgetsAsWhenEmptyOrUnderutilized(t *testing.T) {
	np := validPool()
	np.Disruption.Budgets = seedBusinessHours
	balanced := np.DeepCopy()
	balanced.Disruption.ConsolidationPolicy = new(ConsolidationPolicyBalanced)
	for _, r := range Reasons {
		at := monday.Add(10 * time.Hour)
		if a, b := np.AllowedDisruptions(r, nil, at), balanced.AllowedDisruptions(r, nil, at); a.String() != b.String() {
			t.Errorf("%s: %s vs Balanced %s", r, a, b)
		}
	}
	tl := Timeline(WithDefaults(np).Disruption.Budgets, 20, 0, monday, week)
	tb := Timeline(WithDefaults(balanced).Disruption.Budgets, 20, 0, monday, week)
	if !reflect.DeepEqual(tl, tb) {
		t.Error("Balanced changes the timeline")
	}
}
