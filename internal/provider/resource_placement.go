package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

var (
	_ resource.ResourceWithConfigure      = (*placementResource)(nil)
	_ resource.ResourceWithValidateConfig = (*placementResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*placementResource)(nil)
	_ resource.ResourceWithImportState    = (*placementResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*placementResource)(nil)
)

const placementType = "aks_fleet_placement"

func newPlacementResource() resource.Resource { return &placementResource{} }

type placementResource struct {
	hubClient
}

// placementModel is the whole resource state; the embedded spec's fields are
// the configurable attributes.
type placementModel struct {
	ID string `json:"id"`
	placement.Spec
	PreviewLimit    int                 `json:"preview_limit"`
	ReviewedPreview string              `json:"reviewed_preview"`
	WaitForRollout  *bool               `json:"wait_for_rollout"`
	Timeouts        *runTimeouts        `json:"timeouts"`
	Status          *placementStatusDoc `json:"status"`
}

func (placementResource) model() any { return &placementModel{} }

// placements is the placement's lifecycle (kind). Its status document
// depends on the model's preview_limit, so the resource records it itself.
var placements = &kind[placementModel, hub.Placement, placement.Spec]{
	typ:      placementType,
	id:       func(m *placementModel) string { return m.ID },
	name:     func(m *placementModel) string { return m.Name },
	spec:     func(m *placementModel) placement.Spec { return m.Spec },
	defaults: placement.WithDefaults,
	get: func(ctx context.Context, h hub.Hub, id string) (*hub.Placement, error) {
		return h.GetPlacement(ctx, id)
	},
	del: func(ctx context.Context, h hub.Hub, id string, pre hub.Precondition) error {
		return h.DeletePlacement(ctx, id, pre)
	},
	parts: func(p *hub.Placement) (hub.Meta, placement.Spec, *placement.Spec) { return p.Meta, p.Spec, p.Written },
}

// placementStatusDoc is what the hub holds, bounded (designs/previews.md §6):
// counts, not the clusters, which the aks_fleet_placement data source lists.
type placementStatusDoc struct {
	Selected           int            `json:"selected"`
	Requested          *int           `json:"requested"`
	Fulfilled          bool           `json:"fulfilled"`
	Message            string         `json:"message"`
	ObservedGeneration int64          `json:"observed_generation"`
	Conditions         []conditionDoc `json:"conditions"`
	// The rollout of the selected resources (designs/placement.md §10, §11).
	SelectedResources    int                 `json:"selected_resource_count"`
	ResourceIndex        *int                `json:"resource_index"`
	ClustersAvailable    int                 `json:"clusters_available"`
	Rollout              *string             `json:"rollout"`
	ClustersNotAvailable []clusterRolloutDoc `json:"clusters_not_available"`
}

// clusterRolloutDoc is a selected cluster that does not have the latest
// resources applied and available: where it stopped and why.
type clusterRolloutDoc struct {
	Cluster          string   `json:"cluster"`
	Condition        string   `json:"condition"`
	Status           string   `json:"status"`
	Reason           string   `json:"reason"`
	Message          string   `json:"message"`
	FailedPlacements []string `json:"failed_placements"`
}

type conditionDoc struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	Message            string `json:"message"`
	LastTransitionTime string `json:"last_transition_time"`
}

func (r *placementResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_placement"
}

