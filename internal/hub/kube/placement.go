package kube

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// fleetPlacementV1 is the API of Fleet's placements, bindings and policy
// snapshots.
var fleetPlacementV1 = schema.GroupVersion{Group: "placement.kubernetes-fleet.io", Version: "v1"}

// PlacementGVK and PlacementGVR name Fleet's ClusterResourcePlacement API
// (cluster-scoped).
var (
	PlacementGVK = fleetPlacementV1.WithKind("ClusterResourcePlacement")
	PlacementGVR = fleetPlacementV1.WithResource("clusterresourceplacements")
)

// The condition Fleet sets on a ClusterResourcePlacement when it schedules
// it, and its reasons (the names of internal/hub/mock).
const (
	ConditionScheduled = "ClusterResourcePlacementScheduled"
	ReasonFulfilled    = "SchedulingPolicyFulfilled"
	ReasonUnfulfilled  = "SchedulingPolicyUnfulfilled"
)

// The statuses of a condition.
const (
	ConditionStatusTrue    = "True"
	ConditionStatusFalse   = "False"
	ConditionStatusUnknown = "Unknown"
)

// The CRD defaults of the fields of a ClusterResourcePlacement the model has
// no place for. A placement whose fields hold these reads as one without
// them: the API server writes them into every placement it stores.
const (
	defaultSelectionScope       = "NamespaceWithResources" // spec.resourceSelectors[].selectionScope
	defaultStatusReportingScope = "ClusterScopeOnly"       // spec.statusReportingScope
	defaultComparisonOption     = "PartialComparison"      // spec.strategy.applyStrategy.comparisonOption
	defaultApplyType            = "ClientSideApply"        // spec.strategy.applyStrategy.type
	defaultWhenToApply          = "Always"                 // spec.strategy.applyStrategy.whenToApply
	defaultWhenToTakeOver       = "Always"                 // spec.strategy.applyStrategy.whenToTakeOver
)

// PlacementObject returns the placement.kubernetes-fleet.io/v1
// ClusterResourcePlacement called name with the spec s, as written (no
// defaults applied; the API server applies them).
//
// The model's Spec.Name is the placement's name (the engine validates it as
// the CRP's metadata.name, a DNS-1035 label); the CRP's spec has no name, so
// it is not written: metadata.name is name, and PlacementFromObject sets
// Spec.Name from it.
//
// Every other field of the model is written where the API has it:
//
//   - resource_selectors → spec.resourceSelectors[] {group, version, kind,
//     name, labelSelector}; group is always written (the API requires it,
//     "" is the core group) and so is the list, [] when the model has none.
//   - policy → spec.policy {placementType, clusterNames, numberOfClusters,
//     affinity, topologySpreadConstraints, tolerations}. The policy is always
//     written, {} when the model's is empty: Fleet treats no policy and an
//     empty one alike (PickAll), and its CRD refuses to remove a policy once
//     set, so always writing one keeps every later write admissible.
//   - affinity.required → clusterAffinity.requiredDuringSchedulingIgnoredDuringExecution.clusterSelectorTerms[];
//     affinity.preferred → clusterAffinity.preferredDuringSchedulingIgnoredDuringExecution[]
//     {weight, preference}; a term's label_selector, property_selector and
//     property_sorter → labelSelector, propertySelector, propertySorter.
//   - strategy → spec.strategy {type, rollingUpdate {maxUnavailable,
//     maxSurge, unavailablePeriodSeconds}}, omitted when the model's is
//     empty. maxUnavailable and maxSurge are the API's int-or-string: a
//     whole number goes out as a JSON integer, a percentage as a string
//     (Fleet reads a string only as a percentage).
//   - revision_history_limit → spec.revisionHistoryLimit.
//
// Nil and empty carry over as everywhere in this package, except for the
// lists Fleet's CEL rules test for presence (has()) where the engine tests
// for length: clusterNames, topologySpreadConstraints and tolerations are
// omitted when empty, so that an empty list, which the engine admits for
// every placement type, is admitted by the API server too. The lists the
// API requires (resourceSelectors, clusterSelectorTerms, a property
// selector's matchExpressions and an expression's values) are written []
// when nil. PlacementFromObject reads all of these empty lists as nil,
// except clusterSelectorTerms (an explicitly empty required block).
func PlacementObject(name string, s placement.Spec) *unstructured.Unstructured {
	return newObject(PlacementGVK, objectMeta{Name: name}, toPlacementSpec(s), struct{}{})
}

