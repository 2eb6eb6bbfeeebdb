package provider

import (
	"fmt"
	"strconv"
	"time"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

// The update orchestration specs (update.Strategy, update.RunSpec) in
// snake_case, shared by aks_fleet_update_strategy, aks_fleet_update_run and
// aks_fleet_update_preview, and the rollout preview they show.

// gatesAttr is a list of approval gates before or after a stage or group.
func gatesAttr(where string) rschema.ListNestedAttribute {
	return rschema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Approval gates " + where + ": the run waits at them until they are approved " +
			"(`approved_gates` of `aks_fleet_update_run`, or the Fleet Manager API). Skipping their group or stage skips them.",
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"type":         rschema.StringAttribute{Optional: true, MarkdownDescription: "`Approval` (the default and the only generally available type)."},
			"display_name": rschema.StringAttribute{Optional: true, MarkdownDescription: "Shown where the gate is listed, 1–100 characters."},
		}},
	}
}

// updateStagesAttr is a strategy's stages (required in a strategy, optional
// as a run's inline strategy).
func updateStagesAttr(required bool, description string) rschema.ListNestedAttribute {
	return rschema.ListNestedAttribute{Required: required, Optional: !required, MarkdownDescription: description,
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"name": rschema.StringAttribute{Required: true, MarkdownDescription: "Stage name: lower-case letters, digits and `-`, 1–50 characters, unique in the strategy."},
			"groups": rschema.ListNestedAttribute{Required: true,
				MarkdownDescription: "The update groups of the stage, upgraded in parallel (1–50). A group name appears once across all stages.",
				NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"name": rschema.StringAttribute{Required: true, MarkdownDescription: "The update group: members whose `group` is this name are upgraded one after another (or `max_concurrency` at a time)."},
					"max_concurrency": rschema.StringAttribute{Optional: true, MarkdownDescription: "How many members of the group " +
						"are upgraded at once: a number (at most the stage's) or a percentage of the group's members such as `25%` (rounded down, at least 1). Default `1`."},
					"before_gates": gatesAttr("before the group starts"),
					"after_gates":  gatesAttr("after the group finishes"),
				}},
			},
			"after_stage_wait_in_seconds": rschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true,
				MarkdownDescription: fmt.Sprintf("Seconds to wait after the stage finishes before the next stage starts, "+
					"0 (the default) to %d. It runs at the same time as the stage's after gates.", update.MaxAfterStageWaitInSeconds)},
			"max_concurrency": rschema.StringAttribute{Optional: true, MarkdownDescription: "How many members of the whole stage " +
				"are upgraded at once: a number up to 50 or a percentage such as `50%`. Default `50`."},
			"before_gates": gatesAttr("before the stage starts"),
			"after_gates":  gatesAttr("after the stage finishes"),
		}},
	}
}

// rolloutPreviewAttr is the computed rollout preview of a run or of a
// strategy applied to an upgrade: one line per member, in rollout order.
func rolloutPreviewAttr(description string) rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: description,
		Attributes: map[string]rschema.Attribute{
			"evaluated_at": computedString("The instant the preview starts the run at (the hub's clock at plan, RFC 3339)."),
			"summary":      computedString("Totals and the estimated duration, in one line."),
			"estimated_finish": computedString("When the last member is expected to finish (RFC 3339); null when some member waits for " +
				"good (a version never released in its region, a window that never opens)."),
			"to_upgrade": computedInt("Members the run upgrades."),
			"skipped":    computedInt("Members the run skips (already up to date, no consistent image)."),
			"pending":    computedInt("Members that wait (maintenance window closed, version not yet in their region)."),
			"members": rschema.MapAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "One line per member, keyed `<n>. <stage>/<group>/<member>` in rollout order: the predicted outcome " +
					"(`Upgrade`, `Skipped` or `Pending`), versions from → to, the reason, and the estimated start – finish (UTC)."},
			"selected_node_images": rschema.MapAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "For a `Consistent` node image selection: the image version chosen per image family."},
			"approval_gates": rschema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The approval gates the rollout passes (keys as `approved_gates` takes them); the estimate assumes each is approved when reached."},
			"gantt": computedString("The rollout as a Mermaid `gantt` chart (one bar per member, a section per stage): paste it in a " +
				"```` ```mermaid ```` block of a pull-request comment to see the plan as a timeline."),
			"outcomes": rschema.MapAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "What happens to each member in the end, keyed `<stage>/<group>/<member>`, without times: " +
					"`upgrades to 1.33.2`, `is skipped`, `fails to 1.33.2`, `waits for good` or `is not reached` — what starting " +
					"the run decides, and what `reviewed_preview` holds it to. It changes when that does (a member joins, a " +
					"release arrives, the order in which windows open changes who is reached), not with the estimated times."},
			"outcome_summary": computedString("The outcomes counted, e.g. `10 members: 8 upgrade, 2 are skipped`."),
		},
	}
}

// rolloutPreviewDoc is the state of rolloutPreviewAttr.
type rolloutPreviewDoc struct {
	EvaluatedAt        string            `json:"evaluated_at"`
	Summary            string            `json:"summary"`
	EstimatedFinish    string            `json:"estimated_finish"`
	ToUpgrade          int               `json:"to_upgrade"`
	Skipped            int               `json:"skipped"`
	Pending            int               `json:"pending"`
	Members            map[string]string `json:"members"`
	SelectedNodeImages map[string]string `json:"selected_node_images"`
	ApprovalGates      []string          `json:"approval_gates"`
	Gantt              string            `json:"gantt"`
	Outcomes           map[string]string `json:"outcomes"`
	OutcomeSummary     string            `json:"outcome_summary"`
}

func newRolloutPreviewDoc(p update.Preview) rolloutPreviewDoc {
	d := rolloutPreviewDoc{EvaluatedAt: rfc3339(p.At), Summary: p.Summary(), ToUpgrade: p.Totals.Upgrade, Skipped: p.Totals.Skipped,
		Pending: p.Totals.Pending, Members: map[string]string{}, SelectedNodeImages: p.SelectedNodeImages,
		ApprovalGates: append([]string{}, p.Gates...), Gantt: p.Gantt()}
	if !p.Finish.IsZero() {
		d.EstimatedFinish = rfc3339(p.Finish)
	}
	n := 0
	for _, s := range p.Stages {
		for _, g := range s.Groups {
			for _, m := range g.Members {
				n++
				d.Members[rolloutKey(n, p.Totals.Members, s.Name, g.Name, m.Name)] = m.Line()
			}
		}
	}
	e := update.ExpectRun(p)
	d.Outcomes, d.OutcomeSummary = map[string]string{}, e.Summary()
	for _, m := range e.Members {
		d.Outcomes[m.Where()+"/"+m.Name] = m.Line()
	}
	return d
}

// rfc3339 renders an instant in UTC; the zero time is empty (null in state).
func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// rolloutKey is a preview member's map key: the keys sort in rollout order
// (the position zero-padded to the width of the member count).
func rolloutKey(n, total int, stage, group, member string) string {
	return fmt.Sprintf("%0*d. %s/%s/%s", len(strconv.Itoa(total)), n, stage, group, member)
}