func (r *placementResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

func (r *placementResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := placementSpecAttrs()
	attrs["name"] = rschema.StringAttribute{Required: true, MarkdownDescription: attrs["name"].GetMarkdownDescription(),
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}}
	attrs["id"] = rschema.StringAttribute{Computed: true, MarkdownDescription: "The placement name.",
		PlanModifiers: []planmodifier.String{idOfName("name")}}
	attrs["preview_limit"] = rschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true, Computed: true, Default: int64default.StaticInt64(placement.DefaultPreviewLimit),
		MarkdownDescription: fmt.Sprintf("How many clusters the plan's preview lists, 1 to %d (default 20, as many unselected "+
			"clusters as Fleet's own status keeps): the selected ones, then the best left out, then counts.", maxPreviewLimit),
		Validators: []validator.Int64{int64validator.Between(1, maxPreviewLimit)}}
	attrs["reviewed_preview"] = reviewedPreviewAttr(reviewPlacement, "Fleet would select other clusters than reviewed")
	attrs["status"] = rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: "What the hub holds, after apply and on " +
		"every read: when the fleet changes, this shows what Fleet does (held clusters stay, PickAll takes new eligible " +
		"clusters, PickN replaces departed ones). Counts only, so that a plan stays readable on any fleet: the " +
		"`aks_fleet_placement` data source lists every cluster with the score it was picked with.",
		Attributes: map[string]rschema.Attribute{
			"selected":            rschema.Int64Attribute{Computed: true, MarkdownDescription: "How many clusters the placement holds."},
			"requested":           rschema.Int64Attribute{Computed: true, MarkdownDescription: "Clusters asked for; null for PickAll."},
			"fulfilled":           rschema.BoolAttribute{Computed: true, MarkdownDescription: "Whether every requested cluster was found."},
			"message":             rschema.StringAttribute{Computed: true, MarkdownDescription: "Why the placement is not fulfilled; null when it is."},
			"observed_generation": rschema.Int64Attribute{Computed: true, MarkdownDescription: "The spec generation the decisions were made for."},
			"conditions":          outcomeConditionsAttr(),
			"selected_resource_count": rschema.Int64Attribute{Computed: true, MarkdownDescription: "How many resources the placement " +
				"selected on the hub cluster; the `aks_fleet_placement` data source lists them."},
			"resource_index": rschema.Int64Attribute{Computed: true, MarkdownDescription: "The index of the latest resource " +
				"snapshot: Fleet takes a new one, and rolls it out, whenever the selected resources or their content change."},
			"clusters_available": rschema.Int64Attribute{Computed: true, MarkdownDescription: "How many selected clusters " +
				"have the latest resources applied and available."},
			"rollout": rschema.StringAttribute{Computed: true, MarkdownDescription: "Where the rollout of the latest " +
				"resources stands when it is not done: the next batch and when, blocked by failed clusters, or waiting for an " +
				"external rollout; null when every cluster has them."},
			"clusters_not_available": rschema.ListNestedAttribute{Computed: true, MarkdownDescription: "The selected clusters " +
				"without the latest resources applied and available (at most `preview_limit`), each with the condition it " +
				"stopped at as Fleet reports it and the resources that failed.",
				NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"cluster":   rschema.StringAttribute{Computed: true, MarkdownDescription: "The member cluster."},
					"condition": rschema.StringAttribute{Computed: true, MarkdownDescription: "The last condition Fleet reports for it (`RolloutStarted`, `Applied`, …)."},
					"status":    rschema.StringAttribute{Computed: true, MarkdownDescription: "`True`, `False` or `Unknown`."},
					"reason":    rschema.StringAttribute{Computed: true, MarkdownDescription: "Fleet's reason, e.g. `RolloutNotStartedYet`."},
					"message":   rschema.StringAttribute{Computed: true, MarkdownDescription: "Fleet's message."},
					"failed_placements": rschema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The " +
						"resources the cluster failed to apply, each with why (at most 5, then how many more)."},
				}}},
		},
	}
	attrs["wait_for_rollout"] = rschema.BoolAttribute{Optional: true, MarkdownDescription: "Whether apply waits until every " +
		"selected cluster has the placement's latest resources applied and available, as Fleet reports them (default `false`). " +
		"A cluster that fails to apply them fails the apply at once, naming the cluster, the resources and why; a rollout " +
		"still going when `timeouts` pass fails it naming the clusters not done and where each stands."}
	attrs, blocks := configBlocks(attrs)
	blocks["timeouts"] = waitTimeoutsBlock(ctx, "the rollout", "wait_for_rollout")
	resp.Schema = rschema.Schema{
		// Version 3: configurable structures are blocks (designs/schema.md
		// §1); version 2 had no preview attribute and a status of counts
		// (designs/previews.md §7); version 1 had the preview one line per
		// cluster. A change of the state's shape bumps it, freezes the prior
		// schema (TestFreezeSchemas) and adds an upgrader from every earlier
		// version to UpgradeState.
		Version: 3,
		MarkdownDescription: "A Fleet `ClusterResourcePlacement`: which member clusters get a set of hub resources. `terraform plan` " +
			"shows the Fleet scheduler's decisions before anything is applied — the selected clusters and the best clusters left " +
			"out, with their affinity and topology spread scores and the reason for each; on a change, the clusters it adds and " +
			"releases — and warns when a policy cannot be fulfilled or selects on a property no cluster has. With " +
			"`reviewed_preview`, apply refuses to select other clusters than the plan showed.",
		Attributes: attrs,
		Blocks:     blocks,
	}
}

