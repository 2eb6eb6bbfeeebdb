package placement

import (
	"math"

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

// The values of each enumerated field, in the order messages list them:
// the engine's messages and the provider's schema are built from these.
var (
	PlacementTypes          = []string{PickAll, PickN, PickFixed}
	WhenUnsatisfiableValues = []string{DoNotSchedule, ScheduleAnyway}
	TolerationOperators     = []string{TolerationOpEqual, TolerationOpExists}
	TolerationEffects       = []string{TaintEffectNoSchedule}
	SortOrders              = []string{Ascending, Descending}
	StrategyTypes           = []string{RollingUpdateStrategy, ExternalStrategy}
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
	MaxInt32              = math.MaxInt32 // numberOfClusters and maxSkew are int32 in Fleet's API
	topologyViolationCost = 1000          // Fleet's maxSkewViolationPenality
)

// Decision reasons (designs/placement.md §8).
const (
	ReasonPicked          = "picked by scheduling policy"
	ReasonNotScoredEnough = "does not score high enough"
	ReasonNoRequiredMatch = "does not match any required cluster affinity term"
	ReasonNotFound        = "not found in the fleet"
	ReasonNotInFixedList  = "not listed in cluster_names"
	// ReasonNotEvaluated: PickN with number_of_clusters already met (or 0)
	// runs no filter and no score; Fleet's status lists no such cluster.
	ReasonNotEvaluated = "not evaluated: number_of_clusters is already met"
	// ReasonScaledIn: removed on scale-in, the lowest score recorded when picked first.
	ReasonScaledIn = "removed by scale-in: lowest score recorded when picked"
	// ReasonScaledInUnbound: removed on scale-in before every bound cluster,
	// its binding not bound yet (Fleet trims Scheduled bindings first).
	ReasonScaledInUnbound = "removed by scale-in: not bound yet (unbound bindings go first)"
	// ReasonKeptCycleFails: a held cluster while every scheduling cycle fails
	// (Result.Failure): Fleet changes no binding.
	ReasonKeptCycleFails = "kept: every scheduling cycle fails, so Fleet leaves the existing binding in place"
	// ReasonKeptNoNames: a held cluster of a PickFixed placement whose
	// cluster_names is empty: Fleet skips the scheduling cycle.
	ReasonKeptNoNames      = "kept: Fleet skips the scheduling cycle of a PickFixed placement without cluster names, so the existing binding stays"
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

// Decision is the scheduler's verdict on one cluster. For a selected
// cluster the scores are the ones recorded when it was picked, as Fleet keeps
// them on the cluster's binding and lists them in its status
// (designs/placement.md §7).
type Decision struct {
	ClusterName         string `json:"cluster_name"`
	Selected            bool   `json:"selected"`
	AffinityScore       int    `json:"affinity_score"`
	TopologySpreadScore int    `json:"topology_spread_score"`
	Reason              string `json:"reason"`
}

// Score is a cluster's score as Fleet records it on the cluster's binding
// when it picks the cluster.
type Score struct {
	Affinity       int
	TopologySpread int
}

// less is Fleet's ClusterScore order: topology spread score first, then affinity.
func (s Score) less(o Score) bool {
	if s.TopologySpread != o.TopologySpread {
		return s.TopologySpread < o.TopologySpread
	}
	return s.Affinity < o.Affinity
}

// RecordedScores returns the recorded score of every selected cluster of
// decisions (a hub's status, or the status in Terraform state): what
// ScheduleOptions.Recorded takes.
func RecordedScores(decisions []Decision) map[string]Score {
	out := map[string]Score{}
	for _, d := range decisions {
		if d.Selected {
			out[d.ClusterName] = Score{Affinity: d.AffinityScore, TopologySpread: d.TopologySpreadScore}
		}
	}
	return out
}

// Result is the outcome of a scheduling cycle.
type Result struct {
	// Decisions are in the order Fleet's status lists them (designs/placement.md §8):
	// the selected clusters by name, then the scored clusters not picked, best
	// first, then the filtered ones by name (PickFixed: the named clusters
	// that are not eligible in cluster_names order, then the names not
	// found), then the members not named (PickFixed) and the clusters not
	// evaluated or removed by scale-in (PickN), by name. Every fleet cluster
	// has one (plus, for PickFixed, every named cluster that is not a
	// member), except when the cycle fails: then only the held clusters.
	Decisions []Decision `json:"decisions"`
	// Selected are the names of the selected clusters, sorted.
	Selected []string `json:"selected"`
	// Requested is the number of clusters asked for: numberOfClusters for
	// PickN, len(clusterNames) for PickFixed, -1 for PickAll.
	Requested int  `json:"requested"`
	Fulfilled bool `json:"fulfilled"`
	// UnfulfilledMessage is Fleet's SchedulingPolicyUnfulfilled message (or
	// why the cycle fails); empty when fulfilled.
	UnfulfilledMessage string `json:"unfulfilled_message"`
	// Failure is set when Fleet admits the placement but every scheduling
	// cycle fails (designs/placement.md §6): no decision is made, the held
	// clusters keep their bindings.
	Failure *CycleFailure `json:"-"`
	// Unchanged is true when the cycle changes no binding (it fails, or a
	// PickFixed placement without cluster names skips it): the held clusters
	// stay bound under the policy they were scheduled with.
	Unchanged bool `json:"unchanged"`
}

// CycleFailure is why every scheduling cycle of an admitted placement fails.
type CycleFailure struct {
	// Path is the attribute whose evaluation fails, e.g.
	// policy.affinity.preferred[0].preference.property_sorter.name.
	Path field.Path
	// Reason is what fails, naming the cluster and the property.
	Reason string
	// Fix says what to change.
	Fix string
}

// ScheduleOptions carries what the scheduler needs beyond the spec and the fleet.
type ScheduleOptions struct {
	// Prev is the spec the held clusters were scheduled with; nil on create.
	// It decides between "scale only" and "policy changed" (designs/placement.md §7).
	Prev *Spec
	// Recorded are the scores recorded when each held cluster was picked
	// (RecordedScores of the hub's decisions); scale-in removes the lowest
	// first. A held cluster without a recorded score ranks as Fleet ranks a
	// binding without one: before every cluster that has one.
	Recorded map[string]Score
	// Scheduled are the held clusters whose binding Fleet has not bound yet
	// (its state Scheduled, not Bound: BindingStates); scale-in removes them
	// before every bound one (designs/placement.md §7).
	Scheduled []string
}
