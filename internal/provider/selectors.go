package provider

import (
	"context"

	tfattr "github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// Terraform models of the two cluster selectors, shared by every schema that
// selects clusters. Collections are framework values so that configurations
// with values unknown until apply can still be validated where they are known.

type labelSelectorModel struct {
	MatchLabels      types.Map  `tfsdk:"match_labels"`
	MatchExpressions types.List `tfsdk:"match_expressions"`
}

type labelExpressionModel struct {
	Key      types.String `tfsdk:"key"`
	Operator types.String `tfsdk:"operator"`
	Values   types.List   `tfsdk:"values"`
}

type propertySelectorModel struct {
	MatchExpressions types.List `tfsdk:"match_expressions"`
}

type propertyExpressionModel struct {
	Name     types.String `tfsdk:"name"`
	Operator types.String `tfsdk:"operator"`
	Values   types.List   `tfsdk:"values"`
}

func known(vs ...tfattr.Value) bool {
	for _, v := range vs {
		if v.IsUnknown() {
			return false
		}
	}
	return true
}

func stringList(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if l.IsNull() {
		return nil
	}
	var out []string
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

// labelSelectorFrom converts a label selector object. ok is false when some
// part is unknown (it is validated again once known); a null object gives nil.
func labelSelectorFrom(ctx context.Context, o types.Object, diags *diag.Diagnostics) (sel *selector.LabelSelector, ok bool) {
	if o.IsNull() {
		return nil, true
	}
	if o.IsUnknown() {
		return nil, false
	}
	var m labelSelectorModel
	diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	if !known(m.MatchLabels, m.MatchExpressions) {
		return nil, false
	}
	sel = &selector.LabelSelector{}
	if !m.MatchLabels.IsNull() {
		for k, v := range m.MatchLabels.Elements() {
			s, isString := v.(types.String)
			if !isString || s.IsUnknown() {
				return nil, false
			}
			if sel.MatchLabels == nil {
				sel.MatchLabels = map[string]string{}
			}
			sel.MatchLabels[k] = s.ValueString()
		}
	}
	var exprs []labelExpressionModel
	if !m.MatchExpressions.IsNull() {
		diags.Append(m.MatchExpressions.ElementsAs(ctx, &exprs, false)...)
	}
	for _, e := range exprs {
		if !known(e.Key, e.Operator, e.Values) || !allKnown(e.Values) {
			return nil, false
		}
		sel.MatchExpressions = append(sel.MatchExpressions, selector.LabelExpression{
			Key: e.Key.ValueString(), Operator: e.Operator.ValueString(), Values: stringList(ctx, e.Values, diags),
		})
	}
	return sel, true
}

// propertySelectorFrom converts a property selector object, like labelSelectorFrom.
func propertySelectorFrom(ctx context.Context, o types.Object, diags *diag.Diagnostics) (sel *selector.PropertySelector, ok bool) {
	if o.IsNull() {
		return nil, true
	}
	if o.IsUnknown() {
		return nil, false
	}
	var m propertySelectorModel
	diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	if !known(m.MatchExpressions) {
		return nil, false
	}
	var exprs []propertyExpressionModel
	if !m.MatchExpressions.IsNull() {
		diags.Append(m.MatchExpressions.ElementsAs(ctx, &exprs, false)...)
	}
	sel = &selector.PropertySelector{}
	for _, e := range exprs {
		if !known(e.Name, e.Operator, e.Values) || !allKnown(e.Values) {
			return nil, false
		}
		sel.MatchExpressions = append(sel.MatchExpressions, selector.PropertyExpression{
			Name: e.Name.ValueString(), Operator: e.Operator.ValueString(), Values: stringList(ctx, e.Values, diags),
		})
	}
	return sel, true
}

func allKnown(l types.List) bool {
	for _, v := range l.Elements() {
		if v.IsUnknown() {
			return false
		}
	}
	return true
}
