package update

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// The run's behaviour (designs/updates.md §3, §4) on a small fleet. Each
// test states the upstream rule it reproduces: Azure's
// concepts-update-orchestration (seed 001) and the ARM examples.

var t0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) // a Monday

const img = "AKSUbuntu-2204gen2containerd"

func regions(names ...string) []fleet.Region {
	var out []fleet.Region
	for _, n := range names {
		out = append(out, fleet.Region{Name: n,
			KubernetesVersions: []fleet.KubernetesRelease{
				{Version: "1.29.7", ReleasedAt: t0.AddDate(0, -6, 0)},
				{Version: "1.30.5", ReleasedAt: t0.AddDate(0, -1, 0)},
				{Version: "1.31.1", Preview: true, ReleasedAt: t0.AddDate(0, 0, -1)},
			},
			NodeImages: []fleet.NodeImageRelease{
				{Family: img, Version: "202610.01.0", ReleasedAt: t0.AddDate(0, -2, 0)},
				{Family: img, Version: "202611.03.0", ReleasedAt: t0.AddDate(0, 0, -7)},
			},
		})
	}
	return out
}

func member(name, region, group, k8s, image string) Member {
	return Member{Name: name, Region: region, Group: group, KubernetesVersion: k8s,
		NodePools: []MemberNodePool{{Name: "system", Family: img, Version: image}}}
}

func weekly(day string, start string) *fleet.MaintenanceWindow {
	return &fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule{Type: fleet.ScheduleWeekly, IntervalWeeks: 1, DayOfWeek: day},
		StartTime: start, DurationHours: 4, StartDate: "2026-01-01"}
}

func full(v string) ManagedClusterUpdate {
	return ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeFull, KubernetesVersion: v}, NodeImageSelection: NodeImageSelection{Type: NodeImageLatest}}
}

func oneStage(groups ...string) *Strategy {
	s := Stage{Name: "s1"}
	for _, g := range groups {
		s.Groups = append(s.Groups, Group{Name: g})
	}
	return &Strategy{Stages: []Stage{s}}
}

func start(at time.Time, ms ...Member) Event { return Event{Action: ActionStart, At: at, Members: ms} }

func memberStates(st RunStatus) map[string]string {
	out := map[string]string{}
	for _, m := range st.Members() {
		out[m.Name] = m.State
	}
	return out
}

func previewOrder(p Preview) []string {
	var out []string
	for _, m := range p.Members() {
		out = append(out, m.Name)
	}
	return out
}

// Seed 001, "ordre de priorité": within a group, members whose window is
// open go first, then those opening within 4 hours, then those without a
// window, then closed ones; ties by name.
func TestPreviewPriorityOrder(t *testing.T) {
	now := time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC) // Monday 03:00
	ms := []Member{
		member("a-closed", "r1", "g", "1.29.7", "202610.01.0"),
		member("b-none", "r1", "g", "1.29.7", "202610.01.0"),
		member("c-soon", "r1", "g", "1.29.7", "202610.01.0"),
		member("d-open", "r1", "g", "1.29.7", "202610.01.0"),
		member("e-none", "r1", "g", "1.29.7", "202610.01.0"),
	}
	ms[0].Window = weekly("Thursday", "02:00")
	ms[2].Window = weekly("Monday", "06:00") // opens in 3 h
	ms[3].Window = weekly("Monday", "02:00") // open until 06:00
	p := PreviewRun(full("1.30.5"), oneStage("g"), ms, regions("r1"), 0, now)
	if got, want := previewOrder(p), []string{"d-open", "c-soon", "b-none", "e-none", "a-closed"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	var prios []int
	for _, m := range p.Members() {
		prios = append(prios, m.Priority)
	}
	if want := []int{1, 2, 3, 3, 4}; !slices.Equal(prios, want) {
		t.Errorf("priorities %v, want %v", prios, want)
	}
	// The member behind a closed window waits: Pending with its next opening,
	// and its estimated upgrade starts then.
	last := p.Members()[4]
	if last.Outcome != OutcomePending || last.Reason != ReasonWindowClosed || !strings.Contains(last.Message, "2026-11-26T02:00:00Z") {
		t.Errorf("closed member: %+v", last)
	}
	if want := time.Date(2026, 11, 26, 2, 0, 0, 0, time.UTC); !last.Start.Equal(want) {
		t.Errorf("closed member starts %s, want %s", last.Start, want)
	}
	// The member opening soon is reached while closed too, and waits 3 hours.
	if c := p.Members()[1]; c.Outcome != OutcomePending || !c.Start.Equal(now.Add(3*time.Hour)) {
		t.Errorf("opening-soon member: %+v", c)
	}
}

