package provider

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// loggedHub logs every hub call at debug level — the object, the operation,
// the precondition sent, the outcome and the duration — so that
// `TF_LOG=debug` (or TF_LOG_PROVIDER) shows what the provider asked the hub.
// Specs and credentials are never logged.
type loggedHub struct {
	next hub.Hub
}

var _ hub.Hub = loggedHub{}

// withLogging wraps a hub so that every call is logged.
func withLogging(h hub.Hub) hub.Hub { return loggedHub{next: h} }

// logCall runs one hub call and logs it.
func logCall[T any](ctx context.Context, op, object string, pre *hub.Precondition, call func() (T, error)) (T, error) {
	start := time.Now()
	v, err := call()
	fields := map[string]any{
		"hub_operation": op,
		"hub_object":    object,
		"outcome":       outcome(err),
		"duration_ms":   time.Since(start).Milliseconds(),
	}
	if pre != nil {
		fields["if_match"] = pre.IfMatch
		fields["if_none_match"] = pre.IfNoneMatch
	}
	if err != nil && outcome(err) == "error" {
		fields["error"] = err.Error()
	}
	tflog.Debug(ctx, "hub call", fields)
	return v, err
}

// logErr is logCall for calls that return only an error.
func logErr(ctx context.Context, op, object string, pre *hub.Precondition, call func() error) error {
	_, err := logCall(ctx, op, object, pre, func() (struct{}, error) { return struct{}{}, call() })
	return err
}

func outcome(err error) string {
	var conflict *hub.ConflictError
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, hub.ErrNotFound):
		return "not_found"
	case errors.Is(err, hub.ErrPreconditionFailed):
		return "precondition_failed"
	case errors.As(err, &conflict):
		return "conflict"
	}
	return "error"
}

func (l loggedHub) Now() time.Time { return l.next.Now() }

func (l loggedHub) Identity() hub.FleetRef { return l.next.Identity() }

func (l loggedHub) Fleet(ctx context.Context) (*fleet.Fleet, error) {
	return logCall(ctx, "GetFleet", "fleet", nil, func() (*fleet.Fleet, error) { return l.next.Fleet(ctx) })
}

func (l loggedHub) GetPlacement(ctx context.Context, name string) (*hub.Placement, error) {
	return logCall(ctx, "GetPlacement", "placement/"+name, nil, func() (*hub.Placement, error) { return l.next.GetPlacement(ctx, name) })
}

func (l loggedHub) ApplyPlacement(ctx context.Context, p hub.Placement, pre hub.Precondition) (*hub.Placement, error) {
	return logCall(ctx, "ApplyPlacement", "placement/"+p.Name, &pre, func() (*hub.Placement, error) { return l.next.ApplyPlacement(ctx, p, pre) })
}

func (l loggedHub) DeletePlacement(ctx context.Context, name string, pre hub.Precondition) error {
	return logErr(ctx, "DeletePlacement", "placement/"+name, &pre, func() error { return l.next.DeletePlacement(ctx, name, pre) })
}

func (l loggedHub) HubResources(ctx context.Context, selectors []placement.ResourceSelector) (fleet.HubResources, error) {
	return logCall(ctx, "HubResources", "hubCluster", nil, func() (fleet.HubResources, error) { return l.next.HubResources(ctx, selectors) })
}

func (l loggedHub) GetUpdateStrategy(ctx context.Context, name string) (*hub.UpdateStrategy, error) {
	return logCall(ctx, "GetUpdateStrategy", "updateStrategy/"+name, nil, func() (*hub.UpdateStrategy, error) { return l.next.GetUpdateStrategy(ctx, name) })
}

func (l loggedHub) PutUpdateStrategy(ctx context.Context, s hub.UpdateStrategy, pre hub.Precondition) (*hub.UpdateStrategy, error) {
	return logCall(ctx, "PutUpdateStrategy", "updateStrategy/"+s.Name, &pre, func() (*hub.UpdateStrategy, error) { return l.next.PutUpdateStrategy(ctx, s, pre) })
}

func (l loggedHub) DeleteUpdateStrategy(ctx context.Context, name string, pre hub.Precondition) error {
	return logErr(ctx, "DeleteUpdateStrategy", "updateStrategy/"+name, &pre, func() error { return l.next.DeleteUpdateStrategy(ctx, name, pre) })
}

func (l loggedHub) GetUpdateRun(ctx context.Context, name string) (*hub.UpdateRun, error) {
	return logCall(ctx, "GetUpdateRun", "updateRun/"+name, nil, func() (*hub.UpdateRun, error) { return l.next.GetUpdateRun(ctx, name) })
}

func (l loggedHub) PutUpdateRun(ctx context.Context, r hub.UpdateRun, pre hub.Precondition) (*hub.UpdateRun, error) {
	return logCall(ctx, "PutUpdateRun", "updateRun/"+r.Name, &pre, func() (*hub.UpdateRun, error) { return l.next.PutUpdateRun(ctx, r, pre) })
}

