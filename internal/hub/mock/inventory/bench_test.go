package inventory

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"gopkg.in/yaml.v2"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
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

// A hub builds a validated document's fleet again at every instant
// (trusted), sharing what does not depend on the instant between the
// fleets it builds (Document.shared, hubOf): each is the fleet that
// validating the document at that instant builds, and building one leaves
// the others as they were.
func TestTrustedBuildsAreTheValidatedFleet(t *testing.T) {
	opts := fleetgen.Options{Clusters: 600, Seed: 5, StaleEvery: 9, TaintEvery: 7, NAPNodes: 2}
	data := fleetgen.Generate(opts)
	for _, doc := range []struct {
		name string
		data []byte
	}{{"gen.json", data}, {SampleName, Sample}} {
		raw, err := Decode(doc.name, doc.data)
		if err != nil {
			t.Fatal(err)
		}
		epoch := testNow.Add(-time.Hour)
		var built []*fleet.Fleet
		for i, at := range []time.Time{testNow, testNow.Add(time.Minute), testNow.Add(time.Hour)} {
			want, err := Build(doc.name, doc.data, raw, at, epoch, false)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Build(doc.name, nil, raw, at, epoch, true)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, build %d: the trusted fleet is not the validated one", doc.name, i)
			}
			built = append(built, got)
		}
		first, _ := Build(doc.name, doc.data, raw, testNow, epoch, false)
		if !reflect.DeepEqual(built[0], first) {
			t.Fatalf("%s: a later build changed an earlier one", doc.name)
		}
	}
}
