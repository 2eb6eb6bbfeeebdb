package update

import (
	"sort"
	"strings"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Member is what a run needs to know of a member cluster (designs/updates.md §3).
// A run captures its members when it starts, so its progress is a pure
// function of what it saw then, its events and the clock.
type Member struct {
	Name              string                   `json:"name"`
	Region            string                   `json:"region"`
	Group             string                   `json:"group"`
	KubernetesVersion string                   `json:"kubernetes_version"`
	NodePools         []MemberNodePool         `json:"node_pools"`
	Window            *fleet.MaintenanceWindow `json:"maintenance_window"`
	// Failure, when set, makes the member's upgrade fail with this message
	// (the mock inventory's injected failure).
	Failure string `json:"failure"`
}

// MemberNodePool is one node pool of a member and the node image it runs.
type MemberNodePool struct {
	Name    string `json:"name"`
	Family  string `json:"family"`
	Version string `json:"version"`
}

// Members are the fleet's member clusters as a run sees them, by name.
func Members(f *fleet.Fleet) []Member {
	out := make([]Member, 0, len(f.Clusters))
	for i := range f.Clusters {
		c := &f.Clusters[i]
		m := Member{Name: c.Name, Region: c.Region, Group: c.Group, KubernetesVersion: c.KubernetesVersion,
			Window: c.MaintenanceWindow, Failure: c.Failures.Upgrade}
		for _, np := range c.NodePools {
			m.NodePools = append(m.NodePools, MemberNodePool{Name: np.Name, Family: np.NodeImageFamily, Version: np.NodeImageVersion})
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// catalog answers "is this released in that region at t" (designs/hub.md §1).
type catalog map[string]*fleet.Region

func newCatalog(regions []fleet.Region) catalog {
	c := catalog{}
	for i := range regions {
		c[regions[i].Name] = &regions[i]
	}
	return c
}

// kubernetes returns the version a target resolves to in region at t: the
// given patch, or for a major.minor target the newest GA patch of that minor
// released there by t. released is when it is (or will be) released there;
// ok is false when the region's catalog never has it.
func (c catalog) kubernetes(region, target string, t time.Time) (version string, released time.Time, ok bool) {
	tv, err := ParseVersion(target)
	if err != nil {
		return "", time.Time{}, false
	}
	exact := strings.Count(strings.TrimLeft(target, "vV"), ".") == 2
	r := c[region]
	if r == nil {
		return "", time.Time{}, false
	}
	// Among the candidates: the newest released by t; when none is yet,
	// the one released first (the instant the target becomes available).
	var best Version
	var bestAt time.Time
	found := false
	for _, k := range r.KubernetesVersions {
		v, err := ParseVersion(k.Version)
		if err != nil || v.Major != tv.Major || v.Minor != tv.Minor || (exact && v != tv) || (!exact && k.Preview) {
			continue
		}
		nowOK, bestOK := !k.ReleasedAt.After(t), found && !bestAt.After(t)
		better := !found ||
			(nowOK && !bestOK) ||
			(nowOK && bestOK && best.Less(v)) ||
			(!nowOK && !bestOK && k.ReleasedAt.Before(bestAt))
		if better {
			best, bestAt, found = v, k.ReleasedAt, true
		}
	}
	if !found {
		return "", time.Time{}, false
	}
	return best.String(), bestAt, true
}

// newestImage is the newest image of family released in region at or before t.
func (c catalog) newestImage(region, family string, t time.Time) (string, bool) {
	r := c[region]
	if r == nil {
		return "", false
	}
	best := ""
	for _, im := range r.NodeImages {
		if im.Family == family && !im.ReleasedAt.After(t) && (best == "" || ImageLess(best, im.Version)) {
			best = im.Version
		}
	}
	return best, best != ""
}

// imageReleased is when image version v of family is released in region (ok false: never).
func (c catalog) imageReleased(region, family, v string) (time.Time, bool) {
	if r := c[region]; r != nil {
		for _, im := range r.NodeImages {
			if im.Family == family && im.Version == v {
				return im.ReleasedAt, true
			}
		}
	}
	return time.Time{}, false
}

// ImageLess orders node image versions (YYYYMM.DD.patch) numerically, part by part.
func ImageLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if len(pa[i]) != len(pb[i]) {
			return len(pa[i]) < len(pb[i])
		}
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}

// consistentImages is Consistent node image selection (designs/updates.md §3):
// for each image family of the members' node pools, the newest version
// released by t in every region of the members. A family with no such
// version is absent.
func (c catalog) consistentImages(members []Member, t time.Time) map[string]string {
	regions := map[string]bool{}
	families := map[string]bool{}
	for _, m := range members {
		regions[m.Region] = true
		for _, np := range m.NodePools {
			families[np.Family] = true
		}
	}
	out := map[string]string{}
	for fam := range families {
		// Versions released by t in every region.
		var common map[string]bool
		for reg := range regions {
			here := map[string]bool{}
			if r := c[reg]; r != nil {
				for _, im := range r.NodeImages {
					if im.Family == fam && !im.ReleasedAt.After(t) {
						here[im.Version] = true
					}
				}
			}
			if common == nil {
				common = here
				continue
			}
			for v := range common {
				if !here[v] {
					delete(common, v)
				}
			}
		}
		best := ""
		for v := range common {
			if best == "" || ImageLess(best, v) {
				best = v
			}
		}
		if best != "" {
			out[fam] = best
		}
	}
	return out
}