// PlacementFromObject returns the name and spec of a
// placement.kubernetes-fleet.io/v1 ClusterResourcePlacement as read from an
// API server (metadata other than the name, and status, are ignored); the
// spec's Name is the object's name. It is the inverse of PlacementObject,
// with the exceptions PlacementObject lists (empty lists that read as nil).
//
// It fails, with an *Error naming the field, on an object of another kind
// and on a spec with a field the model cannot hold, as NodePoolFromObject
// does: writing such a placement back from the model would silently drop
// the field. Three fields the model has no place for are read when they
// hold their CRD default, which the API server writes into every placement
// it stores: a resource selector's selectionScope (NamespaceWithResources),
// spec.statusReportingScope (ClusterScopeOnly) and spec.strategy.applyStrategy
// (every field absent or at its default: ClientSideApply, PartialComparison,
// Always, Always, no co-ownership, no server-side-apply options). Any other
// value of these is an error.
func PlacementFromObject(obj *unstructured.Unstructured) (string, placement.Spec, error) {
	r, err := newReader(obj, PlacementGVK)
	if err != nil {
		return r.name, placement.Spec{}, err
	}
	var s placementSpec
	if err := r.strict("spec", obj.Object["spec"], &s); err != nil {
		return r.name, placement.Spec{}, err
	}
	if err := r.onlyDefaults(s); err != nil {
		return r.name, placement.Spec{}, err
	}
	spec := fromPlacementSpec(s)
	spec.Name = r.name
	return r.name, spec, nil
}

// onlyDefaults fails on a field of s the model has no place for that holds
// another value than its CRD default.
func (r reader) onlyDefaults(s placementSpec) error {
	var errs []error
	check := func(field string, got *string, def string) {
		if got != nil && *got != def {
			errs = append(errs, r.errorf(field, "%q: the model holds only the default, %s", *got, def))
		}
	}
	for i, rs := range s.ResourceSelectors {
		check("spec.resourceSelectors["+strconv.Itoa(i)+"].selectionScope", rs.SelectionScope, defaultSelectionScope)
	}
	check("spec.statusReportingScope", s.StatusReportingScope, defaultStatusReportingScope)
	if s.Strategy != nil && s.Strategy.ApplyStrategy != nil {
		a, p := s.Strategy.ApplyStrategy, "spec.strategy.applyStrategy."
		check(p+"comparisonOption", a.ComparisonOption, defaultComparisonOption)
		check(p+"type", a.Type, defaultApplyType)
		check(p+"whenToApply", a.WhenToApply, defaultWhenToApply)
		check(p+"whenToTakeOver", a.WhenToTakeOver, defaultWhenToTakeOver)
		if a.AllowCoOwnership != nil && *a.AllowCoOwnership {
			errs = append(errs, r.errorf(p+"allowCoOwnership", "true: %s", cannotHold))
		}
		if a.ServerSideApplyConfig != nil {
			errs = append(errs, r.errorf(p+"serverSideApplyConfig", "%s", cannotHold))
		}
	}
	return errors.Join(errs...)
}

// Condition is a status condition of a Fleet object (metav1.Condition)
// without its observedGeneration, which the readers return on their own
// (PlacementStatus.ObservedGeneration). Its fields are hub.Condition's.
type Condition struct {
	Type    string
	Status  string
	Reason  string
	Message string
	// LastTransitionTime is in UTC, to the second (the API's precision).
	LastTransitionTime time.Time
}

