package kube

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// fullPlacement sets every field of the model (a PickN placement: the
// placement type that takes the most fields).
func fullPlacement() placement.Spec {
	return placement.Spec{
		Name: "web",
		ResourceSelectors: []placement.ResourceSelector{
			{Version: "v1", Kind: "Namespace", Name: "web"},
			{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole", LabelSelector: &selector.LabelSelector{
				MatchLabels:      map[string]string{"app": "web"},
				MatchExpressions: []selector.LabelExpression{{Key: "tier", Operator: "In", Values: []string{"a", "b"}}, {Key: "legacy", Operator: "DoesNotExist"}},
			}},
		},
		Policy: placement.Policy{
			PlacementType:    placement.PickN,
			NumberOfClusters: ptr(3),
			Affinity: &placement.Affinity{
				Required: []placement.ClusterSelectorTerm{
					{
						LabelSelector:    &selector.LabelSelector{MatchLabels: map[string]string{"env": "prod"}},
						PropertySelector: &selector.PropertySelector{MatchExpressions: []selector.PropertyExpression{{Name: "kubernetes-fleet.io/node-count", Operator: "Ge", Values: []string{"5"}}}},
					},
					{LabelSelector: &selector.LabelSelector{MatchExpressions: []selector.LabelExpression{{Key: "env", Operator: "In", Values: []string{"staging"}}}}},
				},
				Preferred: []placement.PreferredTerm{
					{Weight: 20, Preference: placement.ClusterSelectorTerm{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}}}},
					{Weight: -100, Preference: placement.ClusterSelectorTerm{
						LabelSelector:  &selector.LabelSelector{MatchLabels: map[string]string{"region": "east"}},
						PropertySorter: &placement.PropertySorter{Name: "resources.kubernetes-fleet.io/available-cpu", SortOrder: placement.Descending},
					}},
				},
			},
			TopologySpreadConstraints: []placement.TopologySpreadConstraint{
				{MaxSkew: ptr(2), TopologyKey: "region", WhenUnsatisfiable: placement.DoNotSchedule},
				{TopologyKey: "updateDay", WhenUnsatisfiable: placement.ScheduleAnyway},
			},
			Tolerations: []placement.Toleration{
				{Key: "dedicated", Operator: placement.TolerationOpEqual, Value: "gpu", Effect: placement.TaintEffectNoSchedule},
				{Key: "maintenance", Operator: placement.TolerationOpExists},
			},
		},
		Strategy: placement.Strategy{Type: placement.RollingUpdateStrategy, RollingUpdate: &placement.RollingUpdate{
			MaxUnavailable: ptr("50%"), MaxSurge: ptr("1"), UnavailablePeriodSeconds: ptr(30),
		}},
		RevisionHistoryLimit: ptr(5),
	}
}

