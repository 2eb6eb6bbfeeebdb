package mock

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// GetUpdateStrategy reads an update strategy.
func (h *Hub) GetUpdateStrategy(_ context.Context, name string) (*hub.UpdateStrategy, error) {
	return getObject(h.store, store.BucketStrategies, name, strategyObject)
}

// PutUpdateStrategy creates or replaces an update strategy.
func (h *Hub) PutUpdateStrategy(_ context.Context, s hub.UpdateStrategy, pre store.Precondition) (*hub.UpdateStrategy, error) {
	r := &store.Strategy{Spec: s.Spec}
	rec, err := store.Save(h.store, store.BucketStrategies, s.Name, r, pre, h.Now())
	if err != nil {
		return nil, err
	}
	return strategyObject(r, rec.Meta(s.Name)), nil
}

// DeleteUpdateStrategy removes an update strategy. Runs keep the copy they made.
func (h *Hub) DeleteUpdateStrategy(_ context.Context, name string, pre store.Precondition) error {
	return store.Delete(h.store, store.BucketStrategies, name, pre)
}

// DefaultUpgradeDuration is how long the mock takes to upgrade one member
// when Config.UpgradeDuration is not set.
const DefaultUpgradeDuration = 15 * time.Minute

// UpgradeDuration is the nominal time one member's upgrade takes.
func (h *Hub) UpgradeDuration() time.Duration {
	if h.cfg.UpgradeDuration != nil {
		return *h.cfg.UpgradeDuration
	}
	return DefaultUpgradeDuration
}

// GetUpdateRun reads an update run with its progress at the hub's clock.
func (h *Hub) GetUpdateRun(ctx context.Context, name string) (*hub.UpdateRun, error) {
	var out *hub.UpdateRun
	err := h.readTx(ctx, func(tx *bolt.Tx, f *fleet.Fleet) error {
		r, rec, err := store.LoadTx[store.Run](tx, store.BucketRuns, name)
		if err != nil {
			return err
		}
		events, err := runEventsTx(tx, name)
		if err != nil {
			return err
		}
		out = runObject(r, rec.Meta(name))
		out.Status = h.execution(r, events, f.Regions).Status(h.Now())
		return nil
	})
	return out, err
}

// execution is what a stored run's progress depends on (update.Execution).
func (h *Hub) execution(r *store.Run, events []store.RunEvent, regions []fleet.Region) *update.Execution {
	return executionOf(r, events, regions, h.UpgradeDuration())
}

// executionOf is a stored run's progress with members taking upgrade each.
func executionOf(r *store.Run, events []store.RunEvent, regions []fleet.Region, upgrade time.Duration) *update.Execution {
	return &update.Execution{Update: r.Spec.ManagedClusterUpdate, Strategy: r.ResolvedStrategy, Regions: regions,
		UpgradeDuration: upgrade, Events: events, AutoUpgrade: r.AutoUpgrade}
}

