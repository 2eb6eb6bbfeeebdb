package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
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
	Name         string             `json:"name"`
	Policy       placement.Policy   `json:"policy"`
	Strategy     placement.Strategy `json:"strategy"`
	HeldClusters []string           `json:"held_clusters"`
	PreviewLimit *int               `json:"preview_limit"`
	Preview      *previewDoc        `json:"preview"`
	Warnings     []string           `json:"warnings"`
	Review       string             `json:"review"`
}

func (placementPreviewDataSource) model() any { return &placementPreviewModel{} }

func (d *placementPreviewDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_placement_preview"
}

func (d *placementPreviewDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

func (d *placementPreviewDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	policy := placementPolicyAttr()
	policy.Required, policy.Optional = true, false // the preview of a policy needs one
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Runs the Fleet scheduler on a placement policy against the current fleet without placing anything: " +
			"which clusters it would pick, with their scores, and why the others are left out. The same preview as " +
			"`aks_fleet_placement`'s plan, from the same function; read at plan, it is kept in the plan file, so module outputs " +
			"built from it show in `terraform show` exactly as reviewed, and its `review` makes the placement's apply hold to it.",
		Attributes: map[string]dschema.Attribute{
			"name": dschema.StringAttribute{Optional: true, MarkdownDescription: "The placement this previews: when the hub " +
				"holds a placement of this name, the preview is of a change of it (the clusters it holds, with the scores " +
				"recorded when each was picked, as the placement's own plan previews it); otherwise of a new one. Required " +
				"for `review`. Not with `held_clusters`."},
			"held_clusters": dschema.ListAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: "Clusters the " +
				"placement would already hold (sticky scheduling keeps them); default none, as for a new placement."},
			"preview_limit": dschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true, MarkdownDescription: fmt.Sprintf("How many left-out clusters to list, 1 to %d (default 20).", maxPreviewLimit),
				Validators: []validator.Int64{int64validator.Between(1, maxPreviewLimit)}},
			"preview": dataSourceAttr(placementPreviewAttr("What the scheduler decides.")),
			"warnings": dschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "What the plan would " +
				"warn about: unfulfilled PickN, PickFixed names not found or not eligible (or none at all), sorters or selectors on " +
				"properties no cluster has, required affinity that matches nothing, a policy Fleet admits but can never schedule, " +
				"and `held_clusters` that are not members."},
			"review": reviewAttr("aks_fleet_placement"),
		},
		Blocks: map[string]dschema.Block{
			"policy":   dataSourceBlock(blockOf(policy)),
			"strategy": dataSourceBlock(blockOf(placementStrategyAttr())),
		},
	}
}

func (d *placementPreviewDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m placementPreviewModel
	unknown, ok := readConfig(req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	reportErrors(&resp.Diagnostics, "Invalid placement policy", placement.ValidatePolicy(m.Policy, m.Strategy), unknown)
	if m.Name != "" && len(m.HeldClusters) > 0 {
		resp.Diagnostics.AddAttributeError(path.Root("held_clusters"), "Conflicting placement preview",
			"held_clusters: with name, the clusters held are the ones the hub holds for that placement. Set one of the two.")
	}
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
	spec := placement.Spec{Policy: m.Policy, Strategy: m.Strategy}
	pv, ok := previewPlacement(ctx, d.hub, spec, placementTarget{name: m.Name, held: m.HeldClusters}, &resp.Diagnostics)
	if !ok {
		return
	}
	limit := placement.DefaultPreviewLimit
	if m.PreviewLimit != nil {
		limit = *m.PreviewLimit
	}
	m.Warnings = []string{}
	for _, w := range pv.warnings {
		m.Warnings = append(m.Warnings, w.Path.String()+": "+w.Message)
	}
	// A held cluster that is not a member is this configuration's slip, not
	// the placement's: a diagnostic as well as an entry of warnings.
	f, err := d.hub.Fleet(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the fleet", err.Error())
		return
	}
	held := placement.HeldClusterWarnings(field.Root("held_clusters"), m.HeldClusters, f)
	reportWarnings(&resp.Diagnostics, "Placement preview", held)
	for _, w := range held {
		m.Warnings = append(m.Warnings, w.String())
	}
	resp.State.Raw = req.Config.Raw
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("preview"), newPreviewDoc(spec, pv.result, limit), &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("warnings"), m.Warnings, &resp.Diagnostics)
	review, err := pv.review(m.Name)
	if err != nil {
		resp.Diagnostics.AddError("Cannot record the review", err.Error())
		return
	}
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("review"), review, &resp.Diagnostics)
}
