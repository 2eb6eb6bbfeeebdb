package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

var (
	_ resource.ResourceWithConfigure      = (*updateRunResource)(nil)
	_ resource.ResourceWithValidateConfig = (*updateRunResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*updateRunResource)(nil)
	_ resource.ResourceWithImportState    = (*updateRunResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*updateRunResource)(nil)
)

// UpgradeState: version 0 held a preview, and each member's line in status
// (designs/previews.md §7); they are counted per state.
func (r *updateRunResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return blockUpgraders("update run", fleetUpdateRunSchemaV1(), []int64{0}, upgradeRunState)
}

func upgradeRunState(attrs map[string]json.RawMessage) error {
	_ = dropPreview(attrs)
	raw := attrs["status"]
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var st map[string]json.RawMessage
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("its status cannot be read (%v)", err)
	}
	var members map[string]string
	if err := json.Unmarshal(st["members"], &members); err != nil {
		return fmt.Errorf("its members cannot be read (%v)", err)
	}
	counts := map[string]int{}
	for _, line := range members {
		state, _, _ := strings.Cut(line, ":")
		counts[state]++
	}
	delete(st, "members")
	b, err := json.Marshal(counts)
	if err != nil {
		return err
	}
	st["member_counts"] = b
	if attrs["status"], err = json.Marshal(st); err != nil {
		return err
	}
	return nil
}

const updateRunType = "aks_fleet_update_run"

func newUpdateRunResource() resource.Resource { return &updateRunResource{} }

// updateRunResource is a Fleet Manager update run, driven as code: what it
// applies and in which order (replaced when changed), and the actions on it
// (start, stop, skip, approve, re-run) as declarative attributes applied
// when they change (designs/updates.md §4).
type updateRunResource struct {
	hubClient
}

// updateRunModel is the whole resource state.
type updateRunModel struct {
	ID                 string                     `json:"id"`
	Name               string                     `json:"name"`
	UpdateStrategyID   string                     `json:"update_strategy_id"`
	Stages             []update.Stage             `json:"stages"`
	Upgrade            update.Upgrade             `json:"upgrade"`
	NodeImageSelection *update.NodeImageSelection `json:"node_image_selection"`
	Start              bool                       `json:"start"`
	Stopped            bool                       `json:"stopped"`
	WaitForCompletion  bool                       `json:"wait_for_completion"`
	Skip               []update.SkipTarget        `json:"skip"`
	ApprovedGates      []string                   `json:"approved_gates"`
	RerunTrigger       string                     `json:"rerun_trigger"`
	Timeouts           *runTimeouts               `json:"timeouts"`
	ReviewedPreview    string                     `json:"reviewed_preview"`
	Status             *runStatusDoc              `json:"status"`
}

func (updateRunResource) model() any { return &updateRunModel{} }

// runs is the update run's lifecycle (kind). A run is deleted by its own
// Delete, which stops it first: it has no del hook.
var runs = &kind[updateRunModel, hub.UpdateRun, update.RunSpec]{
	typ:      updateRunType,
	id:       func(m *updateRunModel) string { return m.ID },
	name:     func(m *updateRunModel) string { return m.Name },
	spec:     (*updateRunModel).spec,
	defaults: update.RunWithDefaults,
	get: func(ctx context.Context, h hub.Hub, id string) (*hub.UpdateRun, error) {
		return h.GetUpdateRun(ctx, id)
	},
	parts:  func(r *hub.UpdateRun) (hub.Meta, update.RunSpec, *update.RunSpec) { return r.Meta, r.Spec, r.Written },
	status: func(r *hub.UpdateRun) any { return newRunStatusDoc(r.Status) },
}

type runTimeouts struct {
	Create string `json:"create"`
	Update string `json:"update"`
}

// spec is the run's ARM spec.
func (m *updateRunModel) spec() update.RunSpec {
	s := update.RunSpec{UpdateStrategyID: m.UpdateStrategyID, ManagedClusterUpdate: update.ManagedClusterUpdate{Upgrade: m.Upgrade}}
	if m.Stages != nil {
		s.Strategy = &update.Strategy{Stages: m.Stages}
	}
	if m.NodeImageSelection != nil {
		s.ManagedClusterUpdate.NodeImageSelection = *m.NodeImageSelection
	}
	return s
}

func (m *updateRunModel) setSpec(s update.RunSpec) {
	m.UpdateStrategyID, m.Stages, m.Upgrade = s.UpdateStrategyID, nil, s.ManagedClusterUpdate.Upgrade
	if s.Strategy != nil {
		m.Stages = s.Strategy.Stages
	}
	nis := s.ManagedClusterUpdate.NodeImageSelection
	m.NodeImageSelection = nil
	if nis.Type != "" || nis.CustomNodeImageVersions != nil {
		m.NodeImageSelection = &nis
	}
}