// TestPlacementObjectFieldNames pins the API's field names: every field of
// the model lands where placement.kubernetes-fleet.io/v1 has it.
func TestPlacementObjectFieldNames(t *testing.T) {
	obj := PlacementObject("web", fullPlacement())
	want := `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourcePlacement","metadata":{"name":"web"},"spec":{` +
		`"policy":{"affinity":{"clusterAffinity":{` +
		`"preferredDuringSchedulingIgnoredDuringExecution":[` +
		`{"preference":{"labelSelector":{"matchLabels":{"tier":"gold"}}},"weight":20},` +
		`{"preference":{"labelSelector":{"matchLabels":{"region":"east"}},"propertySorter":{"name":"resources.kubernetes-fleet.io/available-cpu","sortOrder":"Descending"}},"weight":-100}],` +
		`"requiredDuringSchedulingIgnoredDuringExecution":{"clusterSelectorTerms":[` +
		`{"labelSelector":{"matchLabels":{"env":"prod"}},"propertySelector":{"matchExpressions":[{"name":"kubernetes-fleet.io/node-count","operator":"Ge","values":["5"]}]}},` +
		`{"labelSelector":{"matchExpressions":[{"key":"env","operator":"In","values":["staging"]}]}}]}}},` +
		`"numberOfClusters":3,"placementType":"PickN",` +
		`"tolerations":[{"effect":"NoSchedule","key":"dedicated","operator":"Equal","value":"gpu"},{"key":"maintenance","operator":"Exists"}],` +
		`"topologySpreadConstraints":[{"maxSkew":2,"topologyKey":"region","whenUnsatisfiable":"DoNotSchedule"},{"topologyKey":"updateDay","whenUnsatisfiable":"ScheduleAnyway"}]},` +
		`"resourceSelectors":[{"group":"","kind":"Namespace","name":"web","version":"v1"},` +
		`{"group":"rbac.authorization.k8s.io","kind":"ClusterRole","labelSelector":{"matchExpressions":[{"key":"tier","operator":"In","values":["a","b"]},{"key":"legacy","operator":"DoesNotExist"}],"matchLabels":{"app":"web"}},"version":"v1"}],` +
		`"revisionHistoryLimit":5,` +
		`"strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":"50%","unavailablePeriodSeconds":30},"type":"RollingUpdate"}}}`
	if got := canonical(t, obj); got != want {
		t.Errorf("object:\n got %s\nwant %s", got, want)
	}
	_ = obj.DeepCopy() // int64 numbers only
}

