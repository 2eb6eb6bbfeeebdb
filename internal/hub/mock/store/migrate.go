package store

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// Databases written before format 1 carry no version. Their bodies are the
// hub objects themselves, encoded without json tags: every key is a Go field
// name ("Spec", "NumberOfClusters"), and the object's metadata (hub.Meta's
// fields, promoted into the body) repeats what the envelope holds. A NodePool
// body also holds its cluster (part of the key) and a copy of its live status.
// These lists are the earlier format, frozen: they must not follow later
// changes of hub.Meta or hub.NodePool.
var (
	unversionedMetaKeys = []string{"Name", "ETag", "Generation", "CreatedAt", "UpdatedAt"}
	unversionedDropped  = map[string][]string{BucketNodePools: {"Cluster", "Status"}}
)

// upgrades[v] turns a body of bucket in format v into format v+1.
var upgrades = map[int]func(bucket string, body map[string]any) (map[string]any, error){
	1: upgradeV1,
	2: upgradeV2,
	3: upgradeV3,
	4: upgradeV4,
	5: upgradeV5,
}

// migrate rewrites every object of a database of format from (0: an
// unversioned database) into the current format, inside the caller's
// transaction: an unversioned body has its keys renamed from Go field names
// to json tags (upgradeUnversioned), which gives format 1, then each format's
// upgrade runs in turn, then the body is decoded strictly into the record
// type and encoded again, so that a key the record type does not know fails
// the migration instead of being dropped. Envelopes (ETags, generations,
// times) are kept as they are. A new, empty database has nothing to migrate.
func migrate(tx *bolt.Tx, from int) error {
	return migrateBodies(tx, func(bucket string, body map[string]any) (map[string]any, error) {
		var err error
		if from == 0 {
			if body, err = upgradeUnversioned(bucket, body); err != nil {
				return nil, err
			}
		}
		for v := max(from, 1); v < FormatVersion; v++ {
			if body, err = upgrades[v](bucket, body); err != nil {
				return nil, err
			}
		}
		return body, nil
	})
}

// upgradeUnversioned turns an unversioned body of bucket into format 1.
func upgradeUnversioned(bucket string, body map[string]any) (map[string]any, error) {
	for _, k := range append(unversionedMetaKeys, unversionedDropped[bucket]...) {
		delete(body, k)
	}
	renamed, err := renameKeys(v4Types[bucket], body, "body")
	if err != nil {
		return nil, err
	}
	return renamed.(map[string]any), nil
}

// upgradeV1 turns a format-1 body of bucket into format 2. Only NodePools
// changed, where format 1 could not tell two things apart:
//
//   - a taint value of "" was an omitted value (the model had no other way
//     to say it); format 2 tells an omitted value (absent) from an explicit
//     "" (which Kubernetes rejects), so "" becomes absent;
//   - the disruption block was always an object, an omitted one having only
//     null fields; format 2 stores an omitted block as null, which is what
//     an object of nulls meant (an explicit block always sets
//     consolidate_after).
//
// The format-1 key names are frozen here, as the earlier format is.
func upgradeV1(bucket string, body map[string]any) (map[string]any, error) {
	if bucket != BucketNodePools {
		return body, nil
	}
	spec, _ := body["spec"].(map[string]any)
	if spec == nil {
		return body, nil
	}
	if tmpl, _ := spec["template"].(map[string]any); tmpl != nil {
		for _, list := range []string{"taints", "startup_taints"} {
			taints, _ := tmpl[list].([]any)
			for _, t := range taints {
				if t, _ := t.(map[string]any); t != nil && t["value"] == "" {
					delete(t, "value")
				}
			}
		}
	}
	if d, ok := spec["disruption"].(map[string]any); ok {
		allNull := true
		for _, v := range d {
			allNull = allNull && v == nil
		}
		if allNull {
			spec["disruption"] = nil
		}
	}
	return body, nil
}

// upgradeV2 turns a format-2 body of bucket into format 3. Only placements
// changed: format 2 kept the last cycle's decision for every cluster of the
// fleet (800 KB per placement at 5,000 clusters); format 3 keeps what Fleet's
// status keeps (placement.StoredDecisions): the selected clusters' decisions, with
// their recorded scores, and at most 20 left out, the ones a preview lists.
// Cutting a format-2 list gives what the cycle that wrote it would have
// stored in format 3.
func upgradeV2(bucket string, body map[string]any) (map[string]any, error) {
	if bucket != BucketPlacements {
		return body, nil
	}
	status, _ := body["status"].(map[string]any)
	list, _ := status["decisions"].([]any)
	if list == nil {
		return body, nil
	}
	decisions := make([]placement.Decision, len(list))
	for i, v := range list {
		var err error
		if decisions[i], err = decisionV2(v); err != nil {
			return nil, fmt.Errorf("body.status.decisions[%d]: %w", i, err)
		}
	}
	status["decisions"] = placement.StoredDecisions(decisions)
	return body, nil
}

