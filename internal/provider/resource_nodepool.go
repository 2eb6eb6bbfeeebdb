package provider

import (
	"context"
	"errors"
	"reflect"
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
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

var (
	_ resource.ResourceWithConfigure      = (*nodePoolResource)(nil)
	_ resource.ResourceWithValidateConfig = (*nodePoolResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*nodePoolResource)(nil)
	_ resource.ResourceWithImportState    = (*nodePoolResource)(nil)
)

func newNodePoolResource() resource.Resource { return &nodePoolResource{} }

type nodePoolResource struct {
	hubClient
}

// nodePoolState is the whole resource state; the embedded NodePool's fields are
// the configurable spec attributes.
type nodePoolState struct {
	ID      string
	Cluster string
	Name    string
	nodepool.NodePool
	Preview *nodePoolPreviewDoc
	Status  *nodePoolStatusDoc
}

type nodePoolPreviewDoc struct {
	EvaluatedAt string
	Defaults    struct {
		ExpireAfter         string
		ConsolidationPolicy string
		Budgets             []nodepool.Budget
	}
	Nodes struct{ Total, Disrupting int }
	disruptionPreviewDoc
	Expiring []expiryDoc
	Drift    *driftDoc
}

type expiryDoc struct {
	Node, At string
	Overdue  bool
}

type driftDoc struct {
	Drifted, Total int
	Summary        string
	Nodes          []driftedNodeDoc
	Replacement    struct {
		PerPass, Passes    int
		Unlimited, Blocked bool
		StartsAt           string
		Message            string
	}
}

type driftedNodeDoc struct {
	Name    string
	Reasons []string
}

type nodePoolStatusDoc struct {
	Nodes, Ready, Disrupting int
	NodeNames                []string
}

var nodePoolStateAttrs = append([]string{"id", "cluster", "name", "preview", "status"}, nodePoolSpecAttrNames...)

func (r *nodePoolResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_nap_nodepool"
}

func (r *nodePoolResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

func (r *nodePoolResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := resourceAttrs(nodePoolSpecAttrs())
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	attrs["id"] = rschema.StringAttribute{Computed: true, MarkdownDescription: "`<cluster>/<name>`.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	attrs["cluster"] = rschema.StringAttribute{Required: true, PlanModifiers: replace,
		MarkdownDescription: "The member cluster whose Node Auto Provisioning runs the NodePool (on the mock hub: a member name)."}
	attrs["name"] = rschema.StringAttribute{Required: true, PlanModifiers: replace, MarkdownDescription: "NodePool name (a DNS-1123 subdomain, e.g. `default`)."}
	previewAttrs := disruptionPreviewAttrs()
	previewAttrs["evaluated_at"] = computed(kString, "The instant the preview describes: the start of the UTC hour in which it was planned "+
		"(Terraform plans again while applying and needs the same answer, so a plan applied in a later hour must be planned again).")
	previewAttrs["defaults"] = computed(kObject, "The spec with Kubernetes' defaults applied.").with(map[string]attr{
		"expire_after":         computed(kString, "Node lifetime."),
		"consolidation_policy": computed(kString, "Consolidation policy."),
		"budgets":              allComputed(budgetsAttr("Disruption budgets in force.")),
	})
	previewAttrs["nodes"] = computed(kObject, "The pool's current nodes.").with(map[string]attr{
		"total": computed(kInt, "Nodes in the pool."), "disrupting": computed(kInt, "Nodes not Ready or being deleted (they use up the budgets)."),
	})
	previewAttrs["expiring"] = computed(kObjectList, "Existing nodes that expire in the next 7 days (expiry is forceful: budgets do not delay it).").with(map[string]attr{
		"node": computed(kString, "Node name."), "at": computed(kString, "Expiry time (RFC 3339)."), "overdue": computed(kBool, "Already past its expiry."),
	})
	previewAttrs["drift"] = computed(kObject, "What this change does to existing nodes; null when the pool is created or imported.").with(map[string]attr{
		"drifted": computed(kInt, "Nodes that drift and will be replaced."),
		"total":   computed(kInt, "Nodes in the pool."),
		"summary": computed(kString, "One-line explanation."),
		"nodes": computed(kObjectList, "The drifted nodes and why.").with(map[string]attr{
			"name":    computed(kString, "Node name."),
			"reasons": computed(kStringList, "Changed fields (e.g. `template.labels`) or the requirement that excludes the node."),
		}),
		"replacement": computed(kObject, "How replacing the drifted nodes proceeds at the pace the Drifted budgets allow.").with(map[string]attr{
			"per_pass":  computed(kInt, "Nodes replaced at once."),
			"passes":    computed(kInt, "Passes needed."),
			"unlimited": computed(kBool, "No budget limits drift replacement."),
			"blocked":   computed(kBool, "The budgets block drift replacement for the next 7 days."),
			"starts_at": computed(kString, "When replacement can start (RFC 3339)."),
			"message":   computed(kString, "Explanation."),
		}),
	})
	attrs["preview"] = computed(kObject, "Computed at plan when the NodePool is created or its configuration changes (and kept until it "+
		"changes again, so time passing never causes a diff): resolved defaults, allowed disruptions now per reason, a 7-day timeline "+
		"of allowances, nodes expiring within 7 days, and which nodes the change drifts.").with(previewAttrs).resource()
	attrs["status"] = allComputed(attr{kind: kObject, desc: "The pool's live nodes, refreshed on every read."}.with(map[string]attr{
		"nodes":      computed(kInt, "Nodes in the pool."),
		"ready":      computed(kInt, "Ready nodes."),
		"disrupting": computed(kInt, "Nodes not Ready or being deleted."),
		"node_names": computed(kStringList, "Node names, sorted."),
	})).resource()
	resp.Schema = rschema.Schema{
		MarkdownDescription: "A Karpenter `NodePool` (`karpenter.sh/v1`) run by AKS Node Auto Provisioning. Validates what Karpenter and " +
			"AKS would reject — including cron schedules Kubernetes admits but Karpenter then fails on, blocking all disruption — and " +
			"shows at plan when the disruption budgets allow node churn, which nodes expire, and how many nodes a change drifts.",
		Attributes: attrs,
	}
}

func (r *nodePoolResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var s nodePoolState
	unknown, err := decodeAttrs(req.Config.Raw, append([]string{"cluster", "name"}, nodePoolSpecAttrNames...), &s)
	if err != nil {
		addDecodeError(&resp.Diagnostics, err)
		return
	}
	errs := append(nodepool.ValidateIdentity(s.Cluster, s.Name), nodepool.Validate(s.NodePool)...)
	addFieldErrors(&resp.Diagnostics, path.Empty(), "Invalid NodePool", knownOnly(errs, unknown))
}

// previewInstant is when a NodePool preview is evaluated: the start of the
// current UTC hour. Terraform plans a resource again while applying it and
// requires the same result, so the preview cannot depend on the exact time;
// a plan applied in a later hour must be planned again.
func previewInstant(now time.Time) time.Time { return now.UTC().Truncate(time.Hour) }

func (r *nodePoolResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan nodePoolState
	unknown, err := decodeAttrs(req.Plan.Raw, append([]string{"cluster", "name"}, nodePoolSpecAttrNames...), &plan)
	if err != nil {
		addDecodeError(&resp.Diagnostics, err)
		return
	}
	var old *nodePoolState
	if !req.State.Raw.IsNull() {
		var s nodePoolState
		if _, err := decodeAttrs(req.State.Raw, nodePoolStateAttrs, &s); err != nil {
			resp.Diagnostics.AddError("Cannot read the state", err.Error())
			return
		}
		if s.Cluster == plan.Cluster && s.Name == plan.Name { // otherwise the pool is replaced
			addFieldErrors(&resp.Diagnostics, path.Empty(), "Invalid NodePool change", knownOnly(nodepool.ValidateUpdate(s.NodePool, plan.NodePool), unknown))
			if resp.Diagnostics.HasError() {
				return
			}
			if len(unknown) == 0 && reflect.DeepEqual(s.NodePool, plan.NodePool) {
				// Nothing that matters changed: keep the preview of the last change.
				copyFromState(ctx, req.State, &resp.Plan, path.Root("preview"), &resp.Diagnostics)
				return
			}
			old = &s
		}
	}
	if len(unknown) > 0 || r.hub == nil {
		return // the preview depends on values known only after apply: it stays unknown
	}
	live, err := r.hub.NodePoolNodes(ctx, plan.Cluster, plan.Name)
	if errors.Is(err, hub.ErrNotFound) {
		resp.Diagnostics.AddAttributeError(path.Root("cluster"), "Unknown member cluster", "cluster: "+err.Error()+
			". Use the name of a member cluster (data.aks_fleet_member_clusters lists them).")
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the pool's nodes", err.Error())
		return
	}
	for _, w := range nodepool.Warnings(plan.NodePool) {
		p := attributePath(path.Empty(), w.Path)
		resp.Diagnostics.AddAttributeWarning(p, "NodePool: "+firstWords(w.Message), p.String()+": "+w.Message)
	}
	var before *nodepool.NodePool
	if old != nil {
		before = &old.NodePool
	}
	doc := newNodePoolPreviewDoc(before, plan.NodePool, live.Nodes, previewInstant(r.hub.Now()))
	setComputed(ctx, &resp.Plan, resp.Plan.Schema, path.Root("preview"), doc, &resp.Diagnostics)
}

// newNodePoolPreviewDoc is the plan preview of a NodePool change (before is nil on create).
func newNodePoolPreviewDoc(before *nodepool.NodePool, after nodepool.NodePool, nodes []nodepool.Node, now time.Time) nodePoolPreviewDoc {
	np := nodepool.WithDefaults(after)
	var d nodePoolPreviewDoc
	d.EvaluatedAt = now.UTC().Format(time.RFC3339)
	d.Defaults.ExpireAfter = deref(np.Template.ExpireAfter)
	d.Defaults.ConsolidationPolicy = deref(np.Disruption.ConsolidationPolicy)
	d.Defaults.Budgets = np.Disruption.Budgets
	total, disrupting := nodepool.CountNodes(nodes)
	d.Nodes.Total, d.Nodes.Disrupting = total, disrupting
	d.disruptionPreviewDoc = newDisruptionPreviewDoc(np.Disruption.Budgets, total, disrupting, now, previewSpan)
	d.Expiring = []expiryDoc{}
	for _, e := range np.Expiring(nodes, now, previewSpan) {
		d.Expiring = append(d.Expiring, expiryDoc{Node: e.Node.Name, At: e.At.UTC().Format(time.RFC3339), Overdue: e.Overdue})
	}
	if before == nil {
		return d
	}
	dr := nodepool.Drift(*before, after, nodes)
	drift := &driftDoc{Drifted: dr.Drifted, Total: dr.Total, Summary: dr.Summary, Nodes: []driftedNodeDoc{}}
	for _, n := range dr.Nodes {
		if n.Drifted {
			drift.Nodes = append(drift.Nodes, driftedNodeDoc{Name: n.Node.Name, Reasons: n.Reasons})
		}
	}
	rep := nodepool.ReplacementEstimate(dr.Drifted, np.Disruption.Budgets, total, now)
	drift.Replacement.PerPass, drift.Replacement.Passes, drift.Replacement.Unlimited, drift.Replacement.Blocked = rep.PerPass, rep.Passes, rep.Unlimited, rep.Blocked
	drift.Replacement.Message = rep.Message
	if !rep.StartsAt.IsZero() {
		drift.Replacement.StartsAt = rep.StartsAt.UTC().Format(time.RFC3339)
	}
	d.Drift = drift
	return d
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (r *nodePoolResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, req.Plan.Raw, hub.Precondition{IfNoneMatch: true}, &resp.State, &resp.Diagnostics)
}

func (r *nodePoolResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.apply(ctx, req.Plan.Raw, hub.Precondition{}, &resp.State, &resp.Diagnostics)
}

func (r *nodePoolResource) apply(ctx context.Context, planned tftypes.Value, pre hub.Precondition, state *tfsdk.State, diags *diag.Diagnostics) {
	var s nodePoolState
	if _, err := decodeAttrs(planned, append([]string{"cluster", "name"}, nodePoolSpecAttrNames...), &s); err != nil {
		diags.AddError("Cannot read the plan", err.Error())
		return
	}
	np, err := r.hub.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: s.Name}, Cluster: s.Cluster, Spec: s.NodePool}, pre)
	if errors.Is(err, hub.ErrPreconditionFailed) {
		diags.AddAttributeError(path.Root("name"), "NodePool already exists", "NodePool "+s.Name+" already exists on cluster "+s.Cluster+
			". Import it instead: terraform import <address> "+s.Cluster+"/"+s.Name)
		return
	}
	if err != nil {
		diags.AddError("Cannot apply the NodePool", err.Error())
		return
	}
	state.Raw = planned
	diags.Append(state.SetAttribute(ctx, path.Root("id"), s.Cluster+"/"+s.Name)...)
	setComputed(ctx, state, state.Schema, path.Root("status"), newNodePoolStatusDoc(np.Status), diags)
}