// Seed 001: "Lorsqu'un membre passe à Pending, l'exécution de la mise à jour
// tente de mettre à niveau le membre suivant dans le groupe"; the group is
// Pending when all its members are Pending or not started, and the run
// waits on it; once the window opens the member is upgraded.
func TestPendingMemberLetsTheGroupContinue(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ms := []Member{member("a", "r1", "g", "1.29.7", "202610.01.0"), member("b", "r1", "g", "1.29.7", "202610.01.0")}
	ms[0].Window = weekly("Tuesday", "02:00") // next opening Tue 02:00, 14 h away
	x := &Execution{Update: full("1.30.5"), Strategy: oneStage("g"), Regions: regions("r1"), UpgradeDuration: time.Hour,
		Events: []Event{start(now, ms...)}}
	// b (no window, priority 3) goes before a (closed, priority 4).
	st := x.Status(now.Add(30 * time.Minute))
	if got := memberStates(st); got["a"] != StateNotStarted || got["b"] != StateRunning {
		t.Fatalf("after 30 min: %v", got)
	}
	st = x.Status(now.Add(2 * time.Hour))
	if got := memberStates(st); got["a"] != StatePending || got["b"] != StateCompleted {
		t.Fatalf("after 2 h: %v", got)
	}
	if st.Stages[0].Groups[0].State != StatePending || st.Stages[0].State != StatePending || st.State != StatePending {
		t.Errorf("roll-up with only a pending member left: group %s stage %s run %s, want Pending",
			st.Stages[0].Groups[0].State, st.Stages[0].State, st.State)
	}
	if !strings.Contains(st.Stages[0].Groups[0].Members[0].Message, "next opening 2026-11-24T02:00:00Z") {
		t.Errorf("pending message: %q", st.Stages[0].Groups[0].Members[0].Message)
	}
	st = x.Status(time.Date(2026, 11, 24, 3, 30, 0, 0, time.UTC))
	if st.State != StateCompleted || memberStates(st)["a"] != StateCompleted {
		t.Fatalf("after the window opened: run %s, members %v", st.State, memberStates(st))
	}
}

// Seed 001/002 and designs/updates.md §3: the system skips a member already
// at the target, by upgrade type.
func TestSkippedAlreadyUpToDate(t *testing.T) {
	ms := []Member{
		member("cp-done-images-old", "r1", "", "1.30.5", "202610.01.0"),
		member("all-done", "r1", "", "1.30.5", "202611.03.0"),
		member("behind", "r1", "", "1.29.7", "202611.03.0"),
	}
	for _, tc := range []struct {
		upgrade Upgrade
		want    map[string]string
	}{
		{Upgrade{Type: UpgradeControlPlaneOnly, KubernetesVersion: "1.30.5"},
			map[string]string{"cp-done-images-old": OutcomeSkipped, "all-done": OutcomeSkipped, "behind": OutcomeUpgrade}},
		{Upgrade{Type: UpgradeFull, KubernetesVersion: "1.30.5"},
			map[string]string{"cp-done-images-old": OutcomeUpgrade, "all-done": OutcomeSkipped, "behind": OutcomeUpgrade}},
		{Upgrade{Type: UpgradeNodeImageOnly},
			map[string]string{"cp-done-images-old": OutcomeUpgrade, "all-done": OutcomeSkipped, "behind": OutcomeSkipped}},
	} {
		t.Run(tc.upgrade.Type, func(t *testing.T) {
			p := PreviewRun(ManagedClusterUpdate{Upgrade: tc.upgrade}, nil, ms, regions("r1"), time.Hour, t0)
			for _, m := range p.Members() {
				if m.Outcome != tc.want[m.Name] {
					t.Errorf("%s: %s (%s), want %s", m.Name, m.Outcome, m.Message, tc.want[m.Name])
				}
				if m.Outcome == OutcomeSkipped && m.Reason != ReasonUpToDate {
					t.Errorf("%s: reason %s", m.Name, m.Reason)
				}
			}
		})
	}
}

