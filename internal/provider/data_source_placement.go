package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

var _ datasource.DataSourceWithConfigure = (*placementDataSource)(nil)

func newPlacementDataSource() datasource.DataSource { return &placementDataSource{} }

// placementDataSource reads a placement's decisions as the hub holds them:
// every cluster it holds with the score it was picked with, the best left
// out, and its conditions — the list the resource's bounded status leaves
// out (designs/previews.md §6).
type placementDataSource struct {
	hubClient
}

// placementReadModel is the data source's whole state.
type placementReadModel struct {
	Name               string               `json:"name"`
	SelectedClusters   []string             `json:"selected_clusters"`
	Requested          *int                 `json:"requested"`
	Fulfilled          bool                 `json:"fulfilled"`
	Message            string               `json:"message"`
	ObservedGeneration int64                `json:"observed_generation"`
	Decisions          []placement.Decision `json:"decisions"`
	Conditions         []conditionDoc       `json:"conditions"`
	SelectedResources  []string             `json:"selected_resources"`
	ResourceIndex      *int                 `json:"resource_index"`
	Rollout            *string              `json:"rollout"`
	PlacementStatuses  []clusterStatusDoc   `json:"placement_statuses"`
}

// clusterStatusDoc is a selected cluster's placement status as Fleet reports it.
type clusterStatusDoc struct {
	ClusterName      string         `json:"cluster_name"`
	Conditions       []conditionDoc `json:"conditions"`
	FailedPlacements []string       `json:"failed_placements"`
}

func (placementDataSource) model() any { return &placementReadModel{} }

func (d *placementDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_placement"
}

func (d *placementDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

func (d *placementDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "A placement's decisions as the hub holds them now: every cluster it holds, with the scores " +
			"recorded when each was picked, the best clusters left out and why, and its conditions. Reference the " +
			"placement's name from an `aks_fleet_placement` resource and Terraform reads it after the placement is applied.",
		Attributes: map[string]dschema.Attribute{
			"name": dschema.StringAttribute{Required: true, MarkdownDescription: "The placement's name."},
			"selected_clusters": dschema.ListAttribute{ElementType: types.StringType, Computed: true,
				MarkdownDescription: "Every cluster the placement holds, sorted."},
			"requested":           dschema.Int64Attribute{Computed: true, MarkdownDescription: "Clusters asked for; null for PickAll."},
			"fulfilled":           dschema.BoolAttribute{Computed: true, MarkdownDescription: "Whether every requested cluster was found."},
			"message":             dschema.StringAttribute{Computed: true, MarkdownDescription: "Why the placement is not fulfilled; null when it is."},
			"observed_generation": dschema.Int64Attribute{Computed: true, MarkdownDescription: "The spec generation the decisions were made for."},
			"decisions": dschema.ListNestedAttribute{Computed: true, MarkdownDescription: "Every selected cluster, then up to " +
				"20 clusters left out (as many as Fleet's status keeps), the best-scored first.",
				NestedObject: dschema.NestedAttributeObject{Attributes: dataSourceAttrs(decisionAttrs())}},
			"conditions": dataSourceAttr(rschema.Attribute(conditionsAttr())),
			"selected_resources": dschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "Every " +
				"resource the placement selected on the hub cluster, in the order Fleet lists them (`status.selectedResources`), as " +
				"`apiVersion Kind namespace/name`."},
			"resource_index": dschema.Int64Attribute{Computed: true, MarkdownDescription: "The latest resource snapshot's index " +
				"(`status.observedResourceIndex`); null before the placement selected anything."},
			"rollout": dschema.StringAttribute{Computed: true, MarkdownDescription: "Where the rollout of the latest resources " +
				"stands when it is not done; null when every cluster has them."},
			"placement_statuses": dschema.ListNestedAttribute{Computed: true, MarkdownDescription: "Every selected cluster's " +
				"placement status as Fleet reports it (`status.placementStatuses`), by name.",
				NestedObject: dschema.NestedAttributeObject{Attributes: map[string]dschema.Attribute{
					"cluster_name": dschema.StringAttribute{Computed: true, MarkdownDescription: "The member cluster."},
					"conditions": dschema.ListNestedAttribute{Computed: true, MarkdownDescription: "The cluster's conditions in the order " +
						"Fleet sets them: `Scheduled`, `RolloutStarted`, `Overridden`, `WorkSynchronized`, `Applied`, `Available`, up to " +
						"the first that is not `True`.",
						NestedObject: dschema.NestedAttributeObject{Attributes: dataSourceAttrs(conditionsAttr().NestedObject.Attributes)}},
					"failed_placements": dschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "The " +
						"resources the cluster failed to apply (at most 100, as Fleet keeps), each with the condition's message."},
				}}},
		},
	}
}

func (d *placementDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m placementReadModel
	if _, ok := readValue(req.Config.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	p, err := d.hub.GetPlacement(ctx, m.Name)
	if errors.Is(err, hub.ErrNotFound) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Placement not found", "name: the hub holds no placement "+
			m.Name+". Create it with aks_fleet_placement (and reference its name, so that Terraform reads this after it is applied).")
		return
	}
	if err != nil {
		hubError(&resp.Diagnostics, opRead, objectRef{placementType, m.Name}, err)
		return
	}
	s := p.Status
	m.SelectedClusters = append([]string{}, s.Selected...)
	m.Fulfilled, m.Message, m.ObservedGeneration = s.Fulfilled, s.Message, s.ObservedGeneration
	if s.Requested >= 0 {
		req := s.Requested
		m.Requested = &req
	}
	pv := placement.Preview(placement.Result{Decisions: s.Decisions}, placement.DefaultPreviewLimit)
	m.Decisions = append(append([]placement.Decision{}, pv.Selected...), pv.LeftOut...)
	m.Conditions = newConditionDocs(s.Conditions)
	for _, r := range s.SelectedResources {
		m.SelectedResources = append(m.SelectedResources, r.String())
	}
	m.ResourceIndex, m.Rollout = rolloutOf(s)
	for _, cs := range s.Clusters {
		d := clusterStatusDoc{ClusterName: cs.Cluster}
		for _, c := range cs.Conditions {
			d.Conditions = append(d.Conditions, newConditionDocs([]hub.Condition{hub.Condition(c)})...)
		}
		for _, f := range cs.FailedPlacements {
			d.FailedPlacements = append(d.FailedPlacements, failedLine(f))
		}
		m.PlacementStatuses = append(m.PlacementStatuses, d)
	}
	setState(ctx, &resp.State, m, &resp.Diagnostics)
}
