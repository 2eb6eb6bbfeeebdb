package aksconv

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

var (
	t0 = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	t1 = time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
)

// testRegion has an LTS minor with a patch not marked LTS, a minor with GA
// and preview patches, an all-preview minor, a version that is not one, and
// a release still to come at t1.
func testRegion() *fleet.Region {
	return &fleet.Region{Name: "testland", KubernetesVersions: []fleet.KubernetesRelease{
		{Version: "1.27.100", LTS: true, ReleasedAt: t0},
		{Version: "1.27.101", ReleasedAt: t0},
		{Version: "1.30.5", ReleasedAt: t0},
		{Version: "1.31.1", ReleasedAt: t0},
		{Version: "1.31.2", Preview: true, ReleasedAt: t0},
		{Version: "1.32.1", Preview: true, ReleasedAt: t0},
		{Version: "1.32.0", Preview: true, ReleasedAt: t0},
		{Version: "1.33.0", ReleasedAt: t1},
		{Version: "latest", ReleasedAt: t0},
	}}
}

// listing renders a version list compactly: one line per minor, e.g.
// "1.31 default preview LTS: 1.31.1>1.31.2,1.32.0".
func listing(l armcontainerservice.KubernetesVersionListResult) []string {
	var out []string
	for _, v := range l.Values {
		s := deref(v.Version)
		if deref(v.IsDefault) {
			s += " default"
		}
		if deref(v.IsPreview) {
			s += " preview"
		}
		var plans []string
		for _, p := range v.Capabilities.SupportPlan {
			plans = append(plans, string(*p))
		}
		s += " [" + strings.Join(plans, ",") + "]:"
		var patches []string
		for p, pv := range v.PatchVersions {
			var ups []string
			for _, u := range pv.Upgrades {
				ups = append(ups, *u)
			}
			patches = append(patches, p+">"+strings.Join(ups, ","))
		}
		sort.Strings(patches)
		out = append(out, s+" "+strings.Join(patches, " "))
	}
	return out
}

func TestKubernetesVersions(t *testing.T) {
	for _, tc := range []struct {
		name     string
		at       time.Time
		listing  []string
		releases []fleet.KubernetesRelease
	}{{
		name: "before any release",
		at:   t0.Add(-time.Second),
	}, {
		// 1.30 is the default: the GA minor before the newest GA minor (1.31).
		// 1.31.2 (preview in a GA minor) is not listed: ARM marks preview per minor.
		// Every patch of 1.27 comes back LTS: the support plan is the minor's.
		name: "mixed minor, LTS minor, preview minor",
		at:   t0,
		listing: []string{
			"1.27 [KubernetesOfficial,AKSLongTermSupport]: 1.27.100>1.27.101 1.27.101>",
			"1.30 default [KubernetesOfficial]: 1.30.5>1.31.1",
			"1.31 [KubernetesOfficial]: 1.31.1>1.32.0,1.32.1",
			"1.32 preview [KubernetesOfficial]: 1.32.0>1.32.1 1.32.1>",
		},
		releases: []fleet.KubernetesRelease{
			{Version: "1.27.100", LTS: true}, {Version: "1.27.101", LTS: true}, {Version: "1.30.5"}, {Version: "1.31.1"},
			{Version: "1.32.0", Preview: true}, {Version: "1.32.1", Preview: true},
		},
	}, {
		name: "a newer GA minor moves the default",
		at:   t1,
		listing: []string{
			"1.27 [KubernetesOfficial,AKSLongTermSupport]: 1.27.100>1.27.101 1.27.101>",
			"1.30 [KubernetesOfficial]: 1.30.5>1.31.1",
			"1.31 default [KubernetesOfficial]: 1.31.1>1.32.0,1.32.1",
			"1.32 preview [KubernetesOfficial]: 1.32.0>1.32.1,1.33.0 1.32.1>1.33.0",
			"1.33 [KubernetesOfficial]: 1.33.0>",
		},
		releases: []fleet.KubernetesRelease{
			{Version: "1.27.100", LTS: true}, {Version: "1.27.101", LTS: true}, {Version: "1.30.5"}, {Version: "1.31.1"},
			{Version: "1.32.0", Preview: true}, {Version: "1.32.1", Preview: true}, {Version: "1.33.0"},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			l := wire(t, KubernetesVersions(testRegion(), tc.at))
			if got := listing(l); !reflect.DeepEqual(got, tc.listing) {
				t.Errorf("listing:\n got %q\nwant %q", got, tc.listing)
			}
			if got := Releases(l); !reflect.DeepEqual(got, tc.releases) {
				t.Errorf("releases:\n got %+v\nwant %+v", got, tc.releases)
			}
		})
	}
}

