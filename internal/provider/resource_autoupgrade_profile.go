package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

var (
	_ resource.ResourceWithConfigure      = (*autoUpgradeProfileResource)(nil)
	_ resource.ResourceWithValidateConfig = (*autoUpgradeProfileResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*autoUpgradeProfileResource)(nil)
	_ resource.ResourceWithImportState    = (*autoUpgradeProfileResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*autoUpgradeProfileResource)(nil)
)

// UpgradeState: version 0 held a preview (designs/previews.md §7).
func (r *autoUpgradeProfileResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return upgraders("auto-upgrade profile", []int64{0}, dropPreview)
}

const autoUpgradeProfileType = "aks_fleet_autoupgrade_profile"

func newAutoUpgradeProfileResource() resource.Resource { return &autoUpgradeProfileResource{} }

// autoUpgradeProfileResource is a Fleet Manager auto-upgrade profile
// (designs/updates.md §5): what its channel resolves to and what the run it
// triggers would do, previewed at plan; runs generated on demand.
type autoUpgradeProfileResource struct {
	hubClient
}

// autoUpgradeProfileModel is the whole resource state; the embedded profile
// is the configurable spec.
type autoUpgradeProfileModel struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	update.ProfileSpec
	GenerateRunTrigger string            `json:"generate_run_trigger"`
	GeneratedRunID     string            `json:"generated_run_id"`
	ReviewedPreview    string            `json:"reviewed_preview"`
	Status             *profileStatusDoc `json:"status"`
}

func (autoUpgradeProfileResource) model() any { return &autoUpgradeProfileModel{} }

// profiles is the auto-upgrade profile's lifecycle (kind).
var profiles = &kind[autoUpgradeProfileModel, hub.AutoUpgradeProfile, update.ProfileSpec]{
	typ:      autoUpgradeProfileType,
	id:       func(m *autoUpgradeProfileModel) string { return m.ID },
	name:     func(m *autoUpgradeProfileModel) string { return m.Name },
	spec:     func(m *autoUpgradeProfileModel) update.ProfileSpec { return m.ProfileSpec },
	defaults: update.ProfileWithDefaults,
	get: func(ctx context.Context, h hub.Hub, id string) (*hub.AutoUpgradeProfile, error) {
		return h.GetAutoUpgradeProfile(ctx, id)
	},
	del: func(ctx context.Context, h hub.Hub, id string, pre hub.Precondition) error {
		return h.DeleteAutoUpgradeProfile(ctx, id, pre)
	},
	parts: func(p *hub.AutoUpgradeProfile) (hub.Meta, update.ProfileSpec, *update.ProfileSpec) {
		return p.Meta, p.Spec, p.Written
	},
}

// profileStatusDoc is the profile's trigger history as the hub reports it.
type profileStatusDoc struct {
	LastTriggeredAt            string   `json:"last_triggered_at"`
	LastTriggerStatus          string   `json:"last_trigger_status"`
	LastTriggerError           string   `json:"last_trigger_error"`
	LastTriggerUpgradeVersions []string `json:"last_trigger_upgrade_versions"`
	LastRun                    string   `json:"last_run"`
	Runs                       []string `json:"runs"`
}

func newProfileStatusDoc(s update.ProfileStatus) *profileStatusDoc {
	return &profileStatusDoc{LastTriggeredAt: rfc3339(s.LastTriggeredAt), LastTriggerStatus: s.LastTriggerStatus,
		LastTriggerError: s.LastTriggerError, LastTriggerUpgradeVersions: s.LastTriggerUpgradeVersions, LastRun: s.LastRun,
		Runs: append([]string{}, s.Runs...)}
}

