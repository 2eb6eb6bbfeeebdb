package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

var (
	_ resource.ResourceWithConfigure      = (*nodePoolResource)(nil)
	_ resource.ResourceWithValidateConfig = (*nodePoolResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*nodePoolResource)(nil)
	_ resource.ResourceWithImportState    = (*nodePoolResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*nodePoolResource)(nil)
)

func newNodePoolResource() resource.Resource { return &nodePoolResource{} }

type nodePoolResource struct {
	hubClient
}

// nodePoolModel is the whole resource state; the embedded NodePool's fields
// are the configurable spec attributes.
type nodePoolModel struct {
	ID      string `json:"id"`
	Cluster string `json:"cluster"`
	Name    string `json:"name"`
	nodepool.NodePool
	ReviewedPreview string             `json:"reviewed_preview"`
	Status          *nodePoolStatusDoc `json:"status"`
}

func (nodePoolResource) model() any { return &nodePoolModel{} }

func (m nodePoolModel) ref() objectRef { return objectRef{nodePoolType, m.Cluster + "/" + m.Name} }

// nodePools is the NodePool's lifecycle (kind): its id is <cluster>/<name>.
var nodePools = &kind[nodePoolModel, hub.NodePool, nodepool.NodePool]{
	typ:         nodePoolType,
	id:          func(m *nodePoolModel) string { return m.ID },
	name:        func(m *nodePoolModel) string { return m.Cluster + "/" + m.Name },
	writeByName: true,
	spec:        func(m *nodePoolModel) nodepool.NodePool { return m.NodePool },
	defaults:    nodepool.WithDefaults,
	get: func(ctx context.Context, h hub.Hub, id string) (*hub.NodePool, error) {
		cluster, name, err := splitNodePoolID(id)
		if err != nil {
			return nil, err
		}
		return h.GetNodePool(ctx, cluster, name)
	},
	del: func(ctx context.Context, h hub.Hub, id string, pre hub.Precondition) error {
		cluster, name, err := splitNodePoolID(id)
		if err != nil {
			return err
		}
		return h.DeleteNodePool(ctx, cluster, name, pre)
	},
	parts: func(np *hub.NodePool) (hub.Meta, nodepool.NodePool, *nodepool.NodePool) {
		return np.Meta, np.Spec, np.Written
	},
	status: func(np *hub.NodePool) any { return newNodePoolStatusDoc(np.Status) },
}

// splitNodePoolID is the cluster and the name a NodePool's id gives.
func splitNodePoolID(id string) (cluster, name string, err error) {
	cluster, name, ok := strings.Cut(id, "/")
	if !ok || cluster == "" || name == "" {
		return "", "", invalidID{"id " + id + " is not <cluster>/<nodepool>."}
	}
	return cluster, name, nil
}

// nodePoolPreviewDoc is the plan preview (designs/nap.md §7), one line per
// fact, rendered in the plan diagnostic (report). The structured allowances
// and timeline are the aks_nap_disruption_preview data source's.
type nodePoolPreviewDoc struct {
	Defaults struct {
		ExpireAfter         string   `json:"expire_after"`
		ConsolidationPolicy string   `json:"consolidation_policy"`
		Budgets             []string `json:"budgets"`
	} `json:"defaults"`
	Nodes struct {
		Total      int `json:"total"`
		Disrupting int `json:"disrupting"`
		// Not counted by the budgets: launched and not initialized yet,
		// or their instance terminating.
		Uninitialized int `json:"uninitialized"`
		Terminating   int `json:"terminating"`
	} `json:"nodes"`
	AllowedNow  map[string]string `json:"allowed_now"`
	NextAllowed map[string]string `json:"next_allowed"`
	Timeline    []string          `json:"timeline"`
	Expiring    map[string]string `json:"expiring"`
	Drift       *driftDoc         `json:"drift"`
}

type driftDoc struct {
	Drifted     int               `json:"drifted"`
	Summary     string            `json:"summary"`
	Nodes       map[string]string `json:"nodes"`
	Replacement string            `json:"replacement"`
}

