package kube

import (
	"cmp"
	"errors"
	"maps"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

// NodeClaimGVK and NodeClaimGVR name Karpenter's NodeClaim API
// (cluster-scoped): one per node Karpenter launches. NodeGVK and NodeGVR
// name the core Node.
var (
	NodeClaimGVK = NodePoolGVK.GroupVersion().WithKind("NodeClaim")
	NodeClaimGVR = NodePoolGVR.GroupVersion().WithResource("nodeclaims")
	NodeGVK      = schema.GroupVersion{Version: "v1"}.WithKind("Node")
	NodeGVR      = schema.GroupVersion{Version: "v1"}.WithResource("nodes")
)

// DisruptedTaintKey is the taint (effect NoSchedule) Karpenter puts on a
// node it has chosen to disrupt or is terminating.
const DisruptedTaintKey = "karpenter.sh/disrupted"

const (
	conditionNodeReady           = "Ready"               // a Node's
	conditionInstanceTerminating = "InstanceTerminating" // a NodeClaim's: the instance is being deleted
	effectNoSchedule             = "NoSchedule"
)

// fixtureNodeClassRef is the node class of the NodeClaims NodeObjects
// makes: AKS Node Auto Provisioning's default AKSNodeClass.
var fixtureNodeClassRef = nodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}

// NodeFrom returns the node of the NodePool preview that a karpenter.sh/v1
// NodeClaim and its core Node make. node may be nil: the claim is launched
// and its node not registered yet (or not listed). Each field follows what
// Karpenter reads (sigs.k8s.io/karpenter v1.14: its cluster state's
// StateNode, the disruption budgets' BuildDisruptionBudgetMapping, the
// expiration controller), as internal/engine/nodepool uses it:
//
//   - Name is the node's name: the claim's status.nodeName, or the claim's
//     own name while it has none (on AKS the two differ).
//   - NodePool is the claim's label karpenter.sh/nodepool (Karpenter sets it
//     at launch; a claim without it belongs to no pool: "").
//   - Labels are the node's labels, or the claim's without a node, as
//     StateNode.Labels reads them; they include karpenter.sh/nodepool.
//   - CreatedAt is the claim's creationTimestamp, in UTC: Karpenter expires a
//     node expireAfter after its NodeClaim was created (Expiring counts from
//     it), not after the Node registered.
//   - Ready is the node's Ready condition being True; false without a node.
//     Karpenter subtracts a node that is not Ready from what the budgets
//     allow (CountNodes counts it as disrupting).
//   - MarkedForDeletion is true when the claim or the node has a
//     deletionTimestamp, when the claim's InstanceTerminating condition is
//     True (StateNode.Deleted), or when the node carries the taint
//     karpenter.sh/disrupted with effect NoSchedule, which Karpenter's
//     disruption queue puts on a node it has chosen to disrupt and its
//     termination controller on a node it drains (the disruption mark is in
//     Karpenter's memory; the taint is how it shows on the cluster). Such a
//     node counts as disrupting, and Expiring skips it.
//   - DoNotDisrupt is the annotation karpenter.sh/do-not-disrupt: "true" on
//     the node, or on the claim without a node, as StateNode.Annotations
//     reads it: voluntary disruption skips the node, expiration does not.
//   - Uninitialized is true without a node, or when the node does not carry
//     the label karpenter.sh/initialized: "true" (StateNode.Initialized):
//     the budgets do not count it.
//   - InstanceTerminating is the claim's InstanceTerminating condition being
//     True: the budgets do not count it either (BuildDisruptionBudgetMapping).
//   - ExpireAfter is the claim's spec.expireAfter, which the expiration
//     controller reads ("" when the claim has none, which an API server never
//     stores: the CRD defaults it to 720h).
//
// A claim or node of another kind, a node that is not the claim's
// status.nodeName, a field of the wrong type or a time that is not RFC 3339
// is an *Error naming the object and the field.
func NodeFrom(claim *unstructured.Unstructured, node *unstructured.Unstructured) (nodepool.Node, error) {
	var c nodeClaimObject
	cr, err := readObject(claim, NodeClaimGVK, &c)
	if err != nil {
		return nodepool.Node{}, err
	}
	created, err := cr.parseTime("metadata.creationTimestamp", c.Metadata.CreationTimestamp)
	if err != nil {
		return nodepool.Node{}, err
	}
	terminating := conditionIs(c.Status.Conditions, conditionInstanceTerminating, ConditionStatusTrue)
	n := nodepool.Node{
		Name:                cmp.Or(c.Status.NodeName, c.Metadata.Name),
		NodePool:            c.Metadata.Labels[nodepool.LabelNodePool],
		Labels:              c.Metadata.Labels,
		CreatedAt:           created,
		MarkedForDeletion:   c.Metadata.DeletionTimestamp != "" || terminating,
		DoNotDisrupt:        c.Metadata.Annotations[nodepool.AnnotationDoNotDisrupt] == "true",
		Uninitialized:       true,
		InstanceTerminating: terminating,
		ExpireAfter:         c.Spec.ExpireAfter,
	}
	if node == nil {
		return n, nil
	}
	var w nodeObject
	if _, err := readObject(node, NodeGVK, &w); err != nil {
		return nodepool.Node{}, err
	}
	if w.Metadata.Name != c.Status.NodeName {
		return nodepool.Node{}, cr.errorf("status.nodeName", "%q is not the node given, %q", c.Status.NodeName, w.Metadata.Name)
	}
	n.Name = w.Metadata.Name
	n.Labels = w.Metadata.Labels
	n.DoNotDisrupt = w.Metadata.Annotations[nodepool.AnnotationDoNotDisrupt] == "true"
	n.Ready = conditionIs(w.Status.Conditions, conditionNodeReady, ConditionStatusTrue)
	n.Uninitialized = w.Metadata.Labels[nodepool.LabelInitialized] != "true"
	n.MarkedForDeletion = n.MarkedForDeletion || w.Metadata.DeletionTimestamp != "" ||
		slices.ContainsFunc(w.Spec.Taints, func(t taint) bool { return t.Key == DisruptedTaintKey && t.Effect == effectNoSchedule })
	return n, nil
}

