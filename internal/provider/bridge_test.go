package provider

import (
	"errors"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type bridgeInner struct {
	MatchLabels map[string]string
	Values      []string
}

type bridgeDoc struct {
	Name             string
	NumberOfClusters *int
	Weight           int
	Enabled          bool
	Budgets          []bridgeInner
	Other            *bridgeInner
}

var bridgeType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"name":               tftypes.String,
	"number_of_clusters": tftypes.Number,
	"weight":             tftypes.Number,
	"enabled":            tftypes.Bool,
	"budgets": tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"match_labels": tftypes.Map{ElementType: tftypes.String},
		"values":       tftypes.List{ElementType: tftypes.String},
	}}},
	"other": tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"match_labels": tftypes.Map{ElementType: tftypes.String},
		"values":       tftypes.List{ElementType: tftypes.String},
	}},
	"computed_only": tftypes.String,
}}

func TestBridgeRoundTrip(t *testing.T) {
	n := 3
	cases := []bridgeDoc{
		{Name: "a", NumberOfClusters: &n, Weight: -20, Enabled: true, Budgets: []bridgeInner{{MatchLabels: map[string]string{"Fleet.Azure.com/Snake_Case": "v", "empty": ""}, Values: []string{"x", ""}}}},
		{Name: "nil lists stay null", Budgets: nil},
		{Name: "empty lists stay empty", Budgets: []bridgeInner{}, Other: &bridgeInner{Values: []string{}}},
		{Name: "an all-null object is absent", Other: nil},
	}
	attrs := []string{"name", "number_of_clusters", "weight", "enabled", "budgets", "other"}
	for _, c := range cases {
		v, err := encode(c, bridgeType)
		if err != nil {
			t.Fatal(err)
		}
		var back bridgeDoc
		unknown, err := decodeAttrs(v, attrs, &back)
		if err != nil || len(unknown) > 0 {
			t.Fatalf("%s: %v %v", c.Name, unknown, err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Errorf("%s: round trip\n got %#v\nwant %#v", c.Name, back, c)
		}
	}
}

func TestBridgeUnknownAndNull(t *testing.T) {
	obj := func(name tftypes.Value) tftypes.Value {
		vals := map[string]tftypes.Value{}
		for k, at := range bridgeType.AttributeTypes {
			vals[k] = tftypes.NewValue(at, nil)
		}
		vals["name"] = name
		vals["computed_only"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		return tftypes.NewValue(bridgeType, vals)
	}
	var d bridgeDoc
	if unknown, err := decodeAttrs(obj(tftypes.NewValue(tftypes.String, tftypes.UnknownValue)), []string{"name", "weight"}, &d); !unknown["name"] || unknown["weight"] || err != nil {
		t.Fatalf("unknown name: %v %v", unknown, err)
	}
	// Unknown attributes that are not asked for do not matter.
	if unknown, err := decodeAttrs(obj(tftypes.NewValue(tftypes.String, "x")), []string{"name", "budgets"}, &d); len(unknown) > 0 || err != nil || d.Name != "x" || d.Budgets != nil {
		t.Fatalf("got %v %v %#v", unknown, err, d)
	}
	v, err := encode(bridgeDoc{}, bridgeType)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]tftypes.Value
	_ = v.As(&fields)
	if !fields["name"].IsNull() || !fields["computed_only"].IsNull() || !fields["other"].IsNull() {
		t.Fatalf("empty strings, missing fields and nil pointers must be null: %v", fields)
	}
}

// A value that does not fit its field names the attribute.
func TestBridgeDecodeErrorNamesTheAttribute(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"weight": tftypes.Number}}
	v := tftypes.NewValue(typ, map[string]tftypes.Value{"weight": tftypes.NewValue(tftypes.Number, 3000000000)})
	var out struct{ Weight *int32 }
	_, err := decodeAttrs(v, []string{"weight"}, &out)
	var de *decodeError
	if !errors.As(err, &de) || de.Attr != "weight" {
		t.Fatalf("got %v", err)
	}
}
