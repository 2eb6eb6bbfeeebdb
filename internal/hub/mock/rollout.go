package mock

import (
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// The rollout of a placement's resources on the mock hub (designs/placement.md
// §10): no daemon, like update runs — each write and read brings the rollout
// to the hub's now (placement.AdvanceRollout) and stores where it got.

// rollOut brings the rollout of st to now and sets the status it reports
// (st.Rollout is the previous state); fresh: the placement is new.
func rollOut(name string, spec placement.Spec, st *store.PlacementStatus, fresh bool, f *fleet.Fleet, now time.Time) rolloutConditions {
	step := placement.AdvanceRollout(name, spec, st.Rollout, fresh, st.Selected, st.Decisions, f, now)
	st.Rollout = &step.State
	st.Clusters = step.Status.Clusters
	st.SelectedResources = step.Selection.Resources
	st.RolloutNote = placement.RolloutNote(step.Plan, now)
	return rolloutConditions{conditions: step.Status.Conditions, invalid: step.Selection.Error}
}

// rolloutConditions are the placement's conditions that follow its
// Scheduled one, and why Fleet refuses its selectors (nil: it does not).
type rolloutConditions struct {
	conditions []placement.Condition
	invalid    *field.Error
}
