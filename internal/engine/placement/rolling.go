package placement

import (
	"slices"
	"strings"
	"time"
)

// The rollout of a resource change (designs/placement.md §10): how Fleet's
// rollout controller moves the bindings of a placement to the latest
// resource snapshot, batch by batch, as maxUnavailable and maxSurge allow.
// Pure: the bindings as they are now and the clock go in, the batches to
// come go out; a hub replays it to tell the progress at any later instant.

// Binding is one selected cluster's binding as the rollout controller sees it.
type Binding struct {
	Cluster string
	// Index is the resource snapshot the binding carries; -1 for a binding
	// the scheduler created that the rollout has not bound yet (Scheduled).
	Index int
	// AppliedAt is when the member cluster applied Index (zero: not yet).
	AppliedAt time.Time
	// Failed tells that applying Index failed on the cluster.
	Failed bool
}

// RolloutInput is what the rollout controller decides from.
type RolloutInput struct {
	Spec Spec
	// Latest is the latest resource snapshot's index.
	Latest int
	// Bindings are the bindings of the clusters the scheduler selected.
	Bindings []Binding
	// Failing are the member clusters on which applying fails (the mock
	// inventory's apply_fails), each with the reason.
	Failing map[string]string
	// Untracked tells that a selected resource is of a kind whose
	// availability Fleet cannot track: a cluster then counts as available
	// unavailable_period_seconds after it applied (WorkNotTrackable).
	Untracked bool
	Now       time.Time
}

// RolloutBatch is the bindings one reconcile of the rollout controller moves
// to the latest snapshot, at one instant.
type RolloutBatch struct {
	At       time.Time
	Clusters []string
	// Failed are the clusters of the batch whose apply fails.
	Failed []string
}

// RolloutPlan is the rollout from now on: its batches in order, and the
// bindings it cannot reach.
type RolloutPlan struct {
	Target         int
	MaxUnavailable int
	MaxSurge       int
	Batches        []RolloutBatch
	// Blocked are the clusters still on an older snapshot when the rollout
	// can go no further: the failed clusters keep more than max_unavailable
	// bindings unavailable. Sorted.
	Blocked []string
	// External tells that the strategy is External: nothing rolls until an
	// external rollout does.
	External bool
	// Done is when the last cluster is available on the latest snapshot;
	// zero when Blocked or External, or when nothing rolls.
	Done time.Time
}

// rolloutTarget is the number of clusters the rollout aims at, as Fleet's
// calculateRealTarget: numberOfClusters for PickN, the names for PickFixed,
// and the bindings the scheduler targets for PickAll.
func rolloutTarget(p Policy, bindings int) int {
	switch p.PlacementType {
	case PickN:
		if p.NumberOfClusters != nil {
			return *p.NumberOfClusters
		}
	case PickFixed:
		return len(p.ClusterNames)
	}
	return bindings
}

// PlanRollout replays Fleet's rollout controller from in.Now until every
// binding carries the latest snapshot or none can move. Each reconcile:
//
//   - a Bound binding is ready when it carries a snapshot whose apply did
//     not fail and it is available: at once when it applied, or
//     unavailable_period_seconds after when a resource is Untracked;
//   - bindings on an older snapshot are updated, by cluster name, at most
//     len(ready) − (target − maxUnavailable) of them (calculateMaxToRemove);
//     an update makes the binding unavailable until the cluster applies it;
//   - Scheduled bindings are bound, at most target + maxSurge − the bindings
//     that can be ready (calculateMaxToAdd);
//   - the next reconcile is when the next updated binding becomes ready.
//
// The member clusters apply at the instant they are updated (the mock's
// agents answer at once).
func PlanRollout(in RolloutInput) RolloutPlan {
	spec := WithDefaults(in.Spec)
	bs := slices.Clone(in.Bindings)
	slices.SortFunc(bs, func(a, b Binding) int { return strings.Compare(a.Cluster, b.Cluster) })
	target := rolloutTarget(spec.Policy, len(bs))
	r := ResolveRollout(spec.Strategy, target)
	out := RolloutPlan{Target: target, MaxUnavailable: r.MaxUnavailable, MaxSurge: r.MaxSurge}
	if r.Type == ExternalStrategy {
		out.External = true
		return out
	}
	wait := time.Duration(0)
	if in.Untracked {
		wait = time.Duration(r.UnavailablePeriodSeconds) * time.Second
	}
	readyAt := func(b Binding) time.Time { return b.AppliedAt.Add(wait) }
	minAvailable := target - r.MaxUnavailable
	now := in.Now
	for {
		var ready, canBeReady int
		var update, bind []int
		for i, b := range bs {
			switch {
			case b.Index < 0:
				bind = append(bind, i)
				continue
			case b.Failed:
			default:
				canBeReady++
				if !b.AppliedAt.IsZero() && !readyAt(b).After(now) {
					ready++
				}
			}
			if b.Index < in.Latest {
				update = append(update, i)
			}
		}
		if len(update) == 0 && len(bind) == 0 {
			break
		}
		batch := RolloutBatch{At: now}
		move := func(i int) {
			b := &bs[i]
			b.Index, b.AppliedAt = in.Latest, now
			_, b.Failed = in.Failing[b.Cluster]
			batch.Clusters = append(batch.Clusters, b.Cluster)
			if b.Failed {
				batch.Failed = append(batch.Failed, b.Cluster)
			}
		}
		// A binding whose apply failed is updated whatever the budget: it is
		// unavailable already.
		var held []int
		for _, i := range update {
			if bs[i].Failed {
				move(i)
			} else {
				held = append(held, i)
			}
		}
		for n := ready - minAvailable; n > 0 && len(held) > 0; n-- {
			move(held[0])
			held = held[1:]
		}
		for n := target + r.MaxSurge - canBeReady; n > 0 && len(bind) > 0; n-- {
			move(bind[0])
			bind = bind[1:]
		}
		if len(batch.Clusters) > 0 {
			out.Batches = append(out.Batches, batch)
			continue // the controller requeues at once: what it updated may be ready now
		}
		// Nothing could move: wait for the next binding to become ready.
		var next time.Time
		for _, b := range bs {
			if b.Index >= 0 && !b.Failed && !b.AppliedAt.IsZero() {
				if t := readyAt(b); t.After(now) && (next.IsZero() || t.Before(next)) {
					next = t
				}
			}
		}
		if next.IsZero() {
			for _, i := range append(held, bind...) {
				out.Blocked = append(out.Blocked, bs[i].Cluster)
			}
			slices.Sort(out.Blocked)
			return out
		}
		now = next
	}
	if len(out.Batches) == 0 || slices.ContainsFunc(bs, func(b Binding) bool { return b.Failed }) {
		return out
	}
	for _, b := range bs {
		if readyAt(b).After(out.Done) {
			out.Done = readyAt(b)
		}
	}
	return out
}
