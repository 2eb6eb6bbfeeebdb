package store

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
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
