package provider

import (
	"context"
	"errors"
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
)

var (
	_ resource.ResourceWithConfigure      = (*autoUpgradeProfileResource)(nil)
	_ resource.ResourceWithValidateConfig = (*autoUpgradeProfileResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*autoUpgradeProfileResource)(nil)
	_ resource.ResourceWithImportState    = (*autoUpgradeProfileResource)(nil)
)

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
	GenerateRunTrigger string             `json:"generate_run_trigger"`
	GeneratedRunID     string             `json:"generated_run_id"`
	Preview            *profilePreviewDoc `json:"preview"`
	Status             *profileStatusDoc  `json:"status"`
}

func (autoUpgradeProfileResource) model() any { return &autoUpgradeProfileModel{} }

// profilePreviewDoc is the profile's preview: the channel now and the run it would trigger.
type profilePreviewDoc struct {
	EvaluatedAt       string             `json:"evaluated_at"`
	Summary           string             `json:"summary"`
	KubernetesVersion string             `json:"kubernetes_version"`
	NodeImages        map[string]string  `json:"node_images"`
	SupportedMinors   []string           `json:"supported_minors"`
	Note              string             `json:"note"`
	LeftBehind        map[string]string  `json:"left_behind"`
	Rollout           *rolloutPreviewDoc `json:"rollout"`
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

func newProfilePreviewDoc(pp update.ProfilePreview) *profilePreviewDoc {
	res := pp.Resolution
	d := &profilePreviewDoc{EvaluatedAt: rfc3339(res.At), Summary: pp.Summary(), KubernetesVersion: res.Target,
		NodeImages: res.NodeImages, SupportedMinors: append([]string{}, res.SupportedMinors...), Note: res.Err, LeftBehind: map[string]string{}}
	if pp.Rollout != nil {
		rd := newRolloutPreviewDoc(*pp.Rollout)
		d.Rollout = &rd
		for name, m := range pp.LeftBehind {
			d.LeftBehind[name] = m.Message
		}
	}
	return d
}

func (r *autoUpgradeProfileResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_autoupgrade_profile"
}

func (r *autoUpgradeProfileResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

func (r *autoUpgradeProfileResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]rschema.Attribute{
		"name": rschema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			MarkdownDescription: "The profile name: lower-case letters, digits and `-`, 1–50 characters, starting and ending with a letter or a digit."},
		"id": rschema.StringAttribute{Computed: true, MarkdownDescription: "The profile name.",
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
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
		"generate_run_trigger": rschema.StringAttribute{Optional: true, MarkdownDescription: "Any value; setting or changing it " +
			"asks the hub, at apply, to generate the update run the profile would trigger now, **without starting it** " +
			"(`generated_run_id`). Re-applying the same value generates nothing. Start the run by importing it into an " +
			"`aks_fleet_update_run` with `start = true`, or with the Fleet Manager API."},
		"generated_run_id": computedString("The update run the last change of `generate_run_trigger` generated (its name); null until then."),
		"preview": rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: "What the profile would do if its channel " +
			"triggered at plan: the channel's target now and the rollout of the run it would start, in the order of its strategy. " +
			"Computed when the profile is created or its configuration changes, and kept afterwards: time passing and new " +
			"releases never cause a diff (`status` and the `aks_fleet_kubernetes_versions` data source show the live situation).",
			Attributes: map[string]rschema.Attribute{
				"evaluated_at": computedString("The hub's clock at plan (RFC 3339)."),
				"summary":      computedString("One line: the channel's target and the rollout's totals."),
				"kubernetes_version": computedString("The Kubernetes version the channel resolves to now (null for `NodeImage`, or when it " +
					"resolves to nothing: see `note`)."),
				"node_images":      computedStringMap("For `NodeImage`: the newest image of each family the channel takes node pools to."),
				"supported_minors": computedStringList("The minors the profile moves members within, newest first: N, N−1, N−2, and LTS minors with `long_term_support`."),
				"note":             computedString("Why the channel resolves to nothing now (no run would be generated); null otherwise."),
				"left_behind": computedStringMap("The members the profile does not move — outside the supported minors, or more than one " +
					"minor behind the target — each with the versions a manual update run must take it to first, in order."),
				"rollout": rolloutPreviewAttr("The run the profile would start now: stage → group → member, each with its " +
					"predicted outcome, versions from → to and the reason."),
			}},
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
	}
	resp.Schema = rschema.Schema{
		// Version 0. A change of the state's shape bumps it and adds an
		// upgrader from the previous version (see aks_fleet_placement).
		MarkdownDescription: "A Fleet Manager auto-upgrade profile (`fleets/autoUpgradeProfiles`): the fleet follows a release " +
			"channel on its own — whenever a release enters the channel, the profile generates an update run with its strategy " +
			"and starts it. `terraform plan` shows, before anything is enabled, what the channel resolves to today and what the " +
			"run would do to every member, including the members auto-upgrade leaves behind (more than one minor behind, or " +
			"outside the supported minors) and the manual upgrades that bring them back.",
		Attributes: withTypes(attrs),
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
		return // destroy
	}
	var plan autoUpgradeProfileModel
	unknown, ok := readPlan(req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	triggered := plan.GenerateRunTrigger != ""
	if !req.State.Raw.IsNull() {
		var prior autoUpgradeProfileModel
		if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
			return
		}
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
		if !replaced && len(unknown) == 0 && sameSpec(prior.ProfileSpec, plan.ProfileSpec, update.ProfileWithDefaults) {
			keepPreview(ctx, req.State, &resp.Plan, &resp.Diagnostics)
			if triggered && r.hub != nil { // a run is generated at apply: it must be possible now
				if f, err := r.hub.Fleet(ctx); err == nil {
					checkGenerate(&resp.Diagnostics, update.ResolveProfile(plan.ProfileSpec, f.Regions, r.hub.Now()))
				}
			}
			return
		}
	} else if !triggered && !unknown.covers(field.Root("generate_run_trigger")) {
		setComputed(ctx, &resp.Plan, resp.Plan.Schema, path.Root("generated_run_id"), "", &resp.Diagnostics)
	}
	if len(unknown) > 0 || r.hub == nil {
		return // the preview depends on values known only after apply
	}
	strategy, found := previewStrategy(ctx, r.hub, plan.UpdateStrategyID, "profile", &resp.Diagnostics)
	if !found {
		return
	}
	pp, ok := r.preview(ctx, plan.Name, plan.ProfileSpec, strategy, &resp.Diagnostics)
	if !ok {
		return
	}
	reportWarnings(&resp.Diagnostics, "Auto-upgrade profile", update.ProfilePreviewWarnings(pp))
	if triggered {
		checkGenerate(&resp.Diagnostics, pp.Resolution)
	}
	setComputed(ctx, &resp.Plan, resp.Plan.Schema, path.Root("preview"), newProfilePreviewDoc(pp), &resp.Diagnostics)
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

// preview previews profile spec (named name) over the fleet now, with its warnings.
func (r *autoUpgradeProfileResource) preview(ctx context.Context, name string, spec update.ProfileSpec, strategy *update.Strategy,
	diags *diag.Diagnostics) (update.ProfilePreview, bool) {
	f, err := r.hub.Fleet(ctx)
	if err != nil {
		diags.AddError("Cannot read the fleet", err.Error())
		return update.ProfilePreview{}, false
	}
	reportWarnings(diags, "Auto-upgrade profile", update.ProfileWarnings(spec, f))
	return update.PreviewProfile(name, spec, strategy, update.Members(f), f.Regions, r.hub.UpgradeDuration(), r.hub.Now()), true
}

func (r *autoUpgradeProfileResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, opCreate, nil, req.Plan, createGuard, &resp.State, resp.Private, &resp.Diagnostics)
}

