package kube

import (
	"errors"
	"maps"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

var nodeCreated = time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)

func napNode(name string, edit func(*nodepool.Node)) nodepool.Node {
	n := nodepool.Node{
		Name: name, NodePool: "default", CreatedAt: nodeCreated, Ready: true,
		Labels: map[string]string{"karpenter.sh/capacity-type": "on-demand", "topology.kubernetes.io/zone": "eastus-1"},
	}
	if edit != nil {
		edit(&n)
	}
	return n
}

// initializedAs is n with the label karpenter.sh/initialized as NodeObjects
// writes it on the node: "true" unless n is not initialized.
func initializedAs(n nodepool.Node) nodepool.Node {
	n.Labels = maps.Clone(n.Labels)
	if n.Uninitialized {
		delete(n.Labels, nodepool.LabelInitialized)
		return n
	}
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	n.Labels[nodepool.LabelInitialized] = "true"
	return n
}

// TestNodeObjectsRoundTrip: NodeFrom reads back the node NodeObjects
// writes, whatever its state (its labels with karpenter.sh/initialized as
// the node carries it).
func TestNodeObjectsRoundTrip(t *testing.T) {
	for name, n := range map[string]nodepool.Node{
		"ready":                    napNode("aks-default-1", nil),
		"not ready":                napNode("aks-default-1", func(n *nodepool.Node) { n.Ready = false }),
		"marked for deletion":      napNode("aks-default-1", func(n *nodepool.Node) { n.MarkedForDeletion = true }),
		"do not disrupt":           napNode("aks-default-1", func(n *nodepool.Node) { n.DoNotDisrupt = true }),
		"every flag":               napNode("aks-default-1", func(n *nodepool.Node) { n.MarkedForDeletion, n.DoNotDisrupt, n.Ready = true, true, false }),
		"no labels":                napNode("aks-default-1", func(n *nodepool.Node) { n.Labels = nil }),
		"empty labels":             napNode("aks-default-1", func(n *nodepool.Node) { n.Labels = map[string]string{} }),
		"labels with the pool":     napNode("aks-default-1", func(n *nodepool.Node) { n.Labels[nodepool.LabelNodePool] = "default" }),
		"no pool":                  napNode("aks-x", func(n *nodepool.Node) { n.NodePool = "" }),
		"no pool, no labels":       {Name: "aks-x", CreatedAt: nodeCreated},
		"no creation time (fixed)": napNode("aks-default-1", func(n *nodepool.Node) { n.CreatedAt = time.Time{} }),
		"not initialized":          napNode("aks-default-1", func(n *nodepool.Node) { n.Uninitialized = true }),
		"instance terminating": napNode("aks-default-1", func(n *nodepool.Node) {
			n.InstanceTerminating, n.MarkedForDeletion = true, true
		}),
		"its own expireAfter": napNode("aks-default-1", func(n *nodepool.Node) { n.ExpireAfter = "336h" }),
		"never expires":       napNode("aks-default-1", func(n *nodepool.Node) { n.ExpireAfter = nodepool.Never }),
	} {
		t.Run(name, func(t *testing.T) {
			claim, node := NodeObjects(n)
			_, _ = claim.DeepCopy(), node.DeepCopy()
			got, err := NodeFrom(viaJSON(t, claim), viaJSON(t, node))
			if err != nil {
				t.Fatal(err)
			}
			if want := initializedAs(n); !reflect.DeepEqual(got, want) {
				t.Errorf("round trip:\n got %#v\nwant %#v", got, want)
			}
		})
	}
}

