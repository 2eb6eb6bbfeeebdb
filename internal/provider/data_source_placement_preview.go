package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
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

// placementPreviewModel is the data source's whole state.
type placementPreviewModel struct {
	Policy       placement.Policy   `json:"policy"`
	Strategy     placement.Strategy `json:"strategy"`
	HeldClusters []string           `json:"held_clusters"`
	PreviewLimit *int               `json:"preview_limit"`
	Preview      *previewDoc        `json:"preview"`
	Warnings     []string           `json:"warnings"`
}

func (placementPreviewDataSource) model() any { return &placementPreviewModel{} }

func (d *placementPreviewDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_placement_preview"
}

func (d *placementPreviewDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

func (d *placementPreviewDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	spec := dataSourceAttrs(placementSpecAttrs())
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Runs the Fleet scheduler on a placement policy against the current fleet without placing anything: " +
			"which clusters it would pick, with their scores, and why the others are left out. The same engine as " +
			"`aks_fleet_placement`'s preview; use it to check a policy from a module, or to compare policies.",
		Attributes: map[string]dschema.Attribute{
			"policy":   requiredIn(spec["policy"]),
			"strategy": spec["strategy"],
			"held_clusters": dschema.ListAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: "Clusters the " +
				"placement would already hold (sticky scheduling keeps them); default none, as for a new placement."},
			"preview_limit": dschema.NumberAttribute{Optional: true, MarkdownDescription: "How many left-out clusters to list (default 20).",
				Validators: []validator.Number{wholeNumberBetween(1, maxPreviewLimit)}},
			"preview": dataSourceAttr(placementPreviewAttr("What the scheduler decides.")),
			"warnings": dschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "What the plan would " +
				"warn about: unfulfilled PickN, PickFixed names not found or not eligible (or none at all), sorters or selectors on " +
				"properties no cluster has, required affinity that matches nothing, a policy Fleet admits but can never schedule, " +
				"and `held_clusters` that are not members."},
		},
	}
}

func (d *placementPreviewDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m placementPreviewModel
	unknown, ok := readValue(req.Config.Raw, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	reportErrors(&resp.Diagnostics, "Invalid placement policy", placement.ValidatePolicy(m.Policy, m.Strategy), unknown)
}

func (d *placementPreviewDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m placementPreviewModel
	if _, ok := readValue(req.Config.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	addFieldErrors(&resp.Diagnostics, path.Empty(), "Invalid placement policy", placement.ValidatePolicy(m.Policy, m.Strategy))
	if resp.Diagnostics.HasError() {
		return
	}
	f, err := d.hub.Fleet(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the fleet", err.Error())
		return
	}
	now := d.hub.Now()
	spec := placement.Spec{Policy: m.Policy, Strategy: m.Strategy}
	res, err := placement.Schedule(spec, f, m.HeldClusters, now, placement.ScheduleOptions{})
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("policy"), "Cannot schedule the placement", err.Error())
		return
	}
	limit := placement.DefaultPreviewLimit
	if m.PreviewLimit != nil {
		limit = *m.PreviewLimit
	}
	m.Warnings = []string{}
	for _, w := range placement.Warnings(spec, f, res, now) {
		m.Warnings = append(m.Warnings, w.Path.String()+": "+w.Message)
	}
	// A held cluster that is not a member is this configuration's slip, not
	// the placement's: a diagnostic as well as an entry of warnings.
	held := placement.HeldClusterWarnings(field.Root("held_clusters"), m.HeldClusters, f)
	reportWarnings(&resp.Diagnostics, "Placement preview", held)
	for _, w := range held {
		m.Warnings = append(m.Warnings, w.String())
	}
	resp.State.Raw = req.Config.Raw
	pv := newPreviewDoc(spec, res, limit)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("preview"), pv, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("warnings"), m.Warnings, &resp.Diagnostics)
}
