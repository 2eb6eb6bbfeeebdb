package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

var _ datasource.DataSourceWithConfigure = (*updateRunDataSource)(nil)

func newUpdateRunDataSource() datasource.DataSource { return &updateRunDataSource{} }

// updateRunDataSource reads a run's progress as the hub reports it, with
// every member's line — the list the resource's bounded status counts
// (designs/previews.md §6).
type updateRunDataSource struct {
	hubClient
}

// updateRunReadModel is the data source's whole state.
type updateRunReadModel struct {
	Name string `json:"name"`
	runStatusDoc
	Members map[string]string `json:"members"`
}

func (updateRunDataSource) model() any { return &updateRunReadModel{} }

func (d *updateRunDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_update_run"
}

func (d *updateRunDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

func (d *updateRunDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	var rs resource.SchemaResponse
	(&updateRunResource{}).Schema(ctx, resource.SchemaRequest{}, &rs)
	status := rs.Schema.Attributes["status"].(rschema.SingleNestedAttribute)
	attrs := dataSourceAttrs(status.Attributes)
	attrs["name"] = dschema.StringAttribute{Required: true, MarkdownDescription: "The run's name."}
	attrs["members"] = dschema.MapAttribute{Computed: true, ElementType: types.StringType,
		MarkdownDescription: "Every member's state with its message (versions, the next window opening, the error), by name."}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "An update run's progress as the hub reports it now, with every member's state and message. " +
			"Reference the run's name from an `aks_fleet_update_run` resource and Terraform reads it after the run is applied.",
		Attributes: attrs,
	}
}

func (d *updateRunDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m updateRunReadModel
	if _, ok := readValue(req.Config.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	run, err := d.hub.GetUpdateRun(ctx, m.Name)
	if errors.Is(err, hub.ErrNotFound) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Update run not found", "name: the hub holds no update run "+
			m.Name+". Create it with aks_fleet_update_run (and reference its name, so that Terraform reads this after it is applied).")
		return
	}
	if err != nil {
		hubError(&resp.Diagnostics, opRead, objectRef{updateRunType, m.Name}, err)
		return
	}
	m.runStatusDoc = newRunStatusDoc(run.Status)
	m.Members = map[string]string{}
	for _, ms := range run.Status.Members() {
		line := ms.State
		if ms.Message != "" {
			line += ": " + ms.Message
		}
		m.Members[ms.Name] = line
	}
	setState(ctx, &resp.State, m, &resp.Diagnostics)
}