// TestPlacementObjectWrites: what is written for unset and empty fields.
func TestPlacementObjectWrites(t *testing.T) {
	sel := []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "a"}}
	const selJSON = `"resourceSelectors":[{"group":"","kind":"Namespace","name":"a","version":"v1"}]`
	for _, c := range []struct {
		name string
		spec placement.Spec
		want string
	}{
		{"nothing set: policy {} and resourceSelectors [] are written", placement.Spec{}, `{"policy":{},"resourceSelectors":[]}`},
		{"spec.Name is not written", placement.Spec{Name: "other", ResourceSelectors: sel}, `{"policy":{},` + selJSON + `}`},
		{"empty lists tested with has() are omitted", placement.Spec{ResourceSelectors: sel, Policy: placement.Policy{
			PlacementType: placement.PickAll, ClusterNames: []string{}, TopologySpreadConstraints: []placement.TopologySpreadConstraint{}, Tolerations: []placement.Toleration{},
		}}, `{"policy":{"placementType":"PickAll"},` + selJSON + `}`},
		{"an empty affinity and an empty required block", placement.Spec{ResourceSelectors: sel, Policy: placement.Policy{
			Affinity: &placement.Affinity{Required: []placement.ClusterSelectorTerm{}, Preferred: []placement.PreferredTerm{}},
		}}, `{"policy":{"affinity":{"clusterAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[],"requiredDuringSchedulingIgnoredDuringExecution":{"clusterSelectorTerms":[]}}}},` + selJSON + `}`},
		{"required property lists", placement.Spec{ResourceSelectors: sel, Policy: placement.Policy{Affinity: &placement.Affinity{Required: []placement.ClusterSelectorTerm{
			{PropertySelector: &selector.PropertySelector{}},
			{PropertySelector: &selector.PropertySelector{MatchExpressions: []selector.PropertyExpression{{Name: "p", Operator: "Gt"}}}},
			{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []selector.LabelExpression{{Key: "k", Operator: "NotIn", Values: []string{}}}}},
		}}}}, `{"policy":{"affinity":{"clusterAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"clusterSelectorTerms":[` +
			`{"propertySelector":{"matchExpressions":[]}},{"propertySelector":{"matchExpressions":[{"name":"p","operator":"Gt","values":[]}]}},` +
			`{"labelSelector":{"matchExpressions":[{"key":"k","operator":"NotIn","values":[]}],"matchLabels":{}}}]}}}},` + selJSON + `}`},
		{"strategy type only", placement.Spec{ResourceSelectors: sel, Strategy: placement.Strategy{Type: placement.ExternalStrategy}},
			`{"policy":{},` + selJSON + `,"strategy":{"type":"External"}}`},
		{"empty rolling update", placement.Spec{ResourceSelectors: sel, Strategy: placement.Strategy{RollingUpdate: &placement.RollingUpdate{}}},
			`{"policy":{},` + selJSON + `,"strategy":{"rollingUpdate":{}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := &unstructured.Unstructured{Object: PlacementObject("x", c.spec).Object["spec"].(map[string]any)}
			if got := canonical(t, spec); got != c.want {
				t.Errorf("spec:\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestIntOrString: a whole number is an integer on the wire, anything else
// a string; an integer reads as its digits.
func TestIntOrString(t *testing.T) {
	for in, want := range map[string]string{
		"25%": `"25%"`, "1": `1`, "0": `0`, "007": `"007"`, "-1": `-1`, "99999999999": `"99999999999"`, "": `""`, "1.5": `"1.5"`,
	} {
		got, err := intOrString(in).MarshalJSON()
		if err != nil || string(got) != want {
			t.Errorf("%q: %s %v, want %s", in, got, err, want)
		}
		var back intOrString
		if err := back.UnmarshalJSON(got); err != nil || string(back) != strings.TrimPrefix(in, "+") {
			t.Errorf("%s reads as %q %v, want %q", got, back, err, in)
		}
	}
	var v intOrString
	if err := v.UnmarshalJSON([]byte(`true`)); err == nil {
		t.Errorf("a boolean reads as %q", v)
	}
}

// viaJSON is obj through JSON, as an API server returns it.
func viaJSON(t *testing.T, obj *unstructured.Unstructured) *unstructured.Unstructured {
	t.Helper()
	raw, err := obj.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back := &unstructured.Unstructured{}
	if err := back.UnmarshalJSON(raw); err != nil {
		t.Fatal(err)
	}
	return back
}

// TestPlacementRoundTrip: PlacementFromObject inverts PlacementObject on
// every field, keeping nil apart from empty where the API can.
func TestPlacementRoundTrip(t *testing.T) {
	full := fullPlacement()
	cases := map[string]placement.Spec{"full": full, "zero": {Name: "web"}}
	edit := func(name string, f func(*placement.Spec)) {
		s := fullPlacement()
		f(&s)
		cases[name] = s
	}
	edit("PickAll", func(s *placement.Spec) {
		s.Policy = placement.Policy{PlacementType: placement.PickAll, Affinity: &placement.Affinity{Required: full.Policy.Affinity.Required}}
		s.Strategy = placement.Strategy{}
		s.RevisionHistoryLimit = nil
	})
	edit("PickFixed", func(s *placement.Spec) {
		s.Policy = placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{"b", "a", "a"}}
	})
	edit("PickN of zero, External strategy", func(s *placement.Spec) {
		s.Policy = placement.Policy{PlacementType: placement.PickN, NumberOfClusters: ptr(0)}
		s.Strategy = placement.Strategy{Type: placement.ExternalStrategy}
	})
	edit("empty affinity", func(s *placement.Spec) { s.Policy.Affinity = &placement.Affinity{} })
	edit("explicitly empty required terms and preferred list", func(s *placement.Spec) {
		s.Policy.Affinity = &placement.Affinity{Required: []placement.ClusterSelectorTerm{}, Preferred: []placement.PreferredTerm{}}
	})
	edit("empty selectors and terms", func(s *placement.Spec) {
		s.ResourceSelectors[1].LabelSelector = &selector.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []selector.LabelExpression{}}
		s.Policy.Affinity.Required = []placement.ClusterSelectorTerm{{}, {PropertySelector: &selector.PropertySelector{}}}
		s.Policy.Affinity.Preferred = []placement.PreferredTerm{{Weight: 0}}
		s.Policy.TopologySpreadConstraints = []placement.TopologySpreadConstraint{{TopologyKey: "zone"}}
		s.Policy.Tolerations = []placement.Toleration{{}}
	})
	edit("rolling update partly set", func(s *placement.Spec) {
		s.Strategy = placement.Strategy{RollingUpdate: &placement.RollingUpdate{MaxSurge: ptr("0")}}
	})
	edit("rolling update empty", func(s *placement.Spec) { s.Strategy.RollingUpdate = &placement.RollingUpdate{} })
	for name, spec := range cases {
		t.Run(name, func(t *testing.T) {
			gotName, got, err := PlacementFromObject(viaJSON(t, PlacementObject("web", spec)))
			if err != nil {
				t.Fatal(err)
			}
			if gotName != "web" {
				t.Errorf("name %q, want web", gotName)
			}
			if !reflect.DeepEqual(got, spec) {
				t.Errorf("round trip:\n got %#v\nwant %#v", got, spec)
			}
		})
	}
}

// TestPlacementEmptyListsReadAsNil: the empty lists the API cannot carry
// (omitted, or required and written []) read back as nil.
func TestPlacementEmptyListsReadAsNil(t *testing.T) {
	spec := placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{},
		Policy: placement.Policy{
			ClusterNames: []string{}, TopologySpreadConstraints: []placement.TopologySpreadConstraint{}, Tolerations: []placement.Toleration{},
			Affinity: &placement.Affinity{Required: []placement.ClusterSelectorTerm{{PropertySelector: &selector.PropertySelector{
				MatchExpressions: []selector.PropertyExpression{{Name: "p", Operator: "Eq", Values: []string{}}},
			}}}},
		},
	}
	_, got, err := PlacementFromObject(PlacementObject("x", spec))
	if err != nil {
		t.Fatal(err)
	}
	want := placement.Spec{Name: "x", Policy: placement.Policy{Affinity: &placement.Affinity{Required: []placement.ClusterSelectorTerm{{PropertySelector: &selector.PropertySelector{
		MatchExpressions: []selector.PropertyExpression{{Name: "p", Operator: "Eq"}},
	}}}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
}

// object reads JSON as an Unstructured.
func object(t *testing.T, js string) *unstructured.Unstructured {
	t.Helper()
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON([]byte(js)); err != nil {
		t.Fatal(err)
	}
	return obj
}

// TestPlacementFromServerObject reads a placement as Fleet's hub serves it:
// server metadata and status are ignored, the defaults of the fields the
// model has no place for are accepted, an integer maxSurge reads as digits.
func TestPlacementFromServerObject(t *testing.T) {
	obj := object(t, `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourcePlacement",
		"metadata":{"name":"web","uid":"1","resourceVersion":"7","generation":2,"finalizers":["kubernetes-fleet.io/crp-cleanup"]},
		"spec":{"policy":{"placementType":"PickAll"},"resourceSelectors":[{"group":"","kind":"Namespace","name":"web","selectionScope":"NamespaceWithResources","version":"v1"}],
			"revisionHistoryLimit":10,"statusReportingScope":"ClusterScopeOnly",
			"strategy":{"applyStrategy":{"comparisonOption":"PartialComparison","type":"ClientSideApply","whenToApply":"Always","whenToTakeOver":"Always","allowCoOwnership":false},
				"rollingUpdate":{"maxSurge":2,"maxUnavailable":"25%","unavailablePeriodSeconds":60},"type":"RollingUpdate"}},
		"status":{"conditions":[{"type":"ClusterResourcePlacementScheduled","status":"True","reason":"SchedulingPolicyFulfilled","message":"","lastTransitionTime":"2024-01-01T00:00:00Z","observedGeneration":2}],
			"selectedResources":[{"kind":"Namespace","name":"web","version":"v1"}]}}`)
	name, got, err := PlacementFromObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := placement.Spec{
		Name:                 "web",
		ResourceSelectors:    []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
		Policy:               placement.Policy{PlacementType: placement.PickAll},
		Strategy:             placement.Strategy{Type: placement.RollingUpdateStrategy, RollingUpdate: &placement.RollingUpdate{MaxUnavailable: ptr("25%"), MaxSurge: ptr("2"), UnavailablePeriodSeconds: ptr(60)}},
		RevisionHistoryLimit: ptr(10),
	}
	if name != "web" || !reflect.DeepEqual(got, want) {
		t.Errorf("got %q %#v\nwant %#v", name, got, want)
	}
}

// TestPlacementFromObjectRejects what the model cannot hold, naming the field.
func TestPlacementFromObjectRejects(t *testing.T) {
	const head = `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourcePlacement","metadata":{"name":"web"},"spec":`
	const sel = `"resourceSelectors":[{"group":"","kind":"Namespace","name":"web","version":"v1"}]`
	for _, c := range []struct{ name, json, field, msg string }{
		{"another kind", `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourceBinding","metadata":{"name":"web"},"spec":{}}`, "",
			"not a placement.kubernetes-fleet.io/v1, Kind=ClusterResourcePlacement"},
		{"another version", `{"apiVersion":"placement.kubernetes-fleet.io/v1beta1","kind":"ClusterResourcePlacement","metadata":{"name":"web"},"spec":{}}`, "",
			"not a placement.kubernetes-fleet.io/v1, Kind=ClusterResourcePlacement"},
		{"a field of a newer API, deep", head + `{` + sel + `,"policy":{"affinity":{"clusterAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"clusterSelectorTerms":[{},{"labelSelector":{},"zoneSelector":{}}]}}}}}}`,
			"spec.policy.affinity.clusterAffinity.requiredDuringSchedulingIgnoredDuringExecution.clusterSelectorTerms[1].zoneSelector", "the model cannot hold this field"},
		{"a key in another case", head + `{` + sel + `,"policy":{"PlacementType":"PickN"}}}`, "spec.policy.PlacementType", "the model cannot hold this field"},
		{"a namespace-only selector", head + `{"resourceSelectors":[{"group":"","kind":"Namespace","name":"web","version":"v1","selectionScope":"NamespaceOnly"}]}}`,
			"spec.resourceSelectors[0].selectionScope", `"NamespaceOnly": the model holds only the default, NamespaceWithResources`},
		{"namespace-accessible status", head + `{` + sel + `,"statusReportingScope":"NamespaceAccessible"}}`, "spec.statusReportingScope", "NamespaceAccessible"},
		{"server-side apply", head + `{` + sel + `,"strategy":{"applyStrategy":{"type":"ServerSideApply","serverSideApplyConfig":{"force":true}}}}}`,
			"spec.strategy.applyStrategy.type", "ServerSideApply"},
		{"co-ownership", head + `{` + sel + `,"strategy":{"applyStrategy":{"allowCoOwnership":true}}}}`, "spec.strategy.applyStrategy.allowCoOwnership", "true"},
		{"a deletion strategy of v1beta1", head + `{` + sel + `,"strategy":{"deleteStrategy":{"propagationPolicy":"Abandon"}}}}`, "spec.strategy.deleteStrategy", "cannot hold"},
		{"a number of the wrong type", head + `{` + sel + `,"policy":{"numberOfClusters":"3"}}}`, "spec.policy.numberOfClusters", "a JSON string where the API has an integer"},
		{"a weight of the wrong type", head + `{` + sel + `,"policy":{"affinity":{"clusterAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":"x","preference":{}}]}}}}}`,
			"spec.policy.affinity.clusterAffinity.preferredDuringSchedulingIgnoredDuringExecution.weight", "a JSON string"},
		{"a max surge of the wrong type", head + `{` + sel + `,"strategy":{"rollingUpdate":{"maxSurge":true}}}}`, "spec.strategy.rollingUpdate.maxSurge", "a JSON bool where the API has an integer or a string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := PlacementFromObject(object(t, c.json))
			checkError(t, err, PlacementGVK.Kind, "web", c.field, c.msg)
		})
	}
	if _, _, err := PlacementFromObject(nil); err == nil {
		t.Error("no error for a nil object")
	}
}

