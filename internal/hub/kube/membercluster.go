// Fleet's MemberCluster. This file and memberfacts.go convert between the hub-cluster facts of the fleet model
// (internal/engine/fleet: a cluster's labels, taints, member agent status,
// properties and resource usage) and Fleet's MemberCluster
// (cluster.kubernetes-fleet.io/v1, cluster-scoped, the CRD in
// internal/emulator/kubetest/crds/fleet-cluster.kubernetes-fleet.io_memberclusters.yaml) as the
// fleet hub cluster's Kubernetes API serves it, in both directions, so that
// the hub-cluster emulator (armemu/kubeapi) and the azure hub share one
// definition of the shape:
//
//   - MemberCluster builds the object a hub would hold for a cluster;
//   - MemberFactsFrom reads the facts back from such an object, as served.
//
// Where each fact lives (designs/hub.md §3; Fleet's API types in
// kubefleet-dev/kubefleet apis/cluster/v1):
//
//   - labels: metadata.labels; taints: spec.taints ({key, value, effect});
//   - properties: status.properties[name].value (observationTime: the last
//     heartbeat);
//   - resource usage: status.resourceUsage.{capacity,allocatable,available}
//     (quantities written as strings; observationTime: the last heartbeat);
//   - the member agent: the status.agentStatus entry of type MemberAgent,
//     with its conditions Joined and Healthy and its lastReceivedHeartbeat.
//     These are exactly what Fleet's scheduler reads to decide eligibility
//     (clustereligibilitychecker.IsEligible, mirrored by
//     fleet.CheckEligibility): no MemberAgent entry = the agent never
//     reported (Present false); heartbeat = lastReceivedHeartbeat; Joined =
//     the Joined condition is True; Healthy = the Healthy condition's status
//     and HealthSince its lastTransitionTime;
//   - leaving: a member leaves a fleet by the deletion of its MemberCluster
//     ("To remove a member cluster from a fleet, simply delete its
//     corresponding MemberCluster object", kubefleet docs, how-tos/clusters),
//     which Fleet's finalizer (kubernetes-fleet.io/membercluster-finalizer)
//     holds while the member is cleaned up: the object then carries
//     metadata.deletionTimestamp, the test of Fleet's eligibility checker
//     ("!cluster.GetDeletionTimestamp().IsZero(): cluster has left the
//     fleet"). MemberCluster writes the finalizer on every object, and a
//     deletionTimestamp (the last heartbeat, or the Unix epoch when there is
//     none) on a leaving one.
//
// The model has no time for the Joined conditions (the agent's and the
// MemberCluster's own ReadyToJoin and Joined): their lastTransitionTime is
// the last heartbeat, "the time when the API field changed", which the CRD
// allows when the transition is not known. The identity is a placeholder
// service account, <member>-hub-cluster-access in fleet-system, as Fleet's
// join instructions create it.
//
// Times are RFC 3339 in UTC, with a fraction of a second only when the
// instant has one (metav1.Time writes whole seconds and reads fractions).
// The zero time, which the model uses for "long ago" (a Healthy condition
// whose transition is unknown), is written as 0001-01-01T00:00:00Z, which
// metav1.Time reads back as the zero time: Fleet's checker then sees a
// transition long past, as the engine does.
//
// What survives a round trip (fleet → MemberCluster → JSON → FactsFrom):
// labels, taints, properties and resource usage exactly, and the agent status
// exactly when the agent is present. An agent that never reported has no
// MemberAgent entry, so of its status only Present (false) and Leaving come
// back; the other fields come back zero. Eligibility, which stops at "no
// member agent status", is the same either way. Empty maps and lists come
// back nil.

package kube

