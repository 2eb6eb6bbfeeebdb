package update

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Kinds of warnings returned by StrategyWarnings, RunWarnings and
// ProfileWarnings: the ID of each field.Warning.
const (
	// WarnGroupWithoutMembers: a group of the stages that no member of the
	// fleet has; the service rejects a run that uses it.
	WarnGroupWithoutMembers = "group_without_members"
	// WarnMembersNotInStrategy: members of the fleet in no group of the
	// stages (or in no group at all); a run that uses them never upgrades
	// those members.
	WarnMembersNotInStrategy = "members_not_in_strategy"
	// WarnGroupConcurrencyAboveMembers: a group's integer max_concurrency
	// exceeds the number of its members, which the service rejects.
	WarnGroupConcurrencyAboveMembers = "group_concurrency_above_members"
	// WarnProfileDisabled: a disabled profile never triggers a run.
	WarnProfileDisabled = "profile_disabled"
	// WarnChannelResolvesToNothing: the channel has no target now (ProfilePreviewWarnings).
	WarnChannelResolvesToNothing = "channel_resolves_to_nothing"
	// WarnMembersLeftBehind: members the profile does not move (ProfilePreviewWarnings).
	WarnMembersLeftBehind = "members_left_behind"
	// WarnTargetVersionNotInCatalog: the minor of a TargetKubernetesVersion
	// profile has no generally available release in any region of the
	// fleet, so the profile has nothing to upgrade to.
	WarnTargetVersionNotInCatalog = "target_version_not_in_catalog"
	// WarnVersionLeadingV: a run's kubernetes_version written with a leading
	// v, which the service accepts and the engine reads, but which no AKS or
	// Fleet document, catalog or CLI writes (designs/updates.md §2).
	WarnVersionLeadingV = "kubernetes_version_leading_v"
	// WarnVersionNotReleased: a run's kubernetes_version that no region of
	// the fleet has released, not even in preview: every member it reaches
	// waits for it (designs/updates.md §2).
	WarnVersionNotReleased = "kubernetes_version_not_released"
)

// maxListedMembers is how many member names a warning lists before "and N
// more".
const maxListedMembers = 5

// StrategyWarnings returns the accepted-but-surprising aspects of s on fleet
// f (designs/updates.md §2): groups no member has, group concurrency above
// a group's member count, and members no stage reaches. f may be nil (the
// fleet is unknown): then there is nothing to say. It assumes s validates;
// groups it cannot evaluate (invalid or repeated names) are skipped.
func StrategyWarnings(s Strategy, f *fleet.Fleet) []field.Warning {
	return stagesWarnings(field.Root("stages"), s.Stages, f)
}

// RunWarnings returns the warnings of StrategyWarnings for a run's inline
// stages, at the same paths. A run that references a strategy by id, or
// updates every member one by one, gets none: the referenced strategy has
// its own warnings, and a one-by-one run reaches every member.
func RunWarnings(r RunSpec, f *fleet.Fleet) []field.Warning {
	ws := upgradeWarnings(r.ManagedClusterUpdate.Upgrade, f)
	if r.Strategy == nil {
		return ws
	}
	return append(ws, stagesWarnings(field.Root("stages"), r.Strategy.Stages, f)...)
}

// upgradeWarnings flags a run's kubernetes_version written with a leading v,
// and one that no region of fleet f has released (f may be nil: then only
// the first). A version that does not parse is validation's.
func upgradeWarnings(u Upgrade, f *fleet.Fleet) []field.Warning {
	if u.KubernetesVersion == "" || u.Type == UpgradeNodeImageOnly {
		return nil
	}
	v, err := ParseVersion(u.KubernetesVersion)
	if err != nil {
		return nil
	}
	p := field.Root("upgrade").Child("kubernetes_version")
	var ws []field.Warning
	bare := strings.TrimLeft(u.KubernetesVersion, "vV")
	if bare != u.KubernetesVersion {
		ws = append(ws, field.Warning{Path: p, ID: WarnVersionLeadingV, Message: fmt.Sprintf("%q has a leading v: it is read as %s, but "+
			"AKS and Fleet write versions without it (the catalogs, az aks get-versions, the run's status); write %q", u.KubernetesVersion, bare, bare)})
	}
	if f == nil {
		return ws
	}
	minorOnly := strings.Count(bare, ".") == 1
	catalog := false
	var newest Version
	for _, r := range f.Regions {
		for _, k := range r.KubernetesVersions {
			catalog = true
			kv, err := ParseVersion(k.Version)
			if err != nil {
				continue
			}
			if kv == v || minorOnly && kv.Major == v.Major && kv.Minor == v.Minor {
				return ws
			}
			if newest.Less(kv) {
				newest = kv
			}
		}
	}
	if !catalog {
		return ws
	}
	return append(ws, field.Warning{Path: p, ID: WarnVersionNotReleased, Message: fmt.Sprintf("no region of the fleet has released "+
		"Kubernetes %s, not even in preview (the newest release is %s): every member the run reaches waits for it, and the run "+
		"does not finish until it is released; check the version", bare, newest)})
}

// ServiceRefusals are the warnings of a run's stages (its inline or copied
// strategy) that the service turns into a refusal of the run: an update
// group no member of the fleet has, a group's max_concurrency above its
// member count (designs/updates.md §2). A hub refuses to create such a run
// with these messages; the provider warns about them at plan, when the
// fleet may still change before the run is created.
func ServiceRefusals(strategy *Strategy, f *fleet.Fleet) []field.Warning {
	if strategy == nil {
		return nil
	}
	var out []field.Warning
	for _, w := range stagesWarnings(field.Root("stages"), strategy.Stages, f) {
		if w.ID == WarnGroupWithoutMembers || w.ID == WarnGroupConcurrencyAboveMembers {
			out = append(out, w)
		}
	}
	return out
}

