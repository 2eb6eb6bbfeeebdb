package armfleet

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

var fid = FleetID{SubscriptionID: "00000000-0000-0000-0000-000000000001", ResourceGroup: "rg", Fleet: "fleet"}

// wire sends v through JSON, as the network does.
func wire[T any](t *testing.T, v T) T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

var (
	t0       = time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	strategy = update.Strategy{Stages: []update.Stage{
		{Name: "canary", Groups: []update.Group{{Name: "canary", MaxConcurrency: "2",
			BeforeGates: []update.Gate{{Type: GateTypeApproval, DisplayName: "go"}}}},
			AfterStageWaitInSeconds: ptr(3600), AfterGates: []update.Gate{{Type: GateTypeApproval}}},
		{Name: "prod", Groups: []update.Group{{Name: "east"}, {Name: "west"}}, MaxConcurrency: "50%"},
	}}
)

func TestStrategyRoundTrip(t *testing.T) {
	in := hub.UpdateStrategy{Meta: hub.Meta{Name: "safe", ETag: `"3"`, CreatedAt: t0, UpdatedAt: t0.Add(time.Hour)}, Spec: strategy}
	w := wire(t, UpdateStrategyToWire(fid, in))
	if w.ID != fid.Child(UpdateStrategies, "safe") || w.Type != TypeUpdateStrategy {
		t.Errorf("id/type = %q %q", w.ID, w.Type)
	}
	in.Written = &strategy // Resource Manager returns what it was sent: the written form
	if got := UpdateStrategyFromWire(w); !reflect.DeepEqual(got, in) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, in)
	}
	if !UsesGates(&w.Properties.Strategy) || UsesGates(&RunStrategy{Stages: []Stage{{Name: "a", Groups: []Group{{Name: "b"}}}}}) {
		t.Error("UsesGates")
	}
}

func TestRunRoundTrip(t *testing.T) {
	status := update.RunStatus{State: update.StateFailed, Message: "member x failed", StartTime: t0, EndTime: t0.Add(2 * time.Hour),
		SelectedNodeImageVersions: map[string]string{"AKSUbuntu-2204gen2containerd": "202611.10.0", "AzureLinux-V2gen2": "202611.03.1"},
		Stages: []update.StageStatus{{Name: "canary", State: update.StateFailed, Message: "group canary failed", StartTime: t0, AfterStageWait: update.StateNotStarted,
			Gates: []update.GateStatus{
				{Key: update.GateKey("canary", "", update.TimingAfter), Timing: update.TimingAfter, State: update.StateNotStarted}},
			Groups: []update.GroupStatus{{Name: "canary", State: update.StateFailed, StartTime: t0,
				Gates: []update.GateStatus{{Key: update.GateKey("canary", "canary", update.TimingBefore), DisplayName: "go", Timing: update.TimingBefore, State: update.StateCompleted}},
				Members: []update.MemberStatus{
					{Name: "a", State: update.StateCompleted, Message: "upgraded 1.32.6 → 1.33.2", StartTime: t0, EndTime: t0.Add(15 * time.Minute)},
					{Name: "x", State: update.StateFailed, Message: "member x failed", StartTime: t0.Add(15 * time.Minute), EndTime: t0.Add(30 * time.Minute)},
				}}}},
			{Name: "prod", State: update.StateNotStarted, AfterStageWait: update.StateNotStarted,
				Groups: []update.GroupStatus{{Name: "east", State: update.StateNotStarted}, {Name: "west", State: update.StateNotStarted}}}}}
	for _, tc := range []struct {
		name string
		run  hub.UpdateRun
	}{
		{"by strategy id", hub.UpdateRun{Meta: hub.Meta{Name: "run-1", ETag: `"7"`, CreatedAt: t0},
			Spec: update.RunSpec{UpdateStrategyID: fid.Child(UpdateStrategies, "safe"), ManagedClusterUpdate: update.ManagedClusterUpdate{
				Upgrade:            update.Upgrade{Type: update.UpgradeFull, KubernetesVersion: "1.33.2"},
				NodeImageSelection: update.NodeImageSelection{Type: update.NodeImageConsistent}}},
			ResolvedStrategy: &strategy, Status: status, AutoUpgrade: &update.AutoUpgrade{Profile: "stable"}}},
		{"inline, custom images", hub.UpdateRun{Meta: hub.Meta{Name: "run-2", ETag: `"1"`},
			Spec: update.RunSpec{Strategy: &strategy, ManagedClusterUpdate: update.ManagedClusterUpdate{
				Upgrade: update.Upgrade{Type: update.UpgradeNodeImageOnly},
				NodeImageSelection: update.NodeImageSelection{Type: update.NodeImageCustom,
					CustomNodeImageVersions: []string{"AKSUbuntu-2204gen2containerd-202611.10.0"}}}},
			ResolvedStrategy: &strategy, Status: update.RunStatus{State: update.StateNotStarted}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := wire(t, UpdateRunToWire(fid, tc.run, map[string]string{"a": "/subscriptions/s/resourceGroups/r/providers/Microsoft.ContainerService/managedClusters/a"}))
			got := UpdateRunFromWire(w)
			tc.run.Written = &tc.run.Spec
			if !reflect.DeepEqual(got, tc.run) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tc.run)
			}
		})
	}
}

