package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The bridge converts between Terraform values and engine models, for every
// resource, in one place. Terraform attributes are snake_case versions of the
// engine's field names (number_of_clusters ⇄ NumberOfClusters), so values
// pass through JSON with names compared without case or underscores. Map
// attributes (labels, limits) keep their keys verbatim. Null lists stay nil
// and empty lists stay empty, a difference the engines rely on (an explicit
// `budgets = []` is not an unset one).

// normalize is how attribute and field names are compared.
func normalize(name string) string { return strings.ToLower(strings.ReplaceAll(name, "_", "")) }

// decodeAttrs fills out from the named attributes of an object value, one
// attribute at a time. It returns the attributes whose values are not known
// yet (values known only after apply): they are left at their zero value. A
// value that does not fit its field is a *decodeError naming the attribute.
func decodeAttrs(obj tftypes.Value, attrs []string, out any) (unknown map[string]bool, err error) {
	var fields map[string]tftypes.Value
	if err := obj.As(&fields); err != nil {
		return nil, err
	}
	unknown = map[string]bool{}
	for _, a := range attrs {
		v, ok := fields[a]
		if !ok {
			return nil, fmt.Errorf("bridge: no attribute %q", a)
		}
		x, known, err := toJSON(v)
		if err != nil {
			return nil, &decodeError{Attr: a, Err: err}
		}
		if !known {
			unknown[a] = true
			continue
		}
		raw, err := json.Marshal(map[string]any{normalize(a): x})
		if err != nil {
			return nil, err
		}
		if err := json.NewDecoder(bytes.NewReader(raw)).Decode(out); err != nil {
			return nil, &decodeError{Attr: a, Err: err}
		}
	}
	return unknown, nil
}

// decodeError is a configured value the engine model cannot hold (a number
// too large for its field, say).
type decodeError struct {
	Attr string
	Err  error
}

func (e *decodeError) Error() string { return e.Attr + ": " + e.Err.Error() }

// toJSON turns a Terraform value into plain JSON-able data.
func toJSON(v tftypes.Value) (any, bool, error) {
	if !v.IsKnown() {
		return nil, false, nil
	}
	if v.IsNull() {
		return nil, true, nil
	}
	t := v.Type()
	switch {
	case t.Is(tftypes.String):
		var s string
		return s, true, v.As(&s)
	case t.Is(tftypes.Bool):
		var b bool
		return b, true, v.As(&b)
	case t.Is(tftypes.Number):
		var f big.Float
		if err := v.As(&f); err != nil {
			return nil, false, err
		}
		return json.Number(f.Text('f', -1)), true, nil
	case t.Is(tftypes.Object{}), t.Is(tftypes.Map{}):
		// Object attributes are compared by normalized name; map keys are data and stay verbatim.
		key := normalize
		if t.Is(tftypes.Map{}) {
			key = func(k string) string { return k }
		}
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return nil, false, err
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			x, known, err := toJSON(e)
			if err != nil || !known {
				return nil, known, err
			}
			out[key(k)] = x
		}
		return out, true, nil
	case t.Is(tftypes.List{}), t.Is(tftypes.Set{}), t.Is(tftypes.Tuple{}):
		var l []tftypes.Value
		if err := v.As(&l); err != nil {
			return nil, false, err
		}
		out := make([]any, 0, len(l))
		for _, e := range l {
			x, known, err := toJSON(e)
			if err != nil || !known {
				return nil, known, err
			}
			out = append(out, x)
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("unsupported type %s", t)
}

// encode converts a Go value into a Terraform value of type typ. Object
// attributes are matched to fields by normalized name; attributes without a
// field, empty strings, and objects whose attributes are all null become null.
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

func fromJSON(x any, typ tftypes.Type) (tftypes.Value, error) {
	if x == nil {
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
		byName := make(map[string]any, len(m))
		for k, e := range m {
			byName[normalize(k)] = e
		}
		vals := make(map[string]tftypes.Value, len(ot.AttributeTypes))
		empty := true
		for name, at := range ot.AttributeTypes {
			v, err := fromJSON(byName[normalize(name)], at)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("%s: %w", name, err)
			}
			vals[name] = v
			empty = empty && v.IsNull()
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
			if v.IsNull() && et.Is(tftypes.String) {
				v = tftypes.NewValue(et, "")
			}
			vals[i] = v
		}
		return tftypes.NewValue(typ, vals), nil
	}
	return tftypes.Value{}, fmt.Errorf("unsupported type %s", typ)
}
