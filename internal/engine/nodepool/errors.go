package nodepool

import (
	"strconv"
	"strings"
)

// PathStep is one step of an attribute path: an attribute name, optionally
// followed by a list index or a map key. It lets callers build their own path
// type (for example a terraform-plugin-framework path.Path) without parsing
// strings.
type PathStep struct {
	// Name is the snake_case attribute name.
	Name string
	// Index is the list element index, or -1 when the step has none.
	Index int
	// Key is the map key when HasKey is true.
	Key    string
	HasKey bool
}

// String renders the step in Terraform style: name, name[2] or name["key"].
func (s PathStep) String() string {
	switch {
	case s.HasKey:
		return s.Name + "[" + strconv.Quote(s.Key) + "]"
	case s.Index >= 0:
		return s.Name + "[" + strconv.Itoa(s.Index) + "]"
	default:
		return s.Name
	}
}

// Path is an attribute path made of steps.
type Path []PathStep

// NewPath returns a path of attribute names, none indexed.
func NewPath(names ...string) Path {
	p := make(Path, 0, len(names))
	for _, n := range names {
		p = append(p, PathStep{Name: n, Index: -1})
	}
	return p
}

// Child returns a copy of p extended with the attribute name.
func (p Path) Child(name string) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, PathStep{Name: name, Index: -1})
}

// AtIndex returns a copy of p whose last step addresses list element i.
func (p Path) AtIndex(i int) Path {
	out := make(Path, len(p))
	copy(out, p)
	out[len(out)-1].Index = i
	return out
}

// AtKey returns a copy of p whose last step addresses map key k.
func (p Path) AtKey(k string) Path {
	out := make(Path, len(p))
	copy(out, p)
	out[len(out)-1].Key, out[len(out)-1].HasKey = k, true
	return out
}

// String renders the path in Terraform style, e.g.
// disruption.budgets[1].schedule or template.labels["team"].
func (p Path) String() string {
	parts := make([]string, len(p))
	for i, s := range p {
		parts[i] = s.String()
	}
	return strings.Join(parts, ".")
}

// RuleID names a validation rule. Every rule enforced by Validate and
// ValidateUpdate has one, so callers and tests can find errors by rule.
type RuleID string

// FieldError is one validation failure.
type FieldError struct {
	// Path is the Terraform-style attribute path, e.g.
	// "disruption.budgets[1].nodes".
	Path string
	// Steps is Path in structured form.
	Steps []PathStep
	// ID names the violated rule.
	ID RuleID
	// Rule states what is wrong (no trailing period).
	Rule string
	// Fix says how to fix it.
	Fix string
}

// Error renders "<path>: <rule>. <fix>".
func (e FieldError) Error() string {
	s := e.Path + ": " + e.Rule + "."
	if e.Fix != "" {
		s += " " + e.Fix
	}
	return s
}

// Errors is a list of validation failures, in field order.
type Errors []FieldError

// Error joins all messages, one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Err returns nil when there are no errors, and es otherwise.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// Has reports whether some error violates rule id.
func (es Errors) Has(id RuleID) bool {
	for _, e := range es {
		if e.ID == id {
			return true
		}
	}
	return false
}

// At returns the errors whose path is exactly path.
func (es Errors) At(path string) Errors {
	var out Errors
	for _, e := range es {
		if e.Path == path {
			out = append(out, e)
		}
	}
	return out
}

func (es *Errors) add(p Path, id RuleID, rule, fix string) {
	*es = append(*es, FieldError{Path: p.String(), Steps: p, ID: id, Rule: rule, Fix: fix})
}

// WarningID names a kind of warning returned by Warnings.
type WarningID string

// Warning is an accepted but surprising configuration, with what actually
// happens.
type Warning struct {
	Path    string
	Steps   []PathStep
	ID      WarningID
	Message string
}

// String renders "<path>: <message>".
func (w Warning) String() string { return w.Path + ": " + w.Message }

func newWarning(p Path, id WarningID, msg string) Warning {
	return Warning{Path: p.String(), Steps: p, ID: id, Message: msg}
}
