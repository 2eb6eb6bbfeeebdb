package nodepool

import (
	"fmt"
	"math"
	"testing"
)

func TestBudgetIsActive(t *testing.T) {
	tests := []struct {
		name    string
		b       Budget
		now     string
		want    bool
		wantErr bool
	}{
		{"unscheduled is always active", budget("10%"), "2024-01-01 12:00:00", true, false},
		{"window start is inclusive", seedBusinessHours[1], "2024-01-01 09:00:00", true, false},
		{"before the window", seedBusinessHours[1], "2024-01-01 08:59:59", false, false},
		{"last second of the window", seedBusinessHours[1], "2024-01-01 16:59:59", true, false},
		{"window end is exclusive", seedBusinessHours[1], "2024-01-01 17:00:00", false, false},
		{"weekday schedule on Saturday", seedBusinessHours[1], "2024-01-06 10:00:00", false, false},
		{"friday window", seedBusinessHours[1], "2024-01-05 12:00:00", true, false},
		{"@daily 10m at midnight", seedDailyWindow[2], "2024-01-03 00:00:00", true, false},
		{"@daily 10m at 00:09:59", seedDailyWindow[2], "2024-01-03 00:09:59", true, false},
		{"@daily 10m at 00:10", seedDailyWindow[2], "2024-01-03 00:10:00", false, false},
		{"window crossing midnight", scheduled("0", "0 22 * * *", "4h"), "2024-01-03 01:30:00", true, false},
		{"window crossing midnight, after", scheduled("0", "0 22 * * *", "4h"), "2024-01-03 02:00:00", false, false},
		{"never-firing schedule is always active", scheduled("0", "0 0 30 2 *", "1h"), "2024-06-15 12:00:00", true, false},
		{"duration 0m is never active", scheduled("0", "0 0 * * *", "0m"), "2024-01-03 00:00:00", false, false},
		{"duration 0m on a never-firing schedule is active", scheduled("0", "0 0 30 2 *", "0m"), "2024-01-03 00:00:00", true, false},
		{"overlapping windows", scheduled("0", "@hourly", "90m"), "2024-01-03 05:59:00", true, false},
		{"schedule without duration behaves as duration 0", Budget{Nodes: sp("0"), Schedule: sp("@hourly")}, "2024-01-03 05:00:00", false, false},
		{"duration without schedule fails", Budget{Nodes: sp("0"), Duration: sp("1h")}, "2024-01-03 05:00:00", false, true},
		{"day-of-week 7 fails", scheduled("0", "0 0 * * 7", "1h"), "2024-01-07 00:30:00", false, true},
		{"wrapping range fails", scheduled("0", "0 0 * * sat-sun", "1h"), "2024-01-07 00:30:00", false, true},
		{"time zone prefix fails", scheduled("0", "TZ=Europe/Paris 0 0 * * *", "1h"), "2024-01-07 00:30:00", false, true},
		{"bad duration fails", scheduled("0", "@daily", "1d"), "2024-01-07 00:30:00", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.b.IsActive(at(t, tt.now))
			if (err != nil) != tt.wantErr {
				t.Fatalf("IsActive() error = %v, wantErr %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("IsActive() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBudgetNodesValue(t *testing.T) {
	tests := []struct {
		nodes   string
		total   int
		want    int
		wantErr bool
	}{
		{"10%", 10, 1, false},
		{"10%", 11, 2, false}, // rounds up
		{"10%", 0, 0, false},
		{"10%", 1, 1, false},
		{"33%", 3, 1, false},
		{"100%", 7, 7, false},
		{"0%", 50, 0, false},
		{"5", 3, 5, false},
		{"007", 3, 7, false},
		{"4294967297", 3, 1, false}, // Karpenter truncates to int32; Validate rejects it
		{"10.5%", 3, 0, true},
		{"abc", 3, 0, true},
		{"", 3, 0, true},
	}
	for _, tt := range tests {
		got, err := Budget{Nodes: sp(tt.nodes)}.NodesValue(tt.total)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("NodesValue(%q, %d) = %d, %v; want %d, err=%v", tt.nodes, tt.total, got, err, tt.want, tt.wantErr)
		}
	}
	if got, _ := (Budget{}).NodesValue(20); got != 2 {
		t.Errorf("nil nodes = %d, want the 10%% default (2)", got)
	}
}

func TestAllowedDisruptions(t *testing.T) {
	defaults := WithDefaults(NodePool{}).Disruption.Budgets
	tests := []struct {
		name       string
		budgets    []Budget
		reason     Reason
		total      int
		disrupting int
		now        string
		want       int
	}{
		{"default 10% of 10", defaults, Drifted, 10, 0, "2024-01-01 12:00:00", 1},
		{"default 10% of 11 rounds up", defaults, Drifted, 11, 0, "2024-01-01 12:00:00", 2},
		{"default 10% of 0", defaults, Empty, 0, 0, "2024-01-01 12:00:00", 0},
		{"business hours: weekday 10:00 blocked", seedBusinessHours, Underutilized, 20, 0, "2024-01-01 10:00:00", 0},
		{"business hours: window start blocked", seedBusinessHours, Drifted, 20, 0, "2024-01-01 09:00:00", 0},
		{"business hours: 08:59 allowed", seedBusinessHours, Drifted, 20, 0, "2024-01-01 08:59:00", 2},
		{"business hours: window end allowed", seedBusinessHours, Drifted, 20, 0, "2024-01-01 17:00:00", 2},
		{"business hours: saturday allowed", seedBusinessHours, Empty, 20, 0, "2024-01-06 10:00:00", 2},
		{"daily window: 6 vs 5 gives 5", seedDailyWindow, Drifted, 30, 0, "2024-01-02 12:00:00", 5},
		{"daily window: 00:00 blocked", seedDailyWindow, Drifted, 30, 0, "2024-01-02 00:00:00", 0},
		{"daily window: 00:09 blocked", seedDailyWindow, Empty, 30, 0, "2024-01-02 00:09:59", 0},
		{"daily window: 00:10 allowed", seedDailyWindow, Empty, 30, 0, "2024-01-02 00:10:00", 5},
		{"daily window: 20% binds below 25 nodes", seedDailyWindow, Empty, 20, 0, "2024-01-02 12:00:00", 4},
		{"disrupting nodes are subtracted", seedDailyWindow, Drifted, 30, 2, "2024-01-02 12:00:00", 3},
		{"floor at zero", seedDailyWindow, Drifted, 30, 9, "2024-01-02 12:00:00", 0},
		{"weekend only: saturday is 0", seedWeekendOnly, Drifted, 30, 0, "2024-01-06 12:00:00", 0},
		{"weekend only: wednesday is 0", seedWeekendOnly, Drifted, 30, 0, "2024-01-03 12:00:00", 0},
		{"gradual: 03:00 is 1", seedGradual, Drifted, 30, 0, "2024-01-03 03:00:00", 1},
		{"gradual: 05:00 is 3", seedGradual, Drifted, 30, 0, "2024-01-03 05:00:00", 3},
		{"gradual: 10:00 is unlimited", seedGradual, Drifted, 30, 0, "2024-01-03 10:00:00", math.MaxInt32},
		{"gradual: 08:00 is unlimited", seedGradual, Drifted, 30, 0, "2024-01-03 08:00:00", math.MaxInt32},
		{"explicitly empty budgets are unlimited", []Budget{}, Drifted, 30, 0, "2024-01-03 10:00:00", math.MaxInt32},
		{"unlimited minus disrupting", []Budget{}, Drifted, 30, 1, "2024-01-03 10:00:00", math.MaxInt32 - 1},
		{"reasons = [] applies to nothing", []Budget{withReasons(budget("0"))}, Empty, 30, 0, "2024-01-03 10:00:00", math.MaxInt32},
		{"reasons scoped: Drifted blocked", []Budget{budget("10%"), withReasons(budget("0"), "Drifted")}, Drifted, 30, 0, "2024-01-03 10:00:00", 0},
		{"reasons scoped: Empty unaffected", []Budget{budget("10%"), withReasons(budget("0"), "Drifted")}, Empty, 30, 0, "2024-01-03 10:00:00", 3},
		{"fail closed: bad schedule on another reason", []Budget{budget("100%"), scheduled("5", "0 0 * * 7", "1h", "Drifted")}, Empty, 30, 0, "2024-01-03 10:00:00", 0},
		{"fail closed: bad nodes while active", []Budget{budget("100%"), scheduled("abc", "@daily", "1h", "Drifted")}, Empty, 30, 0, "2024-01-03 00:30:00", 0},
		{"bad nodes ignored while inactive (as Karpenter)", []Budget{budget("100%"), scheduled("abc", "@daily", "1h", "Drifted")}, Empty, 30, 0, "2024-01-03 12:00:00", 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AllowedDisruptions(tt.budgets, tt.reason, tt.total, tt.disrupting, at(t, tt.now)); got != tt.want {
				t.Errorf("AllowedDisruptions() = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestEvaluateBudgetsExplains(t *testing.T) {
	a := EvaluateBudgets(seedDailyWindow, Drifted, 30, 0, at(t, "2024-01-02 12:00:00"))
	if a.Limit != 5 || len(a.Binding) != 1 || a.Binding[0] != 1 || a.Unbounded || a.String() != "5 (budget #2)" {
		t.Errorf("noon: %+v %q", a, a.String())
	}
	a = EvaluateBudgets(seedDailyWindow, Drifted, 30, 0, at(t, "2024-01-02 00:05:00"))
	if a.Limit != 0 || len(a.Binding) != 1 || a.Binding[0] != 2 || a.String() != "0 (budget #3)" {
		t.Errorf("midnight: %+v %q", a, a.String())
	}
	a = EvaluateBudgets(seedGradual, Drifted, 30, 0, at(t, "2024-01-02 12:00:00"))
	if !a.Unbounded || a.Limit != Unlimited || a.String() != "unlimited (no active budget)" {
		t.Errorf("gradual noon: %+v", a)
	}
	a = EvaluateBudgets([]Budget{budget("3"), budget("10%")}, Empty, 30, 0, monday)
	if len(a.Binding) != 2 || a.String() != "3 (budgets #1, #2)" {
		t.Errorf("tie: %+v %q", a, a.String())
	}
	a = EvaluateBudgets([]Budget{budget("3"), scheduled("1", "0 0 * * 7", "1h")}, Empty, 30, 0, monday)
	if !a.FailedClosed || a.Allowed != 0 || a.Err == nil {
		t.Errorf("fail closed: %+v", a)
	}
}

func TestNodePoolAllowedDisruptionsAppliesDefaults(t *testing.T) {
	nodes := make([]Node, 25)
	for i := range nodes {
		nodes[i] = Node{Name: "n", Ready: i != 0, MarkedForDeletion: i == 1}
	}
	total, disrupting := CountNodes(nodes)
	if total != 25 || disrupting != 2 {
		t.Fatalf("CountNodes = %d, %d", total, disrupting)
	}
	// Default 10% of 25 = 3, minus 2 disrupting.
	if got := (NodePool{}).AllowedDisruptions(Drifted, nodes, monday); got.Allowed != 1 {
		t.Errorf("Allowed = %d, want 1", got.Allowed)
	}
}

// TestCountNodesAsKarpenter: Karpenter's BuildDisruptionBudgetMapping
// (pkg/controllers/disruption/helpers.go, v1.14.1) counts only the nodes it
// manages that are initialized (StateNode.Initialized: the Node carries
// karpenter.sh/initialized "true") and whose claim's instance is not
// terminating: such a node is in neither the total the percentages apply to
// nor the disrupting nodes subtracted from the allowance.
func TestCountNodesAsKarpenter(t *testing.T) {
	var nodes []Node
	for i := range 10 {
		nodes = append(nodes, Node{Name: fmt.Sprintf("ready-%d", i), Ready: true})
	}
	// Five replacements launched and not initialized yet (not Ready either),
	// one instance terminating (drained, marked for deletion).
	for i := range 5 {
		nodes = append(nodes, Node{Name: fmt.Sprintf("launching-%d", i), Uninitialized: true})
	}
	nodes = append(nodes, Node{Name: "terminating", Ready: true, MarkedForDeletion: true, InstanceTerminating: true})
	total, disrupting := CountNodes(nodes)
	if total != 10 || disrupting != 0 {
		t.Fatalf("CountNodes = %d, %d; want 10, 0 (the six others are not counted)", total, disrupting)
	}
	// 20% of 10 = 2; counting the six would make it ceil(20% of 16) = 4,
	// less 6 disrupting = 0.
	a := (NodePool{Disruption: &Disruption{Budgets: []Budget{budget("20%")}}}).AllowedDisruptions(Drifted, nodes, monday)
	if a.Allowed != 2 {
		t.Errorf("Allowed = %d, want 2", a.Allowed)
	}
	// An initialized node that is not Ready, or marked for deletion without
	// its instance terminating yet, is counted and disrupting.
	nodes = append(nodes, Node{Name: "not-ready"}, Node{Name: "draining", Ready: true, MarkedForDeletion: true})
	if total, disrupting := CountNodes(nodes); total != 12 || disrupting != 2 {
		t.Errorf("CountNodes = %d, %d; want 12, 2", total, disrupting)
	}
}