// TestKubernetesVersionsWire pins the JSON of a small list.
func TestKubernetesVersionsWire(t *testing.T) {
	r := &fleet.Region{KubernetesVersions: []fleet.KubernetesRelease{{Version: "1.31.1", ReleasedAt: t0}, {Version: "1.30.5", ReleasedAt: t0}}}
	b, err := json.Marshal(KubernetesVersions(r, t0))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"values":[` +
		`{"capabilities":{"supportPlan":["KubernetesOfficial"]},"isDefault":true,"patchVersions":{"1.30.5":{"upgrades":["1.31.1"]}},"version":"1.30"},` +
		`{"capabilities":{"supportPlan":["KubernetesOfficial"]},"patchVersions":{"1.31.1":{"upgrades":[]}},"version":"1.31"}]}`
	if string(b) != want {
		t.Errorf("wire:\n got %s\nwant %s", b, want)
	}
	if b, _ := json.Marshal(KubernetesVersions(nil, t0)); string(b) != `{"values":[]}` {
		t.Errorf("no region: %s", b)
	}
}

func TestAgentPoolUpgradeProfile(t *testing.T) {
	r := testRegion()
	r.NodeImages = []fleet.NodeImageRelease{
		{Family: "AKSUbuntu-2204gen2containerd", Version: "202609.9.0", ReleasedAt: t0},
		{Family: "AKSUbuntu-2204gen2containerd", Version: "202610.27.0", ReleasedAt: t0},
		{Family: "AKSUbuntu-2204gen2containerd", Version: "202611.10.0", ReleasedAt: t1},
		{Family: "AzureLinuxV3gen2", Version: "202612.01.0", ReleasedAt: t1},
	}
	c := &fleet.Cluster{Name: "aks-test", ResourceID: testClusterID, KubernetesVersion: "1.31.1"}
	ubuntu := fleet.NodePool{Name: "apps", NodeImageFamily: "AKSUbuntu-2204gen2containerd", NodeImageVersion: "202609.9.0"}
	azl := fleet.NodePool{Name: "azl", NodeImageFamily: "AzureLinuxV3gen2", NodeImageVersion: "202611.10.0"}

	p := wire(t, AgentPoolUpgradeProfile(r, c, ubuntu, t0))
	if deref(p.ID) != testClusterID+"/agentPools/apps/upgradeProfiles/default" || deref(p.Name) != "default" ||
		deref(p.Type) != "Microsoft.ContainerService/managedClusters/agentPools/upgradeProfiles" {
		t.Errorf("id %q, name %q, type %q", deref(p.ID), deref(p.Name), deref(p.Type))
	}
	// Upgrades carry preview per version: the preview patch of GA minor 1.31 is offered.
	var ups []string
	for _, u := range p.Properties.Upgrades {
		ups = append(ups, deref(u.KubernetesVersion)+map[bool]string{true: "(preview)"}[deref(u.IsPreview)])
	}
	if want := []string{"1.31.2(preview)", "1.32.0(preview)", "1.32.1(preview)"}; !reflect.DeepEqual(ups, want) {
		t.Errorf("upgrades %v, want %v", ups, want)
	}
	// Image versions compare numerically: 202610.27.0 is newer than 202609.9.0.
	if im, ok := LatestNodeImage(p); !ok || im != (fleet.NodeImageRelease{Family: "AKSUbuntu-2204gen2containerd", Version: "202610.27.0"}) {
		t.Errorf("at t0: %+v, %v", im, ok)
	}
	if im, ok := LatestNodeImage(wire(t, AgentPoolUpgradeProfile(r, c, ubuntu, t1))); !ok || im.Version != "202611.10.0" {
		t.Errorf("at t1: %+v, %v", im, ok)
	}
	// Nothing of the family released yet: no latest image, even though the pool runs one.
	if p := AgentPoolUpgradeProfile(r, c, azl, t0); p.Properties.LatestNodeImageVersion != nil {
		t.Errorf("latest %q before any release", *p.Properties.LatestNodeImageVersion)
	}
	if im, ok := LatestNodeImage(wire(t, AgentPoolUpgradeProfile(r, c, azl, t1))); !ok || im.Version != "202612.01.0" {
		t.Errorf("azl at t1: %+v, %v", im, ok)
	}
	// No region, or a version that is not one: no upgrades, no image, no panic.
	c2 := *c
	c2.KubernetesVersion = "latest"
	for _, p := range []armcontainerservice.AgentPoolUpgradeProfile{AgentPoolUpgradeProfile(nil, c, ubuntu, t1), AgentPoolUpgradeProfile(r, &c2, ubuntu, t1)} {
		if len(p.Properties.Upgrades) != 0 {
			t.Errorf("upgrades %v", p.Properties.Upgrades)
		}
	}
}

func TestManagedClusterShape(t *testing.T) {
	c := &fleet.Cluster{Name: "aks-test", Region: "eastus", ResourceGroup: "rg-test", SubscriptionID: "11111111-2222-3333-4444-555555555555",
		ResourceID: testClusterID, KubernetesVersion: "1.31.1", NodePools: []fleet.NodePool{
			{Name: "system", VMSize: "Standard_D4s_v5", NodeCount: 3, NodeImageFamily: "AKSUbuntu-2204gen2containerd", NodeImageVersion: "202610.27.0"},
			{Name: "gpu", VMSize: "Standard_NC24ads_A100_v4", NodeCount: 0, NodeImageFamily: "AKSWindows-2022-containerd", NodeImageVersion: "20348.2582.240716"},
		}}
	mc := wire(t, ManagedCluster(c))
	if deref(mc.Type) != "Microsoft.ContainerService/ManagedClusters" || deref(mc.Location) != "eastus" || deref(mc.Name) != "aks-test" {
		t.Errorf("cluster %+v", mc)
	}
	p := mc.Properties
	if deref(p.KubernetesVersion) != "1.31.1" || deref(p.CurrentKubernetesVersion) != "1.31.1" || deref(p.ProvisioningState) != "Succeeded" {
		t.Errorf("properties %+v", *p)
	}
	for i, want := range []struct{ image, mode string }{
		{"AKSUbuntu-2204gen2containerd-202610.27.0", "System"},
		{"AKSWindows-2022-containerd-20348.2582.240716", "User"},
	} {
		ap := p.AgentPoolProfiles[i]
		if deref(ap.NodeImageVersion) != want.image || string(deref(ap.Mode)) != want.mode || deref(ap.OrchestratorVersion) != "1.31.1" ||
			deref(ap.CurrentOrchestratorVersion) != "1.31.1" || deref(ap.ProvisioningState) != "Succeeded" {
			t.Errorf("pool %d: %+v", i, *ap)
		}
	}
	f, err := ClusterFacts(mc, nil)
	if err != nil || !reflect.DeepEqual(f.NodePools, c.NodePools) || f.MaintenanceWindow != nil {
		t.Errorf("facts %+v, %v", f, err)
	}
}
