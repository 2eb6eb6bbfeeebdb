package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

var (
	_ datasource.DataSourceWithConfigure      = (*disruptionPreviewDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*disruptionPreviewDataSource)(nil)
)

func newDisruptionPreviewDataSource() datasource.DataSource { return &disruptionPreviewDataSource{} }

// disruptionPreviewDataSource evaluates NodePool disruption budgets without a
// cluster: budgets and node counts in, allowances, a timeline (per reason
// and merged into windows) and when blocked reasons are next allowed out.
type disruptionPreviewDataSource struct {
	hubClient
}

// disruptionPreviewModel is the data source's whole state.
type disruptionPreviewModel struct {
	Budgets    []nodepool.Budget `json:"budgets"`
	Cluster    string            `json:"cluster"`
	NodePool   string            `json:"nodepool"`
	Nodes      *int              `json:"nodes"`
	Disrupting *int              `json:"disrupting"`
	From       string            `json:"from"`
	Span       string            `json:"span"`
	disruptionPreviewDoc
	Warnings []string `json:"warnings"`
	Review   string   `json:"review"`
}

func (disruptionPreviewDataSource) model() any { return &disruptionPreviewModel{} }

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
	attrs["no_budgets"] = dschema.BoolAttribute{Optional: true, Computed: true, MarkdownDescription: noBudgetsAttr().MarkdownDescription}
	attrs["nodes"] = dschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true, MarkdownDescription: "Nodes in the pool (percentages are of this, " +
		"rounded up). Set it, or `cluster` and `nodepool`."}
	attrs["disrupting"] = dschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true,
		MarkdownDescription: "Nodes already disrupting (not Ready or being deleted); they use up the allowance. Default 0; not with `cluster`."}
	attrs["cluster"] = dschema.StringAttribute{Optional: true, MarkdownDescription: "With `nodepool`: evaluate for that pool of " +
		"that member cluster, as `aks_nap_nodepool`'s plan does — its live nodes (a pool not created yet: the nodes labelled with its name, which it takes over), now. " +
		"Required for `review`."}
	attrs["nodepool"] = dschema.StringAttribute{Optional: true, MarkdownDescription: "The NodePool's name, with `cluster`."}
	attrs["review"] = reviewAttr("aks_nap_nodepool")
	attrs["from"] = dschema.StringAttribute{Optional: true, MarkdownDescription: "Start of the time range (RFC 3339); default the " +
		"hub's current time. `allowed_now` is evaluated at this instant."}
	attrs["span"] = dschema.StringAttribute{Optional: true,
		MarkdownDescription: "Length of the timeline, a Go duration such as `168h` (the default) or `24h`; at most 744h."}
	attrs["next_allowed"] = dschema.MapNestedAttribute{Computed: true, MarkdownDescription: "For each reason allowed no disruption " +
		"at the start of the timeline (`allowed_now` is 0), when it is next allowed within the timeline; reasons not " +
		"blocked are absent.",
		NestedObject: dschema.NestedAttributeObject{Attributes: map[string]dschema.Attribute{
			"at": dschema.StringAttribute{Computed: true,
				MarkdownDescription: "When disruption is next allowed (RFC 3339); null when the reason is blocked for the whole timeline."},
			"allowed":   dschema.Int64Attribute{Computed: true, MarkdownDescription: "Nodes that may then be disrupted; null when unlimited or never."},
			"unlimited": dschema.BoolAttribute{Computed: true, MarkdownDescription: "Whether no active budget limits the reason then."},
			"budget_indexes": dschema.ListAttribute{ElementType: types.Int64Type, Computed: true,
				MarkdownDescription: "Indexes of the budgets that then set the allowance (0-based)."},
			"description": dschema.StringAttribute{Computed: true, MarkdownDescription: "E.g. `2026-11-23T17:00:00Z: 1 (budget #1)` " +
				"or `not before 2026-11-24T08:00:00Z (blocked for the whole timeline)`."},
		}},
	}
	attrs["warnings"] = dschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "What the budgets " +
		"do that their author may not expect (never active, always active, blocking forever, unlimited gaps)."}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Evaluates Karpenter NodePool disruption budgets exactly as Karpenter does — per reason, percentages rounded up, " +
			"the minimum over the active budgets, schedules in UTC — for a given number of nodes: how many nodes may be disrupted now, " +
			"when that changes over a time range (per reason, and as windows shared by the reasons they apply to), and when a reason " +
			"blocked now is next allowed. Check a budget design without a cluster.",
		Attributes: attrs,
		Blocks: map[string]dschema.Block{"budgets": dataSourceBlock(blockOf(budgetsAttr("The budgets to evaluate, as in " +
			"`aks_nap_nodepool`'s `disruption.budgets`. None means Karpenter's default (one `10%` budget); `no_budgets` means no " +
			"budget (unlimited).")))},
	}
}

