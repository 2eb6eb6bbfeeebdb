package placement

import (
	"sort"
)

// pickAll selects every cluster passing the filters (designs/placement.md §6). While
// the policy is unchanged the clusters already held stay selected even if
// they no longer pass ("IgnoredDuringExecution").
func (c *cycle) pickAll(held []bool, changed bool) (Result, error) {
	ds := make([]Decision, len(c.clusters))
	for i, cl := range c.clusters {
		reason, err := c.filter(i)
		if err != nil {
			return Result{}, err
		}
		d := Decision{ClusterName: cl.Name, Reason: reason}
		if reason == "" || (held[i] && !changed) {
			d.Selected, d.Reason = true, ReasonPicked
		}
		ds[i] = d
	}
	return result(ds, -1), nil
}

// pickFixed selects the named clusters that exist and are eligible; no other
// filter runs (taints are ignored). Named clusters that are not members get a
// decision of their own; members that are not named are left out.
func (c *cycle) pickFixed(names []string) Result {
	ds := make([]Decision, len(c.clusters))
	for i, cl := range c.clusters {
		ds[i] = Decision{ClusterName: cl.Name, Reason: ReasonNotInFixedList}
	}
	seen := map[string]bool{}
	requested := 0
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		requested++
		i, ok := c.index(n)
		switch {
		case !ok:
			ds = append(ds, Decision{ClusterName: n, Reason: ReasonNotFound})
		case c.filterEligibility(i) != "":
			ds[i].Reason = c.filterEligibility(i)
		default:
			ds[i].Selected, ds[i].Reason = true, ReasonPicked
		}
	}
	sort.SliceStable(ds, func(a, b int) bool { return ds[a].ClusterName < ds[b].ClusterName })
	return result(ds, requested)
}

// pickN runs PickN (designs/placement.md §5–§7).
func (c *cycle) pickN(n int, held []bool, changed bool) (Result, error) {
	nc := len(c.clusters)
	reasons := make([]string, nc)
	aff := make([]int, nc)
	for i, cl := range c.clusters {
		r, err := c.filter(i)
		if err != nil {
			return Result{}, err
		}
		reasons[i] = r
		if r == "" || held[i] {
			aff[i] = affinityScore(c.preferred, cl, i)
		}
	}

	// Sticky: while the policy is unchanged, held clusters stay (scale-in
	// removes the lowest scored) and only the shortfall is scheduled. After a
	// policy change every held cluster is re-evaluated and wins ties.
	const (
		stateNone = iota
		stateKept
		statePicked
		stateRemoved
	)
	state := make([]uint8, nc)
	topo := make([]int, nc)
	kept := 0
	var bonus []bool
	if changed {
		bonus = held
	} else {
		var keep []int
		for i, h := range held {
			if h {
				keep = append(keep, i)
			}
		}
		for _, k := range c.constraints {
			for _, i := range keep {
				k.add(i, 1)
			}
		}
		keep, removed := c.scaleIn(keep, n, aff, topo)
		for _, i := range keep {
			state[i] = stateKept
		}
		for _, i := range removed {
			state[i] = stateRemoved
		}
		kept = len(keep)
	}

	var cands []int
	for i := range c.clusters {
		if reasons[i] == "" && !(held[i] && !changed) {
			cands = append(cands, i)
		}
	}
	viol := make([]*constraint, nc)
	for _, i := range c.pickTop(cands, n-kept, aff, bonus, topo, viol) {
		state[i] = statePicked
	}

	if len(c.constraints) > 0 && kept > 0 {
		for _, k := range c.constraints {
			k.leaveOneOut()
		}
		for i := range state {
			if state[i] == stateKept {
				topo[i] = heldScore(c.constraints, i)
			}
		}
	}

	ds := make([]Decision, nc)
	for i, cl := range c.clusters {
		d := Decision{ClusterName: cl.Name}
		switch {
		case state[i] == stateKept || state[i] == statePicked:
			d.Selected, d.AffinityScore, d.TopologySpreadScore, d.Reason = true, aff[i], topo[i], ReasonPicked
		case state[i] == stateRemoved:
			d.AffinityScore, d.TopologySpreadScore, d.Reason = aff[i], topo[i], c.scoreReason(aff[i], topo[i])
		case reasons[i] != "":
			d.Reason = reasons[i]
		case viol[i] != nil:
			d.Reason = topologyReason(viol[i])
		default:
			d.AffinityScore, d.TopologySpreadScore, d.Reason = aff[i], topo[i], c.scoreReason(aff[i], topo[i])
		}
		ds[i] = d
	}
	return result(ds, n), nil
}

// pickTop picks up to need candidates by score descending, ties to the larger
// name. Without topology spread constraints all candidates are scored once;
// with any constraint Fleet picks one cluster per scheduling cycle, so the
// pick is greedy: after each pick the domain counts are updated and every
// remaining candidate is re-evaluated (filter and score). topo and viol end up
// holding each candidate's last evaluation, which is what Fleet reports for
// clusters it does not pick; for picked ones, the evaluation they were picked with.
//
// bonus marks clusters with an obsolete placement (held before a policy
// change). Fleet turns obsolete bindings that are not picked into
// unscheduled ones at the end of each cycle, so in greedy mode the bonus only
// counts for the first pick.
func (c *cycle) pickTop(cands []int, need int, aff []int, bonus []bool, topo []int, viol []*constraint) []int {
	useBonus := bonus != nil
	better := func(a, b int) bool {
		if topo[a] != topo[b] {
			return topo[a] > topo[b]
		}
		if aff[a] != aff[b] {
			return aff[a] > aff[b]
		}
		if useBonus && bonus[a] != bonus[b] {
			return bonus[a]
		}
		return a > b
	}
	if need <= 0 && len(c.constraints) == 0 {
		return nil
	}

	if len(c.constraints) == 0 {
		if need >= len(cands) {
			return cands
		}
		sorted := append([]int(nil), cands...)
		sort.Slice(sorted, func(x, y int) bool { return better(sorted[x], sorted[y]) })
		return sorted[:need]
	}

	remaining := append([]int(nil), cands...)
	var picked []int
	for {
		for _, k := range c.constraints {
			k.prepare()
		}
		best, bestPos := -1, -1
		for p, i := range remaining {
			topo[i], viol[i] = topologyScore(c.constraints, i)
			if viol[i] != nil {
				continue
			}
			if best < 0 || better(i, best) {
				best, bestPos = i, p
			}
		}
		if len(picked) >= need || best < 0 {
			return picked
		}
		picked = append(picked, best)
		remaining[bestPos] = remaining[len(remaining)-1]
		remaining = remaining[:len(remaining)-1]
		for _, k := range c.constraints {
			k.add(best, 1)
		}
		useBonus = false
		if len(picked) == need {
			return picked
		}
	}
}