// TestNodeObjectsFieldNames pins what the fixtures write.
func TestNodeObjectsFieldNames(t *testing.T) {
	claim, node := NodeObjects(napNode("aks-default-1", func(n *nodepool.Node) {
		n.MarkedForDeletion, n.DoNotDisrupt, n.Labels = true, true, map[string]string{"a": "b"}
	}))
	wantClaim := `{"apiVersion":"karpenter.sh/v1","kind":"NodeClaim","metadata":{"creationTimestamp":"2024-03-01T08:00:00Z","labels":{"a":"b","karpenter.sh/nodepool":"default"},"name":"aks-default-1"},` +
		`"spec":{"nodeClassRef":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},"requirements":[{"key":"karpenter.sh/nodepool","operator":"In","values":["default"]}]},` +
		`"status":{"nodeName":"aks-default-1"}}`
	wantNode := `{"apiVersion":"v1","kind":"Node","metadata":{"annotations":{"karpenter.sh/do-not-disrupt":"true"},"labels":{"a":"b","karpenter.sh/initialized":"true"},"name":"aks-default-1"},` +
		`"spec":{"taints":[{"effect":"NoSchedule","key":"karpenter.sh/disrupted"}]},"status":{"conditions":[{"status":"True","type":"Ready"}]}}`
	if got := canonical(t, claim); got != wantClaim {
		t.Errorf("claim:\n got %s\nwant %s", got, wantClaim)
	}
	if got := canonical(t, node); got != wantNode {
		t.Errorf("node:\n got %s\nwant %s", got, wantNode)
	}
}

const (
	claimJSON = `{"apiVersion":"karpenter.sh/v1","kind":"NodeClaim","metadata":{"name":"default-x7k2p","creationTimestamp":"2024-03-01T10:00:00+02:00",` +
		`"labels":{"karpenter.sh/nodepool":"default","karpenter.sh/capacity-type":"spot"},"annotations":{"karpenter.sh/do-not-disrupt":"true","karpenter.sh/nodepool-hash":"1"}},` +
		`"spec":{"nodeClassRef":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},"requirements":[],"expireAfter":"720h"},` +
		`"status":{"nodeName":"aks-default-x7k2p","providerID":"azure:///x","conditions":[{"type":"Launched","status":"True","lastTransitionTime":"2024-03-01T08:01:00Z","reason":"Launched","message":""}]}}`
	nodeJSON = `{"apiVersion":"v1","kind":"Node","metadata":{"name":"aks-default-x7k2p","creationTimestamp":"2024-03-01T08:03:00Z",` +
		`"labels":{"karpenter.sh/nodepool":"default","karpenter.sh/initialized":"true","kubernetes.io/hostname":"aks-default-x7k2p"}},` +
		`"spec":{"providerID":"azure:///x","taints":[{"key":"karpenter.sh/disrupted","effect":"NoExecute"}]},` +
		`"status":{"conditions":[{"type":"MemoryPressure","status":"False"},{"type":"Ready","status":"True","reason":"KubeletReady"}],"nodeInfo":{"kubeletVersion":"v1.31.1"}}}`
)

