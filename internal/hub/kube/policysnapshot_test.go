package kube

import (
	"encoding/base64"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// snapshotDecisions are a PickN cycle's decisions as Fleet keeps them: the
// selected clusters, then clusters left out (scored, then filtered).
func snapshotDecisions() []placement.Decision {
	return []placement.Decision{
		{ClusterName: "a", Selected: true, AffinityScore: 20, TopologySpreadScore: 1, Reason: placement.ReasonPicked},
		{ClusterName: "b", Selected: true, Reason: placement.ReasonPicked},
		{ClusterName: "c", AffinityScore: 10, Reason: "does not score high enough (affinity score: 10, topology spread score: 0)"},
		{ClusterName: "d", Reason: placement.ReasonNoRequiredMatch},
	}
}

// TestPolicySnapshotObjectFieldNames pins the API's field names, labels and
// annotations.
func TestPolicySnapshotObjectFieldNames(t *testing.T) {
	policy := placement.Policy{PlacementType: placement.PickN, NumberOfClusters: ptr(2), Tolerations: []placement.Toleration{{Key: "k", Operator: "Exists"}}}
	obj := PolicySnapshotObject(PolicySnapshotName("web", 3), "web", policy, 7, 2, snapshotDecisions()[1:])
	hash := base64.StdEncoding.EncodeToString(policyHash(policy))
	want := `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterSchedulingPolicySnapshot",` +
		`"metadata":{"annotations":{"kubernetes-fleet.io/CRP-generation":"7","kubernetes-fleet.io/number-of-clusters":"2"},` +
		`"labels":{"kubernetes-fleet.io/is-latest-snapshot":"true","kubernetes-fleet.io/parent-CRP":"web","kubernetes-fleet.io/policy-index":"3"},"name":"web-3"},` +
		`"spec":{"policy":{"numberOfClusters":2,"placementType":"PickN","tolerations":[{"key":"k","operator":"Exists"}]},"policyHash":"` + hash + `"},` +
		`"status":{"observedCRPGeneration":7,"targetClusters":[` +
		`{"clusterName":"b","clusterScore":{"affinityScore":0,"priorityScore":0},"reason":"picked by scheduling policy","selected":true},` +
		`{"clusterName":"c","clusterScore":{"affinityScore":10,"priorityScore":0},"reason":"does not score high enough (affinity score: 10, topology spread score: 0)","selected":false},` +
		`{"clusterName":"d","reason":"does not match any required cluster affinity term","selected":false}]}}`
	if got := canonical(t, obj); got != want {
		t.Errorf("object:\n got %s\nwant %s", got, want)
	}
	_ = obj.DeepCopy()
	if len(hash) == 0 || string(policyHash(policy)) != strings.ToLower(string(policyHash(policy))) || len(policyHash(policy)) != 64 {
		t.Errorf("policy hash %q is not a hex SHA-256", policyHash(policy))
	}
}

// TestPolicyHashLeavesOutNumberOfClusters: a scale does not change the
// hash, another policy does.
func TestPolicyHashLeavesOutNumberOfClusters(t *testing.T) {
	a := placement.Policy{PlacementType: placement.PickN, NumberOfClusters: ptr(2)}
	b := placement.Policy{PlacementType: placement.PickN, NumberOfClusters: ptr(5)}
	c := placement.Policy{PlacementType: placement.PickN, NumberOfClusters: ptr(2), Tolerations: []placement.Toleration{{Key: "k", Operator: "Exists"}}}
	if string(policyHash(a)) != string(policyHash(b)) {
		t.Error("the number of clusters changes the hash")
	}
	if string(policyHash(a)) == string(policyHash(c)) {
		t.Error("a toleration does not change the hash")
	}
	if a.NumberOfClusters == nil {
		t.Error("policyHash changed its argument")
	}
}

// TestPolicySnapshotRoundTrip: PolicySnapshotFrom reads what
// PolicySnapshotObject writes, Requested as the engine counts it.
func TestPolicySnapshotRoundTrip(t *testing.T) {
	full := fullPlacement().Policy
	for _, c := range []struct {
		name      string
		snapshot  string
		policy    placement.Policy
		requested int
		decisions []placement.Decision
		index     int
	}{
		{"PickN", "web-0", full, 3, snapshotDecisions(), 0},
		{"PickN scaled: the annotation wins over the policy", "web-12", full, 5, snapshotDecisions(), 12},
		{"PickAll", "web-1", placement.Policy{PlacementType: placement.PickAll, Affinity: full.Affinity}, -1, snapshotDecisions(), 1},
		{"no policy (PickAll)", "web-2", placement.Policy{}, -1, nil, 2},
		{"PickFixed with a duplicate name", "web-3", placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{"a", "x", "a"}}, 2,
			[]placement.Decision{{ClusterName: "a", Selected: true, Reason: placement.ReasonPicked}, {ClusterName: "x", Reason: placement.ReasonNotFound}}, 3},
		{"PickFixed without names", "web-4", placement.Policy{PlacementType: placement.PickFixed}, 0, nil, 4},
		{"a name without an index", "web-latest", placement.Policy{}, -1, nil, -1},
		{"another placement's name", "other-5", placement.Policy{}, -1, nil, -1},
		{"an index with a leading zero", "web-05", placement.Policy{}, -1, nil, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			obj := PolicySnapshotObject(c.snapshot, "web", c.policy, 4, c.requested, c.decisions)
			got, err := PolicySnapshotFrom(viaJSON(t, obj))
			if err != nil {
				t.Fatal(err)
			}
			want := PolicySnapshot{Placement: "web", Index: c.index, Latest: true, Policy: c.policy, CRPGeneration: 4, ObservedCRPGeneration: 4,
				Requested: c.requested, Decisions: c.decisions}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round trip:\n got %#v\nwant %#v", got, want)
			}
		})
	}
}

