package update

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Version is a parsed Kubernetes version major.minor.patch.
type Version struct{ Major, Minor, Patch int }

// ParseVersion parses `1.31.2`, `v1.31.2` or `1.31` (patch 0).
func ParseVersion(s string) (Version, error) {
	parts := strings.Split(strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V"), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("%q is not a Kubernetes version", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return Version{}, fmt.Errorf("%q is not a Kubernetes version", s)
		}
		n[i] = v
	}
	return Version{n[0], n[1], n[2]}, nil
}

func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// MinorString is major.minor.
func (v Version) MinorString() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// Less orders versions.
func (v Version) Less(o Version) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor < o.Minor
	}
	return v.Patch < o.Patch
}

// GAVersions are the generally available Kubernetes versions released in any
// of the regions at or before now, newest first. Preview versions never count.
func GAVersions(regions []fleet.Region, now time.Time) []Version {
	seen := map[Version]bool{}
	var out []Version
	for _, r := range regions {
		for _, k := range r.KubernetesVersions {
			v, err := ParseVersion(k.Version)
			if err != nil || k.Preview || k.ReleasedAt.After(now) || seen[v] {
				continue
			}
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[j].Less(out[i]) })
	return out
}

// ChannelTarget resolves the Kubernetes version an auto-upgrade channel
// targets (designs/updates.md §5): Rapid is the newest patch of the newest GA minor N,
// Stable the newest patch of minor N−1, TargetKubernetesVersion the newest
// patch of the given minor. NodeImage targets node images only: ok is false.
func ChannelTarget(channel, targetMinor string, ga []Version) (v Version, ok bool, err error) {
	newestPatchOf := func(major, minor int) (Version, bool) {
		for _, g := range ga { // newest first
			if g.Major == major && g.Minor == minor {
				return g, true
			}
		}
		return Version{}, false
	}
	switch channel {
	case ChannelNodeImage:
		return Version{}, false, nil
	case ChannelRapid, ChannelStable:
		if len(ga) == 0 {
			return Version{}, false, fmt.Errorf("no generally available Kubernetes version in the catalog")
		}
		n := ga[0]
		if channel == ChannelRapid {
			return n, true, nil
		}
		if v, found := newestPatchOf(n.Major, n.Minor-1); found {
			return v, true, nil
		}
		return Version{}, false, fmt.Errorf("channel Stable: no generally available version of %d.%d (one minor below the newest, %s)", n.Major, n.Minor-1, n.MinorString())
	case ChannelTargetKubernetesVersion:
		t, perr := ParseVersion(targetMinor)
		if perr != nil {
			return Version{}, false, perr
		}
		if v, found := newestPatchOf(t.Major, t.Minor); found {
			return v, true, nil
		}
		return Version{}, false, fmt.Errorf("no generally available version of %s in the catalog", t.MinorString())
	}
	return Version{}, false, fmt.Errorf("unknown channel %q", channel)
}
