package update

import (
	"slices"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// The order in which a group's members are reached: maintenance-window
// priority, then name (designs/updates.md §3, designs/maintenance.md §2).

// priorityAt is the member's maintenance-window priority at t, cached while it cannot change.
func (k *track) priorityAt(t time.Time) int {
	if k.prioUntil.After(t) {
		return k.priority
	}
	w := k.m.Window
	if w == nil {
		k.priority, k.prioUntil = fleet.PriorityNoWindow, t.Add(horizon)
		return k.priority
	}
	ws := w.At(t)
	switch {
	case ws.Open:
		k.priority, k.prioUntil = fleet.PriorityOpen, ws.ClosesAt
	case ws.HasNext && !ws.NextOpening.After(t.Add(fleet.OpensSoon)):
		k.priority, k.prioUntil = fleet.PriorityOpensSoon, ws.NextOpening
	case ws.HasNext:
		k.priority, k.prioUntil = fleet.PriorityClosed, ws.NextOpening.Add(-fleet.OpensSoon)
	default:
		k.priority, k.prioUntil = fleet.PriorityClosed, t.Add(horizon)
	}
	return k.priority
}

// pick takes the group's next member at t: maintenance-window priority, then name.
func pick(g *groupTrack, t time.Time) *track {
	best := -1
	for i, k := range g.queue {
		if best < 0 {
			best = i
			continue
		}
		b := g.queue[best]
		pk, pb := k.priorityAt(t), b.priorityAt(t)
		if pk < pb || (pk == pb && k.m.Name < b.m.Name) {
			best = i
		}
	}
	k := g.queue[best]
	g.queue = slices.Delete(g.queue, best, best+1)
	return k
}