// outcomeConditionsAttr is the resource status's conditions (outcomeConditions).
func outcomeConditionsAttr() rschema.ListNestedAttribute {
	a := conditionsAttr()
	a.MarkdownDescription = "The placement's `ClusterResourcePlacementScheduled` condition, then the last condition Fleet " +
		"reports after it: the one its rollout stopped at (`…RolloutStarted`, `…Applied`, …), or " +
		"`ClusterResourcePlacementAvailable` when every cluster has the resources. The `aks_fleet_placement` data source " +
		"lists them all, and every cluster's."
	return a
}

// conditionsAttr is a placement's conditions (resource status and data source).
func conditionsAttr() rschema.ListNestedAttribute {
	return rschema.ListNestedAttribute{Computed: true, MarkdownDescription: "Placement conditions, in the order Fleet sets them: " +
		"`ClusterResourcePlacementScheduled`, then its rollout's (`RolloutStarted`, `Overridden`, `WorkSynchronized`, `Applied`, " +
		"`Available`, each prefixed `ClusterResourcePlacement`), up to the first that is not `True`.",
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"type":                 rschema.StringAttribute{Computed: true, MarkdownDescription: "Condition type."},
			"status":               rschema.StringAttribute{Computed: true, MarkdownDescription: "`True`, `False` or `Unknown`."},
			"reason":               rschema.StringAttribute{Computed: true, MarkdownDescription: "Machine-readable reason."},
			"message":              rschema.StringAttribute{Computed: true, MarkdownDescription: "Human-readable message."},
			"last_transition_time": rschema.StringAttribute{Computed: true, MarkdownDescription: "When the status last changed (RFC 3339)."},
		}},
	}
}

// placementTypeChanges is the replacement rule of a placement: Fleet does not
// change a placement's type in place (designs/placement.md §2). Defaults
// apply (unset is PickAll).
func placementTypeChanges(old, planned placement.Policy) bool {
	return placement.WithDefaults(placement.Spec{Policy: old}).Policy.PlacementType !=
		placement.WithDefaults(placement.Spec{Policy: planned}).Policy.PlacementType
}

// requiresReplaceOnPlacementType is the policy attribute's plan modifier.
func requiresReplaceOnPlacementType(ctx context.Context, req planmodifier.ObjectRequest, resp *objectplanmodifier.RequiresReplaceIfFuncResponse) {
	var old, planned placement.Policy
	sv, err1 := req.StateValue.ToTerraformValue(ctx)
	pv, err2 := req.PlanValue.ToTerraformValue(ctx)
	if err := errors.Join(err1, err2); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Cannot read the policy", err.Error())
		return
	}
	if _, ok := readValue(sv, &old, &resp.Diagnostics); !ok {
		return
	}
	unknown, ok := readValue(pv, &planned, &resp.Diagnostics)
	if !ok {
		return
	}
	// An unknown placement type may change it.
	resp.RequiresReplace = unknown.covers(field.Root("placement_type")) || placementTypeChanges(old, planned)
}

