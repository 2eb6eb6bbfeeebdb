package placement

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// A placement's status as Fleet reports it (designs/placement.md §11):
// per cluster and for the placement, the conditions of the v1 API in their
// order, with Fleet's reasons and messages.

// Condition types of a ClusterResourcePlacement (placement level) and of
// each cluster's placement status, in the order Fleet sets them.
const (
	CondScheduled        = "ClusterResourcePlacementScheduled"
	CondRolloutStarted   = "ClusterResourcePlacementRolloutStarted"
	CondOverridden       = "ClusterResourcePlacementOverridden"
	CondWorkSynchronized = "ClusterResourcePlacementWorkSynchronized"
	CondApplied          = "ClusterResourcePlacementApplied"
	CondAvailable        = "ClusterResourcePlacementAvailable"

	ClusterScheduled        = "Scheduled"
	ClusterRolloutStarted   = "RolloutStarted"
	ClusterOverridden       = "Overridden"
	ClusterWorkSynchronized = "WorkSynchronized"
	ClusterApplied          = "Applied"
	ClusterAvailable        = "Available"
	// clusterConditions is how many conditions a cluster's status has at
	// most: one of each type.
	clusterConditions = 6

	StatusTrue    = "True"
	StatusFalse   = "False"
	StatusUnknown = "Unknown"

	// ReasonInvalidResourceSelectors is the Scheduled condition's reason
	// when Fleet refuses the resource selectors.
	ReasonInvalidResourceSelectors = "InvalidResourceSelectors"
	// MaxFailedPlacements is how many failed resources Fleet lists per cluster.
	MaxFailedPlacements = 100
)

// resourceConditions pairs each cluster condition type with its placement-level type.
var resourceConditions = [][2]string{
	{ClusterRolloutStarted, CondRolloutStarted}, {ClusterOverridden, CondOverridden},
	{ClusterWorkSynchronized, CondWorkSynchronized}, {ClusterApplied, CondApplied}, {ClusterAvailable, CondAvailable},
}

// Condition is a status condition without its times.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	// LastTransitionTime is when the status last changed.
	LastTransitionTime time.Time `json:"last_transition_time"`
}

// Transitioned sets the transition time of each condition of cs: the
// previous condition's of its type when the status is unchanged, else now
// (as metav1's SetStatusCondition).
func Transitioned(cs, prev []Condition, now time.Time) {
	for i := range cs {
		cs[i].LastTransitionTime = now
		for _, p := range prev {
			if p.Type == cs[i].Type && p.Status == cs[i].Status && !p.LastTransitionTime.IsZero() {
				cs[i].LastTransitionTime = p.LastTransitionTime
			}
		}
	}
}

// FailedPlacement is a resource that failed on a cluster, with why.
type FailedPlacement struct {
	ResourceID `json:"resource"`
	// Envelope is the envelope ConfigMap ("namespace/name") that carries
	// it; "" when it is selected itself.
	Envelope  string    `json:"envelope"`
	Condition Condition `json:"condition"`
}

// ClusterStatus is one selected cluster's placement status.
type ClusterStatus struct {
	Cluster          string            `json:"cluster"`
	Conditions       []Condition       `json:"conditions"`
	FailedPlacements []FailedPlacement `json:"failed_placements"`
}

// PlacementRolloutStatus is the rollout part of a placement's status at an
// instant: every selected cluster's conditions, and the placement's
// resource conditions that follow its Scheduled one.
type PlacementRolloutStatus struct {
	Clusters   []ClusterStatus
	Conditions []Condition
}

// Reasons of the placement's Scheduled condition.
const (
	ReasonFulfilled   = "SchedulingPolicyFulfilled"
	ReasonUnfulfilled = "SchedulingPolicyUnfulfilled"
)