// runStatusDoc is the run's progress as the hub reports it on every read.
type runStatusDoc struct {
	State              string            `json:"state"`
	Message            string            `json:"message"`
	StartTime          string            `json:"start_time"`
	EndTime            string            `json:"end_time"`
	Progress           string            `json:"progress"`
	CurrentStage       string            `json:"current_stage"`
	Stages             map[string]string `json:"stages"`
	Groups             map[string]string `json:"groups"`
	MemberCounts       map[string]int    `json:"member_counts"`
	Gates              map[string]string `json:"gates"`
	SelectedNodeImages map[string]string `json:"selected_node_images"`
}

func (r *updateRunResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_update_run"
}

func (r *updateRunResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

func (r *updateRunResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := "Changing it replaces the run (a started run cannot be changed)."
	attrs := updateRunSpecAttrs(replace)
	for k, v := range map[string]rschema.Attribute{
		"start": optionalFalse("Whether apply starts the run (default `false`: the run is created, not started, as the API does). " +
			"Set it to `true` to start a run that has not started; it does nothing to a run that has."),
		"stopped": optionalFalse("Set to `true` to stop the run: upgrades in flight finish, nothing new starts. Setting it back to " +
			"`false` (with `start = true`) resumes the run."),
		"wait_for_completion": optionalFalse("Whether apply waits until the run has completed, failed or stopped, or every member left " +
			"is Pending (waiting for a maintenance window or a release), logging progress. Bounded by `timeouts`. A run that fails " +
			"while apply waits fails the apply, naming the member, its group and stage, and the error — except the apply that creates " +
			"the run, which warns instead, so that Terraform keeps the run rather than replacing it."),
		"skip": skipAttr(),
		"approved_gates": rschema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Approval gates " +
			"to approve, by key (`<stage>:before`, `<stage>:after`, `<stage>/<group>:before`, `<stage>/<group>:after`; " +
			"the plan's preview lists them). A gate is approved once the run has reached it: at an apply after that, or " +
			"during an apply that waits for completion."},
		"rerun_trigger": rschema.StringAttribute{Optional: true, MarkdownDescription: "Any value; changing it starts the run " +
			"again if it has completed, failed or stopped, re-applying what was skipped or failed. Re-applying the same value re-runs nothing."},
		"reviewed_preview": reviewedPreviewAttr(reviewRun, "starting the run would upgrade, skip or fail other members, or take them to other versions, than reviewed"),
		"status": rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The run's progress, refreshed on every read " +
			"(it moves with the hub's clock between commands). Members are counted per state, so that a plan stays readable " +
			"on any fleet: the `aks_fleet_update_run` data source has every member's line.",
			Attributes: map[string]rschema.Attribute{
				"state":         computedString("The run's state: `NotStarted`, `Running`, `Pending`, `Stopping`, `Stopped`, `Failed` or `Completed`."),
				"message":       computedString("Why it failed, naming the member, its group and stage."),
				"start_time":    computedString("When it last started (RFC 3339)."),
				"end_time":      computedString("When it ended (RFC 3339)."),
				"progress":      computedString("Members done (completed or skipped) of the total, how many failed, and the current stage."),
				"current_stage": computedString("The stage in progress."),
				"stages":        computedStringMap("State of each stage, with its after-stage wait."),
				"groups":        computedStringMap("State of each group, keyed `<stage>/<group>`."),
				"member_counts": rschema.MapAttribute{Computed: true, ElementType: types.Int64Type,
					MarkdownDescription: "How many members are in each state (`Completed`, `Running`, `Pending`, …)."},
				"gates":                computedStringMap("State of each approval gate, by key."),
				"selected_node_images": computedStringMap("The node images a `Consistent` selection chose, per family."),
			}},
	} {
		attrs[k] = v
	}
	attrs, blocks := configBlocks(attrs)
	blocks["timeouts"] = waitTimeoutsBlock(ctx, "the run", "wait_for_completion")
	resp.Schema = rschema.Schema{
		// Version 2: configurable structures are blocks (designs/schema.md
		// §1); version 1 had no preview attribute and members counted in
		// status (designs/previews.md §7). A change of the state's shape
		// bumps it, freezes the prior schema (TestFreezeSchemas) and adds an
		// upgrader from every earlier version to UpgradeState.
		Version: 2,
		MarkdownDescription: "A Fleet Manager update run: one rollout of a Kubernetes or node image upgrade across the fleet, in " +
			"the order of a strategy. `terraform plan` shows the rollout before anything starts — which member goes when, which " +
			"will wait for a maintenance window or a regional release, which will be skipped and why — and, when an action " +
			"changes its course (a start, a skip), what the run will now do; the run is then driven as code: start, stop, skip, " +
			"approve gates, re-run. With `reviewed_preview`, apply refuses to start a run that would do otherwise than reviewed.",
		Attributes: attrs,
		Blocks:     blocks,
	}
}

