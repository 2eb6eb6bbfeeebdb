package kube

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// TestBindingName: <placement>-<cluster>-<8 hex digits of a digest>,
// deterministic, a DNS label however long the names.
func TestBindingName(t *testing.T) {
	if got, want := BindingName("web", "member-1"), "web-member-1-"; !strings.HasPrefix(got, want) || len(got) != len(want)+8 {
		t.Errorf("BindingName = %q, want %s<8 hex digits>", got, want)
	}
	if BindingName("web", "member-1") != BindingName("web", "member-1") {
		t.Error("not deterministic")
	}
	long := strings.Repeat("p", 63)
	names := map[string]bool{}
	for _, c := range [][2]string{
		{"web", "member-1"}, {"web", "member-2"}, {"web-member", "1"}, {"web", "member-1x"},
		{long, long}, {long, long[:62] + "q"}, {long[:62] + "q", long}, {"a", long}, {long, "a"},
	} {
		name := BindingName(c[0], c[1])
		if errs := validation.IsDNS1123Label(name); len(errs) > 0 {
			t.Errorf("BindingName(%q, %q) = %q: %v", c[0], c[1], name, errs)
		}
		if names[name] {
			t.Errorf("BindingName(%q, %q) = %q twice", c[0], c[1], name)
		}
		names[name] = true
	}
	if got := BindingName(long, "a"); !strings.HasPrefix(got, strings.Repeat("p", 26)+"-a-") {
		t.Errorf("a long placement name is not cut to 26 characters: %q", got)
	}
}

// TestBindingObjectFieldNames pins the API's field names.
func TestBindingObjectFieldNames(t *testing.T) {
	obj := BindingObject("web-member-1-0123abcd", "web", placement.Decision{ClusterName: "member-1", Selected: true, AffinityScore: 20, TopologySpreadScore: -1, Reason: placement.ReasonPicked},
		BindingStateScheduled, "web-0")
	want := `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourceBinding",` +
		`"metadata":{"labels":{"kubernetes-fleet.io/parent-CRP":"web"},"name":"web-member-1-0123abcd"},` +
		`"spec":{"clusterDecision":{"clusterName":"member-1","clusterScore":{"affinityScore":20,"priorityScore":-1},"reason":"picked by scheduling policy","selected":true},` +
		`"resourceSnapshotName":"","schedulingPolicySnapshotName":"web-0","state":"Scheduled","targetCluster":"member-1"}}`
	if got := canonical(t, obj); got != want {
		t.Errorf("object:\n got %s\nwant %s", got, want)
	}
	_ = obj.DeepCopy()
}

