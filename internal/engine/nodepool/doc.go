// Package nodepool is a deterministic engine for Karpenter NodePools
// (karpenter.sh/v1) as run by AKS Node Auto Provisioning (NAP).
//
// It reproduces, without any I/O or Kubernetes client, what Karpenter core
// v1.14 and the AKS provider do with a NodePool:
//
//   - Validate and ValidateUpdate: the admission rules of the CRD, the AKS
//     additions, and the runtime rules Karpenter would otherwise "fail closed"
//     on (cron schedules with a time zone or day-of-week 7, node counts that
//     overflow int32, ...). Errors carry a Terraform-style attribute path.
//     ValidateNumber applies the same rules to a number as written, before
//     it is read into the model (a fraction, or beyond an int field).
//   - Warnings: configurations that are accepted but surprising (explicitly
//     empty budgets, budgets that can never raise the allowance, schedules that
//     never fire, ...).
//   - WithDefaults: the defaults the API server would apply.
//   - Budget.IsActive, AllowedDisruptions and EvaluateBudgets: disruption budget
//     evaluation exactly as Karpenter's GetAllowedDisruptionsByReason.
//   - Timeline: the piecewise-constant allowance per reason over a time span.
//   - Expiring: forceful expiration of existing nodes.
//   - Drift and ReplacementEstimate: which existing nodes a change drifts, why,
//     and how quickly the Drifted budgets let Karpenter replace them.
//
// No function reads a clock: every time-dependent function takes now (or
// from) explicitly, and all schedules are evaluated in UTC.
//
// The package keeps the engine contract (see package enginetest): Validate,
// ValidateUpdate, WithDefaults and Warnings, each in the file of the same
// concern. Layout, one concern per file:
//
//	types.go          domain model and the well-known values of the API
//	validation.go     Validate / ValidateUpdate / ValidateBudgets and the rule ids
//	defaults.go       WithDefaults, DeepCopy and the default constants
//	warnings.go       Warnings and the warning ids
//	identity.go       ValidateIdentity: cluster and NodePool names
//	labels.go         restricted and well-known label keys
//	requirements.go   requirement compatibility with node labels
//	schedule.go       cron parsing and static analysis of schedules
//	budgets.go        budget evaluation (IsActive, AllowedDisruptions, ...)
//	timeline.go       Timeline: the allowance over a time span
//	expiry.go         Expiring: forceful expiration
//	drift.go          Drift and ReplacementEstimate
//
// Package nodepooltest holds the validation corpus: every NodePool the
// validation tests use, with the rules the engine reports for it.
package nodepool
