package azure_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/fleetsim"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armclient"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/hubtest"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

var fleetID = armfleet.FleetID{SubscriptionID: "00000000-0000-0000-0000-000000000001", ResourceGroup: "rg", Fleet: "fleet"}

// emulated is an azure hub connected through the wire emulator to a mock
// hub on the sample fleet, with its own state and a fixed clock.
type emulated struct {
	*azure.Hub
	server *armemu.Server
	mock   func() (hub.Hub, error)
	sim    *fleetsim.Sim
	// cfg is the hub's configuration: azure.New(ctx, cfg) is the hub of a
	// new provider process.
	cfg azure.Config
}

func newEmulated(t testing.TB) *emulated { t.Helper(); return newEmulatedWith(t, nil) }

// newEmulatedWith is newEmulated with the hub's configuration edited.
func newEmulatedWith(t testing.TB, edit func(*azure.Config)) *emulated {
	t.Helper()
	cfg := mock.Config{StatePath: filepath.Join(t.TempDir(), "state.db"),
		Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}}
	backend := func() (hub.Hub, error) { return mock.New(cfg) }
	sim := fleetsim.New(kubeEnv(t), func(context.Context) (hub.Hub, error) { return backend() })
	sim.Log = t
	t.Cleanup(sim.Close)
	srv := armemu.New(armemu.Options{Fleet: fleetID, Hub: func(context.Context) (hub.Hub, error) { return backend() },
		Kubeconfig: sim.Kubeconfig})
	run, err := armemu.Listen("127.0.0.1:0", srv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = run.Close() })
	hubCfg := azure.Config{Fleet: fleetID, Client: armclient.Options{
		Credential: &azfake.TokenCredential{},
		Cloud: cloud.Configuration{Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
			cloud.ResourceManager: {Endpoint: run.URL, Audience: run.URL}}},
		Transport:             run.Client(),
		DisableRPRegistration: true,
		PollFrequency:         time.Millisecond,
		Retry:                 &policy.RetryOptions{RetryDelay: time.Millisecond, MaxRetryDelay: 10 * time.Millisecond},
	}}
	if edit != nil {
		edit(&hubCfg)
	}
	h, err := azure.New(context.Background(), hubCfg)
	if err != nil {
		t.Fatal(err)
	}
	return &emulated{Hub: h, server: srv, mock: backend, sim: sim, cfg: hubCfg}
}

// The API servers of the hub and member clusters, one set for the test
// binary (fleetsim empties them for each new mock state).
var kubeServers struct {
	once sync.Once
	env  *kubetest.Env
	err  error
}

func kubeEnv(t testing.TB) *kubetest.Env {
	kubeServers.once.Do(func() { kubeServers.env, kubeServers.err = kubetest.Start(kubetest.Stderr) })
	if kubeServers.err != nil {
		t.Fatal(kubeServers.err)
	}
	return kubeServers.env
}

func TestMain(m *testing.M) {
	code := m.Run()
	if kubeServers.env != nil {
		kubeServers.env.Close()
	}
	os.Exit(code)
}

// The azure hub passes the contract every hub passes: through the wire
// emulator for every object ARM holds, and through real API servers for
// placements (the hub cluster, with fleetsim as Fleet's scheduler) and
// NodePools (the member clusters).
func TestContract(t *testing.T) {
	hubtest.Run(t, func(t *testing.T) hub.Hub { return newEmulated(t) })
}

