// Package update is the domain of fleet update orchestration: update
// strategies (stages of groups), update runs (one rollout) and auto-upgrade
// profiles (channels that generate runs), as modelled by the Azure Fleet
// Manager ARM resources fleets/updateStrategies, fleets/updateRuns and
// fleets/autoUpgradeProfiles.
//
// What exists now:
//
//	types.go     domain model: Strategy, RunSpec and its RunStatus,
//	             ProfileSpec and its ProfileStatus, the states of a run
//	channel.go   Kubernetes versions and the version an auto-upgrade
//	             channel targets (ChannelTarget)
//
// The package will keep the engine contract of placement and nodepool (see
// package enginetest), added with the resources that need it rather than as
// empty stubs now. For each spec it validates — Strategy, RunSpec and
// ProfileSpec — it will export the four functions of the contract, named
// after the spec because one package holds three (ValidateStrategy,
// ValidateStrategyUpdate, StrategyWithDefaults, StrategyWarnings):
//
//   - Validate: every rule that needs only the spec, errors as field.Errors
//     at the provider's attribute paths;
//   - ValidateUpdate: Validate of the new spec plus the rules of the change
//     (what is immutable, what a started run still accepts);
//   - WithDefaults: the spec as Azure stores it, every default filled in,
//     idempotent and leaving its input untouched, so that the provider can
//     compare a spec read back from Azure with the practitioner's;
//   - Warnings: accepted but surprising configurations as field.Warning,
//     each with the id of its rule (Warn... constants).
//
// They go in validation.go, defaults.go and warnings.go, and a
// contract_test.go runs enginetest.Contract over the package's fixtures, as
// in the other engines. Like them, the package does no I/O and reads no
// clock: functions that depend on time take now.
package update