// TestPlacementStatusRoundTrip: PlacementStatusFrom reads what
// SetPlacementStatus writes.
func TestPlacementStatusRoundTrip(t *testing.T) {
	at := time.Date(2024, 5, 1, 12, 30, 0, 0, time.UTC)
	for name, st := range map[string]PlacementStatus{
		"fulfilled": {ObservedGeneration: 3, Conditions: []Condition{
			{Type: ConditionScheduled, Status: ConditionStatusTrue, Reason: ReasonFulfilled, Message: "found all cluster needed as specified by the scheduling policy", LastTransitionTime: at},
			{Type: "ClusterResourcePlacementAvailable", Status: ConditionStatusUnknown, Reason: "Pending", LastTransitionTime: at.Add(time.Hour)},
		}, Clusters: []string{"b", "a"}, ResourceIndex: 2,
			SelectedResources: []fleet.ResourceID{{Version: "v1", Kind: "Namespace", Name: "web"}, {Version: "v1", Kind: "ConfigMap", Namespace: "web", Name: "s"}},
			ClusterStatuses: []placement.ClusterStatus{
				{Cluster: "b", Conditions: []placement.Condition{{Type: "Scheduled", Status: "True", Reason: "Scheduled", Message: "picked", LastTransitionTime: at}}},
				{Cluster: "a", Conditions: []placement.Condition{{Type: "Applied", Status: "False", Reason: "NotAllWorkHaveBeenApplied", Message: "Work object web-work is not applied", LastTransitionTime: at}},
					FailedPlacements: []placement.FailedPlacement{
						{ResourceID: fleet.ResourceID{Version: "v1", Kind: "ConfigMap", Namespace: "web", Name: "s"},
							Condition: placement.Condition{Type: "Applied", Status: "False", Reason: "FailedToApply", Message: "denied", LastTransitionTime: at}},
						{ResourceID: fleet.ResourceID{Group: "batch", Version: "v1", Kind: "Job", Namespace: "web", Name: "j"}, Envelope: "web/bundle",
							Condition: placement.Condition{Type: "Applied", Status: "False", Reason: "FailedToApply", Message: "denied", LastTransitionTime: at}}}}},
			ClusterIndexes: []int{2, 1}},
		"unfulfilled": {ObservedGeneration: 1, Conditions: []Condition{
			{Type: ConditionScheduled, Status: ConditionStatusFalse, Reason: ReasonUnfulfilled, Message: "could not find all clusters needed", LastTransitionTime: at},
		}, Clusters: []string{"a"}, Unscheduled: 2, ResourceIndex: -1, ClusterStatuses: []placement.ClusterStatus{{Cluster: "a"}}, ClusterIndexes: []int{-1}},
		"nothing yet": {ResourceIndex: -1},
	} {
		t.Run(name, func(t *testing.T) {
			obj := PlacementObject("web", fullPlacement())
			SetPlacementStatus(obj, st)
			_ = obj.DeepCopy()
			got, err := PlacementStatusFrom(viaJSON(t, obj))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, st) {
				t.Errorf("round trip:\n got %#v\nwant %#v", got, st)
			}
			// The spec is untouched.
			if _, spec, err := PlacementFromObject(obj); err != nil || !reflect.DeepEqual(spec, fullPlacement()) {
				t.Errorf("spec after SetPlacementStatus: %v %#v", err, spec)
			}
		})
	}
}

