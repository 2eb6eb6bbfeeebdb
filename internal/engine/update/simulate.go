package update

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

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
}

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

// Outcomes a run predicts for a member when it reaches it (designs/updates.md §3).
const (
	OutcomeUpgrade = "Upgrade"
	OutcomeSkipped = "Skipped"
	OutcomePending = "Pending"
)

// Reasons for skipped and pending members.
const (
	ReasonUpToDate           = "already-up-to-date"
	ReasonNoConsistentImage  = "no-consistent-image"
	ReasonWindowClosed       = "maintenance-window-closed"
	ReasonVersionNotInRegion = "version-not-in-region"
	ReasonSkippedByUser      = "skipped-by-user"
)

// OneByOneStage and OneByOneGroup name the single stage and group of a run
// without a strategy: every member, one at a time.
const (
	OneByOneStage = "default"
	OneByOneGroup = "default"
)

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
	finished        bool // the upgrade ended (completed or failed)
	seq             int  // the order in which the run reached the member
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

// reach decides a member's outcome when the run reaches it at t (designs/updates.md §3).
func (s *segment) reach(k *track, t time.Time) {
	s.reachedCount++
	k.reached, k.seq = t, s.reachedCount
	m := k.m
	up := s.x.Update
	k.fromK8s = m.KubernetesVersion
	// What the upgrade installs.
	wantK8s := up.Upgrade.Type != UpgradeNodeImageOnly
	wantImages := up.Upgrade.Type != UpgradeControlPlaneOnly
	available := time.Time{} // earliest instant everything is released in the member's region
	notInRegion := false
	if wantK8s {
		v, rel, ok := s.cat.kubernetes(m.Region, up.Upgrade.KubernetesVersion, t)
		switch {
		case !ok:
			notInRegion = true
			k.toK8s = strings.TrimLeft(up.Upgrade.KubernetesVersion, "vV")
		default:
			k.toK8s = v
			if rel.After(available) {
				available = rel
			}
		}
	}
	if wantImages {
		k.images = map[string]string{}
		for _, np := range m.NodePools {
			var v string
			switch up.NodeImageSelection.Type {
			case NodeImageConsistent:
				sel, ok := s.selected[np.Family]
				if !ok {
					k.outcome, k.reason = OutcomeSkipped, ReasonNoConsistentImage
					k.msg = fmt.Sprintf("no node image of family %s is available in every region of the run", np.Family)
					return
				}
				v = sel
			case NodeImageCustom:
				for _, c := range up.NodeImageSelection.CustomNodeImageVersions {
					if fam, ver, ok := SplitNodeImageVersion(c); ok && fam == np.Family {
						v = ver
					}
				}
				if v == "" {
					v = np.Version // no custom version for this family: unchanged
				}
			default: // Latest: the newest released in the region when the upgrade starts
				if nv, ok := s.cat.newestImage(m.Region, np.Family, t); ok {
					v = nv
				} else {
					v = np.Version
				}
			}
			if v != np.Version {
				rel, ok := s.cat.imageReleased(m.Region, np.Family, v)
				switch {
				case !ok && up.NodeImageSelection.Type != NodeImageLatest:
					notInRegion = true
				case ok && rel.After(available):
					available = rel
				}
			}
			k.images[np.Family] = v
		}
		k.fromImg, k.toImg = imageSummary(m.NodePools, nil), imageSummary(m.NodePools, k.images)
	}
	// Already up to date.
	k8sDone := !wantK8s || sameVersion(m.KubernetesVersion, k.toK8s)
	imgDone := true
	if wantImages {
		for _, np := range m.NodePools {
			if k.images[np.Family] != np.Version {
				imgDone = false
			}
		}
	}
	if k8sDone && imgDone && !notInRegion {
		k.outcome, k.reason = OutcomeSkipped, ReasonUpToDate
		k.msg = "already up to date"
		return
	}
	if wantK8s && !notInRegion && newerVersion(m.KubernetesVersion, k.toK8s) {
		k.outcome, k.reason = OutcomeSkipped, ReasonUpToDate
		k.msg = fmt.Sprintf("already at %s, newer than the target %s", m.KubernetesVersion, k.toK8s)
		return
	}
	// When it can start: released in its region and its window open.
	startAt := t
	if notInRegion {
		k.outcome, k.reason, k.deferred = OutcomePending, ReasonVersionNotInRegion, true
		k.msg = fmt.Sprintf("the target version is not available in region %s", m.Region)
		return // never starts: the catalog does not have it
	}
	if available.After(startAt) {
		k.outcome, k.reason, k.deferred = OutcomePending, ReasonVersionNotInRegion, true
		k.msg = fmt.Sprintf("the target version is released in region %s at %s", m.Region, available.UTC().Format(time.RFC3339))
		startAt = available
	}
	if m.Window != nil {
		ws := m.Window.At(startAt)
		if !ws.Open {
			if !k.deferred {
				k.outcome, k.reason, k.deferred = OutcomePending, ReasonWindowClosed, true
				if ws.HasNext {
					k.msg = "maintenance window closed; next opening " + ws.NextOpening.UTC().Format(time.RFC3339)
				} else {
					k.msg = "maintenance window closed; it does not open again"
				}
			}
			if !ws.HasNext {
				return
			}
			startAt = ws.NextOpening
		}
	}
	if !k.deferred {
		k.outcome = OutcomeUpgrade
		k.msg = "upgrade " + k.describe()
	}
	k.start = startAt
}

