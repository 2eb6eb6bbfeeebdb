package nodepool

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

func TestFieldErrorSteps(t *testing.T) {
	np := validPool()
	np.Disruption.Budgets = []Budget{budget("10%"), budget("2147483648")}
	np.Template.Labels = map[string]string{"karpenter.sh/nodepool": "x"}
	errs := Validate(np)
	if !errs.Has(string(RuleBudgetNodesInt32)) || !errs.Has(string(RuleRestrictedLabel)) || errs.Has(string(RuleWeightRange)) {
		t.Fatalf("Has: %v", errs)
	}
	e := errs.At("disruption.budgets[1].nodes")
	if len(e) != 1 || e[0].ID != string(RuleBudgetNodesInt32) {
		t.Fatalf("At: %v", errs)
	}
	want := []field.Step{{Name: "disruption", Index: -1}, {Name: "budgets", Index: -1}, {Index: 1}, {Name: "nodes", Index: -1}}
	if got := e[0].Path.Steps(); !slices.Equal(got, want) {
		t.Errorf("Steps = %+v, want %+v", got, want)
	}
	l := errs.At(`template.labels["karpenter.sh/nodepool"]`)
	if len(l) != 1 || l[0].ID != string(RuleRestrictedLabel) {
		t.Fatalf("label At: %+v", l)
	}
	wantLabel := []field.Step{{Name: "template", Index: -1}, {Name: "labels", Index: -1}, {Index: -1, Key: "karpenter.sh/nodepool", IsKey: true}}
	if got := l[0].Path.Steps(); !slices.Equal(got, wantLabel) {
		t.Errorf("label steps = %+v, want %+v", got, wantLabel)
	}
	if !strings.HasPrefix(e[0].Error(), "disruption.budgets[1].nodes: 2147483648 is out of range: a node count must be from 0 to 2147483647") {
		t.Errorf("Error() = %q", e[0].Error())
	}
	if errs.Err() == nil || (field.Errors{}).Err() != nil {
		t.Error("Err()")
	}
}

// TestScheduleRejectionsAreKubernetesAdmitted documents why the extra
// schedule rules exist: the API server's pattern admits these, and only
// Karpenter's parse (with its "TZ=UTC " prefix) rejects them.
func TestScheduleRejectionsAreKubernetesAdmitted(t *testing.T) {
	for _, s := range []string{"0 0 * * 7", "0 0 * * sat-sun", "TZ=Europe/Paris 0 0 * * *", "CRON_TZ=UTC 0 0 * * *", "0 0 0 * * *"} {
		if !schedulePattern.MatchString(s) {
			t.Errorf("%q: expected the CRD pattern to admit it", s)
		}
		if _, err := ParseSchedule(s); err == nil {
			t.Errorf("%q: expected Karpenter's parse to reject it", s)
		}
		rule, fix, ok := checkSchedule(s)
		if ok || rule == "" || fix == "" {
			t.Errorf("%q: expected a rejection with a fix", s)
		}
	}
	for s, want := range map[string]string{
		"0 0 * * 7":       "day-of-week 7",
		"0 0 * * sat-sun": "wrapping range",
		"TZ=UTC @daily":   "time zone",
		"0 0 0 * * *":     "seconds field",
	} {
		if rule, _, _ := checkSchedule(s); !strings.Contains(rule, want) {
			t.Errorf("%q: rule %q does not mention %q", s, rule, want)
		}
	}
}

func TestValidateNegativeNumericRequirement(t *testing.T) {
	np := validPool()
	np.Template.Requirements[0] = Requirement{Key: "karpenter.azure.com/sku-cpu", Operator: "Gt", Values: []string{"-1"}}
	errs := Validate(np).At("template.requirements[0].values")
	if !errs.Has(string(RuleRequirementNumericValue)) {
		t.Errorf("Gt -1 must be rejected as negative: %v", errs)
	}
}

func TestValidateUpdate(t *testing.T) {
	prev := validPool()
	next := validPool()
	next.Template.NodeClassRef.Name = "other"
	if errs := ValidateUpdate(prev, next); len(errs) != 0 {
		t.Fatalf("name change should be allowed: %v", errs)
	}
	next.Template.NodeClassRef.Group = "example.com"
	next.Template.NodeClassRef.Kind = "Other"
	errs := ValidateUpdate(prev, next)
	if len(errs.At("template.node_class_ref.group")) != 1 || len(errs.At("template.node_class_ref.kind")) != 1 || !errs.Has(string(RuleNodeClassRefImmutable)) {
		t.Fatalf("immutability: %v", errs)
	}
}

func TestValidateBudgetsAlone(t *testing.T) {
	s, d := "0 9 * * 7", "8h"
	errs := ValidateBudgets([]Budget{{Nodes: strPtrForBudgetsTest("10%")}, {Nodes: strPtrForBudgetsTest("0"), Schedule: &s, Duration: &d}})
	if len(errs) != 1 || errs[0].Path.String() != "disruption.budgets[1].schedule" {
		t.Fatalf("got %v", errs)
	}
	if errs := ValidateBudgets(nil); len(errs) != 0 {
		t.Fatalf("no budgets is valid: %v", errs)
	}
}

func strPtrForBudgetsTest(s string) *string { return &s }

// Issue 9 item 12. The CRD declares weight an int32 from 1 to 100 and
// minValues an integer from 1 to 50 (internal/emulator/kubetest/crds/aks-karpenter.sh_nodepools.yaml);
// a fraction or a number beyond the model's integer fields must get the
// attribute's rule and range, not a decoding error.
func TestValidateNumber(t *testing.T) {
	minValues := field.Root("template").Child("requirements").Index(3).Child("min_values")
	for _, tc := range []struct {
		path   field.Path
		number string
		want   string // "" means no error
	}{
		{field.Root("weight"), "2.5", "weight: weight must be a whole number from 1 to 100, got 2.5. Set a weight from 1 to 100"},
		{field.Root("weight"), "99999999999999999999", "weight: weight must be a whole number from 1 to 100, got 99999999999999999999."},
		{field.Root("weight"), "-4294967296", "got -4294967296"},
		{field.Root("weight"), "0", "got 0"},
		{field.Root("weight"), "100", ""},
		{field.Root("weight"), "1e2", ""},
		{minValues, "1.5", "template.requirements[3].min_values: min_values must be a whole number from 1 to 50, got 1.5. Set min_values"},
		{minValues, "1e30", "got 1e30"},
		{minValues, "50", ""},
		{field.Root("limits").Key("cpu"), "2.5", ""},
		{field.Root("nodes"), "2.5", ""},
	} {
		errs := ValidateNumber(tc.path, tc.number)
		switch {
		case tc.want == "" && len(errs) > 0:
			t.Errorf("%s = %s: unexpected %v", tc.path, tc.number, errs)
		case tc.want != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want)):
			t.Errorf("%s = %s: got %v, want %q", tc.path, tc.number, errs, tc.want)
		}
	}
	// The same rule and words as Validate for a value the model holds.
	np := validPool()
	np.Weight = wp(0)
	if got, want := Validate(np)[0].Error(), ValidateNumber(field.Root("weight"), "0")[0].Error(); got != want {
		t.Errorf("Validate says %q, ValidateNumber %q", got, want)
	}
	for number, ok := range map[string]bool{"0": true, "2147483647": true, "2147483648": false, "2.5": false, "-1": false} {
		if errs := ValidateNodeCount(field.Root("nodes"), number); (len(errs) == 0) != ok || (!ok && errs[0].ID != string(RuleNodeCount)) {
			t.Errorf("node count %s: %v", number, errs)
		}
	}
}
