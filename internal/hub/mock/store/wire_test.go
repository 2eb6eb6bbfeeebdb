package store

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// Every field of the stored forms names its key in a json tag, down
// through the upstream wire types they hold: a field stored under its Go
// name would be renamed on disk by a Go rename (the record types, whose
// MarshalJSON writes these forms, are checked by TestStoredFieldsAreTagged
// in package mock only down to that method).
func TestStoredFormsAreTagged(t *testing.T) {
	marshaler := reflect.TypeFor[json.Marshaler]()
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, at string) []string
	walk = func(typ reflect.Type, at string) []string {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map || typ.Kind() == reflect.Array {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ.Implements(marshaler) || reflect.PointerTo(typ).Implements(marshaler) {
			return nil
		}
		seen[typ] = true
		var untagged []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == "" && !f.Anonymous {
				untagged = append(untagged, at+"."+f.Name)
			}
			untagged = append(untagged, walk(f.Type, at+"."+f.Name)...)
		}
		return untagged
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[nodePoolWire](), reflect.TypeFor[strategyWire](), reflect.TypeFor[profileWire](),
		reflect.TypeFor[runWire](), reflect.TypeFor[eventsWire](), reflect.TypeFor[placementWire](), reflect.TypeFor[Upgrades](),
	} {
		if untagged := walk(typ, typ.Name()); len(untagged) > 0 {
			t.Errorf("stored without a json tag naming their key: %v", untagged)
		}
	}
}

// A stored body is read strictly (strictJSON): a key the stored form does
// not have, at the top or nested, is an error, and since the store reads
// bodies with encoding/json/v2 so are a key in another case, a key given
// twice and anything after the body.
func TestStoredFormsAreReadStrictly(t *testing.T) {
	n := 2
	p := Placement{Spec: placement.Spec{Name: "web", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
		Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n}},
		Status: PlacementStatus{Selected: []string{"a"}, Decisions: []placement.Decision{{ClusterName: "a", Selected: true}},
			Rollout: &placement.RolloutState{Bindings: []placement.Binding{{Cluster: "a"}}}}}
	good, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back Placement
	if err := back.UnmarshalJSON(good); err != nil {
		t.Fatalf("the stored form does not read back: %v", err)
	}
	for name, bad := range map[string]string{
		"unknown key":         strings.Replace(string(good), `{"name":"web",`, `{"name":"web","surplus":1,`, 1),
		"unknown nested key":  strings.Replace(string(good), `"resourceIndex":`, `"resourceIndexes":0,"resourceIndex":`, 1),
		"key in another case": strings.Replace(string(good), `"observedFleet"`, `"ObservedFleet"`, 1),
		"key twice":           strings.Replace(string(good), `{"name":"web",`, `{"name":"web","name":"web",`, 1),
		"trailing value":      string(good) + `{}`,
	} {
		if bad == string(good) {
			t.Fatalf("%s: the test did not change the body", name)
		}
		if err := back.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}

// A placement is read from its envelope in one pass (LoadTx): what
// was saved reads back with its envelope's metadata, and a body with a key
// its stored form does not have, or no body, is a corrupt record.
func TestPlacementReadsInOnePass(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	n := 3
	saved := Placement{Spec: placement.Spec{Name: "web", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
		Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n}},
		Status: PlacementStatus{Selected: []string{"a"}, Decisions: []placement.Decision{{ClusterName: "a", Selected: true, AffinityScore: 4}}}}
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	rec, err := Save(s, BucketPlacements, "web", &saved, Precondition{}, now)
	if err != nil {
		t.Fatal(err)
	}
	got, gotRec, err := Load[Placement](s, BucketPlacements, "web")
	if err != nil {
		t.Fatal(err)
	}
	if gotRec.ETag != rec.ETag || gotRec.Generation != rec.Generation || !gotRec.CreatedAt.Equal(now) || !gotRec.UpdatedAt.Equal(now) {
		t.Fatalf("envelope %+v, saved %+v", gotRec, rec)
	}
	if !reflect.DeepEqual(got.Status.Decisions, saved.Status.Decisions) || got.Spec.Name != "web" || *got.Spec.Policy.NumberOfClusters != 3 {
		t.Fatalf("read back %+v", got)
	}
	raw, err := s.Get(BucketPlacements, "web")
	if err != nil {
		t.Fatal(err)
	}
	env, _ := json.Marshal(raw)
	for name, bad := range map[string]string{
		"unknown key in the body": strings.Replace(string(env), `"body":{`, `"body":{"surplus":1,`, 1),
		"no body":                 strings.Replace(string(env), `"body":{`, `"other":{`, 1),
	} {
		if bad == string(env) {
			t.Fatalf("%s: the test did not change the record", name)
		}
		if err := s.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(BucketPlacements)).Put([]byte("web"), []byte(bad)) }); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Load[Placement](s, BucketPlacements, "web"); err == nil || !strings.Contains(err.Error(), "is corrupt") {
			t.Errorf("%s: %v, want a corrupt record", name, err)
		}
	}
}

