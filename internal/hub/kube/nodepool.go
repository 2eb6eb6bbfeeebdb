// Package kube converts the engines' models to and from the Kubernetes
// objects that carry them on real clusters — every Kubernetes converter of
// the project: Fleet's MemberCluster, placement, binding and policy
// snapshot, Karpenter's NodePool, NodeClaim and Node — for the azure hub
// that manages them there (designs/hub.md §10), for the emulator that
// serves them, and for admission tests against a real API server. One
// converter per kind, one file per converter.
//
// The objects are *unstructured.Unstructured (what client-go's dynamic client
// reads and writes), in the API's own camelCase field names. The models'
// pointer and nil semantics carry over: a nil pointer, slice or map is an
// omitted field, and a non-nil empty slice or map is an explicit empty list
// or map (budgets: [] is unlimited disruption, reasons: [] is no reasons).
package kube

import (
	"bytes"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

// NodePoolGVK and NodePoolGVR name Karpenter's NodePool API (cluster-scoped).
var (
	NodePoolGVK = schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1", Kind: "NodePool"}
	NodePoolGVR = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}
)

// NodePoolObject returns the karpenter.sh/v1 NodePool called name with the
// spec np, as written (no defaults applied; the API server applies them).
//
// Every field of the model is written where the API has it: template labels
// and annotations under spec.template.metadata, the rest of the template
// under spec.template.spec, and disruption, limits and weight under spec.
// A nil disruption block is omitted (the API server defaults it). One field
// is written even when unset: spec.template.spec.requirements, which the API
// requires, goes out as [] when the model has none (see NodePoolFromObject).
func NodePoolObject(name string, np nodepool.NodePool) *unstructured.Unstructured {
	return newObject(NodePoolGVK, objectMeta{Name: name}, toSpec(np), struct{}{})
}

// NodePoolFromObject returns the name and spec of a karpenter.sh/v1
// NodePool, as read from an API server (metadata other than the name, and
// status, are ignored). It is the inverse of NodePoolObject, except that
// an empty requirements list reads as nil: the API cannot carry the
// difference, and nil is what a configuration without requirements holds.
//
// It fails on an object of another kind, and on a spec with a field the
// model cannot hold (spec.replicas of a static NodePool, a taint's
// timeAdded, a field of a newer API): writing such a pool back from the
// model would silently drop it.
func NodePoolFromObject(obj *unstructured.Unstructured) (string, nodepool.NodePool, error) {
	name := obj.GetName()
	if gvk := obj.GroupVersionKind(); gvk != NodePoolGVK {
		return name, nodepool.NodePool{}, fmt.Errorf("object %q is a %s, not a %s", name, gvk, NodePoolGVK)
	}
	raw, err := json.Marshal(obj.Object["spec"])
	if err != nil {
		return name, nodepool.NodePool{}, fmt.Errorf("NodePool %q: spec: %w", name, err)
	}
	var s nodePoolSpec
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return name, nodepool.NodePool{}, fmt.Errorf("NodePool %q: spec cannot be read into the model: %w", name, err)
	}
	return name, fromSpec(s), nil
}

// The wire form of karpenter.sh/v1 NodePool (sigs.k8s.io/karpenter
// pkg/apis/v1 nodepool.go, nodeclaim.go). omitzero keeps nil and empty
// apart: it omits nil pointers, slices and maps, and keeps empty ones.

// objectMeta is the metadata this package writes and reads: the name; the
// labels and annotations of the kinds that carry facts in them (bindings,
// policy snapshots, nodes); and the times the API server sets, which the
// node preview reads (as written by the server: RFC 3339, "" when unset).
type objectMeta struct {
	Name              string            `json:"name"`
	Labels            map[string]string `json:"labels,omitzero"`
	Annotations       map[string]string `json:"annotations,omitzero"`
	CreationTimestamp string            `json:"creationTimestamp,omitzero"`
	DeletionTimestamp string            `json:"deletionTimestamp,omitzero"`
}

type nodePoolSpec struct {
	Template   nodeClaimTemplate   `json:"template"`
	Disruption *disruption         `json:"disruption,omitzero"`
	Limits     map[string]quantity `json:"limits,omitzero"`
	Weight     *int32              `json:"weight,omitzero"`
}

type nodeClaimTemplate struct {
	Metadata *templateMeta         `json:"metadata,omitzero"`
	Spec     nodeClaimTemplateSpec `json:"spec"`
}

type templateMeta struct {
	Labels      map[string]string `json:"labels,omitzero"`
	Annotations map[string]string `json:"annotations,omitzero"`
}

type nodeClaimTemplateSpec struct {
	NodeClassRef           nodeClassRef  `json:"nodeClassRef"`
	Requirements           []requirement `json:"requirements"`
	Taints                 []taint       `json:"taints,omitzero"`
	StartupTaints          []taint       `json:"startupTaints,omitzero"`
	ExpireAfter            *string       `json:"expireAfter,omitzero"`
	TerminationGracePeriod *string       `json:"terminationGracePeriod,omitzero"`
}

