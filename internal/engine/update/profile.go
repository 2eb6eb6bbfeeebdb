package update

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Auto-upgrade profiles (designs/updates.md §5): what a channel resolves to
// at an instant, the run a profile generates, which members such a run
// leaves behind and how to bring them back, and when a profile triggers.

// Releases summarises the generally available Kubernetes releases of a
// fleet's regions at an instant. Preview releases never count.
type Releases struct {
	// GA are the versions released in any region by the instant, newest first.
	GA []Version
	// LTS are the minors (patch 0) with a GA release marked long-term support.
	LTS map[Version]bool
	// supported caches Supported(false) and Supported(true).
	supported *[2][]Version
}

// ReleasesAt collects the GA releases of regions at or before now.
func ReleasesAt(regions []fleet.Region, now time.Time) Releases {
	return newReleaseIndex(regions).at(now)
}

func minorOf(v Version) Version { return Version{v.Major, v.Minor, 0} }

// SupportedWindow is how many minors back from the newest AKS supports: N, N−1, N−2.
const SupportedWindow = 3

// Supported are the minors auto-upgrade moves members within (patch 0),
// newest first: N, N−1 and N−2 of the newest GA minor N, and, with lts,
// every minor with a GA long-term-support release.
func (r Releases) Supported(lts bool) []Version {
	if r.supported != nil {
		if lts {
			return r.supported[1]
		}
		return r.supported[0]
	}
	if len(r.GA) == 0 {
		return nil
	}
	n := r.GA[0]
	seen := map[Version]bool{}
	var out []Version
	add := func(v Version) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for i := 0; i < SupportedWindow && n.Minor-i >= 0; i++ { // those AKS offers: with a GA release
		if v := (Version{n.Major, n.Minor - i, 0}); r.hasMinor(v) {
			add(v)
		}
	}
	if lts {
		for v := range r.LTS {
			add(v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[j].Less(out[i]) })
	return out
}

// hasMinor reports whether minor has a GA release.
func (r Releases) hasMinor(minor Version) bool {
	_, ok := r.newestPatch(minor)
	return ok
}

// newestPatch is the newest GA patch of a minor.
func (r Releases) newestPatch(minor Version) (Version, bool) { return newestPatch(r.GA, minor) }

// minorsString renders minors as "1.31, 1.30, 1.29".
func minorsString(vs []Version) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.MinorString()
	}
	return strings.Join(parts, ", ")
}

// releaseIndex answers ReleasesAt for the many instants of one simulation:
// the GA releases parsed once and sorted by release time, and one Releases
// per number of releases out.
type releaseIndex struct {
	times []time.Time
	rels  []parsedRelease
	memo  map[int]Releases
}

type parsedRelease struct {
	v   Version
	lts bool
}

func newReleaseIndex(regions []fleet.Region) *releaseIndex {
	type entry struct {
		at time.Time
		r  parsedRelease
	}
	var es []entry
	for _, reg := range regions {
		for _, k := range reg.KubernetesVersions {
			if v, err := ParseVersion(k.Version); err == nil && !k.Preview {
				es = append(es, entry{k.ReleasedAt, parsedRelease{v, k.LTS}})
			}
		}
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].at.Before(es[j].at) })
	ix := &releaseIndex{memo: map[int]Releases{}}
	for _, e := range es {
		ix.times, ix.rels = append(ix.times, e.at), append(ix.rels, e.r)
	}
	return ix
}

// at is the GA releases at t (ReleasesAt).
func (ix *releaseIndex) at(t time.Time) Releases {
	n := sort.Search(len(ix.times), func(i int) bool { return ix.times[i].After(t) })
	if r, ok := ix.memo[n]; ok {
		return r
	}
	r := Releases{LTS: map[Version]bool{}}
	seen := map[Version]bool{}
	for _, pr := range ix.rels[:n] {
		if !seen[pr.v] {
			seen[pr.v] = true
			r.GA = append(r.GA, pr.v)
		}
		if pr.lts {
			r.LTS[minorOf(pr.v)] = true
		}
	}
	sort.Slice(r.GA, func(i, j int) bool { return r.GA[j].Less(r.GA[i]) })
	r.supported = &[2][]Version{r.Supported(false), r.Supported(true)}
	ix.memo[n] = r
	return r
}

