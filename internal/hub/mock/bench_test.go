package mock

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
)

func TestGeneratedFleetLoads(t *testing.T) {
	opts := fleetgen.Options{Clusters: 300, Seed: 3, StaleEvery: 10, TaintEvery: 7, NAPNodes: 2}
	f, err := ParseInventory("gen", fleetgen.Generate(opts), testNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Clusters) != 300 {
		t.Fatalf("%d clusters", len(f.Clusters))
	}
	again, _ := ParseInventory("gen", fleetgen.Generate(opts), testNow)
	if again.Clusters[123].Properties["kubernetes-fleet.io/node-count"] != f.Clusters[123].Properties["kubernetes-fleet.io/node-count"] {
		t.Fatal("generator is not deterministic")
	}
}

// The inventory snapshot must give exactly the fleet a fresh parse gives,
// with relative times resolved against the current clock, and an edited
// file must be parsed again.
func TestInventoryCache(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(file, fleetgen.Generate(fleetgen.Options{Clusters: 20, Seed: 5, StaleEvery: 3}), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{FleetFile: file, StatePath: filepath.Join(dir, "s.db"), Clock: ClockConfig{Mode: ClockFixed, Time: testNow}}
	if _, err := New(cfg); err != nil { // first command: parses and caches
		t.Fatal(err)
	}
	cfg.Clock.Time = testNow.Add(time.Hour)
	h, err := New(cfg) // later command: served from the snapshot
	if err != nil {
		t.Fatal(err)
	}
	cached, _ := h.Fleet(context.Background())
	fresh, _ := LoadInventoryFile(file, testNow.Add(time.Hour))
	cq, fq := cached.Clusters[7].Usage.Available["cpu"], fresh.Clusters[7].Usage.Available["cpu"]
	if len(cached.Clusters) != 20 || !cached.Clusters[0].Agent.LastHeartbeat.Equal(fresh.Clusters[0].Agent.LastHeartbeat) || cq.Cmp(fq) != 0 {
		t.Fatalf("snapshot differs from a fresh parse")
	}
	if err := os.WriteFile(file, []byte("regions: [{name: r}]\nclusters: [{name: only, region: r}]\n"), 0o644); err != nil {
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

var benchFilter = selector.ClusterFilter{
	Labels: &selector.LabelSelector{MatchExpressions: []selector.LabelExpression{{Key: "env", Operator: selector.OpIn, Values: []string{"prod", "staging"}}}},
	Properties: &selector.PropertySelector{MatchExpressions: []selector.PropertyExpression{
		{Name: "kubernetes-fleet.io/node-count", Operator: selector.OpGe, Values: []string{"5"}},
		{Name: "resources.kubernetes-fleet.io/available-cpu", Operator: selector.OpGt, Values: []string{"8"}},
	}},
	EligibleOnly: true,
}

// BenchmarkLoadAndFilter5000 is what each Terraform command does with a
// 5,000-cluster inventory file: open the hub (state database, inventory
// snapshot), build the fleet, and filter it with a 3-expression selector
// (issue target: under 100 ms and 200 MB peak).
func BenchmarkLoadAndFilter5000(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(file, fleetgen.Generate(fleetgen.Options{Clusters: 5000, Seed: 1, StaleEvery: 50, TaintEvery: 40}), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg := Config{FleetFile: file, StatePath: filepath.Join(dir, "s.db"), Clock: ClockConfig{Mode: ClockFixed, Time: testNow}}
	if _, err := New(cfg); err != nil { // the first command after an edit parses the YAML
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
		got, err := benchFilter.Apply(f, h.Now())
		if err != nil || len(got) == 0 {
			b.Fatalf("%d matches, %v", len(got), err)
		}
	}
}

// BenchmarkParseInventory5000Cold is the first command after the inventory
// file changed: strict YAML decoding, validation and the same filter.
func BenchmarkParseInventory5000Cold(b *testing.B) {
	data := fleetgen.Generate(fleetgen.Options{Clusters: 5000, Seed: 1, StaleEvery: 50, TaintEvery: 40})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f, err := ParseInventory("bench", data, testNow)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := benchFilter.Apply(f, testNow); err != nil {
			b.Fatal(err)
		}
	}
}
