package update

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Auto-upgrade profiles (designs/updates.md §5) against the examples of
// Fleet's concepts-update-orchestration (seed 002): "the newest supported
// minor is 1.30: Stable considers the 1.29 patches, Rapid the 1.30 ones; 1.31
// is released: Stable moves to 1.30, Rapid to 1.31"; "auto-upgrade does not
// move clusters across more than one minor (e.g. 1.28 to 1.30)"; "only GA
// versions, never preview ones".

func k8s(v string, at time.Time, flags ...string) fleet.KubernetesRelease {
	return fleet.KubernetesRelease{Version: v, ReleasedAt: at, Preview: slices.Contains(flags, "preview"), LTS: slices.Contains(flags, "lts")}
}

// seedRegion has GA 1.28.15, 1.29.8, 1.29.9, 1.30.4 and 1.30.5 (N = 1.30), a
// 1.31.0 preview, and node images of two dates.
func seedRegion(name string, extra ...fleet.KubernetesRelease) fleet.Region {
	old := t0.AddDate(0, -3, 0)
	return fleet.Region{Name: name,
		KubernetesVersions: append([]fleet.KubernetesRelease{
			k8s("1.27.16", old, "lts"), k8s("1.28.15", old), k8s("1.29.8", old), k8s("1.29.9", old), k8s("1.30.4", old), k8s("1.30.5", old),
			k8s("1.31.0", old, "preview"),
		}, extra...),
		NodeImages: []fleet.NodeImageRelease{
			{Family: img, Version: "202610.01.0", ReleasedAt: old},
			{Family: img, Version: "202611.03.0", ReleasedAt: t0.AddDate(0, 0, -7)},
		},
	}
}

func TestResolveProfileChannels(t *testing.T) {
	regs := []fleet.Region{seedRegion("eastus")}
	released := []fleet.Region{seedRegion("eastus", k8s("1.31.2", t0.Add(-time.Hour)))}
	for _, tc := range []struct {
		name    string
		p       ProfileSpec
		regions []fleet.Region
		target  string
		minors  string
		err     string
	}{
		{"seed: N=1.30, Stable is the newest 1.29 patch", ProfileSpec{Channel: ChannelStable}, regs, "1.29.9", "1.30, 1.29, 1.28", ""},
		{"seed: N=1.30, Rapid is the newest 1.30 patch", ProfileSpec{Channel: ChannelRapid}, regs, "1.30.5", "1.30, 1.29, 1.28", ""},
		{"seed: 1.31 released, Stable moves to 1.30", ProfileSpec{Channel: ChannelStable}, released, "1.30.5", "1.31, 1.30, 1.29", ""},
		{"seed: 1.31 released, Rapid moves to 1.31", ProfileSpec{Channel: ChannelRapid}, released, "1.31.2", "1.31, 1.30, 1.29", ""},
		{"preview releases never count (1.31.0 is one)", ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.31"}, regs, "",
			"1.30, 1.29, 1.28", "no generally available version of 1.31 in the catalog"},
		{"target minor: its newest patch", ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.29"}, regs, "1.29.9", "1.30, 1.29, 1.28", ""},
		{"target minor outside the window without LTS", ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.27"}, regs, "",
			"1.30, 1.29, 1.28", "1.27 is outside the supported minors (1.30, 1.29, 1.28); it is a long-term-support minor: set long_term_support = true to follow it"},
		{"target LTS minor with long_term_support", ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.27", LongTermSupport: true}, regs,
			"1.27.16", "1.30, 1.29, 1.28, 1.27", ""},
		{"NodeImage: no Kubernetes target", ProfileSpec{Channel: ChannelNodeImage}, regs, "", "1.30, 1.29, 1.28", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := ResolveProfile(tc.p, tc.regions, t0)
			if res.Target != tc.target || strings.Join(res.SupportedMinors, ", ") != tc.minors || res.Err != tc.err {
				t.Errorf("got target %q, minors %q, err %q; want %q, %q, %q", res.Target, strings.Join(res.SupportedMinors, ", "), res.Err, tc.target, tc.minors, tc.err)
			}
		})
	}
	if got := ResolveProfile(ProfileSpec{Channel: ChannelNodeImage}, regs, t0).UpgradeVersions(); !slices.Equal(got, []string{img + "-202611.03.0"}) {
		t.Errorf("NodeImage upgrade versions = %v", got)
	}
}

