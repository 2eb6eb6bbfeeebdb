package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/inventory"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// The inventory snapshot must give exactly the fleet a fresh parse gives,
// with relative times resolved against the current clock, and an edited
// file must be parsed again.
func TestInventoryCache(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fleet.json")
	if err := os.WriteFile(file, fleetgen.Generate(fleetgen.Options{Clusters: 20, Seed: 5, StaleEvery: 3}), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{FleetFile: file, StatePath: filepath.Join(dir, "s.db"), Clock: ClockConfig{Mode: ClockFixed, Time: testNow}}
	first, err := New(cfg) // first command: parses, and its first write stores the snapshot
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := first.cachedInventory(snapshotKey(mustRead(t, file))); ok || first.pending.Load() == nil {
		t.Fatal("a read stored the snapshot")
	}
	if _, err := first.PutUpdateStrategy(context.Background(), hub.UpdateStrategy{Meta: hub.Meta{Name: "s"}}, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
	cfg.Clock.Time = testNow.Add(time.Hour)
	h, err := New(cfg) // later command: served from the snapshot
	if err != nil {
		t.Fatal(err)
	}
	if h.pending.Load() != nil {
		t.Fatal("the later command decoded the file again")
	}
	cached, _ := h.Fleet(context.Background())
	fresh, _ := inventory.LoadFile(file, testNow.Add(time.Hour))
	cq, fq := cached.Clusters[7].Usage.Available["cpu"], fresh.Clusters[7].Usage.Available["cpu"]
	if len(cached.Clusters) != 20 || !cached.Clusters[0].Agent.LastHeartbeat.Equal(fresh.Clusters[0].Agent.LastHeartbeat) || cq.Cmp(fq) != 0 {
		t.Fatalf("snapshot differs from a fresh parse")
	}
	if err := os.WriteFile(file, []byte(`{"regions": [{"name": "r"}], "clusters": [{"name": "only", "region": "r"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	h2, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f, _ := h2.Fleet(context.Background()); len(f.Clusters) != 1 {
		t.Fatalf("edited inventory not re-read: %d clusters", len(f.Clusters))
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// BenchmarkLoadAndFilter5000 is what each Terraform command does with a
// 5,000-cluster inventory file: open the hub (state database, inventory
// snapshot), build the fleet, and filter it with a 3-expression selector
// (issue target: under 100 ms and 200 MB peak).
func BenchmarkLoadAndFilter5000(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "fleet.json")
	if err := os.WriteFile(file, fleetgen.Generate(fleetgen.Options{Clusters: 5000, Seed: 1, StaleEvery: 50, TaintEvery: 40}), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg := Config{FleetFile: file, StatePath: filepath.Join(dir, "s.db"), Clock: ClockConfig{Mode: ClockFixed, Time: testNow}}
	h, err := New(cfg) // the first command after an edit parses the file
	if err != nil {
		b.Fatal(err)
	}
	// and its first write stores the decoded document for the next commands.
	if _, err := h.PutUpdateStrategy(context.Background(), hub.UpdateStrategy{Meta: hub.Meta{Name: "first"}}, store.Precondition{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		f, _ := h.Fleet(context.Background())
		got, err := fleetgen.BenchFilter.Apply(f, h.Now())
		if err != nil || len(got) == 0 {
			b.Fatalf("%d matches, %v", len(got), err)
		}
	}
}

const falsesAndAges = `
regions: [{ name: eastus }]
clusters:
  - name: a
    region: eastus
    agent: { joined: false, present: false }
    nap_nodes: [{ name: n1, nodepool: default, age: 1h, ready: false }]
  - name: b
    region: eastus
    agent: { heartbeat_age: 1m }
`

// An explicit false must survive the inventory snapshot that later
// provider processes load.
func TestInventorySnapshotKeepsExplicitFalse(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(file, []byte(falsesAndAges), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{FleetFile: file, StatePath: filepath.Join(dir, "s.db"), Clock: ClockConfig{Mode: ClockFixed, Time: testNow}}
	for process := 0; process < 2; process++ {
		h, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := h.Fleet(context.Background())
		a, _ := f.Cluster("a")
		if a.Agent.Joined || a.Agent.Present || a.NAPNodes[0].Ready {
			t.Fatalf("process %d: explicit false lost: %+v %+v", process, a.Agent, a.NAPNodes[0])
		}
	}
}

// Heartbeat ages are ages as of the hub's current time, also as the clock
// moves within one provider process; node ages count from when the hub first
// loaded the inventory, so nodes grow older as time passes.
func TestRelativeAgesFollowTheClock(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(file, []byte(falsesAndAges), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := New(Config{FleetFile: file, StatePath: filepath.Join(dir, "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	real := testNow
	h.clock = &Clock{cfg: ClockConfig{Mode: ClockScaled, Time: testNow, Scale: 600}, anchor: testNow, real: func() time.Time { return real }}
	first, _ := h.Fleet(context.Background())
	a0, _ := first.Cluster("a")
	created := a0.NAPNodes[0].CreatedAt
	for _, elapsed := range []time.Duration{0, time.Second, time.Minute} {
		real = testNow.Add(elapsed) // 0, 10 and 600 simulated minutes later
		f, _ := h.Fleet(context.Background())
		b, _ := f.Cluster("b")
		if got := h.Now().Sub(b.Agent.LastHeartbeat); got != time.Minute {
			t.Fatalf("after %s: heartbeat is %s old, want 1m", elapsed, got)
		}
		if a, _ := f.Cluster("a"); !a.NAPNodes[0].CreatedAt.Equal(created) {
			t.Fatalf("after %s: node created at %s, was %s", elapsed, a.NAPNodes[0].CreatedAt, created)
		}
	}
}

// BenchmarkPlacementRolloutRead1k500 is a placement read on the mock hub
// while its rollout runs (designs/placement.md §10): 1,000 clusters held,
// 500 hub objects in 50 namespaces (the placement selects 10 of them), a
// resource change rolled out 10% at a time, untracked objects making each
// batch wait a minute; the hub's clock moves 10 s a read, so that every
// read resolves the fleet again and replays the rollout to a new instant.
func BenchmarkPlacementRolloutRead1k500(b *testing.B) { benchRolloutReads(b, 1, nil, false) }

// BenchmarkPlacementRolloutFirstRead1k500 is the same read as a provider
// process's first read of the placement: its stored record decoded too
// (store.LoadPlacement keeps what it decoded for the reads that follow).
func BenchmarkPlacementRolloutFirstRead1k500(b *testing.B) { benchRolloutReads(b, 1, nil, true) }

// BenchmarkPlacementRolloutRefresh20x50 is a refresh of 20 placements of 50
// clusters each over the same fleet and hub objects, all rolling out the
// same change: one refresh reads them at one instant, as a Terraform
// command does (the fleet is resolved once for all), each placement's
// record decoded as a new provider process decodes it, and the clock moves
// 10 s between refreshes. Reported per placement (ns/placement).
func BenchmarkPlacementRolloutRefresh20x50(b *testing.B) {
	fifty := 50
	benchRolloutReads(b, 20, &fifty, true)
}

// benchRolloutReads reads the placements once per iteration; first: as
// the first reads of a provider process (none of their records decoded).
func benchRolloutReads(b *testing.B, placements int, pick *int, first bool) {
	dir := b.TempDir()
	file := filepath.Join(dir, "fleet.json")
	inventory := func(version string) []byte {
		var doc map[string]any
		if err := json.Unmarshal(fleetgen.Generate(fleetgen.Options{Clusters: 1000, Seed: 11}), &doc); err != nil {
			b.Fatal(err)
		}
		var namespaces []any
		for n := range 50 {
			var objects []any
			for i := range 9 {
				objects = append(objects, map[string]any{"group": "batch", "kind": "Job", "name": fmt.Sprintf("job-%d", i), "data": map[string]any{"v": version}})
			}
			namespaces = append(namespaces, map[string]any{"name": fmt.Sprintf("ns-%02d", n), "objects": objects})
		}
		doc["hub_cluster"] = map[string]any{"namespaces": namespaces}
		out, err := json.Marshal(doc)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	if err := os.WriteFile(file, inventory("1"), 0o644); err != nil {
		b.Fatal(err)
	}
	h, err := New(Config{FleetFile: file, StatePath: filepath.Join(dir, "s.db")})
	if err != nil {
		b.Fatal(err)
	}
	now := testNow
	h.clock = &Clock{cfg: ClockConfig{Mode: ClockScaled, Time: testNow, Scale: 1}, anchor: testNow, real: func() time.Time { return now }}
	ten := "10%"
	ctx := context.Background()
	names := make([]string, placements)
	for i := range names {
		names[i] = fmt.Sprintf("web-%02d", i)
		p := hub.Placement{Meta: hub.Meta{Name: names[i]}, Spec: placement.Spec{
			ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "ns-07"}},
			Strategy:          placement.Strategy{Type: placement.RollingUpdateStrategy, RollingUpdate: &placement.RollingUpdate{MaxUnavailable: &ten}}}}
		if pick != nil {
			p.Spec.Policy = placement.Policy{PlacementType: placement.PickN, NumberOfClusters: pick}
		}
		if _, err := h.ApplyPlacement(ctx, p, hub.Precondition{}); err != nil {
			b.Fatal(err)
		}
	}
	now = now.Add(time.Hour)
	if err := os.WriteFile(file, inventory("2"), 0o644); err != nil {
		b.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	_ = os.Chtimes(file, later, later)
	want := 900
	if pick != nil {
		want = *pick
	}
	for _, name := range names {
		got, err := h.GetPlacement(ctx, name)
		if err != nil || got.Status.ResourceIndex != 1 || len(got.Status.Selected) < want {
			b.Fatalf("%s: index %d, %d selected, %v", name, got.Status.ResourceIndex, len(got.Status.Selected), err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(10 * time.Second)
		if first {
			h.store.ForgetReads()
		}
		for _, name := range names {
			if _, err := h.GetPlacement(ctx, name); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*placements), "ns/placement")
}