// runEventsTx reads a run's events (none when it has no history).
func runEventsTx(tx *bolt.Tx, name string) ([]store.RunEvent, error) {
	ev, _, err := store.LoadTx[store.RunEvents](tx, store.BucketRunEvents, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return ev.Events, nil
}

// PutUpdateRun creates a run (NotStarted) or changes one that has not started.
// A referenced strategy is copied into the run when the run is created.
func (h *Hub) PutUpdateRun(ctx context.Context, in hub.UpdateRun, pre store.Precondition) (*hub.UpdateRun, error) {
	if err := store.CheckName(in.Name); err != nil {
		return nil, err
	}
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, err
	}
	now := h.Now()
	r := &store.Run{Spec: in.Spec, Status: update.RunStatus{State: update.StateNotStarted}}
	var rec store.Record
	err = h.store.Update(func(tx *bolt.Tx) error {
		old, oldRec, err := store.LoadTx[store.Run](tx, store.BucketRuns, in.Name)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := store.CheckPrecondition(pre, oldRec, old != nil); err != nil {
			return err
		}
		if old != nil {
			events, err := runEventsTx(tx, in.Name)
			if err != nil {
				return err
			}
			if started(events) {
				return &hub.ConflictError{Object: "update run " + in.Name, Reason: "the run has been started; only a NotStarted run can be changed"}
			}
		}
		if r.ResolvedStrategy, err = resolveStrategyTx(tx, "update run "+in.Name, in.Spec); err != nil {
			return err
		}
		// What the service refuses of a run's groups, on the fleet as it is now.
		if ws := update.ServiceRefusals(r.ResolvedStrategy, f); len(ws) > 0 {
			reasons := make([]string, len(ws))
			for i, w := range ws {
				reasons[i] = w.String()
			}
			return &hub.InvalidError{Object: "update run " + in.Name, Reason: strings.Join(reasons, "; ")}
		}
		rec, err = store.SaveTx(tx, store.BucketRuns, in.Name, r, pre, now, true)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := runObject(r, rec.Meta(in.Name))
	out.Status = h.execution(r, nil, nil).Status(now)
	return out, nil
}

// resolveStrategyTx is the strategy a run of spec follows, copied when the
// run is created: its inline one, or the referenced one, which must exist.
func resolveStrategyTx(tx *bolt.Tx, object string, spec update.RunSpec) (*update.Strategy, error) {
	switch {
	case spec.UpdateStrategyID != "" && spec.Strategy != nil:
		return nil, &hub.InvalidError{Object: object, Reason: "set either an update strategy id or an inline strategy, not both"}
	case spec.UpdateStrategyID != "":
		s, _, err := store.LoadTx[store.Strategy](tx, store.BucketStrategies, update.StrategyNameFromID(spec.UpdateStrategyID))
		if errors.Is(err, store.ErrNotFound) {
			return nil, &hub.InvalidError{Object: object, Reason: fmt.Sprintf("the update strategy %q does not exist", spec.UpdateStrategyID)}
		}
		if err != nil {
			return nil, err
		}
		return &s.Spec, nil
	}
	return spec.Strategy, nil
}

func started(events []store.RunEvent) bool {
	return slices.ContainsFunc(events, func(e store.RunEvent) bool { return e.Action == update.ActionStart })
}

// DeleteUpdateRun removes a run and its history. What its completed
// upgrades did to clusters stays (store.Upgrades).
func (h *Hub) DeleteUpdateRun(ctx context.Context, name string, pre store.Precondition) error {
	f, err := h.Fleet(ctx)
	if err != nil {
		return err
	}
	now := h.Now()
	defer h.invalidateFleet()
	return h.store.Update(func(tx *bolt.Tx) error {
		r, _, err := store.LoadTx[store.Run](tx, store.BucketRuns, name)
		if err != nil {
			return err
		}
		events, err := runEventsTx(tx, name)
		if err != nil {
			return err
		}
		if err := store.DeleteTx(tx, store.BucketRuns, name, pre); err != nil {
			return err
		}
		if err := store.DeleteTx(tx, store.BucketRunEvents, name, store.Precondition{}); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		for _, m := range completedUpgrades(name, h.execution(r, events, f.Regions).Status(now)) {
			u, _, err := store.LoadTx[store.Upgrades](tx, store.BucketUpgrades, m.cluster)
			if errors.Is(err, store.ErrNotFound) {
				u, err = &store.Upgrades{}, nil
			}
			if err != nil {
				return err
			}
			u.Upgrades = append(u.Upgrades, m.AppliedUpgrade)
			if _, err := store.SaveTx(tx, store.BucketUpgrades, m.cluster, u, store.Precondition{}, now, true); err != nil {
				return err
			}
		}
		return nil
	})
}

type clusterUpgrade struct {
	cluster string
	store.AppliedUpgrade
}

// completedUpgrades are the member upgrades a run's status reports completed.
func completedUpgrades(run string, st update.RunStatus) []clusterUpgrade {
	var out []clusterUpgrade
	for _, m := range st.Members() {
		if m.State == update.StateCompleted {
			out = append(out, clusterUpgrade{m.Name, store.AppliedUpgrade{At: m.EndTime, Run: run,
				KubernetesVersion: m.KubernetesVersion, NodeImages: m.NodeImages}})
		}
	}
	return out
}

// applyUpgradesTx changes the clusters of a freshly built fleet as the
// completed upgrades of every run (existing or deleted) left them, oldest
// first: upgrades survive re-reading the inventory (designs/hub.md §2). Each
// member's upgrade takes upgrade.
func applyUpgradesTx(tx *bolt.Tx, f *fleet.Fleet, now time.Time, upgrade time.Duration) error {
	var ups []clusterUpgrade
	err := func() error {
		if b := tx.Bucket([]byte(store.BucketUpgrades)); b != nil {
			if err := b.ForEach(func(k, _ []byte) error {
				u, _, err := store.LoadTx[store.Upgrades](tx, store.BucketUpgrades, string(k))
				if err != nil {
					return err
				}
				for _, a := range u.Upgrades {
					ups = append(ups, clusterUpgrade{string(k), a})
				}
				return nil
			}); err != nil {
				return err
			}
		}
		b := tx.Bucket([]byte(store.BucketRuns))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			name := string(k)
			events, err := runEventsTx(tx, name)
			if err != nil || !started(events) {
				return err
			}
			r, _, err := store.LoadTx[store.Run](tx, store.BucketRuns, name)
			if err != nil {
				return err
			}
			ups = append(ups, completedUpgrades(name, executionOf(r, events, f.Regions, upgrade).Status(now))...)
			return nil
		})
	}()
	if err != nil || len(ups) == 0 {
		return err
	}
	sort.SliceStable(ups, func(i, j int) bool { return ups[i].At.Before(ups[j].At) })
	for _, u := range ups {
		if u.At.After(now) { // the fleet as it was at an earlier instant (a trigger's)
			continue
		}
		c, ok := f.Cluster(u.cluster)
		if !ok {
			continue
		}
		if u.KubernetesVersion != "" {
			c.KubernetesVersion = u.KubernetesVersion
		}
		if len(u.NodeImages) > 0 {
			pools := slices.Clone(c.NodePools)
			for i := range pools {
				if v, ok := u.NodeImages[pools[i].NodeImageFamily]; ok {
					pools[i].NodeImageVersion = v
				}
			}
			c.NodePools = pools
		}
	}
	return nil
}

