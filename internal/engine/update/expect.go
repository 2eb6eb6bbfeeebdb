package update

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// What applying a run or a profile does that depends on the fleet and the
// clock, as compared between a preview reviewed at plan and the same preview
// at apply (designs/previews.md §5).

// Outcome classes of a member in an expectation: what happens to it in the
// end, whatever the times. A member that waits for its maintenance window or
// for its release and then upgrades upgrades.
const (
	ExpectUpgrades   = "upgrades"
	ExpectWaits      = "waits for good"
	ExpectSkipped    = "is skipped"
	ExpectFails      = "fails"
	ExpectNotReached = "is not reached"
)

// RunExpectation is what a run does to each member.
type RunExpectation struct {
	// Members in rollout order.
	Members []ExpectedMember `json:"members"`
}

// ExpectedMember is one member's fate in an expectation.
type ExpectedMember struct {
	Name    string `json:"name"`
	Stage   string `json:"stage"`
	Group   string `json:"group"`
	Outcome string `json:"outcome"`
	// To is the version the member goes to (Kubernetes, or node image for a
	// node image run); empty when it is not upgraded.
	To string `json:"to,omitempty"`
}

// ExpectRun is the expectation of a rollout preview.
func ExpectRun(p Preview) RunExpectation {
	out := RunExpectation{Members: []ExpectedMember{}}
	for _, s := range p.Stages {
		for _, g := range s.Groups {
			for _, m := range g.Members {
				e := ExpectedMember{Name: m.Name, Stage: s.Name, Group: g.Name, Outcome: expectedOutcome(m)}
				if e.Outcome == ExpectUpgrades || e.Outcome == ExpectFails {
					e.To = m.To
				}
				out.Members = append(out.Members, e)
			}
		}
	}
	return out
}

func expectedOutcome(m MemberPreview) string {
	switch {
	case m.Reason == ReasonDoneBefore: // upgraded by this run: the apply that started it upgraded it
		return ExpectUpgrades
	case m.Outcome == OutcomeSkipped:
		return ExpectSkipped
	case m.Outcome == OutcomeFail, m.Outcome == OutcomePending && m.Fails != "":
		return ExpectFails
	case m.Reason == ReasonNotReached:
		return ExpectNotReached
	case m.Outcome == OutcomePending && m.Start.IsZero():
		return ExpectWaits
	}
	return ExpectUpgrades
}

// Where is the member's <stage>/<group>.
func (e ExpectedMember) Where() string { return e.Stage + "/" + e.Group }

// Line is the member's expectation in words, e.g. "upgrades to 1.33.2".
func (e ExpectedMember) Line() string {
	if e.To != "" {
		return e.Outcome + " to " + e.To
	}
	return e.Outcome
}

// Summary counts the members by outcome, e.g. "10 members: 8 upgrade, 2 are skipped".
func (e RunExpectation) Summary() string {
	counts := map[string]int{}
	for _, m := range e.Members {
		counts[m.Outcome]++
	}
	words := []struct{ outcome, one, many string }{
		{ExpectUpgrades, "upgrades", "upgrade"}, {ExpectSkipped, "is skipped", "are skipped"}, {ExpectFails, "fails", "fail"},
		{ExpectWaits, "waits for good", "wait for good"}, {ExpectNotReached, "is not reached", "are not reached"},
	}
	var parts []string
	for _, w := range words {
		switch n := counts[w.outcome]; n {
		case 0:
		case 1:
			parts = append(parts, "1 "+w.one)
		default:
			parts = append(parts, fmt.Sprintf("%d %s", n, w.many))
		}
	}
	noun := "members"
	if len(e.Members) == 1 {
		noun = "member"
	}
	return fmt.Sprintf("%d %s: %s", len(e.Members), noun, strings.Join(parts, ", "))
}

// maxDifferences bounds the members a comparison names one by one.
const maxDifferences = 10