// The per-member verdicts of a profile's preview.
func TestPreviewProfileMembers(t *testing.T) {
	regs := []fleet.Region{seedRegion("eastus", k8s("1.31.2", t0.Add(-time.Hour))), seedRegion("westus")}
	members := []Member{
		member("a-current", "eastus", "", "1.30.1", "202610.01.0"),
		member("b-at-target", "eastus", "", "1.31.2", "202611.03.0"),
		member("c-two-behind", "eastus", "", "1.29.9", "202610.01.0"),
		member("d-outside", "eastus", "", "1.27.3", "202610.01.0"),
		member("e-not-in-region", "westus", "", "1.30.5", "202610.01.0"),
	}
	pp := PreviewProfile("rapid", ProfileSpec{Channel: ChannelRapid}, nil, members, regs, 15*time.Minute, t0)
	if pp.Resolution.Target != "1.31.2" || pp.Update.Upgrade.Type != UpgradeFull || pp.Update.NodeImageSelection.Type != NodeImageLatest {
		t.Fatalf("resolution %+v, update %+v", pp.Resolution, pp.Update)
	}
	got := map[string]MemberPreview{}
	for _, m := range pp.Rollout.Members() {
		got[m.Name] = m
	}
	want := map[string]struct{ outcome, reason, msg string }{
		"a-current":   {OutcomeUpgrade, "", "upgrade 1.30.1 → 1.31.2"},
		"b-at-target": {OutcomeSkipped, ReasonUpToDate, "already up to date"},
		// seed: "1.28 is not taken to 1.30" — here 1.29 is not taken to 1.31.
		"c-two-behind": {OutcomeSkipped, ReasonAutoSkipsMinor, "not upgraded: 1.29.9 is more than one minor behind the target 1.31.2 and auto-upgrade " +
			"never skips a minor; bring it back with a manual update run to 1.30.5, and the profile then takes it to 1.31.2"},
		"d-outside": {OutcomeSkipped, ReasonOutsideSupport, "not upgraded: 1.27 is outside the supported minors (1.31, 1.30, 1.29) and auto-upgrade " +
			"leaves it as it is; bring it back with a manual update run to 1.28.15, then to 1.29.9, then to 1.30.5, and the profile then takes it to 1.31.2"},
		"e-not-in-region": {OutcomePending, ReasonVersionNotInRegion, "the target version is not available in region westus"},
	}
	for name, w := range want {
		m := got[name]
		if m.Outcome != w.outcome || m.Reason != w.reason || m.Message != w.msg {
			t.Errorf("%s: got %s/%s %q\nwant %s/%s %q", name, m.Outcome, m.Reason, m.Message, w.outcome, w.reason, w.msg)
		}
	}
	if b := got["c-two-behind"].BringBack; !slices.Equal(b, []string{"1.30.5"}) {
		t.Errorf("bring back = %v", b)
	}
	if n := len(pp.LeftBehind); n != 2 {
		t.Errorf("left behind = %d, want 2", n)
	}
	// A manual run of the same upgrade fails on the member two minors
	// behind instead (AKS refuses it): only a profile's run skips it.
	manual := PreviewRun(pp.Update, nil, members, regs, 15*time.Minute, t0)
	for _, m := range manual.Members() {
		if m.Name == "c-two-behind" && m.Outcome != OutcomeFail {
			t.Errorf("manual run: %s is %s, want Fail", m.Name, m.Outcome)
		}
	}
}