// PlacementStatus is what Fleet reports in a ClusterResourcePlacement's
// status that the hub reads.
type PlacementStatus struct {
	// ObservedGeneration is the observedGeneration of the
	// ClusterResourcePlacementScheduled condition: the generation of the
	// spec whose scheduling the status reports (the other conditions follow
	// the rollout and may observe another); 0 without that condition.
	ObservedGeneration int64
	// Conditions are status.conditions, in the order listed.
	Conditions []Condition
	// Clusters are the clusters the placement is scheduled on:
	// status.placementStatuses[].clusterName, in the order listed.
	Clusters []string
	// Unscheduled counts the placementStatuses without a cluster name: for
	// a PickN or PickFixed placement Fleet cannot fulfil, it lists one such
	// entry for every cluster it could not find.
	Unscheduled int
	// ResourceIndex is status.observedResourceIndex: the latest resource
	// snapshot's index; -1 when the status has none.
	ResourceIndex int
	// SelectedResources are status.selectedResources, in the order listed.
	SelectedResources []fleet.ResourceID
	// ClusterStatuses are the placementStatuses with a cluster name, each
	// with its conditions and failedPlacements, in the order of Clusters;
	// ClusterIndexes the observedResourceIndex of each (-1: none).
	ClusterStatuses []placement.ClusterStatus
	ClusterIndexes  []int
}

// PlacementStatusFrom reads the status of a ClusterResourcePlacement, as
// Fleet writes it. It reads status.conditions and the cluster names of
// status.placementStatuses and ignores the rest (resources selected, their
// rollout on each cluster). An object of another kind, a field of the wrong
// type or a time that is not RFC 3339 is an *Error naming the field.
func PlacementStatusFrom(obj *unstructured.Unstructured) (PlacementStatus, error) {
	r, err := newReader(obj, PlacementGVK)
	if err != nil {
		return PlacementStatus{}, err
	}
	var w placementStatus
	if err := r.lenient("status", obj.Object["status"], &w); err != nil {
		return PlacementStatus{}, err
	}
	var st PlacementStatus
	if st.Conditions, err = r.conditions("status.conditions", w.Conditions); err != nil {
		return PlacementStatus{}, err
	}
	for _, c := range w.Conditions {
		if c.Type == ConditionScheduled {
			st.ObservedGeneration = c.ObservedGeneration
		}
	}
	st.ResourceIndex = index(w.ObservedResourceIndex)
	for _, id := range w.SelectedResources {
		st.SelectedResources = append(st.SelectedResources, fleet.ResourceID{Group: id.Group, Version: id.Version, Kind: id.Kind,
			Namespace: id.Namespace, Name: id.Name})
	}
	for i, ps := range w.PlacementStatuses {
		if ps.ClusterName == "" {
			st.Unscheduled++
			continue
		}
		st.Clusters = append(st.Clusters, ps.ClusterName)
		path := "status.placementStatuses[" + strconv.Itoa(i) + "]"
		cs := placement.ClusterStatus{Cluster: ps.ClusterName}
		conds, err := r.conditions(path+".conditions", ps.Conditions)
		if err != nil {
			return PlacementStatus{}, err
		}
		cs.Conditions = mapSlice(conds, func(c Condition) placement.Condition { return placement.Condition(c) })
		for j, f := range ps.FailedPlacements {
			c, err := r.conditions(path+".failedPlacements["+strconv.Itoa(j)+"].condition", []condition{f.Condition})
			if err != nil {
				return PlacementStatus{}, err
			}
			fp := placement.FailedPlacement{ResourceID: fleet.ResourceID{Group: f.Group, Version: f.Version, Kind: f.Kind, Namespace: f.Namespace, Name: f.Name},
				Condition: placement.Condition(c[0])}
			if f.Envelope != nil {
				fp.Envelope = f.Envelope.Namespace + "/" + f.Envelope.Name
			}
			cs.FailedPlacements = append(cs.FailedPlacements, fp)
		}
		st.ClusterStatuses = append(st.ClusterStatuses, cs)
		st.ClusterIndexes = append(st.ClusterIndexes, index(ps.ObservedResourceIndex))
	}
	return st, nil
}