func (r *autoUpgradeProfileResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var prior autoUpgradeProfileModel
	if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
		return
	}
	guard := updateGuard(ctx, req.Private, r.current(ctx, prior.ID, prior.ProfileSpec), &resp.Diagnostics)
	r.apply(ctx, opUpdate, &prior, req.Plan, guard, &resp.State, resp.Private, &resp.Diagnostics)
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
	var p *hub.AutoUpgradeProfile
	write := func(pre hub.Precondition) (err error) {
		p, err = r.hub.PutAutoUpgradeProfile(ctx, hub.AutoUpgradeProfile{Meta: hub.Meta{Name: m.Name}, Spec: m.ProfileSpec}, pre)
		return err
	}
	if err := guarded(write); err != nil {
		hubError(diags, op, obj, err)
		return
	}
	m.ID = p.Name
	m.Status = newProfileStatusDoc(p.Status)
	if m.Preview == nil { // not known at plan (a strategy created by this apply)
		strategy, _ := previewStrategy(ctx, r.hub, m.UpdateStrategyID, "profile", diags)
		if pp, ok := r.preview(ctx, m.Name, m.ProfileSpec, strategy, diags); ok {
			m.Preview = newProfilePreviewDoc(pp)
		}
	}
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
	setState(state, written, diags)
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
	setState(state, m, diags)
	saveVersion(ctx, private, got.Meta, diags)
}