// PlacementConditions are a placement's conditions as Fleet sets them:
// ClusterResourcePlacementScheduled — True when the policy is fulfilled,
// False with the cycle's message when not, False with reason
// InvalidResourceSelectors when Fleet refuses the selectors (invalid, and
// then nothing follows) — then the rollout's (step.Status.Conditions), each
// keeping the transition time of prev's of its type while its status is
// unchanged.
func PlacementConditions(fulfilled bool, unfulfilled string, invalid *field.Error, rollout []Condition, prev []Condition, now time.Time) []Condition {
	cs := []Condition{{Type: CondScheduled, Status: StatusTrue, Reason: ReasonFulfilled, Message: FulfilledMessage}}
	switch {
	case invalid != nil:
		cs[0].Status, cs[0].Reason, cs[0].Message = StatusFalse, ReasonInvalidResourceSelectors, "The resource selectors are invalid: "+invalid.Rule
	case !fulfilled:
		cs[0].Status, cs[0].Reason, cs[0].Message = StatusFalse, ReasonUnfulfilled, unfulfilled
	}
	if invalid == nil {
		cs = append(cs, rollout...)
	}
	Transitioned(cs, prev, now)
	return cs
}

// ScheduledMessage is the message of a selected cluster's Scheduled
// condition, as Fleet's scheduler words its decision.
// (Concatenated, not formatted: a status writes one for every cluster.)
func ScheduledMessage(p Policy, d Decision) string {
	const scheduled, picked = "Successfully scheduled resources for placement in ", ": picked by scheduling policy"
	if p.PlacementType == PickN {
		return scheduled + d.ClusterName + " (affinity score: " + strconv.Itoa(d.AffinityScore) +
			", topology spread score: " + strconv.Itoa(d.TopologySpreadScore) + ")" + picked
	}
	return scheduled + d.ClusterName + picked
}

