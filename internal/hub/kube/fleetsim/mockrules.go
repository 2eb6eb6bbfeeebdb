package fleetsim

import (
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// The rules below are the mock hub's (internal/hub/mock/placements.go), so
// that the fixture decides and reports exactly as the mock does. They are
// private copies until both share them.

// scheduledCondition is the placement's Scheduled condition after a cycle
// (the mock's withConditions): True and ReasonFulfilled, or False,
// ReasonUnfulfilled and the cycle's message; its transition time is now
// unless a previous condition of the type had the same status.
func scheduledCondition(fulfilled bool, message string, prev []kube.Condition, now time.Time) kube.Condition {
	c := kube.Condition{Type: kube.ConditionScheduled, Status: kube.ConditionStatusTrue, Reason: kube.ReasonFulfilled,
		Message: placement.FulfilledMessage, LastTransitionTime: now}
	if !fulfilled {
		c.Status, c.Reason, c.Message = kube.ConditionStatusFalse, kube.ReasonUnfulfilled, message
	}
	for _, pc := range prev {
		if pc.Type == c.Type && pc.Status == c.Status {
			c.LastTransitionTime = pc.LastTransitionTime
		}
	}
	return c
}
