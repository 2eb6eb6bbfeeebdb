package aksconv

import (
	"slices"
	"sort"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

// released is one Kubernetes version of a region's catalog released at an instant.
type released struct {
	raw     string // as the catalog writes it
	v       update.Version
	preview bool
	lts     bool
}

// releasedAt is the Kubernetes versions of r released at or before now, each
// once (a version listed twice is GA when either entry is, LTS when either
// is), oldest first. Versions that do not parse are left out: ARM lists
// them by major.minor and the engine ignores them too.
func releasedAt(r *fleet.Region, now time.Time) []released {
	if r == nil {
		return nil
	}
	byRaw := map[string]int{}
	var out []released
	for _, k := range r.KubernetesVersions {
		if k.ReleasedAt.After(now) {
			continue
		}
		v, err := update.ParseVersion(k.Version)
		if err != nil {
			continue
		}
		if i, ok := byRaw[k.Version]; ok {
			out[i].preview = out[i].preview && k.Preview
			out[i].lts = out[i].lts || k.LTS
			continue
		}
		byRaw[k.Version] = len(out)
		out = append(out, released{raw: k.Version, v: v, preview: k.Preview, lts: k.LTS})
	}
	sortReleased(out)
	return out
}

func sortReleased(rs []released) {
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].v != rs[j].v {
			return rs[i].v.Less(rs[j].v)
		}
		return rs[i].raw < rs[j].raw
	})
}

// minorOf is the major.minor of v.
func minorOf(v update.Version) update.Version { return update.Version{Major: v.Major, Minor: v.Minor} }

// KubernetesVersions is the Kubernetes version list ARM returns for region r
// at now (locations/{l}/kubernetesVersions): the versions released there at
// or before now, one entry per minor, oldest first.
//
//   - patchVersions: every listed patch of the minor, each with the upgrades
//     AKS lists for it: the newer listed patches of its minor and the listed
//     patches of the next minor, oldest first.
//   - isPreview: ARM marks preview per minor. A minor whose released patches
//     are all preview is marked preview and lists them. A minor with GA
//     patches is GA and lists only those: ARM cannot say that one patch of a
//     GA minor is preview, and listing it as GA would let a minor target
//     (which takes the newest GA patch) pick it. Such a preview patch is
//     missing from the list (AKS itself never has mixed minors: a minor is
//     preview until it goes GA as a whole); AgentPoolUpgradeProfile, whose
//     upgrades carry isPreview per version, still offers it.
//   - capabilities.supportPlan: KubernetesOfficial, plus AKSLongTermSupport
//     when any released patch of the minor is LTS.
//   - isDefault: as AKS does, the GA minor before the newest GA minor (N−1),
//     or the only GA minor; no minor when none is GA. Other minors omit it,
//     as they omit a false isPreview.
func KubernetesVersions(r *fleet.Region, now time.Time) armcontainerservice.KubernetesVersionListResult {
	type minor struct {
		v           update.Version
		ga, preview []released
		lts         bool
		listed      []released // what the list carries: ga, or preview when there is no GA patch
	}
	var minors []*minor
	byMinor := map[update.Version]*minor{}
	for _, rel := range releasedAt(r, now) {
		m := byMinor[minorOf(rel.v)]
		if m == nil {
			m = &minor{v: minorOf(rel.v)}
			byMinor[m.v] = m
			minors = append(minors, m) // releasedAt is sorted: minors are too
		}
		if rel.preview {
			m.preview = append(m.preview, rel)
		} else {
			m.ga = append(m.ga, rel)
		}
		m.lts = m.lts || rel.lts
	}
	var ga []*minor
	for _, m := range minors {
		m.listed = m.ga
		if len(m.ga) == 0 {
			m.listed = m.preview
		} else {
			ga = append(ga, m)
		}
	}
	var def *minor
	switch {
	case len(ga) >= 2:
		def = ga[len(ga)-2]
	case len(ga) == 1:
		def = ga[0]
	}
	out := armcontainerservice.KubernetesVersionListResult{Values: []*armcontainerservice.KubernetesVersion{}}
	for i, m := range minors {
		var next []released
		if i+1 < len(minors) && minors[i+1].v == (update.Version{Major: m.v.Major, Minor: m.v.Minor + 1}) {
			next = minors[i+1].listed
		}
		patches := map[string]*armcontainerservice.KubernetesPatchVersion{}
		for j, p := range m.listed {
			ups := []*string{} // AKS writes "upgrades": [] for the newest patch
			for _, u := range append(slices.Clone(m.listed[j+1:]), next...) {
				ups = append(ups, to.Ptr(u.raw))
			}
			patches[p.raw] = &armcontainerservice.KubernetesPatchVersion{Upgrades: ups}
		}
		plans := []*armcontainerservice.KubernetesSupportPlan{to.Ptr(armcontainerservice.KubernetesSupportPlanKubernetesOfficial)}
		if m.lts {
			plans = append(plans, to.Ptr(armcontainerservice.KubernetesSupportPlanAKSLongTermSupport))
		}
		kv := &armcontainerservice.KubernetesVersion{
			Version:       to.Ptr(m.v.MinorString()),
			PatchVersions: patches,
			Capabilities:  &armcontainerservice.KubernetesVersionCapabilities{SupportPlan: plans},
		}
		if len(m.ga) == 0 {
			kv.IsPreview = to.Ptr(true)
		}
		if m == def {
			kv.IsDefault = to.Ptr(true)
		}
		out.Values = append(out.Values, kv)
	}
	return out
}

