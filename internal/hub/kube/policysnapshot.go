package kube

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// PolicySnapshotGVK and PolicySnapshotGVR name Fleet's
// ClusterSchedulingPolicySnapshot API (cluster-scoped): the scheduling
// policy of a placement as the scheduler scheduled it, and its decisions.
var (
	PolicySnapshotGVK = fleetPlacementV1.WithKind("ClusterSchedulingPolicySnapshot")
	PolicySnapshotGVR = fleetPlacementV1.WithResource("clusterschedulingpolicysnapshots")
)

// The labels and annotations of a policy snapshot (besides
// ParentPlacementLabel), and the condition its scheduler sets.
const (
	// IsLatestSnapshotLabel is "true" on the snapshot of a placement's
	// current policy and "false" on the older ones.
	IsLatestSnapshotLabel = "kubernetes-fleet.io/is-latest-snapshot"
	// PolicyIndexLabel numbers a placement's snapshots from 0.
	PolicyIndexLabel = "kubernetes-fleet.io/policy-index"
	// NumberOfClustersAnnotation is a PickN policy's numberOfClusters,
	// which Fleet changes in place on a scale (the policy hash leaves it
	// out), and which its scheduler reads instead of the policy's.
	NumberOfClustersAnnotation = "kubernetes-fleet.io/number-of-clusters"
	// CRPGenerationAnnotation is the placement's generation the snapshot
	// was made (or last scaled) for.
	CRPGenerationAnnotation = "kubernetes-fleet.io/CRP-generation"
	// ConditionPolicySnapshotScheduled is the condition Fleet's scheduler
	// sets on a snapshot, with the reasons ReasonFulfilled and
	// ReasonUnfulfilled.
	ConditionPolicySnapshotScheduled = "Scheduled"
)

// PolicySnapshotName is the name Fleet gives the snapshot of placementName
// numbered index: <placement>-<index>.
func PolicySnapshotName(placementName string, index int) string {
	return placementName + "-" + strconv.Itoa(index)
}

// PolicySnapshot is what a ClusterSchedulingPolicySnapshot holds.
type PolicySnapshot struct {
	// Placement is the label kubernetes-fleet.io/parent-CRP.
	Placement string
	// Index is the label kubernetes-fleet.io/policy-index; -1 without it.
	Index int
	// Latest is the label kubernetes-fleet.io/is-latest-snapshot.
	Latest bool
	// Policy is spec.policy, the placement's policy as scheduled.
	Policy placement.Policy
	// CRPGeneration is the annotation kubernetes-fleet.io/CRP-generation.
	CRPGeneration int64
	// ObservedCRPGeneration is status.observedCRPGeneration: the
	// placement's generation the decisions were made for (0 before the
	// scheduler's first cycle).
	ObservedCRPGeneration int64
	// Requested is how many clusters the policy asks for, as the engine's
	// placement.Result.Requested: for PickN the annotation
	// kubernetes-fleet.io/number-of-clusters, for PickFixed the number of
	// distinct cluster names, -1 for PickAll.
	Requested int
	// Decisions are status.targetClusters: every selected cluster and up to
	// 20 left out, with the reason for each.
	Decisions []placement.Decision
	// Conditions are status.conditions.
	Conditions []Condition
}

// PolicySnapshotObject returns the placement.kubernetes-fleet.io/v1
// ClusterSchedulingPolicySnapshot called name of the placement
// placementName, as Fleet's placement controller creates it and its
// scheduler fills in its status, for test fixtures that play Fleet:
//
//   - labels: kubernetes-fleet.io/parent-CRP placementName,
//     kubernetes-fleet.io/is-latest-snapshot "true" (a fixture that adds a
//     newer snapshot sets it to "false" on this one), and
//     kubernetes-fleet.io/policy-index the index of a name made by
//     PolicySnapshotName (no index label for another name);
//   - annotations: kubernetes-fleet.io/CRP-generation crpGeneration, and for
//     a PickN policy kubernetes-fleet.io/number-of-clusters requested (Fleet
//     writes it for PickN only; PolicySnapshotFrom derives Requested of the
//     other types from the policy);
//   - spec.policy: policy, in the wire form PlacementObject writes it in;
//     spec.policyHash: the hex SHA-256 of the policy's JSON without
//     numberOfClusters, as bytes (base64 on the wire). Fleet hashes its own
//     serialisation, so the hash is ours, not the one Fleet would compute;
//     nothing here compares it.
//   - status: observedCRPGeneration crpGeneration and targetClusters the
//     decisions, in the wire form of a binding's clusterDecision (see
//     BindingObject), as given: Fleet keeps every selected cluster and at
//     most 20 left out. No conditions. An API server takes the status
//     through the status subresource only (UpdateStatus).
func PolicySnapshotObject(name, placementName string, policy placement.Policy, crpGeneration int64, requested int, decisions []placement.Decision) *unstructured.Unstructured {
	labels := map[string]string{ParentPlacementLabel: placementName, IsLatestSnapshotLabel: "true"}
	if index, ok := strings.CutPrefix(name, placementName+"-"); ok {
		if n, err := strconv.Atoi(index); err == nil && n >= 0 && strconv.Itoa(n) == index {
			labels[PolicyIndexLabel] = index
		}
	}
	annotations := map[string]string{CRPGenerationAnnotation: strconv.FormatInt(crpGeneration, 10)}
	if policy.PlacementType == placement.PickN {
		annotations[NumberOfClustersAnnotation] = strconv.Itoa(requested)
	}
	return newObject(PolicySnapshotGVK, objectMeta{Name: name, Labels: labels, Annotations: annotations},
		policySnapshotSpec{Policy: toPolicy(policy), PolicyHash: policyHash(policy)},
		policySnapshotStatus{ObservedCRPGeneration: crpGeneration, TargetClusters: mapSlice(decisions, toClusterDecision)})
}