// Resolution is what an auto-upgrade profile's channel resolves to at an instant.
type Resolution struct {
	At      time.Time `json:"at"`
	Channel string    `json:"channel"`
	// Target is the Kubernetes version the channel takes members to; empty
	// for NodeImage and when the channel resolves to nothing (Err).
	Target string `json:"target"`
	// NewestMinor is N, the newest GA minor ("" with an empty catalog).
	NewestMinor string `json:"newest_minor"`
	// SupportedMinors are the minors the profile moves members within, newest first.
	SupportedMinors []string `json:"supported_minors"`
	// NodeImages are, for channel NodeImage, the newest GA image of each
	// family in any region: what the channel takes node pools to.
	NodeImages map[string]string `json:"node_images"`
	// Err says why the channel resolves to nothing now; no run is generated.
	Err string `json:"err"`
}

// ResolveProfile resolves profile p's channel against the regions' catalogs
// at now: Rapid the newest patch of N, Stable the newest patch of N−1,
// TargetKubernetesVersion the newest patch of the given minor, which must be
// supported (an LTS minor with long_term_support), NodeImage the newest image
// of each family (designs/updates.md §5).
func ResolveProfile(p ProfileSpec, regions []fleet.Region, now time.Time) Resolution {
	return resolveProfile(p, ReleasesAt(regions, now), regions, now)
}

// resolveProfile is ResolveProfile with the GA releases at now given.
func resolveProfile(p ProfileSpec, rel Releases, regions []fleet.Region, now time.Time) Resolution {
	res := Resolution{At: now, Channel: p.Channel}
	supported := rel.Supported(p.LongTermSupport)
	for _, v := range supported {
		res.SupportedMinors = append(res.SupportedMinors, v.MinorString())
	}
	if len(rel.GA) > 0 {
		res.NewestMinor = rel.GA[0].MinorString()
	}
	if p.Channel == ChannelNodeImage {
		res.NodeImages = NewestNodeImages(regions, now)
		if len(res.NodeImages) == 0 {
			res.Err = "no node image is released in any region of the fleet"
		}
		return res
	}
	v, ok, err := ChannelTarget(p.Channel, p.TargetKubernetesVersion, rel.GA)
	switch {
	case err != nil:
		res.Err = err.Error()
	case ok && p.Channel == ChannelTargetKubernetesVersion && !containsMinor(supported, v):
		res.Err = fmt.Sprintf("%s is outside the supported minors (%s)", v.MinorString(), minorsString(supported))
		if rel.LTS[minorOf(v)] && !p.LongTermSupport {
			res.Err += "; it is a long-term-support minor: set long_term_support = true to follow it"
		}
	case ok:
		res.Target = v.String()
	}
	return res
}

func containsMinor(vs []Version, v Version) bool {
	for _, s := range vs {
		if s.Major == v.Major && s.Minor == v.Minor {
			return true
		}
	}
	return false
}

// NewestNodeImages is the newest node image of each family released in any
// region at or before now.
func NewestNodeImages(regions []fleet.Region, now time.Time) map[string]string {
	out := map[string]string{}
	for _, r := range regions {
		for _, im := range r.NodeImages {
			if im.ReleasedAt.After(now) {
				continue
			}
			if cur, ok := out[im.Family]; !ok || ImageLess(cur, im.Version) {
				out[im.Family] = im.Version
			}
		}
	}
	return out
}

// Key identifies what the channel resolves to: a profile triggers when its
// key changes. Empty when it resolves to nothing.
func (r Resolution) Key() string {
	if r.Err != "" {
		return ""
	}
	if r.Channel != ChannelNodeImage {
		return r.Target
	}
	return strings.Join(r.UpgradeVersions(), ",")
}