type nodePoolStatusDoc struct {
	Nodes      int      `json:"nodes"`
	Ready      int      `json:"ready"`
	Disrupting int      `json:"disrupting"`
	NodeNames  []string `json:"node_names"`
}

const nodePoolType = "aks_nap_nodepool"

func (r *nodePoolResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_nap_nodepool"
}

func (r *nodePoolResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

func (r *nodePoolResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := nodePoolSpecAttrs()
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	attrs["id"] = rschema.StringAttribute{Computed: true, MarkdownDescription: "`<cluster>/<name>`.",
		PlanModifiers: []planmodifier.String{idOfName("cluster", "name")}}
	attrs["cluster"] = rschema.StringAttribute{Required: true, PlanModifiers: replace,
		MarkdownDescription: "The member cluster whose Node Auto Provisioning runs the NodePool (on the mock hub: a member name)."}
	attrs["name"] = rschema.StringAttribute{Required: true, PlanModifiers: replace, MarkdownDescription: "NodePool name (a DNS-1123 subdomain, e.g. `default`)."}
	attrs["reviewed_preview"] = reviewedPreviewAttr(reviewNodePool, "a budget now allows another number of disruptions than reviewed")
	attrs["status"] = rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The pool's live nodes, refreshed on every read.",
		Attributes: map[string]rschema.Attribute{
			"nodes": rschema.Int64Attribute{Computed: true, MarkdownDescription: "Nodes in the pool as the disruption budgets count them, " +
				"as Karpenter does: initialized, their instance not terminating."},
			"ready":      rschema.Int64Attribute{Computed: true, MarkdownDescription: "Of `nodes`, the Ready ones."},
			"disrupting": rschema.Int64Attribute{Computed: true, MarkdownDescription: "Of `nodes`, the ones not Ready or being deleted."},
			"node_names": rschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "The names of every node " +
				"of the pool (also those not initialized yet or terminating), sorted."},
		},
	}
	attrs, blocks := configBlocks(attrs)
	resp.Schema = rschema.Schema{
		// Version 3: configurable structures are blocks, `no_budgets`
		// (designs/schema.md §1–§2); version 2 had no preview attribute
		// (designs/previews.md §7); version 1 had it one line per fact,
		// version 0 as structured lists. A change of the state's shape bumps
		// it, freezes the prior schema (TestFreezeSchemas) and adds an
		// upgrader from every earlier version to UpgradeState.
		Version: 3,
		MarkdownDescription: "A Karpenter `NodePool` (`karpenter.sh/v1`) run by AKS Node Auto Provisioning. Validates what Karpenter and " +
			"AKS would reject — including cron schedules Kubernetes admits but Karpenter then fails on, blocking all disruption — and " +
			"shows at plan, when the pool is created or changed, when the disruption budgets allow node churn, which nodes expire, " +
			"and how many nodes a change drifts.",
		Attributes: attrs,
		Blocks:     blocks,
	}
}