// skipAttr is a run's skip targets (the resource's, and its preview's).
func skipAttr() rschema.ListNestedAttribute {
	return rschema.ListNestedAttribute{Optional: true, MarkdownDescription: "Skip targets: adding one skips it (and " +
		"everything under it, gates included) at the next apply, and the skip holds through every start the provider sends: " +
		"a resume after `stopped`, a re-run on a new `rerun_trigger` (which re-applies what failed — so a failed member " +
		"skipped together with a new `rerun_trigger` is passed over). Removing one undoes nothing until the run starts again.",
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"type": rschema.StringAttribute{Required: true, MarkdownDescription: "`Member`, `Group`, `Stage` or `AfterStageWait` (named by its stage)."},
			"name": rschema.StringAttribute{Required: true, MarkdownDescription: "The member, group or stage name."},
		}}}
}

// updateRunSpecAttrs are the attributes of a run's spec, shared with
// aks_fleet_update_preview; replace is the sentence that says a change
// replaces the run (empty for the data source).
func updateRunSpecAttrs(replace string) map[string]rschema.Attribute {
	stages := updateStagesAttr(false, "An inline strategy: the stages of this run. Set this, or `update_strategy_id`, or "+
		"neither (every member one by one in a single stage and group). "+replace)
	attrs := map[string]rschema.Attribute{
		"name": rschema.StringAttribute{Required: true, MarkdownDescription: "Name of the update run: lower-case letters, digits and `-`, 1–50 characters.",
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"id": rschema.StringAttribute{Computed: true, MarkdownDescription: "The run name.",
			PlanModifiers: []planmodifier.String{idOfName("name")}},
		"update_strategy_id": rschema.StringAttribute{Optional: true, MarkdownDescription: "The strategy to follow: its name " +
			"(`aks_fleet_update_strategy.x.id`) or ARM id. The run copies it when it is created: later edits of the strategy " +
			"do not change this run (and show no diff here). " + replace},
		"stages": stages,
		"upgrade": rschema.SingleNestedAttribute{Required: true, MarkdownDescription: "What the run upgrades. " + replace,
			Attributes: map[string]rschema.Attribute{
				"type": rschema.StringAttribute{Required: true, MarkdownDescription: "`Full` (control plane and node images), " +
					"`ControlPlaneOnly` or `NodeImageOnly`."},
				"kubernetes_version": rschema.StringAttribute{Optional: true, MarkdownDescription: "The target Kubernetes version " +
					"(`1.30.5`, or `1.30` for the newest patch released in each member's region): required for `Full` and " +
					"`ControlPlaneOnly`, not allowed for `NodeImageOnly`."},
			}},
		"node_image_selection": rschema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Which node images the run " +
			"installs. " + replace,
			Attributes: map[string]rschema.Attribute{
				"type": rschema.StringAttribute{Optional: true, MarkdownDescription: "`Latest` (default: the newest image of each " +
					"family in the member's region when its upgrade starts), `Consistent` (the newest image released in every " +
					"region of the run, chosen when it starts) or `Custom` (`custom_node_image_versions`)."},
				"custom_node_image_versions": rschema.ListAttribute{Optional: true, ElementType: types.StringType,
					MarkdownDescription: "For `Custom`: full node image versions such as `AKSUbuntu-2204gen2containerd-202611.03.0`, at most one per image family."},
			}},
	}
	if replace == "" {
		delete(attrs, "name")
		delete(attrs, "id")
	}
	return attrs
}

