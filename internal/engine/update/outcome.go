package update

import (
	"fmt"
	"strings"
	"time"
)

// What a run does to a member when it reaches it: upgrade, skip or wait, and
// which versions it installs (designs/updates.md §3).

// Outcomes a run predicts for a member when it reaches it (designs/updates.md §3).
const (
	OutcomeUpgrade = "Upgrade"
	OutcomeSkipped = "Skipped"
	OutcomePending = "Pending"
	// OutcomeFail: the upgrade is refused (a minor version skipped) or, on the
	// mock hub, an injected failure; the run fails there (designs/updates.md §4).
	OutcomeFail = "Fail"
)

// Reasons for skipped and pending members.
const (
	ReasonUpToDate           = "already-up-to-date"
	ReasonNoConsistentImage  = "no-consistent-image"
	ReasonWindowClosed       = "maintenance-window-closed"
	ReasonVersionNotInRegion = "version-not-in-region"
	ReasonSkippedByUser      = "skipped-by-user"
	ReasonSkipsMinor         = "skips-a-minor-version"
	ReasonInjectedFailure    = "injected-failure"
)

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
	// A member already past the target is left as it is (AKS does not
	// downgrade), whatever its images: said before any image reason.
	if wantK8s && k.toK8s != "" && newerVersion(m.KubernetesVersion, k.toK8s) {
		k.outcome, k.reason = OutcomeSkipped, ReasonUpToDate
		k.msg = fmt.Sprintf("already at %s, newer than the target %s", m.KubernetesVersion, k.toK8s)
		return
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
	// A run an auto-upgrade profile generated leaves members outside the
	// supported minors, or more than one minor behind, as they are.
	if a := s.x.AutoUpgrade; a != nil {
		to := ""
		if wantK8s {
			to = k.toK8s
		}
		if reason, msg, back := a.leftBehind(*m, to, s.releases(t)); reason != "" {
			k.outcome, k.reason, k.msg, k.bringBack = OutcomeSkipped, reason, msg, back
			return
		}
	}
	// AKS upgrades the control plane one minor version at a time: a member
	// further behind is refused at once, and the run fails on it.
	if cur, err := ParseVersion(m.KubernetesVersion); wantK8s && !notInRegion && err == nil {
		if to, err := ParseVersion(k.toK8s); err == nil && to.Major == cur.Major && to.Minor > cur.Minor+1 {
			k.fails, k.failsAtOnce = fmt.Sprintf("AKS upgrades one minor version at a time: %s cannot go to %s; take it to %d.%d first with another run",
				m.KubernetesVersion, k.toK8s, cur.Major, cur.Minor+1), true
		}
	}
	if k.fails == "" && m.Failure != "" {
		k.fails = m.Failure // the mock inventory's injected failure, at the end of the upgrade
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
	switch {
	case k.fails != "" && !k.deferred:
		k.outcome, k.msg = OutcomeFail, k.fails
		k.reason = ReasonInjectedFailure
		if k.failsAtOnce {
			k.reason = ReasonSkipsMinor
		}
	case !k.deferred:
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
