package aksconv

import (
	"reflect"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

// azureCatalog is the catalog the azure hub can build from ARM for the
// sample fleet with everything released: Releases of each region's version
// list and LatestNodeImage of each pool's upgrade profile, all with a zero
// ReleasedAt.
func azureCatalog(t *testing.T, f *fleet.Fleet, at time.Time) []fleet.Region {
	var out []fleet.Region
	for i := range f.Regions {
		r := &f.Regions[i]
		reg := fleet.Region{Name: r.Name, KubernetesVersions: Releases(wire(t, KubernetesVersions(r, at)))}
		seen := map[fleet.NodeImageRelease]bool{}
		for j := range f.Clusters {
			c := &f.Clusters[j]
			if c.Region != r.Name {
				continue
			}
			for _, np := range c.NodePools {
				if im, ok := LatestNodeImage(wire(t, AgentPoolUpgradeProfile(r, c, np, at))); ok && !seen[im] {
					seen[im] = true
					reg.NodeImages = append(reg.NodeImages, im)
				}
			}
		}
		out = append(out, reg)
	}
	return out
}

// TestZeroReleaseTimesInTheEngine: the engine takes a zero ReleasedAt as
// "already released" — the channels resolve as they do on the mock's
// catalog, and a version that appears in ARM's list triggers a profile at
// the instant the hub sees it.
func TestZeroReleaseTimesInTheEngine(t *testing.T) {
	f, _ := sampleFleet(t)
	at := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC) // the whole sample catalog is out
	azure := azureCatalog(t, f, at)
	now := at.Add(time.Hour)

	if got, want := update.GAVersions(azure, now), update.GAVersions(f.Regions, now); !reflect.DeepEqual(got, want) {
		t.Errorf("GA versions: ARM %v, mock %v", got, want)
	}
	for _, ch := range []string{update.ChannelRapid, update.ChannelStable, update.ChannelNodeImage} {
		p := update.ProfileSpec{Channel: ch}
		got, want := update.ResolveProfile(p, azure, now), update.ResolveProfile(p, f.Regions, now)
		if got.Key() != want.Key() || got.Err != want.Err {
			t.Errorf("%s resolves to %q (%s) from ARM, %q (%s) from the mock", ch, got.Key(), got.Err, want.Key(), want.Err)
		}
	}

	// A release the hub sees for the first time between two evaluations has
	// no instant of its own: the profile triggers at now.
	since := now.Add(-time.Hour)
	trig := update.ProfileTriggers(update.ProfileSpec{Channel: update.ChannelRapid}, azure, "1.32.6", since, now)
	if len(trig) != 1 || !trig[0].At.Equal(now) || trig[0].Target != "1.33.2" {
		t.Errorf("triggers %+v, want one at now to 1.33.2", trig)
	}
}
