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

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// A placement's preview (designs/previews.md §3): the Fleet scheduler run on
// the fleet as the hub reports it, for a new placement or as a change of the
// placement the hub holds — computed once, by previewPlacement, for the
// resource's plan diagnostic and for the aks_fleet_placement_preview data
// source, so that the two always agree.

// placementPreview is one scheduling cycle previewed.
type placementPreview struct {
	spec   placement.Spec
	result placement.Result
	// held are the clusters the placement held before (a change); nil for a new one.
	held   []string
	change bool
	// prev is the spec the hub holds (a change), cur the placement.
	prev     placement.Spec
	cur      *hub.Placement
	at       time.Time
	warnings []field.Warning
	// selection is what the resource selectors select on the hub cluster;
	// nil when the hub could not say at plan (unknownSelection says why).
	selection        *placement.Selection
	unknownSelection string
	// rollout is how the write rolls the resources out (designs/placement.md
	// §10); nil when the selection is unknown at plan.
	rollout *placement.RolloutPlan
	// resourcesChange tells that a change rolls out new resources (a new
	// resource snapshot) rather than only binding the clusters it adds.
	resourcesChange bool
}

// placementTarget says what a preview is of: the placement the hub holds
// under name (a change of it, when it exists), or a what-if with held
// clusters given (no scores recorded for them).
type placementTarget struct {
	name string
	held []string
}

// previewPlacement schedules spec on the fleet now.
func previewPlacement(ctx context.Context, h hub.Hub, spec placement.Spec, t placementTarget, diags *diag.Diagnostics) (placementPreview, bool) {
	f, err := h.Fleet(ctx)
	if err != nil {
		diags.AddError("Cannot read the fleet", err.Error())
		return placementPreview{}, false
	}
	pv := placementPreview{spec: spec, at: h.Now(), held: t.held}
	var opts placement.ScheduleOptions
	if t.name != "" {
		cur, err := h.GetPlacement(ctx, t.name)
		switch {
		case errors.Is(err, hub.ErrNotFound): // a new placement
		case err != nil:
			hubError(diags, opRead, objectRef{placementType, t.name}, err)
			return placementPreview{}, false
		case placementTypeChanges(cur.Spec.Policy, spec.Policy): // the placement is replaced: a new one
		default:
			// The clusters held, with the scores recorded when each was
			// picked: scale-in ranks by them (designs/placement.md §7).
			pv.change, pv.held, pv.prev, pv.cur = true, cur.Status.Selected, cur.Spec, cur
			opts.Recorded = placement.RecordedScores(cur.Status.Decisions)
			opts.Scheduled = cur.Status.Scheduled
			opts.Prev = &cur.Spec
		}
	}
	pv.result, err = placement.Schedule(spec, f, pv.held, pv.at, opts)
	if err != nil {
		diags.AddAttributeError(path.Root("policy"), "Cannot schedule the placement", err.Error())
		return placementPreview{}, false
	}
	pv.warnings = placement.Warnings(spec, f, pv.result, pv.at)
	res, err := h.HubResources(ctx, spec.ResourceSelectors)
	if err != nil {
		pv.unknownSelection = err.Error()
		return pv, true
	}
	sel := placement.SelectResources(spec.ResourceSelectors, res)
	if sel.Error != nil {
		reportErrors(diags, "Resource selectors Fleet refuses", field.Errors{*sel.Error}, nil)
		return placementPreview{}, false
	}
	pv.selection = &sel
	pv.warnings = append(pv.warnings, placement.SelectionWarnings(spec.ResourceSelectors, sel)...)
	var st placement.RolloutState
	if pv.change {
		st, pv.resourcesChange = hubRollout(pv.cur, spec, sel)
	}
	plan := placement.NextRollout(spec, st, pv.result.Selected, pv.resourcesChange, sel, placement.PlacementFailures(f), pv.at)
	pv.rollout = &plan
	return pv, true
}

// hubRollout is the rollout state a placement cur reports, and whether
// writing spec, which selects sel, starts a new resource snapshot: its
// selectors change, or the resources say something else than the latest
// snapshot's (the digest, when the hub keeps it; else the resources
// selected). A hub that reports no bindings has every cluster held on its
// latest snapshot.
func hubRollout(cur *hub.Placement, spec placement.Spec, sel placement.Selection) (placement.RolloutState, bool) {
	st := placement.RolloutState{Index: max(cur.Status.ResourceIndex, 0), Digest: cur.Status.ResourceDigest, Bindings: cur.Status.Bindings,
		Untracked: placement.Untracked(placement.Selection{Resources: cur.Status.SelectedResources})}
	if st.Bindings == nil {
		for _, c := range cur.Status.Selected {
			st.Bindings = append(st.Bindings, placement.Binding{Cluster: c, Index: st.Index, AppliedAt: time.Unix(0, 0).UTC()})
		}
	}
	changes := specDigest(placement.Spec{ResourceSelectors: spec.ResourceSelectors}, placement.WithDefaults) !=
		specDigest(placement.Spec{ResourceSelectors: cur.Spec.ResourceSelectors}, placement.WithDefaults)
	switch {
	case st.Digest != "":
		changes = changes || sel.Digest != st.Digest
	default:
		changes = changes || !slices.Equal(sel.Resources, cur.Status.SelectedResources)
	}
	return st, changes
}