// Differences says, one line each, how what the run would do now differs
// from what was reviewed: a member that joined or left the run, moved to
// another stage or group, or whose outcome class or target version changed.
func (reviewed RunExpectation) Differences(now RunExpectation) []string {
	before := map[string]ExpectedMember{}
	for _, m := range reviewed.Members {
		before[m.Name] = m
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range now.Members {
		seen[m.Name] = true
		b, ok := before[m.Name]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s is now in the run (%s) and %s", m.Name, m.Where(), m.Line()))
		case b.Where() != m.Where():
			out = append(out, fmt.Sprintf("%s is now in %s instead of %s", m.Name, m.Where(), b.Where()))
		case b.Outcome != m.Outcome || b.To != m.To:
			out = append(out, fmt.Sprintf("%s now %s (reviewed: %s)", m.Name, m.Line(), b.Line()))
		}
	}
	for _, m := range reviewed.Members {
		if !seen[m.Name] {
			out = append(out, fmt.Sprintf("%s is no longer in the run (reviewed: %s)", m.Name, m.Line()))
		}
	}
	if len(out) > maxDifferences {
		out = append(out[:maxDifferences], fmt.Sprintf("and %d more members", len(out)-maxDifferences))
	}
	return out
}

// ProfileRetargets reports whether writing next over old starts the
// profile's channel afresh (designs/updates.md §5): another channel, target
// or LTS choice, or a disabled profile enabled again. Such a write — and the
// creation of a profile — records the channel's release at that instant, so
// a release already in the channel then never triggers a run.
func ProfileRetargets(old, next ProfileSpec) bool {
	return old.Channel != next.Channel || old.TargetKubernetesVersion != next.TargetKubernetesVersion ||
		old.LongTermSupport != next.LongTermSupport || (old.Disabled && !next.Disabled)
}

// ProfileResolvesFrom is the part of a profile its channel's resolution
// depends on: channel, target minor, long-term support, image selection.
func ProfileResolvesFrom(p ProfileSpec) ProfileSpec {
	return ProfileSpec{Channel: p.Channel, TargetKubernetesVersion: p.TargetKubernetesVersion, LongTermSupport: p.LongTermSupport,
		NodeImageSelectionType: p.NodeImageSelectionType}
}

// ProfileExpectation is what an auto-upgrade profile's channel resolves to:
// the versions of the run it generates.
type ProfileExpectation struct {
	// Target is the Kubernetes version (empty for NodeImage).
	Target string `json:"target,omitempty"`
	// NodeImages is the newest image per family (NodeImage).
	NodeImages map[string]string `json:"node_images,omitempty"`
	// Unresolved says why the channel resolves to nothing.
	Unresolved string `json:"unresolved,omitempty"`
}

// ExpectProfile is the expectation of a channel's resolution.
func ExpectProfile(r Resolution) ProfileExpectation {
	return ProfileExpectation{Target: r.Target, NodeImages: maps.Clone(r.NodeImages), Unresolved: r.Err}
}

// String is the resolution in words.
func (e ProfileExpectation) String() string {
	switch {
	case e.Unresolved != "":
		return "nothing (" + e.Unresolved + ")"
	case e.Target != "":
		return "Kubernetes " + e.Target
	}
	var imgs []string
	for _, f := range slices.Sorted(maps.Keys(e.NodeImages)) {
		imgs = append(imgs, f+" "+e.NodeImages[f])
	}
	if len(imgs) == 0 {
		return "no node image"
	}
	return "node images " + strings.Join(imgs, ", ")
}

// Differences says how the channel's resolution now differs from the
// reviewed one. A channel that resolves to nothing then and now is the same,
// whatever the words of why.
func (reviewed ProfileExpectation) Differences(now ProfileExpectation) []string {
	if reviewed.Target == now.Target && (reviewed.Unresolved == "") == (now.Unresolved == "") && maps.Equal(reviewed.NodeImages, now.NodeImages) {
		return nil
	}
	return []string{fmt.Sprintf("the channel now resolves to %s (reviewed: %s)", now, reviewed)}
}
