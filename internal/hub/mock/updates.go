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
	return get[hub.UpdateStrategy](h.store, bucketStrategies, name)
}

// PutUpdateStrategy creates or replaces an update strategy.
func (h *Hub) PutUpdateStrategy(_ context.Context, s hub.UpdateStrategy, pre Precondition) (*hub.UpdateStrategy, error) {
	return put[hub.UpdateStrategy](h.store, bucketStrategies, s.Name, &s, pre, h.Now())
}

// DeleteUpdateStrategy removes an update strategy. Runs keep the copy they made.
func (h *Hub) DeleteUpdateStrategy(_ context.Context, name string, pre Precondition) error {
	return del(h.store, bucketStrategies, name, pre)
}

// runEvent is one action on a run. A run's progress is a function of its
// events and the clock, so it advances between commands without a daemon.
type runEvent struct {
	Action  string              `json:"action"` // start, stop, skip
	At      time.Time           `json:"at"`
	Targets []update.SkipTarget `json:"targets,omitempty"`
}

type runEvents struct {
	hub.Meta
	Events []runEvent
}

// strategyName accepts a strategy name or its ARM id (…/updateStrategies/<name>).
func strategyName(id string) string { return id[strings.LastIndex(id, "/")+1:] }

// GetUpdateRun reads an update run.
func (h *Hub) GetUpdateRun(_ context.Context, name string) (*hub.UpdateRun, error) {
	return get[hub.UpdateRun](h.store, bucketRuns, name)
}

// PutUpdateRun creates a run (NotStarted) or changes one that has not started.
// A referenced strategy is copied into the run when the run is created.
func (h *Hub) PutUpdateRun(_ context.Context, r hub.UpdateRun, pre Precondition) (*hub.UpdateRun, error) {
	if err := checkName(r.Name); err != nil {
		return nil, err
	}
	now := h.Now()
	err := h.store.Update(func(tx *bolt.Tx) error {
		old, err := loadTx[hub.UpdateRun](tx, bucketRuns, r.Name)
		switch {
		case err == nil && old.Status.State != update.StateNotStarted:
			return &hub.ConflictError{Object: "update run " + r.Name, Reason: fmt.Sprintf("the run is %s; only a NotStarted run can be changed", old.Status.State)}
		case err != nil && !errors.Is(err, ErrNotFound):
			return err
		}
		switch {
		case r.Spec.UpdateStrategyID != "" && r.Spec.Strategy != nil:
			return fmt.Errorf("update run %s: set either an update strategy id or an inline strategy, not both", r.Name)
		case r.Spec.UpdateStrategyID != "":
			s, err := loadTx[hub.UpdateStrategy](tx, bucketStrategies, strategyName(r.Spec.UpdateStrategyID))
			if err != nil {
				return fmt.Errorf("update run %s: update strategy %q: %w", r.Name, r.Spec.UpdateStrategyID, err)
			}
			r.ResolvedStrategy = &s.Spec
		default:
			r.ResolvedStrategy = r.Spec.Strategy
		}
		r.Status = update.RunStatus{State: update.StateNotStarted}
		return saveTx[hub.UpdateRun](tx, bucketRuns, r.Name, &r, pre, now, true)
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
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

// Which states an action may start from (updates.md §4).
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
	var run *hub.UpdateRun
	err := h.store.Update(func(tx *bolt.Tx) error {
		var err error
		if run, err = loadTx[hub.UpdateRun](tx, bucketRuns, name); err != nil {
			return err
		}
		if pre.IfMatch != "" && pre.IfMatch != run.ETag {
			return ErrPreconditionFailed
		}
		allowed := false
		for _, s := range actionFrom[ev.Action] {
			allowed = allowed || run.Status.State == s
		}
		if !allowed {
			return &hub.ConflictError{Object: "update run " + name, Reason: fmt.Sprintf("cannot %s a run that is %s", ev.Action, run.Status.State)}
		}
		events, err := loadTx[runEvents](tx, bucketRunEvents, name)
		if errors.Is(err, ErrNotFound) {
			events, err = &runEvents{}, nil
		}
		if err != nil {
			return err
		}
		events.Events = append(events.Events, ev)
		if err := saveTx[runEvents](tx, bucketRunEvents, name, events, Precondition{}, now, true); err != nil {
			return err
		}
		apply(&run.Status, now)
		return saveTx[hub.UpdateRun](tx, bucketRuns, name, run, Precondition{}, now, false)
	})
	return run, err
}

// GetAutoUpgradeProfile reads an auto-upgrade profile.
func (h *Hub) GetAutoUpgradeProfile(_ context.Context, name string) (*hub.AutoUpgradeProfile, error) {
	return get[hub.AutoUpgradeProfile](h.store, bucketProfiles, name)
}

// PutAutoUpgradeProfile creates or replaces an auto-upgrade profile, keeping its trigger history.
func (h *Hub) PutAutoUpgradeProfile(_ context.Context, p hub.AutoUpgradeProfile, pre Precondition) (*hub.AutoUpgradeProfile, error) {
	if err := checkName(p.Name); err != nil {
		return nil, err
	}
	now := h.Now()
	err := h.store.Update(func(tx *bolt.Tx) error {
		old, err := loadTx[hub.AutoUpgradeProfile](tx, bucketProfiles, p.Name)
		switch {
		case err == nil:
			p.Status = old.Status
		case !errors.Is(err, ErrNotFound):
			return err
		default:
			p.Status = update.ProfileStatus{}
		}
		return saveTx[hub.AutoUpgradeProfile](tx, bucketProfiles, p.Name, &p, pre, now, true)
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
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
	name := fmt.Sprintf("%s-%s", profile, now.UTC().Format("20060102-150405"))
	_, err = h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: update.RunSpec{UpdateStrategyID: p.Spec.UpdateStrategyID, ManagedClusterUpdate: mcu}}, Precondition{IfNoneMatch: true})
	if err != nil {
		return "", err
	}
	return name, nil
}
