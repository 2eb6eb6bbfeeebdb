package update

import (
	"reflect"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
)

func TestStrategyWithDefaults(t *testing.T) {
	in := okStrategy()
	written := enginetest.DeepCopy(in)
	out := StrategyWithDefaults(in)
	if !reflect.DeepEqual(in, written) {
		t.Fatalf("StrategyWithDefaults modified its input: %+v", in)
	}
	want := okStrategy()
	want.Stages[0].MaxConcurrency = "50"                      // stage default
	want.Stages[0].AfterGates[0].Type = GateTypeApproval      // gate default
	want.Stages[1].Groups[1].MaxConcurrency = "1"             // group default
	want.Stages[1].AfterStageWaitInSeconds = WaitSeconds(0)   // wait default
	want.Stages[0].Groups[0].BeforeGates[0].Type = "Approval" // already written
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got  %+v\nwant %+v", out, want)
	}
	if again := StrategyWithDefaults(out); !reflect.DeepEqual(again, out) {
		t.Errorf("not idempotent: %+v", again)
	}
	// The result shares nothing with the input.
	out.Stages[0].Groups[0].BeforeGates[0].DisplayName = "changed"
	out.Stages[1].Groups[0].Name = "changed"
	if !reflect.DeepEqual(in, written) {
		t.Error("the result shares storage with the input")
	}
}

func TestStrategyWithDefaultsKeepsNilApartFromEmpty(t *testing.T) {
	for name, s := range map[string]Strategy{
		"nil stages":   {},
		"empty stages": {Stages: []Stage{}},
		"nil and empty lists": stages(Stage{Name: "a", Groups: []Group{{Name: "g", BeforeGates: []Gate{}}}, AfterGates: []Gate{}},
			Stage{Name: "b", Groups: []Group{}}),
	} {
		out := StrategyWithDefaults(s)
		if (s.Stages == nil) != (out.Stages == nil) {
			t.Errorf("%s: stages %v became %v", name, s.Stages, out.Stages)
		}
		for i := range s.Stages {
			in, o := s.Stages[i], out.Stages[i]
			if (in.Groups == nil) != (o.Groups == nil) || (in.AfterGates == nil) != (o.AfterGates == nil) || (in.BeforeGates == nil) != (o.BeforeGates == nil) {
				t.Errorf("%s: stage %d: %+v became %+v", name, i, in, o)
			}
			for j := range in.Groups {
				if (in.Groups[j].BeforeGates == nil) != (o.Groups[j].BeforeGates == nil) {
					t.Errorf("%s: group %d.%d: %+v became %+v", name, i, j, in.Groups[j], o.Groups[j])
				}
			}
		}
	}
}

func TestRunWithDefaults(t *testing.T) {
	in := RunSpec{UpdateStrategyID: "canary-first", ManagedClusterUpdate: ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeNodeImageOnly}}}
	out := RunWithDefaults(in)
	if out.ManagedClusterUpdate.NodeImageSelection.Type != NodeImageLatest || out.Strategy != nil || out.UpdateStrategyID != "canary-first" {
		t.Errorf("defaults: %+v", out)
	}
	if in.ManagedClusterUpdate.NodeImageSelection.Type != "" {
		t.Error("RunWithDefaults modified its input")
	}

	r := okRun()
	r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{Type: NodeImageCustom, CustomNodeImageVersions: []string{"AKSUbuntu-2204gen2containerd-202611.03.0"}}
	written := enginetest.DeepCopy(r)
	out = RunWithDefaults(r)
	if !reflect.DeepEqual(r, written) {
		t.Fatal("RunWithDefaults modified its input")
	}
	if out.Strategy == r.Strategy || !reflect.DeepEqual(*out.Strategy, StrategyWithDefaults(*r.Strategy)) {
		t.Errorf("inline stages: %+v", out.Strategy)
	}
	if out.ManagedClusterUpdate.NodeImageSelection.Type != NodeImageCustom {
		t.Errorf("a written type is kept: %+v", out.ManagedClusterUpdate.NodeImageSelection)
	}
	out.ManagedClusterUpdate.NodeImageSelection.CustomNodeImageVersions[0] = "changed"
	out.Strategy.Stages[0].Name = "changed"
	if !reflect.DeepEqual(r, written) {
		t.Error("the result shares storage with the input")
	}
	if again := RunWithDefaults(RunWithDefaults(r)); !reflect.DeepEqual(again, RunWithDefaults(r)) {
		t.Errorf("not idempotent: %+v", again)
	}
}

func TestProfileWithDefaults(t *testing.T) {
	for _, tc := range []struct {
		in   ProfileSpec
		want string
	}{
		{ProfileSpec{Channel: ChannelStable}, NodeImageLatest},
		{ProfileSpec{Channel: ChannelRapid, NodeImageSelectionType: NodeImageConsistent}, NodeImageConsistent},
		{ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.30"}, NodeImageLatest},
		{ProfileSpec{Channel: ChannelNodeImage}, ""}, // NodeImage takes no selection
	} {
		out := ProfileWithDefaults(tc.in)
		if out.NodeImageSelectionType != tc.want {
			t.Errorf("%+v: selection %q, want %q", tc.in, out.NodeImageSelectionType, tc.want)
		}
		if ProfileWithDefaults(out) != out {
			t.Errorf("%+v: not idempotent", tc.in)
		}
		if len(ValidateProfile(tc.in)) == 0 && len(ValidateProfile(out)) > 0 {
			t.Errorf("%+v: invalid once defaulted: %v", tc.in, ValidateProfile(out))
		}
	}
}

// Resource Manager returns updateStrategyId as the strategy's ARM id where
// the practitioner wrote its name: both forms are the same specification.
func TestStrategyIDFormsAreOneValue(t *testing.T) {
	id := "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/f/updateStrategies/safe"
	if a, b := RunWithDefaults(RunSpec{UpdateStrategyID: "safe"}), RunWithDefaults(RunSpec{UpdateStrategyID: id}); a.UpdateStrategyID != b.UpdateStrategyID {
		t.Errorf("run: %q vs %q", a.UpdateStrategyID, b.UpdateStrategyID)
	}
	if a, b := ProfileWithDefaults(ProfileSpec{UpdateStrategyID: "safe"}), ProfileWithDefaults(ProfileSpec{UpdateStrategyID: id}); a.UpdateStrategyID != b.UpdateStrategyID {
		t.Errorf("profile: %q vs %q", a.UpdateStrategyID, b.UpdateStrategyID)
	}
	if got := ProfileWithDefaults(ProfileSpec{UpdateStrategyID: "other"}).UpdateStrategyID; got == "safe" {
		t.Error("another strategy must stay another")
	}
}
