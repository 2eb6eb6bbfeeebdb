package kube

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

func ptr[T any](v T) *T { return &v }

// fullNodePool sets every field of the model.
func fullNodePool() nodepool.NodePool {
	return nodepool.NodePool{
		Weight: ptr[int32](10),
		Limits: map[string]string{"cpu": "1000", "memory": "1000Gi"},
		Template: nodepool.Template{
			Labels:       map[string]string{"team": "a"},
			Annotations:  map[string]string{"example.com/owner": "team-a"},
			NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"},
			Requirements: []nodepool.Requirement{
				{Key: "karpenter.azure.com/sku-family", Operator: "In", Values: []string{"D", "E"}, MinValues: ptr(2)},
				{Key: "karpenter.sh/capacity-type", Operator: "Exists"},
			},
			Taints:                 []nodepool.Taint{{Key: "example.com/dedicated", Value: ptr("gpu"), Effect: "NoSchedule"}},
			StartupTaints:          []nodepool.Taint{{Key: "example.com/init", Effect: "NoExecute"}},
			ExpireAfter:            ptr("720h"),
			TerminationGracePeriod: ptr("30m"),
		},
		Disruption: &nodepool.Disruption{
			ConsolidationPolicy: ptr("WhenEmpty"),
			ConsolidateAfter:    ptr("30s"),
			Budgets: []nodepool.Budget{
				{Nodes: ptr("10%")},
				{Nodes: ptr("0"), Schedule: ptr("0 9 * * 1-5"), Duration: ptr("8h"), Reasons: []string{"Drifted", "Underutilized"}},
			},
		},
	}
}

// TestNodePoolObjectFieldNames pins the API's field names: every field of
// the model lands where karpenter.sh/v1 has it.
func TestNodePoolObjectFieldNames(t *testing.T) {
	obj := NodePoolObject("gpu", fullNodePool())
	want := `{"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"gpu"},"spec":{` +
		`"disruption":{"budgets":[{"nodes":"10%"},{"duration":"8h","nodes":"0","reasons":["Drifted","Underutilized"],"schedule":"0 9 * * 1-5"}],` +
		`"consolidateAfter":"30s","consolidationPolicy":"WhenEmpty"},` +
		`"limits":{"cpu":"1000","memory":"1000Gi"},` +
		`"template":{"metadata":{"annotations":{"example.com/owner":"team-a"},"labels":{"team":"a"}},"spec":{` +
		`"expireAfter":"720h","nodeClassRef":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},` +
		`"requirements":[{"key":"karpenter.azure.com/sku-family","minValues":2,"operator":"In","values":["D","E"]},{"key":"karpenter.sh/capacity-type","operator":"Exists"}],` +
		`"startupTaints":[{"effect":"NoExecute","key":"example.com/init"}],` +
		`"taints":[{"effect":"NoSchedule","key":"example.com/dedicated","value":"gpu"}],` +
		`"terminationGracePeriod":"30m"}},` +
		`"weight":10}}`
	if got := canonical(t, obj); got != want {
		t.Errorf("object:\n got %s\nwant %s", got, want)
	}
	// Unstructured objects hold int64 numbers (DeepCopy panics on others).
	_ = obj.DeepCopy()
}