func (r *updateRunResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m updateRunModel
	unknown, ok := readConfig(req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	var errs field.Errors
	if !unknown.covers(field.Root("name")) {
		if err := update.ValidateName("update run", m.Name); err != nil {
			errs = append(errs, nameError(err))
		}
	}
	errs = append(errs, update.ValidateRun(m.spec())...)
	errs = append(errs, update.ValidateSkipTypes(m.Skip)...)

	reportErrors(&resp.Diagnostics, "Invalid update run", errs, unknown)
}

// nameError puts a name rule's error on the name attribute.
func nameError(err error) field.Error {
	var fe field.Error
	if errors.As(err, &fe) {
		fe.Path = field.Root("name")
		return fe
	}
	return field.Errorf(field.Root("name"), "", "%s", err.Error())
}

func (r *updateRunResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan updateRunModel
	unknown, ok := readPlan(req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	if !strategyInFleet(r.hub, plan.UpdateStrategyID, unknown, &resp.Diagnostics) {
		return
	}
	if runs.refuseTaken(ctx, req, r.hub, &plan, unknown.covers(field.Root("name")), &resp.Diagnostics) {
		return
	}
	prior := &updateRunModel{} // the zero model: a run being created
	if !req.State.Raw.IsNull() {
		if _, ok := readValue(req.State.Raw, prior, &resp.Diagnostics); !ok {
			return
		}
		specUnknown := unknown.covers(field.Root("update_strategy_id")) || unknown.covers(field.Root("stages")) ||
			unknown.covers(field.Root("upgrade")) || unknown.covers(field.Root("node_image_selection")) || unknown.covers(field.Root("name"))
		if specUnknown || prior.Name != plan.Name || !sameSpec(prior.spec(), plan.spec(), update.RunWithDefaults) {
			// What the run applies, and its order, change only by a new run
			// (designs/updates.md §2). Compared with the engine's defaults on
			// both sides: the hub's form of the same spec (an import) is no change.
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("update_strategy_id"), path.Root("stages"),
				path.Root("upgrade"), path.Root("node_image_selection"))
			prior = &updateRunModel{}
		}
	}
	prior.RerunTrigger = importedTrigger(ctx, req.Private, "rerun_trigger", prior.RerunTrigger, plan.RerunTrigger, prior.Name != "", &resp.Diagnostics)
	obj := objectRef{updateRunType, plan.Name}
	if unknown.covers(field.Root("reviewed_preview")) {
		reviewUnknown(&resp.Diagnostics, reviewRun, obj)
	}
	if len(unknown) > 0 || r.hub == nil {
		// The order and the actions' targets are known only at apply. A run
		// created and started, whose strategy this apply creates: show the
		// rollout reviewed, or say why there is none.
		if prior.Name == "" && unknown.covers(field.Root("update_strategy_id")) {
			reportPreview(&resp.Diagnostics, obj, unknownStrategyReport(plan.ReviewedPreview, unknown.covers(field.Root("reviewed_preview")),
				plan.Start && !plan.Stopped))
		}
		return
	}
	if prior.Name != "" && len(plan.Skip)+len(plan.ApprovedGates) == 0 && plan.Start == prior.Start && plan.Stopped == prior.Stopped &&
		plan.RerunTrigger == prior.RerunTrigger {
		return // no action, nothing to check or preview: the hub is not asked
	}
	f, ok := runFleet(ctx, r.hub, &resp.Diagnostics)
	if !ok {
		return
	}
	var run *hub.UpdateRun
	var acts update.RunActions
	if prior.Name == "" { // created: the run as configured, not started yet
		spec := plan.spec()
		reportWarnings(&resp.Diagnostics, "Update run", update.RunWarnings(spec, f))
		strategy, found := r.strategyOf(ctx, spec, &resp.Diagnostics)
		if !found { // a strategy created by this apply: previewed, and its actions checked, at apply
			reportPreview(&resp.Diagnostics, obj, unknownStrategyReport(plan.ReviewedPreview, false, plan.Start && !plan.Stopped))
			return
		}
		run = &hub.UpdateRun{Spec: spec, ResolvedStrategy: strategy, Status: update.RunStatus{State: update.StateNotStarted}}
		acts = actionsOf(prior, &plan, update.StateNotStarted)
	} else {
		var err error
		if run, err = r.hub.GetUpdateRun(ctx, prior.ID); err != nil {
			hubError(&resp.Diagnostics, opRead, objectRef{updateRunType, prior.ID}, err)
			return
		}
		acts = actionsOf(prior, &plan, run.Status.State)
	}
	if len(plan.Skip)+len(plan.ApprovedGates) > 0 {
		reportErrors(&resp.Diagnostics, "Invalid update run action", update.ValidateActions(run.ResolvedStrategy, update.Members(f), plan.Skip, plan.ApprovedGates), nil)
	}
	if prior.Name != "" && !acts.PreviewsCourse() {
		return // nothing changes the run's course: nothing to preview
	}
	if st := run.Status.State; prior.Name != "" && !acts.Start && (st == update.StateFailed || st == update.StateStopped || st == update.StateCompleted) {
		// Nothing moves until the run starts again: the skips are for that start (designs/updates.md §4).
		reportPreview(&resp.Diagnostics, obj, preview{Headline: "the run is " + st + "; the skip holds for its next start",
			First: "The run does not move until it starts again: change rerun_trigger to re-run it (or set stopped = false to " +
				"resume a stopped run), and it starts with these skips."})
		return
	}
	p := previewRunCourse(r.hub, f, run, plan.Skip)
	what := "if the run started then"
	switch {
	case prior.Name != "" && acts.Start:
		what = "what the run does once started then"
	case prior.Name != "":
		what = "what the run does from then on"
	}
	reportPreview(&resp.Diagnostics, obj, runReport(p, what))
	if acts.Start || prior.Name == "" && plan.Start && !plan.Stopped {
		predictedFailure(&resp.Diagnostics, obj, p)
	}
	// Only a start decides which members are upgraded: a skip only removes
	// work, and a re-run (rerun_trigger) re-applies what the run failed or
	// skipped (designs/previews.md §5).
	if acts.Start && !acts.Restart {
		g := guard{kind: reviewRun, token: plan.ReviewedPreview, obj: obj}
		check(g, &resp.Diagnostics, "update, strategy, start or skip", runReviewSpec(run.ResolvedStrategy, run.Spec.ManagedClusterUpdate, plan.Start, plan.Skip),
			p.At, update.ExpectRun(p), update.RunExpectation.Differences)
	}
}

// predictedFailure warns, once, when the run this apply starts is predicted
// to fail: the first member that fails stops it (designs/updates.md §4),
// named with its position, the reason and when (issue 24, finding 4).
func predictedFailure(diags *diag.Diagnostics, obj objectRef, p update.Preview) {
	for _, s := range p.Stages {
		for _, g := range s.Groups {
			for _, m := range g.Members {
				if m.Outcome != update.OutcomeFail {
					continue
				}
				when := ""
				if !m.Start.IsZero() {
					when = " at " + m.Start.UTC().Format("2006-01-02 15:04")
				}
				diags.AddAttributeWarning(path.Root("start"), "The run is predicted to fail", fmt.Sprintf("%s: member %s (%s/%s) "+
					"fails%s: %s. The run stops there: members after it are not upgraded. Fix the cause first, or skip it: "+
					"skip { type = \"Member\" name = %q }.", obj, m.Name, s.Name, g.Name, when, m.Message, m.Name))
				return
			}
		}
	}
}

// strategyOf is the strategy a run follows: inline, referenced (read from
// the hub; found is false while it does not exist yet, e.g. created by the
// same apply), or nil for one by one.
func (r *updateRunResource) strategyOf(ctx context.Context, spec update.RunSpec, diags *diag.Diagnostics) (*update.Strategy, bool) {
	if spec.Strategy != nil {
		return spec.Strategy, true
	}
	return previewStrategy(ctx, r.hub, spec.UpdateStrategyID, "run", diags)
}

// previewStrategy is the strategy an update_strategy_id references, read
// from the hub for a preview: nil for none (one by one); found is false
// while it does not exist yet (e.g. created by the same apply: the preview
// waits for apply) or cannot be read. kind names what references it.
func previewStrategy(ctx context.Context, h hub.Hub, id, kind string, diags *diag.Diagnostics) (*update.Strategy, bool) {
	if id == "" {
		return nil, true
	}
	s, err := h.GetUpdateStrategy(ctx, update.StrategyNameFromID(id))
	switch {
	case errors.Is(err, hub.ErrNotFound):
		diags.AddAttributeWarning(path.Root("update_strategy_id"), "Update strategy not found yet",
			fmt.Sprintf("update_strategy_id: the update strategy %q does not exist on the hub yet, so the rollout is previewed at "+
				"apply. Creating the %s fails unless this apply creates the strategy first: reference it as "+
				"aks_fleet_update_strategy.<name>.id so that Terraform orders the two.", id, kind))
		return nil, false
	case err != nil:
		hubError(diags, opRead, objectRef{"aks_fleet_update_strategy", id}, err)
		return nil, false
	}
	return &s.Spec, true
}

func (r *updateRunResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m updateRunModel
	if _, ok := readValue(req.Plan.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	obj := objectRef{updateRunType, m.Name}
	run, err := r.hub.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: m.Name}, Spec: m.spec()}, hub.Precondition{IfNoneMatch: true})
	if err != nil {
		hubError(&resp.Diagnostics, opCreate, obj, err)
		return
	}
	w := r.writer(ctx, run, versionOf(run.Meta), &resp.Diagnostics)
	w.act(&updateRunModel{}, &m, timeoutOf(m.Timeouts, "create"))
	r.record(ctx, req.Plan.Raw, &resp.State, resp.Private, m, w.run, &resp.Diagnostics)
}