func (r *placementResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m placementModel
	unknown, ok := readConfig(req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	reportErrors(&resp.Diagnostics, "Invalid placement", placement.Validate(m.Spec), unknown)
}

func (r *placementResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		placements.planDestroy(ctx, r.hub, req, resp)
		return
	}
	var plan placementModel
	unknown, ok := readPlan(req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	if placements.refuseTaken(ctx, req, r.hub, &plan, unknown.covers(field.Root("name")), &resp.Diagnostics) {
		return
	}
	var prior *placementModel
	if !req.State.Raw.IsNull() {
		prior = &placementModel{}
		if _, ok := readValue(req.State.Raw, prior, &resp.Diagnostics); !ok {
			return
		}
		// A new name or a new placement type replaces the placement (the
		// schema's plan modifiers say so): nothing is held, no update rule applies.
		if unknown.covers(field.Root("name")) || prior.Name != plan.Name ||
			unknown.covers(field.Root("policy").Child("placement_type")) || placementTypeChanges(prior.Policy, plan.Policy) {
			prior = nil
		} else {
			reportErrors(&resp.Diagnostics, "Invalid placement change", placement.ValidateUpdate(prior.Spec, plan.Spec), unknown)
			if resp.Diagnostics.HasError() {
				return
			}
			if len(unknown) == 0 && sameSpec(prior.Spec, plan.Spec, placement.WithDefaults) {
				return // nothing to preview: the hub already holds this spec
			}
		}
		// The status is the hub's after the write: unknown as a whole, so
		// that the plan prints one line for it, not each condition it had.
		wholeUnknown(ctx, &resp.Plan, path.Root("status"), &resp.Diagnostics)
	}
	obj := objectRef{placementType, plan.Name}
	if unknown.covers(field.Root("reviewed_preview")) {
		reviewUnknown(&resp.Diagnostics, reviewPlacement, obj)
	}
	if len(unknown) > 0 || r.hub == nil {
		return // the preview depends on values known only at apply: apply previews it
	}
	var target placementTarget
	if prior != nil { // a change of the placement the hub holds
		target.name = plan.Name
	}
	pv, ok := previewPlacement(ctx, r.hub, plan.Spec, target, &resp.Diagnostics)
	if !ok {
		return
	}
	reportWarnings(&resp.Diagnostics, "Placement", pv.warnings)
	if plan.WaitForRollout != nil && *plan.WaitForRollout && placement.WithDefaults(plan.Spec).Strategy.Type == placement.ExternalStrategy {
		resp.Diagnostics.AddAttributeWarning(path.Root("wait_for_rollout"), "Placement: apply waits for an external rollout",
			"wait_for_rollout: with strategy External, Fleet rolls nothing out until an external rollout (a staged update run) "+
				"does, so apply waits until it does or timeouts pass. Leave wait_for_rollout out, or use RollingUpdate.")
	}
	reportPreview(&resp.Diagnostics, obj, pv.report(plan.PreviewLimit))
	g := guard{kind: reviewPlacement, token: plan.ReviewedPreview, obj: obj}
	check(g, &resp.Diagnostics, "policy", placementReviewSpec(plan.Spec), pv.at, pv.expectation(), placement.Expectation.Differences)
}

func (r *placementResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, opCreate, req.Plan, createGuard, &resp.State, resp.Private, &resp.Diagnostics)
}

func (r *placementResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var prior placementModel
	if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
		return
	}
	var m placementModel
	if _, ok := readValue(req.Plan.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	if sameSpec(prior.Spec, m.Spec, placement.WithDefaults) { // preview_limit, reviewed_preview, waiting only: nothing to write
		p, err := r.hub.GetPlacement(ctx, prior.ID)
		if err != nil {
			hubError(&resp.Diagnostics, opUpdate, objectRef{placementType, prior.ID}, err)
			return
		}
		p = r.await(ctx, m, p, "update", &resp.Diagnostics)
		r.record(ctx, req.Plan, m.PreviewLimit, p, &resp.State, resp.Private, &resp.Diagnostics)
		return
	}
	r.apply(ctx, opUpdate, req.Plan, placements.updateGuard(ctx, r.hub, req.Private, &prior, &resp.Diagnostics), &resp.State, resp.Private, &resp.Diagnostics)
}

// apply sends the planned spec to the hub (a create must not find the
// placement; an update must find the version last read) and records the
// hub's decisions.
func (r *placementResource) apply(ctx context.Context, op string, plan tfsdk.Plan, guarded writeGuard,
	state *tfsdk.State, private privateSetter, diags *diag.Diagnostics) {
	var m placementModel
	if _, ok := readValue(plan.Raw, &m, diags); !ok || diags.HasError() {
		return
	}
	p, ok := placements.write(op, &m, guarded, func(pre hub.Precondition) (*hub.Placement, error) {
		return r.hub.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: m.Name}, Spec: m.Spec}, pre)
	}, diags)
	if !ok {
		return
	}
	timeout := "update"
	if op == opCreate {
		timeout = "create"
	}
	p = r.await(ctx, m, p, timeout, diags)
	r.record(ctx, plan, m.PreviewLimit, p, state, private, diags)
}