func conditionIs(cs []nodeCondition, typ, status string) bool {
	i := slices.IndexFunc(cs, func(c nodeCondition) bool { return c.Type == typ })
	return i >= 0 && cs[i].Status == status
}

// PairNodes returns the nodes of the NodePool preview that claims and nodes
// make (as listed from a member cluster), sorted by name: one per claim,
// with the node its status.nodeName names (NodeFrom without a node when
// none of nodes is). A node no claim names is not one of Karpenter's (its
// budgets count only the nodes it manages) and is left out. The claims that
// do not read are left out too, and their errors joined in the error
// returned beside the nodes that do.
func PairNodes(claims, nodes []unstructured.Unstructured) ([]nodepool.Node, error) {
	byName := make(map[string]*unstructured.Unstructured, len(nodes))
	for i := range nodes {
		byName[nodes[i].GetName()] = &nodes[i]
	}
	out := make([]nodepool.Node, 0, len(claims))
	var errs []error
	for i := range claims {
		var node *unstructured.Unstructured
		if name, _, _ := unstructured.NestedString(claims[i].Object, "status", "nodeName"); name != "" {
			node = byName[name]
		}
		n, err := NodeFrom(&claims[i], node)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, n)
	}
	slices.SortStableFunc(out, func(a, b nodepool.Node) int { return cmp.Compare(a.Name, b.Name) })
	return out, errors.Join(errs...)
}

