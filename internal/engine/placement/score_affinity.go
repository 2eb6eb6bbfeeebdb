package placement

import (
	"fmt"
	"math"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// preferredTerm is a compiled preferred term with weight ≠ 0.
type preferredTerm struct {
	weight int
	labels labels.Selector // nil: matches every cluster
	sorter *sorter         // nil: full weight when the labels match
}

// sorter holds a property sorter's value for every cluster of the fleet and
// the extremes over all clusters that have the property (designs/placement.md §5).
type sorter struct {
	desc     bool
	has      []bool
	values   []float64
	min, max float64
	any      bool
}

// compilePreferred compiles the preferred terms; weight-0 terms are dropped
// as Fleet does. Sorter values are read once for every cluster of the fleet:
// min and max are taken over all clusters that have the property, also
// ineligible, filtered or non-matching ones.
func compilePreferred(terms []PreferredTerm, clusters []*fleet.Cluster) ([]preferredTerm, error) {
	var out []preferredTerm
	cache := map[PropertySorter]*sorter{}
	for i, t := range terms {
		if t.Weight == 0 {
			continue
		}
		pt := preferredTerm{weight: t.Weight}
		if t.Preference.LabelSelector != nil {
			sel, err := t.Preference.LabelSelector.Compile()
			if err != nil {
				return nil, fmt.Errorf("policy.affinity.preferred[%d]: %w", i, err)
			}
			pt.labels = sel
		}
		if ps := t.Preference.PropertySorter; ps != nil {
			s, ok := cache[*ps]
			if !ok {
				var err error
				if s, err = newSorter(*ps, clusters); err != nil {
					return nil, err
				}
				cache[*ps] = s
			}
			pt.sorter = s
		}
		out = append(out, pt)
	}
	return out, nil
}

func newSorter(ps PropertySorter, clusters []*fleet.Cluster) (*sorter, error) {
	r := newPropertyReader(ps.Name)
	s := &sorter{desc: ps.SortOrder == Descending, has: make([]bool, len(clusters)), values: make([]float64, len(clusters))}
	var minQ, maxQ resource.Quantity
	for i, cl := range clusters {
		q, found, err := r.read(cl)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		s.has[i], s.values[i] = true, q.AsApproximateFloat64()
		if !s.any || q.Cmp(minQ) < 0 {
			minQ = q
		}
		if !s.any || q.Cmp(maxQ) > 0 {
			maxQ = q
		}
		s.any = true
	}
	s.min, s.max = minQ.AsApproximateFloat64(), maxQ.AsApproximateFloat64()
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

// affinityScore sums the preferred terms (designs/placement.md §5): a term whose
// label selector does not match adds 0; a matching term adds its weight, or
// the interpolated weight when it has a sorter.
func affinityScore(terms []preferredTerm, cl *fleet.Cluster, i int) int {
	score := 0
	for _, t := range terms {
		if t.labels != nil && !t.labels.Matches(labels.Set(cl.Labels)) {
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

// propertyReader reads one property from clusters. It resolves the name once
// so that reading it from thousands of clusters is a map lookup; it gives the
// same answers as (*fleet.Cluster).Property, which produces the error text.
type propertyReader struct {
	name     string
	usage    int // 0: not a resource property, 1 total, 2 allocatable, 3 available
	resource string
}

func newPropertyReader(name string) propertyReader {
	r := propertyReader{name: name}
	if capacity, res, ok := fleet.ParseResourceProperty(name); ok {
		r.resource = res
		switch capacity {
		case "total":
			r.usage = 1
		case "allocatable":
			r.usage = 2
		case "available":
			r.usage = 3
		}
	}
	return r
}

func (r propertyReader) read(cl *fleet.Cluster) (resource.Quantity, bool, error) {
	var m map[string]resource.Quantity
	switch r.usage {
	case 0:
		v, ok := cl.Properties[r.name]
		if !ok {
			return resource.Quantity{}, false, nil
		}
		q, err := resource.ParseQuantity(v)
		if err != nil {
			return cl.Property(r.name) // the fleet model words the error
		}
		return q, true, nil
	case 1:
		m = cl.Usage.Capacity
	case 2:
		m = cl.Usage.Allocatable
	case 3:
		m = cl.Usage.Available
	}
	q, ok := m[r.resource]
	return q, ok, nil
}
