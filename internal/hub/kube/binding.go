package kube

import (
	"crypto/sha256"
	"encoding/hex"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// BindingGVK and BindingGVR name Fleet's ClusterResourceBinding API
// (cluster-scoped): one binding per cluster a placement is scheduled on.
var (
	BindingGVK = fleetPlacementV1.WithKind("ClusterResourceBinding")
	BindingGVR = fleetPlacementV1.WithResource("clusterresourcebindings")
)

// ParentPlacementLabel names the placement a binding or a policy snapshot
// belongs to.
const ParentPlacementLabel = "kubernetes-fleet.io/parent-CRP"

// The states of a binding (spec.state): Scheduled when the scheduler picks
// the cluster, Bound once the rollout places resources on it, Unscheduled
// when the scheduler drops it (the binding is deleted after its resources).
const (
	BindingStateScheduled   = "Scheduled"
	BindingStateBound       = "Bound"
	BindingStateUnscheduled = "Unscheduled"
)

// bindingSuffixLen is the length of the suffix that makes a binding's name
// unique: Fleet's is random, ours is a digest.
const bindingSuffixLen = 8

// BindingName returns the name of the binding of placementName to cluster.
// Fleet's scheduler names a binding <placement>-<cluster>-<8 random
// characters> (uniquename.NewBindingName); the name must be deterministic
// here, so the suffix is the first 8 hex digits of the SHA-256 of
// "<placement>/<cluster>". As Fleet's, the name is a DNS label, not only a
// DNS subdomain as every object name (designs/placement.md §2: Fleet fails a
// binding whose name is not one): each of the placement and cluster names
// is cut to 26 characters, so that the whole fits in 63, and so in 253. The
// digest is of the whole names: two long names that share their first 26
// characters still get different bindings.
func BindingName(placementName, cluster string) string {
	sum := sha256.Sum256([]byte(placementName + "/" + cluster))
	const segment = (validation.DNS1123LabelMaxLength - bindingSuffixLen - 2) / 2
	return cut(placementName, segment) + "-" + cut(cluster, segment) + "-" + hex.EncodeToString(sum[:])[:bindingSuffixLen]
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// BindingObject returns the placement.kubernetes-fleet.io/v1
// ClusterResourceBinding called name that binds the placement placementName
// to the cluster of the decision d, as Fleet's scheduler creates it: the
// label kubernetes-fleet.io/parent-CRP: placementName, and the spec
//
//   - state: state (BindingStateScheduled, Bound or Unscheduled);
//   - targetCluster: d.ClusterName;
//   - schedulingPolicySnapshotName: policySnapshot, the policy snapshot
//     whose scheduling made the decision;
//   - resourceSnapshotName: "", which the API requires and Fleet's rollout
//     fills in later;
//   - clusterDecision: d, as Fleet's ClusterDecision {clusterName, selected,
//     clusterScore {affinityScore, priorityScore}, reason}. Fleet's
//     ClusterScore calls the topology spread score priorityScore: the
//     model's AffinityScore is affinityScore and its TopologySpreadScore is
//     priorityScore. The score is written for a selected cluster and for
//     one left out with a score other than zero; a cluster left out with
//     both scores zero goes without, as Fleet writes the clusters its
//     filters reject (never scored). Both read back as zero.
func BindingObject(name, placementName string, d placement.Decision, state string, policySnapshot string) *unstructured.Unstructured {
	return newObject(BindingGVK, objectMeta{Name: name, Labels: map[string]string{ParentPlacementLabel: placementName}}, bindingSpec{
		State:                        state,
		TargetCluster:                d.ClusterName,
		SchedulingPolicySnapshotName: policySnapshot,
		ClusterDecision:              toClusterDecision(d),
	}, struct{}{})
}

// DecisionFromBinding returns the scheduler's decision a
// ClusterResourceBinding carries (spec.clusterDecision, as BindingObject
// writes it) and the binding's state. The fields Fleet's rollout writes
// into the spec (resourceSnapshotName, the override snapshots, the apply
// strategy) and the status are not read. It fails with an *Error naming
// the field on an object of another kind, on a state other than Scheduled,
// Bound and Unscheduled, on a decision for another cluster than
// spec.targetCluster, and on a clusterDecision with a field the model
// cannot hold.
func DecisionFromBinding(obj *unstructured.Unstructured) (placement.Decision, string, error) {
	r, err := newReader(obj, BindingGVK)
	if err != nil {
		return placement.Decision{}, "", err
	}
	var s bindingSpecRead
	if err := r.lenient("spec", obj.Object["spec"], &s); err != nil {
		return placement.Decision{}, "", err
	}
	if s.ClusterDecision == nil {
		return placement.Decision{}, "", r.errorf("spec.clusterDecision", "missing")
	}
	var cd clusterDecision
	if err := r.strict("spec.clusterDecision", s.ClusterDecision, &cd); err != nil {
		return placement.Decision{}, "", err
	}
	switch s.State {
	case BindingStateScheduled, BindingStateBound, BindingStateUnscheduled:
	default:
		return placement.Decision{}, "", r.errorf("spec.state", "%q is not a binding state (Scheduled, Bound, Unscheduled)", s.State)
	}
	if s.TargetCluster != cd.ClusterName {
		return placement.Decision{}, "", r.errorf("spec.clusterDecision.clusterName", "%q is not the binding's spec.targetCluster %q", cd.ClusterName, s.TargetCluster)
	}
	return fromClusterDecision(cd), s.State, nil
}

// The wire form of placement.kubernetes-fleet.io/v1 ClusterResourceBinding
// (kubefleet apis/placement/v1 binding_types.go, as its CRD has it).

type bindingSpec struct {
	State                        string          `json:"state"`
	ResourceSnapshotName         string          `json:"resourceSnapshotName"`
	SchedulingPolicySnapshotName string          `json:"schedulingPolicySnapshotName"`
	TargetCluster                string          `json:"targetCluster"`
	ClusterDecision              clusterDecision `json:"clusterDecision"`
}

// bindingSpecRead is the part of a binding's spec DecisionFromBinding reads;
// the decision is read on its own, strictly.
type bindingSpecRead struct {
	State           string `json:"state"`
	TargetCluster   string `json:"targetCluster"`
	ClusterDecision any    `json:"clusterDecision"`
}

// clusterDecision is Fleet's ClusterDecision, in a binding's spec and in a
// policy snapshot's status.targetClusters.
type clusterDecision struct {
	ClusterName  string        `json:"clusterName"`
	Selected     bool          `json:"selected"`
	ClusterScore *clusterScore `json:"clusterScore,omitzero"`
	Reason       string        `json:"reason"`
}

type clusterScore struct {
	AffinityScore *int `json:"affinityScore,omitzero"`
	// TopologySpreadScore is Fleet's ClusterScore.TopologySpreadScore,
	// serialised as priorityScore.
	TopologySpreadScore *int `json:"priorityScore,omitzero"`
}

func toClusterDecision(d placement.Decision) clusterDecision {
	w := clusterDecision{ClusterName: d.ClusterName, Selected: d.Selected, Reason: d.Reason}
	if d.Selected || d.AffinityScore != 0 || d.TopologySpreadScore != 0 {
		w.ClusterScore = &clusterScore{AffinityScore: &d.AffinityScore, TopologySpreadScore: &d.TopologySpreadScore}
	}
	return w
}

func fromClusterDecision(w clusterDecision) placement.Decision {
	d := placement.Decision{ClusterName: w.ClusterName, Selected: w.Selected, Reason: w.Reason}
	if s := w.ClusterScore; s != nil {
		if s.AffinityScore != nil {
			d.AffinityScore = *s.AffinityScore
		}
		if s.TopologySpreadScore != nil {
			d.TopologySpreadScore = *s.TopologySpreadScore
		}
	}
	return d
}