// placementReviewSpec is the digest of what a placement's review covers:
// its policy (designs/previews.md §5).
func placementReviewSpec(s placement.Spec) string {
	return specDigest(placement.Spec{Policy: s.Policy}, placement.WithDefaults)
}

// expectation is what applying the previewed spec does (placement.ExpectApply).
func (p placementPreview) expectation() placement.Expectation {
	var prev *placement.Spec
	if p.change {
		prev = &p.prev
	}
	return placement.ExpectApply(prev, p.spec, p.held, p.result)
}

// review is the preview's token for reviewed_preview (designs/previews.md §4).
func (p placementPreview) review(name string) (string, error) {
	return reviewToken(reviewPlacement, name, placementReviewSpec(p.spec), p.expectation())
}

// headline is the preview in one line, e.g. "PickN: 3 of 3 clusters selected".
func (p placementPreview) headline() string {
	pt := placement.WithDefaults(p.spec).Policy.PlacementType
	r := p.result
	var s string
	switch {
	case r.Requested < 0:
		s = fmt.Sprintf("%s: %s selected", pt, clusters(len(r.Selected)))
	case pt == placement.PickFixed:
		s = fmt.Sprintf("%s: %d of %s named selected", pt, len(r.Selected), clusters(r.Requested))
	default:
		s = fmt.Sprintf("%s: %d of %s selected", pt, len(r.Selected), clusters(r.Requested))
	}
	if p.change {
		added, released := p.moves()
		s += fmt.Sprintf(", %d added, %d released", len(added), len(released))
		if n := len(added) + len(released); n > 0 && n <= maxHeadlineClusters {
			var moved []string
			for _, c := range added {
				moved = append(moved, "+"+c)
			}
			for _, c := range released {
				moved = append(moved, "-"+c)
			}
			s += " (" + strings.Join(moved, ", ") + ")"
		}
	} else if n := len(p.result.Selected); n > 0 && n <= maxHeadlineClusters {
		s += ": " + strings.Join(p.result.Selected, ", ")
	}
	return s
}

// maxHeadlineClusters bounds the clusters a preview's headline names: few
// enough that a reviewer sees at a glance what is picked, in the plan and
// again at apply.
const maxHeadlineClusters = 3

// moves are the clusters a change adds and releases.
func (p placementPreview) moves() (added, released []string) {
	held := map[string]bool{}
	for _, c := range p.held {
		held[c] = true
	}
	for _, c := range p.result.Selected {
		if !held[c] {
			added = append(added, c)
		}
		delete(held, c)
	}
	for c := range held {
		released = append(released, c)
	}
	sort.Strings(released)
	return added, released
}

