package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

var (
	_ resource.ResourceWithConfigure      = (*updateStrategyResource)(nil)
	_ resource.ResourceWithValidateConfig = (*updateStrategyResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*updateStrategyResource)(nil)
	_ resource.ResourceWithImportState    = (*updateStrategyResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*updateStrategyResource)(nil)
)

const updateStrategyType = "aks_fleet_update_strategy"

// updateStrategyKind names the resource in the engine's name rule.
const updateStrategyKind = "update strategy"

func newUpdateStrategyResource() resource.Resource { return &updateStrategyResource{} }

type updateStrategyResource struct {
	hubClient
}

// updateStrategyModel is the whole resource state; the embedded strategy's
// stages are the configurable spec.
type updateStrategyModel struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	update.Strategy
}

func (updateStrategyResource) model() any { return &updateStrategyModel{} }

// strategies is the update strategy's lifecycle (kind).
var strategies = &kind[updateStrategyModel, hub.UpdateStrategy, update.Strategy]{
	typ:      updateStrategyType,
	id:       func(m *updateStrategyModel) string { return m.ID },
	name:     func(m *updateStrategyModel) string { return m.Name },
	spec:     func(m *updateStrategyModel) update.Strategy { return m.Strategy },
	defaults: update.StrategyWithDefaults,
	get: func(ctx context.Context, h hub.Hub, id string) (*hub.UpdateStrategy, error) {
		return h.GetUpdateStrategy(ctx, id)
	},
	del: func(ctx context.Context, h hub.Hub, id string, pre hub.Precondition) error {
		return h.DeleteUpdateStrategy(ctx, id, pre)
	},
	parts: func(s *hub.UpdateStrategy) (hub.Meta, update.Strategy, *update.Strategy) {
		return s.Meta, s.Spec, s.Written
	},
}

// strategyPreviewDoc is what the strategy's groups resolve to in the fleet
// now, one line per group: the plan diagnostic's content (report).
type strategyPreviewDoc struct {
	// order lists the groups' keys in the order of the stages.
	order            []string
	Groups           map[string]string `json:"groups"`
	MembersInNoGroup []string          `json:"members_in_no_group"`
	Summary          string            `json:"summary"`
}

// maxStrategyPreviewMembers is how many member names a group's preview line lists
// before "and N more".
const maxStrategyPreviewMembers = 10

func (r *updateStrategyResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_update_strategy"
}

func (r *updateStrategyResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

func (r *updateStrategyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]rschema.Attribute{
		"name": rschema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			MarkdownDescription: "The strategy name: lower-case letters, digits and `-`, 1–50 characters, starting and ending with a " +
				"letter or a digit. Runs and auto-upgrade profiles reference the strategy by it (`update_strategy_id`)."},
		"id": rschema.StringAttribute{Computed: true, MarkdownDescription: "The strategy name.",
			PlanModifiers: []planmodifier.String{idOfName("name")}},
		"stages": updateStagesAttr(true, "The stages, run one after another (at least one). The groups of a stage are upgraded "+
			"in parallel; a group is the set of members whose update `group` is its name, and appears in one stage only."),
	}
	attrs, blocks := configBlocks(attrs)
	resp.Schema = rschema.Schema{
		// Version 2: configurable structures are blocks (designs/schema.md
		// §1); version 1 had no preview attribute (designs/previews.md §7).
		// A change of the state's shape bumps it, freezes the prior schema
		// (TestFreezeSchemas) and adds an upgrader from every earlier
		// version to UpgradeState.
		Version: 2,
		MarkdownDescription: "An Azure Kubernetes Fleet Manager update strategy (`fleets/updateStrategies`): the order in which " +
			"update runs upgrade member clusters — stages one after another, the update groups of a stage in parallel, with " +
			"optional waits and approval gates. `terraform plan` shows, when the strategy is created or its stages change, " +
			"which members each group resolves to in the current fleet, and warns about a group no member has (the service rejects a run that uses it) and about members no group " +
			"of the strategy covers (never upgraded by it). A run copies the strategy when it is created: changing the " +
			"strategy later affects only new runs.",
		Attributes: attrs,
		Blocks:     blocks,
	}
}

// updateNameErrors is the name rule at the name attribute.
func updateNameErrors(kind, name string) field.Errors {
	var fe field.Error
	if err := update.ValidateName(kind, name); errors.As(err, &fe) {
		return field.Errors{fe}.Prefix(field.Root("name"))
	}
	return nil
}

