package selector

import (
	"time"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// ClusterFilter selects member clusters: by labels, by properties, and
// optionally only the eligible ones. Nil selectors match everything.
type ClusterFilter struct {
	Labels       *LabelSelector
	Properties   *PropertySelector
	EligibleOnly bool
}

// Candidate is a cluster that passed a filter, with its eligibility.
type Candidate struct {
	Cluster     *fleet.Cluster
	Eligibility fleet.Eligibility
}

// Apply returns the clusters of f that pass the filter, in name order.
// The selectors must be valid (see Validate); a property whose value is not
// a quantity is an error.
func (cf ClusterFilter) Apply(f *fleet.Fleet, now time.Time) ([]Candidate, error) {
	ls := labels.Everything()
	if cf.Labels != nil {
		var err error
		if ls, err = cf.Labels.Compile(); err != nil {
			return nil, err
		}
	}
	var ps CompiledPropertySelector
	if cf.Properties != nil {
		var err error
		if ps, err = cf.Properties.Compile(); err != nil {
			return nil, err
		}
	}
	var out []Candidate
	for i := range f.Clusters {
		c := &f.Clusters[i]
		e := fleet.CheckEligibility(c, now)
		if cf.EligibleOnly && !e.Eligible {
			continue
		}
		if !ls.Matches(labels.Set(c.Labels)) {
			continue
		}
		ok, err := ps.Matches(c)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, Candidate{Cluster: c, Eligibility: e})
		}
	}
	return out, nil
}
