package provider

import (
	"context"
	"errors"
	"reflect"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

var (
	_ resource.ResourceWithConfigure      = (*placementResource)(nil)
	_ resource.ResourceWithValidateConfig = (*placementResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*placementResource)(nil)
	_ resource.ResourceWithImportState    = (*placementResource)(nil)
)

func newPlacementResource() resource.Resource { return &placementResource{} }

type placementResource struct {
	hubClient
}

// placementState is the whole resource state; the embedded spec's fields are
// the configurable attributes.
type placementState struct {
	ID string
	placement.Spec
	PreviewLimit int
	Preview      *previewDoc
	Status       *placementStatusDoc
}

type placementStatusDoc struct {
	SelectedClusters   []string
	Requested          *int
	Fulfilled          bool
	Message            string
	ObservedGeneration int64
	Decisions          []placement.Decision
	Conditions         []conditionDoc
}

type conditionDoc struct {
	Type, Status, Reason, Message string
	LastTransitionTime            string
}

func (r *placementResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_placement"
}

func (r *placementResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

func (r *placementResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := resourceAttrs(placementSpecAttrs(mOptional))
	attrs["id"] = rschema.StringAttribute{Computed: true, MarkdownDescription: "The placement name.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	attrs["name"] = rschema.StringAttribute{Required: true, MarkdownDescription: "Name of the ClusterResourcePlacement (a DNS-1035 label, at most 63 characters). Changing it replaces the placement.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}}
	attrs["preview_limit"] = rschema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(placement.DefaultPreviewLimit),
		MarkdownDescription: "How many left-out clusters the preview and the status list (default 20, as Fleet's own status).",
		Validators:          []validator.Int64{int64validator.Between(1, 10000)}}
	attrs["preview"] = placementPreviewAttr("What the Fleet scheduler will decide, computed at plan when the placement is created or its " +
		"configuration changes (and kept until the configuration changes again, so time passing or the fleet changing never causes a diff).").resource()
	attrs["status"] = allComputed(attr{kind: kObject, desc: "The hub's actual decisions and conditions, refreshed on every read: when the " +
		"fleet changes, this shows what Fleet does (held clusters stay, PickAll takes new eligible clusters, PickN replaces departed ones)."}.with(map[string]attr{
		"selected_clusters":   computed(kStringList, "The clusters the placement holds, sorted."),
		"requested":           computed(kInt, "Clusters asked for; null for PickAll."),
		"fulfilled":           computed(kBool, "Whether every requested cluster was found."),
		"message":             computed(kString, "Why the placement is not fulfilled; null when it is."),
		"observed_generation": computed(kInt, "The spec generation the decisions were made for."),
		"decisions":           computed(kObjectList, "The selected clusters, then up to `preview_limit` clusters left out.").with(decisionAttrs()),
		"conditions": computed(kObjectList, "Placement conditions.").with(map[string]attr{
			"type": computed(kString, "Condition type."), "status": computed(kString, "`True`, `False` or `Unknown`."),
			"reason": computed(kString, "Machine-readable reason."), "message": computed(kString, "Human-readable message."),
			"last_transition_time": computed(kString, "When the status last changed (RFC 3339)."),
		}),
	})).resource()
	resp.Schema = rschema.Schema{
		MarkdownDescription: "A Fleet `ClusterResourcePlacement`: which member clusters get a set of hub resources. `terraform plan` " +
			"shows the Fleet scheduler's decisions before anything is applied — every selected cluster and the best clusters left " +
			"out, with their affinity and topology spread scores and the reason for each — and warns when a policy cannot be " +
			"fulfilled or selects on a property no cluster has.",
		Attributes: attrs,
	}
}

func (r *placementResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var spec placement.Spec
	unknown, err := decodeAttrs(req.Config.Raw, placementSpecAttrNames, &spec)
	if err != nil {
		addDecodeError(&resp.Diagnostics, err)
		return
	}
	addFieldErrors(&resp.Diagnostics, path.Empty(), "Invalid placement", knownOnly(placement.Validate(spec), unknown))
}