func (r *updateStrategyResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m updateStrategyModel
	unknown, ok := readConfig(req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	errs := append(updateNameErrors(updateStrategyKind, m.Name), update.ValidateStrategy(m.Strategy)...)
	reportErrors(&resp.Diagnostics, "Invalid update strategy", errs, unknown)
}

func (r *updateStrategyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		strategies.planDestroy(ctx, r.hub, req, resp)
		return
	}
	var plan updateStrategyModel
	unknown, ok := readPlan(req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	if strategies.refuseTaken(ctx, req, r.hub, &plan, unknown.covers(field.Root("name")), &resp.Diagnostics) {
		return
	}
	if !req.State.Raw.IsNull() {
		var prior updateStrategyModel
		if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
			return
		}
		// A new name replaces the strategy (RequiresReplace): no update rule applies.
		replaced := unknown.covers(field.Root("name")) || prior.Name != plan.Name
		if !replaced {
			reportErrors(&resp.Diagnostics, "Invalid update strategy change", update.ValidateStrategyUpdate(prior.Strategy, plan.Strategy), unknown)
			if resp.Diagnostics.HasError() {
				return
			}
			if len(unknown) == 0 && sameSpec(prior.Strategy, plan.Strategy, update.StrategyWithDefaults) {
				return // nothing to preview: the hub already holds these stages
			}
		}
	}
	if len(unknown) > 0 || r.hub == nil {
		return // the preview depends on values known only at apply: apply previews it
	}
	f, err := r.hub.Fleet(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the fleet", err.Error())
		return
	}
	reportWarnings(&resp.Diagnostics, "Update strategy", update.StrategyWarnings(plan.Strategy, f))
	reportPreview(&resp.Diagnostics, objectRef{updateStrategyType, plan.Name}, newStrategyPreviewDoc(plan.Strategy, f).report(r.hub.Now()))
}

// report is the plan diagnostic of the strategy's groups, evaluated at now.
func (d strategyPreviewDoc) report(now time.Time) preview {
	p := preview{Headline: d.Summary, At: now, Basis: "on the fleet's members as the hub reports them; runs copy the strategy when created"}
	var rows [][2]string
	for _, k := range d.order {
		rows = append(rows, [2]string{k, d.Groups[k]})
	}
	p.add("groups", columns(rows)...)
	if len(d.MembersInNoGroup) > 0 {
		p.add("members in no group (a run that follows the strategy never upgrades them)", strategyMemberList(d.MembersInNoGroup))
	}
	return p
}

// UpgradeState: version 0 held a preview (designs/previews.md §7).
func (r *updateStrategyResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return blockUpgraders("update strategy", fleetUpdateStrategySchemaV1(), []int64{0}, dropPreviewOnly)
}

func (r *updateStrategyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, opCreate, req.Plan, createGuard, &resp.State, resp.Private, &resp.Diagnostics)
}

func (r *updateStrategyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var prior updateStrategyModel
	if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
		return
	}
	r.apply(ctx, opUpdate, req.Plan, strategies.updateGuard(ctx, r.hub, req.Private, &prior, &resp.Diagnostics), &resp.State, resp.Private, &resp.Diagnostics)
}

// apply sends the planned strategy to the hub (a create must not find it; an
// update must find the version last read).
func (r *updateStrategyResource) apply(ctx context.Context, op string, plan tfsdk.Plan, guarded writeGuard,
	state *tfsdk.State, private privateSetter, diags *diag.Diagnostics) {
	var m updateStrategyModel
	if _, ok := readValue(plan.Raw, &m, diags); !ok || diags.HasError() {
		return
	}
	s, ok := strategies.write(op, &m, guarded, func(pre hub.Precondition) (*hub.UpdateStrategy, error) {
		return r.hub.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: m.Name}, Spec: m.Strategy}, pre)
	}, diags)
	if ok {
		strategies.record(ctx, plan.Raw, s.Name, s, state, private, diags)
	}
}

func (r *updateStrategyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	prior, s, ok := strategies.read(ctx, r.hub, req, resp)
	if !ok {
		return
	}
	spec, adopted := strategies.adopt(ctx, req.Private, resp.Private, prior.Strategy, s, &resp.Diagnostics)
	if adopted || prior.Name != s.Name { // imported, or changed outside Terraform
		setState(ctx, &resp.State, updateStrategyModel{ID: s.Name, Name: s.Name, Strategy: spec}, &resp.Diagnostics)
	}
}