// An LTS target below a member's window: the way back ends at the target
// itself, where the profile keeps the member (and the member counts as left
// behind, with a warning naming it).
func TestPreviewProfileLTSBringBack(t *testing.T) {
	regs := []fleet.Region{seedRegion("eastus", k8s("1.26.9", t0.AddDate(0, -6, 0)))}
	members := []Member{member("a-126", "eastus", "", "1.26.9", "202611.03.0")}
	pp := PreviewProfile("lts", ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.27", LongTermSupport: true},
		nil, members, regs, time.Minute, t0)
	m := pp.Rollout.Members()[0]
	want := "not upgraded: 1.26 is outside the supported minors (1.30, 1.29, 1.28, 1.27) and auto-upgrade leaves it as it is; " +
		"bring it back with a manual update run to 1.27.16, where the profile keeps it"
	if m.Reason != ReasonOutsideSupport || m.Message != want || !slices.Equal(m.BringBack, []string{"1.27.16"}) {
		t.Errorf("got %s %q %v\nwant %q", m.Reason, m.Message, m.BringBack, want)
	}
	if ws := ProfilePreviewWarnings(pp); len(ws) != 1 || ws[0].ID != WarnMembersLeftBehind || !strings.Contains(ws[0].Message, "a-126 (to 1.27.16 first)") {
		t.Errorf("warnings %+v", ws)
	}
}

func TestPreviewProfileNodeImage(t *testing.T) {
	regs := []fleet.Region{seedRegion("eastus")}
	members := []Member{
		member("a-old-image", "eastus", "", "1.29.9", "202610.01.0"),
		member("b-new-image", "eastus", "", "1.30.5", "202611.03.0"),
		member("c-outside", "eastus", "", "1.26.1", "202610.01.0"),
	}
	pp := PreviewProfile("images", ProfileSpec{Channel: ChannelNodeImage}, nil, members, regs, 15*time.Minute, t0)
	if pp.Update.Upgrade.Type != UpgradeNodeImageOnly {
		t.Fatalf("update %+v", pp.Update)
	}
	lines := map[string]string{}
	for _, m := range pp.Rollout.Members() {
		lines[m.Name] = m.Outcome + " " + m.From + " → " + m.To
	}
	want := map[string]string{
		"a-old-image": "Upgrade " + img + "-202610.01.0 → " + img + "-202611.03.0", // Kubernetes stays 1.29.9
		"b-new-image": "Skipped " + img + "-202611.03.0 → " + img + "-202611.03.0",
		"c-outside":   "Skipped " + img + "-202610.01.0 → " + img + "-202611.03.0",
	}
	for k, w := range want {
		if lines[k] != w {
			t.Errorf("%s: %q, want %q", k, lines[k], w)
		}
	}
	if !strings.Contains(pp.Summary(), "channel NodeImage: node images "+img+"-202611.03.0") {
		t.Errorf("summary %q", pp.Summary())
	}
}

// A profile triggers once per new target: at each release that moves its
// channel, never again for the same one, and not while disabled.
func TestProfileTriggers(t *testing.T) {
	r131 := t0.Add(2 * time.Hour)
	r1312 := t0.Add(5 * time.Hour)
	regs := []fleet.Region{seedRegion("eastus", k8s("1.31.1", r131), k8s("1.31.2", r1312), k8s("1.32.0", t0.Add(3*time.Hour), "preview"))}
	rapid := ProfileSpec{Channel: ChannelRapid}
	seen := ResolveProfile(rapid, regs, t0).Key()
	if seen != "1.30.5" {
		t.Fatalf("seen %q", seen)
	}
	got := ProfileTriggers(rapid, regs, seen, t0, t0.Add(6*time.Hour))
	var s []string
	for _, r := range got {
		s = append(s, fmt.Sprintf("%s@%s", r.Target, r.At.Sub(t0)))
	}
	if strings.Join(s, " ") != "1.31.1@2h0m0s 1.31.2@5h0m0s" {
		t.Errorf("rapid triggers: %v", s)
	}
	// Stable moves to 1.30 only when 1.31 is released, once.
	stable := ProfileSpec{Channel: ChannelStable}
	if got := ProfileTriggers(stable, regs, ResolveProfile(stable, regs, t0).Key(), t0, t0.Add(6*time.Hour)); len(got) != 1 || got[0].Target != "1.30.5" || !got[0].At.Equal(r131) {
		t.Errorf("stable triggers: %+v", got)
	}
	// Nothing new: nothing triggers.
	if got := ProfileTriggers(rapid, regs, "1.31.2", r1312, t0.Add(9*time.Hour)); len(got) != 0 {
		t.Errorf("re-evaluated: %+v", got)
	}
	// Disabled: never.
	if got := ProfileTriggers(ProfileSpec{Channel: ChannelRapid, Disabled: true}, regs, seen, t0, t0.Add(6*time.Hour)); len(got) != 0 {
		t.Errorf("disabled: %+v", got)
	}
	// A release added later with an earlier date triggers when it is seen.
	late := []fleet.Region{seedRegion("eastus", k8s("1.30.6", t0.Add(-48*time.Hour)))}
	if got := ProfileTriggers(rapid, late, "1.30.5", t0, t0.Add(time.Hour)); len(got) != 1 || got[0].Target != "1.30.6" || !got[0].At.Equal(t0.Add(time.Hour)) {
		t.Errorf("late release: %+v", got)
	}
}

