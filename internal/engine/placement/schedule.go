package placement

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Schedule runs one scheduling cycle of the Fleet scheduler (designs/placement.md §3–§7)
// for spec on the fleet f at time now. held are the clusters the placement
// currently holds (nil on create) and opts.Prev the spec they were scheduled
// with, which decides between a scale-only change and a policy change.
//
// The result has a decision for every cluster of the fleet. A property value
// that is not a quantity, read by a required term or a property sorter, is an
// error naming the cluster and the property, as it fails Fleet's cycle.
func Schedule(spec Spec, f *fleet.Fleet, held []string, now time.Time, opts ScheduleOptions) (Result, error) {
	s := WithDefaults(spec)
	c := &cycle{policy: s.Policy, now: now, clusters: sortedClusters(f)}
	changed := policyChanged(opts.Prev, s)
	heldMask := c.heldMask(held)

	switch s.Policy.PlacementType {
	case PickFixed:
		return c.pickFixed(s.Policy.ClusterNames), nil
	case PickAll:
		if err := c.compileFilters(); err != nil {
			return Result{}, err
		}
		return c.pickAll(heldMask, changed)
	case PickN:
		if s.Policy.NumberOfClusters == nil || *s.Policy.NumberOfClusters < 0 {
			return Result{}, fmt.Errorf("policy.number_of_clusters: PickN needs a number of clusters of at least 0")
		}
		if err := c.compileFilters(); err != nil {
			return Result{}, err
		}
		var err error
		if s.Policy.Affinity != nil {
			if c.preferred, err = compilePreferred(s.Policy.Affinity.Preferred, c.clusters); err != nil {
				return Result{}, err
			}
		}
		c.constraints = compileConstraints(s.Policy.TopologySpreadConstraints, c.clusters)
		return c.pickN(*s.Policy.NumberOfClusters, heldMask, changed)
	}
	return Result{}, fmt.Errorf("policy.placement_type: %q is not a placement type", s.Policy.PlacementType)
}

// cycle is the state of one scheduling cycle; cluster indexes refer to clusters.
type cycle struct {
	policy      Policy // defaulted
	now         time.Time
	clusters    []*fleet.Cluster // sorted by name: a larger index is a larger name
	required    []requiredTerm
	preferred   []preferredTerm
	constraints []*constraint
	reasons     map[[2]int]string
}

func sortedClusters(f *fleet.Fleet) []*fleet.Cluster {
	if f == nil {
		return nil
	}
	out := make([]*fleet.Cluster, len(f.Clusters))
	for i := range f.Clusters {
		out[i] = &f.Clusters[i]
	}
	if !sort.SliceIsSorted(out, func(i, j int) bool { return out[i].Name < out[j].Name }) {
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	}
	return out
}

func (c *cycle) index(name string) (int, bool) {
	i := sort.Search(len(c.clusters), func(i int) bool { return c.clusters[i].Name >= name })
	return i, i < len(c.clusters) && c.clusters[i].Name == name
}

func (c *cycle) compileFilters() error {
	if c.policy.Affinity == nil {
		return nil
	}
	var err error
	c.required, err = compileRequired(c.policy.Affinity.Required)
	return err
}

// filter runs Fleet's filter plugins in Fleet's order — cluster affinity,
// cluster eligibility, taint toleration — and returns the reason of the
// first that rejects the cluster ("" when it passes). The topology spread
// filter depends on the picks and runs while picking.
func (c *cycle) filter(i int) (string, error) {
	if r, err := c.filterAffinity(i); r != "" || err != nil {
		return r, err
	}
	if r := c.filterEligibility(i); r != "" {
		return r, nil
	}
	return c.filterTaints(i), nil
}

// scoreReason is "does not score high enough (affinity score: a, topology spread score: t)".
func (c *cycle) scoreReason(aff, topo int) string {
	key := [2]int{aff, topo}
	if r, ok := c.reasons[key]; ok {
		return r
	}
	if c.reasons == nil {
		c.reasons = map[[2]int]string{}
	}
	b := make([]byte, 0, 80)
	b = append(b, reasonScoreFormatStart...)
	b = strconv.AppendInt(b, int64(aff), 10)
	b = append(b, ", topology spread score: "...)
	b = strconv.AppendInt(b, int64(topo), 10)
	b = append(b, ')')
	r := string(b)
	c.reasons[key] = r
	return r
}

// result assembles a Result from per-cluster decisions (in cluster order).
func result(decisions []Decision, requested int) Result {
	r := Result{Decisions: decisions, Requested: requested, Selected: []string{}}
	for _, d := range decisions {
		if d.Selected {
			r.Selected = append(r.Selected, d.ClusterName)
		}
	}
	r.Fulfilled = requested < 0 || len(r.Selected) >= requested
	if !r.Fulfilled {
		r.UnfulfilledMessage = fmt.Sprintf(unfulfilledFormat, len(r.Selected))
	}
	return r
}