func (r *nodePoolResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if !checkNumbers(req.Config.Raw, "Invalid NodePool", nodepool.ValidateNumber, &resp.Diagnostics) {
		return
	}
	var m nodePoolModel
	unknown, ok := readConfig(req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	errs := append(nodepool.ValidateIdentity(m.Cluster, m.Name), nodepool.Validate(m.NodePool)...)
	reportErrors(&resp.Diagnostics, "Invalid NodePool", errs, unknown)
}

func (r *nodePoolResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		nodePools.planDestroy(ctx, r.hub, req, resp)
		return
	}
	// A number known only now (from another resource) gets its rule here.
	if !checkNumbers(req.Plan.Raw, "Invalid NodePool", nodepool.ValidateNumber, &resp.Diagnostics) {
		return
	}
	var plan nodePoolModel
	unknown, ok := readPlan(req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	if nodePools.refuseTaken(ctx, req, r.hub, &plan, unknown.covers(field.Root("cluster")) || unknown.covers(field.Root("name")), &resp.Diagnostics) {
		return
	}
	var before *nodepool.NodePool
	if !req.State.Raw.IsNull() {
		var prior nodePoolModel
		if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
			return
		}
		// A new cluster or name replaces the pool (RequiresReplace): no update rule applies.
		replaced := prior.Cluster != plan.Cluster || prior.Name != plan.Name ||
			unknown.covers(field.Root("cluster")) || unknown.covers(field.Root("name"))
		if !replaced {
			reportErrors(&resp.Diagnostics, "Invalid NodePool change", nodepool.ValidateUpdate(prior.NodePool, plan.NodePool), unknown)
			if resp.Diagnostics.HasError() {
				return
			}
			if len(unknown) == 0 && sameSpec(prior.NodePool, plan.NodePool, nodepool.WithDefaults) {
				return // nothing to preview: the hub already holds this spec
			}
			before = &prior.NodePool
		}
	}
	obj := plan.ref()
	if unknown.covers(field.Root("reviewed_preview")) {
		reviewUnknown(&resp.Diagnostics, reviewNodePool, obj)
	}
	if len(unknown) > 0 || r.hub == nil {
		return // the preview depends on values known only at apply: apply previews it
	}
	live, known, ok := poolNodes(ctx, r.hub, plan.Cluster, plan.Name, before == nil, &resp.Diagnostics)
	if !ok {
		return
	}
	reportWarnings(&resp.Diagnostics, "NodePool", nodepool.Warnings(plan.NodePool))
	if !known {
		reportPreview(&resp.Diagnostics, obj, preview{Headline: "the pool's nodes are unknown at plan", Basis: "its cluster did not answer",
			First: fmt.Sprintf("Cluster %s did not answer at plan, so the nodes labelled karpenter.sh/nodepool=%s that this pool "+
				"takes over, and what its budgets allow for them, are unknown until apply.", plan.Cluster, plan.Name)})
		if plan.ReviewedPreview != "" {
			resp.Diagnostics.AddAttributeError(path.Root("reviewed_preview"), "Cannot check the review", fmt.Sprintf("%s: cluster %s "+
				"did not answer at plan, so what the budgets allow for its nodes cannot be checked against the review. Plan again "+
				"once it answers.", obj, plan.Cluster))
		}
		return
	}
	now := r.hub.Now()
	doc := newNodePoolPreviewDoc(before, plan.NodePool, live.Nodes, now)
	reportPreview(&resp.Diagnostics, obj, doc.report(now))
	budgets := nodepool.WithDefaults(plan.NodePool).Disruption.Budgets
	g := guard{kind: reviewNodePool, token: plan.ReviewedPreview, obj: obj}
	check(g, &resp.Diagnostics, "budgets", nodePoolReviewSpec(budgets), now, nodepool.Expect(budgets, doc.Nodes.Total, doc.Nodes.Disrupting, now),
		nodepool.Expectation.Differences)
}

// UpgradeState: versions 0 and 1 held a preview (designs/previews.md §7).
func (r *nodePoolResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return blockUpgraders("NodePool", napNodepoolSchemaV2(), []int64{0, 1}, dropPreview)
}

// poolNodes are the nodes a pool's preview counts: the nodes labelled with
// the pool's name on its cluster (karpenter.sh/nodepool). A pool that exists
// owns them; a new pool takes over those a pool of that name left there, as
// Karpenter does by the label (issue 24, finding 6) — so its preview counts
// them too: allowances, expiry, drift. The cluster must be a member. A new
// pool's cluster may not answer at plan (it may be created by the same apply,
// or not serve NodePools yet): then known is false — the count is unknown,
// never 0 — and apply, where the cluster must answer, decides.
func poolNodes(ctx context.Context, h hub.Hub, cluster, name string, create bool, diags *diag.Diagnostics) (live hub.NodePoolStatus, known, ok bool) {
	err := isMember(ctx, h, cluster)
	if err == nil {
		live, err = h.NodePoolNodes(ctx, cluster, name)
		if err != nil && create && !errors.Is(err, hub.ErrNotFound) {
			tflog.Debug(ctx, "the pool's nodes are unknown at plan", map[string]any{"cluster": cluster, "nodepool": name, "error": err.Error()})
			return live, false, true
		}
	}
	if errors.Is(err, hub.ErrNotFound) {
		diags.AddAttributeError(path.Root("cluster"), "Unknown member cluster", "cluster: "+err.Error()+
			". Use the name of a member cluster (data.aks_fleet_member_clusters lists them).")
		return live, false, false
	}
	if err != nil {
		diags.AddError("Cannot read the pool's nodes", nodePoolType+" "+cluster+"/"+name+": "+err.Error())
		return live, false, false
	}
	return live, true, true
}

