package placement

import (
	"slices"
	"sort"
)

// Decision categories, in the order Fleet's status lists them (designs/placement.md §8).
const (
	catSelected = iota
	catScored   // scored, not picked: best first
	catFiltered // by name
	catQuiet    // members not named (PickFixed), not evaluated or scaled in (PickN): by name
)

// inStatusOrder builds the decisions of the clusters (decision(i) for
// cluster i, of category cat[i]) in the order Fleet's status lists them.
// better ranks two scored clusters (nil when there are none).
func inStatusOrder(cat []uint8, decision func(i int) Decision, better func(a, b int) bool) []Decision {
	var byCat [catQuiet + 1][]int
	for i, c := range cat {
		byCat[c] = append(byCat[c], i)
	}
	slices.SortFunc(byCat[catScored], func(a, b int) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	out := make([]Decision, 0, len(cat))
	for _, idx := range byCat {
		for _, i := range idx {
			out = append(out, decision(i))
		}
	}
	return out
}

// pickAll selects every cluster passing the filters (designs/placement.md §6). While
// the policy is unchanged the clusters already held stay selected even if
// they no longer pass ("IgnoredDuringExecution").
func (c *cycle) pickAll(held []bool, changed bool) Result {
	reasons, fail := c.filterAll()
	if fail != nil {
		return c.failed(held, fail, -1)
	}
	cat := make([]uint8, len(c.clusters))
	for i, r := range reasons {
		cat[i] = catFiltered
		if r == "" || (held[i] && !changed) {
			cat[i] = catSelected
		}
	}
	return result(inStatusOrder(cat, func(i int) Decision {
		if cat[i] == catSelected {
			return Decision{ClusterName: c.clusters[i].Name, Selected: true, Reason: ReasonPicked}
		}
		return Decision{ClusterName: c.clusters[i].Name, Reason: reasons[i]}
	}, nil), -1)
}

// pickFixed selects the named clusters that exist and are eligible; no other
// filter runs (taints are ignored). Named clusters that are not members get a
// decision of their own; members that are not named are left out. Fleet
// lists the named clusters it does not pick in cluster_names order, the
// ones not eligible first. Without names Fleet skips the cycle: nothing is
// placed, and the clusters the placement held keep their bindings.
func (c *cycle) pickFixed(names []string, held []bool) Result {
	if len(names) == 0 {
		var sel, rest []Decision
		for i, cl := range c.clusters {
			if held[i] {
				sel = append(sel, Decision{ClusterName: cl.Name, Selected: true, Reason: ReasonKeptNoNames})
			} else {
				rest = append(rest, Decision{ClusterName: cl.Name, Reason: ReasonNotInFixedList})
			}
		}
		r := result(append(sel, rest...), 0)
		r.Unchanged = true
		return r
	}
	named := make([]bool, len(c.clusters))
	var sel, notEligible, notFound []Decision
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		i, ok := c.index(n)
		switch {
		case !ok:
			notFound = append(notFound, Decision{ClusterName: n, Reason: ReasonNotFound})
		case c.filterEligibility(i) != "":
			named[i] = true
			notEligible = append(notEligible, Decision{ClusterName: n, Reason: c.filterEligibility(i)})
		default:
			named[i] = true
			sel = append(sel, Decision{ClusterName: n, Selected: true, Reason: ReasonPicked})
		}
	}
	sort.Slice(sel, func(a, b int) bool { return sel[a].ClusterName < sel[b].ClusterName })
	ds := append(append(sel, notEligible...), notFound...)
	for i, cl := range c.clusters {
		if !named[i] {
			ds = append(ds, Decision{ClusterName: cl.Name, Reason: ReasonNotInFixedList})
		}
	}
	return result(ds, len(seen))
}

