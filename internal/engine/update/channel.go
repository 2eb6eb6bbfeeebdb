package update

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/version"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Version is a parsed Kubernetes version major.minor.patch.
type Version struct{ Major, Minor, Patch int }

// ParseVersion parses `1.31.2`, `v1.31.2` or `1.31` (patch 0) with
// apimachinery's parser of Kubernetes versions (version.ParseGeneric), and
// refuses what it would let through: text after the numbers, a fourth
// number, a number past int32.
func ParseVersion(s string) (Version, error) {
	body := s
	if body != "" && (body[0] == 'v' || body[0] == 'V') {
		body = body[1:]
	}
	v, err := version.ParseGeneric(body)
	if err != nil || strings.Trim(body, "0123456789.") != "" {
		return Version{}, fmt.Errorf("%q is not a Kubernetes version", s)
	}
	c := v.Components()
	if len(c) > 3 || strings.Count(body, ".") != len(c)-1 || slices.Max(c) > math.MaxInt32 {
		return Version{}, fmt.Errorf("%q is not a Kubernetes version", s)
	}
	out := Version{Major: int(c[0]), Minor: int(c[1])}
	if len(c) == 3 {
		out.Patch = int(c[2])
	}
	return out, nil
}

// ParseFullVersion parses major.minor.patch, with or without a `v`.
func ParseFullVersion(s string) (Version, error) {
	v, err := ParseVersion(s)
	if err == nil && strings.Count(s, ".") != 2 {
		return Version{}, fmt.Errorf("%q is not a Kubernetes version major.minor.patch", s)
	}
	return v, err
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
	return ReleasesAt(regions, now).GA
}

// newestPatch is the newest version of minor in ga (newest first).
func newestPatch(ga []Version, minor Version) (Version, bool) {
	for _, g := range ga {
		if g.Major == minor.Major && g.Minor == minor.Minor {
			return g, true
		}
	}
	return Version{}, false
}

// ChannelTarget resolves the Kubernetes version an auto-upgrade channel
// targets (designs/updates.md §5): Rapid is the newest patch of the newest GA minor N,
// Stable the newest patch of minor N−1, TargetKubernetesVersion the newest
// patch of the given minor. NodeImage targets node images only: ok is false.
func ChannelTarget(channel, targetMinor string, ga []Version) (v Version, ok bool, err error) {
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
		if v, found := newestPatch(ga, Version{n.Major, n.Minor - 1, 0}); found {
			return v, true, nil
		}
		if n.Minor == 0 {
			return Version{}, false, fmt.Errorf("channel Stable: no minor below the newest, %s", n.MinorString())
		}
		return Version{}, false, fmt.Errorf("channel Stable: no generally available version of %d.%d (one minor below the newest, %s)", n.Major, n.Minor-1, n.MinorString())
	case ChannelTargetKubernetesVersion:
		t, perr := ParseVersion(targetMinor)
		if perr != nil {
			return Version{}, false, perr
		}
		if v, found := newestPatch(ga, minorOf(t)); found {
			return v, true, nil
		}
		return Version{}, false, fmt.Errorf("no generally available version of %s in the catalog", t.MinorString())
	}
	return Version{}, false, fmt.Errorf("unknown channel %q", channel)
}
