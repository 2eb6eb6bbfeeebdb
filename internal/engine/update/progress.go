package update

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The simulation of a run over time: stages one after another, groups in
// parallel, members within concurrency, waits, gates, stop, skip and failure
// (designs/updates.md §4).

// Gate positions.
const (
	TimingBefore = "Before"
	TimingAfter  = "After"
)

// GateKey names the gates at one position of a strategy: "<stage>:before",
// "<stage>:after", "<stage>/<group>:before", "<stage>/<group>:after".
// Approving a key completes every gate at that position.
func GateKey(stage, group, timing string) string {
	k := stage
	if group != "" {
		k += "/" + group
	}
	return k + ":" + strings.ToLower(timing)
}

// horizon bounds a simulation: nothing is predicted further ahead.
const horizon = 10 * 365 * 24 * time.Hour

// track is one member's course through a run.
type track struct {
	m               *Member
	stage, group    int
	reached         time.Time
	outcome, reason string
	msg             string
	start, end      time.Time // the upgrade; start zero: never started (within the horizon)
	deferred        bool      // Pending when reached, starts later
	skippedAt       time.Time // skipped by the user
	failed          bool
	fromK8s, toK8s  string
	images          map[string]string // family -> version the upgrade installs
	fromImg, toImg  string
	priority        int
	prioUntil       time.Time
	carried         bool // completed by an earlier start of the run
	carriedStatus   MemberStatus
	finished        bool   // the upgrade ended (completed or failed)
	fails           string // the error the upgrade ends with; empty: it succeeds
	failsAtOnce     bool   // refused when it starts, not after the upgrade duration
	bringBack       []string
	seq             int // the order in which the run reached the member
}

// gateTrack is the gates at one position of the strategy.
type gateTrack struct {
	key, timing string
	names       []string // display names, one per gate; none: nothing to wait for
	reached     time.Time
	released    time.Time
	skipped     bool
}

func newGate(stage, group, timing string, gates []Gate) gateTrack {
	return gateTrack{key: GateKey(stage, group, timing), timing: timing, names: gateNames(gates)}
}

type groupTrack struct {
	name          string
	members       []*track
	queue         []*track
	inflight      int
	start, end    time.Time
	phase         int // 0 before gates, 1 members, 2 after gates, 3 done
	before, after gateTrack
	userSkippedAt time.Time
	concurrency   int
}

type stageTrack struct {
	name          string
	groups        []*groupTrack
	start, end    time.Time
	phase         int // 0 not started, 1 before gates, 2 groups, 3 after (gates + wait), 4 done
	before, after gateTrack
	wait          time.Duration
	waitStart     time.Time
	waitEnd       time.Time
	waitSkipped   bool
	userSkippedAt time.Time
	concurrency   int
	inflight      int
}

// segment is one start of the run: from its start event until the next one.
type segment struct {
	x            *Execution
	cat          catalog
	start        time.Time
	stages       []*stageTrack
	order        []*track
	current      int
	stoppedAt    time.Time
	failedAt     time.Time
	failedMsg    string
	endAt        time.Time
	selected     map[string]string // Consistent selection
	approvals    map[string]time.Time
	reachedCount int
	active       []*track // reached, with an upgrade not yet ended
	rel          *releaseIndex
}

// releases are the GA releases at t (for a profile's run), indexed on first use.
func (s *segment) releases(t time.Time) Releases {
	if s.rel == nil {
		s.rel = newReleaseIndex(s.x.Regions)
	}
	return s.rel.at(t)
}

func strategyOf(x *Execution) Strategy {
	if x.Strategy != nil {
		return *x.Strategy
	}
	return Strategy{Stages: []Stage{{Name: OneByOneStage, Groups: []Group{{Name: OneByOneGroup}}}}}
}

