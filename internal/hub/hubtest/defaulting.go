package hubtest

import (
	"context"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Defaulting wraps a hub so that it stores and returns placement, NodePool,
// update strategy, update run and auto-upgrade profile specs with the API's defaults filled in, as the Kubernetes API
// server (CRD defaults) and ARM do and the mock does not. Tests use it to
// prove that nothing depends on a hub echoing specs back verbatim. It knows
// no written form (hub.Placement.Written and its like are nil): it is the
// hub that stores only the defaulted spec, to which an import records the
// shortest form.
func Defaulting(h hub.Hub) hub.Hub { return defaulting{h} }

type defaulting struct{ hub.Hub }

// defaulted fills in the defaults of an object the hub returned (none on an error).
func defaulted[T any](fill func(*T)) func(*T, error) (*T, error) {
	return func(obj *T, err error) (*T, error) {
		if obj != nil {
			fill(obj)
		}
		return obj, err
	}
}

var (
	defaultedPlacement = defaulted(func(p *hub.Placement) { p.Spec, p.Written = placement.WithDefaults(p.Spec), nil })
	defaultedNodePool  = defaulted(func(np *hub.NodePool) { np.Spec, np.Written = nodepool.WithDefaults(np.Spec), nil })
	defaultedStrategy  = defaulted(func(s *hub.UpdateStrategy) { s.Spec, s.Written = update.StrategyWithDefaults(s.Spec), nil })
	defaultedProfile   = defaulted(func(p *hub.AutoUpgradeProfile) { p.Spec, p.Written = update.ProfileWithDefaults(p.Spec), nil })
	defaultedRun       = defaulted(func(r *hub.UpdateRun) {
		r.Spec, r.Written = update.RunWithDefaults(r.Spec), nil
		if r.ResolvedStrategy != nil {
			s := update.StrategyWithDefaults(*r.ResolvedStrategy)
			r.ResolvedStrategy = &s
		}
	})
)

func (h defaulting) GetPlacement(ctx context.Context, name string) (*hub.Placement, error) {
	return defaultedPlacement(h.Hub.GetPlacement(ctx, name))
}

func (h defaulting) ApplyPlacement(ctx context.Context, p hub.Placement, pre hub.Precondition) (*hub.Placement, error) {
	p.Spec = placement.WithDefaults(p.Spec)
	return defaultedPlacement(h.Hub.ApplyPlacement(ctx, p, pre))
}

func (h defaulting) GetNodePool(ctx context.Context, cluster, name string) (*hub.NodePool, error) {
	return defaultedNodePool(h.Hub.GetNodePool(ctx, cluster, name))
}

func (h defaulting) ApplyNodePool(ctx context.Context, np hub.NodePool, pre hub.Precondition) (*hub.NodePool, error) {
	np.Spec = nodepool.WithDefaults(np.Spec)
	return defaultedNodePool(h.Hub.ApplyNodePool(ctx, np, pre))
}

func (h defaulting) GetUpdateStrategy(ctx context.Context, name string) (*hub.UpdateStrategy, error) {
	return defaultedStrategy(h.Hub.GetUpdateStrategy(ctx, name))
}

func (h defaulting) PutUpdateStrategy(ctx context.Context, s hub.UpdateStrategy, pre hub.Precondition) (*hub.UpdateStrategy, error) {
	s.Spec = update.StrategyWithDefaults(s.Spec)
	return defaultedStrategy(h.Hub.PutUpdateStrategy(ctx, s, pre))
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

func (h defaulting) GetAutoUpgradeProfile(ctx context.Context, name string) (*hub.AutoUpgradeProfile, error) {
	return defaultedProfile(h.Hub.GetAutoUpgradeProfile(ctx, name))
}

func (h defaulting) PutAutoUpgradeProfile(ctx context.Context, p hub.AutoUpgradeProfile, pre hub.Precondition) (*hub.AutoUpgradeProfile, error) {
	p.Spec = update.ProfileWithDefaults(p.Spec)
	return defaultedProfile(h.Hub.PutAutoUpgradeProfile(ctx, p, pre))
}