// policyHash is the digest of policy without numberOfClusters, as Fleet's
// (a scale changes no snapshot), in Fleet's form: the hex digest as bytes.
func policyHash(policy placement.Policy) []byte {
	policy.NumberOfClusters = nil
	raw, err := json.Marshal(toPolicy(policy))
	if err != nil {
		panic("kube: encoding a policy: " + err.Error())
	}
	sum := sha256.Sum256(raw)
	return []byte(hex.EncodeToString(sum[:]))
}

// PolicySnapshotFrom reads a ClusterSchedulingPolicySnapshot: its labels and
// annotations, spec.policy, and status. It is the inverse of
// PolicySnapshotObject (empty lists read as nil, as PlacementFromObject
// reads them). It fails with an *Error naming the field on an object of
// another kind, on a missing parent-CRP label, on an is-latest-snapshot
// label other than "true" or "false", on an index, generation or number of
// clusters that is not an integer (a PickN snapshot must have the number),
// on a spec.policy with a field the model cannot hold and on a decision with
// a field the model cannot hold (strict as PlacementFromObject: the hub
// reads its decisions back into the engine). The other fields of the status
// are not read.
func PolicySnapshotFrom(obj *unstructured.Unstructured) (PolicySnapshot, error) {
	r, err := newReader(obj, PolicySnapshotGVK)
	if err != nil {
		return PolicySnapshot{}, err
	}
	var s policySnapshotSpec
	if err := r.strict("spec", obj.Object["spec"], &s); err != nil {
		return PolicySnapshot{}, err
	}
	status, _ := obj.Object["status"].(map[string]any)
	var decisions []clusterDecision
	if err := r.strict("status.targetClusters", status["targetClusters"], &decisions); err != nil {
		return PolicySnapshot{}, err
	}
	var st policySnapshotStatus
	if err := r.lenient("status", obj.Object["status"], &st); err != nil {
		return PolicySnapshot{}, err
	}
	ps := PolicySnapshot{
		Index:                 -1,
		Policy:                fromPolicy(s.Policy),
		ObservedCRPGeneration: st.ObservedCRPGeneration,
		Decisions:             mapSlice(st.TargetClusters, fromClusterDecision),
	}
	if ps.Conditions, err = r.conditions("status.conditions", st.Conditions); err != nil {
		return PolicySnapshot{}, err
	}
	labels, annotations := obj.GetLabels(), obj.GetAnnotations()
	var ok bool
	if ps.Placement, ok = labels[ParentPlacementLabel]; !ok || ps.Placement == "" {
		return PolicySnapshot{}, r.errorf(labelPath(ParentPlacementLabel), "missing: a snapshot names its placement")
	}
	switch v, ok := labels[IsLatestSnapshotLabel]; {
	case !ok || v == "false":
	case v == "true":
		ps.Latest = true
	default:
		return PolicySnapshot{}, r.errorf(labelPath(IsLatestSnapshotLabel), "%q is neither true nor false", v)
	}
	if v, ok := labels[PolicyIndexLabel]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return PolicySnapshot{}, r.errorf(labelPath(PolicyIndexLabel), "%q is not an index", v)
		}
		ps.Index = n
	}
	v, ok := annotations[CRPGenerationAnnotation]
	if ps.CRPGeneration, err = strconv.ParseInt(v, 10, 64); err != nil {
		return PolicySnapshot{}, r.errorf(annotationPath(CRPGenerationAnnotation), "%q is not a generation", v)
	}
	switch ps.Policy.PlacementType {
	case placement.PickN:
		v := annotations[NumberOfClustersAnnotation]
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return PolicySnapshot{}, r.errorf(annotationPath(NumberOfClustersAnnotation), "%q is not a number of clusters (a PickN snapshot needs it)", v)
		}
		ps.Requested = n
	case placement.PickFixed:
		seen := map[string]bool{}
		for _, n := range ps.Policy.ClusterNames {
			seen[n] = true
		}
		ps.Requested = len(seen)
	default:
		ps.Requested = -1
	}
	return ps, nil
}

func labelPath(key string) string      { return "metadata.labels[" + key + "]" }
func annotationPath(key string) string { return "metadata.annotations[" + key + "]" }

// The wire form of placement.kubernetes-fleet.io/v1
// ClusterSchedulingPolicySnapshot (kubefleet apis/placement/v1
// policysnapshot_types.go; our CRD is
// internal/emulator/kubetest/crds/fleet-placement.kubernetes-fleet.io_clusterschedulingpolicysnapshots.yaml).

type policySnapshotSpec struct {
	Policy placementPolicy `json:"policy"`
	// PolicyHash is a []byte in Fleet's API: base64 on the wire.
	PolicyHash []byte `json:"policyHash"`
}

type policySnapshotStatus struct {
	ObservedCRPGeneration int64             `json:"observedCRPGeneration"`
	Conditions            []condition       `json:"conditions,omitzero"`
	TargetClusters        []clusterDecision `json:"targetClusters,omitzero"`
}
