package placement

import (
	"math"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// constraint is a compiled topology spread constraint. Its domains are the
// distinct values of the topology key over all clusters of the fleet (a
// domain of only ineligible clusters still counts, with 0); counts holds how
// many clusters the placement holds in each domain and is updated
// incrementally as clusters are picked.
type constraint struct {
	key           string
	maxSkew       int
	doNotSchedule bool
	domainOf      []int32 // per cluster; -1 when the cluster lacks the key
	counts        []int

	// Per evaluation round: skew change and violation of placing one more
	// cluster in each domain.
	change   []int
	violates []bool
}

func compileConstraints(cs []TopologySpreadConstraint, clusters []*fleet.Cluster) []*constraint {
	out := make([]*constraint, 0, len(cs))
	for _, tc := range cs {
		k := &constraint{key: tc.TopologyKey, maxSkew: DefaultMaxSkew, doNotSchedule: tc.WhenUnsatisfiable != ScheduleAnyway, domainOf: make([]int32, len(clusters))}
		if tc.MaxSkew != nil {
			k.maxSkew = *tc.MaxSkew
		}
		ids := map[string]int32{}
		for i, cl := range clusters {
			v, ok := cl.Labels[tc.TopologyKey]
			if !ok {
				k.domainOf[i] = -1
				continue
			}
			id, seen := ids[v]
			if !seen {
				id = int32(len(ids))
				ids[v] = id
			}
			k.domainOf[i] = id
		}
		k.counts = make([]int, len(ids))
		k.change = make([]int, len(ids))
		k.violates = make([]bool, len(ids))
		out = append(out, k)
	}
	return out
}

// specialCounts returns the smallest, the second entry of the sorted counts
// and the largest count, as Fleet's countByDomain does (with a single domain
// all three are its count).
func specialCounts(counts []int) (smallest, second, largest int) {
	if len(counts) == 0 {
		return 0, 0, 0
	}
	smallest, second, largest = math.MaxInt, math.MaxInt, math.MinInt
	for _, c := range counts {
		if c < smallest {
			smallest, second = c, smallest
		} else if c < second {
			second = c
		}
		if c > largest {
			largest = c
		}
	}
	if len(counts) == 1 {
		second = smallest
	}
	return smallest, second, largest
}

// skewChange is Fleet's table (designs/placement.md §5) for placing one more cluster
// in a domain holding count clusters:
//
//	largest == smallest                        +1
//	count == smallest && smallest != second    −1
//	count == largest                           +1
//	otherwise                                   0
//
// violated is currentSkew + change > maxSkew.
func skewChange(count, smallest, second, largest, maxSkew int) (change int, violated bool) {
	switch {
	case largest == smallest:
		change = 1
	case count == smallest && smallest != second:
		change = -1
	case count == largest:
		change = 1
	}
	return change, largest-smallest+change > maxSkew
}

// prepare evaluates every domain against the current counts.
func (k *constraint) prepare() {
	s, s2, l := specialCounts(k.counts)
	for d, n := range k.counts {
		k.change[d], k.violates[d] = skewChange(n, s, s2, l, k.maxSkew)
	}
}

// topologyScore sums the constraints for placing cluster i (after prepare):
// −change per satisfied constraint, −1000 per violated ScheduleAnyway
// constraint. violated is the first DoNotSchedule constraint the placement
// would violate (nil when none); clusters without the key add 0 and never
// violate.
func topologyScore(cs []*constraint, i int) (score int, violated *constraint) {
	for _, k := range cs {
		d := k.domainOf[i]
		if d < 0 {
			continue
		}
		switch {
		case !k.violates[d]:
			score -= k.change[d]
		case k.doNotSchedule:
			if violated == nil {
				violated = k
			}
		default:
			score -= topologyViolationCost
		}
	}
	return score, violated
}

func (k *constraint) add(i, delta int) {
	if d := k.domainOf[i]; d >= 0 {
		k.counts[d] += delta
	}
}
