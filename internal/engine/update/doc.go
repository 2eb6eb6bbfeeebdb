// Package update is the domain of fleet update orchestration: update
// strategies (stages of groups), update runs (one rollout) and auto-upgrade
// profiles (channels that generate runs), as modelled by the Azure Fleet
// Manager ARM resources fleets/updateStrategies, fleets/updateRuns and
// fleets/autoUpgradeProfiles.
//
// What exists now:
//
//	types.go       domain model: Strategy, RunSpec and its RunStatus,
//	               ProfileSpec and its ProfileStatus, the states of a run
//	channel.go     Kubernetes versions and the version an auto-upgrade
//	               channel targets (ChannelTarget)
//	validation.go  the rules of designs/updates.md §2 and §5 (Validate...),
//	               ValidateName for resource names, ResolveConcurrency
//	defaults.go    the service's defaults (...WithDefaults)
//	warnings.go    plan warnings on a known fleet (...Warnings)
//	actions.go     the rules of a run's actions: skip targets, gate keys
//	member.go      a member as a run sees it (Members) and the regions'
//	               release catalogs; Consistent node image selection
//	order.go       which member of a group is reached next (window priority)
//	outcome.go     what happens to a member when it is reached (§3)
//	progress.go    the simulation of a run over time (§4)
//	status.go      a run's status at an instant, every level rolled up
//	run.go         Execution: a run's events, and its Status at now
//	preview.go     PreviewRun: the same simulation started at plan time,
//	               its one-line verdicts and its Mermaid gantt chart
//
// The package keeps the engine contract of placement and nodepool (see
// package enginetest). For each spec it validates — Strategy, RunSpec and
// ProfileSpec — it exports the four functions of the contract, named after
// the spec because one package holds three:
//
//	Strategy     ValidateStrategy, ValidateStrategyUpdate, StrategyWithDefaults, StrategyWarnings
//	RunSpec      ValidateRun, ValidateRunUpdate, RunWithDefaults, RunWarnings
//	ProfileSpec  ValidateProfile, ValidateProfileUpdate, ProfileWithDefaults, ProfileWarnings
//
// What each one does:
//
//   - Validate: every rule that needs only the spec, errors as field.Errors
//     at the provider's attribute paths (a run's inline stages under
//     `stages[...]`, as a strategy's), each with its Rule... id;
//   - ValidateUpdate: Validate of the new spec plus the rules of the change:
//     a profile's update_strategy_id is set at creation; a strategy changes
//     freely; a run's change only while NotStarted is the hub's state rule,
//     which the provider meets by replacing the run;
//   - WithDefaults: the spec as Azure stores it, every default filled in
//     (max_concurrency 50 for a stage and 1 for a group, gate type Approval,
//     node image selection Latest), idempotent and leaving its input
//     untouched, so that the provider can compare a spec read back from
//     Azure with the practitioner's;
//   - Warnings: accepted but surprising configurations as field.Warning,
//     each with the id of its rule (Warn... constants): groups no member
//     has, members no stage reaches, a group's concurrency above its member
//     count, a disabled profile, a target version the catalog lacks. The
//     fleet may be nil (unknown): then only what needs no fleet is said.
//
// They live in validation.go, defaults.go and warnings.go, and
// contract_test.go runs enginetest.Contract over the package's fixtures, as
// in the other engines. Like them, the package does no I/O and reads no
// clock: functions that depend on time take now.
package update
