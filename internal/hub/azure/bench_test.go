package azure_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure"
)

// The inventory read (azure.Hub.Fleet) of a fleet of any size costs the
// members' pages, the managed-cluster list pages of each resource group,
// one maintenance configuration per member, one Kubernetes version list
// per region and one agent pool upgrade profile per (region, node image
// family): paging plus one request per member, sent at most
// azure.Config.Concurrency at a time.

// Node image families of the generated fleets.
const (
	ubuntu     = "AKSUbuntu-2204gen2containerd"
	azureLinux = "AzureLinuxV3gen2"
)

// genMember is a member cluster of a generated inventory.
type genMember struct {
	name, region, resourceGroup string
	families                    []string // one node pool per family entry
	window                      bool     // an auto-upgrade maintenance window
}

// inventoryYAML is the mock hub's inventory of members, each region with
// a catalog released before rigClock.
func inventoryYAML(members []genMember) []byte {
	var b bytes.Buffer
	b.WriteString("regions:\n")
	for _, region := range regionsOf(members) {
		fmt.Fprintf(&b, "  - name: %s\n    kubernetes_versions:\n", region)
		for _, k := range [][2]string{{"1.31.10", "2026-07-08"}, {"1.32.6", "2026-08-19"}, {"1.33.2", "2026-10-14"}} {
			fmt.Fprintf(&b, "      - { version: %s, released_at: \"%sT00:00:00Z\" }\n", k[0], k[1])
		}
		b.WriteString("    node_images:\n")
		for _, f := range []string{ubuntu, azureLinux} {
			fmt.Fprintf(&b, "      - { family: %s, version: 202610.27.0, released_at: \"2026-10-29T00:00:00Z\" }\n", f)
			fmt.Fprintf(&b, "      - { family: %s, version: 202611.10.0, released_at: \"2026-11-12T00:00:00Z\" }\n", f)
		}
	}
	b.WriteString("clusters:\n")
	for i, m := range members {
		fmt.Fprintf(&b, "  - name: %s\n    region: %s\n    resource_group: %s\n    group: wave-%d\n    kubernetes_version: 1.32.6\n    node_pools:\n",
			m.name, m.region, m.resourceGroup, i%3)
		for j, f := range m.families {
			fmt.Fprintf(&b, "      - { name: pool%d, vm_size: Standard_D4s_v5, node_count: %d, node_image_family: %s, node_image_version: 202610.27.0 }\n",
				j, 2+i%5, f)
		}
		if m.window {
			fmt.Fprintf(&b, "    maintenance_window: { schedule: { weekly: { interval_weeks: 1, day_of_week: %s } }, start_time: \"%02d:00\", duration_hours: 4 }\n",
				[]string{"Monday", "Tuesday", "Saturday"}[i%3], i%24)
		}
	}
	return b.Bytes()
}

// writeInventory writes the inventory of members into dir.
func writeInventory(tb testing.TB, dir string, members []genMember) string {
	tb.Helper()
	file := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(file, inventoryYAML(members), 0o644); err != nil {
		tb.Fatal(err)
	}
	return file
}

func regionsOf(members []genMember) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range members {
		if !seen[m.region] {
			seen[m.region] = true
			out = append(out, m.region)
		}
	}
	sort.Strings(out)
	return out
}

// generatedFleet is n members over 5 regions and 20 resource groups (4 per
// region), with one or two node pools (every other member has a second
// pool, every third member's first pool runs Azure Linux) and a
// maintenance window on half of them.
func generatedFleet(n int) []genMember {
	regions := []string{"eastus", "westeurope", "southeastasia", "westus2", "northeurope"}
	out := make([]genMember, n)
	for i := range out {
		region := regions[i%len(regions)]
		m := genMember{name: fmt.Sprintf("member-%04d", i), region: region,
			resourceGroup: fmt.Sprintf("rg-%s-%d", region, (i/len(regions))%4), families: []string{ubuntu}, window: i%4 < 2}
		if i%3 == 0 {
			m.families[0] = azureLinux
		}
		if i%2 == 0 {
			m.families = append(m.families, ubuntu)
		}
		out[i] = m
	}
	return out
}

// Request categories of the inventory read.
const (
	reqFleet       = "fleet"            // GET the fleet (azure.New)
	reqMembers     = "member-pages"     // GET …/fleets/{f}/members, each page
	reqClusters    = "cluster-pages"    // GET …/resourceGroups/{rg}/…/managedClusters, each page
	reqMaintenance = "maintenance"      // GET …/managedClusters/{c}/maintenanceConfigurations/…
	reqCatalogs    = "catalogs"         // GET …/locations/{l}/kubernetesVersions
	reqProfiles    = "upgrade-profiles" // GET …/agentPools/{p}/upgradeProfiles/default
	reqCredentials = "hub-credentials"  // POST …/fleets/{f}/listCredentials (then one MemberCluster LIST per 500 members on the hub cluster)
	reqOther       = "other"
)