// nodePoolReviewSpec is the digest of what a NodePool's review covers: its
// budgets, after defaults (designs/previews.md §5).
func nodePoolReviewSpec(budgets []nodepool.Budget) string {
	return specDigest(nodepool.NodePool{Disruption: &nodepool.Disruption{Budgets: budgets}}, nodepool.WithDefaults)
}

// notMember is memberOf's error as a hub.ErrNotFound.
type notMember struct{ error }

func (notMember) Is(target error) bool { return target == hub.ErrNotFound }

// isMember returns hub.ErrNotFound when cluster is not a member of the fleet.
func isMember(ctx context.Context, h hub.Hub, cluster string) error {
	f, err := h.Fleet(ctx)
	if err != nil {
		return err
	}
	if err := memberOf(f, cluster); err != nil {
		return notMember{err}
	}
	return nil
}

// newNodePoolPreviewDoc is the plan preview of a NodePool change (before is nil on create).
func newNodePoolPreviewDoc(before *nodepool.NodePool, after nodepool.NodePool, nodes []nodepool.Node, now time.Time) nodePoolPreviewDoc {
	np := nodepool.WithDefaults(after)
	var d nodePoolPreviewDoc
	d.Defaults.ExpireAfter = deref(np.Template.ExpireAfter)
	d.Defaults.ConsolidationPolicy = deref(np.Disruption.ConsolidationPolicy)
	d.Defaults.Budgets = describeBudgets(np.Disruption.Budgets)
	total, disrupting := nodepool.CountNodes(nodes)
	d.Nodes.Total, d.Nodes.Disrupting = total, disrupting
	for _, n := range nodes {
		switch {
		case n.InstanceTerminating:
			d.Nodes.Terminating++
		case n.Uninitialized:
			d.Nodes.Uninitialized++
		}
	}
	d.AllowedNow = map[string]string{}
	for r, a := range nodepool.AllowedDisruptionsByReason(np.Disruption.Budgets, total, disrupting, now) {
		d.AllowedNow[string(r)] = a.String()
	}
	d.Timeline, d.NextAllowed = reviewTimeline(nodepool.Timeline(np.Disruption.Budgets, total, disrupting, now, previewSpan),
		nodepool.ImageRefreshes(nodes, now, previewSpan))
	d.Expiring = map[string]string{}
	for _, e := range np.Expiring(nodes, now, previewSpan) {
		d.Expiring[e.Node.Name] = expiryLine(e.At, e.Overdue)
	}
	if before == nil {
		return d
	}
	dr := nodepool.Drift(*before, after, nodepool.Replaceable(nodes)) // a node already going is not replaced
	drift := &driftDoc{Drifted: dr.Drifted, Summary: dr.Summary, Nodes: map[string]string{}}
	for _, n := range dr.Nodes {
		if n.Drifted {
			drift.Nodes[n.Node.Name] = strings.Join(n.Reasons, "; ")
		}
	}
	drift.Replacement = nodepool.ReplacementEstimate(dr.Drifted, np.Disruption.Budgets, total, disrupting, now).Message
	d.Drift = drift
	return d
}