// TestNodePoolObjectOmitsUnset: an unset field is omitted, an explicitly
// empty list or map is written empty, and requirements are always written.
func TestNodePoolObjectOmitsUnset(t *testing.T) {
	ref := nodepool.NodePool{Template: nodepool.Template{NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}}}
	for _, c := range []struct {
		name string
		edit func(*nodepool.NodePool)
		spec string
	}{
		{"nothing set", func(*nodepool.NodePool) {},
			`{"template":{"spec":{"nodeClassRef":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},"requirements":[]}}}`},
		{"explicitly empty budgets and reasons", func(np *nodepool.NodePool) {
			np.Disruption = &nodepool.Disruption{}
			np.Disruption.ConsolidateAfter = ptr("0s")
			np.Disruption.Budgets = []nodepool.Budget{}
			np.Template.Requirements = []nodepool.Requirement{{Key: "example.com/x", Operator: "NotIn", Values: []string{}}}
		}, `{"disruption":{"budgets":[],"consolidateAfter":"0s"},"template":{"spec":{"nodeClassRef":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},` +
			`"requirements":[{"key":"example.com/x","operator":"NotIn","values":[]}]}}}`},
		{"budget with empty reasons and no nodes", func(np *nodepool.NodePool) {
			np.Disruption = &nodepool.Disruption{}
			np.Disruption.Budgets = []nodepool.Budget{{Reasons: []string{}}}
		}, `{"disruption":{"budgets":[{"reasons":[]}]},"template":{"spec":{"nodeClassRef":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},"requirements":[]}}}`},
		{"empty maps", func(np *nodepool.NodePool) {
			np.Limits = map[string]string{}
			np.Template.Labels = map[string]string{}
		}, `{"limits":{},"template":{"metadata":{"labels":{}},"spec":{"nodeClassRef":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},"requirements":[]}}}`},
		{"empty disruption block, taint values unset and empty", func(np *nodepool.NodePool) {
			np.Disruption = &nodepool.Disruption{}
			np.Template.Taints = []nodepool.Taint{{Key: "a", Effect: "NoSchedule"}, {Key: "b", Value: ptr(""), Effect: "NoSchedule"}}
		}, `{"disruption":{},"template":{"spec":{"nodeClassRef":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},"requirements":[],` +
			`"taints":[{"effect":"NoSchedule","key":"a"},{"effect":"NoSchedule","key":"b","value":""}]}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			np := ref.DeepCopy()
			c.edit(&np)
			spec := &unstructured.Unstructured{Object: NodePoolObject("x", np).Object["spec"].(map[string]any)}
			if got := canonical(t, spec); got != c.spec {
				t.Errorf("spec:\n got %s\nwant %s", got, c.spec)
			}
		})
	}
}

// TestNodePoolRoundTrip: NodePoolFromObject inverts NodePoolObject on every
// field and keeps nil apart from empty, through JSON as an API server
// returns it.
func TestNodePoolRoundTrip(t *testing.T) {
	full := fullNodePool()
	cases := map[string]nodepool.NodePool{
		"zero":  {},
		"full":  full,
		"empty": {Limits: map[string]string{}, Template: nodepool.Template{Labels: map[string]string{}, Annotations: map[string]string{}, Taints: []nodepool.Taint{}, StartupTaints: []nodepool.Taint{}}},
	}
	np := full.DeepCopy()
	np.Disruption.Budgets = []nodepool.Budget{}
	cases["explicitly empty budgets"] = np
	np = full.DeepCopy()
	np.Disruption.Budgets[1].Reasons = []string{}
	np.Disruption.Budgets[0].Nodes = nil
	cases["empty reasons, budget without nodes"] = np
	np = full.DeepCopy()
	np.Disruption = &nodepool.Disruption{ConsolidateAfter: ptr("Never")}
	np.Template.Requirements[0].Values = []string{}
	np.Template.Requirements[1].Values = nil
	np.Template.Labels = nil
	cases["disruption with only consolidate_after, empty and nil values"] = np
	np = full.DeepCopy()
	np.Disruption = &nodepool.Disruption{}
	np.Template.Taints[0].Value = ptr("")
	cases["empty disruption block, explicitly empty taint value"] = np
	np = full.DeepCopy()
	np.Disruption = nil
	cases["disruption omitted"] = np
	for name, np := range cases {
		t.Run(name, func(t *testing.T) {
			gotName, got, err := NodePoolFromObject(viaJSON(t, NodePoolObject("pool-1", np)))
			if err != nil {
				t.Fatal(err)
			}
			if gotName != "pool-1" {
				t.Errorf("name %q, want pool-1", gotName)
			}
			if !reflect.DeepEqual(got, np) {
				t.Errorf("round trip:\n got %#v\nwant %#v", got, np)
			}
		})
	}
}

// TestNodePoolRequirementsAlwaysWritten: the API requires requirements, so an
// explicitly empty list goes out as [] too and reads back as nil.
func TestNodePoolRequirementsAlwaysWritten(t *testing.T) {
	np := nodepool.NodePool{Template: nodepool.Template{Requirements: []nodepool.Requirement{}}}
	_, got, err := NodePoolFromObject(NodePoolObject("x", np))
	if err != nil {
		t.Fatal(err)
	}
	if got.Template.Requirements != nil {
		t.Errorf("requirements %#v, want nil", got.Template.Requirements)
	}
}

// TestNodePoolFromServerObject reads a NodePool as an API server returns it:
// server metadata and status are ignored, defaults are kept, and an integer
// limit (as kubectl writes it) reads as its digits.
func TestNodePoolFromServerObject(t *testing.T) {
	obj := &unstructured.Unstructured{}
	err := obj.UnmarshalJSON([]byte(`{"apiVersion":"karpenter.sh/v1","kind":"NodePool",
		"metadata":{"name":"default","uid":"1","resourceVersion":"7","generation":1,"annotations":{"karpenter.sh/nodepool-hash":"123"}},
		"spec":{"disruption":{"budgets":[{"nodes":"10%"}],"consolidateAfter":"0s","consolidationPolicy":"WhenEmptyOrUnderutilized"},
			"limits":{"cpu":100,"memory":"64Gi"},
			"template":{"spec":{"expireAfter":"720h","nodeClassRef":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},"requirements":[]}}},
		"status":{"conditions":[{"type":"Ready","status":"True"}],"resources":{"cpu":"0"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	name, got, err := NodePoolFromObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := nodepool.NodePool{
		Limits: map[string]string{"cpu": "100", "memory": "64Gi"},
		Template: nodepool.Template{
			NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"},
			ExpireAfter:  ptr("720h"),
		},
		Disruption: &nodepool.Disruption{ConsolidationPolicy: ptr("WhenEmptyOrUnderutilized"), ConsolidateAfter: ptr("0s"), Budgets: []nodepool.Budget{{Nodes: ptr("10%")}}},
	}
	if name != "default" || !reflect.DeepEqual(got, want) {
		t.Errorf("got %q %#v\nwant %#v", name, got, want)
	}
}

// TestNodePoolFromObjectRejects what the model cannot hold.
func TestNodePoolFromObjectRejects(t *testing.T) {
	for _, c := range []struct{ name, json, err string }{
		{"another kind", `{"apiVersion":"karpenter.sh/v1","kind":"NodeClaim","metadata":{"name":"a"},"spec":{}}`, "not a karpenter.sh/v1, Kind=NodePool"},
		{"another version", `{"apiVersion":"karpenter.sh/v1beta1","kind":"NodePool","metadata":{"name":"a"},"spec":{}}`, "not a karpenter.sh/v1, Kind=NodePool"},
		{"static pool", `{"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"a"},"spec":{"replicas":3,"template":{"spec":{}}}}`, `unknown field "replicas"`},
		{"taint timeAdded", `{"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"a"},"spec":{"template":{"spec":{"taints":[{"key":"a","effect":"NoExecute","timeAdded":"2024-01-01T00:00:00Z"}]}}}}`, `unknown field "timeAdded"`},
		{"limit of another type", `{"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"a"},"spec":{"limits":{"cpu":true}}}`, "neither a string nor a number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			obj := &unstructured.Unstructured{}
			if err := obj.UnmarshalJSON([]byte(c.json)); err != nil {
				t.Fatal(err)
			}
			_, _, err := NodePoolFromObject(obj)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("error %v, want one containing %q", err, c.err)
			}
		})
	}
}

// canonical is obj as JSON with sorted keys.
func canonical(t *testing.T, obj *unstructured.Unstructured) string {
	t.Helper()
	b, err := json.Marshal(obj.Object)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