// input decodes and validates the configuration; ok is false when it is not
// known yet or invalid.
func (d *disruptionPreviewDataSource) input(raw tftypes.Value, diags *diag.Diagnostics) (in disruptionPreviewModel, from time.Time, span time.Duration, ok bool) {
	counts := func(p field.Path, number string) field.Errors {
		if s := p.Steps(); len(s) == 1 && (s[0].Name == "nodes" || s[0].Name == "disrupting") {
			return nodepool.ValidateNodeCount(p, number)
		}
		return nil
	}
	if !checkNumbers(raw, "Invalid node count", counts, diags) {
		return in, from, span, false
	}
	unknown, ok := readValue(raw, &in, diags)
	if !ok {
		return in, from, span, false
	}
	errs := nodepool.ValidateBudgets(in.Budgets)
	for i, e := range errs {
		errs[i].Path, _ = e.Path.Rel(field.Root("disruption")) // the budgets are top-level here
	}
	reportErrors(diags, "Invalid disruption budget", errs, unknown)
	pool := in.Cluster != "" || in.NodePool != "" || unknown.covers(field.Root("cluster")) || unknown.covers(field.Root("nodepool"))
	switch {
	case pool && (in.Nodes != nil || in.Disrupting != nil):
		diags.AddAttributeError(path.Root("nodes"), "Conflicting node counts", "nodes: with cluster and nodepool, the counts "+
			"are the pool's own. Set nodes (and disrupting), or cluster and nodepool.")
	case pool && (in.Cluster == "") != (in.NodePool == "") && !unknown.covers(field.Root("cluster")) && !unknown.covers(field.Root("nodepool")):
		diags.AddAttributeError(path.Root("nodepool"), "Incomplete NodePool", "cluster and nodepool name a pool together: set both.")
	case pool && in.From != "":
		diags.AddAttributeError(path.Root("from"), "Conflicting start", "from: a pool's preview is of now, as the "+
			"NodePool's plan previews it. Leave from unset, or give nodes instead of cluster and nodepool.")
	case !pool && in.Nodes == nil && !unknown.covers(field.Root("nodes")):
		diags.AddAttributeError(path.Root("nodes"), "Missing node count", "nodes: give the pool's node count, or cluster "+
			"and nodepool to count a pool's live nodes.")
	case in.Nodes != nil && in.Disrupting != nil && *in.Disrupting > *in.Nodes:
		diags.AddAttributeError(path.Root("disrupting"), "Invalid node counts",
			fmt.Sprintf("disrupting: %d nodes cannot be disrupting in a pool of %d (nodes). Give at most as many as nodes.", *in.Disrupting, *in.Nodes))
	}
	var err error
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
	return in, from.UTC(), span, len(unknown) == 0 && !diags.HasError()
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
	np := nodepool.NodePool{Disruption: &nodepool.Disruption{Budgets: in.Budgets}}
	budgets := nodepool.WithDefaults(np).Disruption.Budgets
	total, disrupting := deref(in.Nodes), deref(in.Disrupting)
	object := ""
	if in.Cluster != "" {
		object = in.Cluster + "/" + in.NodePool
		cur, err := d.hub.GetNodePool(ctx, in.Cluster, in.NodePool)
		if err != nil && !errors.Is(err, hub.ErrNotFound) {
			hubError(&resp.Diagnostics, opRead, objectRef{nodePoolType, in.Cluster + "/" + in.NodePool}, err)
			return
		}
		live, known, ok := poolNodes(ctx, d.hub, in.Cluster, in.NodePool, cur == nil, &resp.Diagnostics)
		if !ok {
			return
		}
		if !known {
			resp.Diagnostics.AddAttributeError(path.Root("cluster"), "Cannot read the pool's nodes", fmt.Sprintf("cluster %s did not "+
				"answer, so the nodes labelled karpenter.sh/nodepool=%s are unknown. Give nodes (and disrupting) instead of cluster "+
				"and nodepool to evaluate the budgets for a count.", in.Cluster, in.NodePool))
			return
		}
		total, disrupting = nodepool.CountNodes(live.Nodes)
	}
	review, err := reviewToken(reviewNodePool, object, nodePoolReviewSpec(budgets), nodepool.Expect(budgets, total, disrupting, from))
	if err != nil {
		resp.Diagnostics.AddError("Cannot record the review", err.Error())
		return
	}
	in.Warnings = []string{}
	for _, w := range nodepool.Warnings(np) {
		rel, _ := w.Path.Rel(field.Root("disruption"))
		in.Warnings = append(in.Warnings, rel.String()+": "+w.Message)
	}
	resp.State.Raw = req.Config.Raw
	doc := newDisruptionPreviewDoc(budgets, total, disrupting, from, span)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("allowed_now"), doc.AllowedNow, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("timeline"), doc.Timeline, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("windows"), doc.Windows, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("next_allowed"), doc.NextAllowed, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("warnings"), in.Warnings, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("review"), review, &resp.Diagnostics)
}
