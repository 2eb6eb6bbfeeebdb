package kube

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// The written form of an object (designs/hub.md §5): the spec as its writer
// sent it, before the API server filled in the CRD's defaults. An import
// records it, so that a configuration that spells a default and one that
// leaves it out both import without a change.
const (
	// WrittenSpecAnnotation holds the spec this provider last wrote, as JSON.
	WrittenSpecAnnotation = "terraform-provider-aks/written-spec"
	// LastAppliedAnnotation is kubectl apply's record of what it last
	// applied (the whole object, as JSON): the written form of an object
	// made from the documents' YAML with kubectl.
	LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
)

// RecordWritten stores obj's spec, as it is about to be written, in obj's
// WrittenSpecAnnotation.
func RecordWritten(obj *unstructured.Unstructured) {
	raw, err := json.Marshal(obj.Object["spec"])
	if err != nil {
		return // Unstructured holds JSON values only: cannot fail
	}
	ann := obj.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	ann[WrittenSpecAnnotation] = string(raw)
	obj.SetAnnotations(ann)
}

// WrittenPlacement is the written form of a ClusterResourcePlacement read
// from an API server: the spec of its WrittenSpecAnnotation, or else of
// kubectl's last-applied configuration; nil when it has neither, or when
// what it has cannot be read as a placement.
func WrittenPlacement(obj *unstructured.Unstructured) *placement.Spec {
	return writtenSpec(obj, PlacementFromObject)
}

// WrittenNodePool is WrittenPlacement for a NodePool.
func WrittenNodePool(obj *unstructured.Unstructured) *nodepool.NodePool {
	return writtenSpec(obj, NodePoolFromObject)
}

// writtenSpec reads obj's written form with the converter that reads obj.
func writtenSpec[S any](obj *unstructured.Unstructured, read func(*unstructured.Unstructured) (string, S, error)) *S {
	w := withWrittenSpec(obj)
	if w == nil {
		return nil
	}
	_, spec, err := read(w)
	if err != nil {
		return nil
	}
	return &spec
}

// withWrittenSpec is a copy of obj whose spec is its written form, or nil.
func withWrittenSpec(obj *unstructured.Unstructured) *unstructured.Unstructured {
	var spec any
	ann := obj.GetAnnotations()
	if raw, ok := ann[WrittenSpecAnnotation]; ok {
		if utiljson.Unmarshal([]byte(raw), &spec) != nil { // integers as int64, as Unstructured holds them
			return nil
		}
	} else if raw, ok := ann[LastAppliedAnnotation]; ok {
		var applied struct {
			Spec any `json:"spec"`
		}
		if utiljson.Unmarshal([]byte(raw), &applied) != nil {
			return nil
		}
		spec = applied.Spec
	}
	if spec == nil {
		return nil
	}
	out := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": obj.GetAPIVersion(), "kind": obj.GetKind(), "metadata": map[string]any{"name": obj.GetName()},
	}}
	out.Object["spec"] = spec
	return out
}
