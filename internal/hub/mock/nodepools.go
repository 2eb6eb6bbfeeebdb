package mock

import (
	"context"
	"fmt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// nodePoolKeySep joins a NodePool's cluster and name in its key.
const nodePoolKeySep = "/"

func nodePoolKey(cluster, name string) string { return cluster + nodePoolKeySep + name }

// GetNodePool returns a stored NodePool with its live nodes: the member
// cluster's NAP nodes from the inventory that belong to the pool.
func (h *Hub) GetNodePool(ctx context.Context, cluster, name string) (*hub.NodePool, error) {
	np, rec, err := store.Load[store.NodePool](h.store, store.BucketNodePools, nodePoolKey(cluster, name))
	if err != nil {
		return nil, err
	}
	c, err := h.member(ctx, cluster)
	if err != nil {
		return nil, err
	}
	return nodePoolObject(np, rec.Meta(name), cluster, nodePoolStatus(c, name)), nil
}

// ApplyNodePool creates or updates a NodePool on a member cluster.
func (h *Hub) ApplyNodePool(ctx context.Context, np hub.NodePool, pre store.Precondition) (*hub.NodePool, error) {
	if err := store.CheckName(np.Name); err != nil {
		return nil, err
	}
	c, err := h.member(ctx, np.Cluster)
	if err != nil {
		return nil, err
	}
	r := &store.NodePool{Spec: np.Spec}
	rec, err := store.Save(h.store, store.BucketNodePools, nodePoolKey(np.Cluster, np.Name), r, pre, h.Now())
	if err != nil {
		return nil, err
	}
	return nodePoolObject(r, rec.Meta(np.Name), np.Cluster, nodePoolStatus(c, np.Name)), nil
}

// DeleteNodePool removes a NodePool.
func (h *Hub) DeleteNodePool(_ context.Context, cluster, name string, pre store.Precondition) error {
	return store.Delete(h.store, store.BucketNodePools, nodePoolKey(cluster, name), pre)
}

// NodePoolNodes lists the member cluster's NAP nodes of the pool.
func (h *Hub) NodePoolNodes(ctx context.Context, cluster, name string) (hub.NodePoolStatus, error) {
	c, err := h.member(ctx, cluster)
	if err != nil {
		return hub.NodePoolStatus{}, err
	}
	return nodePoolStatus(c, name), nil
}

func (h *Hub) member(ctx context.Context, name string) (*fleet.Cluster, error) {
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, err
	}
	c, ok := f.Cluster(name)
	if !ok {
		return nil, fmt.Errorf("member cluster %q: %w in the fleet", name, store.ErrNotFound)
	}
	return c, nil
}

func nodePoolStatus(c *fleet.Cluster, pool string) hub.NodePoolStatus {
	var s hub.NodePoolStatus
	for _, n := range c.NAPNodes {
		if n.NodePool == pool {
			s.Nodes = append(s.Nodes, nodepool.NodeOf(n))
		}
	}
	s.Total, s.Disrupting = nodepool.CountNodes(s.Nodes)
	return s
}
