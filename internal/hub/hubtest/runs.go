package hubtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// outcome is what a hub must answer to an action on an update run.
type outcome int

const (
	allowed  outcome = iota
	conflict         // a *hub.ConflictError: the run's state refuses it
	stale            // hub.ErrPreconditionFailed
	invalid          // an error: the request itself is wrong
)

func (o outcome) String() string {
	return [...]string{"success", "a *hub.ConflictError", "hub.ErrPreconditionFailed", "a validation error"}[o]
}

// A started run may be Running or, waiting on its members, Pending; a
// stopped one Stopping until what was in flight finishes.
var (
	notStarted = []string{update.StateNotStarted}
	started    = []string{update.StateRunning, update.StatePending}
	stopped    = []string{update.StateStopping, update.StateStopped}
)

// testRunStates drives one run through the state rules of update runs:
// created NotStarted; changed only while NotStarted; started from
// NotStarted or Stopped (as from Failed and Completed, which the suite cannot
// bring about on every hub); stopped only while started; skipped while not
// finished. A refused action leaves the run as it was, and a stale ETag is
// reported as such whatever the state (HTTP checks preconditions first).
func testRunStates(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	const name = "hubtest-run"
	group := memberGroup(fleetOf(t, h))
	spec := runSpec(group, update.NodeImageLatest)
	put := func(pre hub.Precondition) (*hub.UpdateRun, error) {
		return h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: spec}, pre)
	}
	start := func(pre hub.Precondition) (*hub.UpdateRun, error) { return h.StartUpdateRun(ctx, name, pre) }
	stop := func(pre hub.Precondition) (*hub.UpdateRun, error) { return h.StopUpdateRun(ctx, name, pre) }
	skip := func(targets ...update.SkipTarget) func(hub.Precondition) (*hub.UpdateRun, error) {
		return func(pre hub.Precondition) (*hub.UpdateRun, error) { return h.SkipUpdateRun(ctx, name, targets, pre) }
	}

	run, err := put(hub.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if !slices.Contains(notStarted, run.Status.State) {
		t.Fatalf("a new run is %s, want NotStarted", run.Status.State)
	}
	current, previous := run.ETag, run.ETag
	for _, step := range []struct {
		name     string
		act      func(hub.Precondition) (*hub.UpdateRun, error)
		staleTag bool // send the ETag the run had before the last change
		want     outcome
		states   []string // the states an allowed action may leave
	}{
		{"change the run before it starts", put, false, allowed, notStarted},
		{"start with a stale ETag", start, true, stale, nil},
		{"stop a run that has not started", stop, false, conflict, nil},
		{"start", start, false, allowed, started},
		{"start a started run", start, false, conflict, nil},
		{"change a started run", put, false, conflict, nil},
		{"change a started run with a stale ETag", put, true, stale, nil},
		{"skip a target of an unknown type", skip(update.SkipTarget{Type: "Cluster", Name: group}), false, invalid, nil},
		{"skip a group", skip(update.SkipTarget{Type: update.TargetGroup, Name: group}), false, allowed, started},
		{"stop", stop, false, allowed, stopped},
		{"stop a stopped run", stop, false, conflict, nil},
		{"change a stopped run", put, false, conflict, nil},
		{"start a stopped run again", start, false, allowed, started},
	} {
		before, err := h.GetUpdateRun(ctx, name)
		if err != nil {
			t.Fatalf("before %s: %v", step.name, err)
		}
		pre := hub.Precondition{IfMatch: current}
		if step.staleTag {
			pre.IfMatch = previous
		}
		_, err = step.act(pre)
		var ce *hub.ConflictError
		switch {
		case step.want == allowed && err != nil,
			step.want == conflict && !errors.As(err, &ce),
			step.want == stale && !errors.Is(err, hub.ErrPreconditionFailed),
			step.want == invalid && (err == nil || errors.As(err, &ce)):
			t.Fatalf("%s (run %s): %v, want %s", step.name, before.Status.State, err, step.want)
		}
		after, err := h.GetUpdateRun(ctx, name)
		if err != nil {
			t.Fatalf("after %s: %v", step.name, err)
		}
		if step.want != allowed {
			if after.ETag != before.ETag || after.Status.State != before.Status.State {
				t.Fatalf("%s was refused but changed the run: %s %s, was %s %s", step.name, after.Status.State, after.ETag, before.Status.State, before.ETag)
			}
			continue
		}
		if !slices.Contains(step.states, after.Status.State) {
			t.Fatalf("after %s the run is %s, want one of %v", step.name, after.Status.State, step.states)
		}
		previous, current = current, after.ETag
	}

	if _, err := h.StartUpdateRun(ctx, "hubtest-no-such-run", hub.Precondition{}); !errors.Is(err, hub.ErrNotFound) {
		t.Fatalf("start of a missing run: %v, want ErrNotFound", err)
	}
	if err := h.DeleteUpdateRun(ctx, name, hub.Precondition{IfMatch: current}); err != nil {
		t.Fatalf("delete: %v", err)
	}
}