// report is the plan diagnostic of the preview evaluated at now.
func (d nodePoolPreviewDoc) report(now time.Time) preview {
	p := preview{At: now, Basis: "on the pool's nodes as the hub reports them"}
	// The headline: the node count and what may be disrupted now, one
	// number when every reason has the same.
	allowed := map[string][]string{}
	var order []string
	for _, r := range nodepool.Reasons {
		a, _, _ := strings.Cut(d.AllowedNow[string(r)], " (")
		if len(allowed[a]) == 0 {
			order = append(order, a)
		}
		allowed[a] = append(allowed[a], string(r))
	}
	p.Headline = countNoun(d.Nodes.Total, "node") + "; disruptions allowed now: "
	if len(order) == 1 {
		p.Headline += order[0]
	} else {
		var parts []string
		for _, a := range order {
			parts = append(parts, strings.Join(allowed[a], ", ")+" "+a)
		}
		p.Headline += strings.Join(parts, "; ")
	}
	var uncounted []string
	if d.Nodes.Uninitialized > 0 {
		uncounted = append(uncounted, fmt.Sprintf("%d not initialized", d.Nodes.Uninitialized))
	}
	if d.Nodes.Terminating > 0 {
		uncounted = append(uncounted, fmt.Sprintf("%d terminating", d.Nodes.Terminating))
	}
	notCounted := ""
	if len(uncounted) > 0 {
		notCounted = " (besides " + strings.Join(uncounted, " and ") + ", which the budgets do not count)"
	}
	p.add("", fmt.Sprintf("%s, %d disrupting%s; expire_after %s, consolidation_policy %s", countNoun(d.Nodes.Total, "node"),
		d.Nodes.Disrupting, notCounted, d.Defaults.ExpireAfter, d.Defaults.ConsolidationPolicy))
	p.add("budgets", d.Defaults.Budgets...)
	p.add("allowed now", reasonLines(d.AllowedNow)...)
	p.add("next allowed", reasonLines(d.NextAllowed)...)
	p.add("the next 7 days", d.Timeline...)
	var expiring [][2]string
	for _, n := range sortedKeys(d.Expiring) {
		expiring = append(expiring, [2]string{n, d.Expiring[n]})
	}
	p.add("expiring within 7 days", bounded(columns(expiring), maxPoolPreviewNodes, "")...)
	if d.Drift != nil {
		var nodes [][2]string
		for _, n := range sortedKeys(d.Drift.Nodes) {
			nodes = append(nodes, [2]string{n, d.Drift.Nodes[n]})
		}
		p.add("drift", append([]string{d.Drift.Summary, d.Drift.Replacement}, bounded(columns(nodes), maxPoolPreviewNodes, "")...)...)
	}
	return p
}

// maxPoolPreviewNodes bounds the nodes a NodePool preview lists one by one.
const maxPoolPreviewNodes = 20

// reasonLines are a reason-keyed map's lines, in the reasons' order.
func reasonLines(m map[string]string) []string {
	var rows [][2]string
	for _, r := range nodepool.Reasons {
		if v, ok := m[string(r)]; ok {
			rows = append(rows, [2]string{string(r), v})
		}
	}
	return columns(rows)
}

// describeBudgets is one line per budget, numbered from 1 as the timeline
// refers to them.
func describeBudgets(budgets []nodepool.Budget) []string {
	out := make([]string, len(budgets))
	for i, b := range budgets {
		out[i] = nodepool.DescribeBudget(i, b)
	}
	return out
}

// reviewTimeline is the reviewer's view of a timeline: each window once with
// the reasons it applies to, the node image refreshes among them, and when
// each reason blocked at its start is next allowed to disrupt.
func reviewTimeline(tl map[nodepool.Reason][]nodepool.Interval, refreshes []nodepool.ImageRefresh) (windows []string, next map[string]string) {
	windows = nodepool.TimelineLines(nodepool.MergeReasons(tl), refreshes)
	next = map[string]string{}
	for r, n := range nodepool.NextAllowed(tl) {
		next[string(r)] = n.String()
	}
	return windows, next
}

// expiryLine is when a node expires (RFC 3339), marked when already past.
func expiryLine(at time.Time, overdue bool) string {
	s := at.UTC().Format(time.RFC3339)
	if overdue {
		s += " (overdue)"
	}
	return s
}