// profileSpecAttrs are the attributes of a profile's spec (update.ProfileSpec),
// shared with aks_fleet_autoupgrade_preview.
func profileSpecAttrs() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"channel": rschema.StringAttribute{Required: true, MarkdownDescription: "What the profile follows: `Stable` (the newest " +
			"patch of minor N−1, N being the newest generally available minor), `Rapid` (the newest patch of N), " +
			"`TargetKubernetesVersion` (the newest patch of `target_kubernetes_version`) or `NodeImage` (node images only, " +
			"the Kubernetes version unchanged). Preview releases never count."},
		"update_strategy_id": rschema.StringAttribute{Optional: true, MarkdownDescription: "The strategy the profile's runs " +
			"follow: its name (`aks_fleet_update_strategy.x.id`) or ARM id. Without one, members are upgraded one by one. " +
			"Set only when the profile is created: changing it replaces the profile (switching between a name and the ARM id " +
			"of the same strategy is no change)."},
		"node_image_selection": rschema.StringAttribute{Optional: true, MarkdownDescription: "Which node images the profile's " +
			"runs install with a Kubernetes upgrade: `Latest` (the default: the newest in each member's region) or " +
			"`Consistent` (the newest released in every region of the run). Not allowed with channel `NodeImage`."},
		"disabled": optionalFalse("Whether the profile is switched off (default `false`): a disabled profile triggers no run, and " +
			"releases made while it was disabled never trigger it. Runs can still be generated on demand."),
		"target_kubernetes_version": rschema.StringAttribute{Optional: true, MarkdownDescription: "For channel " +
			"`TargetKubernetesVersion` (and only then, where it is required): the minor to follow, `major.minor` such as `1.30`."},
		"long_term_support": optionalFalse("With channel `TargetKubernetesVersion` only: allow a long-term-support minor outside the " +
			"supported N−2..N window as the target, and keep members on LTS minors in the profile (default `false`)."),
	}
}

func (r *autoUpgradeProfileResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_autoupgrade_profile"
}

func (r *autoUpgradeProfileResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

func (r *autoUpgradeProfileResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := profileSpecAttrs()
	for k, v := range map[string]rschema.Attribute{
		"name": rschema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			MarkdownDescription: "The profile name: lower-case letters, digits and `-`, 1–50 characters, starting and ending with a letter or a digit."},
		"id": rschema.StringAttribute{Computed: true, MarkdownDescription: "The profile name.",
			PlanModifiers: []planmodifier.String{idOfName("name")}},
		"generate_run_trigger": rschema.StringAttribute{Optional: true, MarkdownDescription: "Any value; setting or changing it " +
			"asks the hub, at apply, to generate the update run the profile would trigger now, **without starting it** " +
			"(`generated_run_id`). Re-applying the same value generates nothing. Start the run by importing it into an " +
			"`aks_fleet_update_run` with `start = true`, or with the Fleet Manager API."},
		"generated_run_id": computedString("The update run the last change of `generate_run_trigger` generated (its name); null until then."),
		"reviewed_preview": reviewedPreviewAttr(reviewProfile, "the channel now resolves to another version than reviewed (a profile "+
			"starts from the channel's release at its write: one written after a release entered the channel never triggers that release's run)"),
		"status": rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The profile's triggers, refreshed on every " +
			"read: a release entering the channel makes an enabled profile generate an update run and start it.",
			Attributes: map[string]rschema.Attribute{
				"last_triggered_at":             computedString("When the profile last triggered (RFC 3339)."),
				"last_trigger_status":           computedString("`Succeeded` or `Failed`."),
				"last_trigger_error":            computedString("Why the last trigger failed (e.g. its strategy no longer exists)."),
				"last_trigger_upgrade_versions": computedStringList("The versions the last triggered run installs."),
				"last_run":                      computedString("The update run the last trigger started."),
				"runs":                          computedStringList("Every update run the profile generated that still exists, triggered or on demand, oldest first."),
			}},
	} {
		attrs[k] = v
	}
	attrs, blocks := configBlocks(attrs)
	resp.Schema = rschema.Schema{
		// Version 1: no preview attribute (designs/previews.md §7). A change
		// of the state's shape bumps it and adds an upgrader from every
		// earlier version to UpgradeState.
		Version: 1,
		MarkdownDescription: "A Fleet Manager auto-upgrade profile (`fleets/autoUpgradeProfiles`): the fleet follows a release " +
			"channel on its own — whenever a release enters the channel, the profile generates an update run with its strategy " +
			"and starts it. `terraform plan` shows, when the profile is created or changed, what the channel resolves to now and what the " +
			"run would do to every member, including the members auto-upgrade leaves behind (more than one minor behind, or " +
			"outside the supported minors) and the manual upgrades that bring them back.",
		Attributes: attrs,
		Blocks:     blocks,
	}
}

