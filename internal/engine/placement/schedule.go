package placement

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Schedule runs one scheduling cycle of the Fleet scheduler (designs/placement.md §3–§7)
// for spec on the fleet f at time now. held are the clusters the placement
// currently holds (nil on create), opts.Prev the spec they were scheduled
// with, which decides between a scale-only change and a policy change, and
// opts.Recorded the scores they were picked with, which rank them for
// scale-in.
//
// The result has a decision for every cluster of the fleet, in the order
// Fleet's status lists them. When Fleet admits the placement but its
// scheduling cycle fails — a property value that is not a quantity, a
// resource property name its scheduler cannot read, a sorter it cannot
// interpolate — the result says so (Result.Failure) instead of scheduling.
// The error is for a spec that does not validate.
//
// On a shared fleet (fleet.Fleet.Share) the cycle runs once per policy, held
// clusters, recorded scores, previous policy and time — two hundred
// placements that share a dozen policies schedule a dozen times — and every
// caller gets its own copy of the result (designs/hub.md §8).
func Schedule(spec Spec, f *fleet.Fleet, held []string, now time.Time, opts ScheduleOptions) (Result, error) {
	s := WithDefaults(spec)
	if !f.Shared() {
		return schedule(s, f, held, now, opts)
	}
	key := scheduleKey(s.Policy, held, now, opts)
	out := fleet.Derive(f, key, func() scheduled {
		r, err := schedule(s, f, held, now, opts)
		return scheduled{r, err}
	})
	return out.result.clone(), out.err
}

type scheduled struct {
	result Result
	err    error
}

// clone copies the result's slices: a shared result is never handed out.
func (r Result) clone() Result {
	r.Decisions = slices.Clone(r.Decisions)
	r.Selected = slices.Clone(r.Selected)
	if r.Failure != nil {
		f := *r.Failure
		r.Failure = &f
	}
	return r
}

func schedule(s Spec, f *fleet.Fleet, held []string, now time.Time, opts ScheduleOptions) (Result, error) {
	c := &cycle{policy: s.Policy, now: now, fleet: f, clusters: sortedClusters(f), recorded: opts.Recorded, scheduled: opts.Scheduled}
	changed := policyChanged(opts.Prev, s)
	heldMask := c.heldMask(held)

	switch s.Policy.PlacementType {
	case PickFixed:
		return c.pickFixed(s.Policy.ClusterNames, heldMask), nil
	case PickAll:
		if err := c.compileFilters(); err != nil {
			return Result{}, err
		}
		return c.pickAll(heldMask, changed), nil
	case PickN:
		if s.Policy.NumberOfClusters == nil || *s.Policy.NumberOfClusters < 0 {
			return Result{}, fmt.Errorf("policy.number_of_clusters: PickN needs a number of clusters of at least 0")
		}
		if err := c.compileFilters(); err != nil {
			return Result{}, err
		}
		return c.pickN(*s.Policy.NumberOfClusters, heldMask, changed), nil
	}
	return Result{}, fmt.Errorf("policy.placement_type: %q is not a placement type", s.Policy.PlacementType)
}

// cycle is the state of one scheduling cycle; cluster indexes refer to clusters.
type cycle struct {
	policy      Policy // defaulted
	now         time.Time
	fleet       *fleet.Fleet
	clusters    []*fleet.Cluster // sorted by name: a larger index is a larger name
	recorded    map[string]Score
	scheduled   []string // held clusters whose bindings are not bound yet
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
func (c *cycle) filter(i int) (string, *CycleFailure) {
	if r, fail := c.filterAffinity(i); r != "" || fail != nil {
		return r, fail
	}
	if r := c.filterEligibility(i); r != "" {
		return r, nil
	}
	return c.filterTaints(i), nil
}

// filterAll filters every cluster (Fleet's Filter stage, which also runs on
// the clusters the placement holds); a property that cannot be read fails
// the cycle.
func (c *cycle) filterAll() ([]string, *CycleFailure) {
	reasons := make([]string, len(c.clusters))
	for i := range c.clusters {
		r, fail := c.filter(i)
		if fail != nil {
			return nil, fail
		}
		reasons[i] = r
	}
	return reasons, nil
}

// recordedScore is the score recorded for held cluster i; ok is false when
// there is none.
func (c *cycle) recordedScore(i int) (Score, bool) {
	s, ok := c.recorded[c.clusters[i].Name]
	return s, ok
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

// failed is the result of a cycle that fails (designs/placement.md §6):
// Fleet's framework returns before it touches a binding, so the held
// clusters keep theirs (and their recorded scores), and no other decision is
// made.
func (c *cycle) failed(held []bool, fail *CycleFailure, requested int) Result {
	var ds []Decision
	for i, h := range held {
		if h {
			s, _ := c.recordedScore(i)
			ds = append(ds, Decision{ClusterName: c.clusters[i].Name, Selected: true, AffinityScore: s.Affinity,
				TopologySpreadScore: s.TopologySpread, Reason: ReasonKeptCycleFails})
		}
	}
	r := result(ds, requested)
	r.Fulfilled, r.UnfulfilledMessage = false, "every scheduling cycle fails: "+fail.Reason
	r.Failure, r.Unchanged = fail, true
	return r
}

// result assembles a Result from decisions in status order.
func result(decisions []Decision, requested int) Result {
	r := Result{Decisions: decisions, Requested: requested, Selected: []string{}}
	if r.Decisions == nil {
		r.Decisions = []Decision{}
	}
	for _, d := range decisions {
		if d.Selected {
			r.Selected = append(r.Selected, d.ClusterName)
		}
	}
	sort.Strings(r.Selected)
	r.Fulfilled = requested < 0 || len(r.Selected) >= requested
	if !r.Fulfilled {
		r.UnfulfilledMessage = fmt.Sprintf(unfulfilledFormat, len(r.Selected))
	}
	return r
}
