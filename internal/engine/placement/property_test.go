package placement_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/inventory"
)

// TestScheduleInvariants is the property-based test of issue 9: random
// fleets and policies (PickAll, PickN, PickFixed; required and preferred
// affinity, property sorters, topology spread, taints and tolerations),
// each run through a life — create, scale out or in, a change of the fleet,
// a scale-in — feeding each step the clusters and the recorded scores the
// step before left, as a hub does. At every step it checks what Fleet
// guarantees:
//
//   - sticky picks: with the policy unchanged, every held cluster that is
//     still a member and not leaving stays selected while N allows
//     (framework.go: bound bindings are kept, only the shortfall is
//     scheduled);
//   - skew bounds: placing never takes a DoNotSchedule constraint's skew
//     beyond max(max_skew, the skew of the clusters already held)
//     (topologyspreadconstraints: a violating cluster is filtered);
//   - recorded-score scale-in: the clusters removed are the lowest by the
//     score recorded when they were picked, ties the smaller name, clusters
//     without a score first (downscale → sortByClusterScoreAndName), and the
//     clusters kept show their recorded scores;
//   - fulfilment counts: PickN selects at most N and is fulfilled exactly
//     when it selects N; when it is not, no cluster was left out for its
//     score; PickAll is always fulfilled; PickFixed selects exactly the named
//     eligible members;
//   - top-N: without topology spread, no cluster left out scores better than
//     a cluster picked in the same cycle (pickTopNScoredClusters);
//   - the result is a function of its inputs, also remembered on a shared
//     fleet (fleet.Fleet.Share), every cluster has one decision,
//     Selected is sorted and matches the decisions, and the preview is
//     bounded and counts every cluster left out.
//
// 1,500 lives on small random fleets and 30 on fleetgen fleets of 150
// clusters run in well under two seconds.
func TestScheduleInvariants(t *testing.T) {
	seed := uint64(20261121)
	if v := os.Getenv("PLACEMENT_PROPERTY_SEED"); v != "" { // explore: PLACEMENT_PROPERTY_SEED=$RANDOM go test -run TestScheduleInvariants
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seed = n
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	lives := 0
	for i := 0; i < 1530; i++ {
		var f *fleet.Fleet
		if i%51 == 50 {
			data := fleetgen.Generate(fleetgen.Options{Clusters: 150, Regions: 1 + r.IntN(5), Seed: r.Uint64(), StaleEvery: 30, TaintEvery: 20})
			var err error
			if f, err = inventory.Parse("fleetgen.json", data, propNow); err != nil {
				t.Fatal(err)
			}
		} else {
			f = randomFleet(r)
		}
		s := randomSpec(r, f)
		if errs := placement.Validate(s); len(errs) > 0 {
			continue
		}
		lives++
		life(t, r, f, s, fmt.Sprintf("seed %d life %d", seed, i))
		if t.Failed() {
			return
		}
	}
	if lives < 1000 {
		t.Fatalf("only %d valid lives: the generator makes too many invalid specs", lives)
	}
}

var propNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// state is what a hub keeps between cycles.
type state struct {
	spec     placement.Spec
	held     []string
	recorded map[string]placement.Score
}

func life(t *testing.T, r *rand.Rand, f *fleet.Fleet, s placement.Spec, what string) {
	st := state{}
	step := func(name string, next placement.Spec, fl *fleet.Fleet) {
		t.Helper()
		var prev *placement.Spec
		if st.spec.Name != "" {
			p := st.spec
			prev = &p
		}
		opts := placement.ScheduleOptions{Prev: prev, Recorded: st.recorded}
		res, err := placement.Schedule(next, fl, st.held, propNow, opts)
		if err != nil {
			t.Fatalf("%s, %s: Schedule: %v", what, name, err)
		}
		again, _ := placement.Schedule(next, fl, slices.Clone(st.held), propNow, opts)
		if !reflect.DeepEqual(res, again) {
			t.Fatalf("%s, %s: not deterministic", what, name)
		}
		// On a shared fleet the cycle runs once and each caller gets its
		// own copy: the same result, first computed then remembered, also
		// after a caller wrote into the copy it got.
		shared := *fl
		shared.Share()
		for i := range 2 {
			got, _ := placement.Schedule(next, &shared, slices.Clone(st.held), propNow, opts)
			if !reflect.DeepEqual(res, got) {
				t.Fatalf("%s, %s: on a shared fleet (call %d), a different result", what, name, i+1)
			}
			if len(got.Decisions) > 0 {
				got.Decisions[0].Reason, got.Selected = "written by a caller", nil
			}
		}
		check(t, fmt.Sprintf("%s, %s (%s)", what, name, describe(next)), fl, next, prev, st, res)
		if res.Failure == nil || st.spec.Name == "" {
			st.spec = next
		}
		st.held, st.recorded = res.Selected, placement.RecordedScores(res.Decisions)
	}
	step("create", s, f)
	if s.Policy.PlacementType == placement.PickN {
		n := *s.Policy.NumberOfClusters
		step("scale", withN(s, r.IntN(n+3)), f)
	}
	if r.IntN(2) == 0 {
		step("policy change", changePolicy(st.spec), f)
	}
	f2 := changeFleet(r, f)
	step("fleet change", st.spec, f2)
	if st.spec.Policy.PlacementType == placement.PickN && len(st.held) > 0 {
		step("scale in", withN(st.spec, r.IntN(len(st.held))), f2)
	}
}

// changePolicy adds a toleration: a new scheduling policy for Fleet (held
// clusters become obsolete bindings), allowed as an update. PickFixed gets
// another cluster name instead.
func changePolicy(s placement.Spec) placement.Spec {
	p := s.Policy
	if p.PlacementType == placement.PickFixed {
		p.ClusterNames = append(slices.Clone(p.ClusterNames), "ghost-new")
	} else {
		p.Tolerations = append(slices.Clone(p.Tolerations), placement.Toleration{Key: "dedicated", Operator: placement.TolerationOpExists})
	}
	s.Policy = p
	return s
}

func withN(s placement.Spec, n int) placement.Spec {
	p := s.Policy
	p.NumberOfClusters = &n
	s.Policy = p
	return s
}

func check(t *testing.T, what string, f *fleet.Fleet, s placement.Spec, prev *placement.Spec, st state, res placement.Result) {
	t.Helper()
	pol := placement.WithDefaults(s).Policy
	dec := map[string]placement.Decision{}
	for _, d := range res.Decisions {
		if _, dup := dec[d.ClusterName]; dup {
			t.Fatalf("%s: two decisions for %s", what, d.ClusterName)
		}
		dec[d.ClusterName] = d
	}
	var selected []string
	for _, d := range res.Decisions {
		if d.Selected {
			selected = append(selected, d.ClusterName)
		}
	}
	sort.Strings(selected)
	if !slices.IsSorted(res.Selected) || !slices.Equal(selected, res.Selected) && !(len(selected) == 0 && len(res.Selected) == 0) {
		t.Fatalf("%s: Selected %v, decisions select %v", what, res.Selected, selected)
	}

	// The clusters held that still count: members, not leaving.
	var live []string
	for _, n := range st.held {
		if c, ok := f.Cluster(n); ok && !c.Agent.Leaving {
			live = append(live, n)
		}
	}
	unchanged := prev == nil || reflect.DeepEqual(stripN(placement.WithDefaults(*prev).Policy), stripN(pol))

	if res.Failure != nil {
		if !slices.Equal(res.Selected, sorted(live)) || res.Fulfilled || !res.Unchanged {
			t.Fatalf("%s: a failing cycle changes nothing: %+v, held %v", what, res, live)
		}
		return
	}
	for _, c := range f.Clusters {
		if _, ok := dec[c.Name]; !ok {
			t.Fatalf("%s: no decision for %s", what, c.Name)
		}
	}

	switch pol.PlacementType {
	case placement.PickAll:
		if !res.Fulfilled || res.Requested != -1 {
			t.Fatalf("%s: PickAll %+v", what, res)
		}
		if unchanged {
			for _, n := range live {
				if !dec[n].Selected {
					t.Fatalf("%s: sticky: held %s dropped", what, n)
				}
			}
		}
		for _, d := range res.Decisions {
			if !d.Selected && (d.Reason == "" || isScoreReason(d.Reason)) {
				t.Fatalf("%s: PickAll leaves %s out for %q", what, d.ClusterName, d.Reason)
			}
		}
	case placement.PickFixed:
		var want []string
		seen := map[string]bool{}
		for _, n := range pol.ClusterNames {
			if c, ok := f.Cluster(n); ok && !seen[n] && fleet.CheckEligibility(c, propNow).Eligible {
				want = append(want, n)
			}
			seen[n] = true
		}
		if len(pol.ClusterNames) == 0 {
			want = live
		}
		if !slices.Equal(res.Selected, sorted(want)) || res.Requested != len(seen) || res.Fulfilled != (len(res.Selected) >= len(seen)) {
			t.Fatalf("%s: PickFixed selected %v, want %v (%+v)", what, res.Selected, want, res)
		}
	case placement.PickN:
		n := *pol.NumberOfClusters
		if len(res.Selected) > n || res.Fulfilled != (len(res.Selected) == n) || res.Requested != n {
			t.Fatalf("%s: PickN %d selected %v, fulfilled %t", what, n, res.Selected, res.Fulfilled)
		}
		if !res.Fulfilled {
			for _, d := range res.Decisions {
				if !d.Selected && isScoreReason(d.Reason) {
					t.Fatalf("%s: unfulfilled, yet %s is left out for its score", what, d.ClusterName)
				}
			}
		}
		if unchanged {
			checkSticky(t, what, n, live, st.recorded, dec)
		}
		checkSkew(t, what, f, pol, unchanged, live, res.Selected)
		if len(pol.TopologySpreadConstraints) == 0 && (prev == nil || unchanged) {
			checkTopN(t, what, live, res, dec)
		}
	}

	pv := placement.Preview(res, 5)
	total := 0
	for _, k := range pv.LeftOutCounts {
		total += k
	}
	if len(pv.LeftOut) > 5 || total != len(res.Decisions)-len(res.Selected) || len(pv.Selected) != len(res.Selected) {
		t.Fatalf("%s: preview %d listed, %d counted, of %d decisions", what, len(pv.LeftOut), total, len(res.Decisions))
	}
}

// checkSticky: while N allows, every live held cluster stays, with its
// recorded score; on scale-in the removed ones rank below every kept one.
func checkSticky(t *testing.T, what string, n int, live []string, recorded map[string]placement.Score, dec map[string]placement.Decision) {
	t.Helper()
	var kept, removed []string
	for _, h := range live {
		if dec[h].Selected {
			kept = append(kept, h)
		} else {
			removed = append(removed, h)
		}
	}
	if len(live) <= n && len(removed) > 0 {
		t.Fatalf("%s: sticky: held %v dropped with N %d", what, removed, n)
	}
	if len(live) > n && (len(kept) != n || len(dec) > 0 && countSelected(dec) != n) {
		t.Fatalf("%s: scale-in to %d kept %v", what, n, kept)
	}
	for _, k := range kept {
		if s, ok := recorded[k]; ok && (dec[k].AffinityScore != s.Affinity || dec[k].TopologySpreadScore != s.TopologySpread) {
			t.Fatalf("%s: held %s shows %+v, recorded %+v", what, k, dec[k], s)
		}
	}
	// Fleet's removal order: no score first, then lower score, then smaller name.
	below := func(a, b string) bool {
		sa, oka := recorded[a]
		sb, okb := recorded[b]
		switch {
		case oka != okb:
			return !oka
		case sa.TopologySpread != sb.TopologySpread:
			return sa.TopologySpread < sb.TopologySpread
		case sa.Affinity != sb.Affinity:
			return sa.Affinity < sb.Affinity
		}
		return a < b
	}
	for _, x := range removed {
		for _, k := range kept {
			if !below(x, k) {
				t.Fatalf("%s: scale-in removed %s (%+v) but kept %s (%+v)", what, x, recorded[x], k, recorded[k])
			}
		}
	}
}

// checkSkew: for each DoNotSchedule constraint, the skew after the cycle is
// at most max(max_skew, the skew of the clusters kept from before).
func checkSkew(t *testing.T, what string, f *fleet.Fleet, pol placement.Policy, unchanged bool, live, selected []string) {
	t.Helper()
	for _, c := range pol.TopologySpreadConstraints {
		if c.WhenUnsatisfiable != placement.DoNotSchedule {
			continue
		}
		skew := func(names []string) int {
			counts := map[string]int{}
			for _, cl := range f.Clusters {
				if v, ok := cl.Labels[c.TopologyKey]; ok {
					counts[v] += 0
				}
			}
			for _, n := range names {
				cl, _ := f.Cluster(n)
				if v, ok := cl.Labels[c.TopologyKey]; ok {
					counts[v]++
				}
			}
			lo, hi := -1, 0
			for _, k := range counts {
				if lo < 0 || k < lo {
					lo = k
				}
				hi = max(hi, k)
			}
			return hi - max(lo, 0)
		}
		var base []string
		if unchanged {
			for _, n := range live {
				if slices.Contains(selected, n) {
					base = append(base, n)
				}
			}
		}
		if got, bound := skew(selected), max(*c.MaxSkew, skew(base)); got > bound {
			t.Fatalf("%s: skew on %s is %d, bound %d (selected %v)", what, c.TopologyKey, got, bound, selected)
		}
	}
}

// checkTopN: no cluster left out for its score ranks above a cluster picked
// in this cycle (scores compare topology first, then affinity; ties go to
// the larger name).
func checkTopN(t *testing.T, what string, live []string, res placement.Result, dec map[string]placement.Decision) {
	t.Helper()
	for _, p := range res.Selected {
		if slices.Contains(live, p) {
			continue // kept, not picked now
		}
		dp := dec[p]
		for _, q := range res.Decisions {
			if q.Selected || !isScoreReason(q.Reason) {
				continue
			}
			if q.TopologySpreadScore > dp.TopologySpreadScore ||
				q.TopologySpreadScore == dp.TopologySpreadScore && (q.AffinityScore > dp.AffinityScore ||
					q.AffinityScore == dp.AffinityScore && q.ClusterName > p) {
				t.Fatalf("%s: left out %+v ranks above picked %+v", what, q, dp)
			}
		}
	}
}

func countSelected(dec map[string]placement.Decision) int {
	n := 0
	for _, d := range dec {
		if d.Selected {
			n++
		}
	}
	return n
}

func isScoreReason(r string) bool { return strings.HasPrefix(r, placement.ReasonNotScoredEnough) }

func stripN(p placement.Policy) placement.Policy {
	p.NumberOfClusters = nil
	if len(p.ClusterNames) == 0 {
		p.ClusterNames = nil
	}
	if len(p.Tolerations) == 0 {
		p.Tolerations = nil
	}
	if len(p.TopologySpreadConstraints) == 0 {
		p.TopologySpreadConstraints = nil
	}
	return p
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

func describe(s placement.Spec) string {
	p := s.Policy
	out := p.PlacementType
	if p.NumberOfClusters != nil {
		out += fmt.Sprintf(" %d", *p.NumberOfClusters)
	}
	if p.Affinity != nil {
		out += fmt.Sprintf(", %d required, %d preferred", len(p.Affinity.Required), len(p.Affinity.Preferred))
	}
	return out + fmt.Sprintf(", %d spread, %d tolerations", len(p.TopologySpreadConstraints), len(p.Tolerations))
}

// Random fleets: up to 16 clusters over up to 4 regions (a few without the
// label), some tainted, some not eligible (stale, leaving, not joined,
// unhealthy or unknown for long, or a short blip that is tolerated), with a
// node count, a cost spelled in several ways, and available CPU.
func randomFleet(r *rand.Rand) *fleet.Fleet {
	regions := []string{"east", "west", "north", "south"}[:1+r.IntN(4)]
	costs := []string{"0.05", "0.050", "0.1", "0.10", "0.2", "100m", "0.3"}
	n := 2 + r.IntN(15)
	f := &fleet.Fleet{}
	for i := 0; i < n; i++ {
		c := fleet.Cluster{
			Name:       fmt.Sprintf("c%02d", i),
			Labels:     map[string]string{"env": []string{"prod", "dev"}[r.IntN(2)], "tier": []string{"gold", "silver", "bronze"}[r.IntN(3)]},
			Properties: map[string]string{},
			Agent: fleet.AgentStatus{Present: true, Joined: true, Healthy: fleet.ConditionTrue,
				HealthSince: propNow.Add(-time.Hour), LastHeartbeat: propNow.Add(-30 * time.Second)},
		}
		if r.IntN(10) > 0 {
			c.Labels["region"] = regions[r.IntN(len(regions))]
		}
		if r.IntN(5) > 0 {
			c.Properties[fleet.PropertyNodeCount] = fmt.Sprint(1 + r.IntN(20))
		}
		if r.IntN(4) > 0 {
			c.Properties[fleet.PropertyPerCPUCoreCost] = costs[r.IntN(len(costs))]
		}
		if r.IntN(5) > 0 {
			c.Usage.Available = map[string]resource.Quantity{fleet.ResourceCPU: resource.MustParse(fmt.Sprintf("%dm", r.IntN(64000)))}
		}
		if r.IntN(6) == 0 {
			c.Taints = []fleet.Taint{{Key: "dedicated", Value: []string{"gpu", "batch"}[r.IntN(2)], Effect: fleet.TaintEffectNoSchedule}}
		}
		switch r.IntN(14) {
		case 0:
			c.Agent.LastHeartbeat = propNow.Add(-time.Hour)
		case 1:
			c.Agent.Leaving = true
		case 2:
			c.Agent.Joined = false
		case 3:
			c.Agent.Healthy, c.Agent.HealthSince = fleet.ConditionFalse, propNow.Add(-time.Hour)
		case 4:
			c.Agent.Healthy, c.Agent.HealthSince = fleet.ConditionUnknown, propNow.Add(-time.Minute)
		case 5:
			c.Agent.Healthy, c.Agent.HealthSince = fleet.ConditionUnknown, propNow.Add(-time.Hour)
		}
		f.Clusters = append(f.Clusters, c)
	}
	f.Sort()
	return f
}

// changeFleet returns a copy of f with one change: a cluster removed, made
// ineligible, relabelled, or a new one joined.
func changeFleet(r *rand.Rand, f *fleet.Fleet) *fleet.Fleet {
	out := &fleet.Fleet{Regions: f.Regions, Clusters: slices.Clone(f.Clusters)}
	if len(out.Clusters) == 0 {
		return out
	}
	i := r.IntN(len(out.Clusters))
	c := out.Clusters[i]
	c.Labels = maps(c.Labels)
	switch r.IntN(4) {
	case 0:
		out.Clusters = slices.Delete(out.Clusters, i, i+1)
		return out
	case 1:
		c.Agent.LastHeartbeat = propNow.Add(-time.Hour)
	case 2:
		c.Labels["env"] = "retired"
		c.Labels["region"] = "elsewhere"
	case 3:
		n := c
		n.Name = "z-new"
		out.Clusters = append(out.Clusters, n)
	}
	out.Clusters[i] = c
	out.Sort()
	return out
}

func maps(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func randomSpec(r *rand.Rand, f *fleet.Fleet) placement.Spec {
	s := placement.Spec{Name: "prop", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app"}}}
	p := &s.Policy
	switch r.IntN(5) {
	case 0:
		p.PlacementType = placement.PickAll
	case 1:
		p.PlacementType = placement.PickFixed
		for i := r.IntN(4); i > 0; i-- {
			if r.IntN(4) == 0 || len(f.Clusters) == 0 {
				p.ClusterNames = append(p.ClusterNames, fmt.Sprintf("ghost-%d", i))
			} else {
				n := f.Clusters[r.IntN(len(f.Clusters))].Name
				if !slices.Contains(p.ClusterNames, n) {
					p.ClusterNames = append(p.ClusterNames, n)
				}
			}
		}
		return s
	default:
		p.PlacementType = placement.PickN
		n := r.IntN(len(f.Clusters) + 3)
		p.NumberOfClusters = &n
	}
	a := &placement.Affinity{}
	if r.IntN(3) == 0 {
		term := placement.ClusterSelectorTerm{}
		if r.IntN(2) == 0 {
			term.LabelSelector = &selector.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}
		} else {
			term.PropertySelector = &selector.PropertySelector{MatchExpressions: []selector.PropertyExpression{
				{Name: fleet.PropertyNodeCount, Operator: selector.OpGe, Values: []string{fmt.Sprint(r.IntN(15))}}}}
		}
		a.Required = append(a.Required, term)
	}
	if p.PlacementType == placement.PickN {
		for i := r.IntN(3); i > 0; i-- {
			t := placement.PreferredTerm{Weight: r.IntN(201) - 100}
			switch r.IntN(3) {
			case 0:
				t.Preference.LabelSelector = &selector.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}}
			case 1:
				t.Preference.PropertySorter = &placement.PropertySorter{Name: []string{fleet.PropertyNodeCount, fleet.PropertyPerCPUCoreCost,
					"resources.kubernetes-fleet.io/available-cpu"}[r.IntN(3)], SortOrder: []string{placement.Ascending, placement.Descending}[r.IntN(2)]}
			default:
				t.Preference.LabelSelector = &selector.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}
				t.Preference.PropertySorter = &placement.PropertySorter{Name: fleet.PropertyNodeCount, SortOrder: placement.Descending}
			}
			a.Preferred = append(a.Preferred, t)
		}
		for i := r.IntN(3); i > 0; i-- {
			key := []string{"region", "tier", fleet.LabelLocation}[r.IntN(3)]
			skew := 1 + r.IntN(2)
			when := []string{placement.DoNotSchedule, placement.ScheduleAnyway}[r.IntN(2)]
			p.TopologySpreadConstraints = append(p.TopologySpreadConstraints, placement.TopologySpreadConstraint{TopologyKey: key, MaxSkew: &skew, WhenUnsatisfiable: when})
		}
	}
	if len(a.Required)+len(a.Preferred) > 0 {
		p.Affinity = a
	}
	if r.IntN(3) == 0 {
		p.Tolerations = []placement.Toleration{{Key: "dedicated", Value: "gpu"}}
	}
	return s
}