// UpgradeVersions are the versions a run generated now installs: the
// Kubernetes target, or the node images as <family>-<version>, sorted (a
// profile's lastTriggerUpgradeVersions).
func (r Resolution) UpgradeVersions() []string {
	if r.Err != "" {
		return nil
	}
	if r.Channel != ChannelNodeImage {
		return []string{r.Target}
	}
	out := make([]string, 0, len(r.NodeImages))
	for fam, v := range r.NodeImages {
		out = append(out, fam+"-"+v)
	}
	sort.Strings(out)
	return out
}

// ProfileUpdate is the upgrade a run generated from profile p at resolution
// res applies: Full to the target (NodeImageOnly for channel NodeImage) with
// the profile's node image selection, Latest when unset. ok is false when the
// channel resolves to nothing.
func ProfileUpdate(p ProfileSpec, res Resolution) (u ManagedClusterUpdate, ok bool) {
	if res.Err != "" {
		return ManagedClusterUpdate{}, false
	}
	u.NodeImageSelection.Type = DefaultNodeImageSelection
	if p.NodeImageSelectionType != "" {
		u.NodeImageSelection.Type = p.NodeImageSelectionType
	}
	if p.Channel == ChannelNodeImage {
		u.Upgrade = Upgrade{Type: UpgradeNodeImageOnly}
	} else {
		u.Upgrade = Upgrade{Type: UpgradeFull, KubernetesVersion: res.Target}
	}
	return u, true
}

// AutoUpgrade marks a run generated by an auto-upgrade profile: the
// profile's rules for members apply to it (designs/updates.md §5).
type AutoUpgrade struct {
	Profile         string `json:"profile"`
	LongTermSupport bool   `json:"long_term_support"`
}

// Reasons a profile's run leaves a member behind.
const (
	// ReasonOutsideSupport: the member's minor is outside the supported minors.
	ReasonOutsideSupport = "outside-supported-window"
	// ReasonAutoSkipsMinor: the target is more than one minor ahead of the member.
	ReasonAutoSkipsMinor = "more-than-one-minor-behind"
)

// leftBehind applies a profile run's rules to member m reached at t with
// Kubernetes target to ("" for node images only): a member whose minor is
// outside the supported window is not upgraded, nor one the target is more
// than one minor ahead of. back are the versions manual runs must take it
// to, in order, before the profile moves it again.
func (a *AutoUpgrade) leftBehind(m Member, to string, rel Releases) (reason, msg string, back []string) {
	cur, err := ParseVersion(m.KubernetesVersion)
	if err != nil {
		return "", "", nil
	}
	supported := rel.Supported(a.LongTermSupport)
	if len(supported) == 0 {
		return "", "", nil
	}
	target, terr := ParseVersion(to)
	if !containsMinor(supported, cur) {
		// Bring it, one minor at a time, to the lowest supported minor above
		// its own, and at least to the one below the target's, never past it.
		goal, found := Version{}, false
		for i := len(supported) - 1; i >= 0 && !found; i-- {
			if v := supported[i]; v.Major == cur.Major && v.Minor > cur.Minor {
				goal, found = v, true
			}
		}
		if terr == nil && target.Major == cur.Major {
			if below := (Version{target.Major, target.Minor - 1, 0}); !found || goal.Less(below) {
				goal, found = below, true
			}
			if target.Minor < goal.Minor {
				goal = minorOf(target)
			}
		}
		if found {
			back = rel.path(cur, goal)
		}
		msg = fmt.Sprintf("not upgraded: %s is outside the supported minors (%s) and auto-upgrade leaves it as it is", cur.MinorString(), minorsString(supported))
		return ReasonOutsideSupport, msg + bringBack(back, to), back
	}
	if terr == nil && target.Major == cur.Major && target.Minor > cur.Minor+1 {
		back = rel.path(cur, Version{target.Major, target.Minor - 1, 0})
		msg = fmt.Sprintf("not upgraded: %s is more than one minor behind the target %s and auto-upgrade never skips a minor", cur, to)
		return ReasonAutoSkipsMinor, msg + bringBack(back, to), back
	}
	return "", "", nil
}