// Releases reads a region's Kubernetes catalog from its version list: one
// release per listed patch, oldest first, Preview when its minor is preview,
// LTS when its minor's support plans include AKSLongTermSupport. ReleasedAt
// is zero: ARM does not publish release times, so a listed version counts as
// released, and the engine, which asks !ReleasedAt.After(t), takes the zero
// time as "already released" at every t. Patch keys that are not Kubernetes
// versions are left out (the engine ignores them anyway); a patch listed
// under two minors is kept once, with the first minor's flags.
func Releases(l armcontainerservice.KubernetesVersionListResult) []fleet.KubernetesRelease {
	var rs []released
	seen := map[string]bool{}
	for _, kv := range l.Values {
		if kv == nil {
			continue
		}
		preview := deref(kv.IsPreview)
		lts := false
		if kv.Capabilities != nil {
			for _, p := range kv.Capabilities.SupportPlan {
				if p != nil && *p == armcontainerservice.KubernetesSupportPlanAKSLongTermSupport {
					lts = true
				}
			}
		}
		// Map order is random: take the keys in order so that duplicates resolve the same way.
		keys := make([]string, 0, len(kv.PatchVersions))
		for k := range kv.PatchVersions {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v, err := update.ParseVersion(k)
			if err != nil || seen[k] {
				continue
			}
			seen[k] = true
			rs = append(rs, released{raw: k, v: v, preview: preview, lts: lts})
		}
	}
	sortReleased(rs)
	var out []fleet.KubernetesRelease
	for _, r := range rs {
		out = append(out, fleet.KubernetesRelease{Version: r.raw, Preview: r.preview, LTS: r.lts})
	}
	return out
}

// AgentPoolUpgradeProfile is the upgrade profile ARM returns at now for
// agent pool pool of cluster c in region r
// (managedClusters/{c}/agentPools/{p}/upgradeProfiles/default): the pool's
// Kubernetes version (the cluster's), Linux, the upgrades AKS offers — the
// Kubernetes versions released in r by now that are newer patches of the
// pool's minor or patches of the next minor, oldest first, each flagged
// isPreview when it is (per version, unlike the version list) — and
// latestNodeImageVersion, the newest image of the pool's family released in r
// by now, written <family>-<version>. It is left out when r has released no
// image of that family yet, so that the client sees exactly the catalog.
func AgentPoolUpgradeProfile(r *fleet.Region, c *fleet.Cluster, pool fleet.NodePool, now time.Time) armcontainerservice.AgentPoolUpgradeProfile {
	props := &armcontainerservice.AgentPoolUpgradeProfileProperties{
		KubernetesVersion: to.Ptr(c.KubernetesVersion),
		OSType:            to.Ptr(armcontainerservice.OSTypeLinux),
		Upgrades:          []*armcontainerservice.AgentPoolUpgradeProfilePropertiesUpgradesItem{},
	}
	if cur, err := update.ParseVersion(c.KubernetesVersion); err == nil {
		for _, rel := range releasedAt(r, now) {
			if !cur.Less(rel.v) || rel.v.Major != cur.Major || rel.v.Minor > cur.Minor+1 {
				continue
			}
			item := &armcontainerservice.AgentPoolUpgradeProfilePropertiesUpgradesItem{KubernetesVersion: to.Ptr(rel.raw)}
			if rel.preview {
				item.IsPreview = to.Ptr(true)
			}
			props.Upgrades = append(props.Upgrades, item)
		}
	}
	if r != nil {
		newest := ""
		for _, im := range r.NodeImages {
			if im.Family == pool.NodeImageFamily && !im.ReleasedAt.After(now) && (newest == "" || update.ImageLess(newest, im.Version)) {
				newest = im.Version
			}
		}
		if newest != "" {
			props.LatestNodeImageVersion = to.Ptr(NodeImageVersion(pool.NodeImageFamily, newest))
		}
	}
	return armcontainerservice.AgentPoolUpgradeProfile{
		ID:         to.Ptr(c.ResourceID + "/agentPools/" + pool.Name + "/upgradeProfiles/" + UpgradeProfileName),
		Name:       to.Ptr(UpgradeProfileName),
		Type:       to.Ptr(AgentPoolUpgradeProfileType),
		Properties: props,
	}
}

// LatestNodeImage reads the newest node image AKS offers a pool from its
// upgrade profile: latestNodeImageVersion split at its last '-' into family
// and version, with a zero ReleasedAt (already released, as for Releases).
// False when the profile has none or it is not <family>-<version>;
// ParseNodeImageVersion says why.
func LatestNodeImage(p armcontainerservice.AgentPoolUpgradeProfile) (fleet.NodeImageRelease, bool) {
	if p.Properties == nil || p.Properties.LatestNodeImageVersion == nil {
		return fleet.NodeImageRelease{}, false
	}
	fam, ver, err := ParseNodeImageVersion(*p.Properties.LatestNodeImageVersion)
	if err != nil {
		return fleet.NodeImageRelease{}, false
	}
	return fleet.NodeImageRelease{Family: fam, Version: ver}, true
}