// NodeObjects returns a NodeClaim and its Node whose NodeFrom is n, for test
// fixtures that play a member cluster. Both are named n.Name, and the
// claim's status.nodeName names the node.
//
//   - The claim: the label karpenter.sh/nodepool n.NodePool (when set) over
//     n.Labels; spec.nodeClassRef AKS's default AKSNodeClass and one
//     requirement, karpenter.sh/nodepool In [n.NodePool] (none without a
//     pool), as Karpenter launches it; spec.expireAfter n.ExpireAfter when
//     set; metadata.creationTimestamp n.CreatedAt, to the second, when set;
//     the condition InstanceTerminating True when n.InstanceTerminating.
//   - The node: the labels n.Labels, with karpenter.sh/initialized "true"
//     unless n.Uninitialized (and without it then); the annotation karpenter.sh/do-not-disrupt
//     "true" when n.DoNotDisrupt; the taint karpenter.sh/disrupted:NoSchedule
//     when n.MarkedForDeletion; a Ready condition True or False.
//
// An API server sets creationTimestamp and deletionTimestamp itself (it
// ignores the one written here), so NodeFrom of the stored claim has the
// server's CreatedAt; a fixture that needs another time sets it where its
// client allows (a fake client keeps it), and marks a node for deletion by
// the taint or by deleting the object (with a finalizer, so that it stays).
// An API server takes the claim's status through the status subresource
// only (UpdateStatus).
func NodeObjects(n nodepool.Node) (claim, node *unstructured.Unstructured) {
	var claimLabels map[string]string
	if n.Labels != nil || n.NodePool != "" {
		claimLabels = maps.Clone(n.Labels)
		if claimLabels == nil {
			claimLabels = map[string]string{}
		}
		if n.NodePool != "" {
			claimLabels[nodepool.LabelNodePool] = n.NodePool
		}
	}
	claimMeta := objectMeta{Name: n.Name, Labels: claimLabels}
	if !n.CreatedAt.IsZero() {
		claimMeta.CreationTimestamp = timestamp(n.CreatedAt)
	}
	spec := nodeClaimSpec{NodeClassRef: fixtureNodeClassRef, Requirements: []requirement{}, ExpireAfter: n.ExpireAfter}
	if n.NodePool != "" {
		spec.Requirements = []requirement{{Key: nodepool.LabelNodePool, Operator: "In", Values: []string{n.NodePool}}}
	}
	status := nodeClaimStatus{NodeName: n.Name}
	if n.InstanceTerminating {
		// The CRD requires a condition's lastTransitionTime.
		status.Conditions = []nodeCondition{{Type: conditionInstanceTerminating, Status: ConditionStatusTrue,
			LastTransitionTime: timestamp(cmp.Or(n.CreatedAt, time.Unix(0, 0)))}}
	}
	claim = newObject(NodeClaimGVK, claimMeta, spec, status)

	nodeLabels := maps.Clone(n.Labels)
	if n.Uninitialized {
		delete(nodeLabels, nodepool.LabelInitialized)
	} else {
		if nodeLabels == nil {
			nodeLabels = map[string]string{}
		}
		nodeLabels[nodepool.LabelInitialized] = "true"
	}
	nodeMeta := objectMeta{Name: n.Name, Labels: nodeLabels}
	if n.DoNotDisrupt {
		nodeMeta.Annotations = map[string]string{nodepool.AnnotationDoNotDisrupt: "true"}
	}
	var taints nodeSpec
	if n.MarkedForDeletion {
		taints.Taints = []taint{{Key: DisruptedTaintKey, Effect: effectNoSchedule}}
	}
	ready := nodeCondition{Type: conditionNodeReady, Status: ConditionStatusFalse}
	if n.Ready {
		ready.Status = ConditionStatusTrue
	}
	node = newObject(NodeGVK, nodeMeta, taints, nodeStatus{Conditions: []nodeCondition{ready}})
	return claim, node
}

// The wire form of the parts of karpenter.sh/v1 NodeClaim (sigs.k8s.io/karpenter
// pkg/apis/v1 nodeclaim.go, nodeclaim_status.go) and core v1 Node that the
// preview reads and the fixtures write. Other fields are not read.

type nodeClaimObject = wireObject[nodeClaimSpec, nodeClaimStatus]

type nodeClaimSpec struct {
	NodeClassRef nodeClassRef  `json:"nodeClassRef"`
	Requirements []requirement `json:"requirements"`
	ExpireAfter  string        `json:"expireAfter,omitzero"`
}

type nodeClaimStatus struct {
	NodeName   string          `json:"nodeName,omitzero"`
	Conditions []nodeCondition `json:"conditions,omitzero"`
}

type nodeObject = wireObject[nodeSpec, nodeStatus]

type nodeSpec struct {
	Taints []taint `json:"taints,omitzero"`
}

type nodeStatus struct {
	Conditions []nodeCondition `json:"conditions,omitzero"`
}

// nodeCondition is the part of a Node's or NodeClaim's condition read here.
type nodeCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime string `json:"lastTransitionTime,omitzero"`
}