func (r *updateRunResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var prior, m updateRunModel
	if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
		return
	}
	if _, ok := readValue(req.Plan.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	run, err := r.hub.GetUpdateRun(ctx, prior.ID)
	if err != nil {
		hubError(&resp.Diagnostics, opUpdate, objectRef{updateRunType, prior.ID}, err)
		return
	}
	w := r.writer(ctx, run, savedVersion(ctx, req.Private, &resp.Diagnostics), &resp.Diagnostics)
	prior.RerunTrigger = importedTrigger(ctx, req.Private, "rerun_trigger", prior.RerunTrigger, m.RerunTrigger, false, &resp.Diagnostics)
	w.act(&prior, &m, timeoutOf(m.Timeouts, "update"))
	r.record(ctx, req.Plan.Raw, &resp.State, resp.Private, m, w.run, &resp.Diagnostics)
	appliedSinceImport(ctx, resp.Private, &resp.Diagnostics)
}

// waitTimeoutsBlock is terraform-plugin-framework-timeouts' block for how
// long apply waits for what (e.g. "the run") with the attribute attr.
func waitTimeoutsBlock(ctx context.Context, what, attr string) rschema.Block {
	b := timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true,
		CreateDescription: fmt.Sprintf("How long create waits for %s with `%s` (a Go duration; default `60m`).", what, attr),
		UpdateDescription: fmt.Sprintf("How long update waits for %s with `%s` (a Go duration; default `60m`).", what, attr)})
	if sb, ok := b.(rschema.SingleNestedBlock); ok {
		sb.MarkdownDescription = fmt.Sprintf("How long apply waits for %s with `%s`.", what, attr)
		return sb
	}
	return b
}

