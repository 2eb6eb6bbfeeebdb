package aksconv

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// sampleFleet is the mock hub's built-in sample fleet and the hub's now.
func sampleFleet(t *testing.T) (*fleet.Fleet, time.Time) {
	t.Helper()
	h, err := mock.New(mock.Config{StatePath: filepath.Join(t.TempDir(), "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	f, err := h.Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Clusters) == 0 || len(f.Regions) == 0 {
		t.Fatalf("the sample fleet is empty: %d clusters, %d regions", len(f.Clusters), len(f.Regions))
	}
	return f, h.Now()
}

// wire sends v over the wire: the SDK's JSON, decoded into a fresh value.
func wire[T any](t *testing.T, v T) T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("unmarshal %T from %s: %v", v, b, err)
	}
	return out
}

// instants are the moments to look at a fleet's catalogs: the hub's now,
// before everything, each release instant and just before it, and long after.
func instants(f *fleet.Fleet, now time.Time) []time.Time {
	ts := []time.Time{now, {}, time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, r := range f.Regions {
		for _, k := range r.KubernetesVersions {
			ts = append(ts, k.ReleasedAt, k.ReleasedAt.Add(-time.Nanosecond))
		}
		for _, im := range r.NodeImages {
			ts = append(ts, im.ReleasedAt, im.ReleasedAt.Add(-time.Nanosecond))
		}
	}
	return ts
}

func TestSampleFleetClustersRoundTrip(t *testing.T) {
	f, _ := sampleFleet(t)
	kinds := map[string]bool{}
	withDates := false
	for i := range f.Clusters {
		c := &f.Clusters[i]
		t.Run(c.Name, func(t *testing.T) {
			mc := wire(t, ManagedCluster(c))
			cfg, ok := MaintenanceConfiguration(c)
			if ok != (c.MaintenanceWindow != nil) {
				t.Fatalf("MaintenanceConfiguration ok = %v with window %v", ok, c.MaintenanceWindow)
			}
			var mw *armcontainerservice.MaintenanceConfiguration
			if ok {
				w := wire(t, cfg)
				mw = &w
				kinds[c.MaintenanceWindow.Schedule.Type] = true
				withDates = withDates || len(c.MaintenanceWindow.NotAllowed) > 0
			}
			got, err := ClusterFacts(mc, mw)
			if err != nil {
				t.Fatal(err)
			}
			want := Facts{Region: c.Region, ResourceGroup: c.ResourceGroup, SubscriptionID: c.SubscriptionID,
				KubernetesVersion: c.KubernetesVersion, NodePools: c.NodePools, MaintenanceWindow: c.MaintenanceWindow}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
			}
			if got.MaintenanceWindow != nil && got.MaintenanceWindow == c.MaintenanceWindow {
				t.Error("the window came back as the same pointer: the test does not go through the wire")
			}
		})
	}
	// The sample fleet must exercise every schedule kind and not-allowed dates.
	for _, k := range []string{fleet.ScheduleDaily, fleet.ScheduleWeekly, fleet.ScheduleAbsoluteMonthly, fleet.ScheduleRelativeMonthly} {
		if !kinds[k] {
			t.Errorf("no sample cluster has a %s window", k)
		}
	}
	if !withDates {
		t.Error("no sample cluster has not-allowed dates")
	}
}

// releasedPatches is what Releases should return for r at t: the released
// patches, oldest first, with their flags and no release time.
func releasedPatches(r *fleet.Region, t time.Time) []fleet.KubernetesRelease {
	var out []fleet.KubernetesRelease
	for _, k := range r.KubernetesVersions {
		if !k.ReleasedAt.After(t) {
			out = append(out, fleet.KubernetesRelease{Version: k.Version, Preview: k.Preview, LTS: k.LTS})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, _ := update.ParseVersion(out[i].Version)
		b, _ := update.ParseVersion(out[j].Version)
		return a.Less(b)
	})
	return out
}

func TestSampleFleetVersionsRoundTrip(t *testing.T) {
	f, now := sampleFleet(t)
	for i := range f.Regions {
		r := &f.Regions[i]
		for _, at := range instants(f, now) {
			l := wire(t, KubernetesVersions(r, at))
			got, want := Releases(l), releasedPatches(r, at)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s at %s:\n got %+v\nwant %+v", r.Name, at.Format(time.RFC3339Nano), got, want)
			}
			defaults := 0
			for _, v := range l.Values {
				if deref(v.IsDefault) {
					defaults++
				}
			}
			if len(want) > 0 && defaults != 1 || len(want) == 0 && defaults != 0 {
				t.Errorf("%s at %s: %d default minors", r.Name, at.Format(time.RFC3339Nano), defaults)
			}
		}
	}
}

func TestSampleFleetNodeImagesRoundTrip(t *testing.T) {
	f, now := sampleFleet(t)
	for i := range f.Clusters {
		c := &f.Clusters[i]
		r, ok := f.Region(c.Region)
		if !ok {
			t.Fatalf("%s: no region %s", c.Name, c.Region)
		}
		for _, pool := range c.NodePools {
			for _, at := range instants(f, now) {
				p := wire(t, AgentPoolUpgradeProfile(r, c, pool, at))
				want := ""
				for _, im := range r.NodeImages {
					if im.Family == pool.NodeImageFamily && !im.ReleasedAt.After(at) && (want == "" || update.ImageLess(want, im.Version)) {
						want = im.Version
					}
				}
				got, ok := LatestNodeImage(p)
				if ok != (want != "") || got != (fleet.NodeImageRelease{Family: pool.NodeImageFamily, Version: want}) && ok {
					t.Errorf("%s/%s at %s: got %+v, %v; want %s-%s", c.Name, pool.Name, at.Format(time.RFC3339Nano), got, ok, pool.NodeImageFamily, want)
				}
				if deref(p.Properties.KubernetesVersion) != c.KubernetesVersion || deref(p.Properties.OSType) != "Linux" {
					t.Errorf("%s/%s: profile %+v", c.Name, pool.Name, *p.Properties)
				}
			}
		}
	}
}

// TestSampleFleetUpgrades checks the upgrades an agent pool is offered once
// the whole sample catalog is out.
func TestSampleFleetUpgrades(t *testing.T) {
	f, _ := sampleFleet(t)
	at := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		cluster string
		want    []string // "(preview)" marks isPreview
	}{
		{"aks-east-prod-02", []string{"1.32.6"}},
		{"aks-east-dev-01", []string{"1.34.0 (preview)"}},
		{"aks-weu-prod-02", []string{"1.31.10"}},
		{"aks-weu-stage-01", []string{"1.33.2"}},
		{"aks-sea-stage-01", []string{"1.32.6"}},
	} {
		c, ok := f.Cluster(tc.cluster)
		if !ok {
			t.Fatalf("no sample cluster %s", tc.cluster)
		}
		r, _ := f.Region(c.Region)
		p := wire(t, AgentPoolUpgradeProfile(r, c, c.NodePools[0], at))
		var got []string
		for _, u := range p.Properties.Upgrades {
			s := deref(u.KubernetesVersion)
			if deref(u.IsPreview) {
				s += " (preview)"
			}
			got = append(got, s)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: upgrades %v, want %v", tc.cluster, got, tc.want)
		}
	}
}
