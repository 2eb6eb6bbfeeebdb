// Package field describes where in a configuration a rule was broken (Error)
// or a surprising but accepted setting lies (Warning): the one error type and
// the one warning type of every engine.
//
// Engine types name their fields with `json` tags in the same snake_case
// vocabulary. A list or map whose empty value means something other than an
// unset one (a NodePool's `budgets = []` is unlimited disruption, an unset
// one a 10% budget) is tagged `empty:"distinct"`; everywhere else an empty
// collection and an absent one mean the same, and comparisons of specs (the
// provider's, against a hub that omits empty collections) treat them alike.
//
// Engine validators report errors against attribute paths written in the
// provider's snake_case vocabulary (for example
// `property_selector.match_expressions[1].values`). The path is kept as
// structured steps so that callers can translate it into their own path type
// (the provider turns it into a terraform-plugin-framework path) without
// parsing strings.
package field

import (
	"fmt"
	"strconv"
	"strings"
)

// Step is one element of a Path: an attribute name, a list index or a map key.
type Step struct {
	Name  string // attribute name; empty for index and key steps
	Index int    // list index; -1 when this step is not an index
	Key   string // map key; meaningful only when IsKey is true
	IsKey bool
}

// Path is an immutable attribute path. The zero value is the root.
type Path struct {
	steps []Step
}

// Root starts a path at a top-level attribute.
func Root(name string) Path { return Path{}.Child(name) }

func (p Path) with(s Step) Path {
	steps := make([]Step, len(p.steps), len(p.steps)+1)
	copy(steps, p.steps)
	return Path{steps: append(steps, s)}
}

// Child descends into a nested attribute.
func (p Path) Child(name string) Path { return p.with(Step{Name: name, Index: -1}) }

// Index descends into a list element.
func (p Path) Index(i int) Path { return p.with(Step{Index: i}) }

// Key descends into a map element.
func (p Path) Key(k string) Path { return p.with(Step{Index: -1, Key: k, IsKey: true}) }

// Steps returns a copy of the path's steps.
func (p Path) Steps() []Step { return append([]Step(nil), p.steps...) }

// Parent is the path one step up; the root's parent is the root.
func (p Path) Parent() Path {
	if len(p.steps) == 0 {
		return p
	}
	return Path{steps: append([]Step(nil), p.steps[:len(p.steps)-1]...)}
}

// Len is the number of steps.
func (p Path) Len() int { return len(p.steps) }

// Concat appends q below p.
func (p Path) Concat(q Path) Path {
	steps := make([]Step, 0, len(p.steps)+len(q.steps))
	return Path{steps: append(append(steps, p.steps...), q.steps...)}
}

// Rel returns p relative to base, and whether p lies under base.
func (p Path) Rel(base Path) (Path, bool) {
	if len(p.steps) < len(base.steps) {
		return p, false
	}
	for i, s := range base.steps {
		if p.steps[i] != s {
			return p, false
		}
	}
	return Path{steps: append([]Step(nil), p.steps[len(base.steps):]...)}, true
}

// String renders the path as `a.b[0].c["k"]`.
func (p Path) String() string {
	var b strings.Builder
	for _, s := range p.steps {
		switch {
		case s.IsKey:
			b.WriteString("[" + strconv.Quote(s.Key) + "]")
		case s.Name == "":
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		}
	}
	return b.String()
}

// Error is a broken rule at a path: what is wrong and how to fix it.
type Error struct {
	Path Path
	// ID names the violated rule, when the validator gives rules names;
	// callers and tests find errors by it. It may be empty.
	ID string
	// Rule states the rule that was broken, e.g. `operator "Gt" takes exactly one value, got 2`.
	Rule string
	// Fix tells the user what to do instead. It may be empty when the rule makes it obvious.
	Fix string
}

func (e Error) Error() string {
	msg := e.Rule
	if e.Fix != "" {
		msg += ". " + e.Fix
	}
	if p := e.Path.String(); p != "" {
		return p + ": " + msg
	}
	return msg
}

// Errorf builds an Error whose rule is formatted.
func Errorf(p Path, fix string, format string, args ...any) Error {
	return Error{Path: p, Rule: fmt.Sprintf(format, args...), Fix: fix}
}

// Or lists the values of an enumeration as a message says them: "A, B or C".
// Engines export each enumeration as a list and build their messages from
// it, so that the schema announces exactly the values the engine accepts.
func Or(values []string) string { return join(values, " or ") }

// And lists values as a message says them: "A, B and C".
func And(values []string) string { return join(values, " and ") }

func join(values []string, last string) string {
	switch len(values) {
	case 0:
		return ""
	case 1:
		return values[0]
	}
	return strings.Join(values[:len(values)-1], ", ") + last + values[len(values)-1]
}

// Errors is a list of rule violations. A nil or empty list means valid.
type Errors []Error

// Err returns nil when the list is empty, or the list itself as an error.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// Has reports whether some error has the rule ID id.
func (es Errors) Has(id string) bool {
	for _, e := range es {
		if e.ID == id {
			return true
		}
	}
	return false
}

// At returns the errors whose path renders exactly as path (see Path.String),
// in their original order, or nil when there are none.
func (es Errors) At(path string) Errors {
	var out Errors
	for _, e := range es {
		if e.Path.String() == path {
			out = append(out, e)
		}
	}
	return out
}

// Prefix returns the errors re-rooted below p.
func (es Errors) Prefix(p Path) Errors {
	out := make(Errors, len(es))
	for i, e := range es {
		e.Path = p.Concat(e.Path)
		out[i] = e
	}
	return out
}