// RolloutStatus is the status at in.Now of a placement named name whose
// bindings are in.Bindings (the batches due by then applied), given what
// is left of the rollout (plan, from PlanRollout at in.Now). Decisions give
// each selected cluster's scores; selected are the resources applied.
func RolloutStatus(name string, in RolloutInput, plan RolloutPlan, decisions []Decision, selected Selection) PlacementRolloutStatus {
	spec := WithDefaults(in.Spec)
	scores := make(map[string]Decision, len(decisions))
	for _, d := range decisions {
		if d.Selected {
			scores[d.ClusterName] = d
		}
	}
	var out PlacementRolloutStatus
	// The messages that name the placement's work object, written once.
	notApplied := fmt.Sprintf("Work object %s-work is not applied", name)
	notTrackable := fmt.Sprintf("The availability of work object %s-work is not trackable", name)
	// Every cluster's conditions, at most clusterConditions, in one array.
	var conditions []Condition
	if len(in.Bindings) > 0 {
		out.Clusters = make([]ClusterStatus, 0, len(in.Bindings))
		conditions = make([]Condition, len(in.Bindings)*clusterConditions)
	}
	bs := slices.Clone(in.Bindings)
	slices.SortFunc(bs, func(a, b Binding) int { return strings.Compare(a.Cluster, b.Cluster) })
	for i, b := range bs {
		d, ok := scores[b.Cluster]
		if !ok {
			d = Decision{ClusterName: b.Cluster}
		}
		own := conditions[i*clusterConditions : i*clusterConditions : (i+1)*clusterConditions]
		cs := ClusterStatus{Cluster: b.Cluster, Conditions: append(own, Condition{Type: ClusterScheduled, Status: StatusTrue,
			Reason: "Scheduled", Message: ScheduledMessage(spec.Policy, d), LastTransitionTime: b.Since})}
		switch {
		case b.Index < in.Latest && plan.External:
			cs.Conditions = append(cs.Conditions, Condition{Type: ClusterRolloutStarted, Status: StatusUnknown, Reason: "RolloutStartedUnknown",
				Message: "In the process of deciding whether to roll out the latest resources or not"})
		case b.Index < in.Latest:
			cs.Conditions = append(cs.Conditions, Condition{Type: ClusterRolloutStarted, Status: StatusFalse, Reason: "RolloutNotStartedYet",
				Message: "The rollout is being blocked by the rollout strategy"})
		default:
			cs.Conditions = append(cs.Conditions,
				Condition{Type: ClusterRolloutStarted, Status: StatusTrue, Reason: "RolloutStarted", Message: "Detected the new changes on the resources and started the rollout process"},
				Condition{Type: ClusterOverridden, Status: StatusTrue, Reason: "NoOverrideSpecified", Message: "No override rules are configured for the selected resources"},
				Condition{Type: ClusterWorkSynchronized, Status: StatusTrue, Reason: "AllWorkSynced", Message: "All of the works are synchronized to the latest"})
			if b.Failed {
				cs.Conditions = append(cs.Conditions, Condition{Type: ClusterApplied, Status: StatusFalse, Reason: "NotAllWorkHaveBeenApplied",
					Message: notApplied})
				cs.FailedPlacements = failedPlacements(selected, in.Failing[b.Cluster])
				break
			}
			cs.Conditions = append(cs.Conditions, Condition{Type: ClusterApplied, Status: StatusTrue, Reason: "AllWorkHaveBeenApplied",
				Message: "All corresponding work objects are applied"})
			if in.Untracked {
				cs.Conditions = append(cs.Conditions, Condition{Type: ClusterAvailable, Status: StatusTrue, Reason: "WorkNotTrackable",
					Message: notTrackable})
			} else {
				cs.Conditions = append(cs.Conditions, Condition{Type: ClusterAvailable, Status: StatusTrue, Reason: "AllWorkAreAvailable",
					Message: "All corresponding work objects are available"})
			}
		}
		// The rollout's conditions changed when the binding was updated, or
		// — held back — when the latest snapshot was taken.
		for i := range cs.Conditions[1:] {
			if cs.Conditions[1+i].Reason == "RolloutNotStartedYet" || cs.Conditions[1+i].Reason == "RolloutStartedUnknown" {
				cs.Conditions[1+i].LastTransitionTime = in.LatestAt
			} else {
				cs.Conditions[1+i].LastTransitionTime = b.AppliedAt
			}
		}
		out.Clusters = append(out.Clusters, cs)
	}
	if len(out.Clusters) == 0 {
		return out // only the Scheduled condition
	}
	for _, pair := range resourceConditions {
		var trueN, falseN, unknownN int
		for _, cs := range out.Clusters {
			switch status(cs.Conditions, pair[0]) {
			case StatusTrue:
				trueN++
			case StatusFalse:
				falseN++
			default:
				unknownN++
			}
		}
		c := placementCondition(pair[1], trueN, falseN, unknownN, plan.External)
		out.Conditions = append(out.Conditions, c)
		if c.Status != StatusTrue {
			break // Fleet removes the conditions after one not True
		}
	}
	return out
}

func status(cs []Condition, t string) string {
	for _, c := range cs {
		if c.Type == t {
			return c.Status
		}
	}
	return StatusUnknown
}

