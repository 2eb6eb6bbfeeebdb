package update

import (
	"fmt"
	"slices"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// Rules of the actions on a run (designs/updates.md §4).
const (
	RuleSkipTargetType = "skip_target_type" // Member, Group, Stage or AfterStageWait
	RuleSkipTarget     = "skip_target"      // the target names something of the run
	RuleGateKey        = "gate_key"         // an approved gate is a gate of the run
)

// ValidateSkipTypes checks the type of each skip target (path skip[i].type).
func ValidateSkipTypes(skip []SkipTarget) field.Errors {
	var errs field.Errors
	for i, t := range skip {
		switch t.Type {
		case TargetMember, TargetGroup, TargetStage, TargetAfterStageWait:
		default:
			addError(&errs, field.Root("skip").Index(i).Child("type"), RuleSkipTargetType, "Use "+field.Or(SkipTargetTypes),
				"%q is not a skip target type", t.Type)
		}
	}
	return errs
}

// ValidateActions checks that the skip targets (of valid types, see
// ValidateSkipTypes) and approved gate keys of a run with strategy (nil: one
// by one) over members name something the run has. Paths are
// skip[i].name and approved_gates[i].
func ValidateActions(strategy *Strategy, members []Member, skip []SkipTarget, gates []string) field.Errors {
	var errs field.Errors
	st := strategyOf(&Execution{Strategy: strategy})
	var stages, groups, names []string
	inRun := map[string]bool{}
	for _, s := range st.Stages {
		stages = append(stages, s.Name)
		for _, g := range s.Groups {
			groups = append(groups, g.Name)
			inRun[g.Name] = true
		}
	}
	for _, m := range members {
		if strategy == nil || inRun[m.Group] {
			names = append(names, m.Name)
		}
	}
	for i, t := range skip {
		p := field.Root("skip").Index(i)
		var known []string
		switch t.Type {
		case TargetMember:
			known = names
		case TargetGroup:
			known = groups
		case TargetStage, TargetAfterStageWait:
			known = stages
		default:
			continue // ValidateSkipTypes
		}
		if !slices.Contains(known, t.Name) {
			addError(&errs, p.Child("name"), RuleSkipTarget, fmt.Sprintf("Name one of the run's %s: %s", what(t.Type), orNone(listNames(known))),
				"the run has no %s named %q", what(t.Type), t.Name)
		}
	}
	keys := gateKeys(st)
	for i, k := range gates {
		if !slices.Contains(keys, k) {
			fix := "The run has no approval gates"
			if len(keys) > 0 {
				fix = "Use one of the run's gate keys: " + listNames(keys)
			}
			addError(&errs, field.Root("approved_gates").Index(i), RuleGateKey, fix, "%q is not an approval gate of the run", k)
		}
	}
	return errs
}

func what(targetType string) string {
	switch targetType {
	case TargetMember:
		return "members"
	case TargetGroup:
		return "groups"
	}
	return "stages"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// RunIntent is what a configuration asks of a run: to start it, to keep it
// stopped, the trigger whose change re-runs it, and its skip targets.
type RunIntent struct {
	Start, Stopped bool
	RerunTrigger   string
	Skip           []SkipTarget
}

// RunActions are what an apply does to a run (designs/updates.md §4):
// whether it starts it (Restart: a resume or a re-run of a run that ran),
// stops it, and the skip targets it sends.
type RunActions struct {
	Start, Restart, Stop bool
	Skips                []SkipTarget
}

// PreviewsCourse tells whether the actions change which members the run
// upgrades from now on.
func (a RunActions) PreviewsCourse() bool { return a.Start || len(a.Skips) > 0 }

// DecideActions decides the actions of an apply from what the prior state
// asked (created: there is none, the run is being created), what the plan
// asks and the run's state on the hub:
//   - stop a running or pending run the configuration newly stops;
//   - start a run not started that the configuration starts;
//   - start again (Restart) a finished, failed or stopped run whose
//     rerun_trigger changed, or that a stop held and the configuration no
//     longer stops;
//   - send the skip targets new to the configuration — every one on a
//     restart, before the start, so that it begins with them skipped.
func DecideActions(prior RunIntent, created bool, want RunIntent, state string) RunActions {
	terminal := state == StateCompleted || state == StateFailed || state == StateStopped
	var a RunActions
	switch {
	case want.Stopped && !prior.Stopped && (state == StateRunning || state == StatePending):
		a.Stop = true
	case want.Start && !want.Stopped && state == StateNotStarted:
		a.Start = true
	case want.Start && !want.Stopped && terminal && !created && (want.RerunTrigger != prior.RerunTrigger || (prior.Stopped && state == StateStopped)):
		a.Start, a.Restart = true, true
	}
	for _, t := range want.Skip {
		if a.Restart || !slices.Contains(prior.Skip, t) {
			a.Skips = append(a.Skips, t)
		}
	}
	return a
}