// Which states an action may start from (designs/updates.md §4: Azure documents
// the states for start; those for stop and skip are the mock's own choice).
var actionFrom = map[string][]string{
	update.ActionStart:   {update.StateNotStarted, update.StateStopped, update.StateFailed, update.StateCompleted},
	update.ActionStop:    {update.StateRunning, update.StatePending},
	update.ActionSkip:    {update.StateNotStarted, update.StateRunning, update.StatePending, update.StateStopped, update.StateFailed, update.StateCompleted},
	update.ActionApprove: {update.StateRunning, update.StatePending},
}

// StartUpdateRun starts (or re-runs) a run over the fleet as it is now.
func (h *Hub) StartUpdateRun(ctx context.Context, name string, pre store.Precondition) (*hub.UpdateRun, error) {
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, err
	}
	return h.runAction(ctx, name, store.RunEvent{Action: update.ActionStart, Members: update.Members(f)}, pre, nil)
}

// StopUpdateRun stops a run. Member upgrades already in flight are not
// aborted; nothing new starts.
func (h *Hub) StopUpdateRun(ctx context.Context, name string, pre store.Precondition) (*hub.UpdateRun, error) {
	return h.runAction(ctx, name, store.RunEvent{Action: update.ActionStop}, pre, nil)
}

// SkipUpdateRun skips members, groups, stages or after-stage waits of the
// run; every target must name something the run has (update.ValidateActions).
func (h *Hub) SkipUpdateRun(ctx context.Context, name string, targets []update.SkipTarget, pre store.Precondition) (*hub.UpdateRun, error) {
	return h.runAction(ctx, name, store.RunEvent{Action: update.ActionSkip, Targets: targets}, pre, func(r *store.Run, _ update.RunStatus, f *fleet.Fleet) error {
		errs := append(update.ValidateSkipTypes(targets), update.ValidateActions(r.ResolvedStrategy, update.Members(f), targets, nil)...)
		if len(errs) > 0 {
			return &hub.InvalidError{Object: "update run " + name, Reason: errs.Error()}
		}
		return nil
	})
}

// ApproveUpdateRunGate completes the approval gates at a position of the run
// (update.GateKey): a key the run does not have is refused as invalid; the
// gates must be Pending (reached, not yet approved).
func (h *Hub) ApproveUpdateRunGate(ctx context.Context, name, gate string, pre store.Precondition) (*hub.UpdateRun, error) {
	return h.runAction(ctx, name, store.RunEvent{Action: update.ActionApprove, Gate: gate}, pre, func(_ *store.Run, st update.RunStatus, _ *fleet.Fleet) error {
		state := ""
		for _, g := range st.Gates() {
			if g.Key == gate {
				state = g.State
			}
		}
		switch state {
		case update.StatePending:
			return nil
		case "":
			return &hub.InvalidError{Object: "update run " + name, Reason: fmt.Sprintf("the run has no approval gate %q", gate)}
		}
		return &hub.ConflictError{Object: "update run " + name, Reason: fmt.Sprintf("gate %q is %s, not pending approval", gate, state)}
	})
}

// runAction checks the precondition, then that the run's state at the hub's
// clock allows the action (and check, when given), and records the event.
func (h *Hub) runAction(ctx context.Context, name string, ev store.RunEvent, pre store.Precondition, check func(*store.Run, update.RunStatus, *fleet.Fleet) error) (*hub.UpdateRun, error) {
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, err
	}
	now := h.Now()
	ev.At = now
	var run *store.Run
	var rec store.Record
	var events []store.RunEvent
	err = h.store.Update(func(tx *bolt.Tx) error {
		var err error
		if run, rec, err = store.LoadTx[store.Run](tx, store.BucketRuns, name); err != nil {
			return err
		}
		if err := store.CheckPrecondition(pre, rec, true); err != nil {
			return err
		}
		if events, err = runEventsTx(tx, name); err != nil {
			return err
		}
		st := h.execution(run, events, f.Regions).Status(now)
		if !slices.Contains(actionFrom[ev.Action], st.State) {
			return &hub.ConflictError{Object: "update run " + name, Reason: fmt.Sprintf("cannot %s a run that is %s", ev.Action, st.State)}
		}
		if check != nil {
			if err := check(run, st, f); err != nil {
				return err
			}
		}
		events = append(events, ev)
		if _, err := store.SaveTx(tx, store.BucketRunEvents, name, &store.RunEvents{Events: events}, store.Precondition{}, now, true); err != nil {
			return err
		}
		run.Status = h.execution(run, events, f.Regions).Status(now)
		rec, err = store.SaveTx(tx, store.BucketRuns, name, run, store.Precondition{}, now, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	h.invalidateFleet()
	return runObject(run, rec.Meta(name)), nil
}
