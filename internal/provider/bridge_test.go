package provider

import (
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

type bridgeInner struct {
	MatchLabels map[string]string `json:"match_labels"`
	Values      []string          `json:"values"`
}

type bridgeDoc struct {
	Name             string        `json:"name"`
	NumberOfClusters *int          `json:"number_of_clusters"`
	Weight           int           `json:"weight"`
	Enabled          bool          `json:"enabled"`
	Budgets          []bridgeInner `json:"budgets"`
	Other            *bridgeInner  `json:"other"`
	ComputedOnly     string        `json:"computed_only"`
}

var bridgeType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"name":               tftypes.String,
	"number_of_clusters": tftypes.Number,
	"weight":             tftypes.Number,
	"enabled":            tftypes.Bool,
	"no_budgets":         tftypes.Bool,
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
		{Name: "empty lists stay empty", Other: &bridgeInner{Values: []string{}}},
		{Name: "an empty list of blocks is no_<list>", Budgets: []bridgeInner{}},
		{Name: "an all-null object is absent", Other: nil},
	}
	for _, c := range cases {
		v, err := encode(c, bridgeType)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]tftypes.Value
		if err := v.As(&obj); err != nil {
			t.Fatal(err)
		}
		var blocks []tftypes.Value
		if err := obj["budgets"].As(&blocks); err != nil || obj["budgets"].IsNull() {
			t.Errorf("%s: a list of blocks is never null (Terraform: no blocks is an empty list): %v", c.Name, obj["budgets"])
		}
		if want := c.Budgets != nil && len(c.Budgets) == 0; !obj["no_budgets"].Equal(tftypes.NewValue(tftypes.Bool, want)) {
			t.Errorf("%s: no_budgets = %v, want %v", c.Name, obj["no_budgets"], want)
		}
		var back bridgeDoc
		unknown, err := decode(v, &back)
		if err != nil || len(unknown) > 0 {
			t.Fatalf("%s: %v %v", c.Name, unknown, err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Errorf("%s: round trip\n got %#v\nwant %#v", c.Name, back, c)
		}
	}
}

// An unknown leaf is reported by its path and decoded as null; everything
// beside it, even in the same object, is decoded.
func TestBridgeUnknownLeaf(t *testing.T) {
	unknownString := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	inner := bridgeType.AttributeTypes["other"].(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for k, at := range bridgeType.AttributeTypes {
		vals[k] = tftypes.NewValue(at, nil)
	}
	vals["name"] = tftypes.NewValue(tftypes.String, "x")
	vals["other"] = tftypes.NewValue(inner, map[string]tftypes.Value{
		"match_labels": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"a": unknownString, "b": tftypes.NewValue(tftypes.String, "2")}),
		"values":       tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "v"), unknownString}),
	})
	var d bridgeDoc
	unknown, err := decode(tftypes.NewValue(bridgeType, vals), &d)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range unknown {
		got = append(got, u.String())
	}
	sort.Strings(got)
	if want := []string{`other.match_labels["a"]`, "other.values[1]"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("unknown paths %v, want %v", got, want)
	}
	if d.Name != "x" || d.Other == nil || d.Other.MatchLabels["b"] != "2" || d.Other.Values[0] != "v" {
		t.Fatalf("known values beside the unknown ones must decode: %#v", d)
	}
	for _, c := range []struct {
		p    field.Path
		want bool
	}{
		{field.Root("other").Child("values").Index(1), true},                  // the unknown leaf
		{field.Root("other").Child("values").Index(0), true},                  // a sibling: a rule may compare them
		{field.Root("other").Child("values"), true},                           // its enclosing list
		{field.Root("other"), true},                                           // above it
		{field.Root("other").Child("match_labels").Key("b"), true},            // beside the other unknown leaf
		{field.Root("name"), false},                                           // another top-level attribute
		{field.Root("budgets").Index(0).Child("values"), false},               // another object
		{field.Root("other").Child("match_labels").Key("b").Child("x"), true}, // below a covered sibling
	} {
		if got := unknown.covers(c.p); got != c.want {
			t.Errorf("covers(%s) = %v, want %v", c.p, got, c.want)
		}
	}
}

