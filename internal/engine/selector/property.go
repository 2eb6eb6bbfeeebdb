package selector

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Property selector operators (Fleet's PropertySelectorOperator).
const (
	OpGt = "Gt"
	OpGe = "Ge"
	OpLt = "Lt"
	OpLe = "Le"
	OpEq = "Eq"
	OpNe = "Ne"
)

// PropertyOperators are the operators a property selector expression accepts.
var PropertyOperators = []string{OpGt, OpGe, OpLt, OpLe, OpEq, OpNe}

// PropertySelector is a Fleet property selector: all expressions must hold.
type PropertySelector struct {
	MatchExpressions []PropertyExpression `json:"match_expressions"`
}

// PropertyExpression compares one cluster property with one quantity.
type PropertyExpression struct {
	Name     string   `json:"name"`
	Operator string   `json:"operator"`
	Values   []string `json:"values"`
}

// Validate applies Fleet's property selector rules (designs/placement.md §2): a known
// operator, exactly one value that parses as a quantity, well-formed resource
// property names, and no contradictions between expressions on the same
// property. Paths are relative to the selector.
func (s PropertySelector) Validate() field.Errors {
	var errs field.Errors
	for i, e := range s.MatchExpressions {
		p := field.Root("match_expressions").Index(i)
		errs = append(errs, ValidatePropertyName(p.Child("name"), e.Name)...)
		if !slices.Contains(PropertyOperators, e.Operator) {
			errs = append(errs, field.Errorf(p.Child("operator"), "Use one of "+strings.Join(PropertyOperators, ", ")+".", "%q is not a property selector operator", e.Operator))
		}
		if len(e.Values) != 1 {
			errs = append(errs, field.Errorf(p.Child("values"), "Give exactly one value, e.g. values = [\"5\"].", "operator %s takes exactly one value, got %d", e.Operator, len(e.Values)))
			continue
		}
		if _, ok := fleet.ParseQuantity(e.Values[0]); !ok {
			errs = append(errs, field.Errorf(p.Child("values").Index(0), "Use a Kubernetes quantity such as 5, 0.5, 500m or 16Gi.", "%q is not a quantity", e.Values[0]))
		}
	}
	if len(errs) == 0 {
		errs = append(errs, contradictions(s.MatchExpressions)...)
	}
	return errs
}

// ValidatePropertyName checks a cluster property name as Fleet's webhook
// does (designs/placement.md §2). A resource property
// (resources.kubernetes-fleet.io/…) is split at its first '-' into a capacity
// type (total, allocatable, available) and a resource, and the whole name must
// be a qualified name, so `…/total-CPU` and `…/total-ephemeral-storage` are
// admitted. Any other name is checked segment by segment between the slashes:
// the first a DNS subdomain or a qualified name, every other one a qualified
// name, so `kubernetes.azure.com/vm-sizes/Standard_D4s_v3/count` is admitted.
// Property selectors and property sorters share it.
func ValidatePropertyName(p field.Path, name string) field.Errors {
	if rest, ok := strings.CutPrefix(name, fleet.ResourcePropertyPrefix); ok {
		const fix = "Resource properties are named resources.kubernetes-fleet.io/{total|allocatable|available}-<resource>, e.g. resources.kubernetes-fleet.io/available-cpu."
		capacity, _, dash := strings.Cut(rest, "-")
		if !dash || !fleet.IsCapacityType(capacity) {
			return field.Errors{field.Errorf(p, fix, "%q is not a valid resource property name: it does not start with total-, allocatable- or available- after %s", name, fleet.ResourcePropertyPrefix)}
		}
		if msgs := validation.IsQualifiedName(name); len(msgs) > 0 {
			return field.Errors{field.Errorf(p, fix, "%q is not a valid resource property name: %s", name, strings.Join(msgs, "; "))}
		}
		return nil
	}
	const fix = "Use a property name such as kubernetes-fleet.io/node-count: segments separated by '/', each of letters, digits, '-', '_' or '.' (at most 63 characters, starting and ending with a letter or digit), the first one optionally a DNS subdomain."
	segs := strings.Split(name, "/")
	if len(segs) == 1 {
		if msgs := validation.IsQualifiedName(name); len(msgs) > 0 {
			return field.Errors{field.Errorf(p, fix, "%q is not a valid property name: %s", name, strings.Join(msgs, "; "))}
		}
		return nil
	}
	if len(validation.IsDNS1123Subdomain(segs[0])) > 0 && len(validation.IsQualifiedName(segs[0])) > 0 {
		return field.Errors{field.Errorf(p, fix, "%q is not a valid property name: its first segment %q is neither a DNS subdomain nor a qualified name", name, segs[0])}
	}
	for _, seg := range segs[1:] {
		if msgs := validation.IsQualifiedName(seg); len(msgs) > 0 {
			return field.Errors{field.Errorf(p, fix, "%q is not a valid property name: segment %q: %s", name, seg, strings.Join(msgs, "; "))}
		}
	}
	return nil
}

// bound is one end of the interval allowed by the expressions on a property.
type bound struct {
	set    bool
	q      resource.Quantity
	strict bool
	index  int
}

// contradictions finds expressions on the same property that no value can
// satisfy together: two different Eq, Eq and Ne on one value, an empty
// interval, or an Eq outside the other bounds.
func contradictions(exprs []PropertyExpression) field.Errors {
	type state struct {
		lo, hi bound
		eq     bound
		ne     []int
	}
	byName := map[string]*state{}
	var order []string
	var errs field.Errors
	p := func(i int) field.Path { return field.Root("match_expressions").Index(i) }
	for i, e := range exprs {
		st := byName[e.Name]
		if st == nil {
			st = &state{}
			byName[e.Name] = st
			order = append(order, e.Name)
		}
		q := resource.MustParse(e.Values[0])
		switch e.Operator {
		case OpGt, OpGe:
			strict := e.Operator == OpGt
			if c := q.Cmp(st.lo.q); !st.lo.set || c > 0 || (c == 0 && strict) {
				st.lo = bound{true, q, strict, i}
			}
		case OpLt, OpLe:
			strict := e.Operator == OpLt
			if c := q.Cmp(st.hi.q); !st.hi.set || c < 0 || (c == 0 && strict) {
				st.hi = bound{true, q, strict, i}
			}
		case OpEq:
			if st.eq.set && st.eq.q.Cmp(q) != 0 {
				errs = append(errs, field.Errorf(p(i), "Keep one Eq per property.", "property %q cannot equal both %s (expression %d) and %s", e.Name, fleet.FormatQuantity(st.eq.q), st.eq.index, e.Values[0]))
				continue
			}
			st.eq = bound{true, q, false, i}
		case OpNe:
			st.ne = append(st.ne, i)
		}
	}
	for _, name := range order {
		st := byName[name]
		if st.lo.set && st.hi.set {
			c := st.lo.q.Cmp(st.hi.q)
			if c > 0 || (c == 0 && (st.lo.strict || st.hi.strict)) {
				errs = append(errs, field.Errorf(p(st.hi.index), "Widen the bounds so that some value satisfies both.", "property %q has an empty range: expressions %d and %d exclude every value", name, st.lo.index, st.hi.index))
			}
		}
		if !st.eq.set {
			continue
		}
		for _, i := range st.ne {
			if ne := resource.MustParse(exprs[i].Values[0]); ne.Cmp(st.eq.q) == 0 {
				errs = append(errs, field.Errorf(p(i), "Remove one of the two.", "property %q cannot be Eq and Ne %s at once (expression %d)", name, fleet.FormatQuantity(st.eq.q), st.eq.index))
			}
		}
		if st.lo.set {
			if c := st.eq.q.Cmp(st.lo.q); c < 0 || (c == 0 && st.lo.strict) {
				errs = append(errs, field.Errorf(p(st.eq.index), "", "property %q: Eq %s lies outside the lower bound of expression %d", name, fleet.FormatQuantity(st.eq.q), st.lo.index))
			}
		}
		if st.hi.set {
			if c := st.eq.q.Cmp(st.hi.q); c > 0 || (c == 0 && st.hi.strict) {
				errs = append(errs, field.Errorf(p(st.eq.index), "", "property %q: Eq %s lies outside the upper bound of expression %d", name, fleet.FormatQuantity(st.eq.q), st.hi.index))
			}
		}
	}
	return errs
}

// CompiledPropertySelector is a validated property selector with its values parsed.
type CompiledPropertySelector struct {
	exprs []compiledExpr
}

type compiledExpr struct {
	name string
	op   string
	q    resource.Quantity
}

// Compile parses a selector's values. It fails on a selector that does not validate.
func (s PropertySelector) Compile() (CompiledPropertySelector, error) {
	if errs := s.Validate(); len(errs) > 0 {
		return CompiledPropertySelector{}, errs
	}
	c := CompiledPropertySelector{exprs: make([]compiledExpr, len(s.MatchExpressions))}
	for i, e := range s.MatchExpressions {
		c.exprs[i] = compiledExpr{e.Name, e.Operator, resource.MustParse(e.Values[0])}
	}
	return c, nil
}

// ExpressionError is an expression whose property cannot be read from a
// cluster: its reported value is not a quantity, or Fleet's scheduler cannot
// read the name (fleet.SplitResourceProperty).
type ExpressionError struct {
	Index int // of the expression in MatchExpressions
	Err   error
}

func (e *ExpressionError) Error() string { return e.Err.Error() }
func (e *ExpressionError) Unwrap() error { return e.Err }

// Matches reports whether every expression holds for the cluster (designs/placement.md §4),
// evaluating them in order and stopping at the first that does not. A
// cluster that lacks a property does not match; a property that cannot be
// read is an *ExpressionError.
func (c CompiledPropertySelector) Matches(cl *fleet.Cluster) (bool, error) {
	for i, e := range c.exprs {
		v, found, err := cl.Property(e.name)
		if err != nil {
			return false, &ExpressionError{Index: i, Err: err}
		}
		if !found || !compare(v.Cmp(e.q), e.op) {
			return false, nil
		}
	}
	return true, nil
}

func compare(c int, op string) bool {
	switch op {
	case OpGt:
		return c > 0
	case OpGe:
		return c >= 0
	case OpLt:
		return c < 0
	case OpLe:
		return c <= 0
	case OpEq:
		return c == 0
	case OpNe:
		return c != 0
	}
	return false // unreachable: Compile only accepts validated operators
}
