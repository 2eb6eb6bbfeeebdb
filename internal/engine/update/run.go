package update

import (
	"maps"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// A run's events and its status at an instant: the run's progress is a pure
// function of what it applies, the members it saw when it started, its
// events and the clock (designs/updates.md §4).

// Run actions recorded as events (designs/updates.md §4).
const (
	ActionStart   = "start"
	ActionStop    = "stop"
	ActionSkip    = "skip"
	ActionApprove = "approve"
)

// Event is a user action on a run at an instant. A start carries the members
// as they were when the run started.
type Event struct {
	Action  string       `json:"action"`
	At      time.Time    `json:"at"`
	Targets []SkipTarget `json:"targets,omitempty"`
	// Gate is the key of the gate an approval completes (GateKey).
	Gate    string   `json:"gate,omitempty"`
	Members []Member `json:"members,omitempty"`
}

// Execution is everything a run's progress depends on besides the clock:
// what it applies, its order, the regions' release catalogs, the nominal
// upgrade duration of one member, and the user's actions. Its Status is a
// pure function of these and now (designs/updates.md §4), so progress needs
// no daemon: the hub recomputes it on every read.
type Execution struct {
	Update ManagedClusterUpdate
	// Strategy is the run's (inline or copied) strategy; nil means every
	// member one by one.
	Strategy        *Strategy
	Regions         []fleet.Region
	UpgradeDuration time.Duration
	Events          []Event
	// AutoUpgrade is set on a run an auto-upgrade profile generated: its
	// rules for members apply (designs/updates.md §5).
	AutoUpgrade *AutoUpgrade
	// Carried are members completed before the first start of Events: a
	// preview of a run started again (PreviewRestart) carries what the run
	// completed so far, as a re-run does.
	Carried map[string]MemberStatus
}

// OneByOneStage and OneByOneGroup name the single stage and group of a run
// without a strategy: every member, one at a time.
const (
	OneByOneStage = "default"
	OneByOneGroup = "default"
)

// segments runs every start of the execution in order, each from the state
// the previous one left (members completed earlier stay completed). It
// returns the last segment (nil when the run never started).
func (x *Execution) segments(now time.Time) *segment {
	cat := newCatalog(x.Regions)
	var starts []int
	for i, e := range x.Events {
		if e.Action == ActionStart && !e.At.After(now) {
			starts = append(starts, i)
		}
	}
	carried := maps.Clone(x.Carried)
	if carried == nil {
		carried = map[string]MemberStatus{}
	}
	var last *segment
	var pending []Event // skips for the next start
	for n, si := range starts {
		e := x.Events[si]
		end := len(x.Events)
		if n+1 < len(starts) {
			end = starts[n+1]
		}
		var evs []Event
		for _, ev := range x.Events[si+1 : end] {
			if !ev.At.After(now) && ev.Action != ActionStart {
				evs = append(evs, ev)
			}
		}
		// Skips made before the first start apply to it, and so do skips
		// made while the run was not running (stopped, failed or
		// completed) to the start that follows (designs/updates.md §4): a
		// start re-applies what failed or what the run itself skipped, not
		// what the user skipped for it.
		if n == 0 {
			pending = nil
			for _, ev := range x.Events[:si] {
				if ev.Action == ActionSkip {
					pending = append(pending, ev)
				}
			}
		}
		pre := make([]Event, 0, len(pending))
		for _, ev := range pending {
			ev.At = e.At
			pre = append(pre, ev)
		}
		seg := newSegment(x, cat, e.Members, e.At, carried)
		seg.simulate(pre, evs)
		last = seg
		pending = nil
		for _, ev := range evs {
			if ev.Action == ActionSkip && !running(seg.status(ev.At).State) {
				pending = append(pending, ev)
			}
		}
		if n+1 < len(starts) {
			at := x.Events[starts[n+1]].At
			for _, ms := range seg.status(at).Members() {
				if ms.State == StateCompleted {
					carried[ms.Name] = ms
				}
			}
		}
	}
	return last
}

// running: a run in this state goes on by itself.
func running(state string) bool {
	switch state {
	case StateCompleted, StateFailed, StateStopped:
		return false
	}
	return true
}

// Status is the run's status at now (designs/updates.md §4).
func (x *Execution) Status(now time.Time) RunStatus {
	seg := x.segments(now)
	if seg == nil {
		return x.notStarted()
	}
	return seg.status(now)
}

// notStarted is the status of a run that was never started: every level NotStarted.
func (x *Execution) notStarted() RunStatus {
	st := strategyOf(x)
	out := RunStatus{State: StateNotStarted}
	for _, s := range st.Stages {
		ss := StageStatus{Name: s.Name, State: StateNotStarted, AfterStageWait: StateNotStarted,
			Gates: gateStatuses(s.Name, "", s.BeforeGates, s.AfterGates)}
		for _, g := range s.Groups {
			ss.Groups = append(ss.Groups, GroupStatus{Name: g.Name, State: StateNotStarted,
				Gates: gateStatuses(s.Name, g.Name, g.BeforeGates, g.AfterGates)})
		}
		out.Stages = append(out.Stages, ss)
	}
	return out
}

func gateStatuses(stage, group string, before, after []Gate) []GateStatus {
	var out []GateStatus
	for _, p := range []struct {
		timing string
		gates  []Gate
	}{{TimingBefore, before}, {TimingAfter, after}} {
		for _, n := range gateNames(p.gates) {
			out = append(out, GateStatus{Key: GateKey(stage, group, p.timing), DisplayName: n, Timing: p.timing, State: StateNotStarted})
		}
	}
	return out
}