// testGeneratedRuns asks a profile for the run it calls for, twice at the
// same instant: each call creates a new run, not started, updating what the
// channel says (node images only for the NodeImage channel).
func testGeneratedRuns(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	const profile = "hubtest-profile"
	if _, err := h.GenerateUpdateRun(ctx, profile); !errors.Is(err, hub.ErrNotFound) {
		t.Fatalf("generate from a missing profile: %v, want ErrNotFound", err)
	}
	if _, err := h.PutAutoUpgradeProfile(ctx, hub.AutoUpgradeProfile{Meta: hub.Meta{Name: profile}, Spec: update.ProfileSpec{Channel: update.ChannelNodeImage}}, hub.Precondition{IfNoneMatch: true}); err != nil {
		t.Fatalf("create the profile: %v", err)
	}
	var names []string
	for range 2 {
		name, err := h.GenerateUpdateRun(ctx, profile)
		if err != nil {
			t.Fatalf("generate: %v", err)
		}
		run, err := h.GetUpdateRun(ctx, name)
		if err != nil {
			t.Fatalf("the generated run %q: %v", name, err)
		}
		if run.Status.State != update.StateNotStarted || run.Spec.ManagedClusterUpdate.Upgrade.Type != update.UpgradeNodeImageOnly {
			t.Errorf("generated run %s is %s with a %s upgrade, want a NotStarted NodeImageOnly one", name, run.Status.State, run.Spec.ManagedClusterUpdate.Upgrade.Type)
		}
		if run.AutoUpgrade == nil || run.AutoUpgrade.Profile != profile {
			t.Errorf("generated run %s names profile %+v, want %q", name, run.AutoUpgrade, profile)
		}
		names = append(names, name)
	}
	if names[0] == names[1] {
		t.Fatalf("two calls generated the same run %s", names[0])
	}
	p, err := h.GetAutoUpgradeProfile(ctx, profile)
	if err != nil || !slices.Equal(p.Status.Runs, names) {
		t.Fatalf("the profile lists runs %v (%v), want %v", p.Status.Runs, err, names)
	}
}

// testGates drives an approval gate: a run waits at the gate before its
// stage, Pending; approving a gate it does not have is invalid, one it has
// not reached (or already approved) a conflict; approving it completes it.
func testGates(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	const name = "hubtest-gated"
	spec := runSpec(memberGroup(fleetOf(t, h)), update.NodeImageLatest)
	spec.Strategy.Stages[0].BeforeGates = []update.Gate{{Type: update.GateTypeApproval, DisplayName: "go"}}
	key := update.GateKey(spec.Strategy.Stages[0].Name, "", update.TimingBefore)
	if _, err := h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: spec}, hub.Precondition{IfNoneMatch: true}); err != nil {
		t.Fatalf("create: %v", err)
	}
	var ce *hub.ConflictError
	if _, err := h.ApproveUpdateRunGate(ctx, name, key, hub.Precondition{}); !errors.As(err, &ce) {
		t.Fatalf("approve before the run started: %v, want a *hub.ConflictError", err)
	}
	run, err := h.StartUpdateRun(ctx, name, hub.Precondition{})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	if run.Status.State != update.StatePending || gateState(run.Status, key) != update.StatePending {
		t.Fatalf("a started run at its gate is %s with the gate %s, want both Pending", run.Status.State, gateState(run.Status, key))
	}
	var ie *hub.InvalidError
	if _, err := h.ApproveUpdateRunGate(ctx, name, "no-such-stage:before", hub.Precondition{}); !errors.As(err, &ie) {
		t.Fatalf("approve a gate the run does not have: %v, want a *hub.InvalidError", err)
	}
	if _, err := h.ApproveUpdateRunGate(ctx, name, key, hub.Precondition{IfMatch: `"stale"`}); !errors.Is(err, hub.ErrPreconditionFailed) {
		t.Fatalf("approve with a stale ETag: %v, want ErrPreconditionFailed", err)
	}
	run, err = h.ApproveUpdateRunGate(ctx, name, key, hub.Precondition{IfMatch: run.ETag})
	if err != nil || gateState(run.Status, key) != update.StateCompleted {
		t.Fatalf("approve: %v, gate %s", err, gateState(run.Status, key))
	}
	if _, err := h.ApproveUpdateRunGate(ctx, name, key, hub.Precondition{}); !errors.As(err, &ce) {
		t.Fatalf("approve an approved gate: %v, want a *hub.ConflictError", err)
	}
	if _, err := h.StopUpdateRun(ctx, name, hub.Precondition{}); err != nil && !errors.As(err, &ce) {
		t.Fatalf("stop: %v", err)
	}
	if err := h.DeleteUpdateRun(ctx, name, hub.Precondition{}); err != nil {
		t.Fatalf("delete: %v", err)
	}
}

func gateState(st update.RunStatus, key string) string {
	for _, g := range st.Gates() {
		if g.Key == key {
			return g.State
		}
	}
	return "(none)"
}

// testRunRefusals: the hub refuses to create a run the service refuses —
// one whose update group no member of the fleet has, or whose group's
// max_concurrency is above its member count — as invalid, with the
// engine's reason (update.ServiceRefusals), and creates nothing.
func testRunRefusals(t *testing.T, h hub.Hub) {
	ctx := context.Background()
	f := fleetOf(t, h)
	group := memberGroup(f)
	members := 0
	for _, c := range f.Clusters {
		if c.Group == group {
			members++
		}
	}
	nobody := runSpec("hubtest-nobody", update.NodeImageLatest)
	tooMany := runSpec(group, update.NodeImageLatest)
	tooMany.Strategy.Stages[0].Groups[0].MaxConcurrency = fmt.Sprint(members + 1)
	for name, c := range map[string]struct {
		spec update.RunSpec
		want string
	}{
		"hubtest-refused-nobody":   {nobody, `no member of the fleet is in update group "hubtest-nobody"`},
		"hubtest-refused-too-many": {tooMany, fmt.Sprintf("max_concurrency %d exceeds the %d member(s) of group %q", members+1, members, group)},
	} {
		_, err := h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: c.spec}, hub.Precondition{IfNoneMatch: true})
		var invalid *hub.InvalidError
		if !errors.As(err, &invalid) || !strings.Contains(invalid.Reason, c.want) {
			t.Errorf("%s: %v, want an InvalidError saying %q", name, err, c.want)
		}
		if _, err := h.GetUpdateRun(ctx, name); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("%s: refused, yet read back: %v", name, err)
		}
	}
}
