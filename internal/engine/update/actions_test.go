package update

import (
	"strings"
	"testing"
)

// Skip targets and gate approvals name what the run has (designs/updates.md §4:
// the ARM skip body's four target types; gates by their position).
func TestValidateActions(t *testing.T) {
	s := &Strategy{Stages: []Stage{{Name: "s1", Groups: []Group{{Name: "g1", BeforeGates: []Gate{{Type: GateTypeApproval}}}}}}}
	ms := []Member{member("a", "r1", "g1", "1.29.7", ""), member("outside", "r1", "other", "1.29.7", "")}
	ok := []SkipTarget{{Type: TargetMember, Name: "a"}, {Type: TargetGroup, Name: "g1"}, {Type: TargetStage, Name: "s1"}, {Type: TargetAfterStageWait, Name: "s1"}}
	if errs := append(ValidateSkipTypes(ok), ValidateActions(s, ms, ok, []string{"s1/g1:before"})...); len(errs) > 0 {
		t.Fatalf("valid actions: %v", errs)
	}
	bad := []SkipTarget{{Type: TargetMember, Name: "outside"}, {Type: TargetGroup, Name: "s1"}, {Type: "Cluster", Name: "a"}}
	errs := ValidateActions(s, ms, bad, []string{"s1:before"})
	want := []string{"skip[0].name", "skip[1].name", "approved_gates[0]"}
	if len(errs) != len(want) {
		t.Fatalf("errors %v, want at %v", errs, want)
	}
	for i, e := range errs {
		if e.Path.String() != want[i] {
			t.Errorf("error %d at %s, want %s: %v", i, e.Path, want[i], e)
		}
	}
	if !strings.Contains(errs[2].Error(), "gate keys: s1/g1:before") {
		t.Errorf("the fix lists the run's gates: %v", errs[2])
	}
	if te := ValidateSkipTypes(bad); len(te) != 1 || te[0].Path.String() != "skip[2].type" {
		t.Errorf("type errors: %v", te)
	}
	// One by one: every member is in the run, in stage and group "default".
	if errs := ValidateActions(nil, ms, []SkipTarget{{Type: TargetMember, Name: "outside"}, {Type: TargetStage, Name: OneByOneStage}}, nil); len(errs) > 0 {
		t.Errorf("one by one: %v", errs)
	}
}
