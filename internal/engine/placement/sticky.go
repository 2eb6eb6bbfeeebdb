package placement

import (
	"reflect"
	"sort"
)

// heldMask marks the held clusters that still count as held: members of the
// fleet that are not leaving. A held cluster that left is dropped (Fleet
// marks its binding unscheduled) and, for PickN, replaced by the shortfall.
func (c *cycle) heldMask(held []string) []bool {
	mask := make([]bool, len(c.clusters))
	for _, name := range held {
		if i, ok := c.index(name); ok && !leftFleet(c.clusters[i]) {
			mask[i] = true
		}
	}
	return mask
}

// policyChanged reports whether cur schedules differently from prev, i.e.
// whether Fleet would create a new scheduling policy snapshot. Fleet hashes
// the policy without numberOfClusters, so a scale-only change (and a change
// of resource selectors or strategy) keeps the held clusters. Without a
// previous spec the held clusters belong to the current policy.
func policyChanged(prev *Spec, cur Spec) bool {
	if prev == nil {
		return false
	}
	a, b := defaultPolicy(prev.Policy), defaultPolicy(cur.Policy)
	a.NumberOfClusters, b.NumberOfClusters = nil, nil
	return !semanticEqual(reflect.ValueOf(a), reflect.ValueOf(b))
}

// semanticEqual is reflect.DeepEqual except that nil and empty slices and
// maps are equal, as they are in the serialized policy Fleet hashes.
func semanticEqual(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return semanticEqual(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !semanticEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !semanticEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !semanticEqual(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// downscale is PickN when no scheduling is needed (designs/placement.md §7): the
// policy unchanged holds at least n clusters, or n is 0. Fleet then runs no
// plugin. It removes the clusters held beyond n as Fleet's downscale trims
// bindings: the ones not bound yet (Scheduled) first — all of them when
// there are no more than the clusters to remove, else the lowest recorded
// scores among them — and then, among the bound ones, the lowest recorded
// score first (ties: the smaller name first; a cluster without a recorded
// score before any with one: sortByClusterScoreAndName); after a policy
// change with n = 0 it removes every obsolete one. Fleet's status then lists
// the selected clusters only: the others are not evaluated.
func (c *cycle) downscale(n int, held, kept []bool) Result {
	unbound := make(map[string]bool, len(c.scheduled))
	for _, name := range c.scheduled {
		unbound[name] = true
	}
	var scheduled, bound []int
	for i, k := range kept {
		switch {
		case !k:
		case unbound[c.clusters[i].Name]:
			scheduled = append(scheduled, i)
		default:
			bound = append(bound, i)
		}
	}
	byRecordedScore := func(order []int) { // removal order
		sort.SliceStable(order, func(x, y int) bool {
			a, b := order[x], order[y]
			sa, oka := c.recordedScore(a)
			sb, okb := c.recordedScore(b)
			switch {
			case oka != okb:
				return !oka
			case sa != sb:
				return sa.less(sb)
			}
			return a < b
		})
	}
	count := len(scheduled) + len(bound) - n
	var order []int
	switch {
	case count < len(scheduled):
		byRecordedScore(scheduled)
		order = scheduled
	case count == len(scheduled):
		order = scheduled
	default:
		byRecordedScore(bound)
		order = append(scheduled, bound...)
	}
	removed := make([]bool, len(c.clusters))
	for _, i := range order[:count] {
		removed[i] = true
	}
	cat := make([]uint8, len(c.clusters))
	for i := range c.clusters {
		cat[i] = catQuiet
		if kept[i] && !removed[i] {
			cat[i] = catSelected
		}
	}
	return result(inStatusOrder(cat, func(i int) Decision {
		d := Decision{ClusterName: c.clusters[i].Name, Reason: ReasonNotEvaluated}
		if held[i] { // kept, scaled in, or obsolete after a policy change
			s, _ := c.recordedScore(i)
			d.AffinityScore, d.TopologySpreadScore, d.Reason = s.Affinity, s.TopologySpread, ReasonScaledIn
			if removed[i] && unbound[c.clusters[i].Name] {
				d.Reason = ReasonScaledInUnbound
			}
			if cat[i] == catSelected {
				d.Selected, d.Reason = true, ReasonPicked
			}
		}
		return d
	}, nil), n)
}