// The fleet read through ARM is the mock's, for every fact ARM carries.
func TestFleetMatchesTheMock(t *testing.T) {
	e := newEmulated(t)
	got, err := e.Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.mock()
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Clusters) != len(want.Clusters) {
		t.Fatalf("%d clusters, want %d", len(got.Clusters), len(want.Clusters))
	}
	for i, c := range got.Clusters {
		w := want.Clusters[i]
		if c.Name != w.Name || c.Region != w.Region || c.ResourceGroup != w.ResourceGroup || c.SubscriptionID != w.SubscriptionID ||
			c.ResourceID != w.ResourceID || c.Group != w.Group || c.KubernetesVersion != w.KubernetesVersion {
			t.Errorf("cluster %s: got %+v\nwant %+v", c.Name, c, w)
		}
		for k, v := range w.Labels {
			if c.Labels[k] != v {
				t.Errorf("cluster %s: label %s = %q, want %q", c.Name, k, c.Labels[k], v)
			}
		}
		if (c.MaintenanceWindow == nil) != (w.MaintenanceWindow == nil) {
			t.Errorf("cluster %s: maintenance window %v, want %v", c.Name, c.MaintenanceWindow, w.MaintenanceWindow)
		}
		if len(c.NodePools) != len(w.NodePools) {
			t.Errorf("cluster %s: node pools %v, want %v", c.Name, c.NodePools, w.NodePools)
		}
		// From the hub cluster's MemberCluster objects, through client-go.
		if !reflect.DeepEqual(c.Agent, w.Agent) || !reflect.DeepEqual(c.Taints, w.Taints) || !reflect.DeepEqual(c.Properties, w.Properties) ||
			len(c.Usage.Available) != len(w.Usage.Available) {
			t.Errorf("cluster %s: agent %+v taints %v properties %v usage %v\nwant agent %+v taints %v properties %v usage %v",
				c.Name, c.Agent, c.Taints, c.Properties, c.Usage, w.Agent, w.Taints, w.Properties, w.Usage)
		}
		for r, q := range w.Usage.Available {
			if got := c.Usage.Available[r]; got.Cmp(q) != 0 {
				t.Errorf("cluster %s: available %s = %s, want %s", c.Name, r, got.String(), q.String())
			}
		}
	}
	if !e.Now().Equal(m.Now()) {
		t.Errorf("Now() = %v, want the mock's clock %v", e.Now(), m.Now())
	}
}

// The regions' catalogs read through ARM are what the mock has released by
// now: every Kubernetes version (release times aside: ARM has none) and the
// newest node image of each family the members run.
func TestCatalogsMatchTheMock(t *testing.T) {
	e := newEmulated(t)
	got, err := e.Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m, _ := e.mock()
	want, _ := m.Fleet(context.Background())
	if len(got.Regions) != len(want.Regions) {
		t.Fatalf("%d regions, want %d", len(got.Regions), len(want.Regions))
	}
	now := m.Now()
	for i, r := range got.Regions {
		var released []string
		for _, k := range want.Regions[i].KubernetesVersions {
			if !k.ReleasedAt.After(now) {
				released = append(released, k.Version)
			}
		}
		var versions []string
		for _, k := range r.KubernetesVersions {
			versions = append(versions, k.Version)
		}
		if fmt.Sprint(versions) != fmt.Sprint(released) {
			t.Errorf("region %s: versions %v, want %v", r.Name, versions, released)
		}
		if len(r.NodeImages) == 0 {
			t.Errorf("region %s: no node images", r.Name)
		}
	}
}

// What the placements' selectors select on the hub cluster, read through
// discovery and lists from the API server that the emulator filled from
// the mock's inventory, is what they select on the mock (designs/placement.md §9).
func TestSelectionMatchesTheMock(t *testing.T) {
	e := newEmulated(t)
	m, err := e.mock()
	if err != nil {
		t.Fatal(err)
	}
	ns := func(name string) placement.ResourceSelector {
		return placement.ResourceSelector{Version: "v1", Kind: "Namespace", Name: name}
	}
	byLabel := func(group, kind, k, v string) placement.ResourceSelector {
		return placement.ResourceSelector{Group: group, Version: "v1", Kind: kind,
			LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{k: v}}}
	}
	for name, sels := range map[string][]placement.ResourceSelector{
		"a namespace with its objects and an envelope": {ns("web")},
		"namespaces by label and cluster roles by label": {byLabel("", "Namespace", "team", "storefront"),
			byLabel("rbac.authorization.k8s.io", "ClusterRole", "app", "web")},
		"a namespace that does not exist":     {ns("nope")},
		"every namespace: default is refused": {{Version: "v1", Kind: "Namespace"}},
		"a namespaced kind is refused":        {{Version: "v1", Kind: "ConfigMap", Name: "web-settings"}},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			got, err := e.HubResources(ctx, sels)
			if err != nil {
				t.Fatal(err)
			}
			want, err := m.HubResources(ctx, sels)
			if err != nil {
				t.Fatal(err)
			}
			g, w := placement.SelectResources(sels, got), placement.SelectResources(sels, want)
			if !reflect.DeepEqual(g.Resources, w.Resources) || !reflect.DeepEqual(g.Contents, w.Contents) ||
				(g.Error == nil) != (w.Error == nil) || g.Error != nil && g.Error.Rule != w.Error.Rule {
				t.Errorf("through the hub cluster:\n%+v\nthe mock:\n%+v", g, w)
			}
		})
	}
}