// The bridge is strict: an attribute without a field, or a field without an
// attribute, is an error rather than a value silently dropped.
func TestBridgeIsStrict(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String, "extra": tftypes.String}}
	v := tftypes.NewValue(typ, map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.String, "a"), "extra": tftypes.NewValue(tftypes.String, "b")})
	var out struct {
		Name string `json:"name"`
	}
	if _, err := decode(v, &out); err == nil || !strings.Contains(err.Error(), `"extra"`) {
		t.Fatalf("decoding an attribute without a field: %v", err)
	}
	var more struct {
		Name  string `json:"name"`
		Extra string `json:"extra"`
		Other string `json:"other"`
	}
	more.Other = "x"
	if _, err := encode(more, typ); err == nil || !strings.Contains(err.Error(), `"other"`) {
		t.Fatalf("encoding a field without an attribute: %v", err)
	}
	v, err := encode(bridgeDoc{}, bridgeType)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]tftypes.Value
	_ = v.As(&fields)
	if !fields["name"].IsNull() || !fields["computed_only"].IsNull() || !fields["other"].IsNull() {
		t.Fatalf("empty strings and nil pointers must be null: %v", fields)
	}
}

// A value that does not fit its field names the attribute.
func TestBridgeDecodeErrorNamesTheAttribute(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"policy": tftypes.Object{AttributeTypes: map[string]tftypes.Type{"weight": tftypes.Number}}}}
	v := tftypes.NewValue(typ, map[string]tftypes.Value{"policy": tftypes.NewValue(typ.AttributeTypes["policy"],
		map[string]tftypes.Value{"weight": tftypes.NewValue(tftypes.Number, 3000000000)})})
	var out struct {
		Policy struct {
			Weight *int32 `json:"weight"`
		} `json:"policy"`
	}
	_, err := decode(v, &out)
	var de *decodeError
	if !errors.As(err, &de) || de.Attr != "policy.weight" {
		t.Fatalf("got %v", err)
	}
}

// no_<list> = true with blocks of <list> is a contradiction, named at the flag.
func TestBridgeNoFlagConflict(t *testing.T) {
	inner := bridgeType.AttributeTypes["budgets"].(tftypes.List).ElementType.(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for k, at := range bridgeType.AttributeTypes {
		vals[k] = tftypes.NewValue(at, nil)
	}
	vals["no_budgets"] = tftypes.NewValue(tftypes.Bool, true)
	vals["budgets"] = tftypes.NewValue(bridgeType.AttributeTypes["budgets"], []tftypes.Value{tftypes.NewValue(inner, nil)})
	var d bridgeDoc
	_, err := decode(tftypes.NewValue(bridgeType, vals), &d)
	var de *decodeError
	if !errors.As(err, &de) || de.Attr != "no_budgets" || !strings.Contains(de.Err, "no_budgets = true says the budgets list is empty, but 1 budgets block is written: remove the budgets blocks, or the flag") {
		t.Fatalf("got %v", err)
	}
}

// An element of a list of blocks whose every value is unset (a budget whose
// nodes is the default, recorded in the shortest form) is an empty block,
// never a null element: Terraform has no null block.
func TestBridgeBlockElementsAreNeverNull(t *testing.T) {
	v, err := encode(bridgeDoc{Name: "x", Budgets: []bridgeInner{{}, {Values: []string{"a"}}}}, bridgeType)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]tftypes.Value
	var blocks []tftypes.Value
	if err := v.As(&obj); err != nil || obj["budgets"].As(&blocks) != nil || len(blocks) != 2 {
		t.Fatalf("got %v", v)
	}
	if blocks[0].IsNull() {
		t.Fatalf("the first block is null: %v", blocks[0])
	}
	var back bridgeDoc
	if _, err := decode(v, &back); err != nil || len(back.Budgets) != 2 {
		t.Fatalf("round trip: %+v %v", back, err)
	}
}
