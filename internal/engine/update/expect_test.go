package update

import (
	"slices"
	"testing"
	"time"
)

// What starting a run decides (designs/previews.md §5): each member's
// outcome class and target version, not the times; a member that waits for
// its window and then upgrades upgrades.
func TestRunExpectationDifferences(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	p := Preview{Stages: []StagePreview{{Name: "s", Groups: []GroupPreview{{Name: "g", Members: []MemberPreview{
		{Name: "a", Outcome: OutcomeUpgrade, From: "1.32.6", To: "1.33.2", Start: t0},
		{Name: "b", Outcome: OutcomePending, Reason: ReasonWindowClosed, From: "1.32.6", To: "1.33.2", Start: t0.Add(48 * time.Hour)},
		{Name: "c", Outcome: OutcomeSkipped, Reason: ReasonUpToDate, From: "1.33.2", To: "1.33.2"},
		{Name: "d", Outcome: OutcomePending, Reason: ReasonVersionNotInRegion, From: "1.32.6", To: "1.33.2"},
		{Name: "e", Outcome: OutcomeSkipped, Reason: ReasonDoneBefore, From: "1.32.6", To: "1.33.2"},
	}}}}}}
	reviewed := ExpectRun(p)
	want := []string{"upgrades", "upgrades", "is skipped", "waits for good", "upgrades"}
	for i, m := range reviewed.Members {
		if m.Outcome != want[i] || m.Where() != "s/g" {
			t.Fatalf("member %s: %+v, want %s", m.Name, m, want[i])
		}
	}
	// Three days later the window opened: b upgrades now — the same.
	later := p
	later.Stages = []StagePreview{{Name: "s", Groups: []GroupPreview{{Name: "g", Members: slices.Clone(p.Stages[0].Groups[0].Members)}}}}
	ms := later.Stages[0].Groups[0].Members
	ms[1].Outcome, ms[1].Start = OutcomeUpgrade, t0.Add(72*time.Hour)
	if d := reviewed.Differences(ExpectRun(later)); len(d) != 0 {
		t.Fatalf("a window opening must not matter: %v", d)
	}
	// a was upgraded by someone else: now skipped; a new patch for d; f joined.
	ms[0].Outcome, ms[0].Reason = OutcomeSkipped, ReasonUpToDate
	ms[3].Outcome, ms[3].To, ms[3].Start = OutcomeUpgrade, "1.33.3", t0
	later.Stages[0].Groups[0].Members = append(ms, MemberPreview{Name: "f", Outcome: OutcomeUpgrade, To: "1.33.2", Start: t0})
	got := reviewed.Differences(ExpectRun(later))
	wantDiffs := []string{"a now is skipped (reviewed: upgrades to 1.33.2)", "d now upgrades to 1.33.3 (reviewed: waits for good)",
		"f is now in the run (s/g) and upgrades to 1.33.2"}
	if !slices.Equal(got, wantDiffs) {
		t.Fatalf("got %q\nwant %q", got, wantDiffs)
	}
	if d := reviewed.Differences(RunExpectation{Members: reviewed.Members[1:]}); len(d) != 1 || d[0] != "a is no longer in the run (reviewed: upgrades to 1.33.2)" {
		t.Fatalf("a member left: %q", d)
	}
}

func TestProfileExpectationDifferences(t *testing.T) {
	reviewed := ExpectProfile(Resolution{Target: "1.33.2"})
	if d := reviewed.Differences(ExpectProfile(Resolution{Target: "1.33.2", At: time.Now()})); len(d) != 0 {
		t.Fatalf("the same target: %v", d)
	}
	if d := reviewed.Differences(ExpectProfile(Resolution{Target: "1.34.0"})); len(d) != 1 ||
		d[0] != "the channel now resolves to Kubernetes 1.34.0 (reviewed: Kubernetes 1.33.2)" {
		t.Fatalf("a release entered the channel: %q", d)
	}
	images := ExpectProfile(Resolution{NodeImages: map[string]string{"AKSUbuntu-2204gen2containerd": "202611.10.0"}})
	if got := images.String(); got != "node images AKSUbuntu-2204gen2containerd 202611.10.0" {
		t.Fatalf("images: %s", got)
	}
	if got := ExpectProfile(Resolution{Err: "no GA release of 1.27"}).String(); got != "nothing (no GA release of 1.27)" {
		t.Fatalf("unresolved: %s", got)
	}
}

// A run started again keeps what it completed and skips what it is told to
// (designs/updates.md §4: a re-run re-applies only what failed or was
// skipped), and the preview says so.
func TestPreviewRestart(t *testing.T) {
	members := []Member{member("m1", "eastus", "g", "1.29.7", "202610.01.0"), member("m2", "eastus", "g", "1.29.7", "202610.01.0"),
		member("m3", "eastus", "g", "1.29.7", "202610.01.0")}
	done := &RunStatus{State: StateStopped, Stages: []StageStatus{{Name: "s", Groups: []GroupStatus{{Name: "g", Members: []MemberStatus{
		{Name: "m1", State: StateCompleted, FromVersion: "1.29.7", ToVersion: "1.30.5", KubernetesVersion: "1.30.5"},
		{Name: "m2", State: StateNotStarted}, {Name: "m3", State: StateNotStarted}}}}}}}
	p := PreviewRestart(full("1.30.5"), oneStage("g"), nil, members, regions("eastus"), 0, t0, done,
		[]SkipTarget{{Type: TargetMember, Name: "m2"}})
	got := map[string]string{}
	for _, m := range p.Members() {
		got[m.Name] = m.Outcome + " " + m.Reason
	}
	want := map[string]string{"m1": "Skipped " + ReasonDoneBefore, "m2": "Skipped " + ReasonSkippedByUser, "m3": "Upgrade "}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%s: got %q, want %q", n, got[n], w)
		}
	}
	if p.Finish.IsZero() || p.Totals.Upgrade != 1 || p.Totals.Skipped != 2 {
		t.Fatalf("totals %+v, finish %v", p.Totals, p.Finish)
	}
	// Done by this run counts as upgraded by it in what its start decided.
	if e := ExpectRun(p); e.Members[0].Outcome != ExpectUpgrades || e.Members[0].To != "1.30.5" {
		t.Fatalf("m1: %+v", e.Members[0])
	}
}