type nodeClassRef struct {
	Group string `json:"group"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
}

type requirement struct {
	Key       string   `json:"key"`
	Operator  string   `json:"operator"`
	Values    []string `json:"values,omitzero"`
	MinValues *int     `json:"minValues,omitzero"`
}

// taint is a corev1.Taint; an omitted value is nil, an explicit "" is kept.
type taint struct {
	Key    string  `json:"key"`
	Value  *string `json:"value,omitzero"`
	Effect string  `json:"effect"`
}

type disruption struct {
	ConsolidationPolicy *string  `json:"consolidationPolicy,omitzero"`
	ConsolidateAfter    *string  `json:"consolidateAfter,omitzero"`
	Budgets             []budget `json:"budgets,omitzero"`
}

type budget struct {
	Nodes    *string  `json:"nodes,omitzero"`
	Schedule *string  `json:"schedule,omitzero"`
	Duration *string  `json:"duration,omitzero"`
	Reasons  []string `json:"reasons,omitzero"`
}

// quantity is a limits value: the API's int-or-string. It is written as a
// string; an integer (as kubectl writes `cpu: 100`) reads as its digits.
type quantity string

func (q *quantity) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] != '"' {
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("%s is neither a string nor a number", b)
		}
		*q = quantity(n.String())
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*q = quantity(s)
	return nil
}

func toSpec(np nodepool.NodePool) nodePoolSpec {
	t := np.Template
	s := nodePoolSpec{
		Template: nodeClaimTemplate{Spec: nodeClaimTemplateSpec{
			NodeClassRef:           nodeClassRef(t.NodeClassRef),
			Requirements:           mapSlice(t.Requirements, toRequirement),
			Taints:                 mapSlice(t.Taints, toTaint),
			StartupTaints:          mapSlice(t.StartupTaints, toTaint),
			ExpireAfter:            t.ExpireAfter,
			TerminationGracePeriod: t.TerminationGracePeriod,
		}},
		Weight: np.Weight,
	}
	if s.Template.Spec.Requirements == nil {
		s.Template.Spec.Requirements = []requirement{}
	}
	if t.Labels != nil || t.Annotations != nil {
		s.Template.Metadata = &templateMeta{Labels: t.Labels, Annotations: t.Annotations}
	}
	if np.Limits != nil {
		s.Limits = make(map[string]quantity, len(np.Limits))
		for k, v := range np.Limits {
			s.Limits[k] = quantity(v)
		}
	}
	if d := np.Disruption; d != nil {
		s.Disruption = &disruption{
			ConsolidationPolicy: d.ConsolidationPolicy,
			ConsolidateAfter:    d.ConsolidateAfter,
			Budgets:             mapSlice(d.Budgets, toBudget),
		}
	}
	return s
}

func fromSpec(s nodePoolSpec) nodepool.NodePool {
	ts := s.Template.Spec
	np := nodepool.NodePool{
		Weight: s.Weight,
		Template: nodepool.Template{
			NodeClassRef:           nodepool.NodeClassRef(ts.NodeClassRef),
			Requirements:           mapSlice(ts.Requirements, fromRequirement),
			Taints:                 mapSlice(ts.Taints, fromTaint),
			StartupTaints:          mapSlice(ts.StartupTaints, fromTaint),
			ExpireAfter:            ts.ExpireAfter,
			TerminationGracePeriod: ts.TerminationGracePeriod,
		},
	}
	if len(np.Template.Requirements) == 0 {
		np.Template.Requirements = nil
	}
	if m := s.Template.Metadata; m != nil {
		np.Template.Labels, np.Template.Annotations = m.Labels, m.Annotations
	}
	if s.Limits != nil {
		np.Limits = make(map[string]string, len(s.Limits))
		for k, v := range s.Limits {
			np.Limits[k] = string(v)
		}
	}
	if d := s.Disruption; d != nil {
		np.Disruption = &nodepool.Disruption{
			ConsolidationPolicy: d.ConsolidationPolicy,
			ConsolidateAfter:    d.ConsolidateAfter,
			Budgets:             mapSlice(d.Budgets, fromBudget),
		}
	}
	return np
}

func toRequirement(r nodepool.Requirement) requirement {
	return requirement{Key: r.Key, Operator: r.Operator, Values: r.Values, MinValues: r.MinValues}
}

func fromRequirement(r requirement) nodepool.Requirement {
	return nodepool.Requirement{Key: r.Key, Operator: r.Operator, Values: r.Values, MinValues: r.MinValues}
}

func toTaint(t nodepool.Taint) taint { return taint{Key: t.Key, Value: t.Value, Effect: t.Effect} }

func fromTaint(t taint) nodepool.Taint {
	return nodepool.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect}
}

func toBudget(b nodepool.Budget) budget {
	return budget{Nodes: b.Nodes, Schedule: b.Schedule, Duration: b.Duration, Reasons: b.Reasons}
}

func fromBudget(b budget) nodepool.Budget {
	return nodepool.Budget{Nodes: b.Nodes, Schedule: b.Schedule, Duration: b.Duration, Reasons: b.Reasons}
}

// mapSlice maps in element by element, keeping nil nil and empty empty.
func mapSlice[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, x := range in {
		out[i] = f(x)
	}
	return out
}