// LoadPlacement reads what Load reads; it decodes the bytes it read last
// once, and every read is a placement of its own: what one caller changes
// in it, the next read does not see. A write, from this store or another
// process's, and a record made corrupt are read as such.
func TestLoadPlacementDecodesEachStoredFormOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	n, ten, now := 3, "10%", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	saved := Placement{Spec: placement.Spec{Name: "web", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
		Policy:   placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n, ClusterNames: nil},
		Strategy: placement.Strategy{Type: placement.RollingUpdateStrategy, RollingUpdate: &placement.RollingUpdate{MaxUnavailable: &ten}}},
		Status: PlacementStatus{Selected: []string{"a", "b"}, Scheduled: []string{"b"},
			Decisions:         []placement.Decision{{ClusterName: "a", Selected: true, AffinityScore: 4}, {ClusterName: "b", Selected: true}},
			Conditions:        []Condition{{Type: "ClusterResourcePlacementScheduled", Status: "True", Reason: "Scheduled", Message: "m", LastTransitionTime: now}},
			Policy:            placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n},
			SelectedResources: []fleet.ResourceID{{Version: "v1", Kind: "Namespace", Name: "web"}},
			Rollout: &placement.RolloutState{Index: 1, Digest: "d", Bindings: []placement.Binding{{Cluster: "a", Index: 1, AppliedAt: now}, {Cluster: "b", Index: -1, Since: now}},
				Policy: &placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n}, IndexAt: now, At: now}}}
	if _, err := Save(s, BucketPlacements, "web", &saved, Precondition{}, now); err != nil {
		t.Fatal(err)
	}
	same := func(when string) {
		t.Helper()
		want, wantRec, err := Load[Placement](s, BucketPlacements, "web")
		if err != nil {
			t.Fatal(err)
		}
		got, gotRec, err := LoadPlacement(s, "web")
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotRec, wantRec) {
			t.Fatalf("%s: LoadPlacement read\n%+v %+v\nLoad read\n%+v %+v", when, got, gotRec, want, wantRec)
		}
	}
	same("first read")
	first, _ := s.placements.Get("web")
	// A caller changes everything it can reach of what it read.
	p, _, err := LoadPlacement(s, "web")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := s.placements.Get("web"); again != first {
		t.Fatal("the same bytes were decoded again")
	}
	st := &p.Status
	st.Selected[0], st.Scheduled[0], st.Decisions[0].ClusterName, st.Conditions[0].Message, st.SelectedResources[0].Name = "x", "x", "x", "x", "x"
	st.Rollout.Bindings[0].Cluster, *st.Rollout.Policy.NumberOfClusters, *st.Policy.NumberOfClusters = "x", 9, 9
	p.Spec.ResourceSelectors[0].Name, *p.Spec.Policy.NumberOfClusters, *p.Spec.Strategy.RollingUpdate.MaxUnavailable = "x", 9, "90%"
	same("after a caller changed its read")

	// Another process writes; then the record is made corrupt.
	other, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	saved.Status.Selected = []string{"a", "b", "c"}
	if _, err := Save(other, BucketPlacements, "web", &saved, Precondition{}, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	same("after another process's write")
	if got, _, _ := LoadPlacement(s, "web"); len(got.Status.Selected) != 3 {
		t.Fatalf("read %v after the write", got.Status.Selected)
	}
	if err := s.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketPlacements))
		return b.Put([]byte("web"), []byte(strings.Replace(string(b.Get([]byte("web"))), `"body":{`, `"body":{"surplus":1,`, 1)))
	}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadPlacement(s, "web"); err == nil || !strings.Contains(err.Error(), "mock hub state: placements/web is corrupt") {
		t.Fatalf("a corrupt record read as %v", err)
	}
	// What the store keeps is bounded.
	for i := range readPlacements + 5 {
		name := fmt.Sprintf("p-%02d", i)
		if _, err := Save(s, BucketPlacements, name, &saved, Precondition{}, now); err != nil {
			t.Fatal(err)
		}
		if _, _, err := LoadPlacement(s, name); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.placements.Len(); got != readPlacements {
		t.Fatalf("the store keeps %d placements read, want %d", got, readPlacements)
	}
}
