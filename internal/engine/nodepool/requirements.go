package nodepool

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// valueSet is the set of label values a requirement admits, with Karpenter's
// semantics (scheduling.Requirement): either a finite set (complement=false)
// or the complement of a finite set, optionally bounded for integer values by
// exclusive bounds gt and lt.
type valueSet struct {
	complement bool
	values     map[string]bool
	gt, lt     *int
}

func newValueSet(r Requirement) valueSet {
	s := valueSet{complement: true, values: map[string]bool{}}
	intValue := func() *int {
		v := 0
		if len(r.Values) > 0 {
			v, _ = strconv.Atoi(r.Values[0]) // validated; Karpenter reads it the same way
		}
		return &v
	}
	switch r.Operator {
	case OperatorIn:
		s.complement = false
		for _, v := range r.Values {
			s.values[v] = true
		}
	case OperatorNotIn:
		for _, v := range r.Values {
			s.values[v] = true
		}
	case OperatorDoesNotExist:
		s.complement = false
	case OperatorGt:
		s.gt = intValue()
	case OperatorLt:
		s.lt = intValue()
	case OperatorGte:
		v := *intValue() - 1
		s.gt = &v
	case OperatorLte:
		v := *intValue() + 1
		s.lt = &v
	}
	// Exists (and anything unknown) admits every value.
	return s
}

// has reports whether the set admits value.
func (s valueSet) has(v string) bool {
	return s.values[v] != s.complement && s.withinBounds(v)
}

func (s valueSet) withinBounds(v string) bool {
	if s.gt == nil && s.lt == nil {
		return true
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return false
	}
	return (s.gt == nil || n > *s.gt) && (s.lt == nil || n < *s.lt)
}

// operator is the operator Karpenter would print for the set; it decides how
// a node without the label is judged.
func (s valueSet) operator() string {
	switch {
	case s.complement && len(s.values) > 0:
		return OperatorNotIn
	case s.complement:
		return OperatorExists
	case len(s.values) > 0:
		return OperatorIn
	default:
		return OperatorDoesNotExist
	}
}

// intersect is Karpenter's Requirement.Intersection.
func (s valueSet) intersect(o valueSet) valueSet {
	out := valueSet{complement: s.complement && o.complement, values: map[string]bool{}}
	out.gt = maxIntPtr(s.gt, o.gt)
	out.lt = minIntPtr(s.lt, o.lt)
	if out.gt != nil && out.lt != nil && *out.gt >= *out.lt {
		return valueSet{values: map[string]bool{}} // DoesNotExist
	}
	switch {
	case s.complement && o.complement:
		for v := range s.values {
			out.values[v] = true
		}
		for v := range o.values {
			out.values[v] = true
		}
	case s.complement:
		for v := range o.values {
			if !s.values[v] {
				out.values[v] = true
			}
		}
	case o.complement:
		for v := range s.values {
			if !o.values[v] {
				out.values[v] = true
			}
		}
	default:
		for v := range s.values {
			if o.values[v] {
				out.values[v] = true
			}
		}
	}
	for v := range out.values {
		if !out.withinBounds(v) {
			delete(out.values, v)
		}
	}
	if !out.complement {
		out.gt, out.lt = nil, nil
	}
	return out
}

func maxIntPtr(a, b *int) *int {
	if a == nil || (b != nil && *b > *a) {
		return b
	}
	return a
}

func minIntPtr(a, b *int) *int {
	if a == nil || (b != nil && *b < *a) {
		return b
	}
	return a
}

// Incompatibility explains why a node's labels do not satisfy a NodePool's
// requirements.
type Incompatibility struct {
	// Key is the (normalized) label key.
	Key string
	// Requirement is the requirement that excludes the node, as written.
	Requirement Requirement
	// Value is the node's label value; Missing is true when the node has no
	// such label.
	Value   string
	Missing bool
}

// String renders e.g.
// "requirement karpenter.azure.com/sku-family In [D] excludes value E".
func (in Incompatibility) String() string {
	if in.Missing {
		return fmt.Sprintf("requirement %s requires label %s, which the node does not have", formatRequirement(in.Requirement), in.Key)
	}
	return fmt.Sprintf("requirement %s excludes value %s", formatRequirement(in.Requirement), in.Value)
}

func formatRequirement(r Requirement) string {
	if r.Operator == OperatorExists || r.Operator == OperatorDoesNotExist {
		return r.Key + " " + r.Operator
	}
	return fmt.Sprintf("%s %s [%s]", r.Key, r.Operator, strings.Join(r.Values, " "))
}

// Incompatibilities returns why labels are incompatible with reqs, in the
// order of the requirements, or nil when they are compatible. The semantics
// are Karpenter's Requirements.Compatible as used for drift: requirements on
// the same key are intersected; a node having the label is compatible when
// the intersection admits its value; a node missing the label is compatible
// only when the intersection is NotIn or DoesNotExist (so In, Exists, Gt, Lt,
// Gte and Lte require the label). Deprecated beta keys are normalized on both
// sides.
func Incompatibilities(labels map[string]string, reqs []Requirement) []Incompatibility {
	combined := map[string]valueSet{}
	var keys []string
	for _, r := range reqs {
		k := normalizeKey(r.Key)
		s := newValueSet(r)
		if prev, ok := combined[k]; ok {
			s = s.intersect(prev)
		} else {
			keys = append(keys, k)
		}
		combined[k] = s
	}
	node := make(map[string]string, len(labels))
	for _, k := range sortedKeys(labels) {
		node[normalizeKey(k)] = labels[k]
	}
	var out []Incompatibility
	for _, k := range keys {
		set := combined[k]
		v, has := node[k]
		if has && !set.has(v) {
			out = append(out, Incompatibility{Key: k, Value: v, Requirement: culprit(reqs, k, func(s valueSet) bool { return !s.has(v) })})
		}
		if !has && set.operator() != OperatorNotIn && set.operator() != OperatorDoesNotExist {
			out = append(out, Incompatibility{Key: k, Missing: true, Requirement: culprit(reqs, k, func(s valueSet) bool {
				op := s.operator()
				return op != OperatorNotIn && op != OperatorDoesNotExist
			})})
		}
	}
	return out
}

// culprit returns the first requirement on key for which bad holds, or a
// synthetic one describing all requirements on the key.
func culprit(reqs []Requirement, key string, bad func(valueSet) bool) Requirement {
	var ops []string
	for _, r := range reqs {
		if normalizeKey(r.Key) != key {
			continue
		}
		if bad(newValueSet(r)) {
			return r
		}
		ops = append(ops, r.Operator)
	}
	sort.Strings(ops)
	return Requirement{Key: key, Operator: strings.Join(ops, "+"), Values: nil}
}