// designs/updates.md §3: Consistent picks, per family, the newest image
// released in every region of the run; a member whose family has none is
// skipped. Latest picks the newest of each member's own region.
func TestNodeImageSelection(t *testing.T) {
	rs := regions("r1", "r2")
	rs[1].NodeImages = rs[1].NodeImages[:1] // r2 has only 202610.01.0
	rs = append(rs, fleet.Region{Name: "r3", NodeImages: []fleet.NodeImageRelease{{Family: img, Version: "202610.01.0", ReleasedAt: t0.AddDate(0, 0, -30)},
		{Family: "Windows2022", Version: "202611.01.0", ReleasedAt: t0.AddDate(0, 0, -3)}}})
	ms := []Member{
		member("m1", "r1", "", "1.29.7", "202609.01.0"),
		member("m2", "r2", "", "1.29.7", "202609.01.0"),
		{Name: "m3", Region: "r3", KubernetesVersion: "1.29.7", NodePools: []MemberNodePool{{Name: "np", Family: "Windows2022", Version: "1"}}},
	}
	nio := ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeNodeImageOnly}, NodeImageSelection: NodeImageSelection{Type: NodeImageConsistent}}
	p := PreviewRun(nio, nil, ms, rs, time.Hour, t0)
	if got := p.SelectedNodeImages[img]; got != "202610.01.0" {
		t.Errorf("consistent %s = %q, want 202610.01.0, the newest released in r1, r2 and r3: %v", img, got, p.SelectedNodeImages)
	}
	got := map[string]MemberPreview{}
	for _, m := range p.Members() {
		got[m.Name] = m
	}
	if got["m3"].Outcome != OutcomeSkipped || got["m3"].Reason != ReasonNoConsistentImage {
		t.Errorf("m3: %+v", got["m3"])
	}
	if !strings.HasSuffix(got["m1"].To, "202610.01.0") || !strings.HasSuffix(got["m2"].To, "202610.01.0") {
		t.Errorf("consistent targets: m1 %s, m2 %s", got["m1"].To, got["m2"].To)
	}
	nio.NodeImageSelection.Type = NodeImageLatest
	p = PreviewRun(nio, nil, ms[:2], rs, time.Hour, t0)
	if a, b := p.Members()[0].To, p.Members()[1].To; !strings.HasSuffix(a, "202611.03.0") || !strings.HasSuffix(b, "202610.01.0") {
		t.Errorf("latest targets: m1 %s, m2 %s", a, b)
	}
}

