package azure

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// NodePools are Karpenter NodePools on the member clusters (designs/hub.md
// §10), with their live nodes: the NodeClaims and Nodes labelled with the
// pool. A member cluster is contacted only when a NodePool on it is read or
// written, never to plan one that does not exist yet.

func nodePoolObject(cluster, name string) string {
	return fmt.Sprintf("NodePool %q on member cluster %q", name, cluster)
}

// nodePools is the member's client, once it is known to serve NodePools.
func (h *Hub) nodePools(ctx context.Context, cluster string) (*kubeCluster, error) {
	kc, err := h.clusters.member(ctx, cluster)
	if err != nil {
		return nil, err
	}
	return kc, kc.servesNodePools()
}

func (h *Hub) GetNodePool(ctx context.Context, cluster, name string) (*hub.NodePool, error) {
	kc, err := h.nodePools(ctx, cluster)
	if err != nil {
		return nil, err
	}
	obj, err := kc.dyn.Resource(kube.NodePoolGVR).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, kc.fail(nodePoolObject(cluster, name), err)
	}
	return nodePoolFrom(ctx, kc, cluster, obj)
}

func (h *Hub) ApplyNodePool(ctx context.Context, np hub.NodePool, pre hub.Precondition) (*hub.NodePool, error) {
	kc, err := h.nodePools(ctx, np.Cluster)
	if err != nil {
		return nil, err
	}
	obj, err := writeSpec(ctx, kc, kube.NodePoolGVR, nodePoolObject(np.Cluster, np.Name), written(kube.NodePoolObject(np.Name, np.Spec)), pre)
	if err != nil {
		return nil, err
	}
	return nodePoolFrom(ctx, kc, np.Cluster, obj)
}

func (h *Hub) DeleteNodePool(ctx context.Context, cluster, name string, pre hub.Precondition) error {
	kc, err := h.nodePools(ctx, cluster)
	if err != nil {
		return err
	}
	return deleteObject(ctx, kc, kube.NodePoolGVR, nodePoolObject(cluster, name), name, pre, h.placementTimeout())
}

func (h *Hub) NodePoolNodes(ctx context.Context, cluster, name string) (hub.NodePoolStatus, error) {
	kc, err := h.nodePools(ctx, cluster)
	if err != nil {
		return hub.NodePoolStatus{}, err
	}
	return nodesOf(ctx, kc, name)
}

func nodePoolFrom(ctx context.Context, kc *kubeCluster, cluster string, obj *unstructured.Unstructured) (*hub.NodePool, error) {
	name, spec, err := kube.NodePoolFromObject(obj)
	if err != nil {
		return nil, err
	}
	st, err := nodesOf(ctx, kc, name)
	if err != nil {
		return nil, err
	}
	return &hub.NodePool{Meta: meta(obj), Cluster: cluster, Spec: spec, Written: kube.WrittenNodePool(obj), Status: st}, nil
}

// nodesOf lists a pool's live nodes: its NodeClaims, each with its Node
// once registered (kube.PairNodes).
func nodesOf(ctx context.Context, kc *kubeCluster, pool string) (hub.NodePoolStatus, error) {
	sel := labels.Set{nodepool.LabelNodePool: pool}
	claims, err := listAll(ctx, kc, kube.NodeClaimGVR, sel)
	if err != nil {
		return hub.NodePoolStatus{}, err
	}
	nodes, err := listAll(ctx, kc, kube.NodeGVR, sel)
	if err != nil {
		return hub.NodePoolStatus{}, err
	}
	var s hub.NodePoolStatus
	if s.Nodes, err = kube.PairNodes(claims, nodes); err != nil {
		return hub.NodePoolStatus{}, err
	}
	s.Total, s.Disrupting = nodepool.CountNodes(s.Nodes)
	return s, nil
}