// decodePlacementState reads a whole state value.
func decodePlacementState(v tftypes.Value) (placementState, error) {
	var s placementState
	_, err := decodeAttrs(v, append([]string{"id", "preview_limit", "preview", "status"}, placementSpecAttrNames...), &s)
	return s, err
}

func (r *placementResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan struct {
		placement.Spec
		PreviewLimit int
	}
	unknown, err := decodeAttrs(req.Plan.Raw, append([]string{"preview_limit"}, placementSpecAttrNames...), &plan)
	if err != nil {
		addDecodeError(&resp.Diagnostics, err)
		return
	}
	var held []string
	var opts placement.ScheduleOptions
	if !req.State.Raw.IsNull() && !unknown["name"] {
		old, err := decodePlacementState(req.State.Raw)
		if err != nil {
			resp.Diagnostics.AddError("Cannot read the state", err.Error())
			return
		}
		// A new name or a new placement type replaces the placement: nothing is
		// held and no update rule applies.
		if old.Name == plan.Name {
			if r.placementTypeChanges(ctx, req, old.Spec, &resp.Diagnostics) {
				resp.RequiresReplace = append(resp.RequiresReplace, path.Root("policy").AtName("placement_type"))
			} else {
				addFieldErrors(&resp.Diagnostics, path.Empty(), "Invalid placement change", knownOnly(placement.ValidateUpdate(old.Spec, plan.Spec), unknown))
				if resp.Diagnostics.HasError() {
					return
				}
				if len(unknown) == 0 && reflect.DeepEqual(old.Spec, plan.Spec) && old.PreviewLimit == plan.PreviewLimit {
					// Nothing that matters changed (say `strategy = {}` was added): keep the preview of the last change.
					copyFromState(ctx, req.State, &resp.Plan, path.Root("preview"), &resp.Diagnostics)
					return
				}
				if old.Status != nil {
					held = old.Status.SelectedClusters
				}
				opts.Prev = &old.Spec
			}
		}
	}
	if len(unknown) > 0 || r.hub == nil {
		return // the preview depends on values known only after apply: it stays unknown
	}
	f, err := r.hub.Fleet(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the fleet", err.Error())
		return
	}
	now := r.hub.Now()
	res, err := placement.Schedule(plan.Spec, f, held, now, opts)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("policy"), "Cannot schedule the placement", err.Error())
		return
	}
	for _, w := range placement.Warnings(plan.Spec, f, res, now) {
		p := attributePath(path.Empty(), w.Path)
		resp.Diagnostics.AddAttributeWarning(p, "Placement: "+firstWords(w.Message), p.String()+": "+w.Message)
	}
	setComputed(ctx, &resp.Plan, resp.Plan.Schema, path.Root("preview"), newPreviewDoc(plan.Spec, res, plan.PreviewLimit), &resp.Diagnostics)
}

// placementTypeChanges reports whether the planned placement type differs
// from the old one (defaults applied); an unknown planned type counts as a change.
func (r *placementResource) placementTypeChanges(ctx context.Context, req resource.ModifyPlanRequest, old placement.Spec, diags *diag.Diagnostics) bool {
	var planned types.String
	diags.Append(req.Plan.GetAttribute(ctx, path.Root("policy").AtName("placement_type"), &planned)...)
	if planned.IsUnknown() {
		return true
	}
	newType := placement.WithDefaults(placement.Spec{Policy: placement.Policy{PlacementType: planned.ValueString()}}).Policy.PlacementType
	return placement.WithDefaults(old).Policy.PlacementType != newType
}

// firstWords shortens a message for a diagnostic summary.
func firstWords(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	for i := max; i > 0; i-- {
		if s[i] == ' ' {
			return s[:i] + " …"
		}
	}
	return s[:max] + " …"
}

func (r *placementResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, req.Plan.Raw, hub.Precondition{IfNoneMatch: true}, &resp.State, &resp.Diagnostics)
}

