package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

var (
	_ datasource.DataSourceWithConfigure      = (*disruptionPreviewDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*disruptionPreviewDataSource)(nil)
)

func newDisruptionPreviewDataSource() datasource.DataSource { return &disruptionPreviewDataSource{} }

// disruptionPreviewDataSource evaluates NodePool disruption budgets without a
// cluster: budgets and node counts in, allowances and a timeline out.
type disruptionPreviewDataSource struct {
	hubClient
}

type disruptionPreviewInput struct {
	Budgets    []nodepool.Budget
	Nodes      int
	Disrupting int
	From       string
	Span       string
}

// maxPreviewSpan bounds the time range of a disruption preview.
const maxPreviewSpan = 31 * 24 * time.Hour

func (d *disruptionPreviewDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_nap_disruption_preview"
}

func (d *disruptionPreviewDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

func (d *disruptionPreviewDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := dataSourceAttrs(disruptionPreviewAttrs())
	attrs["budgets"] = budgetsAttr("The budgets to evaluate, as in `aks_nap_nodepool`'s `disruption.budgets`. Unset means Karpenter's default " +
		"(one `10%` budget); an empty list means no budget (unlimited).").dataSource()
	attrs["nodes"] = required(kInt, "Nodes in the pool (percentages are of this, rounded up).").dataSource()
	attrs["disrupting"] = optional(kInt, "Nodes already disrupting (not Ready or being deleted); they use up the allowance. Default 0.").dataSource()
	attrs["from"] = optional(kString, "Start of the time range (RFC 3339); default the hub's current time. `allowed_now` is evaluated at this instant.").dataSource()
	attrs["span"] = optional(kString, "Length of the timeline, a Go duration such as `168h` (the default) or `24h`; at most 744h.").dataSource()
	attrs["warnings"] = computed(kStringList, "What the budgets do that their author may not expect (never active, always active, blocking forever, unlimited gaps).").dataSource()
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Evaluates Karpenter NodePool disruption budgets exactly as Karpenter does — per reason, percentages rounded up, " +
			"the minimum over the active budgets, schedules in UTC — for a given number of nodes: how many nodes may be disrupted now, " +
			"and when that changes over a time range. Check a budget design without a cluster.",
		Attributes: attrs,
	}
}

var disruptionPreviewInputs = []string{"budgets", "nodes", "disrupting", "from", "span"}

// input decodes and validates the configuration; ok is false when it is not
// known yet or invalid.
func (d *disruptionPreviewDataSource) input(raw tftypes.Value, diags *diag.Diagnostics) (in disruptionPreviewInput, from time.Time, span time.Duration, ok bool) {
	unknown, err := decodeAttrs(raw, disruptionPreviewInputs, &in)
	if err != nil {
		addDecodeError(diags, err)
		return in, from, span, false
	}
	if len(unknown) > 0 {
		return in, from, span, false // read once known
	}
	for _, e := range nodepool.ValidateBudgets(in.Budgets) {
		rel, _ := e.Path.Rel(field.Root("disruption"))
		e.Path = rel
		addFieldErrors(diags, path.Empty(), "Invalid disruption budget", field.Errors{e})
	}
	if in.Nodes < 0 || in.Disrupting < 0 || in.Disrupting > in.Nodes {
		diags.AddAttributeError(path.Root("disrupting"), "Invalid node counts",
			fmt.Sprintf("nodes (%d) and disrupting (%d) must not be negative, and disrupting cannot exceed nodes.", in.Nodes, in.Disrupting))
	}
	if in.From != "" {
		if from, err = time.Parse(time.RFC3339, in.From); err != nil {
			diags.AddAttributeError(path.Root("from"), "Invalid time", fmt.Sprintf("from: %q is not an RFC 3339 time such as 2026-11-23T08:00:00Z.", in.From))
		}
	}
	span = previewSpan
	if in.Span != "" {
		span, err = time.ParseDuration(in.Span)
		if err != nil || span <= 0 || span > maxPreviewSpan {
			diags.AddAttributeError(path.Root("span"), "Invalid span", fmt.Sprintf("span: %q must be a positive Go duration of at most 744h, e.g. 168h.", in.Span))
		}
	}
	return in, from.UTC(), span, !diags.HasError()
}

func (d *disruptionPreviewDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	d.input(req.Config.Raw, &resp.Diagnostics)
}

func (d *disruptionPreviewDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	in, from, span, ok := d.input(req.Config.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	if from.IsZero() {
		from = d.hub.Now()
	}
	np := nodepool.NodePool{Disruption: nodepool.Disruption{Budgets: in.Budgets}}
	budgets := nodepool.WithDefaults(np).Disruption.Budgets
	warnings := []string{}
	for _, w := range nodepool.Warnings(np) {
		rel, _ := w.Path.Rel(field.Root("disruption"))
		warnings = append(warnings, rel.String()+": "+w.Message)
	}
	resp.State.Raw = req.Config.Raw
	doc := newDisruptionPreviewDoc(budgets, in.Nodes, in.Disrupting, from, span)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("allowed_now"), doc.AllowedNow, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("timeline"), doc.Timeline, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("warnings"), warnings)...)
}