// Seed 001 "Échec": a failed member marks its group, stage and run Failed and
// the run goes no further; a re-run re-applies only what failed or was skipped.
func TestFailureThenRerun(t *testing.T) {
	ms := []Member{member("a", "r1", "g1", "1.29.7", "202611.03.0"), member("b", "r1", "g1", "1.29.7", "202611.03.0"),
		member("c", "r1", "g2", "1.29.7", "202611.03.0")}
	ms[1].Failure = "the API server did not come back"
	s := &Strategy{Stages: []Stage{{Name: "s1", Groups: []Group{{Name: "g1"}}}, {Name: "s2", Groups: []Group{{Name: "g2"}}}}}
	x := &Execution{Update: full("1.30.5"), Strategy: s, Regions: regions("r1"), UpgradeDuration: time.Hour, Events: []Event{start(t0, ms...)}}
	st := x.Status(t0.Add(5 * time.Hour))
	if st.State != StateFailed || st.Stages[0].State != StateFailed || st.Stages[0].Groups[0].State != StateFailed {
		t.Fatalf("run %s, stage %s, group %s: want Failed", st.State, st.Stages[0].State, st.Stages[0].Groups[0].State)
	}
	if want := "member b (group g1, stage s1) failed: the API server did not come back"; st.Message != want {
		t.Errorf("message %q, want %q", st.Message, want)
	}
	if got := memberStates(st); got["a"] != StateCompleted || got["b"] != StateFailed || got["c"] != StateNotStarted {
		t.Errorf("members %v", got)
	}
	// Fixed, and re-run: only b and c are upgraded; a keeps its first upgrade.
	fixed := slices.Clone(ms)
	fixed[0].KubernetesVersion = "1.30.5"
	fixed[1].Failure = ""
	rerun := t0.Add(6 * time.Hour)
	x.Events = append(x.Events, start(rerun, fixed...))
	st = x.Status(rerun.Add(5 * time.Hour))
	if st.State != StateCompleted {
		t.Fatalf("re-run: %s %s", st.State, st.Message)
	}
	for _, m := range st.Members() {
		if m.State != StateCompleted {
			t.Errorf("%s: %s", m.Name, m.State)
		}
		if m.Name == "a" && !m.EndTime.Equal(t0.Add(time.Hour)) {
			t.Errorf("a was upgraded again: ended %s", m.EndTime)
		}
		if m.Name == "b" && !m.StartTime.Equal(rerun) {
			t.Errorf("b starts %s, want the re-run's start", m.StartTime)
		}
	}
}

// Seed 001 "Arrêté": stopping does not abort upgrades in flight; nothing new starts.
func TestStopLetsInFlightUpgradesFinish(t *testing.T) {
	ms := []Member{member("a", "r1", "", "1.29.7", "202611.03.0"), member("b", "r1", "", "1.29.7", "202611.03.0")}
	x := &Execution{Update: full("1.30.5"), Regions: regions("r1"), UpgradeDuration: time.Hour,
		Events: []Event{start(t0, ms...), {Action: ActionStop, At: t0.Add(10 * time.Minute)}}}
	if st := x.Status(t0.Add(20 * time.Minute)); st.State != StateStopping || memberStates(st)["a"] != StateRunning {
		t.Fatalf("while a is in flight: %s %v", st.State, memberStates(st))
	}
	st := x.Status(t0.Add(3 * time.Hour))
	if st.State != StateStopped || !st.EndTime.Equal(t0.Add(time.Hour)) {
		t.Fatalf("run %s ended %s, want Stopped at a's end", st.State, st.EndTime)
	}
	if got := memberStates(st); got["a"] != StateCompleted || got["b"] != StateNotStarted {
		t.Errorf("members %v", got)
	}
}

// designs/updates.md §4 gates: an approval gate holds its group until
// approved; skipping a group skips its gates.
func TestGates(t *testing.T) {
	ms := []Member{member("a", "r1", "g1", "1.29.7", "202611.03.0"), member("b", "r1", "g2", "1.29.7", "202611.03.0")}
	s := &Strategy{Stages: []Stage{{Name: "s1", Groups: []Group{
		{Name: "g1", BeforeGates: []Gate{{Type: "Approval", DisplayName: "change board"}}},
		{Name: "g2", BeforeGates: []Gate{{Type: "Approval"}}},
	}}}}
	x := &Execution{Update: full("1.30.5"), Strategy: s, Regions: regions("r1"), UpgradeDuration: time.Hour, Events: []Event{start(t0, ms...)}}
	st := x.Status(t0.Add(2 * time.Hour))
	g1 := st.Stages[0].Groups[0]
	if g1.State != StatePending || g1.Gates[0].State != StatePending || g1.Gates[0].Key != "s1/g1:before" || g1.Members[0].State != StateNotStarted {
		t.Fatalf("unapproved: %+v", g1)
	}
	x.Events = append(x.Events, Event{Action: ActionApprove, At: t0.Add(3 * time.Hour), Gate: "s1/g1:before"},
		Event{Action: ActionSkip, At: t0.Add(3 * time.Hour), Targets: []SkipTarget{{Type: TargetGroup, Name: "g2"}}})
	st = x.Status(t0.Add(5 * time.Hour))
	g1, g2 := st.Stages[0].Groups[0], st.Stages[0].Groups[1]
	if g1.State != StateCompleted || g1.Gates[0].State != StateCompleted || !g1.Members[0].StartTime.Equal(t0.Add(3*time.Hour)) {
		t.Errorf("approved group: %+v", g1)
	}
	if g2.State != StateSkipped || g2.Gates[0].State != StateSkipped || g2.Members[0].State != StateSkipped {
		t.Errorf("skipped group: %+v", g2)
	}
	if st.State != StateCompleted {
		t.Errorf("run %s", st.State)
	}
}