func BenchmarkPreviewProfile1000Members20Regions(b *testing.B) {
	var regs []fleet.Region
	for i := range 20 {
		regs = append(regs, seedRegion(fmt.Sprintf("region-%02d", i), k8s("1.31.2", t0.Add(-time.Hour))))
	}
	versions := []string{"1.28.15", "1.29.9", "1.30.4", "1.30.5", "1.31.2"}
	var members []Member
	for i := range 1000 {
		members = append(members, member(fmt.Sprintf("m-%04d", i), regs[i%20].Name, fmt.Sprintf("g%d", i%4), versions[i%len(versions)], "202610.01.0"))
	}
	strategy := &Strategy{Stages: []Stage{{Name: "s1", Groups: []Group{{Name: "g0"}, {Name: "g1"}}}, {Name: "s2", Groups: []Group{{Name: "g2"}, {Name: "g3"}}}}}
	b.ReportAllocs()
	for b.Loop() {
		pp := PreviewProfile("p", ProfileSpec{Channel: ChannelRapid}, strategy, members, regs, 15*time.Minute, t0)
		if pp.Rollout.Totals.Members != 1000 {
			b.Fatal(pp.Rollout.Totals)
		}
	}
}

// A member the rollout never reaches says what it stays on, with no arrow
// to an empty version.
func TestMemberLineNotReached(t *testing.T) {
	m := MemberPreview{Outcome: OutcomePending, Reason: ReasonNotReached, From: "1.31.10", Message: "not reached: an earlier stage waits"}
	if got := m.Line(); got != "Pending 1.31.10 (not reached: an earlier stage waits)" {
		t.Errorf("%q", got)
	}
}

// Triggers only move forward: a clock behind the last trigger (another
// process's) decides nothing, and a catalog edit that removes a release
// (the channel moves back) triggers nothing.
func TestProfileTriggersOnlyForward(t *testing.T) {
	regs := []fleet.Region{seedRegion("eastus", k8s("1.31.2", t0.Add(time.Hour)))}
	rapid := ProfileSpec{Channel: ChannelRapid}
	if got := ProfileTriggers(rapid, regs, "1.31.2", t0.Add(time.Hour), t0.Add(30*time.Minute)); len(got) != 0 {
		t.Errorf("a clock behind the last trigger fired %+v", got)
	}
	withdrawn := []fleet.Region{seedRegion("eastus")} // 1.31.2 gone: Rapid is back on 1.30.5
	if got := ProfileTriggers(rapid, withdrawn, "1.31.2", t0.Add(time.Hour), t0.Add(2*time.Hour)); len(got) != 0 {
		t.Errorf("a withdrawn release fired %+v", got)
	}
	for _, c := range []struct {
		seen, key string
		want      bool
	}{
		{"", "a-1.0", true},
		{"fam-202610.01.0", "fam-202611.03.0", true},
		{"fam-202611.03.0", "fam-202610.01.0", false},
		{"fam-202611.03.0", "fam-202611.03.0,other-202601.01.0", true},
	} {
		if got := keyNewer(ChannelNodeImage, c.seen, c.key); got != c.want {
			t.Errorf("keyNewer(%q, %q) = %v", c.seen, c.key, got)
		}
	}
}

