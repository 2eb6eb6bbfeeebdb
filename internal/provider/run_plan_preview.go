package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
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

// runCourse is what a preview of a run needs besides the fleet: what it
// applies and in which order, and where it stands.
type runCourse struct {
	update   update.ManagedClusterUpdate
	strategy *update.Strategy
	auto     *update.AutoUpgrade
	// done are the members an earlier start completed (a run started again).
	done []update.MemberStatus
	// skip are the targets skipped when it starts.
	skip []update.SkipTarget
}

// courseOf is the course of run as the hub holds it, started (again) now
// with skip: what it completed so far stays completed.
func courseOf(run *hub.UpdateRun, skip []update.SkipTarget) runCourse {
	c := runCourse{update: run.Spec.ManagedClusterUpdate, strategy: run.ResolvedStrategy, auto: run.AutoUpgrade, skip: skip}
	for _, m := range run.Status.Members() {
		if m.State == update.StateCompleted {
			c.done = append(c.done, m)
		}
	}
	return c
}

// previewRunCourse simulates course from now on the fleet.
func previewRunCourse(h hub.Hub, f *fleet.Fleet, c runCourse) update.Preview {
	return update.PreviewRestart(c.update, c.strategy, c.auto, update.Members(f), f.Regions, h.UpgradeDuration(), h.Now(), c.done, c.skip)
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

// reviewedRunReport shows the rollout a run's reviewed_preview carries, for a
// run whose order is known only at apply (update_strategy_id of a strategy
// this apply creates): the order and fate of every member as reviewed.
func reviewedRunReport(token string) (preview, bool) {
	r, err := decodeReview(token)
	var e update.RunExpectation
	if err != nil || r.Kind != reviewRun || json.Unmarshal(r.Expect, &e) != nil {
		return preview{}, false
	}
	out := preview{Headline: fmt.Sprintf("the rollout reviewed: %s", countNoun(len(e.Members), "member")),
		First: "As aks_fleet_update_preview previewed it at plan: this run's strategy is known only at apply, where the run is checked against it."}
	var rows [][2]string
	for i, m := range e.Members {
		if i == maxRunPreviewMembers {
			break
		}
		rows = append(rows, [2]string{fmt.Sprintf("%0*d. %s/%s", len(fmt.Sprint(len(e.Members))), i+1, m.Where, m.Name), m.Line()})
	}
	lines := columns(rows)
	if more := len(e.Members) - len(rows); more > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more", more))
	}
	out.add("members in rollout order", lines...)
	return out, true
}

// runActions are what an apply does to a run that exists (designs/updates.md
// §4): whether it starts it (first start, resume, re-run), stops it, and the
// skip targets it sends.
type runActions struct {
	start, restart, stop bool
	skips                []update.SkipTarget
}

// actionsOf decides the actions of an apply from the prior state, the
// planned configuration and the run's state on the hub. prior is the zero
// model for a run being created.
func actionsOf(prior, m *updateRunModel, state string) runActions {
	terminal := state == update.StateCompleted || state == update.StateFailed || state == update.StateStopped
	var a runActions
	switch {
	case m.Stopped && !prior.Stopped && (state == update.StateRunning || state == update.StatePending):
		a.stop = true
	case m.Start && !m.Stopped && state == update.StateNotStarted:
		a.start = true
	case m.Start && !m.Stopped && terminal && prior.Name != "" && (m.RerunTrigger != prior.RerunTrigger || (prior.Stopped && state == update.StateStopped)):
		a.start, a.restart = true, true
	}
	for _, t := range m.Skip {
		if !slices.Contains(prior.Skip, t) {
			a.skips = append(a.skips, t)
		}
	}
	return a
}

// course is the run's course after these actions: a run not started yet
// starts with every target the configuration skips; a run started again
// keeps what it completed and skips what this apply sends; a running run
// goes on with every skip.
func (a runActions) course(run *hub.UpdateRun, configured []update.SkipTarget) runCourse {
	if a.restart {
		return courseOf(run, a.skips)
	}
	return courseOf(run, configured)
}

// withDescription is a list attribute with another description.
func withDescription(a rschema.ListNestedAttribute, description string) rschema.ListNestedAttribute {
	a.MarkdownDescription = description
	return a
}

// previewsCourse: the apply changes which members the run upgrades from now.
func (a runActions) previewsCourse() bool { return a.start || len(a.skips) > 0 }

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