func TestGateIDsOnlyOnceReached(t *testing.T) {
	st := update.RunStatus{State: update.StateRunning, Stages: []update.StageStatus{{Name: "s", State: update.StateRunning, Gates: []update.GateStatus{
		{Key: "s:before", Timing: update.TimingBefore, State: update.StatePending},
		{Key: "s:after", Timing: update.TimingAfter, State: update.StateNotStarted}}}}}
	w := RunStatusToWire(fid, "run", st, nil, nil)
	before, after := w.Stages[0].BeforeGates[0], w.Stages[0].AfterGates[0]
	if before.GateID != fid.Child(Gates, GateName(fid, "run", "s:before")) || after.GateID != "" {
		t.Errorf("gate ids: before %q after %q", before.GateID, after.GateID)
	}
	if GateName(fid, "run", "s:before") == GateName(fid, "run", "s:after") || len(GateName(fid, "run", "s:before")) != 36 {
		t.Error("gate names must be distinct GUIDs")
	}
}

func TestProfileRoundTrip(t *testing.T) {
	in := hub.AutoUpgradeProfile{Meta: hub.Meta{Name: "stable", ETag: `"2"`},
		Spec: update.ProfileSpec{Channel: update.ChannelTargetKubernetesVersion, UpdateStrategyID: fid.Child(UpdateStrategies, "safe"),
			NodeImageSelectionType: update.NodeImageConsistent, TargetKubernetesVersion: "1.30", LongTermSupport: true, Disabled: true},
		Status: update.ProfileStatus{LastTriggeredAt: t0, LastTriggerStatus: update.TriggerFailed, LastTriggerError: "the strategy is gone",
			LastTriggerUpgradeVersions: []string{"1.30.14"}}}
	got := ProfileFromWire(wire(t, ProfileToWire(fid, in)))
	in.Written = &in.Spec
	if !reflect.DeepEqual(got, in) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, in)
	}
}

func TestStrategyRefAndIDs(t *testing.T) {
	if got := StrategyRef(fid, "safe"); got != fid.Child(UpdateStrategies, "safe") {
		t.Errorf("StrategyRef(name) = %q", got)
	}
	id := "/subscriptions/S/resourceGroups/RG/providers/microsoft.containerservice/fleets/F/updateStrategies/x"
	if got := StrategyRef(fid, id); got != id {
		t.Errorf("StrategyRef(id) = %q", got)
	}
	f, name, err := ParseChild(UpdateStrategies, id)
	if err != nil || name != "x" || f != (FleetID{"S", "RG", "F"}) {
		t.Errorf("ParseChild = %v %q %v", f, name, err)
	}
	for _, bad := range []string{"/subscriptions/S/resourceGroups/RG/providers/Microsoft.ContainerService/fleets/F/updateRuns/x", "/a/b", "/subscriptions/S/resourceGroups/RG/providers/Microsoft.ContainerService/fleets/F/updateStrategies/"} {
		if _, err := ChildName(UpdateStrategies, bad); err == nil {
			t.Errorf("ChildName(%q) accepted", bad)
		}
	}
	if n, err := ChildName(UpdateStrategies, "plain"); err != nil || n != "plain" {
		t.Errorf("ChildName(plain) = %q %v", n, err)
	}
	if fam, v := SplitNodeImage("AKSUbuntu-2204gen2containerd-202611.10.0"); fam != "AKSUbuntu-2204gen2containerd" || v != "202611.10.0" {
		t.Errorf("SplitNodeImage = %q %q", fam, v)
	}
}
