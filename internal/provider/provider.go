// Package provider is the thin Terraform layer: schemas, conversion between
// Terraform values and engine models, plan modifiers and diagnostics. Rules
// live in internal/engine; execution lives in internal/hub.
package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// Environment variables that configure the mock hub when the configuration does not.
const (
	EnvFleetFile  = "AKS_MOCK_FLEET_FILE"
	EnvStatePath  = "AKS_MOCK_STATE_PATH"
	EnvClock      = "AKS_MOCK_CLOCK"
	EnvClockTime  = "AKS_MOCK_CLOCK_TIME"
	EnvClockScale = "AKS_MOCK_CLOCK_SCALE"
	// EnvUpgradeDuration sets mock.upgrade_duration.
	EnvUpgradeDuration = "AKS_MOCK_UPGRADE_DURATION"
)

var (
	_ provider.Provider                   = (*aksProvider)(nil)
	_ provider.ProviderWithValidateConfig = (*aksProvider)(nil)
)

// New returns a provider factory for providerserver.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &aksProvider{version: version} }
}

type aksProvider struct {
	version string
	// newHub builds the hub the configuration asks for (tests wrap it).
	newHub hubFactory
}

// providerModel is the provider configuration. Exactly one hub block is
// used; without any, the mock hub with its built-in sample fleet.
type providerModel struct {
	Mock  *mockModel  `json:"mock"`
	Azure *azureModel `json:"azure"`
}

type mockModel struct {
	FleetFile  string   `json:"fleet_file"`
	StatePath  string   `json:"state_path"`
	Clock      string   `json:"clock"`
	ClockTime  string   `json:"clock_time"`
	ClockScale *float64 `json:"clock_scale"`
	// UpgradeDuration is how long one member's upgrade takes (a Go duration).
	UpgradeDuration string `json:"upgrade_duration"`
}

// providerData is what Configure hands to resources and data sources.
type providerData struct {
	Hub hub.Hub
}

func (p *aksProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "aks"
	resp.Version = p.version
}

func (p *aksProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manage an Azure Kubernetes Fleet Manager fleet and AKS Node Auto Provisioning as code, " +
			"and see the consequences at `terraform plan`. With no configuration at all the provider uses the " +
			"embedded **mock hub** with its built-in sample fleet: no credentials, no network. An `azure` block uses a real " +
			"fleet instead (at most one of `mock` and `azure`).",
		Blocks: map[string]schema.Block{
			"azure": azureBlock(),
			"mock": schema.SingleNestedBlock{
				MarkdownDescription: "The embedded mock hub: a simulated fleet described by an inventory file, with " +
					"state kept in an embedded database. Every attribute can also be set with an environment variable; " +
					"the configuration wins over the environment. In Resource Manager's terms the mock fleet is `" + mock.MockFleet.ID() +
					"`: an ARM id given for one of its objects (an import, `update_strategy_id`) must name it.",
				Attributes: map[string]schema.Attribute{
					"fleet_file": schema.StringAttribute{
						Optional: true,
						MarkdownDescription: "Path of the fleet inventory, YAML or — in a file named `*.json` — JSON (see the README). Without it the built-in " +
							"sample fleet is used. Environment: `" + EnvFleetFile + "`.",
					},
					"state_path": schema.StringAttribute{
						Optional: true,
						MarkdownDescription: "Path of the mock hub's state database. Several Terraform processes may share " +
							"it. Defaults to `" + mock.DefaultStatePath + "` under the working directory. Environment: `" + EnvStatePath + "`.",
					},
					"clock": schema.StringAttribute{
						Optional: true,
						MarkdownDescription: "The hub clock: `real` (default) is wall-clock time, `fixed` stays at " +
							"`clock_time`, `scaled` starts at `clock_time` and runs `clock_scale` times faster than real " +
							"time, continuing across Terraform commands. Environment: `" + EnvClock + "`.",
						Validators: []validator.String{stringvalidator.OneOf(mock.ClockReal, mock.ClockFixed, mock.ClockScaled)},
					},
					"clock_time": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "RFC 3339 instant for a `fixed` clock, or where a `scaled` clock starts. Environment: `" + EnvClockTime + "`.",
						Validators:          []validator.String{rfc3339Validator{}},
					},
					"clock_scale": schema.Float64Attribute{
						Optional:            true,
						MarkdownDescription: "Simulated seconds per real second for a `scaled` clock. Environment: `" + EnvClockScale + "`.",
						Validators:          []validator.Float64{float64validator.AtLeast(0.001)},
					},
					"upgrade_duration": schema.StringAttribute{
						Optional: true,
						MarkdownDescription: "How long the mock hub takes to upgrade one member cluster during an update run, " +
							"on its clock, as a Go duration such as `30m` or `0s` (default `" + mock.DefaultUpgradeDuration.String() +
							"`). Previews estimate rollout timelines with it. Environment: `" + EnvUpgradeDuration + "`.",
					},
				},
			},
		},
	}
}

func (p *aksProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	unknown, ok := readValue(req.Config.Raw, &cfg, &resp.Diagnostics)
	if !ok {
		return
	}
	for _, u := range unknown {
		resp.Diagnostics.AddAttributeError(attributePath(path.Empty(), u), "Unknown provider configuration",
			u.String()+" depends on a value that is only known after apply. Configure the provider with values known at plan time.")
	}
	if resp.Diagnostics.HasError() {
		return
	}
	factory := p.newHub
	if factory == nil {
		factory = newHub
	}
	h, diags := factory(ctx, cfg)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	data := &providerData{Hub: withLogging(h)}
	resp.DataSourceData = data
	resp.ResourceData = data
}

func (p *aksProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		newPlacementResource,
		newNodePoolResource,
		newUpdateStrategyResource,
		newUpdateRunResource,
		newAutoUpgradeProfileResource,
	}
}

func (p *aksProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		newMemberClustersDataSource,
		newPlacementPreviewDataSource,
		newPlacementDataSource,
		newDisruptionPreviewDataSource,
		newUpdatePreviewDataSource,
		newUpdateRunDataSource,
		newAutoUpgradePreviewDataSource,
		newKubernetesVersionsDataSource,
	}
}

// hubClient is embedded by every resource and data source: it receives the
// hub that the provider's Configure chose.
type hubClient struct {
	hub hub.Hub
}

func (c *hubClient) configure(data any, diags *diag.Diagnostics) {
	if data == nil {
		return // not configured yet (validate): Configure is called again before any hub call
	}
	pd, ok := data.(*providerData)
	if !ok {
		diags.AddError("Provider misconfigured", fmt.Sprintf("unexpected provider data %T; this is a bug in the provider", data))
		return
	}
	c.hub = pd.Hub
}