// decisionV2 reads a decision of format 2, field by field: a list holds one
// per cluster of the fleet, and encoding it again to decode it into
// placement.Decision would cost seconds for a large state. Like the strict
// decoding of whole bodies, it fails on a key it does not know. The format-2
// key names are frozen here.
func decisionV2(v any) (placement.Decision, error) {
	var d placement.Decision
	m, ok := v.(map[string]any)
	if !ok {
		return d, fmt.Errorf("%T is not a decision", v)
	}
	for k, val := range m {
		if val == nil {
			continue
		}
		ok := false
		switch k {
		case "cluster_name":
			d.ClusterName, ok = val.(string)
		case "selected":
			d.Selected, ok = val.(bool)
		case "reason":
			d.Reason, ok = val.(string)
		case "affinity_score":
			d.AffinityScore, ok = intV2(val)
		case "topology_spread_score":
			d.TopologySpreadScore, ok = intV2(val)
		default:
			return d, fmt.Errorf("%q is not a field of a decision", k)
		}
		if !ok {
			return d, fmt.Errorf("%s: %v is not a value of the field", k, val)
		}
	}
	return d, nil
}

// intV2 reads an integer that migrateRecord decoded as a json.Number.
func intV2(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	return i, err == nil
}

// migrateBodies rewrites the body of every stored object with upgrade, then
// decodes it strictly into its record type and encodes it again.
func migrateBodies(tx *bolt.Tx, upgrade func(bucket string, body map[string]any) (map[string]any, error)) error {
	for _, bucket := range slices.Sorted(maps.Keys(recordTypes)) {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			continue
		}
		migrated := map[string][]byte{}
		err := b.ForEach(func(k, v []byte) error {
			out, err := migrateRecord(bucket, v, upgrade)
			if err != nil {
				return fmt.Errorf("%s/%s: %w", bucket, k, err)
			}
			migrated[string(k)] = out
			return nil
		})
		if err != nil {
			return err
		}
		for k, v := range migrated { // bbolt forbids writes while iterating
			if err := b.Put([]byte(k), v); err != nil {
				return err
			}
		}
	}
	return nil
}

// migrateRecord rewrites one stored envelope of bucket with upgrade.
func migrateRecord(bucket string, stored []byte, upgrade func(bucket string, body map[string]any) (map[string]any, error)) ([]byte, error) {
	var rec Record
	if err := json.Unmarshal(stored, &rec); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(rec.Body))
	dec.UseNumber() // generations and counts come back exactly
	var body map[string]any
	if err := dec.Decode(&body); err != nil {
		return nil, err
	}
	t := recordTypes[bucket]
	upgraded, err := upgrade(bucket, body)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(upgraded)
	if err != nil {
		return nil, err
	}
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	typed := reflect.New(t).Interface()
	if err := strict.Decode(typed); err != nil {
		return nil, err
	}
	if rec.Body, err = json.Marshal(typed); err != nil {
		return nil, err
	}
	return json.Marshal(rec)
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// renameKeys returns v, the JSON value encoding/json writes for a value of
// type t, with the key of every struct field renamed from its Go field name
// to its json name. It walks t and v together: map keys (labels, limits) are
// data and stay as they are; values of types that decode themselves
// (time.Time) are left alone; a key that names no field of t is an error, so
// that nothing is dropped unnoticed. at locates v in error messages.
func renameKeys(t reflect.Type, v any, at string) (any, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if pt := reflect.PointerTo(t); pt.Implements(jsonUnmarshalerType) || pt.Implements(textUnmarshalerType) {
		return v, nil
	}
	var err error
	switch val := v.(type) {
	case map[string]any:
		if t.Kind() == reflect.Map {
			for k, e := range val {
				if val[k], err = renameKeys(t.Elem(), e, at+"["+k+"]"); err != nil {
					return nil, err
				}
			}
			return val, nil
		}
		if t.Kind() != reflect.Struct {
			return v, nil // the strict decoding reports the mismatch
		}
		fields := jsonFields(t)
		out := make(map[string]any, len(val))
		for _, k := range slices.Sorted(maps.Keys(val)) {
			f, ok := fields[k]
			if !ok {
				return nil, fmt.Errorf("%s: %q is not a field of %v", at, k, t)
			}
			if out[f.Name], err = renameKeys(f.Type, val[k], at+"."+f.Name); err != nil {
				return nil, err
			}
		}
		return out, nil
	case []any:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return v, nil
		}
		for i, e := range val {
			if val[i], err = renameKeys(t.Elem(), e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// jsonFields indexes the stored fields of struct type t by both their Go
// name and their json name; the result's Name is the json name. Stored types
// embed no untagged structs (TestStoredFieldsAreTagged), so no field is
// promoted from an embedded one.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, stored := jsonName(f)
		if !stored {
			continue
		}
		goName := f.Name
		f.Name = name
		out[goName], out[name] = f, f
	}
	return out
}

// jsonName is the key encoding/json writes for field f, and whether it
// writes f at all.
func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	switch {
	case !f.IsExported() || tag == "-":
		return "", false
	case name == "":
		return f.Name, true
	}
	return name, true
}