// placementCondition aggregates the clusters' conditions of one type as
// Fleet does: Unknown if any is, else False if any is, else True.
func placementCondition(t string, trueN, falseN, unknownN int, external bool) Condition {
	type texts struct{ reason, msg string }
	var tr, fa, un texts
	switch t {
	case CondRolloutStarted:
		tr = texts{"RolloutStarted", "All %d cluster(s) start rolling out the latest resource"}
		fa = texts{"RolloutNotStartedYet", "The rollout is being blocked by the rollout strategy in %d cluster(s)"}
		un = texts{"RolloutStartedUnknown", "There are still %d cluster(s) in the process of deciding whether to roll out the latest resources or not"}
		if external {
			un = texts{"RolloutControlledByExternalController", "Rollout is controlled by an external controller and different resource snapshot versions are observed across clusters"}
		}
	case CondOverridden:
		tr = texts{"NoOverrideSpecified", "No override rules are configured for the selected resources"}
		fa = texts{"OverriddenFailed", "Failed to override resources in %d cluster(s)"}
		un = texts{"OverriddenPending", "There are still %d cluster(s) in the process of overriding the selected resources if there is any override defined"}
	case CondWorkSynchronized:
		tr = texts{"WorkSynchronized", "Works(s) are succcesfully created or updated in %d target cluster(s)' namespaces"}
		fa = texts{"WorkNotSynchronizedYet", "There are %d cluster(s) which have not finished creating or updating work(s) yet"}
		un = texts{"WorkSynchronizedUnknown", "There are still %d cluster(s) in the process of creating or updating the work object(s) in the hub cluster"}
	case CondApplied:
		tr = texts{"ApplySucceeded", "The selected resources are successfully applied to %d cluster(s)"}
		fa = texts{"ApplyFailed", "Failed to apply resources to %d cluster(s), please check the `failedPlacements` status"}
		un = texts{"ApplyPending", "There are still %d cluster(s) in the process of applying the resources on the member cluster"}
	case CondAvailable:
		tr = texts{"ResourceAvailable", "The selected resources in %d cluster(s) are available now"}
		fa = texts{"ResourceNotAvailableYet", "The selected resources in %d cluster(s) are still not available yet"}
		un = texts{"ResourceAvailableUnknown", "There are still %d cluster(s) in the process of checking the availability of the selected resources"}
	}
	format := func(t texts, n int) string {
		if strings.Contains(t.msg, "%d") {
			return fmt.Sprintf(t.msg, n)
		}
		return t.msg
	}
	switch {
	case unknownN > 0:
		return Condition{Type: t, Status: StatusUnknown, Reason: un.reason, Message: format(un, unknownN)}
	case falseN > 0:
		return Condition{Type: t, Status: StatusFalse, Reason: fa.reason, Message: format(fa, falseN)}
	}
	return Condition{Type: t, Status: StatusTrue, Reason: tr.reason, Message: format(tr, trueN)}
}

// failedPlacements are the resources a cluster failed to apply: each
// selected resource (an envelope's objects in its place), at most
// MaxFailedPlacements.
func failedPlacements(s Selection, why string) []FailedPlacement {
	var out []FailedPlacement
	add := func(id ResourceID, envelope string) bool {
		if len(out) == MaxFailedPlacements {
			return false
		}
		out = append(out, FailedPlacement{ResourceID: id, Envelope: envelope,
			Condition: Condition{Type: ClusterApplied, Status: StatusFalse, Reason: "FailedToApply", Message: why}})
		return true
	}
	for _, id := range s.Resources {
		if contents, ok := s.Contents[id]; ok {
			for _, c := range contents {
				if !add(c, id.Namespace+"/"+id.Name) {
					return out
				}
			}
			continue
		}
		if !add(id, "") {
			return out
		}
	}
	return out
}

// Untracked tells whether Fleet cannot track the availability of a selected
// resource (an envelope's objects in its place): the rollout then waits
// unavailable_period_seconds after a cluster applied before it counts the
// cluster available (its work applier's availability tracker).
func Untracked(s Selection) bool {
	for _, id := range s.Resources {
		if contents, ok := s.Contents[id]; ok {
			if slices.ContainsFunc(contents, untrackedKind) {
				return true
			}
			continue
		}
		if untrackedKind(id) {
			return true
		}
	}
	return false
}

// trackedKinds are the kinds whose availability Fleet's work applier knows:
// data it takes as available once applied, and workloads it watches.
var trackedKinds = map[string][]string{
	"":                          {"Namespace", "Secret", "ConfigMap", "ServiceAccount", "LimitRange", "ResourceQuota", "Service"},
	"rbac.authorization.k8s.io": {"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"},
	"networking.k8s.io":         {"NetworkPolicy", "IngressClass"},
	"storage.k8s.io":            {"CSIDriver", "CSINode", "StorageClass", "CSIStorageCapacity"},
	"apps":                      {"ControllerRevision", "Deployment", "StatefulSet", "DaemonSet"},
	"scheduling.k8s.io":         {"PriorityClass"},
	"apiextensions.k8s.io":      {"CustomResourceDefinition"},
	"policy":                    {"PodDisruptionBudget"},
}

