package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

var (
	_ datasource.DataSourceWithConfigure      = (*updatePreviewDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*updatePreviewDataSource)(nil)
)

func newUpdatePreviewDataSource() datasource.DataSource { return &updatePreviewDataSource{} }

// updatePreviewDataSource previews a rollout without creating a run: the
// what-if of aks_fleet_update_run, from the same simulation.
type updatePreviewDataSource struct {
	hubClient
}

// updatePreviewModel is the data source's whole state.
type updatePreviewModel struct {
	UpdateStrategyID   string                     `json:"update_strategy_id"`
	Stages             []update.Stage             `json:"stages"`
	Upgrade            update.Upgrade             `json:"upgrade"`
	NodeImageSelection *update.NodeImageSelection `json:"node_image_selection"`
	Preview            *rolloutPreviewDoc         `json:"preview"`
	Warnings           []string                   `json:"warnings"`
}

func (updatePreviewDataSource) model() any { return &updatePreviewModel{} }

func (m *updatePreviewModel) spec() update.RunSpec {
	r := updateRunModel{UpdateStrategyID: m.UpdateStrategyID, Stages: m.Stages, Upgrade: m.Upgrade, NodeImageSelection: m.NodeImageSelection}
	return r.spec()
}

func (d *updatePreviewDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_update_preview"
}

func (d *updatePreviewDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

func (d *updatePreviewDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	spec := dataSourceAttrs(updateRunSpecAttrs(""))
	resp.Schema = dschema.Schema{
		MarkdownDescription: "The rollout an update run would perform if it started now, without creating it: which member " +
			"goes when, which waits for a maintenance window or a regional release, which is skipped and why, with a Mermaid " +
			"gantt chart. The same simulation as `aks_fleet_update_run`'s preview and as the run itself on the mock hub.",
		Attributes: map[string]dschema.Attribute{
			"update_strategy_id":   spec["update_strategy_id"],
			"stages":               spec["stages"],
			"upgrade":              spec["upgrade"],
			"node_image_selection": spec["node_image_selection"],
			"preview":              dataSourceAttr(rolloutPreviewAttr("The rollout, if the run started now.")),
			"warnings": dschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "What the plan of " +
				"such a run would warn about: groups no member has, members in no group of the strategy."},
		},
	}
}

func (d *updatePreviewDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m updatePreviewModel
	unknown, ok := readValue(req.Config.Raw, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	reportErrors(&resp.Diagnostics, "Invalid update preview", update.ValidateRun(m.spec()), unknown)
}

func (d *updatePreviewDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m updatePreviewModel
	if _, ok := readValue(req.Config.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	spec := m.spec()
	addFieldErrors(&resp.Diagnostics, path.Empty(), "Invalid update preview", update.ValidateRun(spec))
	if resp.Diagnostics.HasError() {
		return
	}
	f, err := d.hub.Fleet(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the fleet", err.Error())
		return
	}
	strategy := spec.Strategy
	if spec.UpdateStrategyID != "" {
		s, err := d.hub.GetUpdateStrategy(ctx, update.StrategyNameFromID(spec.UpdateStrategyID))
		if err != nil {
			hubError(&resp.Diagnostics, opRead, objectRef{"aks_fleet_update_strategy", spec.UpdateStrategyID}, err)
			return
		}
		strategy = &s.Spec
		spec.Strategy = strategy // warnings about its groups
	}
	m.Warnings = []string{}
	for _, w := range update.RunWarnings(spec, f) {
		m.Warnings = append(m.Warnings, w.String())
	}
	resp.State.Raw = req.Config.Raw
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("preview"), previewRollout(d.hub, f, spec.ManagedClusterUpdate, strategy, nil), &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("warnings"), m.Warnings, &resp.Diagnostics)
}