import (
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// The MemberCluster API.
const (
	MemberClusterGroup      = "cluster.kubernetes-fleet.io"
	MemberClusterVersion    = "v1"
	MemberClusterAPIVersion = MemberClusterGroup + "/" + MemberClusterVersion
	MemberClusterKind       = "MemberCluster"
	MemberClusterListKind   = "MemberClusterList"
	MemberClusterResource   = "memberclusters"
	MemberClusterSingular   = "membercluster"
)

// MemberClusterGVR is the resource of Fleet's member clusters on the hub cluster.
var MemberClusterGVR = schema.GroupVersionResource{Group: MemberClusterGroup, Version: MemberClusterVersion, Resource: MemberClusterResource}

// Names Fleet uses in a MemberCluster (kubefleet apis/cluster/v1 and the
// hub and member agents' controllers).
const (
	// AgentTypeMember is the agent status entry the scheduler reads.
	AgentTypeMember = "MemberAgent"
	// Condition types of an agent status entry.
	AgentConditionJoined  = "Joined"
	AgentConditionHealthy = "Healthy"
	// Condition types of the MemberCluster itself (set by the hub agent).
	MemberConditionReadyToJoin = "ReadyToJoin"
	MemberConditionJoined      = "Joined"

	// MemberClusterFinalizer is the hub agent's finalizer: it holds a deleted (leaving)
	// MemberCluster until the member is cleaned up.
	MemberClusterFinalizer = "kubernetes-fleet.io/membercluster-finalizer"
	// IdentityNamespace is where Fleet's join instructions create the
	// member's service account on the hub cluster.
	IdentityNamespace = "fleet-system"
	// HeartbeatPeriodSeconds is spec.heartbeatPeriodSeconds' default.
	HeartbeatPeriodSeconds = 60
)

// Condition reasons, as Fleet's agents write them.
const (
	reasonAgentJoined         = "InternalMemberClusterJoined"
	reasonAgentNotJoined      = "InternalMemberClusterLeft"
	reasonAgentHealthy        = "InternalMemberClusterHealthy"
	reasonAgentUnhealthy      = "InternalMemberClusterUnhealthy"
	reasonAgentHealthUnknown  = "InternalMemberClusterUnknown"
	reasonReadyToJoin         = "MemberClusterReadyToJoin"
	reasonMemberJoined        = "MemberClusterJoined"
	reasonMemberLeft          = "MemberClusterLeft"
	reasonMemberJoinedUnknown = "MemberClusterJoinStateUnknown"
)

// MemberFacts are the facts about a member cluster that the hub cluster holds.
type MemberFacts struct {
	Labels     map[string]string
	Taints     []fleet.Taint
	Agent      fleet.AgentStatus
	Properties map[string]string
	Usage      fleet.ResourceUsage
}

// IdentityName is the name of the placeholder service account a member
// cluster's identity names (Fleet's join instructions: <member>-hub-cluster-access).
func IdentityName(member string) string { return member + "-hub-cluster-access" }

// MemberCluster is the MemberCluster a Fleet hub cluster holds for c: see the
// package documentation for where each fact goes. The object has no
// server-set metadata (uid, resourceVersion, creationTimestamp); its
// generation is 1, which its conditions observe.
func MemberCluster(c *fleet.Cluster) *unstructured.Unstructured {
	a := c.Agent
	seen := stamp(a.LastHeartbeat) // when the agent last reported what the status says

	meta := map[string]any{
		"name":       c.Name,
		"generation": int64(1),
		"finalizers": []any{MemberClusterFinalizer},
	}
	if len(c.Labels) > 0 {
		labels := make(map[string]any, len(c.Labels))
		for k, v := range c.Labels {
			labels[k] = v
		}
		meta["labels"] = labels
	}
	if a.Leaving {
		meta["deletionTimestamp"] = deletionTimestamp(a.LastHeartbeat)
		meta["deletionGracePeriodSeconds"] = int64(0)
	}

	spec := map[string]any{
		"identity": map[string]any{
			"apiGroup":  "",
			"kind":      "ServiceAccount",
			"name":      IdentityName(c.Name),
			"namespace": IdentityNamespace,
		},
		"heartbeatPeriodSeconds": int64(HeartbeatPeriodSeconds),
	}
	if len(c.Taints) > 0 {
		taints := make([]any, len(c.Taints))
		for i, t := range c.Taints {
			m := map[string]any{"key": t.Key, "effect": t.Effect}
			if t.Value != "" {
				m["value"] = t.Value
			}
			taints[i] = m
		}
		spec["taints"] = taints
	}

	status := map[string]any{"conditions": memberConditions(a, seen)}
	if len(c.Properties) > 0 {
		props := make(map[string]any, len(c.Properties))
		for k, v := range c.Properties {
			props[k] = map[string]any{"value": v, "observationTime": seen}
		}
		status["properties"] = props
	}
	if u := c.Usage; len(u.Capacity)+len(u.Allocatable)+len(u.Available) > 0 {
		usage := map[string]any{"observationTime": seen}
		for name, m := range map[string]map[string]resource.Quantity{
			"capacity": u.Capacity, "allocatable": u.Allocatable, "available": u.Available,
		} {
			if len(m) == 0 {
				continue
			}
			out := make(map[string]any, len(m))
			for k, q := range m {
				out[k] = fleet.FormatQuantity(q)
			}
			usage[name] = out
		}
		status["resourceUsage"] = usage
	}
	if a.Present {
		conds := []any{memberCondition(AgentConditionJoined, joinedStatus(a.Joined), agentJoinedReason(a.Joined), agentJoinedMessage(a.Joined), seen)}
		if a.Healthy != "" {
			conds = append(conds, memberCondition(AgentConditionHealthy, a.Healthy, agentHealthReason(a.Healthy), agentHealthMessage(a.Healthy), stamp(a.HealthSince)))
		}
		status["agentStatus"] = []any{map[string]any{
			"type":                  AgentTypeMember,
			"conditions":            conds,
			"lastReceivedHeartbeat": seen,
		}}
	}

	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": MemberClusterAPIVersion,
		"kind":       MemberClusterKind,
		"metadata":   meta,
		"spec":       spec,
		"status":     status,
	}}
}

