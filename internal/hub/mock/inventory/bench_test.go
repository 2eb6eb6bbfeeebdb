package inventory

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
	"gopkg.in/yaml.v2"
)

func TestGeneratedFleetLoads(t *testing.T) {
	opts := fleetgen.Options{Clusters: 300, Seed: 3, StaleEvery: 10, TaintEvery: 7, NAPNodes: 2}
	f, err := Parse("gen.json", fleetgen.Generate(opts), testNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Clusters) != 300 {
		t.Fatalf("%d clusters", len(f.Clusters))
	}
	again, _ := Parse("gen.json", fleetgen.Generate(opts), testNow)
	if again.Clusters[123].Properties["kubernetes-fleet.io/node-count"] != f.Clusters[123].Properties["kubernetes-fleet.io/node-count"] {
		t.Fatal("generator is not deterministic")
	}
}

// BenchmarkParseInventory5000Cold is the first command after the inventory
// file changed: strict decoding, validation and the same filter, for the
// same fleet written as JSON (what fleetgen writes) and as YAML.
func BenchmarkParseInventory5000Cold(b *testing.B) {
	js := fleetgen.Generate(fleetgen.Options{Clusters: 5000, Seed: 1, StaleEvery: 50, TaintEvery: 40})
	var doc any
	if err := json.Unmarshal(js, &doc); err != nil {
		b.Fatal(err)
	}
	yml, err := yaml.Marshal(doc)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{{"fleet.json", js}, {"fleet.yaml", yml}} {
		b.Run(filepath.Ext(c.name)[1:], func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				f, err := Parse(c.name, c.data, testNow)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := fleetgen.BenchFilter.Apply(f, testNow); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
