package mock

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// storedTypes are the types whose JSON encoding is on disk: the envelope,
// every record type and the clock anchor.
func storedTypes() []reflect.Type {
	out := []reflect.Type{reflect.TypeFor[store.Record](), reflect.TypeFor[clockAnchor]()}
	for _, b := range slices.Sorted(maps.Keys(store.RecordTypes())) {
		out = append(out, store.RecordTypes()[b])
	}
	return out
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// TestStoredFieldsAreTagged guards the record format against Go refactoring:
// a field stored under its Go name would be renamed on disk by a rename in
// Go, and what was stored under the old name silently lost. Every exported
// field of every stored type, down through the engine types, must name its
// key in a json tag, and no two fields of a struct may share a key
// (encoding/json would silently store neither).
func TestStoredFieldsAreTagged(t *testing.T) {
	seen := map[reflect.Type]bool{}
	for _, typ := range storedTypes() {
		for _, problem := range untaggedFields(typ, typ.String(), seen) {
			t.Error(problem)
		}
	}
}

func untaggedFields(t reflect.Type, at string, seen map[reflect.Type]bool) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if seen[t] || t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType) {
		return nil
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return untaggedFields(t.Elem(), at+"[]", seen)
	case reflect.Interface, reflect.Func, reflect.Chan:
		return []string{at + ": a " + t.Kind().String() + " cannot be stored"}
	case reflect.Struct:
	default:
		return nil
	}
	var problems []string
	keys := map[string]string{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Tag.Get("json") == "-":
			continue
		case name == "":
			problems = append(problems, fmt.Sprintf("%s.%s (%v) has no json tag naming its key", at, f.Name, t))
		case keys[name] != "":
			problems = append(problems, fmt.Sprintf("%s.%s and .%s share the json key %q", at, keys[name], f.Name, name))
		}
		keys[name] = f.Name
		problems = append(problems, untaggedFields(f.Type, at+"."+f.Name, seen)...)
	}
	return problems
}

// TestRecordsKeepEveryField fills every field of every record type, stores
// it as the database does and reads it back: a field lost in JSON (a tag
// collision, an unexported type) fails; and every field of the hub object
// built from the record must be set, so a field added to a hub type but not
// to its record fails too.
func TestRecordsKeepEveryField(t *testing.T) {
	meta := hub.Meta{Name: "n", ETag: `"1"`, Generation: 1, CreatedAt: testNow, UpdatedAt: testNow}
	live := hub.NodePoolStatus{}
	fill(reflect.ValueOf(&live).Elem(), new(int))
	objects := map[string]func(body any) any{
		store.BucketPlacements: func(b any) any { return placementObject(b.(*store.Placement), meta) },
		store.BucketStrategies: func(b any) any { return strategyObject(b.(*store.Strategy), meta) },
		store.BucketRuns:       func(b any) any { return runObject(b.(*store.Run), meta) },
		store.BucketRunEvents:  func(b any) any { return b },
		store.BucketUpgrades:   func(b any) any { return b },
		store.BucketProfiles:   func(b any) any { return profileObject(b.(*store.Profile), meta) },
		store.BucketNodePools:  func(b any) any { return nodePoolObject(b.(*store.NodePool), meta, "c", live) },
	}
	for _, bucket := range slices.Sorted(maps.Keys(store.RecordTypes())) {
		t.Run(bucket, func(t *testing.T) {
			in := reflect.New(store.RecordTypes()[bucket])
			fill(in.Elem(), new(int))
			if r, ok := in.Interface().(*store.Run); ok { // as ARM holds a run: an inline strategy is the one it runs
				r.Spec.UpdateStrategyID, r.ResolvedStrategy = "", r.Spec.Strategy
			}
			raw, err := json.Marshal(in.Interface())
			if err != nil {
				t.Fatal(err)
			}
			out := reflect.New(store.RecordTypes()[bucket])
			if err := json.Unmarshal(raw, out.Interface()); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(in.Interface(), out.Interface()) {
				t.Fatalf("lost in a round trip:\n stored %s\n read   %+v", raw, out.Interface())
			}
			toObject := objects[bucket]
			if toObject == nil {
				t.Fatalf("no conversion for %s listed in this test", bucket)
			}
			zero := slices.DeleteFunc(zeroFields(reflect.ValueOf(toObject(out.Interface())), ""), func(f string) bool {
				return bucket == store.BucketPlacements && f == ".Status.Clusters" || // computed by each read from the rollout state
					bucket == store.BucketRuns && (f == ".Status" || strings.HasSuffix(f, ".UpdateStrategyID")) // computed by each read; an inline run
			})
			if len(zero) > 0 {
				t.Fatalf("not filled from the record: %v", zero)
			}
		})
	}
}