// designs/updates.md §4: after-stage waits delay the next stage and run at
// the same time as after-stage gates; skipping the wait ends it.
func TestAfterStageWait(t *testing.T) {
	ms := []Member{member("a", "r1", "g1", "1.29.7", "202611.03.0"), member("b", "r1", "g2", "1.29.7", "202611.03.0")}
	s := &Strategy{Stages: []Stage{{Name: "s1", AfterStageWaitInSeconds: WaitSeconds(3600), Groups: []Group{{Name: "g1"}}}, {Name: "s2", Groups: []Group{{Name: "g2"}}}}}
	p := PreviewRun(full("1.30.5"), s, ms, regions("r1"), 30*time.Minute, t0)
	if b := p.Members()[1]; !b.Start.Equal(t0.Add(90 * time.Minute)) {
		t.Errorf("second stage starts %s, want after the first member (30 min) and the wait (1 h)", b.Start)
	}
	if !p.Finish.Equal(t0.Add(2 * time.Hour)) {
		t.Errorf("finish %s", p.Finish)
	}
	x := &Execution{Update: full("1.30.5"), Strategy: s, Regions: regions("r1"), UpgradeDuration: 30 * time.Minute,
		Events: []Event{start(t0, ms...), {Action: ActionSkip, At: t0.Add(40 * time.Minute), Targets: []SkipTarget{{Type: TargetAfterStageWait, Name: "s1"}}}}}
	st := x.Status(t0.Add(45 * time.Minute))
	if st.Stages[0].AfterStageWait != StateSkipped || memberStates(st)["b"] != StateRunning {
		t.Errorf("after skipping the wait: wait %s, b %s", st.Stages[0].AfterStageWait, memberStates(st)["b"])
	}
}

// designs/updates.md §3: a target not yet released in a member's region
// leaves it Pending until the release, then it is upgraded.
func TestVersionNotYetInRegion(t *testing.T) {
	rs := regions("r1", "r2")
	rs[1].KubernetesVersions[1].ReleasedAt = t0.Add(48 * time.Hour)
	ms := []Member{member("a", "r1", "", "1.29.7", "202611.03.0"), member("b", "r2", "", "1.29.7", "202611.03.0")}
	p := PreviewRun(ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeControlPlaneOnly, KubernetesVersion: "1.30.5"}}, nil, ms, rs, time.Hour, t0)
	b := p.Members()[1]
	if b.Outcome != OutcomePending || b.Reason != ReasonVersionNotInRegion || !b.Start.Equal(t0.Add(48*time.Hour)) {
		t.Errorf("b: %+v", b)
	}
	rs[1].KubernetesVersions = rs[1].KubernetesVersions[:1] // never released there
	p = PreviewRun(ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeControlPlaneOnly, KubernetesVersion: "1.30.5"}}, nil, ms, rs, time.Hour, t0)
	if b := p.Members()[1]; b.Outcome != OutcomePending || !b.Start.IsZero() || !p.Finish.IsZero() {
		t.Errorf("never released: %+v, finish %s", b, p.Finish)
	}
}

// maxConcurrency lets a group upgrade several members at a time.
func TestConcurrency(t *testing.T) {
	var ms []Member
	for i := range 5 {
		ms = append(ms, member(fmt.Sprintf("m%d", i), "r1", "g", "1.29.7", "202611.03.0"))
	}
	s := &Strategy{Stages: []Stage{{Name: "s1", Groups: []Group{{Name: "g", MaxConcurrency: "40%"}}}}} // 2 of 5
	p := PreviewRun(full("1.30.5"), s, ms, regions("r1"), time.Hour, t0)
	if p.Stages[0].Groups[0].Concurrency != 2 || !p.Finish.Equal(t0.Add(3*time.Hour)) {
		t.Errorf("concurrency %d, finish %s; want 2 and 3 h", p.Stages[0].Groups[0].Concurrency, p.Finish)
	}
}