// upgradeV3 turns a format-3 body into format 4. A profile's
// spec.node_image_selection_type is spec.node_image_selection (the name of
// the attribute and of the ARM property). The fields format 4 adds (a run's
// auto_upgrade, a profile's trigger) are absent, which means a run created
// directly and a profile that starts from what its channel resolved to when
// it was last written.
func upgradeV3(bucket string, body map[string]any) (map[string]any, error) {
	if bucket != BucketProfiles {
		return body, nil
	}
	if spec, ok := body["spec"].(map[string]any); ok {
		if v, ok := spec["node_image_selection_type"]; ok {
			delete(spec, "node_image_selection_type")
			spec["node_image_selection"] = v
		}
	}
	return body, nil
}

// upgradeV4 turns a format-4 body into format 5: a body whose record is
// stored in an upstream wire form since (NodePools, strategies, profiles:
// wire.go) is read strictly into its format-4 type, then written as its
// record; other bodies stay as they are.
func upgradeV4(bucket string, body map[string]any) (map[string]any, error) {
	return rewrite(v4Records[bucket], body)
}

// rewrite reads body strictly with convert into the record that writes it
// in its new form; without convert the body stays as it is.
func rewrite(convert func(raw []byte) (any, error), body map[string]any) (map[string]any, error) {
	if convert == nil {
		return body, nil
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	record, err := convert(raw)
	if err != nil {
		return nil, err
	}
	if raw, err = json.Marshal(record); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers come back exactly, as migrateRecord reads them
	var out map[string]any
	return out, dec.Decode(&out)
}

// fromTwin reads a body strictly into its earlier form V and converts it
// into the record that writes its new form.
func fromTwin[V any](record func(V) any) func(raw []byte) (any, error) {
	return func(raw []byte) (any, error) {
		var v V
		if err := strictJSON(raw, &v); err != nil {
			return nil, err
		}
		return record(v), nil
	}
}

// v4Records read a format-4 body of the buckets stored in a wire form
// since, into the record that writes it.
var v4Records = map[string]func(raw []byte) (any, error){
	BucketNodePools:  fromTwin(func(v v4NodePool) any { return NodePool(v) }),
	BucketStrategies: fromTwin(func(v v4Strategy) any { return Strategy(v) }),
	BucketProfiles:   fromTwin(func(v v4Profile) any { return Profile(v) }),
}

// upgradeV5 turns a format-5 body into format 6: placements, runs and
// their histories, the engine's encoding until format 5, are stored in
// Fleet's and Resource Manager's wire forms and the mock's own records
// (wire.go); a run's status, which every read computes from its history
// and the clock, is no longer stored.
func upgradeV5(bucket string, body map[string]any) (map[string]any, error) {
	return rewrite(v5Records[bucket], body)
}

// v5Records read a format-5 body of the buckets stored in a wire form
// since, into the record that writes it.
var v5Records = map[string]func(raw []byte) (any, error){
	BucketUpgrades: fromTwin(func(v v4Upgrades) any {
		return Upgrades{Upgrades: mapSlice(v.Upgrades, func(u v4AppliedUpgrade) AppliedUpgrade { return AppliedUpgrade(u) })}
	}),
	BucketPlacements: fromTwin(func(v v4Placement) any { return v.record() }),
	BucketRuns:       fromTwin(func(v v4Run) any { return Run(v) }),
	BucketRunEvents:  fromTwin(func(v v4RunEvents) any { return RunEvents(v) }),
}
