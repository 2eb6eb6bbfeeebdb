package update

import (
	"slices"
	"time"
)

// A run's status at an instant, projected from its simulated course: the
// state of every level with the roll-up rules of designs/updates.md §4.

// memberStatus projects a member's course at now.
func (s *segment) memberStatus(k *track, now time.Time) MemberStatus {
	if k.carried {
		return k.carriedStatus
	}
	ms := MemberStatus{Name: k.m.Name, State: StateNotStarted, FromVersion: k.fromK8s, ToVersion: k.toK8s}
	if s.x.Update.Upgrade.Type == UpgradeNodeImageOnly {
		ms.FromVersion, ms.ToVersion = k.fromImg, k.toImg
	}
	if k.reached.IsZero() || k.reached.After(now) {
		if !k.skippedAt.IsZero() && !k.skippedAt.After(now) {
			ms.State, ms.Message, ms.EndTime = StateSkipped, "skipped by the user", k.skippedAt
		}
		return ms
	}
	ms.StartTime = k.reached
	switch {
	case k.outcome == OutcomeSkipped:
		ms.State, ms.Message, ms.EndTime = StateSkipped, k.msg, k.reached
	case !k.skippedAt.IsZero() && !k.skippedAt.After(now) && (k.start.IsZero() || k.start.After(k.skippedAt)):
		ms.State, ms.Message, ms.EndTime = StateSkipped, "skipped by the user", k.skippedAt
	case k.start.IsZero() || k.start.After(now):
		ms.State, ms.Message = StatePending, k.msg
		if k.start.IsZero() && k.deferred && s.halted(now) {
			ms.Message = k.msg + " (the run did not wait for it)"
		}
	case k.end.After(now):
		ms.State, ms.Message = StateRunning, "upgrading "+k.describe()
		ms.StartTime = k.start
	case k.failed:
		ms.State, ms.Message, ms.StartTime, ms.EndTime = StateFailed, k.fails, k.start, k.end
	default:
		ms.State, ms.Message, ms.StartTime, ms.EndTime = StateCompleted, "upgraded "+k.describe(), k.start, k.end
		ms.KubernetesVersion = k.toK8s
		if s.x.Update.Upgrade.Type == UpgradeNodeImageOnly {
			ms.KubernetesVersion = ""
		}
		ms.NodeImages = k.images
	}
	return ms
}

func (s *segment) gateState(g *gateTrack, now time.Time) string {
	switch {
	case g.skipped:
		return StateSkipped
	case !g.released.IsZero() && !g.released.After(now):
		return StateCompleted
	case !g.reached.IsZero() && !g.reached.After(now):
		return StatePending
	}
	return StateNotStarted
}

func (s *segment) gates(before, after *gateTrack, now time.Time) []GateStatus {
	var out []GateStatus
	for _, g := range []*gateTrack{before, after} {
		for _, n := range g.names {
			out = append(out, GateStatus{Key: g.key, DisplayName: n, Timing: g.timing, State: s.gateState(g, now)})
		}
	}
	return out
}

func gatePending(gs []GateStatus) bool {
	for _, g := range gs {
		if g.State == StatePending {
			return true
		}
	}
	return false
}

// rollUp is the state of a level from its children's states (designs/updates.md §4).
func rollUp(children []string, gatesPending bool) string {
	counts := map[string]int{}
	for _, c := range children {
		counts[c]++
	}
	n := len(children)
	switch {
	case counts[StateFailed] > 0:
		return StateFailed
	case counts[StateRunning] > 0 || counts[StateStopping] > 0:
		return StateRunning
	case gatesPending:
		return StatePending
	case counts[StatePending] > 0 && counts[StatePending]+counts[StateNotStarted] == n:
		return StatePending
	case counts[StatePending] > 0:
		return StatePending
	}
	return StateRunning
}