// The preview is what the run does: the same order, outcomes and times.
func TestPreviewMatchesExecution(t *testing.T) {
	ms := []Member{member("a", "r1", "g1", "1.29.7", "202611.03.0"), member("b", "r1", "g1", "1.30.5", "202611.03.0"),
		member("c", "r1", "g2", "1.29.7", "202610.01.0")}
	ms[2].Window = weekly("Wednesday", "01:00")
	s := &Strategy{Stages: []Stage{{Name: "s1", Groups: []Group{{Name: "g1"}}, AfterStageWaitInSeconds: WaitSeconds(600)}, {Name: "s2", Groups: []Group{{Name: "g2"}}}}}
	p := PreviewRun(full("1.30.5"), s, ms, regions("r1"), time.Hour, t0)
	x := &Execution{Update: full("1.30.5"), Strategy: s, Regions: regions("r1"), UpgradeDuration: time.Hour, Events: []Event{start(t0, ms...)}}
	st := x.Status(p.Finish)
	if st.State != StateCompleted {
		t.Fatalf("run at the preview's finish: %s", st.State)
	}
	got := map[string]MemberStatus{}
	for _, m := range st.Members() {
		got[m.Name] = m
	}
	for _, m := range p.Members() {
		g := got[m.Name]
		switch m.Outcome {
		case OutcomeSkipped:
			if g.State != StateSkipped {
				t.Errorf("%s: previewed skipped, ran %s", m.Name, g.State)
			}
		default:
			if g.State != StateCompleted || !g.StartTime.Equal(m.Start) || !g.EndTime.Equal(m.Finish) {
				t.Errorf("%s: previewed %s %s–%s, ran %s %s–%s", m.Name, m.Outcome, m.Start, m.Finish, g.State, g.StartTime, g.EndTime)
			}
		}
	}
	if !strings.Contains(p.Gantt(), "section s2") || !strings.HasPrefix(p.Gantt(), "gantt\n") {
		t.Errorf("gantt:\n%s", p.Gantt())
	}
}

func BenchmarkPreview1000Members10Stages(b *testing.B) {
	var ms []Member
	s := &Strategy{}
	for st := range 10 {
		stage := Stage{Name: fmt.Sprintf("stage-%d", st), AfterStageWaitInSeconds: WaitSeconds(600)}
		for g := range 5 {
			stage.Groups = append(stage.Groups, Group{Name: fmt.Sprintf("g-%d-%d", st, g), MaxConcurrency: "5"})
		}
		s.Stages = append(s.Stages, stage)
	}
	for i := range 1000 {
		m := member(fmt.Sprintf("m-%04d", i), []string{"r1", "r2", "r3"}[i%3], fmt.Sprintf("g-%d-%d", i%10, i%5), "1.29.7", "202610.01.0")
		if i%4 == 0 {
			m.Window = weekly([]string{"Monday", "Wednesday", "Saturday"}[i%3], "02:00")
		}
		ms = append(ms, m)
	}
	rs := regions("r1", "r2", "r3")
	b.ResetTimer()
	for range b.N {
		p := PreviewRun(full("1.30.5"), s, ms, rs, 30*time.Minute, t0)
		if p.Totals.Members != 1000 {
			b.Fatal(p.Totals)
		}
	}
}