// report is the plan diagnostic: the selected clusters (on a change: those
// added and released), the best left out, counts per reason, the rollout.
// limit bounds the clusters listed (designs/previews.md §6).
func (p placementPreview) report(limit int) preview {
	if limit <= 0 {
		limit = placement.DefaultPreviewLimit
	}
	pp := placement.Preview(p.result, limit)
	out := preview{Headline: p.headline(), At: p.at, Basis: "by the Fleet scheduler on the fleet as the hub reports it"}
	if p.result.UnfulfilledMessage != "" {
		out.add("", p.result.UnfulfilledMessage)
	}
	line := func(d placement.Decision) [2]string {
		v := fmt.Sprintf("affinity %d, topology spread %d", d.AffinityScore, d.TopologySpreadScore)
		if d.Reason != "" && d.Reason != placement.ReasonPicked {
			v += " — " + d.Reason
		}
		return [2]string{d.ClusterName, v}
	}
	byName := map[string]placement.Decision{}
	for _, d := range p.result.Decisions {
		byName[d.ClusterName] = d
	}
	// The lists share the limit: the selected (or moved) clusters first, the
	// left-out ones get the rest (at least half when both are long).
	var first [][2]string
	var firstTitle string
	if p.change {
		added, released := p.moves()
		for _, c := range added {
			first = append(first, [2]string{"+ " + c, line(byName[c])[1]})
		}
		for _, c := range released {
			why := "released"
			if d, ok := byName[c]; ok && d.Reason != "" {
				why = "released: " + d.Reason
				if d.Reason == placement.ReasonScaledIn { // which score ranked it
					why += fmt.Sprintf(" (affinity %d, topology spread %d)", d.AffinityScore, d.TopologySpreadScore)
				}
			}
			first = append(first, [2]string{"- " + c, why})
		}
		var kept []string
		for _, c := range p.result.Selected {
			if !slices.Contains(added, c) {
				kept = append(kept, c)
			}
		}
		line := fmt.Sprintf("keeps %s it holds", clusters(len(kept)))
		if len(kept) > 0 {
			line += ": " + strings.Join(kept[:min(len(kept), maxKeptListed)], ", ")
			if len(kept) > maxKeptListed {
				line += fmt.Sprintf(" and %d more", len(kept)-maxKeptListed)
			}
		}
		out.add("", line)
		firstTitle = fmt.Sprintf("added (%d) and released (%d)", len(added), len(released))
	} else {
		for _, d := range pp.Selected {
			first = append(first, line(d))
		}
		firstTitle = fmt.Sprintf("selected (%d)", len(pp.Selected))
	}
	total := 0
	for _, n := range pp.LeftOutCounts {
		total += n
	}
	// A new placement lists the best left out; a change, whose reviewer
	// reads what moves, counts them.
	var left [][2]string
	if !p.change {
		for i, d := range pp.LeftOut {
			left = append(left, [2]string{fmt.Sprintf("#%d %s", i+1, d.ClusterName), d.Reason})
		}
	}
	nFirst, nLeft := split(limit, len(first), len(left))
	out.add(firstTitle, bounded(columns(first), nFirst, "")...)
	if len(left) > 0 {
		lines := columns(left)[:min(nLeft, len(left))]
		if more := total - len(lines); more > 0 {
			lines = append(lines, fmt.Sprintf("… and %d more", more))
		}
		out.add(fmt.Sprintf("left out (%d; the best first)", total), lines...)
	}
	if total > min(len(left), nLeft) { // not every left-out cluster is listed: count them all
		var counts []string
		for _, reason := range sortedKeys(pp.LeftOutCounts) {
			counts = append(counts, fmt.Sprintf("%d %s", pp.LeftOutCounts[reason], reason))
		}
		out.add("left out per reason", counts...)
	}
	if lines := p.resourceLines(limit); len(lines) == 1 && len(lines[0]) <= maxResourceLine {
		out.add("", p.resourcesTitle()+": "+lines[0]) // a few resources: one line
	} else {
		out.add(p.resourcesTitle(), lines...)
	}
	resolved := rolloutLine(placement.ResolveRollout(p.spec.Strategy, len(p.result.Selected)))
	if summary, lines := p.batchLines(limit); len(lines) > 0 {
		out.add("rollout ("+resolved+"): "+summary, lines...)
	} else {
		out.add("rollout", resolved)
	}
	return out
}

// batchLines are a summary of the rollout (how many batches, when all
// clusters are available) and its batches in order with when each starts
// (relative to apply), the clusters of each and those that fail, then the
// clusters it cannot reach; at most limit batches.
func (p placementPreview) batchLines(limit int) (string, []string) {
	r := p.rollout
	switch {
	case r == nil:
		return "", nil
	case r.External:
		if p.resourcesChange || !p.change {
			return "no batches", []string{"nothing rolls out until an external rollout does"}
		}
		return "", nil
	case len(r.Batches) == 0 && len(r.Blocked) == 0:
		if p.change {
			return "no batches", []string{"every cluster has the latest resources"}
		}
		return "", nil
	}
	var lines []string
	for i, b := range r.Batches {
		if i == limit {
			lines = append(lines, fmt.Sprintf("… and %d more batches", len(r.Batches)-i))
			break
		}
		when := "at apply"
		if d := b.At.Sub(p.at); d > 0 {
			when = "+" + shortDuration(d)
		}
		line := fmt.Sprintf("%d · %s · %s", i+1, when, namesBounded(b.Clusters, maxBatchNames))
		if len(b.Failed) > 0 {
			line += " — fails to apply on " + namesBounded(b.Failed, maxBatchNames)
		}
		lines = append(lines, line)
	}
	if len(r.Blocked) > 0 {
		lines = append(lines, fmt.Sprintf("then blocked: %s never updated (%s): %s",
			clusters(len(r.Blocked)), namesBounded(r.Blocked, maxBatchNames), placement.BlockedWhy(*r)))
	}
	summary := fmt.Sprintf("%d batches", len(r.Batches))
	if len(r.Batches) == 1 {
		summary = "1 batch"
	}
	if !r.Done.IsZero() {
		if d := r.Done.Sub(p.at); d > 0 {
			summary += ", the last +" + shortDuration(d) + " after apply"
		} else {
			summary += ", all at apply"
		}
	}
	return summary, lines
}