// index reads an observedResourceIndex ("" or not a number: -1).
func index(s string) int {
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 {
		return -1
	}
	return i
}

// SetPlacementStatus replaces the status of the ClusterResourcePlacement obj
// with st, as Fleet's placement controller writes it: every condition with
// st.ObservedGeneration as its observedGeneration (the controller stamps the
// generation it reconciled), one placementStatuses entry per cluster of
// st.Clusters and st.Unscheduled entries without a cluster name after them.
// It is for test fixtures that play Fleet; PlacementStatusFrom reads st back
// (empty lists as nil, and ObservedGeneration only when a
// ClusterResourcePlacementScheduled condition carries it). An API server
// takes the status through the status subresource only (UpdateStatus).
func SetPlacementStatus(obj *unstructured.Unstructured, st PlacementStatus) {
	w := placementStatus{Conditions: toConditions(st.Conditions, st.ObservedGeneration)}
	if st.ResourceIndex >= 0 {
		w.ObservedResourceIndex = strconv.Itoa(st.ResourceIndex)
	}
	for _, id := range st.SelectedResources {
		w.SelectedResources = append(w.SelectedResources, resourceIdentifier{Group: id.Group, Version: id.Version, Kind: id.Kind,
			Namespace: id.Namespace, Name: id.Name})
	}
	for i, c := range st.Clusters {
		ps := perClusterStatus{ClusterName: c}
		if i < len(st.ClusterStatuses) {
			cs := st.ClusterStatuses[i]
			ps.Conditions = toConditions(mapSlice(cs.Conditions, func(c placement.Condition) Condition { return Condition(c) }), st.ObservedGeneration)
			for _, f := range cs.FailedPlacements {
				fp := failedPlacement{resourceIdentifier: resourceIdentifier{Group: f.Group, Version: f.Version, Kind: f.Kind, Namespace: f.Namespace, Name: f.Name},
					Condition: toConditions([]Condition{Condition(f.Condition)}, st.ObservedGeneration)[0]}
				if ns, name, ok := strings.Cut(f.Envelope, "/"); ok {
					fp.Envelope = &envelopeIdentifier{Namespace: ns, Name: name}
				}
				ps.FailedPlacements = append(ps.FailedPlacements, fp)
			}
		}
		if i < len(st.ClusterIndexes) && st.ClusterIndexes[i] >= 0 {
			ps.ObservedResourceIndex = strconv.Itoa(st.ClusterIndexes[i])
		}
		w.PlacementStatuses = append(w.PlacementStatuses, ps)
	}
	for range st.Unscheduled {
		w.PlacementStatuses = append(w.PlacementStatuses, perClusterStatus{})
	}
	setField(obj, w, "status")
}

// conditions converts the wire conditions at path.
func (r reader) conditions(path string, in []condition) ([]Condition, error) {
	var out []Condition
	for i, c := range in {
		t, err := r.parseTime(path+"["+strconv.Itoa(i)+"].lastTransitionTime", c.LastTransitionTime)
		if err != nil {
			return nil, err
		}
		out = append(out, Condition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message, LastTransitionTime: t})
	}
	return out, nil
}

// toConditions returns cs in the wire form, each observing generation.
func toConditions(cs []Condition, generation int64) []condition {
	return mapSlice(cs, func(c Condition) condition {
		return condition{Type: c.Type, Status: c.Status, ObservedGeneration: generation,
			LastTransitionTime: timestamp(c.LastTransitionTime), Reason: c.Reason, Message: c.Message}
	})
}

