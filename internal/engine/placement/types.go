// Package placement is the Fleet ClusterResourcePlacement scheduler: policy
// validation, the filter / score / pick stages, sticky re-scheduling, the
// plan preview and rollout resolution (placement.md).
//
// It reproduces the decisions of the open-source Fleet scheduler
// (kubefleet-dev/kubefleet, formerly Azure/fleet, pkg/scheduler/framework)
// on a fleet.Fleet snapshot. Everything is deterministic and free of I/O: the
// caller passes the fleet, the clusters the placement currently holds and the
// current time.
//
// Layout, one concern per file as in the Fleet scheduler:
//
//	types.go            domain model, defaults, reason texts
//	validate.go         Validate / ValidateUpdate (§2)
//	filter_*.go         eligibility, taints, required affinity, topology (§3, §4)
//	score_affinity.go   preferred affinity and property sorters (§5)
//	score_topology.go   topology spread domains and the skew-change table (§5)
//	pick.go             PickAll / PickFixed / PickN (§6)
//	sticky.go           held clusters, scale in / out, policy changes (§7)
//	schedule.go         the scheduling cycle that ties the stages together
//	preview.go          plan preview (§8)
//	warnings.go         plan warnings (§8)
//	rollout.go          rollout strategy resolution (§8)
package placement

