package placement

import (
	"fmt"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// requiredTerm is a compiled required cluster selector term.
type requiredTerm struct {
	labels labels.Selector                    // nil: no label selector
	props  *selector.CompiledPropertySelector // nil: no property selector
}

func compileRequired(terms []ClusterSelectorTerm) ([]requiredTerm, error) {
	out := make([]requiredTerm, len(terms))
	for i, t := range terms {
		if t.LabelSelector != nil {
			sel, err := t.LabelSelector.Compile()
			if err != nil {
				return nil, fmt.Errorf("policy.affinity.required[%d]: %w", i, err)
			}
			out[i].labels = sel
		}
		if t.PropertySelector != nil && len(t.PropertySelector.MatchExpressions) > 0 {
			ps, err := t.PropertySelector.Compile()
			if err != nil {
				return nil, fmt.Errorf("policy.affinity.required[%d].property_selector: %w", i, err)
			}
			out[i].props = &ps
		}
	}
	return out, nil
}

// matches ANDs the term's label and property selectors; the label selector is
// evaluated first, as Fleet does, so a property is only read from clusters
// whose labels match. A term with neither selector matches every cluster.
func (t requiredTerm) matches(cl *fleet.Cluster) (bool, error) {
	if t.labels != nil && !t.labels.Matches(labels.Set(cl.Labels)) {
		return false, nil
	}
	if t.props == nil {
		return true, nil
	}
	return t.props.Matches(cl)
}

// matchesRequired ORs the required terms (designs/placement.md §4); no terms match everything.
func matchesRequired(terms []requiredTerm, cl *fleet.Cluster) (bool, error) {
	if len(terms) == 0 {
		return true, nil
	}
	for _, t := range terms {
		ok, err := t.matches(cl)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// filterAffinity is Fleet's ClusterAffinity filter. A property value that is
// not a quantity fails the whole scheduling cycle, as in Fleet.
func (c *cycle) filterAffinity(i int) (string, error) {
	ok, err := matchesRequired(c.required, c.clusters[i])
	switch {
	case err != nil:
		return "", err
	case !ok:
		return ReasonNoRequiredMatch, nil
	}
	return "", nil
}
