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
)

// GetUpdateStrategy reads an update strategy.
func (h *Hub) GetUpdateStrategy(_ context.Context, name string) (*hub.UpdateStrategy, error) {
	return getObject[hub.UpdateStrategy, strategyRecord](h.store, bucketStrategies, name)
}

// PutUpdateStrategy creates or replaces an update strategy.
func (h *Hub) PutUpdateStrategy(_ context.Context, s hub.UpdateStrategy, pre Precondition) (*hub.UpdateStrategy, error) {
	r := &strategyRecord{Spec: s.Spec}
	rec, err := put(h.store, bucketStrategies, s.Name, r, pre, h.Now())
	if err != nil {
		return nil, err
	}
	return r.object(rec.meta(s.Name)), nil
}

// DeleteUpdateStrategy removes an update strategy. Runs keep the copy they made.
func (h *Hub) DeleteUpdateStrategy(_ context.Context, name string, pre Precondition) error {
	return del(h.store, bucketStrategies, name, pre)
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
		r, rec, err := loadTx[runRecord](tx, bucketRuns, name)
		if err != nil {
			return err
		}
		events, err := runEventsTx(tx, name)
		if err != nil {
			return err
		}
		out = r.object(rec.meta(name))
		out.Status = h.execution(r, events, f.Regions).Status(h.Now())
		return nil
	})
	return out, err
}

// execution is what a stored run's progress depends on (update.Execution).
func (h *Hub) execution(r *runRecord, events []runEvent, regions []fleet.Region) *update.Execution {
	return executionOf(r, events, regions, h.UpgradeDuration())
}

// executionOf is a stored run's progress with members taking upgrade each.
func executionOf(r *runRecord, events []runEvent, regions []fleet.Region, upgrade time.Duration) *update.Execution {
	return &update.Execution{Update: r.Spec.ManagedClusterUpdate, Strategy: r.ResolvedStrategy, Regions: regions,
		UpgradeDuration: upgrade, Events: events, AutoUpgrade: r.AutoUpgrade}
}

// runEventsTx reads a run's events (none when it has no history).
func runEventsTx(tx *bolt.Tx, name string) ([]runEvent, error) {
	ev, _, err := loadTx[runEventsRecord](tx, bucketRunEvents, name)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return ev.Events, nil
}

