package provider

import (
	"context"

	tfattr "github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// attrTarget is a plan or a state.
type attrTarget interface {
	SetAttribute(ctx context.Context, p path.Path, v any) diag.Diagnostics
}

// typedSchema is the schema of a plan or a state.
type typedSchema interface {
	TypeAtPath(ctx context.Context, p path.Path) (tfattr.Type, diag.Diagnostics)
}

// setComputed records a Go value in a computed attribute through the bridge.
func setComputed(ctx context.Context, target attrTarget, schema typedSchema, p path.Path, v any, diags *diag.Diagnostics) {
	at, d := schema.TypeAtPath(ctx, p)
	diags.Append(d...)
	if at == nil {
		return
	}
	tv, err := encode(v, at.TerraformType(ctx))
	if err != nil {
		diags.AddAttributeError(p, "Cannot record a computed value", err.Error())
		return
	}
	val, err := at.ValueFromTerraform(ctx, tv)
	if err != nil {
		diags.AddAttributeError(p, "Cannot record a computed value", err.Error())
		return
	}
	diags.Append(target.SetAttribute(ctx, p, val)...)
}

// copyFromState keeps an attribute's value from the prior state in the plan.
func copyFromState(ctx context.Context, state tfsdk.State, plan *tfsdk.Plan, p path.Path, diags *diag.Diagnostics) {
	var v tfattr.Value
	diags.Append(state.GetAttribute(ctx, p, &v)...)
	if v != nil {
		diags.Append(plan.SetAttribute(ctx, p, v)...)
	}
}