// A run that references its strategy by id keeps the id as it was sent and
// the copy of the strategy it runs; its spec holds no inline strategy.
func TestReferencedRunKeepsItsStrategy(t *testing.T) {
	in := store.Run{Spec: update.RunSpec{UpdateStrategyID: "safe", ManagedClusterUpdate: update.ManagedClusterUpdate{Upgrade: update.Upgrade{Type: update.UpgradeNodeImageOnly}}},
		ResolvedStrategy: &update.Strategy{Stages: []update.Stage{{Name: "canary", Groups: []update.Group{{Name: "canary"}}}}}}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out store.Run
	if err := json.Unmarshal(raw, &out); err != nil || !reflect.DeepEqual(out, in) {
		t.Fatalf("stored %s, read %+v (%v)", raw, out, err)
	}
}

// A rollout that ran under a policy and a strategy of defaults keeps them:
// present, not absent (the replay then uses them, not the spec's).
func TestRolloutKeepsAPolicyOfDefaults(t *testing.T) {
	in := store.Placement{Spec: placement.Spec{ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}}},
		Status: store.PlacementStatus{Rollout: &placement.RolloutState{Policy: &placement.Policy{}, Strategy: &placement.Strategy{}, At: testNow}}}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out store.Placement
	if err := json.Unmarshal(raw, &out); err != nil || !reflect.DeepEqual(out, in) {
		t.Fatalf("stored %s, read %+v (%v)", raw, out, err)
	}
}

// fill sets every exported field reachable from v to a distinct non-zero
// value (one element per slice and map). n numbers the values.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(testNow.Add(time.Duration(*n) * time.Second)))
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && f.Tag.Get("json") != "-" { // "-": not stored
				fill(v.Field(i), n)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), n)
		v.Set(s)
	case reflect.Map:
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, n)
		fill(e, n)
		m := reflect.MakeMap(v.Type())
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.String:
		v.SetString(fmt.Sprintf("v%d", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	}
}

// zeroFields lists the paths below v that hold a zero value.
func zeroFields(v reflect.Value, at string) []string {
	if v.IsZero() {
		return []string{at}
	}
	switch v.Kind() {
	case reflect.Pointer:
		return zeroFields(v.Elem(), at)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return nil
		}
		var out []string
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				out = append(out, zeroFields(v.Field(i), at+"."+f.Name)...)
			}
		}
		return out
	case reflect.Slice:
		var out []string
		for i := range v.Len() {
			out = append(out, zeroFields(v.Index(i), fmt.Sprintf("%s[%d]", at, i))...)
		}
		return out
	}
	return nil
}

// TestStoredKeysAreNotTerraformNames stores a record of every bucket with
// every field set and refuses a key of the stored body that is the json tag
// of an engine type the record holds — a Terraform attribute name, which a
// rename would change — where the upstream wire form has its own name.
// Terraform's multi-word names are snake_case and the wire forms'
// camelCase, so a snake_case engine tag in a stored body is an engine
// encoding that reached the database.
func TestStoredKeysAreNotTerraformNames(t *testing.T) {
	for bucket, typ := range store.RecordTypes() {
		t.Run(bucket, func(t *testing.T) {
			tags := map[string]string{}
			engineTags(typ, tags, map[reflect.Type]bool{})
			in := reflect.New(typ)
			fill(in.Elem(), new(int))
			raw, err := json.Marshal(in.Interface())
			if err != nil {
				t.Fatal(err)
			}
			var body any
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatal(err)
			}
			for _, k := range jsonKeys(body, nil) {
				if owner, ok := tags[k]; ok && strings.Contains(k, "_") {
					t.Errorf("stored key %q is the json tag of %s (a Terraform attribute name): %s", k, owner, raw)
				}
			}
		})
	}
}

// engineTags collects the json tags of the fields of the engine's struct
// types reachable from t.
func engineTags(t reflect.Type, out map[string]string, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	engine := strings.Contains(t.PkgPath(), "/internal/engine/")
	for i := range t.NumField() {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); engine && name != "" && name != "-" {
			out[name] = t.String() + "." + f.Name
		}
		engineTags(f.Type, out, seen)
	}
}

// jsonKeys lists every object key in a decoded JSON value.
func jsonKeys(v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			out = jsonKeys(e, append(out, k))
		}
	case []any:
		for _, e := range v {
			out = jsonKeys(e, out)
		}
	}
	return out
}
