package nodepool

import "github.com/fleetform/terraform-provider-aks/internal/engine/field"

// RuleID names a validation rule. Every rule enforced by Validate and
// ValidateUpdate has one, so callers and tests can find errors by rule: each
// field.Error they return has ID string(rule), for use with
// field.Errors.Has.
type RuleID string

// add appends the violation of rule id at p.
func add(es *field.Errors, p field.Path, id RuleID, rule, fix string) {
	*es = append(*es, field.Error{Path: p, ID: string(id), Rule: rule, Fix: fix})
}

// WarningID names a kind of warning returned by Warnings.
type WarningID string

// Warning is an accepted but surprising configuration, with what actually
// happens.
type Warning struct {
	// Path is the attribute the warning is about, e.g.
	// disruption.budgets[1].schedule.
	Path    field.Path
	ID      WarningID
	Message string
}

// String renders "<path>: <message>".
func (w Warning) String() string { return w.Path.String() + ": " + w.Message }

func newWarning(p field.Path, id WarningID, msg string) Warning {
	return Warning{Path: p, ID: id, Message: msg}
}
