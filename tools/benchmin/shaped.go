package main

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// shaped is benchmin_shaped: no work, state shaped as an aks_fleet_placement's
// (the policy as nested attributes, about 38 values; a preview of two maps
// and a summary, 33; a status with 25 structured decisions, 155), computed
// from nothing: the framework's and the CLI's price for that shape.
type shaped struct{}

func (shaped) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_shaped"
}

var decisionAttrs = map[string]schema.Attribute{
	"cluster_name": schema.StringAttribute{Computed: true}, "selected": schema.BoolAttribute{Computed: true},
	"reason": schema.StringAttribute{Computed: true}, "affinity_score": schema.Int64Attribute{Computed: true},
	"topology_spread_score": schema.Int64Attribute{Computed: true},
}
var decisionType = types.ObjectType{AttrTypes: map[string]attr.Type{"cluster_name": types.StringType, "selected": types.BoolType,
	"reason": types.StringType, "affinity_score": types.Int64Type, "topology_spread_score": types.Int64Type}}

func (shaped) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	str := func() schema.StringAttribute { return schema.StringAttribute{Optional: true} }
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name": schema.StringAttribute{Required: true},
		"policy": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
			"placement_type": str(), "number_of_clusters": schema.Int64Attribute{Optional: true},
			"affinity": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"required": schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"label_selector": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
						"match_labels": schema.MapAttribute{Optional: true, ElementType: types.StringType}}}}}},
				"preferred": schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"weight": schema.Int64Attribute{Optional: true},
					"preference": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
						"label_selector": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
							"match_labels": schema.MapAttribute{Optional: true, ElementType: types.StringType}}},
						"property_sorter": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
							"name": str(), "sort_order": str()}}}}}}},
			}},
			"tolerations": schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"key": str(), "operator": str()}}},
		}},
		"preview": schema.SingleNestedAttribute{Computed: true, PlanModifiers: nil, Attributes: map[string]schema.Attribute{
			"selected": schema.MapAttribute{Computed: true, ElementType: types.StringType},
			"left_out": schema.MapAttribute{Computed: true, ElementType: types.StringType},
			"summary":  schema.StringAttribute{Computed: true},
		}},
		"status": schema.SingleNestedAttribute{Computed: true, Attributes: map[string]schema.Attribute{
			"decisions": schema.ListNestedAttribute{Computed: true, NestedObject: schema.NestedAttributeObject{Attributes: decisionAttrs}},
			"message":   schema.StringAttribute{Computed: true},
		}},
	}}
}

func (shaped) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() {
		return
	}
	sel, left := map[string]attr.Value{}, map[string]attr.Value{}
	for i := range 5 {
		sel[fmt.Sprintf("member-%05d", i)] = types.StringValue(fmt.Sprintf("#%d picked by scheduling policy (affinity score: 100, topology spread score: 0)", i))
	}
	for i := range 20 {
		left[fmt.Sprintf("member-%05d", 100+i)] = types.StringValue(fmt.Sprintf("#%d does not score high enough (affinity score: 99, topology spread score: 0)", i))
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("preview"), types.ObjectValueMust(
		map[string]attr.Type{"selected": types.MapType{ElemType: types.StringType}, "left_out": types.MapType{ElemType: types.StringType}, "summary": types.StringType},
		map[string]attr.Value{"selected": types.MapValueMust(types.StringType, sel), "left_out": types.MapValueMust(types.StringType, left),
			"summary": types.StringValue("5 of 5 selected")}))...)
}

func status() types.Object {
	var ds []attr.Value
	for i := range 25 {
		ds = append(ds, types.ObjectValueMust(decisionType.AttrTypes, map[string]attr.Value{
			"cluster_name": types.StringValue(fmt.Sprintf("member-%05d", i)), "selected": types.BoolValue(i < 5),
			"reason":         types.StringValue("does not score high enough (affinity score: 99, topology spread score: 0)"),
			"affinity_score": types.Int64Value(99), "topology_spread_score": types.Int64Value(0)}))
	}
	return types.ObjectValueMust(map[string]attr.Type{"decisions": types.ListType{ElemType: decisionType}, "message": types.StringType},
		map[string]attr.Value{"decisions": types.ListValueMust(decisionType, ds), "message": types.StringValue("found all cluster needed")})
}

func (shaped) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = req.Plan.Raw
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("status"), status())...)
}
func (shaped) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	resp.State.Raw = req.State.Raw
}
func (shaped) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}
func (shaped) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