// pickN runs PickN (designs/placement.md §5–§7). With the policy unchanged, the
// clusters held are Fleet's bound bindings; after a policy change they are
// obsolete ones.
func (c *cycle) pickN(n int, held []bool, changed bool) Result {
	nc := len(c.clusters)
	kept := make([]bool, nc) // bound under the current policy
	nKept := 0
	if !changed {
		copy(kept, held)
		for _, h := range held {
			if h {
				nKept++
			}
		}
	}
	// Fleet runs no plugin when the current policy already holds N
	// clusters (or N is 0): it scales in, if needed, and reports fulfilled.
	if n <= nKept {
		return c.downscale(n, held, kept)
	}

	reasons, fail := c.filterAll()
	if fail != nil {
		return c.failed(held, fail, n)
	}
	if c.policy.Affinity != nil {
		if c.preferred, fail = compilePreferred(c.policy.Affinity.Preferred, c.fleet, c.clusters); fail != nil {
			return c.failed(held, fail, n)
		}
	}
	c.constraints = compileConstraints(c.policy.TopologySpreadConstraints, c.clusters)
	for _, k := range c.constraints {
		for i := range kept {
			if kept[i] {
				k.add(i, 1)
			}
		}
	}

	var cands []int
	aff := make([]int, nc)
	for i, cl := range c.clusters {
		if reasons[i] == "" && !kept[i] {
			cands = append(cands, i)
			aff[i] = affinityScore(c.preferred, cl, i)
		}
	}
	if fail := c.checkInterpolation(cands); fail != nil {
		return c.failed(held, fail, n)
	}

	var bonus []bool
	if changed {
		bonus = held
	}
	topo := make([]int, nc)
	viol := make([]*constraint, nc)
	picked := make([]bool, nc)
	chosen, rankBonus := c.pickTop(cands, n-nKept, aff, bonus, topo, viol)
	for _, i := range chosen {
		picked[i] = true
	}

	cat := make([]uint8, nc)
	for i := range c.clusters {
		switch {
		case kept[i] || picked[i]:
			cat[i] = catSelected
		case reasons[i] != "" || viol[i] != nil:
			cat[i] = catFiltered
		default:
			cat[i] = catScored
		}
	}
	decision := func(i int) Decision {
		d := Decision{ClusterName: c.clusters[i].Name}
		switch {
		case kept[i]:
			s, _ := c.recordedScore(i)
			d.Selected, d.AffinityScore, d.TopologySpreadScore, d.Reason = true, s.Affinity, s.TopologySpread, ReasonPicked
		case picked[i]:
			d.Selected, d.AffinityScore, d.TopologySpreadScore, d.Reason = true, aff[i], topo[i], ReasonPicked
		case reasons[i] != "":
			d.Reason = reasons[i]
		case viol[i] != nil:
			d.Reason = topologyReason(viol[i])
		default:
			d.AffinityScore, d.TopologySpreadScore, d.Reason = aff[i], topo[i], c.scoreReason(aff[i], topo[i])
		}
		return d
	}
	if !rankBonus {
		bonus = nil
	}
	return result(inStatusOrder(cat, decision, func(a, b int) bool { return better(a, b, topo, aff, bonus) }), n)
}

// better ranks candidate a above b as Fleet sorts scored clusters: topology
// spread score, then affinity score, then the obsolete-placement bonus
// (bonus nil: none), then the larger name.
func better(a, b int, topo, aff []int, bonus []bool) bool {
	if topo[a] != topo[b] {
		return topo[a] > topo[b]
	}
	if aff[a] != aff[b] {
		return aff[a] > aff[b]
	}
	if bonus != nil && bonus[a] != bonus[b] {
		return bonus[a]
	}
	return a > b
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
// counts for the first pick. rankBonus tells whether it still counted in the
// last evaluation, which ranks the clusters not picked in Fleet's status.
func (c *cycle) pickTop(cands []int, need int, aff []int, bonus []bool, topo []int, viol []*constraint) (picked []int, rankBonus bool) {
	if len(c.constraints) == 0 {
		if need >= len(cands) {
			return cands, bonus != nil
		}
		sorted := append([]int(nil), cands...)
		sort.Slice(sorted, func(x, y int) bool { return better(sorted[x], sorted[y], topo, aff, bonus) })
		return sorted[:need], bonus != nil
	}

	remaining := append([]int(nil), cands...)
	for round := 0; ; round++ {
		b := bonus
		if round > 0 {
			b = nil
		}
		for _, k := range c.constraints {
			k.prepare()
		}
		best, bestPos := -1, -1
		for p, i := range remaining {
			topo[i], viol[i] = topologyScore(c.constraints, i)
			if viol[i] != nil {
				continue
			}
			if best < 0 || better(i, best, topo, aff, b) {
				best, bestPos = i, p
			}
		}
		if len(picked) >= need || best < 0 {
			return picked, b != nil
		}
		picked = append(picked, best)
		remaining[bestPos] = remaining[len(remaining)-1]
		remaining = remaining[:len(remaining)-1]
		for _, k := range c.constraints {
			k.add(best, 1)
		}
		if len(picked) == need {
			return picked, b != nil
		}
	}
}

// checkInterpolation runs Fleet's interpolation check (sorter.checkInterpolation)
// for every sorter term on the clusters of the first scoring round: the
// candidates that pass the topology spread filter with the counts of the
// clusters held.
func (c *cycle) checkInterpolation(cands []int) *CycleFailure {
	var scored []int
	if len(c.constraints) == 0 {
		scored = cands
	} else {
		for _, k := range c.constraints {
			k.prepare()
		}
		for _, i := range cands {
			if _, v := topologyScore(c.constraints, i); v == nil {
				scored = append(scored, i)
			}
		}
	}
	for _, t := range c.preferred {
		if t.sorter == nil {
			continue
		}
		var in []int
		for _, i := range scored {
			if t.sorter.has[i] && t.matches(c.clusters[i]) {
				in = append(in, i)
			}
		}
		if reason, failed := t.sorter.checkInterpolation(in, c.clusters); failed {
			return &CycleFailure{Path: sorterPath(t.index), Reason: reason,
				Fix: "Sort by a property whose values the clusters report in one spelling (0.045, not both 0.045 and 0.0450), or by another property."}
		}
	}
	return nil
}