// PutUpdateRun creates a run (NotStarted) or changes one that has not started.
// A referenced strategy is copied into the run when the run is created.
func (h *Hub) PutUpdateRun(ctx context.Context, in hub.UpdateRun, pre Precondition) (*hub.UpdateRun, error) {
	if err := checkName(in.Name); err != nil {
		return nil, err
	}
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, err
	}
	now := h.Now()
	r := &runRecord{Spec: in.Spec, Status: update.RunStatus{State: update.StateNotStarted}}
	var rec Record
	err = h.store.Update(func(tx *bolt.Tx) error {
		old, oldRec, err := loadTx[runRecord](tx, bucketRuns, in.Name)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if err := checkPrecondition(pre, oldRec, old != nil); err != nil {
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
		rec, err = saveTx(tx, bucketRuns, in.Name, r, pre, now, true)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := r.object(rec.meta(in.Name))
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
		s, _, err := loadTx[strategyRecord](tx, bucketStrategies, update.StrategyNameFromID(spec.UpdateStrategyID))
		if errors.Is(err, ErrNotFound) {
			return nil, &hub.InvalidError{Object: object, Reason: fmt.Sprintf("the update strategy %q does not exist", spec.UpdateStrategyID)}
		}
		if err != nil {
			return nil, err
		}
		return &s.Spec, nil
	}
	return spec.Strategy, nil
}

func started(events []runEvent) bool {
	return slices.ContainsFunc(events, func(e runEvent) bool { return e.Action == update.ActionStart })
}

// DeleteUpdateRun removes a run and its history. What its completed
// upgrades did to clusters stays (upgradesRecord).
func (h *Hub) DeleteUpdateRun(ctx context.Context, name string, pre Precondition) error {
	f, err := h.Fleet(ctx)
	if err != nil {
		return err
	}
	now := h.Now()
	defer h.invalidateFleet()
	return h.store.Update(func(tx *bolt.Tx) error {
		r, _, err := loadTx[runRecord](tx, bucketRuns, name)
		if err != nil {
			return err
		}
		events, err := runEventsTx(tx, name)
		if err != nil {
			return err
		}
		if err := DeleteTx(tx, bucketRuns, name, pre); err != nil {
			return err
		}
		if err := DeleteTx(tx, bucketRunEvents, name, Precondition{}); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		for _, m := range completedUpgrades(name, h.execution(r, events, f.Regions).Status(now)) {
			u, _, err := loadTx[upgradesRecord](tx, bucketUpgrades, m.cluster)
			if errors.Is(err, ErrNotFound) {
				u, err = &upgradesRecord{}, nil
			}
			if err != nil {
				return err
			}
			u.Upgrades = append(u.Upgrades, m.appliedUpgrade)
			if _, err := saveTx(tx, bucketUpgrades, m.cluster, u, Precondition{}, now, true); err != nil {
				return err
			}
		}
		return nil
	})
}

type clusterUpgrade struct {
	cluster string
	appliedUpgrade
}

// completedUpgrades are the member upgrades a run's status reports completed.
func completedUpgrades(run string, st update.RunStatus) []clusterUpgrade {
	var out []clusterUpgrade
	for _, m := range st.Members() {
		if m.State == update.StateCompleted {
			out = append(out, clusterUpgrade{m.Name, appliedUpgrade{At: m.EndTime, Run: run,
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
		if b := tx.Bucket([]byte(bucketUpgrades)); b != nil {
			if err := b.ForEach(func(k, _ []byte) error {
				u, _, err := loadTx[upgradesRecord](tx, bucketUpgrades, string(k))
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
		b := tx.Bucket([]byte(bucketRuns))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			name := string(k)
			events, err := runEventsTx(tx, name)
			if err != nil || !started(events) {
				return err
			}
			r, _, err := loadTx[runRecord](tx, bucketRuns, name)
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
func (h *Hub) StartUpdateRun(ctx context.Context, name string, pre Precondition) (*hub.UpdateRun, error) {
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, err
	}
	return h.runAction(ctx, name, runEvent{Action: update.ActionStart, Members: update.Members(f)}, pre, nil)
}

// StopUpdateRun stops a run. Member upgrades already in flight are not
// aborted; nothing new starts.
func (h *Hub) StopUpdateRun(ctx context.Context, name string, pre Precondition) (*hub.UpdateRun, error) {
	return h.runAction(ctx, name, runEvent{Action: update.ActionStop}, pre, nil)
}

// SkipUpdateRun skips members, groups, stages or after-stage waits of the
// run; every target must name something the run has (update.ValidateActions).
func (h *Hub) SkipUpdateRun(ctx context.Context, name string, targets []update.SkipTarget, pre Precondition) (*hub.UpdateRun, error) {
	return h.runAction(ctx, name, runEvent{Action: update.ActionSkip, Targets: targets}, pre, func(r *runRecord, _ update.RunStatus, f *fleet.Fleet) error {
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
func (h *Hub) ApproveUpdateRunGate(ctx context.Context, name, gate string, pre Precondition) (*hub.UpdateRun, error) {
	return h.runAction(ctx, name, runEvent{Action: update.ActionApprove, Gate: gate}, pre, func(_ *runRecord, st update.RunStatus, _ *fleet.Fleet) error {
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
func (h *Hub) runAction(ctx context.Context, name string, ev runEvent, pre Precondition, check func(*runRecord, update.RunStatus, *fleet.Fleet) error) (*hub.UpdateRun, error) {
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, err
	}
	now := h.Now()
	ev.At = now
	var run *runRecord
	var rec Record
	var events []runEvent
	err = h.store.Update(func(tx *bolt.Tx) error {
		var err error
		if run, rec, err = loadTx[runRecord](tx, bucketRuns, name); err != nil {
			return err
		}
		if err := checkPrecondition(pre, rec, true); err != nil {
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
		if _, err := saveTx(tx, bucketRunEvents, name, &runEventsRecord{Events: events}, Precondition{}, now, true); err != nil {
			return err
		}
		run.Status = h.execution(run, events, f.Regions).Status(now)
		rec, err = saveTx(tx, bucketRuns, name, run, Precondition{}, now, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	h.invalidateFleet()
	return run.object(rec.meta(name)), nil
}