// newSegment lays out stages, groups and members for a start at t0.
func newSegment(x *Execution, cat catalog, members []Member, t0 time.Time, carried map[string]MemberStatus) *segment {
	s := &segment{x: x, cat: cat, start: t0, approvals: map[string]time.Time{}}
	st := strategyOf(x)
	byGroup := map[string][]*Member{}
	for i := range members {
		m := &members[i]
		g := m.Group
		if x.Strategy == nil {
			g = OneByOneGroup
		}
		byGroup[g] = append(byGroup[g], m)
	}
	if x.Update.NodeImageSelection.Type == NodeImageConsistent {
		s.selected = cat.consistentImages(members, t0)
	}
	for si, stg := range st.Stages {
		sk := &stageTrack{name: stg.Name, wait: time.Duration(stg.AfterStageWait()) * time.Second}
		sk.before, sk.after = newGate(stg.Name, "", TimingBefore, stg.BeforeGates), newGate(stg.Name, "", TimingAfter, stg.AfterGates)
		total := 0
		for _, g := range stg.Groups {
			gk := &groupTrack{name: g.Name}
			gk.before, gk.after = newGate(stg.Name, g.Name, TimingBefore, g.BeforeGates), newGate(stg.Name, g.Name, TimingAfter, g.AfterGates)
			for _, m := range byGroup[g.Name] {
				t := &track{m: m, stage: si, group: len(sk.groups)}
				if cs, ok := carried[m.Name]; ok {
					t.carried, t.carriedStatus = true, cs
				} else {
					gk.queue = append(gk.queue, t)
				}
				gk.members = append(gk.members, t)
				s.order = append(s.order, t)
			}
			gk.concurrency = ResolveConcurrency(g.MaxConcurrency, len(gk.members), 1)
			total += len(gk.members)
			sk.groups = append(sk.groups, gk)
		}
		sk.concurrency = ResolveConcurrency(stg.MaxConcurrency, total, 50)
		s.stages = append(s.stages, sk)
	}
	return s
}

func gateNames(gs []Gate) []string {
	out := make([]string, 0, len(gs))
	for i, g := range gs {
		n := g.DisplayName
		if n == "" {
			n = fmt.Sprintf("gate %d", i+1)
		}
		out = append(out, n)
	}
	return out
}

// released reports whether the gates at a position let the run pass at t.
func (s *segment) gateOpen(g *gateTrack, t time.Time) bool {
	if len(g.names) == 0 || g.skipped {
		return true
	}
	if g.reached.IsZero() {
		g.reached = t
	}
	if at, ok := s.approvals[g.key]; ok && !at.After(t) {
		if g.released.IsZero() {
			g.released = t
		}
		return true
	}
	return false
}

// halted: nothing new starts (designs/updates.md §4: stop and failure).
func (s *segment) halted(t time.Time) bool {
	return (!s.stoppedAt.IsZero() && !s.stoppedAt.After(t)) || (!s.failedAt.IsZero() && !s.failedAt.After(t))
}

// skip applies a user skip at t.
func (s *segment) skip(targets []SkipTarget, t time.Time) {
	skipMember := func(k *track) {
		if k.carried || !k.skippedAt.IsZero() {
			return
		}
		started := !k.start.IsZero() && !k.start.After(t) && !k.reached.IsZero()
		if started && k.outcome != OutcomeSkipped {
			return // in flight: an upgrade is not aborted
		}
		if k.outcome == OutcomeSkipped && !k.reached.IsZero() {
			return
		}
		k.skippedAt = t
		g := s.stages[k.stage].groups[k.group]
		if i := slices.Index(g.queue, k); i >= 0 {
			g.queue = slices.Delete(g.queue, i, i+1)
		}
	}
	skipGroup := func(g *groupTrack) {
		if g.userSkippedAt.IsZero() {
			g.userSkippedAt = t
		}
		g.before.skipped, g.after.skipped = true, true
		for _, k := range g.members {
			skipMember(k)
		}
	}
	for _, tg := range targets {
		for _, st := range s.stages {
			switch tg.Type {
			case TargetStage, TargetAfterStageWait:
				if st.name != tg.Name {
					continue
				}
				st.waitSkipped = true
				if st.phase == 3 && st.waitEnd.After(t) {
					st.waitEnd = t
				}
				if tg.Type == TargetStage {
					if st.userSkippedAt.IsZero() {
						st.userSkippedAt = t
					}
					st.before.skipped, st.after.skipped = true, true
					for _, g := range st.groups {
						skipGroup(g)
					}
				}
			case TargetGroup:
				for _, g := range st.groups {
					if g.name == tg.Name {
						skipGroup(g)
					}
				}
			case TargetMember:
				for _, g := range st.groups {
					for _, k := range g.members {
						if k.m.Name == tg.Name {
							skipMember(k)
						}
					}
				}
			}
		}
	}
}

