package placement

import "github.com/fleetform/terraform-provider-aks/internal/engine/selector"

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

// Decision reasons (designs/placement.md §8).
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
	Name                 string             `json:"name"`
	ResourceSelectors    []ResourceSelector `json:"resource_selectors"`
	Policy               Policy             `json:"policy"`
	Strategy             Strategy           `json:"strategy"`
	RevisionHistoryLimit *int               `json:"revision_history_limit"`
}

// ResourceSelector selects cluster-scoped objects on the hub: one by name, or
// all matching a label selector (name and label selector are exclusive).
type ResourceSelector struct {
	Group         string                  `json:"group"`
	Version       string                  `json:"version"`
	Kind          string                  `json:"kind"`
	Name          string                  `json:"name"`
	LabelSelector *selector.LabelSelector `json:"label_selector"`
}

// Policy is the scheduling policy.
type Policy struct {
	// PlacementType is PickAll (default), PickN or PickFixed.
	PlacementType             string                     `json:"placement_type"`
	ClusterNames              []string                   `json:"cluster_names"`
	NumberOfClusters          *int                       `json:"number_of_clusters"`
	Affinity                  *Affinity                  `json:"affinity"`
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topology_spread_constraints"`
	Tolerations               []Toleration               `json:"tolerations"`
}

// Affinity is clusterAffinity: required terms filter (OR'd), preferred terms score.
type Affinity struct {
	Required  []ClusterSelectorTerm `json:"required"`
	Preferred []PreferredTerm       `json:"preferred"`
}

// PreferredTerm is a weighted preference.
type PreferredTerm struct {
	Weight     int                 `json:"weight"`
	Preference ClusterSelectorTerm `json:"preference"`
}

// ClusterSelectorTerm ANDs a label selector and a property selector; a
// preferred term may carry a property sorter instead of a property selector.
type ClusterSelectorTerm struct {
	LabelSelector    *selector.LabelSelector    `json:"label_selector"`
	PropertySelector *selector.PropertySelector `json:"property_selector"`
	PropertySorter   *PropertySorter            `json:"property_sorter"`
}

// PropertySorter interpolates a preferred term's weight by a property value.
type PropertySorter struct {
	Name      string `json:"name"`
	SortOrder string `json:"sort_order"`
}

// TopologySpreadConstraint spreads a PickN placement over the values of a label.
type TopologySpreadConstraint struct {
	MaxSkew           *int   `json:"max_skew"`
	TopologyKey       string `json:"topology_key"`
	WhenUnsatisfiable string `json:"when_unsatisfiable"`
}

// Toleration tolerates member-cluster taints.
type Toleration struct {
	Key      string `json:"key"`
	Operator string `json:"operator"`
	Value    string `json:"value"`
	Effect   string `json:"effect"`
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
	Type          string         `json:"type"`
	RollingUpdate *RollingUpdate `json:"rolling_update"`
}

// RollingUpdate tunes a rolling update. MaxUnavailable and MaxSurge are an
// integer or a percentage ("25%").
type RollingUpdate struct {
	MaxUnavailable           *string `json:"max_unavailable"`
	MaxSurge                 *string `json:"max_surge"`
	UnavailablePeriodSeconds *int    `json:"unavailable_period_seconds"`
}

// Decision is the scheduler's verdict on one cluster.
type Decision struct {
	ClusterName         string `json:"cluster_name"`
	Selected            bool   `json:"selected"`
	AffinityScore       int    `json:"affinity_score"`
	TopologySpreadScore int    `json:"topology_spread_score"`
	Reason              string `json:"reason"`
}

// Result is the outcome of a scheduling cycle.
type Result struct {
	// Decisions has one entry per fleet cluster (plus, for PickFixed, one per
	// named cluster that is not in the fleet), sorted by cluster name.
	Decisions []Decision `json:"decisions"`
	// Selected are the names of the selected clusters, sorted.
	Selected []string `json:"selected"`
	// Requested is the number of clusters asked for: numberOfClusters for
	// PickN, len(clusterNames) for PickFixed, -1 for PickAll.
	Requested int  `json:"requested"`
	Fulfilled bool `json:"fulfilled"`
	// UnfulfilledMessage is Fleet's SchedulingPolicyUnfulfilled message; empty when fulfilled.
	UnfulfilledMessage string `json:"unfulfilled_message"`
}

// ScheduleOptions carries what the scheduler needs beyond the spec and the fleet.
type ScheduleOptions struct {
	// Prev is the spec the held clusters were scheduled with; nil on create.
	// It decides between "scale only" and "policy changed" (designs/placement.md §7).
	Prev *Spec
}