// await waits, with wait_for_rollout, until the placement p's rollout is
// done (placement.RolloutDone): every selected cluster has the latest
// resources applied and available. A cluster that fails to apply them is
// an error at once; so is the timeout, and a hub clock that does not move
// while the rollout waits on it is a warning. It returns the placement as
// last read (p, on an error).
func (r *placementResource) await(ctx context.Context, m placementModel, p *hub.Placement, op string, diags *diag.Diagnostics) *hub.Placement {
	if m.WaitForRollout == nil || !*m.WaitForRollout || p == nil {
		return p
	}
	timeout := timeoutOf(m.Timeouts, op)
	deadline := time.Now().Add(timeout)
	pace := newHubPacer(r.hub)
	for {
		done, failed, pending := placement.RolloutDone(p.Status.Clusters)
		if len(p.Status.Selected) > len(p.Status.Clusters) { // a hub that has not reported every cluster yet
			done = false
		}
		if len(failed) > 0 {
			diags.AddAttributeError(path.Root("wait_for_rollout"), "Placement rollout failed",
				fmt.Sprintf("%s %s: %s failed to apply the placement's resources:\n%s\nFix what the messages say on the clusters (or the "+
					"resources on the hub cluster): Fleet's member agents keep applying them, and the status shows when they did.", placementType, p.Name,
					clusters(len(failed)), strings.Join(failed, "\n")))
			return p
		}
		if done {
			return p
		}
		tflog.Info(ctx, "waiting for placement rollout", map[string]any{"placement": p.Name, "clusters_pending": len(pending),
			"rollout": p.Status.Rollout})
		if time.Now().After(deadline) {
			next := "It goes on: refresh to follow it, or raise timeouts."
			if placement.WithDefaults(p.Spec).Strategy.Type == placement.ExternalStrategy {
				next = "With strategy External nothing rolls out until an external rollout does."
			}
			diags.AddAttributeError(path.Root("wait_for_rollout"), "Placement rollout still in progress",
				fmt.Sprintf("%s %s: after %s, %s without the latest resources available:\n%s\n%s. %s",
					placementType, p.Name, timeout, clusters(len(pending)), strings.Join(pending, "\n"), p.Status.Rollout, next))
			return p
		}
		stalled, err := pace.next(ctx)
		if err != nil {
			diags.AddError("Stopped waiting for the placement rollout", err.Error())
			return p
		}
		if stalled {
			diags.AddWarning("The hub's clock does not move", fmt.Sprintf("%s %s: %s cannot progress while the hub's clock is "+
				"fixed: apply stops waiting. Use a real or scaled mock clock to watch a rollout progress.", placementType, p.Name, p.Status.Rollout))
			return p
		}
		next, err := r.hub.GetPlacement(hub.FreshReads(ctx), p.Name) // what Fleet did since, not a listing of the process
		if err != nil {
			hubError(diags, opRead, objectRef{placementType, p.Name}, err)
			return p
		}
		p = next
	}
}

// record stores the planned value with the hub's id and status, and the
// placement's version in private state.
func (r *placementResource) record(ctx context.Context, plan tfsdk.Plan, limit int, p *hub.Placement, state *tfsdk.State, private privateSetter, diags *diag.Diagnostics) {
	placements.record(ctx, plan.Raw, p.Name, p, state, private, diags)
	setComputed(ctx, state, state.Schema, path.Root("status"), newPlacementStatusDoc(p, limit), diags)
	for _, c := range p.Status.Conditions {
		if c.Type == placement.CondScheduled && c.Reason == placement.ReasonInvalidResourceSelectors {
			// The hub's resources changed since plan: Fleet refuses what the plan admitted.
			diags.AddAttributeWarning(path.Root("resource_selectors"), "Fleet refuses the resource selectors now",
				fmt.Sprintf("%s %s: %s. Fleet keeps the placement and rolls nothing out until the selectors or the hub cluster's "+
					"resources change; the next plan says what to fix.", placementType, p.Name, c.Message))
		}
	}
}