func (r *nodePoolResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var prior nodePoolState
	if _, err := decodeAttrs(req.State.Raw, nodePoolStateAttrs, &prior); err != nil {
		resp.Diagnostics.AddError("Cannot read the state", err.Error())
		return
	}
	cluster, name, ok := strings.Cut(prior.ID, "/")
	if !ok || cluster == "" || name == "" {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Invalid NodePool id", "id "+prior.ID+" is not <cluster>/<nodepool>.")
		return
	}
	np, err := r.hub.GetNodePool(ctx, cluster, name)
	if errors.Is(err, hub.ErrNotFound) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the NodePool", err.Error())
		return
	}
	status := newNodePoolStatusDoc(np.Status)
	if prior.Preview == nil { // imported: preview the pool as it is
		pv := newNodePoolPreviewDoc(nil, np.Spec, np.Status.Nodes, previewInstant(r.hub.Now()))
		prior.Preview = &pv
	}
	if !reflect.DeepEqual(prior.NodePool, np.Spec) || prior.Cluster != cluster || prior.Name != name {
		st := nodePoolState{ID: prior.ID, Cluster: cluster, Name: name, NodePool: np.Spec, Preview: prior.Preview, Status: &status}
		v, err := encode(st, req.State.Raw.Type())
		if err != nil {
			resp.Diagnostics.AddError("Cannot record the NodePool", err.Error())
			return
		}
		resp.State.Raw = v
		return
	}
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("preview"), prior.Preview, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("status"), status, &resp.Diagnostics)
}

