package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

var (
	_ datasource.DataSourceWithConfigure      = (*placementPreviewDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*placementPreviewDataSource)(nil)
)

func newPlacementPreviewDataSource() datasource.DataSource { return &placementPreviewDataSource{} }

// placementPreviewDataSource runs the Fleet scheduler on a policy without
// placing anything: a what-if for modules.
type placementPreviewDataSource struct {
	hubClient
}

type placementPreviewInput struct {
	Policy       placement.Policy
	Strategy     placement.Strategy
	HeldClusters []string
	PreviewLimit *int
}

var placementPreviewInputs = []string{"policy", "strategy", "held_clusters", "preview_limit"}

func (d *placementPreviewDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_placement_preview"
}

func (d *placementPreviewDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

func (d *placementPreviewDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	spec := placementSpecAttrs(mRequired)
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Runs the Fleet scheduler on a placement policy against the current fleet without placing anything: " +
			"which clusters it would pick, with their scores, and why the others are left out. The same engine as " +
			"`aks_fleet_placement`'s preview; use it to check a policy from a module, or to compare policies.",
		Attributes: map[string]dschema.Attribute{
			"policy":   spec["policy"].dataSource(),
			"strategy": spec["strategy"].dataSource(),
			"held_clusters": optional(kStringList, "Clusters the placement would already hold (sticky scheduling keeps them); "+
				"default none, as for a new placement.").dataSource(),
			"preview_limit": optional(kInt, "How many left-out clusters to list (default 20).").dataSource(),
			"preview":       placementPreviewAttr("What the scheduler decides.").dataSource(),
			"warnings":      computed(kStringList, "What the plan would warn about: unfulfilled PickN, PickFixed names not found or not eligible, sorters or selectors on properties no cluster has, required affinity that matches nothing.").dataSource(),
		},
	}
}

func (d *placementPreviewDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var in placementPreviewInput
	unknown, err := decodeAttrs(req.Config.Raw, placementPreviewInputs, &in)
	if err != nil {
		addDecodeError(&resp.Diagnostics, err)
		return
	}
	addFieldErrors(&resp.Diagnostics, path.Empty(), "Invalid placement policy", knownOnly(placement.ValidatePolicy(in.Policy, in.Strategy), unknown))
}

func (d *placementPreviewDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var in placementPreviewInput
	if _, err := decodeAttrs(req.Config.Raw, placementPreviewInputs, &in); err != nil {
		addDecodeError(&resp.Diagnostics, err)
		return
	}
	addFieldErrors(&resp.Diagnostics, path.Empty(), "Invalid placement policy", placement.ValidatePolicy(in.Policy, in.Strategy))
	if resp.Diagnostics.HasError() {
		return
	}
	f, err := d.hub.Fleet(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the fleet", err.Error())
		return
	}
	now := d.hub.Now()
	spec := placement.Spec{Policy: in.Policy, Strategy: in.Strategy}
	res, err := placement.Schedule(spec, f, in.HeldClusters, now, placement.ScheduleOptions{})
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("policy"), "Cannot schedule the placement", err.Error())
		return
	}
	limit := placement.DefaultPreviewLimit
	if in.PreviewLimit != nil {
		limit = *in.PreviewLimit
	}
	warnings := []string{}
	for _, w := range placement.Warnings(spec, f, res, now) {
		warnings = append(warnings, w.Path.String()+": "+w.Message)
	}
	resp.State.Raw = req.Config.Raw
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("preview"), newPreviewDoc(spec, res, limit), &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("warnings"), warnings)...)
}