func timeoutOf(t *runTimeouts, op string) time.Duration {
	v := ""
	if t != nil {
		v = map[string]string{"create": t.Create, "update": t.Update}[op]
	}
	if d, err := time.ParseDuration(v); err == nil && d > 0 {
		return d
	}
	return time.Hour
}

// runWriter sends a run's actions. The first carries the version of the run
// Terraform last read (conditionalWrite: a run changed by someone else since
// is a conflict); each next one the ETag the previous returned.
type runWriter struct {
	ctx     context.Context
	r       *updateRunResource
	run     *hub.UpdateRun // as last read or written
	version objectVersion
	diags   *diag.Diagnostics
}

func (r *updateRunResource) writer(ctx context.Context, run *hub.UpdateRun, v objectVersion, diags *diag.Diagnostics) *runWriter {
	if v.ETag == "" { // a state written before versions were recorded
		v = versionOf(run.Meta)
	}
	return &runWriter{ctx: ctx, r: r, run: run, version: v, diags: diags}
}

// do sends one action; false when it failed (reported).
func (w *runWriter) do(what string, call func(pre hub.Precondition) (*hub.UpdateRun, error)) bool {
	name, spec := w.run.Name, w.run.Spec
	current := currentSpec(func() (hub.Meta, update.RunSpec, error) {
		cur, err := w.r.hub.GetUpdateRun(w.ctx, name)
		if err != nil {
			return hub.Meta{}, update.RunSpec{}, err
		}
		return cur.Meta, cur.Spec, nil
	}, sameAs(spec, update.RunWithDefaults))
	err := conditionalWrite(w.version, current, func(pre hub.Precondition) error {
		next, err := call(pre)
		if err == nil {
			w.run = next
		}
		return err
	})
	if err != nil {
		hubError(w.diags, what, objectRef{updateRunType, name}, err)
		return false
	}
	w.version = versionOf(w.run.Meta)
	return true
}

// act applies the actions the configuration asks for that differ from the
// prior state: start (or resume, or re-run on a new trigger), stop, new skip
// targets, gate approvals; then waits when asked.
func (w *runWriter) act(prior, m *updateRunModel, timeout time.Duration) {
	ctx, h := w.ctx, w.r.hub
	a := actionsOf(prior, m, w.run.Status.State)
	failedBefore := w.run.Status.State == update.StateFailed
	skip := func() bool {
		return len(a.Skips) == 0 || w.do("skip", func(pre hub.Precondition) (*hub.UpdateRun, error) {
			return h.SkipUpdateRun(ctx, m.Name, a.Skips, pre)
		})
	}
	// A run about to start (for the first time, again after a stop, or
	// re-run) is skipped before the start, as its preview shows: skips sent
	// while the run is not running hold for the start that follows, where a
	// skip sent after the start could find the member upgrading already,
	// and an upgrade in flight is not aborted (designs/updates.md §4).
	before := w.run.Status.State == update.StateNotStarted || a.Start
	if before && !skip() {
		return
	}
	switch {
	case a.Stop:
		if !w.do("stop", func(pre hub.Precondition) (*hub.UpdateRun, error) { return h.StopUpdateRun(ctx, m.Name, pre) }) {
			return
		}
	case a.Start:
		if !w.do("start", func(pre hub.Precondition) (*hub.UpdateRun, error) { return h.StartUpdateRun(ctx, m.Name, pre) }) {
			return
		}
	}
	if !before && !skip() {
		return
	}
	if !w.approve(m.ApprovedGates) {
		return
	}
	if m.WaitForCompletion && w.run.Status.State != update.StateNotStarted {
		w.wait(m.ApprovedGates, timeout)
	}
	// A run that failed before this apply, which did not start it again
	// (a skip for its next start, say), is not this apply's failure.
	if a.Start || !failedBefore {
		failure(w.run, prior.Name == "", w.diags)
	}
}

// approve completes every gate of approved that is pending now.
func (w *runWriter) approve(approved []string) bool {
	for _, g := range w.run.Status.Gates() {
		if g.State != update.StatePending || !slices.Contains(approved, g.Key) {
			continue
		}
		key := g.Key
		if !w.do("approve gate "+key+" of", func(pre hub.Precondition) (*hub.UpdateRun, error) {
			return w.r.hub.ApproveUpdateRunGate(w.ctx, w.run.Name, key, pre)
		}) {
			return false
		}
	}
	return true
}

