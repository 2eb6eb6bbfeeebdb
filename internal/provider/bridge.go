package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// The bridge converts between Terraform values and models, for every
// resource, data source and the provider configuration, in one place.
//
// The rule of this package: a model is a plain Go struct whose `json` tags
// are its Terraform attribute names, read and written through the bridge;
// engine types (whose tags are the same snake_case vocabulary) are embedded
// as they are. tfsdk struct tags and types.* values are not used.
//
// The bridge is strict in both directions: an attribute without a model
// field, or a model field without an attribute, is an error (and
// TestSchemasMatchModels checks every schema against its model). Map
// attributes (labels, limits) keep their keys verbatim. Null lists stay nil
// and empty lists stay empty, a difference the engines rely on (an explicit
// `budgets = []` is not an unset one).

// unknownPaths are the attributes of a value that are not known yet (values
// known only after apply), down to the leaf that is unknown.
type unknownPaths []field.Path

// covers reports whether the rule at p may depend on an unknown value. The
// engines decode an unknown value as unset, so a rule that reads it may
// fire wrongly: one that switches on it (a toleration's operator, the
// placement type), counts it (a requirement's values against min_values) or
// lies above it. So every rule about the unknown value's enclosing object,
// its siblings and their descendants, or about anything above it, waits for
// the value; rules about other objects — other list elements, other nested
// objects, other top-level attributes — are still checked at plan. Top-level
// attributes are independent: an unknown name hides no rule of the policy.
func (u unknownPaths) covers(p field.Path) bool {
	for _, x := range u {
		scope := x
		if x.Len() > 1 {
			scope = x.Parent()
		}
		if _, under := p.Rel(scope); under {
			return true
		}
		if _, under := x.Rel(p); under {
			return true
		}
	}
	return false
}

// within reports whether every unknown value is one of the attributes at
// roots (or under them): what depends on nothing else can still be decided.
func (u unknownPaths) within(roots ...string) bool {
	for _, x := range u {
		if steps := x.Steps(); len(steps) == 0 || !slices.Contains(roots, steps[0].Name) {
			return false
		}
	}
	return true
}

// decode fills out from an object value. Unknown leaves are decoded as null
// (their fields stay at the zero value) and returned, so that callers skip
// only the rules that depend on them. A value that does not fit its field is
// a *decodeError naming the attribute.
func decode(v tftypes.Value, out any) (unknownPaths, error) {
	var unknown unknownPaths
	x, err := toJSON(v, field.Path{}, &unknown)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		return nil, newDecodeError(err)
	}
	return unknown, nil
}

// decodeError is a configured value the model cannot hold (a number too large
// for its field, say), or an attribute the model has no field for.
type decodeError struct {
	Attr string // dotted attribute path, e.g. policy.number_of_clusters
	Err  string
}

func (e *decodeError) Error() string {
	if e.Attr == "" {
		return e.Err
	}
	return e.Attr + ": " + e.Err
}

func newDecodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &decodeError{Attr: attributeName(te.Field), Err: doesNotFit(te.Value, te.Type.Kind())}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return &decodeError{Err: "the model has no field for attribute " + name + " (a bug in the provider's schema)"}
	}
	return &decodeError{Err: err.Error()}
}

// attributeName turns encoding/json's field path into the attribute path: it
// names embedded Go structs too (NodePool.weight), and Terraform attribute
// names are lower case, so a capitalised step is a Go type name.
func attributeName(jsonField string) string {
	var steps []string
	for _, s := range strings.Split(jsonField, ".") {
		if s != "" && strings.ToLower(s[:1]) == s[:1] {
			steps = append(steps, s)
		}
	}
	return strings.Join(steps, ".")
}

// doesNotFit explains a value the model's field cannot hold: a fraction
// where a whole number is needed, or a number beyond the field's range.
func doesNotFit(value string, k reflect.Kind) string {
	n, isNumber := strings.CutPrefix(value, "number ")
	lo, hi, isInt := intRange(k)
	if !isNumber || !isInt {
		return fmt.Sprintf("%s does not fit this attribute", value)
	}
	// The engine checks each attribute's own range; a 64-bit field's limits
	// mean nothing to a practitioner, a 32-bit one's are the API's.
	span := ""
	if hi < math.MaxInt64 {
		span = fmt.Sprintf(" from %d to %d", lo, hi)
	}
	if f, _, err := big.ParseFloat(n, 10, 512, big.ToNearestEven); err == nil && !f.IsInt() {
		return fmt.Sprintf("%s is not a whole number: write a whole number%s", n, span)
	}
	return fmt.Sprintf("%s is out of range: write a whole number%s", n, span)
}