func (r *placementResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	prior, p, ok := placements.read(ctx, r.hub, req, resp)
	if !ok {
		return
	}
	m := prior
	m.ID = p.Name
	var adopted bool
	m.Spec, adopted = placements.adopt(ctx, req.Private, resp.Private, prior.Spec, p, &resp.Diagnostics) // imported, or changed outside Terraform
	if m.PreviewLimit == 0 {                                                                             // imported
		m.PreviewLimit, adopted = placement.DefaultPreviewLimit, true
	}
	m.ReviewedPreview = settle(&resp.Diagnostics, m.ReviewedPreview, reviewPlacement, objectRef{placementType, m.Name}, placementReviewSpec(m.Spec), func() (any, bool) {
		return placement.Expect(placement.Result{Selected: p.Status.Selected}), true
	})
	status := newPlacementStatusDoc(p, m.PreviewLimit)
	m.Status = &status
	recordRead(ctx, &resp.State, m, adopted, &resp.Diagnostics)
}

func (r *placementResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	placements.delete(ctx, r.hub, req, resp)
}

func (r *placementResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	markImported(ctx, resp.Private, &resp.Diagnostics)
}

// newPlacementStatusDoc is the resource's bounded status of a placement:
// at most limit clusters not available are listed.
func newPlacementStatusDoc(p *hub.Placement, limit int) placementStatusDoc {
	s := p.Status
	d := placementStatusDoc{Selected: len(s.Selected), Fulfilled: s.Fulfilled, Message: s.Message, ObservedGeneration: s.ObservedGeneration,
		Conditions: newConditionDocs(outcomeConditions(s.Conditions)), SelectedResources: len(s.SelectedResources)}
	if s.Requested >= 0 {
		req := s.Requested
		d.Requested = &req
	}
	d.ResourceIndex, d.Rollout = rolloutOf(s)
	for _, cs := range s.Clusters {
		last := placement.Condition{Type: placement.ClusterRolloutStarted, Status: placement.StatusUnknown}
		if len(cs.Conditions) > 0 {
			last = cs.Conditions[len(cs.Conditions)-1]
		}
		if last.Type == placement.ClusterAvailable && last.Status == placement.StatusTrue {
			d.ClustersAvailable++
			continue
		}
		if limit > 0 && len(d.ClustersNotAvailable) >= limit {
			continue
		}
		c := clusterRolloutDoc{Cluster: cs.Cluster, Condition: last.Type, Status: last.Status, Reason: last.Reason, Message: last.Message}
		for i, f := range cs.FailedPlacements {
			if i == maxFailedListed {
				c.FailedPlacements = append(c.FailedPlacements, fmt.Sprintf("and %d more", len(cs.FailedPlacements)-i))
				break
			}
			c.FailedPlacements = append(c.FailedPlacements, failedLine(f))
		}
		d.ClustersNotAvailable = append(d.ClustersNotAvailable, c)
	}
	return d
}

// rolloutOf is where a placement's rollout stands: the latest resource
// snapshot's index (nil before it selected anything) and the rollout's
// line (nil when done).
func rolloutOf(s hub.PlacementStatus) (index *int, rollout *string) {
	if len(s.Clusters) > 0 || len(s.SelectedResources) > 0 {
		i := s.ResourceIndex
		index = &i
	}
	if s.Rollout != "" {
		r := s.Rollout
		rollout = &r
	}
	return index, rollout
}

// outcomeConditions are the placement's Scheduled condition and the last
// one Fleet reports after it: where its rollout stopped, or Available when
// it is done — what a plan that changes the placement prints as going away
// (designs/previews.md §6); the aks_fleet_placement data source has all.
func outcomeConditions(cs []hub.Condition) []hub.Condition {
	if len(cs) <= 2 {
		return cs
	}
	return []hub.Condition{cs[0], cs[len(cs)-1]}
}

// failedLine is a failed resource as a line: the resource (with the
// envelope that carries it) and why.
func failedLine(f placement.FailedPlacement) string {
	line := f.ResourceID.String()
	if f.Envelope != "" {
		line += " (in envelope " + f.Envelope + ")"
	}
	return line + ": " + f.Condition.Message
}

// maxFailedListed bounds the failed resources the status lists per cluster.
const maxFailedListed = 5

func newConditionDocs(cs []hub.Condition) []conditionDoc {
	var out []conditionDoc
	for _, c := range cs {
		out = append(out, conditionDoc{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message,
			LastTransitionTime: c.LastTransitionTime.UTC().Format(time.RFC3339)})
	}
	return out
}