// The wire form of placement.kubernetes-fleet.io/v1 ClusterResourcePlacement
// (kubefleet apis/placement/v1 clusterresourceplacement_types.go, as its
// CRD has it). omitzero keeps nil and empty apart, as in nodepool.go.

type placementSpec struct {
	ResourceSelectors    []resourceSelector `json:"resourceSelectors"`
	Policy               placementPolicy    `json:"policy"`
	Strategy             *rolloutStrategy   `json:"strategy,omitzero"`
	RevisionHistoryLimit *int               `json:"revisionHistoryLimit,omitzero"`
	// Read, never written: only its default is accepted (onlyDefaults).
	StatusReportingScope *string `json:"statusReportingScope,omitzero"`
}

type resourceSelector struct {
	Group         string         `json:"group"`
	Version       string         `json:"version"`
	Kind          string         `json:"kind"`
	Name          string         `json:"name,omitzero"`
	LabelSelector *labelSelector `json:"labelSelector,omitzero"`
	// Read, never written: only its default is accepted (onlyDefaults).
	SelectionScope *string `json:"selectionScope,omitzero"`
}

// labelSelector is a metav1.LabelSelector.
type labelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitzero"`
	MatchExpressions []labelSelectorRequirement `json:"matchExpressions,omitzero"`
}

type labelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitzero"`
}

// placementPolicy is Fleet's PlacementPolicy, also the spec.policy of a
// ClusterSchedulingPolicySnapshot (policysnapshot.go).
type placementPolicy struct {
	PlacementType             string                     `json:"placementType,omitzero"`
	ClusterNames              []string                   `json:"clusterNames,omitzero"`
	NumberOfClusters          *int                       `json:"numberOfClusters,omitzero"`
	Affinity                  *affinity                  `json:"affinity,omitzero"`
	TopologySpreadConstraints []topologySpreadConstraint `json:"topologySpreadConstraints,omitzero"`
	Tolerations               []toleration               `json:"tolerations,omitzero"`
}

type affinity struct {
	ClusterAffinity *clusterAffinity `json:"clusterAffinity,omitzero"`
}

type clusterAffinity struct {
	Required  *clusterSelector           `json:"requiredDuringSchedulingIgnoredDuringExecution,omitzero"`
	Preferred []preferredClusterSelector `json:"preferredDuringSchedulingIgnoredDuringExecution,omitzero"`
}

type clusterSelector struct {
	ClusterSelectorTerms []clusterSelectorTerm `json:"clusterSelectorTerms"`
}

type preferredClusterSelector struct {
	Weight     int                 `json:"weight"`
	Preference clusterSelectorTerm `json:"preference"`
}

type clusterSelectorTerm struct {
	LabelSelector    *labelSelector    `json:"labelSelector,omitzero"`
	PropertySelector *propertySelector `json:"propertySelector,omitzero"`
	PropertySorter   *propertySorter   `json:"propertySorter,omitzero"`
}

type propertySelector struct {
	MatchExpressions []propertySelectorRequirement `json:"matchExpressions"`
}

type propertySelectorRequirement struct {
	Name     string   `json:"name"`
	Operator string   `json:"operator"`
	Values   []string `json:"values"`
}

type propertySorter struct {
	Name      string `json:"name"`
	SortOrder string `json:"sortOrder"`
}

type topologySpreadConstraint struct {
	MaxSkew           *int   `json:"maxSkew,omitzero"`
	TopologyKey       string `json:"topologyKey"`
	WhenUnsatisfiable string `json:"whenUnsatisfiable,omitzero"`
}

// toleration is Fleet's Toleration: an omitted field and "" are the same.
type toleration struct {
	Key      string `json:"key,omitzero"`
	Operator string `json:"operator,omitzero"`
	Value    string `json:"value,omitzero"`
	Effect   string `json:"effect,omitzero"`
}

