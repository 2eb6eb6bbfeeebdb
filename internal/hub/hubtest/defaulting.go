package hubtest

import (
	"context"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Defaulting wraps a hub so that it stores and returns placement, NodePool,
// update strategy and update run specs with the API's defaults filled in, as the Kubernetes API
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

func (h defaulting) GetUpdateStrategy(ctx context.Context, name string) (*hub.UpdateStrategy, error) {
	return defaultedStrategy(h.Hub.GetUpdateStrategy(ctx, name))
}

func (h defaulting) PutUpdateStrategy(ctx context.Context, s hub.UpdateStrategy, pre hub.Precondition) (*hub.UpdateStrategy, error) {
	s.Spec = update.StrategyWithDefaults(s.Spec)
	return defaultedStrategy(h.Hub.PutUpdateStrategy(ctx, s, pre))
}

func defaultedStrategy(s *hub.UpdateStrategy, err error) (*hub.UpdateStrategy, error) {
	if s != nil {
		s.Spec = update.StrategyWithDefaults(s.Spec)
	}
	return s, err
}

func (h defaulting) GetUpdateRun(ctx context.Context, name string) (*hub.UpdateRun, error) {
	return defaultedRun(h.Hub.GetUpdateRun(ctx, name))
}

func (h defaulting) PutUpdateRun(ctx context.Context, r hub.UpdateRun, pre hub.Precondition) (*hub.UpdateRun, error) {
	r.Spec = update.RunWithDefaults(r.Spec)
	return defaultedRun(h.Hub.PutUpdateRun(ctx, r, pre))
}

func (h defaulting) StartUpdateRun(ctx context.Context, name string, pre hub.Precondition) (*hub.UpdateRun, error) {
	return defaultedRun(h.Hub.StartUpdateRun(ctx, name, pre))
}

func (h defaulting) StopUpdateRun(ctx context.Context, name string, pre hub.Precondition) (*hub.UpdateRun, error) {
	return defaultedRun(h.Hub.StopUpdateRun(ctx, name, pre))
}

func (h defaulting) SkipUpdateRun(ctx context.Context, name string, targets []update.SkipTarget, pre hub.Precondition) (*hub.UpdateRun, error) {
	return defaultedRun(h.Hub.SkipUpdateRun(ctx, name, targets, pre))
}

func (h defaulting) ApproveUpdateRunGate(ctx context.Context, name, gate string, pre hub.Precondition) (*hub.UpdateRun, error) {
	return defaultedRun(h.Hub.ApproveUpdateRunGate(ctx, name, gate, pre))
}

func defaultedRun(r *hub.UpdateRun, err error) (*hub.UpdateRun, error) {
	if r != nil {
		r.Spec = update.RunWithDefaults(r.Spec)
		if r.ResolvedStrategy != nil {
			s := update.StrategyWithDefaults(*r.ResolvedStrategy)
			r.ResolvedStrategy = &s
		}
	}
	return r, err
}