// TestPlacementStatusFromFleet reads a status as Fleet writes it: the
// Scheduled condition's generation, the resources selected, each cluster's
// conditions, the entries without a cluster counted.
func TestPlacementStatusFromFleet(t *testing.T) {
	obj := object(t, `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourcePlacement","metadata":{"name":"web","generation":5},"spec":{},
		"status":{"observedResourceIndex":"0","selectedResources":[{"kind":"Namespace","name":"web","version":"v1"}],
		"conditions":[
			{"type":"ClusterResourcePlacementRolloutStarted","status":"True","reason":"RolloutStarted","message":"","lastTransitionTime":"2024-05-01T12:00:00Z","observedGeneration":4},
			{"type":"ClusterResourcePlacementScheduled","status":"False","reason":"SchedulingPolicyUnfulfilled","message":"found 1","lastTransitionTime":"2024-05-01T12:30:00+02:00","observedGeneration":5}],
		"placementStatuses":[
			{"clusterName":"member-1","conditions":[{"type":"Scheduled","status":"True","reason":"Scheduled","message":"","lastTransitionTime":"2024-05-01T12:00:00Z"}],"failedPlacements":[]},
			{"conditions":[{"type":"Scheduled","status":"False","reason":"ScheduleFailed","message":"","lastTransitionTime":"2024-05-01T12:00:00Z"}]}]}}`)
	got, err := PlacementStatusFrom(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := PlacementStatus{ObservedGeneration: 5, Conditions: []Condition{
		{Type: "ClusterResourcePlacementRolloutStarted", Status: "True", Reason: "RolloutStarted", LastTransitionTime: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)},
		{Type: ConditionScheduled, Status: "False", Reason: ReasonUnfulfilled, Message: "found 1", LastTransitionTime: time.Date(2024, 5, 1, 10, 30, 0, 0, time.UTC)},
	}, Clusters: []string{"member-1"}, Unscheduled: 1, ResourceIndex: 0,
		SelectedResources: []fleet.ResourceID{{Version: "v1", Kind: "Namespace", Name: "web"}},
		ClusterStatuses: []placement.ClusterStatus{{Cluster: "member-1", Conditions: []placement.Condition{
			{Type: "Scheduled", Status: "True", Reason: "Scheduled", LastTransitionTime: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)}}}},
		ClusterIndexes: []int{-1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}

	for _, c := range []struct{ name, status, field, msg string }{
		{"a time that is not RFC 3339", `{"conditions":[{"type":"A","status":"True","reason":"R","message":"","lastTransitionTime":"yesterday"}]}`,
			"status.conditions[0].lastTransitionTime", `"yesterday" is not an RFC 3339 time`},
		{"a cluster name of the wrong type", `{"placementStatuses":[{"clusterName":1}]}`, "status.placementStatuses.clusterName", "a JSON number where the API has a string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := PlacementStatusFrom(object(t, `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourcePlacement","metadata":{"name":"web"},"status":`+c.status+`}`))
			checkError(t, err, PlacementGVK.Kind, "web", c.field, c.msg)
		})
	}
}

// checkError fails unless err is (or joins) an *Error about the field of the
// kind's object name, with a message containing msg.
func checkError(t *testing.T, err error, kind, name, field, msg string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v, want an *Error", err)
	}
	if e.Kind != kind || e.Name != name || e.Field != field || !strings.Contains(e.Msg, msg) {
		t.Errorf("error %#v, want one about %s of %s %q with a message containing %q", e, field, kind, name, msg)
	}
}

// TestErrorMessage: an *Error names the object and the field.
func TestErrorMessage(t *testing.T) {
	for e, want := range map[*Error]string{
		{Kind: "ClusterResourcePlacement", Name: "web", Field: "spec.policy.x", Msg: "m"}: `ClusterResourcePlacement "web": spec.policy.x: m`,
		{Kind: "ClusterResourcePlacement", Name: "web", Msg: "m"}:                         `ClusterResourcePlacement "web": m`,
		{Kind: "NodeClaim", Msg: "no object"}:                                             `NodeClaim: no object`,
	} {
		if got := e.Error(); got != want {
			t.Errorf("%q, want %q", got, want)
		}
	}
	// Several fields at fault: all named, the first found by errors.As.
	_, _, err := PlacementFromObject(object(t, `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourcePlacement","metadata":{"name":"web"},"spec":{"b":1,"a":2}}`))
	if err == nil || err.Error() != "ClusterResourcePlacement \"web\": spec.a: "+cannotHold+"\nClusterResourcePlacement \"web\": spec.b: "+cannotHold {
		t.Errorf("two unknown fields: %v", err)
	}
	checkError(t, err, PlacementGVK.Kind, "web", "spec.a", cannotHold)
}
