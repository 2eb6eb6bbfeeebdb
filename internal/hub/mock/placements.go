package mock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Condition types and reasons of a ClusterResourcePlacement's scheduling.
const (
	ConditionScheduled   = "ClusterResourcePlacementScheduled"
	ReasonFulfilled      = "SchedulingPolicyFulfilled"
	ReasonUnfulfilled    = "SchedulingPolicyUnfulfilled"
	conditionStatusTrue  = "True"
	conditionStatusFalse = "False"
)

// GetPlacement returns a placement with the decisions the Fleet scheduler
// holds now. The real scheduler reacts to member-cluster changes; the mock
// catches up lazily: when the fleet changed since the decisions were made, it
// re-runs the scheduler for the unchanged policy (held clusters stay, PickAll
// takes new eligible clusters, PickN replaces departed ones) and records the
// result.
func (h *Hub) GetPlacement(ctx context.Context, name string) (*hub.Placement, error) {
	f, fp, err := h.scheduledFleet(ctx)
	if err != nil {
		return nil, err
	}
	now := h.Now()
	p, err := get[hub.Placement](h.store, bucketPlacements, name)
	if err != nil {
		return nil, err
	}
	if p.Status.ObservedFleet == fp {
		return p, nil
	}
	status, err := schedule(p.Spec, p, f, fp, now)
	if err != nil {
		return nil, err
	}
	err = h.store.Update(func(tx *bolt.Tx) error {
		cur, err := loadTx[hub.Placement](tx, bucketPlacements, name)
		if err != nil {
			return err
		}
		if cur.ETag != p.ETag { // changed meanwhile: the writer already scheduled
			p = cur
			return nil
		}
		p.Status = withConditions(status, p.Status, p.Generation, now)
		return saveTx[hub.Placement](tx, bucketPlacements, name, p, Precondition{}, now, false)
	})
	return p, err
}

// ApplyPlacement stores the placement and runs the scheduler with sticky
// semantics against its current decisions.
func (h *Hub) ApplyPlacement(ctx context.Context, p hub.Placement, pre Precondition) (*hub.Placement, error) {
	if err := checkName(p.Name); err != nil {
		return nil, err
	}
	f, fp, err := h.scheduledFleet(ctx)
	if err != nil {
		return nil, err
	}
	now := h.Now()
	err = h.store.Update(func(tx *bolt.Tx) error {
		old, err := loadTx[hub.Placement](tx, bucketPlacements, p.Name)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		status, err := schedule(p.Spec, old, f, fp, now)
		if err != nil {
			return err
		}
		var prevStatus hub.PlacementStatus
		if old != nil {
			prevStatus = old.Status
		}
		p.Status = status
		if err := saveTx[hub.Placement](tx, bucketPlacements, p.Name, &p, pre, now, true); err != nil {
			return err
		}
		p.Status = withConditions(status, prevStatus, p.Generation, now)
		return saveTx[hub.Placement](tx, bucketPlacements, p.Name, &p, Precondition{}, now, false)
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// DeletePlacement removes a placement and its decisions.
func (h *Hub) DeletePlacement(_ context.Context, name string, pre Precondition) error {
	return del(h.store, bucketPlacements, name, pre)
}

// schedule runs the engine for spec, holding what old holds.
func schedule(spec placement.Spec, old *hub.Placement, f *fleet.Fleet, fp string, now time.Time) (hub.PlacementStatus, error) {
	var held []string
	var opts placement.ScheduleOptions
	if old != nil {
		held = old.Status.Selected
		prev := old.Spec
		prev.Policy = old.Status.Policy
		opts.Prev = &prev
	}
	res, err := placement.Schedule(spec, f, held, now, opts)
	if err != nil {
		return hub.PlacementStatus{}, err
	}
	return hub.PlacementStatus{
		ObservedFleet: fp,
		Selected:      res.Selected,
		Decisions:     res.Decisions,
		Requested:     res.Requested,
		Fulfilled:     res.Fulfilled,
		Message:       res.UnfulfilledMessage,
		Policy:        spec.Policy,
	}, nil
}

// fleetFingerprint digests what scheduling depends on: each member's labels,
// taints, properties, resource usage and eligibility.
func fleetFingerprint(f *fleet.Fleet, now time.Time) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for i := range f.Clusters {
		c := &f.Clusters[i]
		_ = enc.Encode([]any{c.Name, c.Labels, c.Taints, c.Properties, c.Usage, fleet.CheckEligibility(c, now).Eligible})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// withConditions sets the Scheduled condition, keeping its transition time while its status is unchanged.
func withConditions(s, prev hub.PlacementStatus, generation int64, now time.Time) hub.PlacementStatus {
	s.ObservedGeneration = generation
	c := hub.Condition{Type: ConditionScheduled, Status: conditionStatusTrue, Reason: ReasonFulfilled, LastTransitionTime: now,
		Message: "found all cluster needed as specified by the scheduling policy"}
	if !s.Fulfilled {
		c.Status, c.Reason, c.Message = conditionStatusFalse, ReasonUnfulfilled, s.Message
	}
	for _, pc := range prev.Conditions {
		if pc.Type == c.Type && pc.Status == c.Status {
			c.LastTransitionTime = pc.LastTransitionTime
		}
	}
	s.Conditions = []hub.Condition{c}
	return s
}
