package placement

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
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

// matchesRequired ORs the required terms (designs/placement.md §4); no terms
// match everything. A property that cannot be read fails the whole
// scheduling cycle, as in Fleet: the failure names the expression.
func matchesRequired(terms []requiredTerm, cl *fleet.Cluster) (bool, *CycleFailure) {
	if len(terms) == 0 {
		return true, nil
	}
	for i, t := range terms {
		ok, err := t.matches(cl)
		if err != nil {
			return false, readFailure(requiredPath(i, err), err)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// requiredPath is the attribute of the expression err is about.
func requiredPath(term int, err error) field.Path {
	p := field.Root("policy").Child("affinity").Child("required").Index(term).Child("property_selector")
	var ee *selector.ExpressionError
	if errors.As(err, &ee) {
		p = p.Child("match_expressions").Index(ee.Index).Child("name")
	}
	return p
}

// readFailure is the cycle failure of a property Fleet's scheduler cannot
// read: a value that is not a quantity, or a resource property name it
// cannot split (fleet.SplitResourceProperty).
func readFailure(p field.Path, err error) *CycleFailure {
	fix := "Use a property whose values are quantities, or have the cluster report the property as a quantity."
	if errors.Is(err, fleet.ErrUnreadableResourceProperty) {
		fix = "Use a resource whose name has no '-', such as cpu or memory."
	}
	return &CycleFailure{Path: p, Reason: err.Error(), Fix: fix}
}

// filterAffinity is Fleet's ClusterAffinity filter.
func (c *cycle) filterAffinity(i int) (string, *CycleFailure) {
	ok, fail := matchesRequired(c.required, c.clusters[i])
	switch {
	case fail != nil:
		return "", fail
	case !ok:
		return ReasonNoRequiredMatch, nil
	}
	return "", nil
}
