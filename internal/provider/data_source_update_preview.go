package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
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
	Name               string                     `json:"name"`
	Start              bool                       `json:"start"`
	Skip               []update.SkipTarget        `json:"skip"`
	UpdateStrategyID   string                     `json:"update_strategy_id"`
	Stages             []update.Stage             `json:"stages"`
	Upgrade            update.Upgrade             `json:"upgrade"`
	NodeImageSelection *update.NodeImageSelection `json:"node_image_selection"`
	Preview            *rolloutPreviewDoc         `json:"preview"`
	Warnings           []string                   `json:"warnings"`
	Review             string                     `json:"review"`
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
	spec, specBlocks := dataSourceSpec(updateRunSpecAttrs(""))
	resp.Schema = dschema.Schema{
		MarkdownDescription: "The rollout an update run would perform if it started now, without creating it: which member " +
			"goes when, which waits for a maintenance window or a regional release, which is skipped and why, with a Mermaid " +
			"gantt chart. The same simulation as `aks_fleet_update_run`'s plan preview, from the same function, and as the run " +
			"itself on the mock hub. Read at plan, it is kept in the plan file: module outputs built from it show in " +
			"`terraform show` exactly as reviewed, and its `review` makes the run's start hold to it.",
		Attributes: map[string]dschema.Attribute{
			"name": dschema.StringAttribute{Optional: true, MarkdownDescription: "The run this previews: when the hub holds a " +
				"run of this name with the same spec, the preview is of that run from where it stands (its own copy of its " +
				"strategy; what it completed stays completed); otherwise of a new run. Required for `review`."},
			"start": dschema.BoolAttribute{Optional: true, MarkdownDescription: "The run's `start` (default `false`): part of " +
				"what `review` covers, so give it the value the run resource has."},
			"update_strategy_id": spec["update_strategy_id"],
			"preview":            dataSourceAttr(rolloutPreviewAttr("The rollout, if the run started now.")),
			"warnings": dschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "What the plan of " +
				"such a run would warn about: groups no member has, members in no group of the strategy."},
			"review": reviewAttr("aks_fleet_update_run"),
		},
		Blocks: map[string]dschema.Block{
			"skip": dataSourceBlock(blockOf(withDescription(skipAttr(), "The run's `skip` targets: the preview skips them (and "+
				"everything under them) when the run starts. Part of what `review` covers: give it the value the run resource has."))),
			"stages":               specBlocks["stages"],
			"upgrade":              specBlocks["upgrade"],
			"node_image_selection": specBlocks["node_image_selection"],
		},
	}
}

func (d *updatePreviewDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m updatePreviewModel
	unknown, ok := readConfig(req.Config, &m, &resp.Diagnostics)
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
	f, ok := runFleet(ctx, d.hub, &resp.Diagnostics)
	if !ok {
		return
	}
	// The strategy a new run would follow.
	strategy := spec.Strategy
	if spec.UpdateStrategyID != "" {
		s, err := d.hub.GetUpdateStrategy(ctx, update.StrategyNameFromID(spec.UpdateStrategyID))
		if err != nil {
			hubError(&resp.Diagnostics, opRead, objectRef{updateStrategyType, spec.UpdateStrategyID}, err)
			return
		}
		strategy = &s.Spec
	}
	cur := &hub.UpdateRun{Spec: spec, ResolvedStrategy: strategy, Status: update.RunStatus{State: update.StateNotStarted}}
	if m.Name != "" {
		run, err := d.hub.GetUpdateRun(ctx, m.Name)
		switch {
		case errors.Is(err, hub.ErrNotFound):
		case err != nil:
			hubError(&resp.Diagnostics, opRead, objectRef{updateRunType, m.Name}, err)
			return
		case sameRun(run, spec, strategy): // the run this previews, from where it stands
			cur = run
		}
	}
	m.Warnings = []string{}
	for _, w := range update.RunWarnings(update.RunSpec{ManagedClusterUpdate: spec.ManagedClusterUpdate, Strategy: cur.ResolvedStrategy}, f) {
		m.Warnings = append(m.Warnings, w.String())
	}
	p := previewRunCourse(d.hub, f, cur, m.Skip)
	resp.State.Raw = req.Config.Raw
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("preview"), newRolloutPreviewDoc(p), &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("warnings"), m.Warnings, &resp.Diagnostics)
	digest := runReviewSpec(cur.ResolvedStrategy, cur.Spec.ManagedClusterUpdate, m.Start, m.Skip)
	review, err := reviewToken(reviewRun, m.Name, digest, update.ExpectRun(p))
	if err != nil {
		resp.Diagnostics.AddError("Cannot record the review", err.Error())
		return
	}
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("review"), review, &resp.Diagnostics)
}
