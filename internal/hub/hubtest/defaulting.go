package hubtest

import (
	"context"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Defaulting wraps a hub so that it stores and returns placement and
// NodePool specs with the API's defaults filled in, as the Kubernetes API
// server (CRD defaults) and ARM do and the mock does not. Tests use it to
// prove that nothing depends on a hub echoing specs back verbatim.
func Defaulting(h hub.Hub) hub.Hub { return defaulting{h} }

type defaulting struct{ hub.Hub }

func (h defaulting) GetPlacement(ctx context.Context, name string) (*hub.Placement, error) {
	return defaultedPlacement(h.Hub.GetPlacement(ctx, name))
}

func (h defaulting) ApplyPlacement(ctx context.Context, p hub.Placement, pre hub.Precondition) (*hub.Placement, error) {
	p.Spec = placement.WithDefaults(p.Spec)
	return defaultedPlacement(h.Hub.ApplyPlacement(ctx, p, pre))
}

func defaultedPlacement(p *hub.Placement, err error) (*hub.Placement, error) {
	if p != nil {
		p.Spec = placement.WithDefaults(p.Spec)
	}
	return p, err
}

func (h defaulting) GetNodePool(ctx context.Context, cluster, name string) (*hub.NodePool, error) {
	return defaultedNodePool(h.Hub.GetNodePool(ctx, cluster, name))
}

func (h defaulting) ApplyNodePool(ctx context.Context, np hub.NodePool, pre hub.Precondition) (*hub.NodePool, error) {
	np.Spec = nodepool.WithDefaults(np.Spec)
	return defaultedNodePool(h.Hub.ApplyNodePool(ctx, np, pre))
}

func defaultedNodePool(np *hub.NodePool, err error) (*hub.NodePool, error) {
	if np != nil {
		np.Spec = nodepool.WithDefaults(np.Spec)
	}
	return np, err
}