// TestBindingRoundTrip: DecisionFromBinding reads what BindingObject writes.
func TestBindingRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name  string
		d     placement.Decision
		state string
		score string // the clusterScore written
	}{
		{"selected with scores", placement.Decision{ClusterName: "a", Selected: true, AffinityScore: 100, TopologySpreadScore: 2, Reason: placement.ReasonPicked}, BindingStateBound,
			`{"affinityScore":100,"priorityScore":2}`},
		{"selected with zero scores", placement.Decision{ClusterName: "a", Selected: true, Reason: placement.ReasonPicked}, BindingStateScheduled,
			`{"affinityScore":0,"priorityScore":0}`},
		{"left out, scored", placement.Decision{ClusterName: "a", AffinityScore: -5, Reason: "does not score high enough"}, BindingStateUnscheduled,
			`{"affinityScore":-5,"priorityScore":0}`},
		{"left out, filtered", placement.Decision{ClusterName: "a", Reason: placement.ReasonNoRequiredMatch}, BindingStateUnscheduled, ``},
		{"no reason", placement.Decision{ClusterName: "a", Selected: true, TopologySpreadScore: 1}, BindingStateBound, `{"affinityScore":0,"priorityScore":1}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			obj := BindingObject(BindingName("web", c.d.ClusterName), "web", c.d, c.state, "web-3")
			score, _ := obj.Object["spec"].(map[string]any)["clusterDecision"].(map[string]any)["clusterScore"]
			if got := canonicalValue(t, score); (c.score == "" && score != nil) || (c.score != "" && got != c.score) {
				t.Errorf("clusterScore %s, want %q", got, c.score)
			}
			d, state, err := DecisionFromBinding(viaJSON(t, obj))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d, c.d) || state != c.state {
				t.Errorf("got %#v %q, want %#v %q", d, state, c.d, c.state)
			}
		})
	}
}

// TestDecisionFromFleetBinding reads a binding as Fleet's rollout leaves
// it: the fields the rollout adds and the status are not read; a score
// without one of its fields reads as zero.
func TestDecisionFromFleetBinding(t *testing.T) {
	obj := object(t, `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourceBinding",
		"metadata":{"name":"web-a-1x2y3z4w","labels":{"kubernetes-fleet.io/parent-CRP":"web"},"finalizers":["kubernetes-fleet.io/work-cleanup"],"generation":3},
		"spec":{"state":"Bound","targetCluster":"a","schedulingPolicySnapshotName":"web-0","resourceSnapshotName":"web-0-snapshot",
			"applyStrategy":{"type":"ClientSideApply"},"clusterResourceOverrideSnapshots":["o-1"],
			"clusterDecision":{"clusterName":"a","selected":true,"clusterScore":{"priorityScore":3},"reason":"picked by scheduling policy"}},
		"status":{"conditions":[{"type":"Applied","status":"True","reason":"Applied","message":"","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`)
	d, state, err := DecisionFromBinding(obj)
	want := placement.Decision{ClusterName: "a", Selected: true, TopologySpreadScore: 3, Reason: placement.ReasonPicked}
	if err != nil || state != BindingStateBound || !reflect.DeepEqual(d, want) {
		t.Errorf("got %#v %q %v, want %#v Bound", d, state, err, want)
	}
}

// TestDecisionFromBindingRejects: what DecisionFromBinding refuses, and the
// field it names.
func TestDecisionFromBindingRejects(t *testing.T) {
	const head = `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourceBinding","metadata":{"name":"b"},"spec":`
	const decision = `"clusterDecision":{"clusterName":"a","selected":true,"reason":""}`
	for _, c := range []struct{ name, json, field, msg string }{
		{"another kind", `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourcePlacement","metadata":{"name":"b"}}`, "", "not a"},
		{"no decision", head + `{"state":"Bound","targetCluster":"a"}}`, "spec.clusterDecision", "missing"},
		{"an unknown state", head + `{"state":"Pending","targetCluster":"a",` + decision + `}}`, "spec.state", `"Pending" is not a binding state`},
		{"another cluster", head + `{"state":"Bound","targetCluster":"b",` + decision + `}}`, "spec.clusterDecision.clusterName", `"a" is not the binding's spec.targetCluster "b"`},
		{"a score the model cannot hold", head + `{"state":"Bound","targetCluster":"a","clusterDecision":{"clusterName":"a","selected":true,"reason":"","clusterScore":{"costScore":1}}}}`,
			"spec.clusterDecision.clusterScore.costScore", "the model cannot hold this field"},
		{"a selection of the wrong type", head + `{"state":"Bound","targetCluster":"a","clusterDecision":{"clusterName":"a","selected":"yes","reason":""}}}`,
			"spec.clusterDecision.selected", "a JSON string where the API has a boolean"},
		{"a state of the wrong type", head + `{"state":1,"targetCluster":"a",` + decision + `}}`, "spec.state", "a JSON number where the API has a string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecisionFromBinding(object(t, c.json))
			checkError(t, err, BindingGVK.Kind, "b", c.field, c.msg)
		})
	}
}

// canonicalValue is v as JSON with sorted keys.
func canonicalValue(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