var categories = []string{reqFleet, reqMembers, reqClusters, reqMaintenance, reqCatalogs, reqProfiles, reqCredentials, reqOther}

// category is the category of a request the emulator served.
func category(q armemu.Request) string {
	p := strings.ToLower(q.Path)
	switch {
	case q.Method == http.MethodPost && strings.HasSuffix(p, "/listcredentials"):
		return reqCredentials
	case q.Method != http.MethodGet:
		return reqOther
	case strings.HasSuffix(p, "/fleets/"+strings.ToLower(fleetID.Fleet)):
		return reqFleet
	case strings.HasSuffix(p, "/members"):
		return reqMembers
	case strings.HasSuffix(p, "/managedclusters"):
		return reqClusters
	case strings.Contains(p, "/maintenanceconfigurations/"):
		return reqMaintenance
	case strings.HasSuffix(p, "/kubernetesversions"):
		return reqCatalogs
	case strings.Contains(p, "/upgradeprofiles/"):
		return reqProfiles
	}
	return reqOther
}

// tally counts requests by category.
func tally(reqs []armemu.Request) map[string]int {
	out := map[string]int{}
	for _, q := range reqs {
		out[category(q)]++
	}
	return out
}

// expectedRequests is what azure.New and one inventory read of members
// must cost with LIST pages of pageSize items.
func expectedRequests(members []genMember, pageSize int) map[string]int {
	pages := func(n int) int { return max(1, (n+pageSize-1)/pageSize) }
	groups := map[string]int{}
	families := map[string]bool{}
	for _, m := range members {
		groups[m.resourceGroup]++
		for _, f := range m.families {
			families[m.region+"/"+f] = true
		}
	}
	clusterPages := 0
	for _, n := range groups {
		clusterPages += pages(n)
	}
	return map[string]int{reqFleet: 1, reqMembers: pages(len(members)), reqClusters: clusterPages,
		reqMaintenance: len(members), reqCatalogs: len(regionsOf(members)), reqProfiles: len(families), reqCredentials: 1}
}

// inFlight is a transport wrapper that measures the most requests in
// flight at once.
type inFlight struct {
	mu       sync.Mutex
	now, max int
}

func (f *inFlight) wrap(next policy.Transporter) policy.Transporter {
	return transportFunc(func(req *http.Request) (*http.Response, error) {
		f.mu.Lock()
		f.now++
		f.max = max(f.max, f.now)
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			f.now--
			f.mu.Unlock()
		}()
		return next.Do(req)
	})
}

// The inventory read costs exactly the paging and one request per member
// (its maintenance configuration) and one per region and (region, image
// family), and never more than Concurrency requests at a time: a change
// that adds requests per member (a GET of each managed cluster, of each
// node pool's upgrade profile) fails here.
func TestInventoryRequestCount(t *testing.T) {
	// 7 members in 3 resource groups (3, 3, 1: 2+2+1 pages of 2) and 2
	// regions; eastus runs both image families, westeurope one.
	members := []genMember{
		{name: "a1", region: "eastus", resourceGroup: "rg-a", families: []string{ubuntu}, window: true},
		{name: "a2", region: "eastus", resourceGroup: "rg-a", families: []string{ubuntu, azureLinux}},
		{name: "a3", region: "westeurope", resourceGroup: "rg-a", families: []string{ubuntu}, window: true},
		{name: "b1", region: "westeurope", resourceGroup: "rg-b", families: []string{ubuntu, ubuntu}},
		{name: "b2", region: "westeurope", resourceGroup: "rg-b", families: []string{ubuntu}, window: true},
		{name: "b3", region: "westeurope", resourceGroup: "rg-b", families: []string{ubuntu}},
		{name: "c1", region: "eastus", resourceGroup: "rg-c", families: []string{azureLinux}, window: true},
	}
	const pageSize, concurrency = 2, 3
	r := newRig(t, rigOptions{PageSize: pageSize, FleetFile: writeInventory(t, t.TempDir(), members)})
	var flight inFlight
	r.srv.ResetRequests()
	h, err := r.connect(context.Background(), flight.wrap, concurrency)
	if err != nil {
		t.Fatal(err)
	}
	f, err := h.Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Clusters) != len(members) {
		t.Fatalf("%d clusters, want %d", len(f.Clusters), len(members))
	}
	windows := 0
	for _, c := range f.Clusters {
		if c.MaintenanceWindow != nil {
			windows++
		}
	}
	if windows != 4 {
		t.Errorf("%d maintenance windows read, want 4", windows)
	}

	reqs := r.srv.Requests()
	got, want := tally(reqs), expectedRequests(members, pageSize)
	// 1 fleet + 4 member pages + 5 cluster pages + 7 maintenance
	// configurations + 2 catalogs + 3 upgrade profiles + 1 hub-cluster
	// kubeconfig.
	if len(reqs) != 23 {
		t.Errorf("%d requests, want 23", len(reqs))
	}
	for _, c := range categories {
		if got[c] != want[c] {
			t.Errorf("%s: %d requests, want %d", c, got[c], want[c])
		}
	}
	if t.Failed() {
		for _, q := range reqs {
			t.Logf("%s %s?%s %d", q.Method, q.Path, q.Query, q.Status)
		}
	}
	if flight.max > concurrency {
		t.Errorf("%d requests in flight at once, want at most Concurrency = %d", flight.max, concurrency)
	}
	t.Logf("requests %v; at most %d in flight", got, flight.max)

	// The fleet is read once per provider process.
	r.srv.ResetRequests()
	if _, err := h.Fleet(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(r.srv.Requests()); n != 0 {
		t.Errorf("a second Fleet sent %d requests, want none (read once per process)", n)
	}
}