func (r *autoUpgradeProfileResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m autoUpgradeProfileModel
	unknown, ok := readValue(req.Config.Raw, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	var errs field.Errors
	if !unknown.covers(field.Root("name")) {
		errs = append(errs, updateNameErrors("auto-upgrade profile", m.Name)...)
	}
	// An unknown channel decides nothing yet: its rules wait for it.
	if unknown.covers(field.Root("channel")) {
		reportErrors(&resp.Diagnostics, "Invalid auto-upgrade profile", errs, unknown)
		return
	}
	errs = append(errs, update.ValidateProfile(m.ProfileSpec)...)
	reportErrors(&resp.Diagnostics, "Invalid auto-upgrade profile", errs, unknown)
}

func (r *autoUpgradeProfileResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		profiles.planDestroy(ctx, r.hub, req, resp)
		return
	}
	var plan autoUpgradeProfileModel
	unknown, ok := readPlan(req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	obj := objectRef{autoUpgradeProfileType, plan.Name}
	g := guard{kind: reviewProfile, token: plan.ReviewedPreview, obj: obj}
	triggered := plan.GenerateRunTrigger != ""
	// What the write decides that depends on the clock (designs/previews.md
	// §5): the channel's release a profile starts from, when it is created
	// or retargeted, and the versions of a run it generates.
	decides := true
	if !strategyInFleet(r.hub, plan.UpdateStrategyID, unknown, &resp.Diagnostics) {
		return
	}
	if profiles.refuseTaken(ctx, req, r.hub, &plan, unknown.covers(field.Root("name")), &resp.Diagnostics) {
		return
	}
	if !req.State.Raw.IsNull() {
		var prior autoUpgradeProfileModel
		if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
			return
		}
		decides = update.ProfileRetargets(prior.ProfileSpec, plan.ProfileSpec)
		prior.GenerateRunTrigger = importedTrigger(ctx, req.Private, "generate_run_trigger", prior.GenerateRunTrigger, plan.GenerateRunTrigger,
			true, &resp.Diagnostics)
		triggered = triggered && plan.GenerateRunTrigger != prior.GenerateRunTrigger
		// Unknown until apply (e.g. a strategy being replaced): it may differ.
		newStrategy := unknown.covers(field.Root("update_strategy_id")) ||
			update.StrategyNameFromID(prior.UpdateStrategyID) != update.StrategyNameFromID(plan.UpdateStrategyID)
		if newStrategy {
			// Set only at creation (designs/updates.md §5): another strategy is another profile.
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("update_strategy_id"))
		}
		replaced := newStrategy || unknown.covers(field.Root("name")) || prior.Name != plan.Name
		if !replaced && !triggered && !unknown.covers(field.Root("generate_run_trigger")) {
			setComputed(ctx, &resp.Plan, resp.Plan.Schema, path.Root("generated_run_id"), prior.GeneratedRunID, &resp.Diagnostics)
		}
		decides = decides || replaced || triggered
		if !replaced && len(unknown) == 0 && sameSpec(prior.ProfileSpec, plan.ProfileSpec, update.ProfileWithDefaults) {
			if triggered && r.hub != nil { // a run is generated at apply: it must be possible now, and shows what it does
				if pp, ok := r.preview(ctx, plan.Name, plan.ProfileSpec, &resp.Diagnostics); ok {
					checkGenerate(&resp.Diagnostics, pp.Resolution)
					reportPreview(&resp.Diagnostics, obj, profileReport(pp, "the run generate_run_trigger generates"))
					check(g, &resp.Diagnostics, "channel, target or image selection", profileReviewSpec(plan.ProfileSpec), pp.Resolution.At,
						update.ExpectProfile(pp.Resolution), update.ProfileExpectation.Differences)
				}
			}
			return
		}
	} else if !triggered && !unknown.covers(field.Root("generate_run_trigger")) {
		setComputed(ctx, &resp.Plan, resp.Plan.Schema, path.Root("generated_run_id"), "", &resp.Diagnostics)
	}
	if unknown.covers(field.Root("reviewed_preview")) {
		reviewUnknown(&resp.Diagnostics, reviewProfile, obj)
	}
	// What the channel resolves to, and who is left behind, depend on the
	// channel alone: a strategy this apply creates (update_strategy_id
	// unknown) orders only the rollout, previewed at apply.
	strategyUnknown := unknown.covers(field.Root("update_strategy_id"))
	if r.hub == nil || !unknown.within("update_strategy_id", "reviewed_preview") {
		return // the preview depends on values known only at apply: apply previews it
	}
	spec := plan.ProfileSpec
	if strategyUnknown {
		spec.UpdateStrategyID = ""
	}
	pp, ok := r.preview(ctx, plan.Name, spec, &resp.Diagnostics)
	if !ok {
		return
	}
	if strategyUnknown {
		pp.Rollout = nil
	}
	reportWarnings(&resp.Diagnostics, "Auto-upgrade profile", update.ProfilePreviewWarnings(pp))
	if triggered {
		checkGenerate(&resp.Diagnostics, pp.Resolution)
	}
	reportPreview(&resp.Diagnostics, obj, profileReport(pp, "the run a release entering the channel triggers"))
	if decides {
		check(g, &resp.Diagnostics, "channel, target or image selection", profileReviewSpec(plan.ProfileSpec), pp.Resolution.At,
			update.ExpectProfile(pp.Resolution), update.ProfileExpectation.Differences)
	}
}