// No way back through a minor without a GA release: the member is left
// behind with no path rather than a path through a version that is not one.
func TestBringBackThroughAGap(t *testing.T) {
	old := t0.AddDate(0, -3, 0)
	regs := []fleet.Region{{Name: "eastus", KubernetesVersions: []fleet.KubernetesRelease{
		k8s("1.27.3", old), k8s("1.29.9", old), k8s("1.30.5", old), k8s("1.31.2", old)}}} // no 1.28
	pp := PreviewProfile("p", ProfileSpec{Channel: ChannelRapid}, nil, []Member{member("a", "eastus", "", "1.27.3", "")}, regs, time.Minute, t0)
	m := pp.Rollout.Members()[0]
	if m.Reason != ReasonOutsideSupport || len(m.BringBack) != 0 || strings.Contains(m.Message, "1.28") {
		t.Errorf("%s %v %q", m.Reason, m.BringBack, m.Message)
	}
}

// BenchmarkProfileTriggers20Regions60Releases: what every fleet resolution
// pays per enabled profile when a year of releases (60 per region, 20
// regions) passed since its last trigger and none moves it (a target minor
// that left the window).
func BenchmarkProfileTriggers20Regions60Releases(b *testing.B) {
	var regs []fleet.Region
	for i := range 20 {
		r := fleet.Region{Name: fmt.Sprintf("region-%02d", i)}
		for j := range 60 {
			r.KubernetesVersions = append(r.KubernetesVersions, k8s(fmt.Sprintf("1.%d.%d", 28+j/15, j%15), t0.Add(time.Duration(j)*6*24*time.Hour)))
		}
		regs = append(regs, r)
	}
	p := ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.20"}
	b.ReportAllocs()
	for b.Loop() {
		if got := ProfileTriggers(p, regs, "", t0, t0.AddDate(1, 0, 0)); len(got) != 0 {
			b.Fatal(got)
		}
	}
}

// The members a profile leaves behind are listed whether or not its rollout
// reaches them; a member the rollout does not reach after a failure says
// so; a member past the target is skipped for that, before any image reason.
func TestPreviewProfileAfterAFailure(t *testing.T) {
	regs := []fleet.Region{seedRegion("eastus", k8s("1.31.2", t0.Add(-time.Hour)))}
	failing := member("a-fails", "eastus", "", "1.30.5", "202611.03.0")
	failing.Failure = "UpgradeFailed: drain timed out"
	members := []Member{failing, member("b-outside", "eastus", "", "1.27.3", "202611.03.0")}
	pp := PreviewProfile("p", ProfileSpec{Channel: ChannelRapid}, nil, members, regs, time.Minute, t0)
	if lb, ok := pp.LeftBehind["b-outside"]; !ok || lb.Reason != ReasonOutsideSupport {
		t.Errorf("left behind: %+v", pp.LeftBehind)
	}
	b := pp.Rollout.Members()[1]
	if b.Reason != ReasonNotReached || !strings.HasPrefix(b.Message, "not reached: the run fails before it gets here (member a-fails") {
		t.Errorf("after the failure: %s %q", b.Reason, b.Message)
	}
	// Consistent selection with no common image: a member past the target says that first.
	two := []fleet.Region{seedRegion("eastus"), {Name: "westus", KubernetesVersions: regs[0].KubernetesVersions}}
	past := member("c-past", "eastus", "", "1.31.2", "202611.03.0")
	pv := PreviewRun(ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeFull, KubernetesVersion: "1.30.5"}, NodeImageSelection: NodeImageSelection{Type: NodeImageConsistent}},
		nil, []Member{past, member("d-west", "westus", "", "1.30.4", "202611.03.0")}, two, time.Minute, t0)
	if m := pv.Members()[0]; m.Message != "already at 1.31.2, newer than the target 1.30.5" {
		t.Errorf("past the target: %q", m.Message)
	}
}