// wait polls the run until it settles, approving gates as it reaches them.
func (w *runWriter) wait(approved []string, timeout time.Duration) {
	ctx, h, name := w.ctx, w.r.hub, w.run.Name
	deadline := time.Now().Add(timeout)
	pace := newHubPacer(h)
	for !settled(w.run.Status, approved) {
		st := w.run.Status
		done, total, stage := progress(st)
		tflog.Info(ctx, "waiting for update run", map[string]any{"run": name, "state": st.State, "members_done": done,
			"members_total": total, "current_stage": stage})
		if time.Now().After(deadline) {
			w.diags.AddError("Update run still in progress", fmt.Sprintf("%s %s is %s after %s (%d of %d members done, stage %s). "+
				"It goes on: refresh to follow it, or raise timeouts.", updateRunType, name, st.State, timeout, done, total, stage))
			return
		}
		stalled, err := pace.next(ctx)
		if err != nil {
			w.diags.AddError("Stopped waiting for the update run", err.Error())
			return
		}
		if stalled {
			w.diags.AddWarning("The hub's clock does not move", fmt.Sprintf("%s %s is %s and cannot progress while the hub's "+
				"clock is fixed: apply stops waiting. Use a real or scaled mock clock to watch a run progress.", updateRunType, name, st.State))
			return
		}
		next, err := h.GetUpdateRun(ctx, name)
		if err != nil {
			hubError(w.diags, opRead, objectRef{updateRunType, name}, err)
			return
		}
		w.run, w.version = next, versionOf(next.Meta)
		if !w.approve(approved) {
			return
		}
	}
}

// pollInterval is how often apply reads what it waits for.
var pollInterval = time.Second

// hubPacer paces apply's waits on the hub: a read every pollInterval, and
// whether the hub's clock stands still — it did not move over two polls in
// a row (a fixed mock clock), so that nothing waited for can happen.
type hubPacer struct {
	h     hub.Hub
	last  time.Time
	still int
}

func newHubPacer(h hub.Hub) *hubPacer { return &hubPacer{h: h, last: h.Now()} }

// next waits one poll interval (ctx's error when it ends first) and tells
// whether the hub's clock stands still.
func (p *hubPacer) next(ctx context.Context) (stalled bool, err error) {
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-time.After(pollInterval):
	}
	if now := p.h.Now(); now.After(p.last) {
		p.last, p.still = now, 0
	} else {
		p.still++
	}
	return p.still >= 2, nil
}

// settled: completed, failed or stopped, or nothing left but members waiting
// (Pending) and gates the configuration does not approve.
func settled(st update.RunStatus, approved []string) bool {
	switch st.State {
	case update.StateCompleted, update.StateFailed, update.StateStopped:
		return true
	case update.StatePending:
		for _, g := range st.Gates() {
			if g.State == update.StatePending && slices.Contains(approved, g.Key) {
				return false
			}
		}
		return true
	}
	return false
}

// failure reports a run that has failed, with the engine's message naming
// the member, its group and stage, and the error. When the apply changed a
// run that exists already it is an error: the change's outcome, and what a
// pipeline waiting on the run must see. When the apply created the run it
// is a warning: Terraform taints a resource whose create returns an error,
// and a tainted run plans to be destroyed and created again — its history
// gone, every member upgraded again — where the next step is to fix the
// cause and re-run it (designs/updates.md §4). The state records the run,
// `status.state` is Failed, and the next plan is empty until the
// configuration asks for something.
func failure(run *hub.UpdateRun, created bool, diags *diag.Diagnostics) {
	if run.Status.State != update.StateFailed {
		return
	}
	detail := fmt.Sprintf("%s %s failed: %s. Fix the cause, then change rerun_trigger to run it again: it re-applies only what "+
		"failed or was skipped.", updateRunType, run.Name, run.Status.Message)
	if created {
		diags.AddWarning("Update run failed", detail+" The run is created and recorded in state (status.state is Failed); "+
			"this apply did not fail so that Terraform keeps it, instead of replacing it.")
		return
	}
	diags.AddError("Update run failed", detail)
}

// progress counts members done (completed or skipped: a failed member is
// not done, its upgrade is still to make) and names the stage in progress.
func progress(st update.RunStatus) (done, total int, stage string) {
	for _, s := range st.Stages {
		if stage == "" && (s.State == update.StateRunning || s.State == update.StatePending) {
			stage = s.Name
		}
		for _, g := range s.Groups {
			for _, m := range g.Members {
				total++
				switch m.State {
				case update.StateCompleted, update.StateSkipped:
					done++
				}
			}
		}
	}
	return done, total, stage
}

// record stores the planned (or prior) value as it is, with the hub's id,
// the preview and the status, and the run's version in private state.
func (r *updateRunResource) record(ctx context.Context, raw tftypes.Value, state *tfsdk.State, private privateSetter, m updateRunModel, run *hub.UpdateRun, diags *diag.Diagnostics) {
	runs.record(ctx, raw, run.Name, run, state, private, diags)
}