func (r *placementResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.apply(ctx, req.Plan.Raw, hub.Precondition{}, &resp.State, &resp.Diagnostics)
}

// apply sends the planned spec to the hub and records the hub's decisions.
func (r *placementResource) apply(ctx context.Context, planned tftypes.Value, pre hub.Precondition, state *tfsdk.State, diags *diag.Diagnostics) {
	var s placementState
	if _, err := decodeAttrs(planned, append([]string{"preview_limit"}, placementSpecAttrNames...), &s); err != nil {
		diags.AddError("Cannot read the plan", err.Error())
		return
	}
	p, err := r.hub.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: s.Name}, Spec: s.Spec}, pre)
	if errors.Is(err, hub.ErrPreconditionFailed) {
		diags.AddAttributeError(path.Root("name"), "Placement already exists",
			"A placement named "+s.Name+" already exists on the hub. Import it instead: terraform import <address> "+s.Name)
		return
	}
	if err != nil {
		diags.AddError("Cannot apply the placement", err.Error())
		return
	}
	state.Raw = planned
	diags.Append(state.SetAttribute(ctx, path.Root("id"), p.Name)...)
	setComputed(ctx, state, state.Schema, path.Root("status"), newPlacementStatusDoc(p, s.PreviewLimit), diags)
}

func (r *placementResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	prior, err := decodePlacementState(req.State.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the state", err.Error())
		return
	}
	p, err := r.hub.GetPlacement(ctx, prior.ID)
	if errors.Is(err, hub.ErrNotFound) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the placement", err.Error())
		return
	}
	if prior.PreviewLimit == 0 {
		prior.PreviewLimit = placement.DefaultPreviewLimit
	}
	status := newPlacementStatusDoc(p, prior.PreviewLimit)
	if prior.Preview == nil { // imported: preview the decisions the hub holds
		res := placement.Result{Decisions: p.Status.Decisions, Selected: p.Status.Selected, Requested: p.Status.Requested,
			Fulfilled: p.Status.Fulfilled, UnfulfilledMessage: p.Status.Message}
		pv := newPreviewDoc(p.Spec, res, prior.PreviewLimit)
		prior.Preview = &pv
	}
	if !reflect.DeepEqual(prior.Spec, p.Spec) { // imported, or changed outside Terraform
		st := placementState{ID: p.Name, Spec: p.Spec, PreviewLimit: prior.PreviewLimit, Preview: prior.Preview, Status: &status}
		v, err := encode(st, req.State.Raw.Type())
		if err != nil {
			resp.Diagnostics.AddError("Cannot record the placement", err.Error())
			return
		}
		resp.State.Raw = v
		return
	}
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("preview"), prior.Preview, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("status"), status, &resp.Diagnostics)
}

func (r *placementResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	s, err := decodePlacementState(req.State.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the state", err.Error())
		return
	}
	if err := r.hub.DeletePlacement(ctx, s.ID, hub.Precondition{}); err != nil && !errors.Is(err, hub.ErrNotFound) {
		resp.Diagnostics.AddError("Cannot delete the placement", err.Error())
	}
}

func (r *placementResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

func newPlacementStatusDoc(p *hub.Placement, limit int) placementStatusDoc {
	s := p.Status
	d := placementStatusDoc{SelectedClusters: append([]string{}, s.Selected...), Fulfilled: s.Fulfilled, Message: s.Message, ObservedGeneration: s.ObservedGeneration}
	if s.Requested >= 0 {
		req := s.Requested
		d.Requested = &req
	}
	pv := placement.Preview(placement.Result{Decisions: s.Decisions}, limit)
	d.Decisions = append(append([]placement.Decision{}, pv.Selected...), pv.LeftOut...)
	for _, c := range s.Conditions {
		d.Conditions = append(d.Conditions, conditionDoc{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message,
			LastTransitionTime: c.LastTransitionTime.UTC().Format(time.RFC3339)})
	}
	return d
}