func stagesWarnings(p field.Path, stages []Stage, f *fleet.Fleet) []field.Warning {
	if f == nil || len(stages) == 0 {
		return nil
	}
	members := map[string][]string{} // group -> member names, in name order
	for _, c := range f.Clusters {
		members[c.Group] = append(members[c.Group], c.Name)
	}
	var ws []field.Warning
	used := map[string]bool{}
	for i, s := range stages {
		for j, g := range s.Groups {
			if nameProblem(g.Name, MaxNameLength) != "" || used[g.Name] {
				continue
			}
			used[g.Name] = true
			gp := p.Index(i).Child("groups").Index(j)
			n := len(members[g.Name])
			if n == 0 {
				ws = append(ws, field.Warning{Path: gp.Child("name"), ID: WarnGroupWithoutMembers,
					Message: fmt.Sprintf("no member of the fleet is in update group %q, so the service rejects a run that uses it; %s. "+
						"Set the group of the members to upgrade here, or correct the name", g.Name, fleetGroups(members))})
				continue
			}
			if c, pct, ok := parseConcurrency(g.MaxConcurrency); ok && !pct && c > n {
				ws = append(ws, field.Warning{Path: gp.Child("max_concurrency"), ID: WarnGroupConcurrencyAboveMembers,
					Message: fmt.Sprintf("max_concurrency %s exceeds the %d member(s) of group %q, and the service rejects a group's "+
						"max_concurrency above its member count; use at most %d, or a percentage", g.MaxConcurrency, n, g.Name, n)})
			}
		}
	}
	var left []string
	for _, c := range f.Clusters {
		if used[c.Group] {
			continue
		}
		if c.Group == "" {
			left = append(left, c.Name+" (no group)")
		} else {
			left = append(left, fmt.Sprintf("%s (group %q)", c.Name, c.Group))
		}
	}
	if len(left) > 0 {
		ws = append(ws, field.Warning{Path: p, ID: WarnMembersNotInStrategy,
			Message: fmt.Sprintf("%d member(s) of the fleet are in no group of these stages and are never upgraded by it: %s. "+
				"Add their groups to a stage, or set their group to one the stages list", len(left), listNames(left))})
	}
	return ws
}

// fleetGroups describes the groups the fleet's members have.
func fleetGroups(members map[string][]string) string {
	var groups []string
	for g := range members {
		if g != "" {
			groups = append(groups, g)
		}
	}
	if len(groups) == 0 {
		return "no member of the fleet has a group"
	}
	sort.Strings(groups)
	return "the fleet's groups are " + listNames(groups)
}

// listNames joins names, the first maxListedMembers of them, then "and N more".
func listNames(names []string) string {
	if len(names) <= maxListedMembers {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxListedMembers], ", "), len(names)-maxListedMembers)
}

// ProfileWarnings returns the accepted-but-surprising aspects of profile p
// (designs/updates.md §5): a disabled profile, which never triggers, and,
// with fleet f known, a TargetKubernetesVersion minor of which no region of
// the fleet has a generally available release. f may be nil (the fleet is
// unknown): then only the first is said. A profile of channel Stable, Rapid
// or TargetKubernetesVersion without a strategy is no surprise (it updates
// every member one by one) and gets no warning.
func ProfileWarnings(p ProfileSpec, f *fleet.Fleet) []field.Warning {
	var ws []field.Warning
	if p.Disabled {
		ws = append(ws, field.Warning{Path: field.Root("disabled"), ID: WarnProfileDisabled,
			Message: "the profile is disabled: it never triggers an update run when a new version enters its channel " +
				"(a run can still be generated from it on demand); set disabled = false to upgrade automatically"})
	}
	if f != nil && p.Channel == ChannelTargetKubernetesVersion && targetMinorPattern.MatchString(p.TargetKubernetesVersion) {
		if w, ok := targetVersionWarning(p.TargetKubernetesVersion, f); ok {
			ws = append(ws, w)
		}
	}
	return ws
}

// targetVersionWarning flags a target minor with no generally available
// release in the fleet's catalogs. Warnings read no clock, so every GA
// release counts, whatever its date: the warning is about a minor the
// catalog does not list at all. A fleet without a Kubernetes catalog says
// nothing.
func targetVersionWarning(target string, f *fleet.Fleet) (field.Warning, bool) {
	t, err := ParseVersion(target)
	if err != nil {
		return field.Warning{}, false
	}
	var minors []Version // GA minors, newest first
	seen := map[Version]bool{}
	catalog := false
	for _, r := range f.Regions {
		for _, k := range r.KubernetesVersions {
			catalog = true
			v, err := ParseVersion(k.Version)
			if err != nil || k.Preview {
				continue
			}
			if v.Major == t.Major && v.Minor == t.Minor {
				return field.Warning{}, false
			}
			m := Version{Major: v.Major, Minor: v.Minor}
			if !seen[m] {
				seen[m] = true
				minors = append(minors, m)
			}
		}
	}
	if !catalog {
		return field.Warning{}, false
	}
	sort.Slice(minors, func(i, j int) bool { return minors[j].Less(minors[i]) })
	ga := "the catalog has no generally available version"
	if len(minors) > 0 {
		names := make([]string, len(minors))
		for i, m := range minors {
			names[i] = m.MinorString()
		}
		ga = "generally available minors: " + listNames(names)
	}
	return field.Warning{Path: field.Root("target_kubernetes_version"), ID: WarnTargetVersionNotInCatalog,
		Message: fmt.Sprintf("no region of the fleet has a generally available Kubernetes %s release (%s), so the profile has nothing "+
			"to upgrade to and triggers no update run until one is released; check the version", t.MinorString(), ga)}, true
}
