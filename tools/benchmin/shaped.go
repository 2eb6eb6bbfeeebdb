package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// shaped is benchmin_shaped: no work, state shaped as an aks_fleet_placement's
// (the policy as blocks, as designs/schema.md §1 writes it, about 38 values; a status of counts and
// one condition, 11) and, on create, a plan warning the size of its preview
// (5 selected and 20 left-out clusters, as designs/previews.md §2 shows
// it), computed from nothing: the framework's and the CLI's price for that
// shape.
type shaped struct{}

func (shaped) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_shaped"
}

var conditionAttrs = map[string]schema.Attribute{
	"type": schema.StringAttribute{Computed: true}, "status": schema.StringAttribute{Computed: true},
	"reason": schema.StringAttribute{Computed: true}, "message": schema.StringAttribute{Computed: true},
	"last_transition_time": schema.StringAttribute{Computed: true},
}
var conditionType = types.ObjectType{AttrTypes: map[string]attr.Type{"type": types.StringType, "status": types.StringType,
	"reason": types.StringType, "message": types.StringType, "last_transition_time": types.StringType}}

var statusTypes = map[string]attr.Type{"selected": types.Int64Type, "requested": types.Int64Type, "fulfilled": types.BoolType,
	"message": types.StringType, "observed_generation": types.Int64Type, "conditions": types.ListType{ElemType: conditionType}}

func (shaped) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	str := func() schema.StringAttribute { return schema.StringAttribute{Optional: true} }
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name": schema.StringAttribute{Required: true},
		"status": schema.SingleNestedAttribute{Computed: true, Attributes: map[string]schema.Attribute{
			"selected": schema.Int64Attribute{Computed: true}, "requested": schema.Int64Attribute{Computed: true},
			"fulfilled": schema.BoolAttribute{Computed: true}, "message": schema.StringAttribute{Computed: true},
			"observed_generation": schema.Int64Attribute{Computed: true},
			"conditions":          schema.ListNestedAttribute{Computed: true, NestedObject: schema.NestedAttributeObject{Attributes: conditionAttrs}},
		}},
	}, Blocks: map[string]schema.Block{
		"policy": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{
			"placement_type": str(), "number_of_clusters": schema.Int64Attribute{Optional: true},
		}, Blocks: map[string]schema.Block{
			"affinity": schema.SingleNestedBlock{Blocks: map[string]schema.Block{
				"required": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Blocks: map[string]schema.Block{
					"label_selector": labelSelector()}}},
				"preferred": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{"weight": schema.Int64Attribute{Optional: true}},
					Blocks: map[string]schema.Block{"preference": schema.SingleNestedBlock{Blocks: map[string]schema.Block{
						"label_selector": labelSelector(),
						"property_sorter": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{
							"name": str(), "sort_order": str()}}}}}}},
			}},
			"tolerations": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"key": str(), "operator": str()}}},
		}},
	}}
}

func labelSelector() schema.SingleNestedBlock {
	return schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{
		"match_labels": schema.MapAttribute{Optional: true, ElementType: types.StringType}}}
}

func (shaped) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() {
		return
	}
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	var b strings.Builder
	b.WriteString("Evaluated at 2026-11-21T12:00:00Z by the Fleet scheduler on the fleet as the hub reports it.\n  selected (5):\n")
	for i := range 5 {
		fmt.Fprintf(&b, "    member-%05d  affinity 100, topology spread 0\n", i)
	}
	b.WriteString("  left out (4995; the best first):\n")
	for i := range 15 {
		fmt.Fprintf(&b, "    #%d member-%05d  does not score high enough (affinity score: 99, topology spread score: 0)\n", i+1, 100+i)
	}
	b.WriteString("    … and 4980 more\n  left out per reason:\n    4980 does not score high enough\n  rollout:\n    RollingUpdate: up to 2 unavailable and 2 extra at a time, unavailable_period_seconds 60")
	resp.Diagnostics.AddWarning("Preview: benchmin_shaped "+name.ValueString()+" — PickN: 5 of 5 clusters selected", b.String())
}

func status() types.Object {
	cond := types.ObjectValueMust(conditionType.AttrTypes, map[string]attr.Value{
		"type": types.StringValue("ClusterResourcePlacementScheduled"), "status": types.StringValue("True"),
		"reason": types.StringValue("SchedulingPolicyFulfilled"), "message": types.StringValue("found all cluster needed"),
		"last_transition_time": types.StringValue("2026-11-21T12:00:00Z")})
	return types.ObjectValueMust(statusTypes, map[string]attr.Value{"selected": types.Int64Value(5), "requested": types.Int64Value(5),
		"fulfilled": types.BoolValue(true), "message": types.StringNull(), "observed_generation": types.Int64Value(1),
		"conditions": types.ListValueMust(conditionType, []attr.Value{cond})})
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