// TestNodeFrom: each field from where Karpenter reads it.
func TestNodeFrom(t *testing.T) {
	created := time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)
	// What claimJSON and nodeJSON make, and claimJSON alone.
	withNode := nodepool.Node{Name: "aks-default-x7k2p", NodePool: "default", CreatedAt: created, Ready: true, ExpireAfter: "720h",
		Labels: map[string]string{"karpenter.sh/nodepool": "default", "karpenter.sh/initialized": "true", "kubernetes.io/hostname": "aks-default-x7k2p"}}
	// Without its Node, a claim is not initialized (StateNode.Initialized).
	claimOnly := nodepool.Node{Name: "aks-default-x7k2p", NodePool: "default", CreatedAt: created, DoNotDisrupt: true, ExpireAfter: "720h",
		Uninitialized: true, Labels: map[string]string{"karpenter.sh/nodepool": "default", "karpenter.sh/capacity-type": "spot"}}
	for _, c := range []struct {
		name        string
		claim, node func(o map[string]any)
		noNode      bool
		want        func(n *nodepool.Node)
	}{
		{name: "claim and node: the node's name, labels and annotations, the claim's time; a disrupted taint of another effect does not mark"},
		{name: "no node: the claim's labels and annotations, not ready", noNode: true},
		{name: "no node and no node name yet: the claim's name", noNode: true,
			claim: func(o map[string]any) { set(o, nil, "status", "nodeName") },
			want:  func(n *nodepool.Node) { n.Name = "default-x7k2p" }},
		{name: "the claim deleted", noNode: true,
			claim: func(o map[string]any) { set(o, "2024-03-02T00:00:00Z", "metadata", "deletionTimestamp") },
			want:  func(n *nodepool.Node) { n.MarkedForDeletion = true }},
		{name: "the instance terminating",
			claim: func(o map[string]any) {
				set(o, []any{map[string]any{"type": "InstanceTerminating", "status": "True"}}, "status", "conditions")
			},
			want: func(n *nodepool.Node) { n.MarkedForDeletion, n.InstanceTerminating = true, true }},
		{name: "the node registered, not initialized yet",
			node: func(o map[string]any) { set(o, nil, "metadata", "labels", "karpenter.sh/initialized") },
			want: func(n *nodepool.Node) { n.Uninitialized = true; delete(n.Labels, "karpenter.sh/initialized") }},
		{name: "initialized other than true",
			node: func(o map[string]any) { set(o, "True", "metadata", "labels", "karpenter.sh/initialized") },
			want: func(n *nodepool.Node) { n.Uninitialized = true; n.Labels["karpenter.sh/initialized"] = "True" }},
		{name: "the claim's own expireAfter",
			claim: func(o map[string]any) { set(o, "Never", "spec", "expireAfter") },
			want:  func(n *nodepool.Node) { n.ExpireAfter = "Never" }},
		{name: "the node deleted",
			node: func(o map[string]any) { set(o, "2024-03-02T00:00:00Z", "metadata", "deletionTimestamp") },
			want: func(n *nodepool.Node) { n.MarkedForDeletion = true }},
		{name: "the node disrupted",
			node: func(o map[string]any) {
				set(o, []any{map[string]any{"key": "karpenter.sh/disrupted", "effect": "NoSchedule"}}, "spec", "taints")
			},
			want: func(n *nodepool.Node) { n.MarkedForDeletion = true }},
		{name: "the node not ready, do-not-disrupt on the node",
			node: func(o map[string]any) {
				set(o, []any{map[string]any{"type": "Ready", "status": "Unknown"}}, "status", "conditions")
				set(o, "true", "metadata", "annotations", "karpenter.sh/do-not-disrupt")
			},
			want: func(n *nodepool.Node) { n.Ready, n.DoNotDisrupt = false, true }},
		{name: "do-not-disrupt other than true",
			node: func(o map[string]any) { set(o, "True", "metadata", "annotations", "karpenter.sh/do-not-disrupt") }},
		{name: "the node without status",
			node: func(o map[string]any) { set(o, nil, "status") },
			want: func(n *nodepool.Node) { n.Ready = false }},
		{name: "a claim without a pool or a creation time", noNode: true,
			claim: func(o map[string]any) {
				set(o, nil, "metadata", "labels")
				set(o, nil, "metadata", "annotations")
				set(o, nil, "metadata", "creationTimestamp")
			},
			want: func(n *nodepool.Node) {
				*n = nodepool.Node{Name: "aks-default-x7k2p", Uninitialized: true, ExpireAfter: "720h"}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			claim, node := claimAndNode(t, c.claim, c.node)
			want := withNode
			if c.noNode {
				node, want = nil, claimOnly
			}
			want.Labels = maps.Clone(want.Labels)
			if c.want != nil {
				c.want(&want)
			}
			got, err := NodeFrom(claim, node)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v\nwant %#v", got, want)
			}
		})
	}
}

// claimAndNode are claimJSON and nodeJSON, edited.
func claimAndNode(t *testing.T, editClaim, editNode func(o map[string]any)) (claim, node *unstructured.Unstructured) {
	t.Helper()
	claim, node = object(t, claimJSON), object(t, nodeJSON)
	for obj, edit := range map[*unstructured.Unstructured]func(map[string]any){claim: editClaim, node: editNode} {
		if edit != nil {
			edit(obj.Object)
		}
	}
	return claim, node
}

// set sets the field at path of o to v (nil removes it).
func set(o map[string]any, v any, path ...string) {
	if v == nil {
		unstructured.RemoveNestedField(o, path...)
		return
	}
	if err := unstructured.SetNestedField(o, v, path...); err != nil {
		panic(err)
	}
}