// TestPolicySnapshotFromFleet reads a snapshot as Fleet's scheduler leaves
// it: an older snapshot, with conditions, before and after its first cycle.
func TestPolicySnapshotFromFleet(t *testing.T) {
	obj := object(t, `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterSchedulingPolicySnapshot",
		"metadata":{"name":"web-0","generation":1,"ownerReferences":[{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourcePlacement","name":"web","uid":"u"}],
			"labels":{"kubernetes-fleet.io/parent-CRP":"web","kubernetes-fleet.io/is-latest-snapshot":"false","kubernetes-fleet.io/policy-index":"0"},
			"annotations":{"kubernetes-fleet.io/CRP-generation":"2"}},
		"spec":{"policyHash":"YWJj"},
		"status":{"observedCRPGeneration":2,"conditions":[{"type":"Scheduled","status":"True","reason":"SchedulingPolicyFulfilled","message":"","lastTransitionTime":"2024-01-01T00:00:00Z","observedGeneration":1}],
			"targetClusters":[{"clusterName":"a","selected":true,"reason":"picked"}]}}`)
	got, err := PolicySnapshotFrom(obj)
	if err != nil {
		t.Fatal(err)
	}
	if got.Latest || got.Index != 0 || got.Requested != -1 || got.CRPGeneration != 2 || got.ObservedCRPGeneration != 2 ||
		len(got.Conditions) != 1 || got.Conditions[0].Type != ConditionPolicySnapshotScheduled || got.Conditions[0].Reason != ReasonFulfilled ||
		!reflect.DeepEqual(got.Decisions, []placement.Decision{{ClusterName: "a", Selected: true, Reason: "picked"}}) {
		t.Errorf("got %#v", got)
	}

	delete(obj.Object, "status")
	got, err = PolicySnapshotFrom(obj)
	if err != nil || got.ObservedCRPGeneration != 0 || got.Decisions != nil {
		t.Errorf("before the first cycle: %#v %v", got, err)
	}
}

// TestPolicySnapshotFromRejects: what PolicySnapshotFrom refuses, and the
// field it names.
func TestPolicySnapshotFromRejects(t *testing.T) {
	good := func() map[string]any {
		return PolicySnapshotObject("web-0", "web", placement.Policy{PlacementType: placement.PickN, NumberOfClusters: ptr(1)}, 1, 1, snapshotDecisions()).Object
	}
	meta := func(o map[string]any, kind string) map[string]any {
		return o["metadata"].(map[string]any)[kind].(map[string]any)
	}
	for _, c := range []struct {
		name, field, msg string
		edit             func(o map[string]any)
	}{
		{"another kind", "", "not a", func(o map[string]any) { o["kind"] = "ClusterResourcePlacement" }},
		{"no placement", "metadata.labels[kubernetes-fleet.io/parent-CRP]", "missing", func(o map[string]any) {
			delete(meta(o, "labels"), ParentPlacementLabel)
		}},
		{"latest neither true nor false", "metadata.labels[kubernetes-fleet.io/is-latest-snapshot]", `"yes" is neither true nor false`, func(o map[string]any) {
			meta(o, "labels")[IsLatestSnapshotLabel] = "yes"
		}},
		{"an index that is not one", "metadata.labels[kubernetes-fleet.io/policy-index]", `"-1" is not an index`, func(o map[string]any) {
			meta(o, "labels")[PolicyIndexLabel] = "-1"
		}},
		{"no generation", "metadata.annotations[kubernetes-fleet.io/CRP-generation]", `"" is not a generation`, func(o map[string]any) {
			delete(meta(o, "annotations"), CRPGenerationAnnotation)
		}},
		{"PickN without its number", "metadata.annotations[kubernetes-fleet.io/number-of-clusters]", "a PickN snapshot needs it", func(o map[string]any) {
			delete(meta(o, "annotations"), NumberOfClustersAnnotation)
		}},
		{"a policy field the model cannot hold", "spec.policy.affinity.podAffinity", "the model cannot hold this field", func(o map[string]any) {
			o["spec"].(map[string]any)["policy"].(map[string]any)["affinity"] = map[string]any{"podAffinity": map[string]any{}}
		}},
		{"a spec field the model cannot hold", "spec.resourceSnapshot", "the model cannot hold this field", func(o map[string]any) {
			o["spec"].(map[string]any)["resourceSnapshot"] = "x"
		}},
		{"a decision field the model cannot hold", "status.targetClusters[2].clusterScore.costScore", "the model cannot hold this field", func(o map[string]any) {
			o["status"].(map[string]any)["targetClusters"].([]any)[2].(map[string]any)["clusterScore"] = map[string]any{"costScore": int64(1)}
		}},
		{"a generation of the wrong type", "status.observedCRPGeneration", "a JSON string where the API has an integer", func(o map[string]any) {
			o["status"].(map[string]any)["observedCRPGeneration"] = "1"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := good()
			c.edit(o)
			_, err := PolicySnapshotFrom(viaJSON(t, &unstructured.Unstructured{Object: o}))
			checkError(t, err, PolicySnapshotGVK.Kind, "web-0", c.field, c.msg)
		})
	}
}