type rolloutStrategy struct {
	Type          string               `json:"type,omitzero"`
	RollingUpdate *rollingUpdateConfig `json:"rollingUpdate,omitzero"`
	// Read, never written: only its defaults are accepted (onlyDefaults).
	ApplyStrategy *applyStrategy `json:"applyStrategy,omitzero"`
}

type rollingUpdateConfig struct {
	MaxUnavailable           *intOrString `json:"maxUnavailable,omitzero"`
	MaxSurge                 *intOrString `json:"maxSurge,omitzero"`
	UnavailablePeriodSeconds *int         `json:"unavailablePeriodSeconds,omitzero"`
}

type applyStrategy struct {
	ComparisonOption      *string          `json:"comparisonOption,omitzero"`
	Type                  *string          `json:"type,omitzero"`
	WhenToApply           *string          `json:"whenToApply,omitzero"`
	WhenToTakeOver        *string          `json:"whenToTakeOver,omitzero"`
	AllowCoOwnership      *bool            `json:"allowCoOwnership,omitzero"`
	ServerSideApplyConfig *json.RawMessage `json:"serverSideApplyConfig,omitzero"`
}

// intOrString is the API's int-or-string (maxUnavailable, maxSurge) holding
// the model's string. A whole number is written as a JSON integer and a
// percentage as a string: Fleet's rollout reads them with
// intstr.GetScaledValueFromIntOrPercent, which takes a string only as a
// percentage. An integer reads as its digits.
type intOrString string

func (v intOrString) MarshalJSON() ([]byte, error) {
	if n, err := strconv.ParseInt(string(v), 10, 32); err == nil && strconv.FormatInt(n, 10) == string(v) {
		return []byte(v), nil
	}
	return json.Marshal(string(v))
}

func (v *intOrString) UnmarshalJSON(b []byte) error {
	if err := (*quantity)(v).UnmarshalJSON(b); err != nil {
		// encoding/json adds the field's path to a type error.
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[intOrString]()}
	}
	return nil
}

// jsonKind names the kind of the JSON value b as encoding/json does.
func jsonKind(b []byte) string {
	switch {
	case len(b) == 0:
		return "nothing"
	case b[0] == '{':
		return "object"
	case b[0] == '[':
		return "array"
	case b[0] == 't' || b[0] == 'f':
		return "bool"
	case b[0] == 'n':
		return "null"
	}
	return "value"
}

// condition is a metav1.Condition.
type condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	ObservedGeneration int64  `json:"observedGeneration,omitzero"`
	LastTransitionTime string `json:"lastTransitionTime"`
	Reason             string `json:"reason"`
	Message            string `json:"message"`
}

// placementStatus is the part of a placement's status the hub reads.
type placementStatus struct {
	Conditions            []condition          `json:"conditions,omitzero"`
	ObservedResourceIndex string               `json:"observedResourceIndex,omitzero"`
	PlacementStatuses     []perClusterStatus   `json:"placementStatuses,omitzero"`
	SelectedResources     []resourceIdentifier `json:"selectedResources,omitzero"`
}

type perClusterStatus struct {
	ClusterName           string            `json:"clusterName,omitzero"`
	ObservedResourceIndex string            `json:"observedResourceIndex,omitzero"`
	Conditions            []condition       `json:"conditions,omitzero"`
	FailedPlacements      []failedPlacement `json:"failedPlacements,omitzero"`
}

// resourceIdentifier is Fleet's ResourceIdentifier.
type resourceIdentifier struct {
	Group     string              `json:"group"`
	Version   string              `json:"version"`
	Kind      string              `json:"kind"`
	Name      string              `json:"name"`
	Namespace string              `json:"namespace,omitzero"`
	Envelope  *envelopeIdentifier `json:"envelope,omitzero"`
}

type envelopeIdentifier struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitzero"`
	Type      string `json:"type,omitzero"`
}