// path is the newest GA patch of every minor after from's up to goal's, in
// order; nil when there is none to take (goal in another major, or a minor
// in between without a GA release: no manual run can go through it).
func (r Releases) path(from, goal Version) []string {
	if goal.Major != from.Major {
		return nil
	}
	var out []string
	for mi := from.Minor + 1; mi <= goal.Minor; mi++ {
		v, ok := r.newestPatch(Version{from.Major, mi, 0})
		if !ok {
			return nil
		}
		out = append(out, v.String())
	}
	return out
}

// bringBack says how to bring a member left behind back into the profile.
func bringBack(back []string, to string) string {
	if len(back) == 0 {
		return ""
	}
	s := "; bring it back with a manual update run to " + strings.Join(back, ", then to ")
	if to != "" && back[len(back)-1] == to {
		return s + ", where the profile keeps it"
	}
	if to != "" {
		return s + ", and the profile then takes it to " + to
	}
	return s + ", and the profile then upgrades its node images"
}

// ProfilePreview is what an auto-upgrade profile does if its channel
// triggers now: the channel's resolution and the rollout of the run it
// generates, in the order of its strategy (one by one without one).
type ProfilePreview struct {
	Resolution Resolution `json:"resolution"`
	// Update is what the generated run applies; zero when Resolution.Err.
	Update  ManagedClusterUpdate `json:"update"`
	Rollout *Preview             `json:"rollout"`
	// LeftBehind are the members the profile does not move, by name, as of
	// the preview's instant — every one of them, whether or not the
	// rollout reaches it (a run that fails or waits stops short).
	LeftBehind map[string]LeftBehindMember `json:"left_behind"`
}

// LeftBehindMember is why a profile leaves a member as it is, and the way back.
type LeftBehindMember struct {
	Reason    string   `json:"reason"`
	Message   string   `json:"message"`
	BringBack []string `json:"bring_back"`
}

// PreviewProfile previews profile p (named name) over members at now:
// the run it would generate, started now (designs/updates.md §5).
func PreviewProfile(name string, p ProfileSpec, strategy *Strategy, members []Member, regions []fleet.Region, d time.Duration, now time.Time) ProfilePreview {
	rel := ReleasesAt(regions, now)
	res := resolveProfile(p, rel, regions, now)
	out := ProfilePreview{Resolution: res}
	u, ok := ProfileUpdate(p, res)
	if !ok {
		return out
	}
	out.Update = u
	a := &AutoUpgrade{Profile: name, LongTermSupport: p.LongTermSupport}
	pv := PreviewGeneratedRun(u, strategy, a, members, regions, d, now)
	out.Rollout = &pv
	out.LeftBehind = map[string]LeftBehindMember{}
	for _, m := range members {
		if reason, msg, back := a.leftBehind(m, res.Target, rel); reason != "" {
			out.LeftBehind[m.Name] = LeftBehindMember{Reason: reason, Message: msg, BringBack: back}
		}
	}
	return out
}

// Summary is the profile preview in one line.
func (pp ProfilePreview) Summary() string {
	res := pp.Resolution
	var head string
	switch {
	case res.Err != "":
		return fmt.Sprintf("channel %s resolves to nothing now: %s", res.Channel, res.Err)
	case res.Channel == ChannelNodeImage:
		head = "channel NodeImage: node images " + strings.Join(res.UpgradeVersions(), ", ")
	default:
		head = fmt.Sprintf("channel %s: Kubernetes %s", res.Channel, res.Target)
	}
	if pp.Rollout == nil {
		return head
	}
	return head + "; " + pp.Rollout.Summary()
}