func (r *updateStrategyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	strategies.delete(ctx, r.hub, req, resp)
}

// ImportState takes the strategy's name or its ARM id; the id recorded is
// the bare name.
func (r *updateStrategyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name, err := strategyImportName(req.ID)
	if err == nil {
		name, err = inFleet(r.hub, armfleet.UpdateStrategies, req.ID)
	}
	if err != nil {
		resp.Diagnostics.AddError("Invalid import id", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
	markImported(ctx, resp.Private, &resp.Diagnostics)
}

// strategyImportName is the strategy an import id names: a name, or an ARM
// id /subscriptions/…/providers/Microsoft.ContainerService/fleets/<fleet>/updateStrategies/<name>
// (fixed segments in any case). The engine's rule of update_strategy_id,
// which takes the same two forms, is the rule of the import id.
func strategyImportName(id string) (string, error) {
	const form = "Import an update strategy by its name, e.g. canary-first, or by its ARM id " +
		"/subscriptions/<subscription>/resourceGroups/<resource group>/providers/Microsoft.ContainerService/fleets/<fleet>/updateStrategies/<name>"
	if id == "" {
		return "", errors.New(form + "; got an empty id.")
	}
	for _, e := range update.ValidateRun(update.RunSpec{UpdateStrategyID: id}) {
		if e.ID == update.RuleStrategyID {
			return "", errors.New(form + ": " + e.Rule + ".")
		}
	}
	return update.StrategyNameFromID(id), nil
}

// newStrategyPreviewDoc resolves the strategy's groups against the fleet.
func newStrategyPreviewDoc(s update.Strategy, f *fleet.Fleet) strategyPreviewDoc {
	d := strategyPreviewDoc{Groups: map[string]string{}, MembersInNoGroup: []string{}}
	members := map[string][]string{} // group -> member names, sorted (the fleet's clusters are)
	for _, c := range f.Clusters {
		members[c.Group] = append(members[c.Group], c.Name)
	}
	covered := map[string]bool{}
	groups, reached, empty := 0, 0, 0
	for _, st := range s.Stages {
		stageMembers := 0
		for _, g := range st.Groups {
			if !covered[g.Name] {
				stageMembers += len(members[g.Name])
			}
		}
		stageLimit := update.ResolveConcurrency(st.MaxConcurrency, stageMembers, concurrencyDefault(update.DefaultStageMaxConcurrency))
		for _, g := range st.Groups {
			if covered[g.Name] {
				continue // listed twice: a validation error, previewed once
			}
			covered[g.Name] = true
			groups++
			names := members[g.Name]
			if g.Name == "" {
				names = nil // the members without a group are in no group
			}
			reached += len(names)
			key := st.Name + "/" + g.Name
			d.order = append(d.order, key)
			if len(names) == 0 {
				empty++
				d.Groups[key] = "0 members: no member of the fleet is in this group"
				continue
			}
			k := min(update.ResolveConcurrency(g.MaxConcurrency, len(names), concurrencyDefault(update.DefaultGroupMaxConcurrency)), stageLimit)
			d.Groups[key] = fmt.Sprintf("%s: %s (concurrency %d)", countNoun(len(names), "member"), strategyMemberList(names), k)
		}
	}
	for _, c := range f.Clusters {
		if c.Group == "" || !covered[c.Group] {
			d.MembersInNoGroup = append(d.MembersInNoGroup, c.Name)
		}
	}
	d.Summary = fmt.Sprintf("%s, %s: %d of %s", countNoun(len(s.Stages), "stage"), countNoun(groups, "group"), reached, countNoun(len(f.Clusters), "member"))
	if n := len(d.MembersInNoGroup); n > 0 {
		d.Summary += fmt.Sprintf(", %d in no group", n)
	}
	if empty > 0 {
		d.Summary += fmt.Sprintf("; %s without members", countNoun(empty, "group"))
	}
	return d
}

// strategyMemberList names the first maxStrategyPreviewMembers members, then "and N more".
func strategyMemberList(names []string) string {
	if len(names) <= maxStrategyPreviewMembers {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxStrategyPreviewMembers], ", "), len(names)-maxStrategyPreviewMembers)
}

// countNoun is "1 member", "2 members".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// concurrencyDefault is an engine default of max_concurrency (a whole number) as a count.
func concurrencyDefault(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
