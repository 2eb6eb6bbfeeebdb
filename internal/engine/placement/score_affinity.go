package placement

import (
	"fmt"
	"math"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// preferredTerm is a compiled preferred term with weight ≠ 0.
type preferredTerm struct {
	index  int // in policy.affinity.preferred
	weight int
	labels labels.Selector // nil: matches every cluster
	sorter *sorter         // nil: full weight when the labels match
}

// sorter holds a property sorter's value for every cluster of the fleet and
// the extremes over all clusters that have the property (designs/placement.md §5).
type sorter struct {
	name     string
	desc     bool
	has      []bool
	values   []float64
	min, max float64
	any      bool
	// equal is true when every cluster with the property has the same value
	// (the extremes compare equal as quantities).
	equal bool
	// minLow is the smallest floating-point reading among the clusters whose
	// value equals the minimum, maxHigh the largest among those at the
	// maximum: equal quantities spelled differently (0.045, 0.0450) read as
	// different floats, and Fleet takes the extremes' readings from whichever
	// such cluster it lists first.
	minLow, maxHigh float64
}

// compilePreferred compiles the preferred terms; weight-0 terms are dropped
// as Fleet's Score drops them. Every sorter is read — also a weight-0
// term's, as Fleet's PreScore reads every sorter over every cluster of the
// fleet (min and max are taken over all clusters that have the property,
// also ineligible, filtered or non-matching ones); a value it cannot read
// fails the cycle.
//
// A sorter reads the fleet alone: on a shared fleet it is read once per
// property for every placement (designs/hub.md §8). clusters are f's, sorted.
func compilePreferred(terms []PreferredTerm, f *fleet.Fleet, clusters []*fleet.Cluster) ([]preferredTerm, *CycleFailure) {
	var out []preferredTerm
	cache := map[string]*sorter{}
	for i, t := range terms {
		var s *sorter
		if ps := t.Preference.PropertySorter; ps != nil {
			var ok bool
			if s, ok = cache[ps.Name]; !ok {
				read := fleet.Derive(f, "placement.sorter "+ps.Name, func() sorterRead {
					s, err := newSorter(ps.Name, clusters)
					return sorterRead{s, err}
				})
				if read.err != nil {
					return nil, readFailure(sorterPath(i), read.err)
				}
				s = read.sorter
				cache[ps.Name] = s
			}
			if ps.SortOrder == Descending {
				d := *s
				d.desc = true
				s = &d
			}
		}
		if t.Weight == 0 {
			continue
		}
		pt := preferredTerm{index: i, weight: t.Weight, sorter: s}
		if t.Preference.LabelSelector != nil {
			sel, err := t.Preference.LabelSelector.Compile()
			if err != nil {
				return nil, &CycleFailure{Path: field.Root("policy").Child("affinity").Child("preferred").Index(i), Reason: err.Error()}
			}
			pt.labels = sel
		}
		out = append(out, pt)
	}
	return out, nil
}

type sorterRead struct {
	sorter *sorter
	err    error
}

func sorterPath(term int) field.Path {
	return field.Root("policy").Child("affinity").Child("preferred").Index(term).Child("preference").Child("property_sorter").Child("name")
}

func newSorter(name string, clusters []*fleet.Cluster) (*sorter, error) {
	r := newPropertyReader(name)
	s := &sorter{name: name, has: make([]bool, len(clusters)), values: make([]float64, len(clusters))}
	var minQ, maxQ resource.Quantity
	for i, cl := range clusters {
		q, found, err := r.read(cl)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		v := q.AsApproximateFloat64()
		s.has[i], s.values[i] = true, v
		switch c := q.Cmp(minQ); {
		case !s.any || c < 0:
			minQ, s.minLow = q, v
		case c == 0:
			s.minLow = math.Min(s.minLow, v)
		}
		switch c := q.Cmp(maxQ); {
		case !s.any || c > 0:
			maxQ, s.maxHigh = q, v
		case c == 0:
			s.maxHigh = math.Max(s.maxHigh, v)
		}
		s.any = true
	}
	s.min, s.max = minQ.AsApproximateFloat64(), maxQ.AsApproximateFloat64()
	s.equal = s.any && minQ.Cmp(maxQ) == 0
	return s, nil
}

// interpolate scales weight by the cluster's position between min and max,
// in float64, rounded half away from zero. A cluster without the property,
// or a property with the same value everywhere, gets 0.
func (s *sorter) interpolate(i, weight int) int {
	if !s.has[i] || s.min == s.max {
		return 0
	}
	ratio := (s.values[i] - s.min) / (s.max - s.min)
	if !s.desc {
		ratio = 1 - ratio
	}
	return int(math.Round(ratio * float64(weight)))
}

// checkInterpolation is Fleet's sanity check before interpolating a
// cluster's weight (clusteraffinity interpolateWeightFor): the cluster's
// floating-point reading must lie between the readings of the extremes,
// which Fleet takes from the first cluster it lists with each extreme value.
// Fleet lists clusters in no fixed order and retries a failed cycle, so only
// a check that fails in every order fails the placement for good: the
// scored clusters reading equal values as different floats when every
// cluster has the same value, or a reading outside every possible extreme.
// scored are the clusters the term interpolates (they passed the filters,
// match its label selector and have the property).
func (s *sorter) checkInterpolation(scored []int, clusters []*fleet.Cluster) (reason string, failed bool) {
	if len(scored) == 0 {
		return "", false
	}
	lo, hi := scored[0], scored[0]
	for _, i := range scored {
		if s.values[i] < s.values[lo] {
			lo = i
		}
		if s.values[i] > s.values[hi] {
			hi = i
		}
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	if s.equal {
		if s.values[lo] == s.values[hi] {
			return "", false
		}
		return fmt.Sprintf("clusters %q and %q report the same value of property %q, spelled differently so that it reads as %s and %s: "+
			"Fleet takes the minimum and maximum from the first of them it lists, and the other lies outside that range, so interpolating its weight fails",
			clusters[lo].Name, clusters[hi].Name, s.name, f(s.values[lo]), f(s.values[hi])), true
	}
	switch {
	case math.IsInf(s.minLow, 0) || math.IsInf(s.maxHigh, 0):
		return fmt.Sprintf("property %q has an extreme value too large to interpolate between", s.name), true
	case s.values[lo] < s.minLow:
		return fmt.Sprintf("cluster %q reads property %q as %s, below every reading of its minimum (%s)", clusters[lo].Name, s.name, f(s.values[lo]), f(s.minLow)), true
	case s.values[hi] > s.maxHigh:
		return fmt.Sprintf("cluster %q reads property %q as %s, above every reading of its maximum (%s)", clusters[hi].Name, s.name, f(s.values[hi]), f(s.maxHigh)), true
	}
	return "", false
}

// affinityScore sums the preferred terms (designs/placement.md §5): a term whose
// label selector does not match adds 0; a matching term adds its weight, or
// the interpolated weight when it has a sorter.
func affinityScore(terms []preferredTerm, cl *fleet.Cluster, i int) int {
	score := 0
	for _, t := range terms {
		if !t.matches(cl) {
			continue
		}
		if t.sorter == nil {
			score += t.weight
			continue
		}
		score += t.sorter.interpolate(i, t.weight)
	}
	return score
}

func (t preferredTerm) matches(cl *fleet.Cluster) bool {
	return t.labels == nil || t.labels.Matches(labels.Set(cl.Labels))
}

// propertyReader reads one property from clusters. It resolves the name once
// so that reading it from thousands of clusters is a map lookup; it gives the
// same answers as (*fleet.Cluster).Property, which produces the error text.
type propertyReader struct {
	name     string
	resource bool
	capacity string
	res      string
	err      error // the name cannot be read (fleet.SplitResourceProperty)
}

func newPropertyReader(name string) propertyReader {
	r := propertyReader{name: name, resource: fleet.IsResourceProperty(name)}
	if r.resource {
		r.capacity, r.res, r.err = fleet.SplitResourceProperty(name)
	}
	return r
}

func (r propertyReader) read(cl *fleet.Cluster) (resource.Quantity, bool, error) {
	if !r.resource {
		v, ok := cl.Properties[r.name]
		if !ok {
			return resource.Quantity{}, false, nil
		}
		q, ok := fleet.ParseQuantity(v)
		if !ok {
			return cl.Property(r.name) // the fleet model words the error
		}
		return q, true, nil
	}
	if r.err != nil {
		return resource.Quantity{}, false, r.err
	}
	q, ok := cl.Usage.ByCapacity(r.capacity)[r.res]
	return q, ok, nil
}