// memberConditions are the MemberCluster's own conditions, which the hub
// agent derives from its agents': ReadyToJoin, and Joined (True when the
// member agent has joined, False when it left, Unknown otherwise).
func memberConditions(a fleet.AgentStatus, seen string) []any {
	joined := memberCondition(MemberConditionJoined, fleet.ConditionUnknown, reasonMemberJoinedUnknown, "the member agents have not all reported joining or leaving", seen)
	switch {
	case a.Present && a.Joined:
		joined = memberCondition(MemberConditionJoined, fleet.ConditionTrue, reasonMemberJoined, "the member agents have joined the fleet", seen)
	case a.Present && a.Leaving:
		joined = memberCondition(MemberConditionJoined, fleet.ConditionFalse, reasonMemberLeft, "the member agents have left the fleet", seen)
	}
	return []any{
		memberCondition(MemberConditionReadyToJoin, fleet.ConditionTrue, reasonReadyToJoin, "the hub cluster is ready for the member cluster to join", seen),
		joined,
	}
}

func memberCondition(typ, status, reason, message, since string) map[string]any {
	return map[string]any{
		"type":               typ,
		"status":             status,
		"reason":             reason,
		"message":            message,
		"lastTransitionTime": since,
		"observedGeneration": int64(1),
	}
}

func joinedStatus(joined bool) string {
	if joined {
		return fleet.ConditionTrue
	}
	return fleet.ConditionFalse
}

func agentJoinedReason(joined bool) string {
	if joined {
		return reasonAgentJoined
	}
	return reasonAgentNotJoined
}

func agentJoinedMessage(joined bool) string {
	if joined {
		return "the member agent has joined the fleet"
	}
	return "the member agent has not joined the fleet"
}

func agentHealthReason(status string) string {
	switch status {
	case fleet.ConditionTrue:
		return reasonAgentHealthy
	case fleet.ConditionFalse:
		return reasonAgentUnhealthy
	}
	return reasonAgentHealthUnknown
}

func agentHealthMessage(status string) string {
	switch status {
	case fleet.ConditionTrue:
		return "the member cluster is healthy"
	case fleet.ConditionFalse:
		return "the member cluster is unhealthy"
	}
	return "the health of the member cluster is unknown"
}

// stamp writes an instant as Kubernetes reads it: RFC 3339 in UTC, with a
// fraction of a second only when there is one; the zero time is year 1.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// deletionTimestamp is when a leaving member's MemberCluster was deleted, as
// far as the model knows: at its last heartbeat, or the Unix epoch. Never
// the zero time, which metav1.Time reads as "not being deleted".
func deletionTimestamp(lastHeartbeat time.Time) string {
	t := lastHeartbeat.UTC().Truncate(time.Second) // metadata times are whole seconds
	if t.IsZero() || t.Year() < 1 || t.Year() > 9999 {
		t = time.Unix(0, 0).UTC()
	}
	return t.Format(time.RFC3339)
}