// AKS upgrades the control plane one minor version at a time ("Kubernetes
// minor versions can't be skipped", AKS upgrade documentation): a member two
// minors behind is refused when its upgrade starts, and the run fails on it
// (designs/updates.md §4), which the preview says before anything starts.
func TestSkippingAMinorVersionFails(t *testing.T) {
	rs := regions("r1")
	rs[0].KubernetesVersions = append(rs[0].KubernetesVersions, fleet.KubernetesRelease{Version: "1.28.15", ReleasedAt: t0.AddDate(-1, 0, 0)})
	ms := []Member{member("a-old", "r1", "", "1.28.15", "202611.03.0"), member("b-ok", "r1", "", "1.29.7", "202611.03.0")}
	u := ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeControlPlaneOnly, KubernetesVersion: "1.30.5"}}
	p := PreviewRun(u, nil, ms, rs, time.Hour, t0)
	a := p.Members()[0]
	if a.Name != "a-old" || a.Outcome != OutcomeFail || a.Reason != ReasonSkipsMinor || !strings.Contains(a.Message, "take it to 1.29 first") {
		t.Fatalf("a-old: %+v", a)
	}
	if b := p.Members()[1]; b.Reached.IsZero() == false || b.Reason != ReasonNotReached {
		t.Errorf("the run stops at the failure; b-ok: %+v", b)
	}
	if p.Totals.Fail != 1 || !strings.Contains(p.Summary(), "1 failing") {
		t.Errorf("totals %+v, summary %q", p.Totals, p.Summary())
	}
	x := &Execution{Update: u, Regions: rs, UpgradeDuration: time.Hour, Events: []Event{start(t0, ms...)}}
	st := x.Status(t0)
	if st.State != StateFailed || !strings.Contains(st.Message, "member a-old (group default, stage default) failed: AKS upgrades one minor version at a time") {
		t.Errorf("run at start: %s %q", st.State, st.Message)
	}
}

// designs/updates.md §4: a start re-applies what failed and what the run
// skipped while running, but not what the user skipped while the run was
// not running — those skips are for the start that follows. So a failed
// member skipped on the failed run, then a re-run, continues past it; a
// member skipped while the run is stopped stays skipped when it resumes.
func TestSkipsWhileNotRunningHoldForTheNextStart(t *testing.T) {
	ms := []Member{member("a", "r1", "g1", "1.29.7", "202611.03.0"), member("b", "r1", "g1", "1.29.7", "202611.03.0"),
		member("c", "r1", "g2", "1.29.7", "202611.03.0")}
	ms[1].Failure = "the API server did not come back"
	s := &Strategy{Stages: []Stage{{Name: "s1", Groups: []Group{{Name: "g1"}}}, {Name: "s2", Groups: []Group{{Name: "g2"}}}}}
	skipB := Event{Action: ActionSkip, Targets: []SkipTarget{{Type: TargetMember, Name: "b"}}}

	failed := &Execution{Update: full("1.30.5"), Strategy: s, Regions: regions("r1"), UpgradeDuration: time.Hour, Events: []Event{start(t0, ms...)}}
	at := t0.Add(5 * time.Hour) // b failed at t0+2h
	skip := skipB
	skip.At = at
	failed.Events = append(failed.Events, skip, start(at.Add(time.Minute), ms...))
	st := failed.Status(at.Add(5 * time.Hour))
	if got := memberStates(st); st.State != StateCompleted || got["b"] != StateSkipped || got["c"] != StateCompleted {
		t.Errorf("skipped while failed, then re-run: run %s (%s), members %v; want b Skipped, c Completed", st.State, st.Message, got)
	}

	ok := slices.Clone(ms)
	ok[1].Failure = ""
	stopped := &Execution{Update: full("1.30.5"), Strategy: s, Regions: regions("r1"), UpgradeDuration: time.Hour,
		Events: []Event{start(t0, ok...), {Action: ActionStop, At: t0.Add(10 * time.Minute)}}}
	skip.At = t0.Add(2 * time.Hour) // stopped at t0+1h, when a's upgrade ended
	stopped.Events = append(stopped.Events, skip, start(t0.Add(3*time.Hour), ok...))
	if got := memberStates(stopped.Status(t0.Add(9 * time.Hour))); got["b"] != StateSkipped || got["c"] != StateCompleted {
		t.Errorf("skipped while stopped, then resumed: members %v; want b Skipped", got)
	}

	// A skip made while the run runs is for that run: a later start re-applies it.
	running := &Execution{Update: full("1.30.5"), Strategy: s, Regions: regions("r1"), UpgradeDuration: time.Hour,
		Events: []Event{start(t0, ok...)}}
	skip.At = t0.Add(30 * time.Minute)
	running.Events = append(running.Events, skip, Event{Action: ActionStop, At: t0.Add(40 * time.Minute)}, start(t0.Add(3*time.Hour), ok...))
	if got := memberStates(running.Status(t0.Add(9 * time.Hour))); got["b"] != StateCompleted {
		t.Errorf("skipped while running, stopped, started again: members %v; want b upgraded by the new start", got)
	}
}

