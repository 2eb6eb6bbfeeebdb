package nodepool

import (
	"reflect"
	"testing"
)

// defaultsCases are NodePools with what WithDefaults makes of them.
var defaultsCases = []struct {
	name        string
	in          NodePool
	wantBudgets []Budget
	wantPolicy  string
	wantExpire  string
	// wantConsolidateAfter is "" when it stays unset.
	wantConsolidateAfter string
}{
	// The CRD defaults an omitted disruption block to {consolidateAfter: 0s}
	// and applies the defaults inside it (issue 9 item 10).
	{"omitted disruption block: consolidateAfter 0s and the 10% budget", NodePool{}, []Budget{budget("10%")}, "WhenEmptyOrUnderutilized", "720h", "0s"},
	{"unset budgets get the 10% default", NodePool{Disruption: &Disruption{ConsolidateAfter: sp("1m")}}, []Budget{budget("10%")}, "WhenEmptyOrUnderutilized", "720h", "1m"},
	// Inside an explicit block consolidateAfter is required and has no default.
	{"explicitly empty budgets stay empty", NodePool{Disruption: &Disruption{Budgets: []Budget{}}}, []Budget{}, "WhenEmptyOrUnderutilized", "720h", ""},
	{"budget without nodes gets 10%", NodePool{Disruption: &Disruption{Budgets: []Budget{{Schedule: sp("@daily"), Duration: sp("1h")}, budget("5")}}},
		[]Budget{scheduled("10%", "@daily", "1h"), budget("5")}, "WhenEmptyOrUnderutilized", "720h", ""},
	{"set values are kept", NodePool{
		Template:   Template{ExpireAfter: sp("Never")},
		Disruption: &Disruption{ConsolidationPolicy: sp("WhenEmpty"), ConsolidateAfter: sp("Never"), Budgets: []Budget{withReasons(budget("0"))}},
	}, []Budget{withReasons(budget("0"))}, "WhenEmpty", "Never", "Never"},
}

func TestWithDefaults(t *testing.T) {
	for _, tt := range defaultsCases {
		t.Run(tt.name, func(t *testing.T) {
			got := WithDefaults(tt.in)
			if !reflect.DeepEqual(got.Disruption.Budgets, tt.wantBudgets) {
				t.Errorf("budgets = %#v, want %#v", got.Disruption.Budgets, tt.wantBudgets)
			}
			if got.Disruption.Budgets == nil {
				t.Error("budgets must never be nil after defaults")
			}
			if *got.Disruption.ConsolidationPolicy != tt.wantPolicy || *got.Template.ExpireAfter != tt.wantExpire {
				t.Errorf("policy %q expire %q", *got.Disruption.ConsolidationPolicy, *got.Template.ExpireAfter)
			}
			if deref(got.Disruption.ConsolidateAfter) != tt.wantConsolidateAfter || (tt.wantConsolidateAfter == "") != (got.Disruption.ConsolidateAfter == nil) {
				t.Errorf("consolidateAfter %v, want %q", got.Disruption.ConsolidateAfter, tt.wantConsolidateAfter)
			}
			if got.Template.TerminationGracePeriod != nil || got.Weight != nil {
				t.Error("no default for terminationGracePeriod or weight")
			}
		})
	}
}

func TestWithDefaultsDoesNotAlias(t *testing.T) {
	in := validPool()
	in.Template.Labels = map[string]string{"a": "b"}
	in.Disruption.Budgets = []Budget{{Reasons: []string{"Drifted"}}}
	in.Template.Requirements[0].MinValues = ip(1)
	in.Template.Taints = []Taint{{Key: "a", Value: sp("b"), Effect: TaintEffectNoSchedule}}
	out := WithDefaults(in)
	*out.Template.Taints[0].Value = "changed"
	*out.Disruption.ConsolidateAfter = "changed"
	out.Template.Labels["a"] = "changed"
	out.Disruption.Budgets[0].Reasons[0] = "Empty"
	*out.Template.Requirements[0].MinValues = 9
	out.Template.Requirements[0].Values[0] = "Z"
	if in.Template.Labels["a"] != "b" || in.Disruption.Budgets[0].Reasons[0] != "Drifted" || in.Disruption.Budgets[0].Nodes != nil ||
		*in.Template.Requirements[0].MinValues != 1 || in.Template.Requirements[0].Values[0] != "D" ||
		*in.Template.Taints[0].Value != "b" || *in.Disruption.ConsolidateAfter != "30s" {
		t.Errorf("WithDefaults mutated or aliased its input: %+v", in)
	}
}