import (
	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// Placement types.
const (
	PickAll   = "PickAll"
	PickN     = "PickN"
	PickFixed = "PickFixed"
)

// Topology spread whenUnsatisfiable values.
const (
	DoNotSchedule  = "DoNotSchedule"
	ScheduleAnyway = "ScheduleAnyway"
)

// Toleration operators.
const (
	TolerationOpEqual  = "Equal"
	TolerationOpExists = "Exists"
)

// TaintEffectNoSchedule is the only taint / toleration effect.
const TaintEffectNoSchedule = "NoSchedule"

// Property sorter orders.
const (
	Ascending  = "Ascending"
	Descending = "Descending"
)

// Rollout strategy types.
const (
	RollingUpdateStrategy = "RollingUpdate"
	ExternalStrategy      = "External"
)

// Defaults applied by Fleet's API server (CRD defaults).
const (
	DefaultMaxSkew                  = 1
	DefaultMaxUnavailable           = "25%"
	DefaultMaxSurge                 = "25%"
	DefaultUnavailablePeriodSeconds = 60
	DefaultRevisionHistoryLimit     = 10
	// DefaultPreviewLimit is how many left-out clusters Fleet keeps in its status.
	DefaultPreviewLimit = 20
)

// Limits of the Fleet API.
const (
	MaxResourceSelectors  = 100
	MaxClusterNames       = 100
	MaxRequiredTerms      = 10
	MaxTolerations        = 100
	MinWeight             = -100
	MaxWeight             = 100
	MinRevisionHistory    = 1
	MaxRevisionHistory    = 1000
	topologyViolationCost = 1000 // Fleet's maxSkewViolationPenality
)

// Decision reasons (placement.md §8).
const (
	ReasonPicked           = "picked by scheduling policy"
	ReasonNotScoredEnough  = "does not score high enough"
	ReasonNoRequiredMatch  = "does not match any required cluster affinity term"
	ReasonNotFound         = "not found in the fleet"
	ReasonNotInFixedList   = "not listed in cluster_names"
	reasonTaintFormat      = "taint %s cannot be tolerated"
	reasonTopologyFormat   = "violates DoNotSchedule topology spread constraint on %s (max skew %d)"
	unfulfilledFormat      = "could not find all clusters needed as specified by the scheduling policy, found %d cluster(s) instead"
	reasonScoreFormatStart = ReasonNotScoredEnough + " (affinity score: "
)

// Spec is the desired state of a ClusterResourcePlacement.
type Spec struct {
	Name                 string
	ResourceSelectors    []ResourceSelector
	Policy               Policy
	Strategy             Strategy
	RevisionHistoryLimit *int
}

// ResourceSelector selects cluster-scoped objects on the hub: one by name, or
// all matching a label selector (name and label selector are exclusive).
type ResourceSelector struct {
	Group         string
	Version       string
	Kind          string
	Name          string
	LabelSelector *selector.LabelSelector
}

// Policy is the scheduling policy.
type Policy struct {
	// PlacementType is PickAll (default), PickN or PickFixed.
	PlacementType             string
	ClusterNames              []string
	NumberOfClusters          *int
	Affinity                  *Affinity
	TopologySpreadConstraints []TopologySpreadConstraint
	Tolerations               []Toleration
}

// Affinity is clusterAffinity: required terms filter (OR'd), preferred terms score.
type Affinity struct {
	Required  []ClusterSelectorTerm
	Preferred []PreferredTerm
}

// PreferredTerm is a weighted preference.
type PreferredTerm struct {
	Weight     int
	Preference ClusterSelectorTerm
}

// ClusterSelectorTerm ANDs a label selector and a property selector; a
// preferred term may carry a property sorter instead of a property selector.
type ClusterSelectorTerm struct {
	LabelSelector    *selector.LabelSelector
	PropertySelector *selector.PropertySelector
	PropertySorter   *PropertySorter
}

// PropertySorter interpolates a preferred term's weight by a property value.
type PropertySorter struct {
	Name      string
	SortOrder string
}

// TopologySpreadConstraint spreads a PickN placement over the values of a label.
type TopologySpreadConstraint struct {
	MaxSkew           *int
	TopologyKey       string
	WhenUnsatisfiable string
}

// Toleration tolerates member-cluster taints.
type Toleration struct {
	Key      string
	Operator string
	Value    string
	Effect   string
}

// String renders the toleration for messages, e.g. `dedicated=gpu:NoSchedule (Equal)`.
func (t Toleration) String() string {
	s := t.Key
	if s == "" {
		s = "*"
	}
	if t.Value != "" {
		s += "=" + t.Value
	}
	if t.Effect != "" {
		s += ":" + t.Effect
	}
	op := t.Operator
	if op == "" {
		op = TolerationOpEqual
	}
	return s + " (" + op + ")"
}

// Strategy is the rollout strategy.
type Strategy struct {
	// Type is RollingUpdate (default) or External.
	Type          string
	RollingUpdate *RollingUpdate
}

// RollingUpdate tunes a rolling update. MaxUnavailable and MaxSurge are an
// integer or a percentage ("25%").
type RollingUpdate struct {
	MaxUnavailable           *string
	MaxSurge                 *string
	UnavailablePeriodSeconds *int
}

// Decision is the scheduler's verdict on one cluster.
type Decision struct {
	ClusterName         string
	Selected            bool
	AffinityScore       int
	TopologySpreadScore int
	Reason              string
}

// Result is the outcome of a scheduling cycle.
type Result struct {
	// Decisions has one entry per fleet cluster (plus, for PickFixed, one per
	// named cluster that is not in the fleet), sorted by cluster name.
	Decisions []Decision
	// Selected are the names of the selected clusters, sorted.
	Selected []string
	// Requested is the number of clusters asked for: numberOfClusters for
	// PickN, len(clusterNames) for PickFixed, -1 for PickAll.
	Requested int
	Fulfilled bool
	// UnfulfilledMessage is Fleet's SchedulingPolicyUnfulfilled message; empty when fulfilled.
	UnfulfilledMessage string
}

// ScheduleOptions carries what the scheduler needs beyond the spec and the fleet.
type ScheduleOptions struct {
	// Prev is the spec the held clusters were scheduled with; nil on create.
	// It decides between "scale only" and "policy changed" (placement.md §7).
	Prev *Spec
}

// Warning is a plan warning: accepted, but probably not what the user wants.
type Warning struct {
	Path    field.Path
	Message string
}

func intPtr(v int) *int       { return &v }
func strPtr(v string) *string { return &v }
func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// WithDefaults returns a copy of spec with Fleet's API defaults filled in:
// placement type PickAll, maxSkew 1, whenUnsatisfiable DoNotSchedule,
// toleration operator Equal, strategy RollingUpdate with 25% / 25% / 60s,
// revisionHistoryLimit 10. The input is never modified.
func WithDefaults(spec Spec) Spec {
	out := spec
	out.Policy = defaultPolicy(spec.Policy)
	out.Strategy.Type = orDefault(spec.Strategy.Type, RollingUpdateStrategy)
	if out.Strategy.Type == RollingUpdateStrategy {
		ru := RollingUpdate{}
		if spec.Strategy.RollingUpdate != nil {
			ru = *spec.Strategy.RollingUpdate
		}
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = strPtr(DefaultMaxUnavailable)
		}
		if ru.MaxSurge == nil {
			ru.MaxSurge = strPtr(DefaultMaxSurge)
		}
		if ru.UnavailablePeriodSeconds == nil {
			ru.UnavailablePeriodSeconds = intPtr(DefaultUnavailablePeriodSeconds)
		}
		out.Strategy.RollingUpdate = &ru
	}
	if out.RevisionHistoryLimit == nil {
		out.RevisionHistoryLimit = intPtr(DefaultRevisionHistoryLimit)
	}
	return out
}

func defaultPolicy(p Policy) Policy {
	out := p
	out.PlacementType = orDefault(p.PlacementType, PickAll)
	if len(p.TopologySpreadConstraints) > 0 {
		out.TopologySpreadConstraints = make([]TopologySpreadConstraint, len(p.TopologySpreadConstraints))
		for i, c := range p.TopologySpreadConstraints {
			if c.MaxSkew == nil {
				c.MaxSkew = intPtr(DefaultMaxSkew)
			}
			c.WhenUnsatisfiable = orDefault(c.WhenUnsatisfiable, DoNotSchedule)
			out.TopologySpreadConstraints[i] = c
		}
	}
	if len(p.Tolerations) > 0 {
		out.Tolerations = make([]Toleration, len(p.Tolerations))
		for i, t := range p.Tolerations {
			t.Operator = orDefault(t.Operator, TolerationOpEqual)
			out.Tolerations[i] = t
		}
	}
	return out
}