// deref is the value p points at, or the zero value.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func (r *nodePoolResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, opCreate, req.Plan, createGuard, &resp.State, resp.Private, &resp.Diagnostics)
}

func (r *nodePoolResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var prior nodePoolModel
	if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
		return
	}
	r.apply(ctx, opUpdate, req.Plan, nodePools.updateGuard(ctx, r.hub, req.Private, &prior, &resp.Diagnostics), &resp.State, resp.Private, &resp.Diagnostics)
}

// apply sends the planned NodePool to its cluster (a create must not find
// it; an update must find the version last read) and records its nodes.
func (r *nodePoolResource) apply(ctx context.Context, op string, plan tfsdk.Plan, guarded writeGuard,
	state *tfsdk.State, private privateSetter, diags *diag.Diagnostics) {
	var m nodePoolModel
	if _, ok := readValue(plan.Raw, &m, diags); !ok || diags.HasError() {
		return
	}
	np, ok := nodePools.write(op, &m, guarded, func(pre hub.Precondition) (*hub.NodePool, error) {
		return r.hub.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: m.Name}, Cluster: m.Cluster, Spec: m.NodePool}, pre)
	}, diags)
	if ok {
		nodePools.record(ctx, plan.Raw, m.Cluster+"/"+m.Name, np, state, private, diags)
	}
}

func (r *nodePoolResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	prior, np, ok := nodePools.read(ctx, r.hub, req, resp)
	if !ok {
		return
	}
	cluster, name := np.Cluster, np.Name
	status := newNodePoolStatusDoc(np.Status)
	m := prior
	m.Cluster, m.Name, m.Status = cluster, name, &status
	var adopted bool
	m.NodePool, adopted = nodePools.adopt(ctx, req.Private, resp.Private, prior.NodePool, np, &resp.Diagnostics) // imported, or changed outside Terraform
	adopted = adopted || prior.Cluster != cluster || prior.Name != name
	budgets := nodepool.WithDefaults(m.NodePool).Disruption.Budgets
	m.ReviewedPreview = settle(&resp.Diagnostics, m.ReviewedPreview, reviewNodePool, m.ref(), nodePoolReviewSpec(budgets), func() (any, bool) {
		live, err := r.hub.NodePoolNodes(ctx, cluster, name)
		if err != nil {
			return nil, false
		}
		total, disrupting := nodepool.CountNodes(live.Nodes)
		return nodepool.Expect(budgets, total, disrupting, r.hub.Now()), true
	})
	recordRead(ctx, &resp.State, m, adopted, &resp.Diagnostics)
}

func (r *nodePoolResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	nodePools.delete(ctx, r.hub, req, resp)
}

func (r *nodePoolResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	c, n, ok := strings.Cut(req.ID, "/")
	if !ok || c == "" || n == "" || strings.Contains(n, "/") {
		resp.Diagnostics.AddError("Invalid import id", "Import a NodePool as <cluster>/<nodepool>, e.g. aks-east-prod-01/default; got "+req.ID+".")
		return
	}
	if r.hub != nil {
		switch err := isMember(ctx, r.hub, c); {
		case errors.Is(err, hub.ErrNotFound):
			resp.Diagnostics.AddError("Invalid import id", "Import a NodePool as <cluster>/<nodepool>: "+err.Error()+".")
			return
		case err != nil:
			hubError(&resp.Diagnostics, opRead, objectRef{nodePoolType, req.ID}, err)
			return
		}
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	markImported(ctx, resp.Private, &resp.Diagnostics)
}

func newNodePoolStatusDoc(s hub.NodePoolStatus) nodePoolStatusDoc {
	d := nodePoolStatusDoc{Nodes: s.Total, Disrupting: s.Disrupting, NodeNames: []string{}}
	for _, n := range s.Nodes {
		if n.Ready && nodepool.Counted(n) {
			d.Ready++
		}
		d.NodeNames = append(d.NodeNames, n.Name)
	}
	sort.Strings(d.NodeNames)
	return d
}
