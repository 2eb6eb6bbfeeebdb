package update

import (
	"reflect"
	"testing"
)

// TestDecideActions is designs/updates.md §4's table of what an apply sends
// to a run: from the prior state's intent, the plan's and the run's state.
func TestDecideActions(t *testing.T) {
	m1 := SkipTarget{Type: TargetMember, Name: "m1"}
	g1 := SkipTarget{Type: TargetGroup, Name: "g1"}
	start := RunIntent{Start: true}
	for _, c := range []struct {
		name    string
		prior   RunIntent
		created bool
		want    RunIntent
		state   string
		acts    RunActions
	}{
		{"created with start", RunIntent{}, true, start, StateNotStarted, RunActions{Start: true}},
		{"created without start", RunIntent{}, true, RunIntent{}, StateNotStarted, RunActions{}},
		{"created with a skip: sent, then the start", RunIntent{}, true, RunIntent{Start: true, Skip: []SkipTarget{m1}}, StateNotStarted,
			RunActions{Start: true, Skips: []SkipTarget{m1}}},
		{"started later", RunIntent{}, false, start, StateNotStarted, RunActions{Start: true}},
		{"running: nothing", start, false, start, StateRunning, RunActions{}},
		{"stopped while running", start, false, RunIntent{Start: true, Stopped: true}, StateRunning, RunActions{Stop: true}},
		{"stopped while pending", start, false, RunIntent{Start: true, Stopped: true}, StatePending, RunActions{Stop: true}},
		{"stop of a finished run: nothing", start, false, RunIntent{Start: true, Stopped: true}, StateCompleted, RunActions{}},
		{"resumed after a stop", RunIntent{Start: true, Stopped: true, Skip: []SkipTarget{g1}}, false, RunIntent{Start: true, Skip: []SkipTarget{g1}}, StateStopped,
			RunActions{Start: true, Restart: true, Skips: []SkipTarget{g1}}},
		{"completed: a new trigger re-runs it", RunIntent{Start: true, RerunTrigger: "a"}, false, RunIntent{Start: true, RerunTrigger: "b"}, StateCompleted,
			RunActions{Start: true, Restart: true}},
		{"failed: a new trigger re-runs it", RunIntent{Start: true, RerunTrigger: "a"}, false, RunIntent{Start: true, RerunTrigger: "b"}, StateFailed,
			RunActions{Start: true, Restart: true}},
		{"completed, same trigger: nothing", RunIntent{Start: true, RerunTrigger: "a"}, false, RunIntent{Start: true, RerunTrigger: "a"}, StateCompleted, RunActions{}},
		{"a new skip while running: only it", RunIntent{Start: true, Skip: []SkipTarget{m1}}, false, RunIntent{Start: true, Skip: []SkipTarget{m1, g1}}, StateRunning,
			RunActions{Skips: []SkipTarget{g1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := DecideActions(c.prior, c.created, c.want, c.state); !reflect.DeepEqual(got, c.acts) {
				t.Errorf("got %+v, want %+v", got, c.acts)
			}
		})
	}
}
