// Command benchmin is the floor every terraform-plugin-framework provider
// sits on: one resource that stores its input and computes an id, nothing
// else (benchmin_item), and one that does no work but carries state shaped
// as an aks_fleet_placement's (benchmin_shaped, shaped.go).
// scripts/bench-plan.sh runs both beside terraform-provider-aks on the same
// CLI so that the aks provider's cost is reported as ratios to them.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return benchProvider{} }, providerserver.ServeOpts{
		Address: "registry.terraform.io/bench/benchmin", ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}

type benchProvider struct{}

func (benchProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "benchmin"
}

func (benchProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (benchProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (benchProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return item{} }, func() resource.Resource { return shaped{} }}
}

func (benchProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

var _ provider.Provider = benchProvider{}

// item is benchmin_item: a name in, the same name out as its id.
type item struct{}

type itemModel struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
}

func (item) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_item"
}

func (item) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name": schema.StringAttribute{Required: true},
	}}
}

func (item) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m itemModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Name
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (item) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m itemModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (item) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m itemModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Name
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (item) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
