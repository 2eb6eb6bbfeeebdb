package mock

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

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

// strategyName accepts a strategy name or its ARM id (…/updateStrategies/<name>).
func strategyName(id string) string { return id[strings.LastIndex(id, "/")+1:] }

// GetUpdateRun reads an update run.
func (h *Hub) GetUpdateRun(_ context.Context, name string) (*hub.UpdateRun, error) {
	return getObject[hub.UpdateRun, runRecord](h.store, bucketRuns, name)
}

// PutUpdateRun creates a run (NotStarted) or changes one that has not started.
// A referenced strategy is copied into the run when the run is created.
func (h *Hub) PutUpdateRun(_ context.Context, in hub.UpdateRun, pre Precondition) (*hub.UpdateRun, error) {
	if err := checkName(in.Name); err != nil {
		return nil, err
	}
	now := h.Now()
	r := &runRecord{Spec: in.Spec, Status: update.RunStatus{State: update.StateNotStarted}}
	var rec Record
	err := h.store.Update(func(tx *bolt.Tx) error {
		old, oldRec, err := loadTx[runRecord](tx, bucketRuns, in.Name)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if err := checkPrecondition(pre, oldRec, old != nil); err != nil {
			return err
		}
		if old != nil && old.Status.State != update.StateNotStarted {
			return &hub.ConflictError{Object: "update run " + in.Name, Reason: fmt.Sprintf("the run is %s; only a NotStarted run can be changed", old.Status.State)}
		}
		switch {
		case in.Spec.UpdateStrategyID != "" && in.Spec.Strategy != nil:
			return fmt.Errorf("update run %s: set either an update strategy id or an inline strategy, not both", in.Name)
		case in.Spec.UpdateStrategyID != "":
			s, _, err := loadTx[strategyRecord](tx, bucketStrategies, strategyName(in.Spec.UpdateStrategyID))
			if err != nil {
				return fmt.Errorf("update run %s: update strategy %q: %w", in.Name, in.Spec.UpdateStrategyID, err)
			}
			r.ResolvedStrategy = &s.Spec
		default:
			r.ResolvedStrategy = in.Spec.Strategy
		}
		rec, err = saveTx(tx, bucketRuns, in.Name, r, pre, now, true)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.object(rec.meta(in.Name)), nil
}

// DeleteUpdateRun removes a run and its history.
func (h *Hub) DeleteUpdateRun(_ context.Context, name string, pre Precondition) error {
	return h.store.Update(func(tx *bolt.Tx) error {
		if err := DeleteTx(tx, bucketRuns, name, pre); err != nil {
			return err
		}
		if err := DeleteTx(tx, bucketRunEvents, name, Precondition{}); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		return nil
	})
}

// Which states an action may start from (designs/updates.md §4: Azure documents
// the states for start; those for stop and skip are the mock's own choice).
var actionFrom = map[string][]string{
	"start": {update.StateNotStarted, update.StateStopped, update.StateFailed, update.StateCompleted},
	"stop":  {update.StateRunning, update.StatePending},
	"skip":  {update.StateNotStarted, update.StateRunning, update.StatePending, update.StateStopped, update.StateFailed},
}

// StartUpdateRun starts (or re-runs) a run.
func (h *Hub) StartUpdateRun(_ context.Context, name string, pre Precondition) (*hub.UpdateRun, error) {
	return h.runAction(name, runEvent{Action: "start"}, pre, func(s *update.RunStatus, now time.Time) {
		s.State, s.StartTime, s.EndTime, s.Message = update.StateRunning, now, time.Time{}, ""
	})
}

// StopUpdateRun stops a run. Member upgrades already in flight are not
// aborted; nothing new starts.
func (h *Hub) StopUpdateRun(_ context.Context, name string, pre Precondition) (*hub.UpdateRun, error) {
	return h.runAction(name, runEvent{Action: "stop"}, pre, func(s *update.RunStatus, now time.Time) {
		s.State, s.EndTime = update.StateStopped, now
	})
}

// SkipUpdateRun records targets to skip.
func (h *Hub) SkipUpdateRun(_ context.Context, name string, targets []update.SkipTarget, pre Precondition) (*hub.UpdateRun, error) {
	for _, t := range targets {
		switch t.Type {
		case update.TargetMember, update.TargetGroup, update.TargetStage, update.TargetAfterStageWait:
		default:
			return nil, fmt.Errorf("skip target type %q is not one of Member, Group, Stage, AfterStageWait", t.Type)
		}
	}
	return h.runAction(name, runEvent{Action: "skip", Targets: targets}, pre, func(*update.RunStatus, time.Time) {})
}

// runAction checks that the action is allowed in the run's state, records it
// and applies its effect on the run's state.
func (h *Hub) runAction(name string, ev runEvent, pre Precondition, apply func(*update.RunStatus, time.Time)) (*hub.UpdateRun, error) {
	now := h.Now()
	ev.At = now
	var run *runRecord
	var rec Record
	err := h.store.Update(func(tx *bolt.Tx) error {
		var err error
		if run, rec, err = loadTx[runRecord](tx, bucketRuns, name); err != nil {
			return err
		}
		if err := checkPrecondition(pre, rec, true); err != nil {
			return err
		}
		allowed := false
		for _, s := range actionFrom[ev.Action] {
			allowed = allowed || run.Status.State == s
		}
		if !allowed {
			return &hub.ConflictError{Object: "update run " + name, Reason: fmt.Sprintf("cannot %s a run that is %s", ev.Action, run.Status.State)}
		}
		events, _, err := loadTx[runEventsRecord](tx, bucketRunEvents, name)
		if errors.Is(err, ErrNotFound) {
			events, err = &runEventsRecord{}, nil
		}
		if err != nil {
			return err
		}
		events.Events = append(events.Events, ev)
		if _, err := saveTx(tx, bucketRunEvents, name, events, Precondition{}, now, true); err != nil {
			return err
		}
		apply(&run.Status, now)
		rec, err = saveTx(tx, bucketRuns, name, run, Precondition{}, now, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return run.object(rec.meta(name)), nil
}

// GetAutoUpgradeProfile reads an auto-upgrade profile.
func (h *Hub) GetAutoUpgradeProfile(_ context.Context, name string) (*hub.AutoUpgradeProfile, error) {
	return getObject[hub.AutoUpgradeProfile, profileRecord](h.store, bucketProfiles, name)
}

// PutAutoUpgradeProfile creates or replaces an auto-upgrade profile, keeping its trigger history.
func (h *Hub) PutAutoUpgradeProfile(_ context.Context, p hub.AutoUpgradeProfile, pre Precondition) (*hub.AutoUpgradeProfile, error) {
	if err := checkName(p.Name); err != nil {
		return nil, err
	}
	now := h.Now()
	r := &profileRecord{Spec: p.Spec}
	var rec Record
	err := h.store.Update(func(tx *bolt.Tx) error {
		old, _, err := loadTx[profileRecord](tx, bucketProfiles, p.Name)
		switch {
		case err == nil:
			r.Status = old.Status
		case !errors.Is(err, ErrNotFound):
			return err
		}
		rec, err = saveTx(tx, bucketProfiles, p.Name, r, pre, now, true)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.object(rec.meta(p.Name)), nil
}

// DeleteAutoUpgradeProfile removes a profile. Runs it generated stay.
func (h *Hub) DeleteAutoUpgradeProfile(_ context.Context, name string, pre Precondition) error {
	return del(h.store, bucketProfiles, name, pre)
}

// GenerateUpdateRun creates, without starting it, the run the profile's
// channel calls for now: a full upgrade to the channel's target version, or
// a node-image upgrade for the NodeImage channel.
func (h *Hub) GenerateUpdateRun(ctx context.Context, profile string) (string, error) {
	p, err := h.GetAutoUpgradeProfile(ctx, profile)
	if err != nil {
		return "", err
	}
	f, err := h.Fleet(ctx)
	if err != nil {
		return "", err
	}
	now := h.Now()
	mcu := update.ManagedClusterUpdate{NodeImageSelection: update.NodeImageSelection{Type: p.Spec.NodeImageSelectionType}}
	target, ok, err := update.ChannelTarget(p.Spec.Channel, p.Spec.TargetKubernetesVersion, update.GAVersions(f.Regions, now))
	if err != nil {
		return "", fmt.Errorf("auto-upgrade profile %s: %w", profile, err)
	}
	if ok {
		mcu.Upgrade = update.Upgrade{Type: update.UpgradeFull, KubernetesVersion: target.String()}
	} else {
		mcu.Upgrade = update.Upgrade{Type: update.UpgradeNodeImageOnly}
	}
	if mcu.NodeImageSelection.Type == "" {
		mcu.NodeImageSelection.Type = update.NodeImageLatest
	}
	run := hub.UpdateRun{Spec: update.RunSpec{UpdateStrategyID: p.Spec.UpdateStrategyID, ManagedClusterUpdate: mcu}}
	// Every call creates a new run, as the service does. Runs are named
	// after the instant, and a fixed or fast clock gives several calls the
	// same one: those get a counter.
	base := fmt.Sprintf("%s-%s", profile, now.UTC().Format("20060102-150405"))
	for n := 1; ; n++ {
		run.Name = base
		if n > 1 {
			run.Name = fmt.Sprintf("%s-%d", base, n)
		}
		_, err = h.PutUpdateRun(ctx, run, Precondition{IfNoneMatch: true})
		if !errors.Is(err, ErrPreconditionFailed) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	return run.Name, nil
}