// advance makes every transition possible at t, until none is left.
func (s *segment) advance(t time.Time) (any bool) {
	for changed := true; changed; any = any || changed {
		changed = false
		if s.current >= len(s.stages) {
			if s.endAt.IsZero() {
				s.endAt = t
			}
			return any
		}
		st := s.stages[s.current]
		switch st.phase {
		case 0:
			if s.halted(t) {
				return any
			}
			st.phase, st.start, changed = 1, t, true
		case 1:
			if s.halted(t) || !s.gateOpen(&st.before, t) {
				return any
			}
			st.phase, changed = 2, true
			for _, g := range st.groups {
				g.start = t
			}
		case 2:
			done := true
			for _, g := range st.groups {
				if s.advanceGroup(st, g, t) {
					changed = true
				}
				if g.phase != 3 {
					done = false
				}
			}
			if done {
				st.phase, st.waitStart, changed = 3, t, true
				st.waitEnd = t.Add(st.wait)
				if st.waitSkipped {
					st.waitEnd = t
				}
			}
		case 3:
			if !s.failedAt.IsZero() && !s.failedAt.After(t) {
				return any
			}
			gates := s.gateOpen(&st.after, t)
			if !gates || st.waitEnd.After(t) {
				return any
			}
			st.phase, st.end, changed = 4, t, true
			s.current++
		}
	}
	return any
}

// advanceGroup moves one group of the current stage at t; it reports a change.
func (s *segment) advanceGroup(st *stageTrack, g *groupTrack, t time.Time) bool {
	changed := false
	if g.phase == 0 {
		if !s.halted(t) && s.gateOpen(&g.before, t) {
			g.phase, changed = 1, true
		} else if !g.userSkippedAt.IsZero() {
			g.phase, changed = 1, true
		}
	}
	if g.phase == 1 {
		for len(g.queue) > 0 && !s.halted(t) && g.inflight < g.concurrency && st.inflight < st.concurrency {
			k := pick(g, t)
			s.reach(k, t)
			changed = true
			if k.outcome == OutcomeSkipped {
				continue
			}
			if k.start.IsZero() {
				continue // pending for good within the horizon
			}
			s.active = append(s.active, k)
			if k.deferred {
				continue // waits for its window or release without a slot
			}
			k.end = k.start.Add(s.duration(k))
			g.inflight++
			st.inflight++
		}
		if len(g.queue) == 0 && g.inflight == 0 && s.allSettled(g, t) {
			g.phase, changed = 2, true
		}
	}
	if g.phase == 2 {
		if (!s.failedAt.IsZero() && !s.failedAt.After(t)) || !s.gateOpen(&g.after, t) {
			return changed
		}
		g.phase, g.end, changed = 3, t, true
	}
	return changed
}

// allSettled: every member of the group is done (or skipped, or pending for good) at t.
func (s *segment) allSettled(g *groupTrack, t time.Time) bool {
	for _, k := range g.members {
		if k.carried || !k.skippedAt.IsZero() || k.outcome == OutcomeSkipped {
			continue
		}
		if k.reached.IsZero() || k.start.IsZero() || k.end.IsZero() || k.end.After(t) || k.failed {
			return false
		}
	}
	return true
}