// checkGenerate refuses at plan a generate_run_trigger change the hub would
// refuse at apply: a channel that resolves to nothing generates no run.
func checkGenerate(diags *diag.Diagnostics, res update.Resolution) {
	if res.Err == "" {
		return
	}
	diags.AddAttributeError(path.Root("generate_run_trigger"), "No update run can be generated now",
		fmt.Sprintf("generate_run_trigger: channel %s resolves to nothing now (%s), so the hub cannot generate a run. "+
			"Change the channel or target_kubernetes_version, or change generate_run_trigger once a release enters the channel.", res.Channel, res.Err))
}

// preview previews profile spec (named name) over the fleet now, with its
// warnings; the strategy it follows is read from the hub. A strategy this
// apply creates orders the rollout only at apply: what the channel resolves
// to and who is left behind do not depend on it, the rollout is left out.
func (r *autoUpgradeProfileResource) preview(ctx context.Context, name string, spec update.ProfileSpec, diags *diag.Diagnostics) (update.ProfilePreview, bool) {
	strategy, found := previewStrategy(ctx, r.hub, spec.UpdateStrategyID, "profile", diags)
	pp, ok := previewProfile(ctx, r.hub, name, spec, strategy, diags)
	if !found {
		pp.Rollout = nil
	}
	return pp, ok
}

func (r *autoUpgradeProfileResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, opCreate, nil, req.Plan, createGuard, &resp.State, resp.Private, &resp.Diagnostics)
}

func (r *autoUpgradeProfileResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var prior autoUpgradeProfileModel
	if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
		return
	}
	guard := profiles.updateGuard(ctx, r.hub, req.Private, &prior, &resp.Diagnostics)
	var planned autoUpgradeProfileModel
	if _, ok := readValue(req.Plan.Raw, &planned, &resp.Diagnostics); !ok {
		return
	}
	prior.GenerateRunTrigger = importedTrigger(ctx, req.Private, "generate_run_trigger", prior.GenerateRunTrigger, planned.GenerateRunTrigger,
		false, &resp.Diagnostics)
	r.apply(ctx, opUpdate, &prior, req.Plan, guard, &resp.State, resp.Private, &resp.Diagnostics)
	appliedSinceImport(ctx, resp.Private, &resp.Diagnostics)
}

