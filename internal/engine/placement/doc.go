// Package placement is the Fleet ClusterResourcePlacement scheduler: policy
// validation, the filter / score / pick stages, sticky re-scheduling, the
// plan preview and rollout resolution (designs/placement.md).
//
// It reproduces the decisions of the open-source Fleet scheduler
// (kubefleet-dev/kubefleet, formerly Azure/fleet, pkg/scheduler/framework)
// on a fleet.Fleet snapshot. Everything is deterministic and free of I/O: the
// caller passes the fleet, the clusters the placement currently holds with
// the scores recorded when they were picked, and the current time.
//
// The package keeps the engine contract (see package enginetest): Validate,
// ValidateUpdate, WithDefaults and Warnings, each in the file of the same
// concern. Layout, one concern per file as in the Fleet scheduler:
//
//	types.go            domain model, API limits, reason texts
//	validation.go       Validate / ValidateUpdate / ValidatePolicy (§2)
//	defaults.go         WithDefaults and the default constants
//	filter_*.go         eligibility, taints, required affinity, topology (§3–§5)
//	score_affinity.go   preferred affinity and property sorters (§5)
//	score_topology.go   topology spread domains and the skew-change table (§5)
//	pick.go             PickAll / PickFixed / PickN (§6)
//	sticky.go           held clusters, scale-in by recorded score, policy changes (§7)
//	schedule.go         the scheduling cycle that ties the stages together
//	preview.go          plan preview (§8)
//	warnings.go         Warnings: plan warnings and their ids (§8)
//	rollout.go          rollout strategy resolution (§8)
package placement
