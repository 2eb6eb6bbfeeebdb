package provider

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	tfattr "github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// modelled is what every resource and data source implements: the Go model
// its whole state decodes into through the bridge.
type modelled interface{ model() any }

// Every schema (resources, data sources, the provider) and its model match
// one to one in both directions: every attribute has a field with its name
// as json tag and a fitting type, and every field has an attribute. The
// bridge rejects a mismatch at run time; this finds it before.
func TestSchemasMatchModels(t *testing.T) {
	ctx := context.Background()
	p := New("test")().(*aksProvider)
	var presp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &presp)
	matchModel(t, "provider", presp.Schema.Type(), reflect.TypeOf(providerModel{}))
	for _, f := range p.Resources(ctx) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "aks"}, &meta)
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		m, ok := r.(modelled)
		if !ok {
			t.Errorf("%s: no model()", meta.TypeName)
			continue
		}
		matchModel(t, meta.TypeName, resp.Schema.Type(), reflect.TypeOf(m.model()))
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var meta datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "aks"}, &meta)
		var resp datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &resp)
		m, ok := d.(modelled)
		if !ok {
			t.Errorf("data.%s: no model()", meta.TypeName)
			continue
		}
		matchModel(t, "data."+meta.TypeName, resp.Schema.Type(), reflect.TypeOf(m.model()))
	}
}

// The checker itself catches a missing field, a field without an attribute
// and a wrong type.
func TestMatchModelFindsMismatches(t *testing.T) {
	type model struct {
		A string `json:"a"`
		B int    `json:"b"`
		C bool   `json:"extra"`
	}
	schema := types.ObjectType{AttrTypes: map[string]tfattr.Type{"a": types.StringType, "b": types.StringType, "missing": types.BoolType}}
	got := modelMismatches("x", schema, reflect.TypeOf(model{}))
	want := []string{
		"x.b: attribute of type basetypes.StringType, field of type int",
		"x.extra: field without an attribute",
		"x.missing: attribute without a field",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func matchModel(t *testing.T, where string, schema tfattr.Type, model reflect.Type) {
	t.Helper()
	for _, m := range modelMismatches(where, schema, model) {
		t.Error(m)
	}
}

// modelMismatches compares an attribute type with a Go type.
func modelMismatches(where string, schema tfattr.Type, model reflect.Type) []string {
	for model.Kind() == reflect.Pointer {
		model = model.Elem()
	}
	mismatch := func() []string {
		return []string{where + ": attribute of type " + reflect.TypeOf(schema).String() + ", field of type " + model.String()}
	}
	if tt, ok := schema.(timeouts.Type); ok { // the timeouts library's object of durations
		schema = tt.ObjectType
	}
	switch st := schema.(type) {
	case basetypes.StringType:
		if model.Kind() != reflect.String {
			return mismatch()
		}
	case basetypes.BoolType:
		if model.Kind() != reflect.Bool {
			return mismatch()
		}
	case basetypes.Int64Type, wholeNumberType:
		switch model.Kind() {
		case reflect.Int, reflect.Int32, reflect.Int64:
		default:
			return mismatch()
		}
	case basetypes.NumberType:
		switch model.Kind() {
		case reflect.Int, reflect.Int32, reflect.Int64, reflect.Float64:
		default:
			return mismatch()
		}
	case basetypes.Float64Type:
		if model.Kind() != reflect.Float64 {
			return mismatch()
		}
	case types.ListType:
		if model.Kind() != reflect.Slice {
			return mismatch()
		}
		return modelMismatches(where+"[]", st.ElemType, model.Elem())
	case types.MapType:
		if model.Kind() != reflect.Map || model.Key().Kind() != reflect.String {
			return mismatch()
		}
		return modelMismatches(where+"{}", st.ElemType, model.Elem())
	case types.ObjectType:
		if model.Kind() != reflect.Struct {
			return mismatch()
		}
		fields := map[string]reflect.Type{}
		jsonFields(model, fields)
		var out []string
		for name, at := range st.AttrTypes {
			ft, ok := fields[name]
			if list, isFlag := strings.CutPrefix(name, "no_"); isFlag && !ok {
				if lt, isList := fields[list]; isList && lt.Kind() == reflect.Slice && at == types.BoolType {
					continue // the bridge folds no_<list> into an empty <list> (bridge.go, foldNoFlags)
				}
			}
			if !ok {
				out = append(out, where+"."+name+": attribute without a field")
				continue
			}
			out = append(out, modelMismatches(where+"."+name, at, ft)...)
		}
		for name := range fields {
			if _, ok := st.AttrTypes[name]; !ok {
				out = append(out, where+"."+name+": field without an attribute")
			}
		}
		sort.Strings(out)
		return out
	default:
		return []string{where + ": unsupported attribute type " + reflect.TypeOf(schema).String()}
	}
	return nil
}

// jsonFields collects a struct's fields by json name, as encoding/json sees
// them (untagged embedded structs are inlined; "-" fields are skipped).
func jsonFields(t reflect.Type, out map[string]reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			jsonFields(f.Type, out)
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name // untagged: a bridge model must tag every field, so this shows up as a mismatch
		}
		out[name] = f.Type
	}
}
