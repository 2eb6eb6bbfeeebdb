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

// scaleIn trims the held clusters to n, removing the lowest scored first
// (ties: the smaller name first), as Fleet's downscale does. Fleet ranks by
// the score recorded when each cluster was picked; this engine has no record
// and ranks by the current affinity score and the topology score the cluster
// would get if it were placed last (recomputed after every removal, so the
// spread stays even). The constraint counts must include every held cluster;
// they are decremented for the removed ones. topo receives the ranking
// topology score of every removed cluster.
func (c *cycle) scaleIn(held []int, n int, aff, topo []int) (kept, removed []int) {
	if len(held) <= n {
		return held, nil
	}
	kept = append([]int(nil), held...)
	worse := func(a, b int) bool { // a is removed before b
		if topo[a] != topo[b] {
			return topo[a] < topo[b]
		}
		if aff[a] != aff[b] {
			return aff[a] < aff[b]
		}
		return a < b
	}
	if len(c.constraints) == 0 {
		sort.Slice(kept, func(x, y int) bool { return worse(kept[x], kept[y]) })
		cut := len(kept) - n
		removed, kept = kept[:cut], kept[cut:]
		sort.Ints(kept)
		return kept, removed
	}
	for len(kept) > n {
		for _, k := range c.constraints {
			k.leaveOneOut()
		}
		w := 0
		for p, i := range kept {
			topo[i] = heldScore(c.constraints, i)
			if p > 0 && worse(i, kept[w]) {
				w = p
			}
		}
		i := kept[w]
		removed = append(removed, i)
		kept = append(kept[:w], kept[w+1:]...)
		for _, k := range c.constraints {
			k.add(i, -1)
		}
	}
	return kept, removed
}