// A member that waits for its window and then fails is previewed as a
// failure with its date, counted as one, not as a wait (issue 24, finding
// 4): the summary says the run fails, not that it never finishes; and the
// execution fails at that date, as previewed.
func TestPreviewFailureAfterAWait(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) // Monday
	ms := []Member{member("a", "r1", "g", "1.29.7", "202610.01.0"), member("b", "r1", "g2", "1.29.7", "202610.01.0")}
	ms[0].Window = weekly("Tuesday", "02:00")
	ms[0].Failure = "UpgradeFailed: drain timed out"
	s := &Strategy{Stages: []Stage{{Name: "s1", Groups: []Group{{Name: "g"}}}, {Name: "s2", Groups: []Group{{Name: "g2"}}}}}
	p := PreviewRun(full("1.30.5"), s, ms, regions("r1"), time.Hour, now)
	a := p.Members()[0]
	opens := time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)
	if a.Outcome != OutcomeFail || a.Reason != ReasonInjectedFailure || !a.Start.Equal(opens) ||
		!strings.Contains(a.Message, "UpgradeFailed: drain timed out") || !strings.Contains(a.Message, "maintenance window closed") {
		t.Errorf("a: %+v; want Fail at the window's opening, saying why and after what wait", a)
	}
	if p.Totals.Fail != 1 || p.Totals.Pending != 1 || !strings.Contains(p.Summary(), "1 failing: the run fails at the first of them") {
		t.Errorf("totals %+v, summary %q", p.Totals, p.Summary())
	}
	x := &Execution{Update: full("1.30.5"), Strategy: s, Regions: regions("r1"), UpgradeDuration: time.Hour, Events: []Event{start(now, ms...)}}
	if st := x.Status(opens.Add(2 * time.Hour)); st.State != StateFailed || memberStates(st)["a"] != StateFailed {
		t.Errorf("executed: run %s, members %v; want it failed on a, as previewed", st.State, memberStates(st))
	}
}

// An action made at the very instant something happened comes after it
// (designs/updates.md §4; found with a fixed clock and instant upgrades): a
// stop does not undo the upgrades that ended at its instant, and a skip
// sent to a run that failed at its instant does not undo the failure — it
// holds for the next start.
func TestActionsAtTheSameInstantComeAfter(t *testing.T) {
	ms := []Member{member("a", "r1", "g1", "1.29.7", "202611.03.0"), member("b", "r1", "g1", "1.29.7", "202611.03.0")}
	one := &Strategy{Stages: []Stage{{Name: "s1", Groups: []Group{{Name: "g1", MaxConcurrency: "1"}}}}}
	ms[1].Window = weekly("Thursday", "02:00") // b waits: the run is still going when stopped
	stopped := &Execution{Update: full("1.30.5"), Strategy: one, Regions: regions("r1"), Events: []Event{start(t0, ms...), {Action: ActionStop, At: t0}}}
	if got := memberStates(stopped.Status(t0)); got["a"] != StateCompleted {
		t.Errorf("stopped at the instant a's instant upgrade ended: %v; want a Completed", got)
	}
	ms[1].Window = nil
	ms[0].Failure = "drain timed out"
	failed := &Execution{Update: full("1.30.5"), Strategy: one, Regions: regions("r1"),
		Events: []Event{start(t0, ms...), {Action: ActionSkip, At: t0, Targets: []SkipTarget{{Type: TargetMember, Name: "a"}}}}}
	if st := failed.Status(t0); st.State != StateFailed {
		t.Errorf("a skip at the instant of the failure: run %s; want it still Failed", st.State)
	}
	failed.Events = append(failed.Events, start(t0, ms...))
	if got := memberStates(failed.Status(t0)); got["a"] != StateSkipped || got["b"] != StateCompleted {
		t.Errorf("then started again at the same instant: %v; want a Skipped, b Completed", got)
	}
}