// nextTime is the next instant something can change after t (zero: nothing will).
func (s *segment) nextTime(t time.Time, events []Event) time.Time {
	var next time.Time
	consider := func(x time.Time) {
		if x.After(t) && (next.IsZero() || x.Before(next)) {
			next = x
		}
	}
	for _, e := range events {
		consider(e.At)
	}
	for _, k := range s.active {
		consider(k.start)
		consider(k.end)
	}
	if s.current < len(s.stages) {
		st := s.stages[s.current]
		if st.phase == 3 {
			consider(st.waitEnd)
		}
		if st.phase == 2 {
			for _, g := range st.groups {
				for _, k := range g.queue {
					if k.prioUntil.After(t) {
						consider(k.prioUntil)
					}
				}
			}
		}
	}
	return next
}

// simulate runs the segment from its start until nothing changes any more.
// pre are the skips made for this start (before it, or while the run was not
// running): they hold from the start, before anything moves. events are the
// user's actions during the segment (after the start, before the next one):
// each applies after what the run did at its instant — the run is in the
// state the hub reported when the action was made (designs/updates.md §4) —
// so that actions made at the same instant as the start, or as an upgrade
// that starts or ends (a fixed clock, a zero upgrade duration), do not
// rewrite what the run had done: a stop does not undo the upgrades begun at
// its instant, a skip does not undo a failure already reported.
func (s *segment) simulate(pre, events []Event) {
	t := s.start
	limit := s.start.Add(horizon)
	for _, e := range pre {
		s.apply(e, t)
	}
	i := 0
	for {
		// Upgrades that start or end at t, and what they let move on, until
		// nothing more happens at t (a zero upgrade duration ends at its start);
		// then the user's actions at t, and what they let move on.
		s.settleAll(t)
		applied := false
		for ; i < len(events) && !events[i].At.After(t); i++ {
			s.apply(events[i], t)
			applied = true
		}
		if applied {
			s.settleAll(t)
		}
		next := s.nextTime(t, events[i:])
		if next.IsZero() || next.After(limit) {
			return
		}
		t = next
	}
}

// apply records one user action at t.
func (s *segment) apply(e Event, t time.Time) {
	switch e.Action {
	case ActionStop:
		if s.stoppedAt.IsZero() {
			s.stoppedAt = e.At
		}
	case ActionSkip:
		s.skip(e.Targets, t)
	case ActionApprove:
		if _, ok := s.approvals[e.Gate]; !ok {
			s.approvals[e.Gate] = e.At
		}
	}
}

// settleAll settles and advances the segment at t until nothing changes.
func (s *segment) settleAll(t time.Time) {
	for s.settle(t) || s.advance(t) {
	}
}

// settle starts the deferred upgrades due at t and ends those due at t; it
// reports a change.
func (s *segment) settle(t time.Time) bool {
	changed := false
	keep := s.active[:0]
	defer func() { s.active = keep }()
	for _, k := range s.active {
		if !k.skippedAt.IsZero() {
			continue
		}
		if k.deferred && k.end.IsZero() && !k.start.IsZero() && !k.start.After(t) {
			if s.halted(t) {
				k.start = time.Time{} // never starts: the run stopped or failed first
				changed = true
				continue
			}
			k.end, changed = k.start.Add(s.duration(k)), true
			g := s.stages[k.stage].groups[k.group]
			g.inflight++
			s.stages[k.stage].inflight++
		}
		if k.end.IsZero() || k.end.After(t) {
			keep = append(keep, k)
			continue
		}
		k.finished, changed = true, true
		if k.fails != "" {
			k.failed = true
			if s.failedAt.IsZero() {
				s.failedAt = k.end
				s.failedMsg = fmt.Sprintf("member %s (group %s, stage %s) failed: %s", k.m.Name,
					s.stages[k.stage].groups[k.group].name, s.stages[k.stage].name, k.fails)
			}
		}
		g := s.stages[k.stage].groups[k.group]
		g.inflight--
		s.stages[k.stage].inflight--
	}
	return changed
}

// duration is how long a member's upgrade takes: none when it is refused at once.
func (s *segment) duration(k *track) time.Duration {
	if k.failsAtOnce {
		return 0
	}
	return s.x.UpgradeDuration
}
