package placement

import (
	"sort"
	"strings"
)

// PlanPreview is what `terraform plan` shows for a placement (designs/placement.md §8).
// (The function that builds it is Preview, so the type cannot share its name.)
type PlanPreview struct {
	// Selected are the selected clusters, by name.
	Selected []Decision
	// LeftOut is a bounded list of clusters that are not selected, as Fleet's
	// status lists them: the best-scored clusters that were not picked first,
	// then the filtered ones (PickFixed: the named clusters not eligible, in
	// cluster_names order, then the names not found), then (PickFixed) the
	// members not named. Clusters Fleet does not evaluate (PickN with
	// number_of_clusters already met) or removes by scale-in are counted but
	// not listed, as Fleet's status does not list them.
	LeftOut []Decision
	// LeftOutCounts counts every left-out cluster by reason; the per-score
	// "does not score high enough (…)" reasons share the bucket "does not score high enough".
	LeftOutCounts map[string]int
	Summary       PreviewSummary
}

// PreviewSummary sums a preview up.
type PreviewSummary struct {
	Requested int // -1 for PickAll
	Selected  int
	Fulfilled bool
}

// Preview condenses a scheduling result; limit bounds LeftOut (≤ 0: 20, the
// number of unselected decisions Fleet keeps in its status). It reads only the
// decisions, so it also works on a Result rebuilt from stored decisions; it
// keeps their order (Schedule's, which is Fleet's) except that scored
// clusters are ranked by topology spread score, then affinity score, so that
// decisions stored in name order still list the best first.
func Preview(r Result, limit int) PlanPreview {
	if limit <= 0 {
		limit = DefaultPreviewLimit
	}
	p := PlanPreview{Selected: []Decision{}, LeftOut: []Decision{}, LeftOutCounts: map[string]int{}}
	var scored, filtered, unlisted []Decision
	for _, d := range r.Decisions {
		if d.Selected {
			p.Selected = append(p.Selected, d)
			continue
		}
		switch {
		case isScoreReason(d.Reason):
			scored = append(scored, d)
			p.LeftOutCounts[ReasonNotScoredEnough]++
			continue
		case d.Reason == ReasonNotEvaluated || d.Reason == ReasonScaledIn || d.Reason == ReasonScaledInUnbound:
		case d.Reason == ReasonNotInFixedList:
			unlisted = append(unlisted, d)
		default:
			filtered = append(filtered, d)
		}
		p.LeftOutCounts[d.Reason]++
	}
	sort.Slice(p.Selected, func(i, j int) bool { return p.Selected[i].ClusterName < p.Selected[j].ClusterName })
	// Best first, as the scheduler ranks; among equal scores Schedule's order
	// holds (the obsolete-placement bonus, then the larger name).
	sort.SliceStable(scored, func(i, j int) bool {
		a, b := scored[i], scored[j]
		if a.TopologySpreadScore != b.TopologySpreadScore {
			return a.TopologySpreadScore > b.TopologySpreadScore
		}
		return a.AffinityScore > b.AffinityScore
	})
	for _, group := range [][]Decision{scored, filtered, unlisted} {
		for _, d := range group {
			if len(p.LeftOut) == limit {
				break
			}
			p.LeftOut = append(p.LeftOut, d)
		}
	}
	p.Summary = PreviewSummary{Requested: r.Requested, Selected: len(p.Selected), Fulfilled: r.Fulfilled}
	return p
}

func isScoreReason(reason string) bool { return strings.HasPrefix(reason, ReasonNotScoredEnough) }