// current reads the profile for conditionalWrite: its metadata, and whether
// its spec is still the one Terraform last read.
func (r *autoUpgradeProfileResource) current(ctx context.Context, name string, last update.ProfileSpec) func() (hub.Meta, bool, error) {
	return currentSpec(func() (hub.Meta, update.ProfileSpec, error) {
		p, err := r.hub.GetAutoUpgradeProfile(ctx, name)
		if err != nil {
			return hub.Meta{}, update.ProfileSpec{}, err
		}
		return p.Meta, p.Spec, nil
	}, last, update.ProfileWithDefaults)
}

func (r *autoUpgradeProfileResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var prior autoUpgradeProfileModel
	if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
		return
	}
	p, err := r.hub.GetAutoUpgradeProfile(ctx, prior.ID)
	if errors.Is(err, hub.ErrNotFound) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		hubError(&resp.Diagnostics, opRead, objectRef{autoUpgradeProfileType, prior.ID}, err)
		return
	}
	saveVersion(ctx, resp.Private, p.Meta, &resp.Diagnostics)
	m := prior
	m.ID, m.Name = p.Name, p.Name
	if !sameSpec(prior.ProfileSpec, p.Spec, update.ProfileWithDefaults) { // imported, or changed outside Terraform
		m.ProfileSpec = adoptSpec(p.Spec, prior.ProfileSpec, update.ProfileWithDefaults)
		m.Preview = nil // it described the spec Terraform wrote
	}
	if m.Preview == nil { // imported or changed: preview the profile the hub holds
		strategy, _ := previewStrategy(ctx, r.hub, m.UpdateStrategyID, "profile", &resp.Diagnostics)
		pp, ok := r.preview(ctx, m.Name, m.ProfileSpec, strategy, &resp.Diagnostics)
		if !ok {
			return
		}
		m.Preview = newProfilePreviewDoc(pp)
	}
	m.Status = newProfileStatusDoc(p.Status)
	setState(&resp.State, m, &resp.Diagnostics)
}

func (r *autoUpgradeProfileResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m autoUpgradeProfileModel
	if _, ok := readValue(req.State.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	del := func(pre hub.Precondition) error { return r.hub.DeleteAutoUpgradeProfile(ctx, m.ID, pre) }
	if err := conditionalWrite(savedVersion(ctx, req.Private, &resp.Diagnostics), r.current(ctx, m.ID, m.ProfileSpec), del); err != nil && !errors.Is(err, hub.ErrNotFound) {
		hubError(&resp.Diagnostics, opDelete, objectRef{autoUpgradeProfileType, m.ID}, err)
	}
}

// profileARMID is an auto-upgrade profile's ARM id (fixed segments in any case).
var profileARMID = regexp.MustCompile(`(?i)^/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\.ContainerService/fleets/[^/]+/autoUpgradeProfiles/([^/]+)$`)

// ImportState takes the profile's name or its ARM id; the id recorded is the bare name.
func (r *autoUpgradeProfileResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := req.ID
	if m := profileARMID.FindStringSubmatch(req.ID); m != nil {
		name = m[1]
	}
	if err := update.ValidateName("auto-upgrade profile", name); err != nil {
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("Import an auto-upgrade profile by its name, e.g. stable, or by its ARM id "+
			"/subscriptions/<subscription>/resourceGroups/<resource group>/providers/Microsoft.ContainerService/fleets/<fleet>/autoUpgradeProfiles/<name>: %v.", err))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
}