// TestNodeFromRejects: what NodeFrom refuses, naming the object and field.
func TestNodeFromRejects(t *testing.T) {
	for _, c := range []struct {
		name, kind, field, msg string
		claim, node            func(o map[string]any)
	}{
		{name: "a claim of another kind", kind: "NodeClaim", msg: "not a karpenter.sh/v1, Kind=NodeClaim",
			claim: func(o map[string]any) { o["apiVersion"] = "karpenter.sh/v1beta1" }},
		{name: "a node of another kind", kind: "Node", msg: "not a /v1, Kind=Node", node: func(o map[string]any) { o["kind"] = "NodeClaim" }},
		{name: "another node", kind: "NodeClaim", field: "status.nodeName", msg: `"aks-default-x7k2p" is not the node given, "other"`,
			node: func(o map[string]any) { o["metadata"].(map[string]any)["name"] = "other" }},
		{name: "a bad creation time", kind: "NodeClaim", field: "metadata.creationTimestamp", msg: "not an RFC 3339 time",
			claim: func(o map[string]any) { o["metadata"].(map[string]any)["creationTimestamp"] = "2024-03-01" }},
		{name: "a node name of the wrong type", kind: "NodeClaim", field: "status.nodeName", msg: "a JSON number where the API has a string",
			claim: func(o map[string]any) { o["status"].(map[string]any)["nodeName"] = int64(1) }},
		{name: "taints of the wrong type", kind: "Node", field: "spec.taints", msg: "a JSON object where the API has a list",
			node: func(o map[string]any) { o["spec"].(map[string]any)["taints"] = map[string]any{} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NodeFrom(claimAndNode(t, c.claim, c.node))
			checkError(t, err, c.kind, map[string]string{"NodeClaim": "default-x7k2p", "Node": "aks-default-x7k2p"}[c.kind], c.field, c.msg)
		})
	}
	if _, err := NodeFrom(nil, nil); err == nil {
		t.Error("no error without a claim")
	}
}

// TestPairNodes: one node per claim, with its node when listed, sorted by
// name; nodes without a claim left out; a claim that does not read is left
// out and its error returned.
func TestPairNodes(t *testing.T) {
	c1, n1 := NodeObjects(napNode("aks-default-b", nil))
	c2, _ := NodeObjects(napNode("aks-default-a", func(n *nodepool.Node) { n.Ready = false })) // registered, node not listed
	c3, n3 := NodeObjects(napNode("aks-default-c", func(n *nodepool.Node) { n.MarkedForDeletion = true }))
	_, stray := NodeObjects(napNode("aks-system-1", nil)) // not Karpenter's
	bad, _ := NodeObjects(napNode("aks-default-d", nil))
	bad.Object["metadata"].(map[string]any)["creationTimestamp"] = "now"

	got, err := PairNodes([]unstructured.Unstructured{*c3, *c1, *c2}, []unstructured.Unstructured{*stray, *n1, *n3})
	want := []nodepool.Node{napNode("aks-default-a", func(n *nodepool.Node) { n.Ready, n.Uninitialized = false, true }), // no node: not initialized
		initializedAs(napNode("aks-default-b", nil)), initializedAs(napNode("aks-default-c", func(n *nodepool.Node) { n.MarkedForDeletion = true }))}
	want[0].Labels = map[string]string{"karpenter.sh/capacity-type": "on-demand", "topology.kubernetes.io/zone": "eastus-1", nodepool.LabelNodePool: "default"} // the claim's
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v %v\nwant %#v", got, err, want)
	}

	got, err = PairNodes([]unstructured.Unstructured{*bad, *c1}, []unstructured.Unstructured{*n1})
	var e *Error
	if !errors.As(err, &e) || e.Name != "aks-default-d" || len(got) != 1 || got[0].Name != "aks-default-b" {
		t.Errorf("a claim that does not read: %#v %v", got, err)
	}

	if got, err := PairNodes(nil, nil); err != nil || got == nil || len(got) != 0 {
		t.Errorf("no claims: %#v %v", got, err)
	}
}
