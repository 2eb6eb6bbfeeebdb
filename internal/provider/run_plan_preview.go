package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// An update run's preview (designs/previews.md §3): the run simulated from
// now — a new run, a run that has not started, or a run started again — for
// the resource's plan diagnostic and for the aks_fleet_update_preview data
// source, from one function (previewRunCourse) so that the two agree.

// previewRunCourse simulates run, as the hub holds it (or as it is to be
// created, never started), started (again) now on the fleet with skip: what
// it completed so far stays completed (update.PreviewRestart).
func previewRunCourse(h hub.Hub, f *fleet.Fleet, run *hub.UpdateRun, skip []update.SkipTarget) update.Preview {
	return update.PreviewRestart(run.Spec.ManagedClusterUpdate, run.ResolvedStrategy, run.AutoUpgrade, update.Members(f), f.Regions,
		h.UpgradeDuration(), h.Now(), &run.Status, skip)
}

// runReviewInput is what a run's review covers (designs/previews.md §5).
type runReviewInput struct {
	Strategy *update.Strategy            `json:"strategy"`
	Update   update.ManagedClusterUpdate `json:"update"`
	Start    bool                        `json:"start"`
	Skip     []update.SkipTarget         `json:"skip"`
}

// runReviewSpec is the digest of a run's review input.
func runReviewSpec(strategy *update.Strategy, u update.ManagedClusterUpdate, start bool, skip []update.SkipTarget) string {
	return specDigest(runReviewInput{Strategy: strategy, Update: u, Start: start, Skip: skip}, func(in runReviewInput) runReviewInput {
		if in.Strategy != nil {
			s := update.StrategyWithDefaults(*in.Strategy)
			in.Strategy = &s
		}
		in.Update = update.RunWithDefaults(update.RunSpec{ManagedClusterUpdate: in.Update}).ManagedClusterUpdate
		return in
	})
}

// maxRunPreviewMembers bounds the members a run's plan diagnostic lists one
// by one (designs/previews.md §6); members predicted to fail are always listed.
const maxRunPreviewMembers = 30

// runReport is the plan diagnostic of a rollout preview; what says what is
// previewed ("if the run started then", "what the run does from now").
func runReport(p update.Preview, what string) preview {
	out := preview{Headline: p.Summary(), At: p.At, Basis: what + ", on the fleet as the hub reports it"}
	var rows [][2]string
	var failing []string
	n := 0
	for _, s := range p.Stages {
		for _, g := range s.Groups {
			for _, m := range g.Members {
				n++
				key := rolloutKey(n, p.Totals.Members, s.Name, g.Name, m.Name)
				if len(rows) < maxRunPreviewMembers {
					rows = append(rows, [2]string{key, m.Line()})
				} else if m.Outcome == update.OutcomeFail {
					failing = append(failing, key+"  "+m.Line())
				}
			}
		}
	}
	lines := columns(rows)
	if more := p.Totals.Members - len(rows); more > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more (aks_fleet_update_preview lists every member)", more))
	}
	out.add("members in rollout order", lines...)
	out.add("members further on that fail", failing...)
	var imgs []string
	for _, fam := range sortedKeys(p.SelectedNodeImages) {
		imgs = append(imgs, fam+" "+p.SelectedNodeImages[fam])
	}
	out.add("node images chosen (Consistent)", imgs...)
	if len(p.Gates) > 0 {
		out.add("approval gates, assumed approved when reached", strings.Join(p.Gates, ", "))
	}
	return out
}

// unknownStrategyReport is the plan diagnostic of a run created whose order
// is known only at apply (update_strategy_id of a strategy this apply
// creates): the rollout its reviewed_preview carries — the order and fate of
// every member as previewed — or why there is none. Started, the run is held
// to it at apply; created without a start, it is what a start would do, as
// the data source previewed it.
func unknownStrategyReport(token string, tokenUnknown, start bool) preview {
	r, err := decodeReview(token)
	var e update.RunExpectation
	if tokenUnknown || err != nil || r.Kind != reviewRun || json.Unmarshal(r.Expect, &e) != nil {
		return preview{Headline: "previewed at apply",
			First: "The run follows a strategy this apply creates: its order is known, and the run previewed, only at apply. " +
				"An aks_fleet_update_preview data source given the same stages previews it at plan (and, as reviewed_preview, " +
				"holds the start to it)."}
	}
	out := preview{Headline: fmt.Sprintf("the rollout reviewed: %s", countNoun(len(e.Members), "member")),
		First: "As aks_fleet_update_preview previewed it at plan: this run's strategy is known only at apply, where the run is checked against it."}
	if !start {
		out = preview{Headline: fmt.Sprintf("created, not started; the rollout previewed if started: %s", countNoun(len(e.Members), "member")),
			First: "As aks_fleet_update_preview previewed it at plan: this run's strategy is known only at apply. " +
				"The run is not started by this apply; the apply that starts it previews, and checks, it again."}
	}
	var rows [][2]string
	for i, m := range e.Members {
		if i == maxRunPreviewMembers {
			break
		}
		rows = append(rows, [2]string{rolloutKey(i+1, len(e.Members), m.Stage, m.Group, m.Name), m.Line()})
	}
	lines := columns(rows)
	if more := len(e.Members) - len(rows); more > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more", more))
	}
	out.add("members in rollout order", lines...)
	return out
}

// actionsOf decides the actions of an apply (update.DecideActions) from the
// prior state, the planned configuration and the run's state on the hub.
// prior is the zero model for a run being created.
func actionsOf(prior, m *updateRunModel, state string) update.RunActions {
	return update.DecideActions(prior.intent(), prior.Name == "", m.intent(), state)
}

// intent is what the model asks of its run.
func (m *updateRunModel) intent() update.RunIntent {
	return update.RunIntent{Start: m.Start, Stopped: m.Stopped, RerunTrigger: m.RerunTrigger, Skip: m.Skip}
}

// withDescription is a list attribute with another description.
func withDescription(a rschema.ListNestedAttribute, description string) rschema.ListNestedAttribute {
	a.MarkdownDescription = description
	return a
}

// runFleet reads the fleet for a run's preview.
func runFleet(ctx context.Context, h hub.Hub, diags *diag.Diagnostics) (*fleet.Fleet, bool) {
	f, err := h.Fleet(ctx)
	if err != nil {
		diags.AddError("Cannot read the fleet", err.Error())
		return nil, false
	}
	return f, true
}

// sameRun: run is the run of spec — the same spec as the resource compares
// it (a strategy referenced by id: the run keeps its own copy), or the same
// stages, update and images once resolved (a preview given the stages of
// the strategy the run references).
func sameRun(run *hub.UpdateRun, spec update.RunSpec, resolved *update.Strategy) bool {
	return sameSpec(run.Spec, spec, update.RunWithDefaults) ||
		runReviewSpec(run.ResolvedStrategy, run.Spec.ManagedClusterUpdate, false, nil) == runReviewSpec(resolved, spec.ManagedClusterUpdate, false, nil)
}