func (l loggedHub) DeleteUpdateRun(ctx context.Context, name string, pre hub.Precondition) error {
	return logErr(ctx, "DeleteUpdateRun", "updateRun/"+name, &pre, func() error { return l.next.DeleteUpdateRun(ctx, name, pre) })
}

func (l loggedHub) StartUpdateRun(ctx context.Context, name string, pre hub.Precondition) (*hub.UpdateRun, error) {
	return logCall(ctx, "StartUpdateRun", "updateRun/"+name, &pre, func() (*hub.UpdateRun, error) { return l.next.StartUpdateRun(ctx, name, pre) })
}

func (l loggedHub) StopUpdateRun(ctx context.Context, name string, pre hub.Precondition) (*hub.UpdateRun, error) {
	return logCall(ctx, "StopUpdateRun", "updateRun/"+name, &pre, func() (*hub.UpdateRun, error) { return l.next.StopUpdateRun(ctx, name, pre) })
}

func (l loggedHub) SkipUpdateRun(ctx context.Context, name string, targets []update.SkipTarget, pre hub.Precondition) (*hub.UpdateRun, error) {
	return logCall(ctx, "SkipUpdateRun", "updateRun/"+name, &pre, func() (*hub.UpdateRun, error) { return l.next.SkipUpdateRun(ctx, name, targets, pre) })
}

func (l loggedHub) ApproveUpdateRunGate(ctx context.Context, name, gate string, pre hub.Precondition) (*hub.UpdateRun, error) {
	return logCall(ctx, "ApproveUpdateRunGate", "updateRun/"+name+"/gate/"+gate, &pre, func() (*hub.UpdateRun, error) { return l.next.ApproveUpdateRunGate(ctx, name, gate, pre) })
}

// UpgradeDuration is a setting of the hub, not a call: not logged.
func (l loggedHub) UpgradeDuration() time.Duration { return l.next.UpgradeDuration() }

func (l loggedHub) GetAutoUpgradeProfile(ctx context.Context, name string) (*hub.AutoUpgradeProfile, error) {
	return logCall(ctx, "GetAutoUpgradeProfile", "autoUpgradeProfile/"+name, nil, func() (*hub.AutoUpgradeProfile, error) { return l.next.GetAutoUpgradeProfile(ctx, name) })
}

func (l loggedHub) PutAutoUpgradeProfile(ctx context.Context, p hub.AutoUpgradeProfile, pre hub.Precondition) (*hub.AutoUpgradeProfile, error) {
	return logCall(ctx, "PutAutoUpgradeProfile", "autoUpgradeProfile/"+p.Name, &pre, func() (*hub.AutoUpgradeProfile, error) { return l.next.PutAutoUpgradeProfile(ctx, p, pre) })
}

func (l loggedHub) DeleteAutoUpgradeProfile(ctx context.Context, name string, pre hub.Precondition) error {
	return logErr(ctx, "DeleteAutoUpgradeProfile", "autoUpgradeProfile/"+name, &pre, func() error { return l.next.DeleteAutoUpgradeProfile(ctx, name, pre) })
}

func (l loggedHub) GenerateUpdateRun(ctx context.Context, profile string) (string, error) {
	return logCall(ctx, "GenerateUpdateRun", "autoUpgradeProfile/"+profile, nil, func() (string, error) { return l.next.GenerateUpdateRun(ctx, profile) })
}

func (l loggedHub) GetNodePool(ctx context.Context, cluster, name string) (*hub.NodePool, error) {
	return logCall(ctx, "GetNodePool", "nodePool/"+cluster+"/"+name, nil, func() (*hub.NodePool, error) { return l.next.GetNodePool(ctx, cluster, name) })
}

func (l loggedHub) ApplyNodePool(ctx context.Context, np hub.NodePool, pre hub.Precondition) (*hub.NodePool, error) {
	return logCall(ctx, "ApplyNodePool", "nodePool/"+np.Cluster+"/"+np.Name, &pre, func() (*hub.NodePool, error) { return l.next.ApplyNodePool(ctx, np, pre) })
}

func (l loggedHub) DeleteNodePool(ctx context.Context, cluster, name string, pre hub.Precondition) error {
	return logErr(ctx, "DeleteNodePool", "nodePool/"+cluster+"/"+name, &pre, func() error { return l.next.DeleteNodePool(ctx, cluster, name, pre) })
}

func (l loggedHub) NodePoolNodes(ctx context.Context, cluster, name string) (hub.NodePoolStatus, error) {
	return logCall(ctx, "NodePoolNodes", "nodePool/"+cluster+"/"+name, nil, func() (hub.NodePoolStatus, error) { return l.next.NodePoolNodes(ctx, cluster, name) })
}