// keyNewer reports whether key moves the channel forward from seen: a newer
// Kubernetes target, or for NodeImage a newer image of some family (or a new
// family). A catalog edit that removes a release moves it back: no trigger.
func keyNewer(channel, seen, key string) bool {
	if seen == "" {
		return key != ""
	}
	if channel != ChannelNodeImage {
		a, ea := ParseVersion(seen)
		b, eb := ParseVersion(key)
		if ea != nil || eb != nil {
			return key != seen
		}
		return a.Less(b)
	}
	old := map[string]string{}
	for _, fv := range strings.Split(seen, ",") {
		if i := strings.LastIndex(fv, "-"); i > 0 {
			old[fv[:i]] = fv[i+1:]
		}
	}
	for _, fv := range strings.Split(key, ",") {
		i := strings.LastIndex(fv, "-")
		if i <= 0 {
			continue
		}
		if v, ok := old[fv[:i]]; !ok || ImageLess(v, fv[i+1:]) {
			return true
		}
	}
	return false
}

// ProfilePreviewWarnings are the accepted-but-surprising aspects of a
// profile's preview (designs/updates.md §5): a channel that resolves to
// nothing now (no run would be generated), and the members the profile
// would leave behind, named with the way back.
func ProfilePreviewWarnings(pp ProfilePreview) []field.Warning {
	var ws []field.Warning
	if pp.Resolution.Err != "" {
		ws = append(ws, field.Warning{Path: field.Root("channel"), ID: WarnChannelResolvesToNothing,
			Message: fmt.Sprintf("channel %s resolves to nothing now: %s; the profile triggers once a release enters the channel", pp.Resolution.Channel, pp.Resolution.Err)})
	}
	if pp.Rollout == nil {
		return ws
	}
	var left []string
	for _, name := range slices.Sorted(maps.Keys(pp.LeftBehind)) {
		if back := pp.LeftBehind[name].BringBack; len(back) > 0 {
			left = append(left, name+" (to "+strings.Join(back, ", then ")+" first)")
		} else {
			left = append(left, name)
		}
	}
	if len(left) > 0 {
		ws = append(ws, field.Warning{Path: field.Root("channel"), ID: WarnMembersLeftBehind,
			Message: fmt.Sprintf("%d member(s) are left behind — auto-upgrade never moves a member across more than one minor or "+
				"outside the supported minors — until manual update runs bring them back: %s",
				len(left), listNames(left))})
	}
	return ws
}

// MaxTriggers bounds how many triggers ProfileTriggers returns at once.
const MaxTriggers = 20

// ProfileTriggers are the moments in (since, now] at which an enabled
// profile p, whose channel last resolved to seen (Resolution.Key) at since,
// triggers: each release in that span (of Kubernetes, or of node images for
// channel NodeImage) that moves the channel to a new target, and now itself
// when the catalog changed without such a release in the span (a release
// added with an earlier date). Each comes with the resolution at
// that instant, oldest first, at most MaxTriggers (the newest kept).
func ProfileTriggers(p ProfileSpec, regions []fleet.Region, seen string, since, now time.Time) []Resolution {
	if p.Disabled || !now.After(since) {
		return nil // a clock behind the last trigger (another process's) decides nothing
	}
	instants := map[time.Time]bool{now: true}
	for _, r := range regions { // the releases the channel's key depends on
		if p.Channel != ChannelNodeImage {
			for _, k := range r.KubernetesVersions {
				if k.ReleasedAt.After(since) && !k.ReleasedAt.After(now) {
					instants[k.ReleasedAt] = true
				}
			}
			continue
		}
		for _, im := range r.NodeImages {
			if im.ReleasedAt.After(since) && !im.ReleasedAt.After(now) {
				instants[im.ReleasedAt] = true
			}
		}
	}
	ts := make([]time.Time, 0, len(instants))
	for t := range instants {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	var out []Resolution
	ix := newReleaseIndex(regions)
	for _, t := range ts {
		res := resolveProfile(p, ix.at(t), regions, t)
		if k := res.Key(); k != "" && keyNewer(p.Channel, seen, k) {
			out = append(out, res)
			seen = k
		}
	}
	if len(out) > MaxTriggers {
		out = out[len(out)-MaxTriggers:]
	}
	return out
}