func (k *track) describe() string {
	switch {
	case k.toK8s != "" && k.fromK8s != k.toK8s:
		return k.fromK8s + " → " + k.toK8s
	case k.toImg != "":
		return k.fromImg + " → " + k.toImg
	}
	return ""
}

// imageSummary renders a member's node images (with images applied when given).
func imageSummary(pools []MemberNodePool, images map[string]string) string {
	seen := map[string]bool{}
	var parts []string
	for _, np := range pools {
		v := np.Version
		if images != nil {
			if nv, ok := images[np.Family]; ok {
				v = nv
			}
		}
		s := np.Family + "-" + v
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

func sameVersion(a, b string) bool {
	va, ea := ParseVersion(a)
	vb, eb := ParseVersion(b)
	return ea == nil && eb == nil && va == vb
}

func newerVersion(cur, target string) bool {
	vc, ec := ParseVersion(cur)
	vt, et := ParseVersion(target)
	return ec == nil && et == nil && vt.Less(vc)
}

// priorityAt is the member's maintenance-window priority at t, cached while it cannot change.
func (k *track) priorityAt(t time.Time) int {
	if k.prioUntil.After(t) {
		return k.priority
	}
	w := k.m.Window
	if w == nil {
		k.priority, k.prioUntil = fleet.PriorityNoWindow, t.Add(horizon)
		return k.priority
	}
	ws := w.At(t)
	switch {
	case ws.Open:
		k.priority, k.prioUntil = fleet.PriorityOpen, ws.ClosesAt
	case ws.HasNext && !ws.NextOpening.After(t.Add(fleet.OpensSoon)):
		k.priority, k.prioUntil = fleet.PriorityOpensSoon, ws.NextOpening
	case ws.HasNext:
		k.priority, k.prioUntil = fleet.PriorityClosed, ws.NextOpening.Add(-fleet.OpensSoon)
	default:
		k.priority, k.prioUntil = fleet.PriorityClosed, t.Add(horizon)
	}
	return k.priority
}

// pick takes the group's next member at t: maintenance-window priority, then name.
func pick(g *groupTrack, t time.Time) *track {
	best := -1
	for i, k := range g.queue {
		if best < 0 {
			best = i
			continue
		}
		b := g.queue[best]
		pk, pb := k.priorityAt(t), b.priorityAt(t)
		if pk < pb || (pk == pb && k.m.Name < b.m.Name) {
			best = i
		}
	}
	k := g.queue[best]
	g.queue = slices.Delete(g.queue, best, best+1)
	return k
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
			k.end = k.start.Add(s.x.UpgradeDuration)
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

// simulate runs the segment from its start until nothing changes any more,
// applying the user's events (those after the start, before the next start).
func (s *segment) simulate(events []Event) {
	t := s.start
	limit := s.start.Add(horizon)
	i := 0
	for {
		for ; i < len(events) && !events[i].At.After(t); i++ {
			e := events[i]
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
		// Upgrades that start or end at t, and what they let move on, until
		// nothing more happens at t (a zero upgrade duration ends at its start).
		for s.settle(t) || s.advance(t) {
		}
		next := s.nextTime(t, events[i:])
		if next.IsZero() || next.After(limit) {
			return
		}
		t = next
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
			k.end, changed = k.start.Add(s.x.UpgradeDuration), true
			g := s.stages[k.stage].groups[k.group]
			g.inflight++
			s.stages[k.stage].inflight++
		}
		if k.end.IsZero() || k.end.After(t) {
			keep = append(keep, k)
			continue
		}
		k.finished, changed = true, true
		if k.m.Failure != "" {
			k.failed = true
			if s.failedAt.IsZero() {
				s.failedAt = k.end
				s.failedMsg = fmt.Sprintf("member %s (group %s, stage %s) failed: %s", k.m.Name,
					s.stages[k.stage].groups[k.group].name, s.stages[k.stage].name, k.m.Failure)
			}
		}
		g := s.stages[k.stage].groups[k.group]
		g.inflight--
		s.stages[k.stage].inflight--
	}
	return changed
}

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
	carried := map[string]MemberStatus{}
	var last *segment
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
		// Skips made before the first start apply to it.
		if n == 0 {
			var pre []Event
			for _, ev := range x.Events[:si] {
				if ev.Action == ActionSkip {
					c := ev
					c.At = e.At
					pre = append(pre, c)
				}
			}
			evs = append(pre, evs...)
		}
		seg := newSegment(x, cat, e.Members, e.At, carried)
		seg.simulate(evs)
		last = seg
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
		ms.State, ms.Message, ms.StartTime, ms.EndTime = StateFailed, k.m.Failure, k.start, k.end
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