// failedPlacement is Fleet's FailedResourcePlacement.
type failedPlacement struct {
	resourceIdentifier `json:",inline"`
	Condition          condition `json:"condition"`
}

func toPlacementSpec(s placement.Spec) placementSpec {
	w := placementSpec{
		ResourceSelectors:    mapSlice(s.ResourceSelectors, toResourceSelector),
		Policy:               toPolicy(s.Policy),
		RevisionHistoryLimit: s.RevisionHistoryLimit,
	}
	if w.ResourceSelectors == nil {
		w.ResourceSelectors = []resourceSelector{}
	}
	if st := s.Strategy; st.Type != "" || st.RollingUpdate != nil {
		w.Strategy = &rolloutStrategy{Type: st.Type}
		if ru := st.RollingUpdate; ru != nil {
			w.Strategy.RollingUpdate = &rollingUpdateConfig{
				MaxUnavailable:           (*intOrString)(ru.MaxUnavailable),
				MaxSurge:                 (*intOrString)(ru.MaxSurge),
				UnavailablePeriodSeconds: ru.UnavailablePeriodSeconds,
			}
		}
	}
	return w
}

func fromPlacementSpec(w placementSpec) placement.Spec {
	s := placement.Spec{
		ResourceSelectors:    mapSlice(w.ResourceSelectors, fromResourceSelector),
		Policy:               fromPolicy(w.Policy),
		RevisionHistoryLimit: w.RevisionHistoryLimit,
	}
	if len(s.ResourceSelectors) == 0 {
		s.ResourceSelectors = nil
	}
	if st := w.Strategy; st != nil {
		s.Strategy.Type = st.Type
		if ru := st.RollingUpdate; ru != nil {
			s.Strategy.RollingUpdate = &placement.RollingUpdate{
				MaxUnavailable:           (*string)(ru.MaxUnavailable),
				MaxSurge:                 (*string)(ru.MaxSurge),
				UnavailablePeriodSeconds: ru.UnavailablePeriodSeconds,
			}
		}
	}
	return s
}

func toResourceSelector(r placement.ResourceSelector) resourceSelector {
	return resourceSelector{Group: r.Group, Version: r.Version, Kind: r.Kind, Name: r.Name, LabelSelector: toLabelSelector(r.LabelSelector)}
}

func fromResourceSelector(r resourceSelector) placement.ResourceSelector {
	return placement.ResourceSelector{Group: r.Group, Version: r.Version, Kind: r.Kind, Name: r.Name, LabelSelector: fromLabelSelector(r.LabelSelector)}
}

func toLabelSelector(s *selector.LabelSelector) *labelSelector {
	if s == nil {
		return nil
	}
	return &labelSelector{MatchLabels: s.MatchLabels, MatchExpressions: mapSlice(s.MatchExpressions, func(e selector.LabelExpression) labelSelectorRequirement {
		return labelSelectorRequirement(e)
	})}
}

func fromLabelSelector(s *labelSelector) *selector.LabelSelector {
	if s == nil {
		return nil
	}
	return &selector.LabelSelector{MatchLabels: s.MatchLabels, MatchExpressions: mapSlice(s.MatchExpressions, func(e labelSelectorRequirement) selector.LabelExpression {
		return selector.LabelExpression(e)
	})}
}