// intRange is the range of an integer field.
func intRange(k reflect.Kind) (lo, hi int64, ok bool) {
	switch k {
	case reflect.Int8:
		return math.MinInt8, math.MaxInt8, true
	case reflect.Int16:
		return math.MinInt16, math.MaxInt16, true
	case reflect.Int32:
		return math.MinInt32, math.MaxInt32, true
	case reflect.Int, reflect.Int64:
		return math.MinInt64, math.MaxInt64, true
	case reflect.Uint8:
		return 0, math.MaxUint8, true
	case reflect.Uint16:
		return 0, math.MaxUint16, true
	case reflect.Uint32:
		return 0, math.MaxUint32, true
	case reflect.Uint, reflect.Uint64:
		return 0, math.MaxInt64, true
	}
	return 0, 0, false
}

// toJSON turns a Terraform value into plain JSON-able data, recording
// unknown values (as null) below at.
func toJSON(v tftypes.Value, at field.Path, unknown *unknownPaths) (any, error) {
	if !v.IsKnown() {
		*unknown = append(*unknown, at)
		return nil, nil
	}
	if v.IsNull() {
		return nil, nil
	}
	t := v.Type()
	switch {
	case t.Is(tftypes.String):
		var s string
		return s, v.As(&s)
	case t.Is(tftypes.Bool):
		var b bool
		return b, v.As(&b)
	case t.Is(tftypes.Number):
		var f big.Float
		if err := v.As(&f); err != nil {
			return nil, err
		}
		return json.Number(f.Text('f', -1)), nil
	case t.Is(tftypes.Object{}), t.Is(tftypes.Map{}):
		step := at.Child
		if t.Is(tftypes.Map{}) {
			step = at.Key
		}
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			x, err := toJSON(e, step(k), unknown)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		if ot, ok := t.(tftypes.Object); ok {
			return out, foldNoFlags(out, ot, at)
		}
		return out, nil
	case t.Is(tftypes.List{}), t.Is(tftypes.Set{}), t.Is(tftypes.Tuple{}):
		var l []tftypes.Value
		if err := v.As(&l); err != nil {
			return nil, err
		}
		if len(l) == 0 && isBlockList(t) {
			return nil, nil // no blocks: unset
		}
		out := make([]any, 0, len(l))
		for i, e := range l {
			x, err := toJSON(e, at.Index(i), unknown)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported type %s", t)
}

// Blocks (designs/schema.md §1) change two things at the bridge.
//
// A list of objects is a list of blocks, and Terraform represents "no
// blocks" as an empty list, never null: the bridge decodes an empty list of
// objects as unset (nil) and encodes an unset one as empty. (Computed lists
// of objects follow the same rule: the bridge cannot tell them apart, and
// neither needs to.)
//
// Where an empty list means something else than an unset one (Karpenter's
// `budgets: []`, unlimited disruption, against no budgets, one 10% budget),
// no number of blocks can say it: a sibling flag `no_<list>` does. The
// bridge folds `no_budgets = true` into `budgets = []` when it decodes, and
// unfolds it when it encodes, so models and engines see only the list.

// isBlockList reports whether a list type is a list of blocks (of objects).
func isBlockList(t tftypes.Type) bool {
	l, ok := t.(tftypes.List)
	return ok && l.ElementType.Is(tftypes.Object{})
}

// flaggedList is the list of blocks an attribute of object type t says is
// empty on purpose: name is `no_<list>`, a bool beside a list of blocks.
func flaggedList(t tftypes.Object, name string) (string, bool) {
	list, ok := strings.CutPrefix(name, "no_")
	return list, ok && t.AttributeTypes[name].Is(tftypes.Bool) && isBlockList(t.AttributeTypes[list])
}

// foldNoFlags replaces, in an object of type t decoded, every `no_<list> =
// true` by an empty <list>, and drops the flags.
func foldNoFlags(obj map[string]any, t tftypes.Object, at field.Path) error {
	for k, v := range obj {
		list, isFlag := flaggedList(t, k)
		if !isFlag {
			continue
		}
		delete(obj, k)
		if v != true {
			continue
		}
		if l, ok := obj[list].([]any); ok && len(l) > 0 {
			return &decodeError{Attr: at.Child(k).String(), Err: fmt.Sprintf("%s = true says the %s list is empty, but %s "+
				"written: remove the %s blocks, or the flag", k, list, isAre(countNoun(len(l), list+" block"), len(l)), list)}
		}
		obj[list] = []any{}
	}
	return nil
}

// encode converts a model into a Terraform value of type typ. Empty strings
// and objects whose attributes are all null become null (an unset strategy is
// an absent object); a model field without an attribute is an error.
func encode(v any, typ tftypes.Type) (tftypes.Value, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return tftypes.Value{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return tftypes.Value{}, err
	}
	return fromJSON(x, typ)
}

// isAre is "<what> is" or "<what> are" for a count n.
func isAre(what string, n int) string {
	if n == 1 {
		return what + " is"
	}
	return what + " are"
}

// emptyBlock is a block with every attribute unset (`budgets {}`): what a
// list element whose every value is a default reads as.
func emptyBlock(t tftypes.Object) tftypes.Value {
	vals := make(map[string]tftypes.Value, len(t.AttributeTypes))
	for name, at := range t.AttributeTypes {
		if isBlockList(at) {
			vals[name] = tftypes.NewValue(at, []tftypes.Value{})
		} else {
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	return tftypes.NewValue(t, vals)
}

// emptyList reports whether a known list value has no elements.
func emptyList(v tftypes.Value) bool {
	var l []tftypes.Value
	return v.As(&l) == nil && len(l) == 0
}

func fromJSON(x any, typ tftypes.Type) (tftypes.Value, error) {
	if x == nil && !isBlockList(typ) {
		return tftypes.NewValue(typ, nil), nil
	}
	switch {
	case typ.Is(tftypes.String):
		s, ok := x.(string)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("want a string, got %T", x)
		}
		if s == "" {
			return tftypes.NewValue(typ, nil), nil
		}
		return tftypes.NewValue(typ, s), nil
	case typ.Is(tftypes.Bool):
		b, ok := x.(bool)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("want a bool, got %T", x)
		}
		return tftypes.NewValue(typ, b), nil
	case typ.Is(tftypes.Number):
		n, ok := x.(json.Number)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("want a number, got %T", x)
		}
		f, _, err := big.ParseFloat(n.String(), 10, 512, big.ToNearestEven)
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(typ, f), nil
	case typ.Is(tftypes.Object{}):
		ot := typ.(tftypes.Object)
		m, ok := x.(map[string]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("want an object, got %T", x)
		}
		for k := range m {
			if _, ok := ot.AttributeTypes[k]; !ok {
				return tftypes.Value{}, fmt.Errorf("model field %q has no attribute", k)
			}
		}
		vals := make(map[string]tftypes.Value, len(ot.AttributeTypes))
		empty := true
		for name, at := range ot.AttributeTypes {
			if list, isFlag := flaggedList(ot, name); isFlag {
				l, isList := m[list].([]any)
				none := isList && len(l) == 0
				vals[name] = tftypes.NewValue(at, none) // unfolds foldNoFlags
				empty = empty && !none
				continue
			}
			v, err := fromJSON(m[name], at)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("%s: %w", name, err)
			}
			vals[name] = v
			empty = empty && (v.IsNull() || isBlockList(at) && v.IsKnown() && emptyList(v))
		}
		if empty { // a zero struct (an unset strategy, say) is an absent object
			return tftypes.NewValue(typ, nil), nil
		}
		return tftypes.NewValue(typ, vals), nil
	case typ.Is(tftypes.Map{}):
		et := typ.(tftypes.Map).ElementType
		m, ok := x.(map[string]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("want a map, got %T", x)
		}
		vals := make(map[string]tftypes.Value, len(m))
		for k, e := range m {
			v, err := fromJSON(e, et)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("[%q]: %w", k, err)
			}
			if v.IsNull() && et.Is(tftypes.String) {
				v = tftypes.NewValue(et, "") // a map keeps its empty values
			}
			vals[k] = v
		}
		return tftypes.NewValue(typ, vals), nil
	case typ.Is(tftypes.List{}):
		et := typ.(tftypes.List).ElementType
		if x == nil && isBlockList(typ) {
			return tftypes.NewValue(typ, []tftypes.Value{}), nil
		}
		l, ok := x.([]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("want a list, got %T", x)
		}
		vals := make([]tftypes.Value, len(l))
		for i, e := range l {
			v, err := fromJSON(e, et)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
			switch {
			case v.IsNull() && et.Is(tftypes.String):
				v = tftypes.NewValue(et, "")
			case v.IsNull() && isBlockList(typ):
				v = emptyBlock(et.(tftypes.Object)) // a block is never null: one written with nothing in it
			}
			vals[i] = v
		}
		return tftypes.NewValue(typ, vals), nil
	}
	return tftypes.Value{}, fmt.Errorf("unsupported type %s", typ)
}
