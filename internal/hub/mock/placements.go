package mock

import (
	"context"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// Condition types and reasons of a ClusterResourcePlacement's scheduling.
const (
	ConditionScheduled   = placement.CondScheduled
	ReasonFulfilled      = placement.ReasonFulfilled
	ReasonUnfulfilled    = placement.ReasonUnfulfilled
	conditionStatusTrue  = placement.StatusTrue
	conditionStatusFalse = placement.StatusFalse
)

// GetPlacement returns a placement with the decisions the Fleet scheduler
// holds now. The real scheduler reacts to member-cluster changes; the mock
// catches up lazily: when the fleet changed since the decisions were stored,
// it re-runs the scheduler for the unchanged policy (held clusters stay,
// PickAll takes new eligible clusters, PickN replaces departed ones), and
// brings the rollout to now. A read stores none of it (reads are reads):
// both follow from what is stored and the fleet, and the placement's next
// write stores them.
func (h *Hub) GetPlacement(ctx context.Context, name string) (*hub.Placement, error) {
	f, fp, err := h.scheduledFleet(ctx)
	if err != nil {
		return nil, err
	}
	p, rec, err := store.LoadPlacement(h.store, name)
	if err != nil {
		return nil, err
	}
	if p.Status, err = caughtUp(name, p, rec, f, fp, h.Now()); err != nil {
		return nil, err
	}
	return placementObject(p, rec.Meta(name)), nil
}

// caughtUp is the status of the stored placement p at now, its spec
// unchanged: rescheduled when the fleet changed, its rollout brought to now.
func caughtUp(name string, p *store.Placement, rec store.Record, f *fleet.Fleet, fp string, now time.Time) (store.PlacementStatus, error) {
	status := p.Status
	if p.Status.ObservedFleet != fp {
		var err error
		if status, err = schedule(p.Spec, p, f, fp, now); err != nil {
			return store.PlacementStatus{}, err
		}
		status.Rollout = p.Status.Rollout
	}
	rc := rollOut(name, p.Spec, &status, false, f, now)
	return withConditions(status, p.Status, rec.Generation, now, rc), nil
}

// ApplyPlacement stores the placement and runs the scheduler with sticky
// semantics against its current decisions.
func (h *Hub) ApplyPlacement(ctx context.Context, p hub.Placement, pre store.Precondition) (*hub.Placement, error) {
	if err := store.CheckName(p.Name); err != nil {
		return nil, err
	}
	f, fp, err := h.scheduledFleet(ctx)
	if err != nil {
		return nil, err
	}
	now := h.Now()
	r := &store.Placement{Spec: p.Spec}
	var rec store.Record
	err = h.store.Update(func(tx *bolt.Tx) error {
		old, oldRec, err := store.LoadTx[store.Placement](tx, store.BucketPlacements, p.Name)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := store.CheckPrecondition(pre, oldRec, old != nil); err != nil {
			return err
		}
		status, err := schedule(p.Spec, old, f, fp, now)
		if err != nil {
			return err
		}
		var prevStatus store.PlacementStatus
		if old != nil {
			// Where the stored placement is by now, under the spec it had: the
			// fleet's changes since count from when it changed; the write's
			// own, from now.
			if prevStatus, err = caughtUp(p.Name, old, oldRec, f, fp, now); err != nil {
				return err
			}
			status.Rollout = prevStatus.Rollout
		}
		rc := rollOut(p.Name, p.Spec, &status, old == nil, f, now)
		// The first write counts the generation the status then reports as observed.
		r.Status = status
		if rec, err = store.SaveTx(tx, store.BucketPlacements, p.Name, r, pre, now, true); err != nil {
			return err
		}
		r.Status = withConditions(status, prevStatus, rec.Generation, now, rc)
		rec, err = store.SaveTx(tx, store.BucketPlacements, p.Name, r, store.Precondition{}, now, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return placementObject(r, rec.Meta(p.Name)), nil
}

// DeletePlacement removes a placement and its decisions.
func (h *Hub) DeletePlacement(_ context.Context, name string, pre store.Precondition) error {
	return store.Delete(h.store, store.BucketPlacements, name, pre)
}

// schedule runs the engine for spec, holding what old holds with the scores
// recorded when each was picked (the scores of its selected decisions, as
// Fleet keeps them on its bindings).
func schedule(spec placement.Spec, old *store.Placement, f *fleet.Fleet, fp string, now time.Time) (store.PlacementStatus, error) {
	var held []string
	var opts placement.ScheduleOptions
	if old != nil {
		held = old.Status.Selected
		prev := old.Spec
		prev.Policy = old.Status.Policy
		opts.Prev = &prev
		opts.Recorded = placement.RecordedScores(old.Status.Decisions)
		opts.Scheduled = old.Status.Scheduled
	}
	res, err := placement.Schedule(spec, f, held, now, opts)
	if err != nil {
		return store.PlacementStatus{}, err
	}
	policy := spec.Policy
	if res.Unchanged && old != nil {
		// The cycle changed no binding (it fails, or PickFixed without names
		// skips it): the clusters held stay bound under the policy they were
		// scheduled with, so the next cycle still sees them as obsolete.
		policy = old.Status.Policy
	}
	return store.PlacementStatus{
		ObservedFleet: fp,
		Selected:      res.Selected,
		Decisions:     placement.StoredDecisions(res.Decisions),
		Scheduled:     placement.BindingStates(spec, held, opts.Scheduled, res),
		Requested:     res.Requested,
		Fulfilled:     res.Fulfilled,
		Message:       res.UnfulfilledMessage,
		Policy:        policy,
	}, nil
}

// withConditions sets the placement's conditions (placement.PlacementConditions).
func withConditions(s, prev store.PlacementStatus, generation int64, now time.Time, rc rolloutConditions) store.PlacementStatus {
	s.ObservedGeneration = generation
	var before []placement.Condition
	for _, c := range prev.Conditions {
		before = append(before, placement.Condition(c))
	}
	s.Conditions = nil
	for _, c := range placement.PlacementConditions(s.Fulfilled, s.Message, rc.invalid, rc.conditions, before, now) {
		s.Conditions = append(s.Conditions, store.Condition(c))
	}
	return s
}

// HubResources returns the hub cluster's kinds and objects the inventory
// describes (its hub_cluster section, inventory/hubcluster.go): all of them, as the
// selection reads only what its selectors reach.
func (h *Hub) HubResources(ctx context.Context, _ []placement.ResourceSelector) (fleet.HubResources, error) {
	f, err := h.Fleet(ctx)
	if err != nil {
		return fleet.HubResources{}, err
	}
	if n := len(f.Hub.Objects); n > hub.MaxHubObjects {
		return fleet.HubResources{}, fmt.Errorf("the hub cluster holds %d objects in the inventory, more than the %d a placement's selection reads", n, hub.MaxHubObjects)
	}
	return f.Hub, nil
}