// apply writes the planned profile (a create must not find it; an update
// must find the version last read), generates a run when the trigger
// changed, and records the hub's status.
func (r *autoUpgradeProfileResource) apply(ctx context.Context, op string, prior *autoUpgradeProfileModel, plan tfsdk.Plan, guarded writeGuard,
	state *tfsdk.State, private privateSetter, diags *diag.Diagnostics) {
	var m autoUpgradeProfileModel
	if _, ok := readValue(plan.Raw, &m, diags); !ok || diags.HasError() {
		return
	}
	obj := objectRef{autoUpgradeProfileType, m.Name}
	// A changed generate_run_trigger generates a run; removing it keeps the
	// last one's id.
	generate := m.GenerateRunTrigger != "" && (prior == nil || m.GenerateRunTrigger != prior.GenerateRunTrigger)
	switch {
	case prior != nil && !generate:
		m.GeneratedRunID = prior.GeneratedRunID
	default:
		m.GeneratedRunID = ""
	}
	if generate { // checked before anything is written (plan could not, with values unknown then)
		f, err := r.hub.Fleet(ctx)
		if err != nil {
			diags.AddError("Cannot read the fleet", err.Error())
			return
		}
		if checkGenerate(diags, update.ResolveProfile(m.ProfileSpec, f.Regions, r.hub.Now())); diags.HasError() {
			return
		}
	}
	p, ok := profiles.write(op, &m, guarded, func(pre hub.Precondition) (*hub.AutoUpgradeProfile, error) {
		return r.hub.PutAutoUpgradeProfile(ctx, hub.AutoUpgradeProfile{Meta: hub.Meta{Name: m.Name}, Spec: m.ProfileSpec}, pre)
	}, diags)
	if !ok {
		return
	}
	m.ID = p.Name
	m.Status = newProfileStatusDoc(p.Status)
	// Recorded before the run is generated: a profile written is tracked
	// even if generating fails, with the trigger as it was, so that the next
	// apply tries again.
	written := m
	if generate {
		written.GenerateRunTrigger = ""
		if prior != nil {
			written.GenerateRunTrigger, written.GeneratedRunID = prior.GenerateRunTrigger, prior.GeneratedRunID
		}
	}
	setState(ctx, state, written, diags)
	saveVersion(ctx, private, p.Meta, diags)
	if diags.HasError() {
		return
	}
	if generate {
		run, err := r.hub.GenerateUpdateRun(ctx, m.Name)
		if err != nil {
			hubError(diags, "generate an update run from", obj, err)
			return
		}
		m.GeneratedRunID = run
	}
	got, err := r.hub.GetAutoUpgradeProfile(ctx, m.Name)
	if err != nil {
		hubError(diags, opRead, obj, err)
		return
	}
	m.Status = newProfileStatusDoc(got.Status)
	setState(ctx, state, m, diags)
	saveVersion(ctx, private, got.Meta, diags)
}

func (r *autoUpgradeProfileResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	prior, p, ok := profiles.read(ctx, r.hub, req, resp)
	if !ok {
		return
	}
	m := prior
	m.ID, m.Name = p.Name, p.Name
	m.ProfileSpec, _ = profiles.adopt(ctx, req.Private, resp.Private, prior.ProfileSpec, p, &resp.Diagnostics) // imported, or changed outside Terraform
	m.ReviewedPreview = settle(&resp.Diagnostics, m.ReviewedPreview, reviewProfile, objectRef{autoUpgradeProfileType, m.Name}, profileReviewSpec(m.ProfileSpec), func() (any, bool) {
		f, err := r.hub.Fleet(ctx)
		if err != nil {
			return nil, false
		}
		return update.ExpectProfile(update.ResolveProfile(m.ProfileSpec, f.Regions, r.hub.Now())), true
	})
	m.Status = newProfileStatusDoc(p.Status)
	setState(ctx, &resp.State, m, &resp.Diagnostics)
}

func (r *autoUpgradeProfileResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	profiles.delete(ctx, r.hub, req, resp)
}

// profileARMID is an auto-upgrade profile's ARM id (fixed segments in any case).
var profileARMID = regexp.MustCompile(`(?i)^/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\.ContainerService/fleets/[^/]+/autoUpgradeProfiles/([^/]+)$`)

// ImportState takes the profile's name or its ARM id; the id recorded is the bare name.
func (r *autoUpgradeProfileResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := req.ID
	if m := profileARMID.FindStringSubmatch(req.ID); m != nil {
		var err error
		if name, err = inFleet(r.hub, armfleet.AutoUpgradeProfiles, req.ID); err != nil {
			resp.Diagnostics.AddError("Invalid import id", err.Error()+".")
			return
		}
	}
	if err := update.ValidateName("auto-upgrade profile", name); err != nil {
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("Import an auto-upgrade profile by its name, e.g. stable, or by its ARM id "+
			"/subscriptions/<subscription>/resourceGroups/<resource group>/providers/Microsoft.ContainerService/fleets/<fleet>/autoUpgradeProfiles/<name>: %v.", err))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
	markImported(ctx, resp.Private, &resp.Diagnostics)
}