// maxBatchNames bounds the clusters a batch line names.
const maxBatchNames = 6

// namesBounded is names joined, the first n and how many more.
func namesBounded(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// shortDuration is d as "45s", "1m", "1m30s", "2h", "2h5m".
func shortDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	var out string
	if h > 0 {
		out += fmt.Sprintf("%dh", h)
	}
	if m > 0 {
		out += fmt.Sprintf("%dm", m)
	}
	if s > 0 && h == 0 {
		out += fmt.Sprintf("%ds", s)
	}
	if out == "" {
		return "0s"
	}
	return out
}

// maxResourceLine bounds the resources a preview writes on one line.
const maxResourceLine = 160

// resourcesTitle is the title of the resources' section: how many the
// selectors select, and how many of them are envelopes.
func (p placementPreview) resourcesTitle() string {
	if p.selection == nil {
		return "resources"
	}
	t := fmt.Sprintf("resources (%d selected", len(p.selection.Resources))
	switch n := p.selection.Envelopes; {
	case n == 1:
		t += ", 1 envelope"
	case n > 1:
		t += fmt.Sprintf(", %d envelopes", n)
	}
	return t + ")"
}

// resourceLines list the selected resources in Fleet's order, an
// envelope with the objects it carries, at most limit lines.
func (p placementPreview) resourceLines(limit int) []string {
	if p.selection == nil {
		return []string{"unknown at plan: " + p.unknownSelection}
	}
	if len(p.selection.Resources) == 0 {
		return []string{"none: the selectors select nothing on the hub cluster"}
	}
	var lines []string
	for _, r := range p.selection.Resources {
		line := r.String()
		if c := p.selection.Contents[r]; len(c) > 0 {
			var carried []string
			for _, x := range c {
				carried = append(carried, x.String())
			}
			line += " (envelope of " + strings.Join(carried, ", ") + ")"
		}
		lines = append(lines, line)
	}
	if one := strings.Join(lines, "; "); len(one) <= maxResourceLine {
		return []string{one}
	}
	return bounded(lines, limit, "")
}

// maxKeptListed bounds the clusters a change's preview names as kept.
const maxKeptListed = 10

// split shares limit lines between two lists: each gets what it needs when
// both fit, else the longer gets what the shorter leaves (at least half).
func split(limit, a, b int) (int, int) {
	if a+b <= limit {
		return a, b
	}
	half := limit / 2
	switch {
	case a <= half:
		return a, limit - a
	case b <= half:
		return limit - b, b
	}
	return half, limit - half
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func clusters(n int) string {
	if n == 1 {
		return "1 cluster"
	}
	return fmt.Sprintf("%d clusters", n)
}

// rolloutLine is a resolved rollout in words.
func rolloutLine(r placement.Rollout) string {
	if r.Type != placement.RollingUpdateStrategy {
		return r.Type + ": rolled out by an external controller"
	}
	return fmt.Sprintf("%s: up to %d unavailable and %d extra at a time, unavailable_period_seconds %d",
		r.Type, r.MaxUnavailable, r.MaxSurge, r.UnavailablePeriodSeconds)
}

// The state's shape changed in schema version 1 (the preview, one line per
// cluster) and 2 (no preview; a status of counts, designs/previews.md §7).
// Both earlier versions upgrade to the current one: the preview is dropped
// and the status keeps what it said, counted.
func (r *placementResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return blockUpgraders("placement", fleetPlacementSchemaV2(), []int64{0, 1}, upgradePlacementState)
}

// upgradePlacementState drops the preview and counts the status's clusters.
func upgradePlacementState(state map[string]json.RawMessage) error {
	_ = dropPreview(state)
	if raw := state["status"]; len(raw) > 0 && string(raw) != "null" {
		var old struct {
			SelectedClusters   []string         `json:"selected_clusters"`
			Requested          *int             `json:"requested"`
			Fulfilled          bool             `json:"fulfilled"`
			Message            *string          `json:"message"`
			ObservedGeneration int64            `json:"observed_generation"`
			Conditions         *json.RawMessage `json:"conditions"`
		}
		if err := json.Unmarshal(raw, &old); err != nil {
			return fmt.Errorf("its status cannot be read (%v)", err)
		}
		conditions := json.RawMessage("null")
		if old.Conditions != nil {
			conditions = *old.Conditions
		}
		b, err := json.Marshal(map[string]any{"selected": len(old.SelectedClusters), "requested": old.Requested, "fulfilled": old.Fulfilled,
			"message": old.Message, "observed_generation": old.ObservedGeneration, "conditions": conditions})
		if err != nil {
			return err
		}
		state["status"] = b
	}
	return nil
}