func untrackedKind(id ResourceID) bool {
	return !slices.Contains(trackedKinds[id.Group], id.Kind)
}

// RolloutNote says in a line where a rollout stands at now, for the
// status: done, waiting for the next batch, blocked, or external.
func RolloutNote(plan RolloutPlan, now time.Time) string {
	switch {
	case plan.External:
		return "waiting for an external rollout (strategy External)"
	case len(plan.Blocked) > 0:
		return fmt.Sprintf("blocked: %d cluster(s) cannot be updated: %s", len(plan.Blocked), BlockedWhy(plan))
	case len(plan.Batches) > 0:
		return fmt.Sprintf("next batch of %d at %s", len(plan.Batches[0].Clusters), plan.Batches[0].At.UTC().Format(time.RFC3339))
	case len(plan.Failed) > 0:
		return fmt.Sprintf("failed on %d cluster(s): %s (their apply failed; the others have the latest resources)", len(plan.Failed), strings.Join(plan.Failed, ", "))
	}
	return ""
}

// BlockedWhy says why a rollout can go no further: max_unavailable lets
// no cluster be unavailable, or the clusters that failed to apply hold it.
func BlockedWhy(plan RolloutPlan) string {
	if plan.MaxUnavailable == 0 {
		return "max_unavailable is 0, so Fleet never takes a cluster that has the resources to the new ones"
	}
	return fmt.Sprintf("the %d cluster(s) that failed to apply (%s) keep max_unavailable (%d) unavailable",
		len(plan.Failed), strings.Join(plan.Failed, ", "), plan.MaxUnavailable)
}

// BindingsFromStatus are the bindings as a placement's status tells them,
// for a hub that reads no more than Fleet's status: each cluster on the
// resource index its status observes (indexes, -1: not bound), applied
// when its Applied condition last changed, failed when that is False.
func BindingsFromStatus(clusters []ClusterStatus, indexes []int) []Binding {
	out := make([]Binding, 0, len(clusters))
	for i, cs := range clusters {
		b := Binding{Cluster: cs.Cluster, Index: -1}
		if i < len(indexes) {
			b.Index = indexes[i]
		}
		for _, c := range cs.Conditions {
			if c.Type == ClusterApplied {
				b.AppliedAt, b.Failed = c.LastTransitionTime, c.Status == StatusFalse
			}
		}
		if b.Index >= 0 && b.AppliedAt.IsZero() {
			b.AppliedAt = time.Unix(0, 0).UTC() // applied, time unknown: long ago
		}
		out = append(out, b)
	}
	return out
}

// RolloutDone tells whether every cluster has the latest resources applied
// and available (its last condition Available True); failed are the
// clusters whose apply failed, each as "cluster: resource: why" lines, and
// pending the others not done, each with the condition it stopped at.
func RolloutDone(clusters []ClusterStatus) (done bool, failed, pending []string) {
	for _, cs := range clusters {
		if len(cs.Conditions) == 0 {
			pending = append(pending, cs.Cluster+": no status yet")
			continue
		}
		last := cs.Conditions[len(cs.Conditions)-1]
		switch {
		case last.Type == ClusterAvailable && last.Status == StatusTrue:
		case last.Type == ClusterApplied && last.Status == StatusFalse:
			var parts []string
			for i, f := range cs.FailedPlacements {
				if i == 5 {
					parts = append(parts, fmt.Sprintf("and %d more", len(cs.FailedPlacements)-i))
					break
				}
				parts = append(parts, fmt.Sprintf("%s: %s", f.ResourceID, f.Condition.Message))
			}
			if len(parts) == 0 {
				parts = []string{last.Message}
			}
			line := cs.Cluster + ": " + strings.Join(parts, "; ")
			failed = append(failed, line)
		default:
			pending = append(pending, fmt.Sprintf("%s: %s %s (%s)", cs.Cluster, last.Type, last.Status, last.Reason))
		}
	}
	return len(failed) == 0 && len(pending) == 0, failed, pending
}