func (r *nodePoolResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var s nodePoolState
	if _, err := decodeAttrs(req.State.Raw, []string{"cluster", "name"}, &s); err != nil {
		resp.Diagnostics.AddError("Cannot read the state", err.Error())
		return
	}
	if err := r.hub.DeleteNodePool(ctx, s.Cluster, s.Name, hub.Precondition{}); err != nil && !errors.Is(err, hub.ErrNotFound) {
		resp.Diagnostics.AddError("Cannot delete the NodePool", err.Error())
	}
}

func (r *nodePoolResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if c, n, ok := strings.Cut(req.ID, "/"); !ok || c == "" || n == "" || strings.Contains(n, "/") {
		resp.Diagnostics.AddError("Invalid import id", "Import a NodePool as <cluster>/<nodepool>, e.g. aks-east-prod-01/default; got "+req.ID+".")
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

func newNodePoolStatusDoc(s hub.NodePoolStatus) nodePoolStatusDoc {
	d := nodePoolStatusDoc{Nodes: s.Total, Disrupting: s.Disrupting, NodeNames: []string{}}
	for _, n := range s.Nodes {
		if n.Ready {
			d.Ready++
		}
		d.NodeNames = append(d.NodeNames, n.Name)
	}
	sort.Strings(d.NodeNames)
	return d
}
