package provider

import (
	"context"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Whole-number inputs are Int64 attributes of wholeNumberType: the
// framework's Int64 type itself answers `weight = 2.5` or `min_values =
// 1e30` — numbers Terraform's language admits, it has no integer type — with
// "Value Conversion Error … This is always an error in the provider" before
// the provider can say anything. wholeNumberType reads such a number as an
// unknown Int64 instead, for the framework's validators to skip, and the
// bridge, which reads the configuration itself, reports it with the
// attribute's path and range, and the engine with the attribute's own rule
// (designs/schema.md §4). Every other value is the framework's Int64.
type wholeNumberType struct{ basetypes.Int64Type }

// wholeNumberValue is a value of wholeNumberType.
type wholeNumberValue struct{ basetypes.Int64Value }

var (
	_ basetypes.Int64Typable  = wholeNumberType{}
	_ basetypes.Int64Valuable = wholeNumberValue{}
)

func (t wholeNumberType) Equal(o attr.Type) bool {
	_, ok := o.(wholeNumberType)
	return ok
}

func (t wholeNumberType) String() string { return "wholeNumberType" }

func (t wholeNumberType) ValueType(context.Context) attr.Value { return wholeNumberValue{} }

func (t wholeNumberType) ValueFromInt64(_ context.Context, v basetypes.Int64Value) (basetypes.Int64Valuable, diag.Diagnostics) {
	return wholeNumberValue{v}, nil
}

func (t wholeNumberType) ValueFromTerraform(ctx context.Context, v tftypes.Value) (attr.Value, error) {
	if v.IsKnown() && !v.IsNull() && v.Type().Is(tftypes.Number) {
		var f big.Float
		if err := v.As(&f); err != nil {
			return nil, err
		}
		if _, acc := f.Int64(); !f.IsInt() || acc != big.Exact {
			return wholeNumberValue{basetypes.NewInt64Unknown()}, nil // reported by the bridge
		}
	}
	got, err := t.Int64Type.ValueFromTerraform(ctx, v)
	if err != nil {
		return nil, err
	}
	return wholeNumberValue{got.(basetypes.Int64Value)}, nil
}

// Validate replaces basetypes.Int64Type's, which answers a fraction with
// "Int64 Type Validation Error": the bridge reports it, naming the attribute.
func (t wholeNumberType) Validate(context.Context, tftypes.Value, path.Path) diag.Diagnostics {
	return nil
}

func (v wholeNumberValue) Type(context.Context) attr.Type { return wholeNumberType{} }

func (v wholeNumberValue) Equal(o attr.Value) bool {
	other, ok := o.(wholeNumberValue)
	return ok && v.Int64Value.Equal(other.Int64Value)
}
