package kube

import (
	"reflect"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// The written form of an object is the spec of this provider's annotation,
// else of kubectl's last-applied configuration (the documents' YAML applied
// with kubectl), else unknown; a spec the API server filled in does not
// change it.
func TestWrittenForm(t *testing.T) {
	spec := placement.Spec{Name: "web", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
		Policy: placement.Policy{PlacementType: placement.PickAll}}
	obj := PlacementObject("web", spec)
	RecordWritten(obj)
	stored := viaJSON(t, obj)
	// the API server's defaults, which the written form does not have
	stored.Object["spec"].(map[string]any)["revisionHistoryLimit"] = int64(10)
	if got := WrittenPlacement(stored); got == nil || !reflect.DeepEqual(*got, spec) {
		t.Errorf("from the annotation: %+v, want %+v", got, spec)
	}

	applied := PlacementObject("web", spec)
	applied.SetAnnotations(map[string]string{LastAppliedAnnotation: `{"apiVersion":"placement.kubernetes-fleet.io/v1","kind":"ClusterResourcePlacement",` +
		`"metadata":{"name":"web"},"spec":{"resourceSelectors":[{"group":"","version":"v1","kind":"Namespace","name":"web"}],` +
		`"policy":{"placementType":"PickN","numberOfClusters":2},"revisionHistoryLimit":10}}`})
	n := 2
	want := placement.Spec{Name: "web", ResourceSelectors: spec.ResourceSelectors,
		Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n}, RevisionHistoryLimit: ptr(10)}
	if got := WrittenPlacement(applied); got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("from kubectl's last-applied configuration: %+v, want %+v", got, want)
	}

	for name, ann := range map[string]map[string]string{
		"no annotation":             nil,
		"not JSON":                  {WrittenSpecAnnotation: "{"},
		"a field the model lacks":   {WrittenSpecAnnotation: `{"resourceSelectors":[],"replicas":3}`},
		"a last-applied of no spec": {LastAppliedAnnotation: `{"kind":"ClusterResourcePlacement"}`},
	} {
		o := PlacementObject("web", spec)
		o.SetAnnotations(ann)
		if got := WrittenPlacement(o); got != nil {
			t.Errorf("%s: written form %+v, want none", name, got)
		}
	}

	np := nodepool.NodePool{Template: nodepool.Template{NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}}}
	pool := NodePoolObject("general", np)
	RecordWritten(pool)
	if got := WrittenNodePool(viaJSON(t, pool)); got == nil || !reflect.DeepEqual(*got, np) {
		t.Errorf("NodePool: %+v, want %+v", got, np)
	}
}