// pooledClient is an HTTP client of the emulator that keeps as many idle
// connections as the inventory sends requests at once. The emulator's own
// client keeps net/http's default of 2, so that at a concurrency of 16 most
// requests open a new TLS connection, which the benchmark would measure
// instead of the hub; Resource Manager speaks HTTP/2, where all requests
// share one connection (the emulator speaks HTTP/1.1 only).
func pooledClient(tb testing.TB, r *rig) *http.Client {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(r.run.CertPEM) {
		tb.Fatal("the emulator's certificate does not parse")
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		MaxIdleConns: 2 * azure.DefaultConcurrency, MaxIdleConnsPerHost: 2 * azure.DefaultConcurrency}}
	tb.Cleanup(c.CloseIdleConnections)
	return c
}

// delayed adds a round trip's latency to every request: the emulator
// answers in well under a millisecond, Resource Manager in tens to
// hundreds of milliseconds.
func delayed(next policy.Transporter, latency time.Duration) policy.Transporter {
	return transportFunc(func(req *http.Request) (*http.Response, error) {
		time.Sleep(latency)
		return next.Do(req)
	})
}

// BenchmarkMemberClusters1000 is a provider process's inventory read of a
// 1,000-member fleet (5 regions, 20 resource groups): azure.New and
// Fleet, through the wire emulator, with the emulator's small default
// page (2) and with Resource Manager's page of members (100); each with
// the emulator's HTTP client and with one that keeps its connections
// (pooledClient); and once with 50 ms of latency per request, closer to
// Resource Manager's (the emulator has none: the other runs measure CPU).
// Metrics: requests/op and their categories per op, and the most requests
// in flight at once (azure.DefaultConcurrency bounds it). The issue's
// target: requests bounded by paging plus one per member, bounded
// concurrency, under 3 s. The emulator's backend is one mock hub shared by
// every request, so that the time is the client's and the wire's, not the
// mock's opening of its state database per request.
func BenchmarkMemberClusters1000(b *testing.B) {
	members := generatedFleet(1000)
	file := writeInventory(b, b.TempDir(), members)
	for _, bc := range []struct {
		pageSize int
		pooled   bool
		latency  time.Duration
	}{{armemu.DefaultPageSize, false, 0}, {100, false, 0}, {armemu.DefaultPageSize, true, 0}, {100, true, 0}, {100, true, 50 * time.Millisecond}} {
		client := "emulator"
		if bc.pooled {
			client = "pooled"
		}
		pageSize := bc.pageSize
		name := fmt.Sprintf("pagesize=%d/client=%s", pageSize, client)
		if bc.latency > 0 {
			name += "/latency=" + bc.latency.String()
		}
		b.Run(name, func(b *testing.B) {
			r := newRig(b, rigOptions{PageSize: pageSize, FleetFile: file, Shared: true})
			want := expectedRequests(members, pageSize)
			ctx := context.Background()
			var flight inFlight
			wrap := flight.wrap
			if bc.pooled {
				var pool policy.Transporter = pooledClient(b, r)
				if bc.latency > 0 {
					pool = delayed(pool, bc.latency)
				}
				wrap = func(policy.Transporter) policy.Transporter { return flight.wrap(pool) }
			}
			r.srv.ResetRequests()
			n := 0
			for b.Loop() {
				h, err := r.connect(ctx, wrap, 0)
				if err != nil {
					b.Fatal(err)
				}
				f, err := h.Fleet(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if len(f.Clusters) != len(members) {
					b.Fatalf("%d clusters, want %d", len(f.Clusters), len(members))
				}
				n++
			}
			reqs := r.srv.Requests()
			got := tally(reqs)
			for _, c := range categories {
				if got[c] != want[c]*n {
					b.Errorf("%s: %d requests in %d reads, want %d each", c, got[c], n, want[c])
				}
				if c != reqOther {
					b.ReportMetric(float64(got[c])/float64(n), c+"/op")
				}
			}
			b.ReportMetric(float64(len(reqs))/float64(n), "requests/op")
			b.ReportMetric(float64(flight.max), "max-in-flight")
		})
	}
}

// A placement's read through the hub cluster (GET the placement, LIST its
// bindings and its latest policy snapshot) and a pool's live nodes through
// a member cluster (LIST its NodeClaims and Nodes), on the sample fleet
// with in-process API servers.
func BenchmarkKubernetesReads(b *testing.B) {
	e := newEmulated(b)
	ctx := context.Background()
	n := 3
	if _, err := e.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: webPlacement(n)}, hub.Precondition{}); err != nil {
		b.Fatal(err)
	}
	m, err := e.mock()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web-mock"}, Spec: webPlacement(n)}, hub.Precondition{}); err != nil {
		b.Fatal(err)
	}
	// The same reads of the mock hub directly, for the ratio.
	for _, h := range []struct {
		name      string
		hub       hub.Hub
		placement string
	}{{"azure", e, "web"}, {"mock", m, "web-mock"}} {
		b.Run(h.name+"/GetPlacement", func(b *testing.B) {
			for b.Loop() {
				if _, err := h.hub.GetPlacement(ctx, h.placement); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(h.name+"/NodePoolNodes", func(b *testing.B) {
			for b.Loop() {
				if _, err := h.hub.NodePoolNodes(ctx, "aks-east-prod-01", "default"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// countingTransport counts the requests that pass through it.
type countingTransport struct {
	next http.RoundTripper
	n    *atomic.Int64
}

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// BenchmarkPlacementRefresh200 is a refresh of 200 placements by a new
// provider process (a new hub: nothing listed yet), ten reads at a time as
// Terraform runs them, through the emulator's API servers: the requests it
// sends to the hub cluster and its time — reading each placement on its own
// (a GET and two LISTs, what every read did before the listing, and what a
// wait still does: hub.FreshReads), and from one listing of the process.
func BenchmarkPlacementRefresh200(b *testing.B) {
	const placements = 200
	e := newEmulated(b)
	ctx := context.Background()
	for i := range placements {
		n := 1 + i%3
		if _, err := e.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: fmt.Sprintf("app-%03d", i)}, Spec: webPlacement(n)}, hub.Precondition{}); err != nil {
			b.Fatal(err)
		}
	}
	var requests atomic.Int64
	azure.SetKubeTransportWrapper(func(rt http.RoundTripper) http.RoundTripper { return countingTransport{rt, &requests} })
	b.Cleanup(func() { azure.SetKubeTransportWrapper(nil) })
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"each-read-on-its-own", hub.FreshReads(ctx)}, {"listed-once", ctx}} {
		b.Run(c.name, func(b *testing.B) {
			total := int64(0)
			for i := 0; i < b.N; i++ {
				b.StopTimer() // the provider's configuration is not the refresh
				h, err := azure.New(ctx, e.cfg)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := h.Fleet(ctx); err != nil { // the inventory, read once per process whatever is refreshed
					b.Fatal(err)
				}
				b.StartTimer()
				before := requests.Load()
				names := make(chan string)
				var wg sync.WaitGroup
				for range 10 {
					wg.Go(func() {
						for name := range names {
							if p, err := h.GetPlacement(c.ctx, name); err != nil || len(p.Status.Selected) == 0 {
								b.Errorf("%s: %+v, %v", name, p, err)
							}
						}
					})
				}
				for i := range placements {
					names <- fmt.Sprintf("app-%03d", i)
				}
				close(names)
				wg.Wait()
				total += requests.Load() - before
			}
			b.ReportMetric(float64(total)/float64(b.N), "requests/op")
		})
	}
}