func toPolicy(p placement.Policy) placementPolicy {
	w := placementPolicy{
		PlacementType:    p.PlacementType,
		NumberOfClusters: p.NumberOfClusters,
	}
	if len(p.ClusterNames) > 0 {
		w.ClusterNames = p.ClusterNames
	}
	if len(p.TopologySpreadConstraints) > 0 {
		w.TopologySpreadConstraints = mapSlice(p.TopologySpreadConstraints, func(c placement.TopologySpreadConstraint) topologySpreadConstraint {
			return topologySpreadConstraint(c)
		})
	}
	if len(p.Tolerations) > 0 {
		w.Tolerations = mapSlice(p.Tolerations, func(t placement.Toleration) toleration { return toleration(t) })
	}
	if a := p.Affinity; a != nil {
		ca := &clusterAffinity{Preferred: mapSlice(a.Preferred, func(t placement.PreferredTerm) preferredClusterSelector {
			return preferredClusterSelector{Weight: t.Weight, Preference: toTerm(t.Preference)}
		})}
		if a.Required != nil {
			ca.Required = &clusterSelector{ClusterSelectorTerms: mapSlice(a.Required, toTerm)}
		}
		w.Affinity = &affinity{ClusterAffinity: ca}
	}
	return w
}

func fromPolicy(w placementPolicy) placement.Policy {
	p := placement.Policy{
		PlacementType:    w.PlacementType,
		NumberOfClusters: w.NumberOfClusters,
	}
	if len(w.ClusterNames) > 0 {
		p.ClusterNames = w.ClusterNames
	}
	if len(w.TopologySpreadConstraints) > 0 {
		p.TopologySpreadConstraints = mapSlice(w.TopologySpreadConstraints, func(c topologySpreadConstraint) placement.TopologySpreadConstraint {
			return placement.TopologySpreadConstraint(c)
		})
	}
	if len(w.Tolerations) > 0 {
		p.Tolerations = mapSlice(w.Tolerations, func(t toleration) placement.Toleration { return placement.Toleration(t) })
	}
	if a := w.Affinity; a != nil {
		p.Affinity = &placement.Affinity{}
		if ca := a.ClusterAffinity; ca != nil {
			if ca.Required != nil {
				p.Affinity.Required = mapSlice(ca.Required.ClusterSelectorTerms, fromTerm)
				if p.Affinity.Required == nil {
					p.Affinity.Required = []placement.ClusterSelectorTerm{}
				}
			}
			p.Affinity.Preferred = mapSlice(ca.Preferred, func(t preferredClusterSelector) placement.PreferredTerm {
				return placement.PreferredTerm{Weight: t.Weight, Preference: fromTerm(t.Preference)}
			})
		}
	}
	return p
}

func toTerm(t placement.ClusterSelectorTerm) clusterSelectorTerm {
	w := clusterSelectorTerm{LabelSelector: toLabelSelector(t.LabelSelector)}
	if ps := t.PropertySelector; ps != nil {
		w.PropertySelector = &propertySelector{MatchExpressions: mapSlice(ps.MatchExpressions, func(e selector.PropertyExpression) propertySelectorRequirement {
			r := propertySelectorRequirement(e)
			if r.Values == nil {
				r.Values = []string{}
			}
			return r
		})}
		if w.PropertySelector.MatchExpressions == nil {
			w.PropertySelector.MatchExpressions = []propertySelectorRequirement{}
		}
	}
	if s := t.PropertySorter; s != nil {
		w.PropertySorter = &propertySorter{Name: s.Name, SortOrder: s.SortOrder}
	}
	return w
}

func fromTerm(w clusterSelectorTerm) placement.ClusterSelectorTerm {
	t := placement.ClusterSelectorTerm{LabelSelector: fromLabelSelector(w.LabelSelector)}
	if ps := w.PropertySelector; ps != nil {
		t.PropertySelector = &selector.PropertySelector{}
		if len(ps.MatchExpressions) > 0 {
			t.PropertySelector.MatchExpressions = mapSlice(ps.MatchExpressions, func(r propertySelectorRequirement) selector.PropertyExpression {
				e := selector.PropertyExpression(r)
				if len(e.Values) == 0 {
					e.Values = nil
				}
				return e
			})
		}
	}
	if s := w.PropertySorter; s != nil {
		t.PropertySorter = &placement.PropertySorter{Name: s.Name, SortOrder: s.SortOrder}
	}
	return t
}
