package placement

import (
	"fmt"
	"strconv"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// Kinds of warnings returned by Warnings: the ID of each field.Warning.
const (
	// WarnClusterNotMember: a PickFixed cluster name that is not a member of
	// the fleet gets nothing.
	WarnClusterNotMember = "cluster_not_member"
	// WarnClusterNotEligible: a PickFixed cluster that is a member but not
	// eligible (left, unhealthy, stale heartbeat) gets nothing until it is.
	WarnClusterNotEligible = "cluster_not_eligible"
	// WarnPickFixedEmpty: PickFixed without cluster names places nowhere.
	WarnPickFixedEmpty = "pick_fixed_empty"
	// WarnPropertyNotInFleet: a required property selector or a preferred
	// sorter reads a property no cluster reports, so the expression is false
	// everywhere or the sorter adds nothing.
	WarnPropertyNotInFleet = selector.WarnPropertyNotInFleet
	// WarnRequiredMatchesNone: no cluster matches any required affinity term,
	// so the placement selects no cluster.
	WarnRequiredMatchesNone = "required_affinity_matches_none"
	// WarnPickNUnfulfilled: PickN asks for more clusters than it can pick.
	WarnPickNUnfulfilled = "pick_n_unfulfilled"
	// WarnSchedulingFails: Fleet admits the placement but every scheduling
	// cycle fails (Result.Failure), so it is never scheduled.
	WarnSchedulingFails = "scheduling_fails"
	// WarnHeldNotMember: a cluster the what-if says the placement holds is
	// not a member of the fleet (HeldClusterWarnings).
	WarnHeldNotMember = "held_cluster_not_member"
	// WarnMaxUnavailableAboveClusters: a whole-number max_unavailable larger
	// than the clusters the placement selects: every cluster may be
	// unavailable at once, as with 100%.
	WarnMaxUnavailableAboveClusters = "max_unavailable_above_clusters"
	// WarnMaxUnavailableZero: max_unavailable 0 (or 0%): Fleet admits it,
	// but never takes a cluster that has the resources to new ones, so a
	// change of the resources stalls (designs/placement.md §10).
	WarnMaxUnavailableZero = "max_unavailable_zero"
	// WarnQuantityUnit: a property selector value whose unit is almost
	// certainly not the one meant (selector.WarnQuantityUnit).
	WarnQuantityUnit = selector.WarnQuantityUnit
)

// Warnings returns the plan warnings of designs/placement.md §8 for spec on fleet f:
// a placement Fleet admits but never schedules, a property that no cluster
// of the fleet has (with similar names that do exist), an unfulfillable
// PickN, PickFixed without names or with names that are not members or not
// eligible, and required affinity that matches no cluster. It assumes spec
// validates; parts it cannot evaluate are skipped. r is the scheduling result
// the warnings accompany (the one the plan previews).
func Warnings(spec Spec, f *fleet.Fleet, r Result, now time.Time) []field.Warning {
	s := WithDefaults(spec)
	pol := s.Policy
	pp := field.Root("policy")
	var ws []field.Warning
	if fail := r.Failure; fail != nil {
		ws = append(ws, field.Warning{Path: fail.Path, ID: WarnSchedulingFails,
			Message: fmt.Sprintf("Fleet admits this placement, but every scheduling cycle fails, so it is never scheduled "+
				"(clusters it already holds keep their resources): %s. %s", fail.Reason, fail.Fix)})
	}
	clusters := sortedClusters(f)

	switch pol.PlacementType {
	case PickFixed:
		if len(pol.ClusterNames) == 0 {
			return append(ws, field.Warning{Path: pp.Child("cluster_names"), ID: WarnPickFixedEmpty,
				Message: "cluster_names is empty: Fleet admits the placement but skips its scheduling cycle, so it places nowhere " +
					"(clusters it already holds keep their resources); list the member clusters to place on"})
		}
		c := &cycle{policy: pol, now: now, clusters: clusters}
		for i, n := range pol.ClusterNames {
			p := pp.Child("cluster_names").Index(i)
			j, ok := c.index(n)
			switch {
			case !ok:
				ws = append(ws, field.Warning{Path: p, ID: WarnClusterNotMember,
					Message: fmt.Sprintf("cluster %q is not a member of the fleet; nothing is placed on it", n)})
			case c.filterEligibility(j) != "":
				ws = append(ws, field.Warning{Path: p, ID: WarnClusterNotEligible,
					Message: fmt.Sprintf("cluster %q is %s; nothing is placed on it until it is eligible", n, c.filterEligibility(j))})
			}
		}
		return ws
	case PickAll, PickN:
	default:
		return ws
	}

	ws = append(ws, propertyWarnings(pol, selector.FleetProperties(f))...)

	if pol.Affinity != nil && len(pol.Affinity.Required) > 0 {
		if terms, err := compileRequired(pol.Affinity.Required); err == nil {
			matched := false
			for _, cl := range clusters {
				if ok, fail := matchesRequired(terms, cl); fail == nil && ok {
					matched = true
					break
				}
			}
			if !matched {
				ws = append(ws, field.Warning{Path: pp.Child("affinity").Child("required"), ID: WarnRequiredMatchesNone,
					Message: "no cluster of the fleet matches any required affinity term; the placement selects no cluster"})
			}
		}
	}

	if w, ok := maxUnavailableWarning(&s.Strategy, len(r.Selected)); ok {
		ws = append(ws, w)
	}

	if pol.PlacementType == PickN && !r.Fulfilled && r.Failure == nil {
		ws = append(ws, field.Warning{Path: pp.Child("number_of_clusters"), ID: WarnPickNUnfulfilled,
			Message: fmt.Sprintf("%d cluster(s) requested but only %d can be picked: %s", r.Requested, len(r.Selected), r.UnfulfilledMessage)})
	}
	return ws
}

// maxUnavailableWarning flags a whole-number max_unavailable above the
// number of clusters selected (a percentage scales with them, and 0
// selected clusters roll nothing out).
func maxUnavailableWarning(st *Strategy, selected int) (field.Warning, bool) {
	if st == nil || st.RollingUpdate == nil || st.RollingUpdate.MaxUnavailable == nil || selected == 0 {
		return field.Warning{}, false
	}
	if v := *st.RollingUpdate.MaxUnavailable; v == "0" || v == "0%" {
		return field.Warning{Path: field.Root("strategy").Child("rolling_update").Child("max_unavailable"), ID: WarnMaxUnavailableZero,
			Message: "max_unavailable 0: Fleet admits it, but never takes a cluster that has the resources to new ones, so any " +
				"change of them stalls on every cluster (new clusters still get them, within max_surge); allow at least 1"}, true
	}
	n, err := strconv.Atoi(*st.RollingUpdate.MaxUnavailable)
	if err != nil || n <= selected {
		return field.Warning{}, false
	}
	return field.Warning{Path: field.Root("strategy").Child("rolling_update").Child("max_unavailable"), ID: WarnMaxUnavailableAboveClusters,
		Message: fmt.Sprintf("max_unavailable %d is more than the %d cluster(s) the placement selects: a change may make every cluster "+
			"unavailable at once, as 100%% would; write a number up to %d, or a percentage", n, selected, selected)}, true
}

// propertyWarnings flags properties read by required property selectors or
// preferred sorters that no cluster of the fleet reports.
func propertyWarnings(pol Policy, known *selector.KnownProperties) []field.Warning {
	if pol.Affinity == nil {
		return nil
	}
	var ws []field.Warning
	ap := field.Root("policy").Child("affinity")
	for i, t := range pol.Affinity.Required {
		if t.PropertySelector == nil {
			continue
		}
		for _, w := range t.PropertySelector.Warnings(known, "this expression is false for every cluster and the term matches none") {
			w.Path = ap.Child("required").Index(i).Child("property_selector").Concat(w.Path)
			ws = append(ws, w)
		}
	}
	for i, t := range pol.Affinity.Preferred {
		if s := t.Preference.PropertySorter; s != nil {
			if w, ok := known.NotInFleet(sorterPath(i), s.Name, "this sorter adds 0 to every cluster's score"); ok {
				ws = append(ws, w)
			}
		}
	}
	return ws
}

// HeldClusterWarnings flags the clusters a what-if says the placement holds
// that are not members of f: Fleet drops such a binding (designs/placement.md §7), so
// the preview ignores them. at is the list attribute.
func HeldClusterWarnings(at field.Path, held []string, f *fleet.Fleet) []field.Warning {
	var ws []field.Warning
	for i, n := range held {
		if f != nil {
			if _, ok := f.Cluster(n); ok {
				continue
			}
		}
		ws = append(ws, field.Warning{Path: at.Index(i), ID: WarnHeldNotMember,
			Message: fmt.Sprintf("cluster %q is not a member of the fleet, so the placement cannot hold it and the preview ignores it; check the name", n)})
	}
	return ws
}