func (r *updateRunResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m, run, ok := runs.read(ctx, r.hub, req, resp)
	if !ok {
		return
	}
	adopted := false
	if m.Name == "" { // imported: the hub's spec, and actions as the run's state says they were taken
		m.Name, adopted = run.Name, true
		spec, _ := runs.adopt(ctx, req.Private, resp.Private, m.spec(), run, &resp.Diagnostics)
		m.setSpec(spec)
		m.Start = run.Status.State != update.StateNotStarted
		m.Stopped = run.Status.State == update.StateStopped || run.Status.State == update.StateStopping
	} else if !sameSpec(m.spec(), run.Spec, update.RunWithDefaults) { // changed outside Terraform
		m.setSpec(adoptSpec(run.Spec, m.spec(), update.RunWithDefaults))
		adopted = true
	}
	raw := req.State.Raw
	if adopted {
		setState(ctx, &resp.State, m, &resp.Diagnostics)
		raw = resp.State.Raw
	}
	r.record(ctx, raw, &resp.State, resp.Private, m, run, &resp.Diagnostics)
	if m.ReviewedPreview != "" {
		token := settle(&resp.Diagnostics, m.ReviewedPreview, reviewRun, objectRef{updateRunType, m.Name}, runReviewSpec(run.ResolvedStrategy, run.Spec.ManagedClusterUpdate, m.Start, m.Skip),
			func() (any, bool) {
				f, err := r.hub.Fleet(ctx)
				if err != nil {
					return nil, false
				}
				return update.ExpectRun(previewRunCourse(r.hub, f, run, m.Skip)), true
			})
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("reviewed_preview"), token)...)
	}
}

func (r *updateRunResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m updateRunModel
	if _, ok := readValue(req.State.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	obj := objectRef{updateRunType, m.ID}
	run, err := r.hub.GetUpdateRun(ctx, m.ID)
	if errors.Is(err, hub.ErrNotFound) {
		return
	}
	if err != nil {
		hubError(&resp.Diagnostics, opDelete, obj, err)
		return
	}
	// A running run is stopped first (designs/updates.md §4): upgrades in
	// flight finish on the clusters; nothing new starts.
	w := r.writer(ctx, run, savedVersion(ctx, req.Private, &resp.Diagnostics), &resp.Diagnostics)
	if s := run.Status.State; s == update.StateRunning || s == update.StatePending {
		tflog.Info(ctx, "stopping the update run before deleting it", map[string]any{"run": m.ID, "state": s})
		if !w.do("stop", func(pre hub.Precondition) (*hub.UpdateRun, error) { return r.hub.StopUpdateRun(ctx, m.ID, pre) }) {
			return
		}
	}
	del := func(pre hub.Precondition) (*hub.UpdateRun, error) {
		return w.run, r.hub.DeleteUpdateRun(ctx, m.ID, pre)
	}
	w.do(opDelete, del)
}

// ImportState takes a run name or its ARM id (…/fleets/<f>/updateRuns/<name>).
func (r *updateRunResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := req.ID[strings.LastIndex(req.ID, "/")+1:]
	if strings.Contains(req.ID, "/") {
		var err error
		if name, err = inFleet(r.hub, armfleet.UpdateRuns, req.ID); err != nil {
			resp.Diagnostics.AddError("Invalid import id", err.Error()+". Give the update run's name or its ARM id.")
			return
		}
	}
	if err := update.ValidateName("update run", name); err != nil {
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("%q: give the update run's name or its ARM id "+
			"(/subscriptions/…/providers/Microsoft.ContainerService/fleets/<fleet>/updateRuns/<name>).", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
	markImported(ctx, resp.Private, &resp.Diagnostics)
}

func newRunStatusDoc(st update.RunStatus) runStatusDoc {
	done, total, stage := progress(st)
	d := runStatusDoc{State: st.State, Message: st.Message, StartTime: rfc3339(st.StartTime), EndTime: rfc3339(st.EndTime),
		CurrentStage: stage, Stages: map[string]string{}, Groups: map[string]string{}, MemberCounts: map[string]int{}, Gates: map[string]string{},
		SelectedNodeImages: st.SelectedNodeImageVersions}
	for _, s := range st.Stages {
		d.Stages[s.Name] = s.State + " (after-stage wait " + s.AfterStageWait + ")"
		for _, g := range s.Groups {
			d.Groups[s.Name+"/"+g.Name] = g.State
			for _, m := range g.Members {
				d.MemberCounts[m.State]++
			}
		}
	}
	d.Progress = fmt.Sprintf("%d of %d members done", done, total)
	if failed := d.MemberCounts[update.StateFailed]; failed > 0 {
		d.Progress += fmt.Sprintf(", %d failed", failed)
	}
	if stage != "" {
		d.Progress += "; stage " + stage
	}
	gates := st.Gates()
	sort.SliceStable(gates, func(i, j int) bool { return gates[i].Key < gates[j].Key })
	for _, g := range gates {
		d.Gates[g.Key] = g.State
	}
	return d
}