// status projects the segment at now.
func (s *segment) status(now time.Time) RunStatus {
	out := RunStatus{State: StateRunning, StartTime: s.start, SelectedNodeImageVersions: s.selected}
	stopped := !s.stoppedAt.IsZero() && !s.stoppedAt.After(now)
	failed := !s.failedAt.IsZero() && !s.failedAt.After(now)
	busy := false
	for _, st := range s.stages {
		ss := StageStatus{Name: st.name, State: StateNotStarted, AfterStageWait: StateNotStarted,
			Gates: s.gates(&st.before, &st.after, now), StartTime: nonFuture(st.start, now)}
		var groupStates []string
		for _, g := range st.groups {
			gs := GroupStatus{Name: g.name, Gates: s.gates(&g.before, &g.after, now), StartTime: nonFuture(g.start, now)}
			var ms []string
			allSkipped := len(g.members) > 0
			for _, k := range g.members {
				m := s.memberStatus(k, now)
				gs.Members = append(gs.Members, m)
				ms = append(ms, m.State)
				allSkipped = allSkipped && m.State == StateSkipped
				busy = busy || m.State == StateRunning
			}
			switch {
			case !g.userSkippedAt.IsZero() && !g.userSkippedAt.After(now):
				gs.State = StateSkipped
			case g.start.IsZero() || g.start.After(now):
				gs.State = StateNotStarted
			case !g.end.IsZero() && !g.end.After(now):
				gs.State, gs.EndTime = StateCompleted, g.end
				if allSkipped {
					gs.State = StateSkipped
				}
			default:
				gs.State = rollUp(ms, gatePending(gs.Gates))
			}
			if gs.State != StateSkipped && slices.Contains(ms, StateFailed) {
				gs.State = StateFailed
			}
			ss.Groups = append(ss.Groups, gs)
			groupStates = append(groupStates, gs.State)
		}
		switch {
		case !st.userSkippedAt.IsZero() && !st.userSkippedAt.After(now):
			ss.State = StateSkipped
		case st.start.IsZero() || st.start.After(now):
			ss.State = StateNotStarted
		case !st.end.IsZero() && !st.end.After(now):
			ss.State, ss.EndTime = StateCompleted, st.end
			if allStates(groupStates, StateSkipped) {
				ss.State = StateSkipped
			}
		default:
			ss.State = rollUp(groupStates, gatePending(ss.Gates))
		}
		if ss.State != StateSkipped && slices.Contains(groupStates, StateFailed) {
			ss.State = StateFailed
		}
		switch {
		case st.waitSkipped && (st.waitStart.IsZero() || !st.waitStart.After(now) || !st.userSkippedAt.IsZero()):
			ss.AfterStageWait = StateSkipped
		case st.waitStart.IsZero() || st.waitStart.After(now):
		case st.waitEnd.After(now):
			ss.AfterStageWait = StateRunning
		default:
			ss.AfterStageWait = StateCompleted
		}
		out.Stages = append(out.Stages, ss)
	}
	var stageStates []string
	for _, ss := range out.Stages {
		stageStates = append(stageStates, ss.State)
	}
	switch {
	case failed:
		out.State, out.Message, out.EndTime = StateFailed, s.failedMsg, s.failedAt
	case !s.endAt.IsZero() && !s.endAt.After(now):
		out.State, out.EndTime = StateCompleted, s.endAt
	case stopped && busy:
		out.State = StateStopping
	case stopped:
		out.State, out.EndTime = StateStopped, s.stopEnd(now)
	default:
		out.State = rollUp(stageStates, false)
		if s.current < len(out.Stages) && out.Stages[s.current].State == StatePending {
			out.State = StatePending
		}
	}
	if stopped || failed {
		for i := range out.Stages {
			haltLevel(&out.Stages[i].State, out.State)
			for j := range out.Stages[i].Groups {
				haltLevel(&out.Stages[i].Groups[j].State, out.State)
			}
		}
	}
	return out
}

// haltLevel: under a stopped run, unfinished levels are Stopping/Stopped too.
func haltLevel(state *string, run string) {
	if run != StateStopped && run != StateStopping {
		return
	}
	switch *state {
	case StateRunning, StatePending:
		*state = run
	}
}

// stopEnd is when a stopped run's last in-flight upgrade ended.
func (s *segment) stopEnd(now time.Time) time.Time {
	end := s.stoppedAt
	for _, k := range s.order {
		if !k.end.IsZero() && !k.end.After(now) && k.end.After(end) && !k.start.After(s.stoppedAt) {
			end = k.end
		}
	}
	return end
}

func nonFuture(t, now time.Time) time.Time {
	if t.After(now) {
		return time.Time{}
	}
	return t
}

func allStates(ss []string, want string) bool {
	for _, s := range ss {
		if s != want {
			return false
		}
	}
	return len(ss) > 0
}
