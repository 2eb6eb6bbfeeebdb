package placement

import (
	"reflect"
	"slices"

	"strings"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// The rollout of a resource change (designs/placement.md §10): how Fleet's
// rollout controller moves the bindings of a placement to the latest
// resource snapshot, batch by batch, as maxUnavailable and maxSurge allow.
// Pure: the bindings as they are now and the clock go in, the batches to
// come go out; a hub replays it to tell the progress at any later instant.

// Binding is one selected cluster's binding as the rollout controller sees it.
type Binding struct {
	Cluster string `json:"cluster"`
	// Index is the resource snapshot the binding carries; -1 for a binding
	// the scheduler created that the rollout has not bound yet (Scheduled).
	Index int `json:"resource_index"`
	// AppliedAt is when the member cluster applied Index (zero: not yet).
	AppliedAt time.Time `json:"applied_at"`
	// Failed tells that applying Index failed on the cluster.
	Failed bool `json:"failed,omitempty"`
	// Since is when the scheduler created the binding (its cluster's
	// Scheduled condition turned True).
	Since time.Time `json:"since,omitzero"`
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
	// LatestAt is when the latest snapshot was taken (RolloutStatus: since
	// when a cluster still on an older one has been held back).
	LatestAt time.Time
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
	// Failed are the clusters whose apply of the latest snapshot fails, sorted.
	Failed []string
	// Done is when the last cluster applied the latest snapshot (its last
	// batch);
	// zero when Blocked or External, or when nothing rolls.
	Done time.Time
}

// failedOf are the clusters of bs whose apply failed, sorted.
func failedOf(bs []Binding) []string {
	var out []string
	for _, b := range bs {
		if b.Failed {
			out = append(out, b.Cluster)
		}
	}
	slices.Sort(out)
	return out
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
	var update, bind []int // reused by every round
	for {
		var ready, canBeReady int
		update, bind = update[:0], bind[:0]
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
			out.Failed = failedOf(bs)
			return out
		}
		now = next
	}
	out.Failed = failedOf(bs)
	if len(out.Batches) > 0 && len(out.Failed) == 0 {
		out.Done = out.Batches[len(out.Batches)-1].At
	}
	return out
}

// RolloutState is a placement's rollout as a hub keeps it: the latest
// resource snapshot and each selected cluster's binding, as of At.
type RolloutState struct {
	// Index is the latest resource snapshot's index, Digest what its
	// resources say (Selection.Digest): a new digest is a new snapshot.
	// Untracked: Fleet cannot track the availability of one of them.
	Index     int       `json:"resource_index"`
	Digest    string    `json:"resource_digest"`
	Untracked bool      `json:"untracked"`
	Bindings  []Binding `json:"bindings"`
	// Policy and Strategy are the placement's as of At: the rollout since
	// then ran under them (a new strategy holds from its write on).
	Policy   *Policy   `json:"policy,omitempty"`
	Strategy *Strategy `json:"strategy,omitempty"`
	// IndexAt is when snapshot Index was taken; At is the instant the
	// bindings are as of.
	IndexAt time.Time `json:"index_at"`
	At      time.Time `json:"at"`
}

// RolledOut tells whether the rollout has nothing left to do for the
// resources as selected now (sel): every binding on the latest snapshot,
// none failed, the snapshot current.
func (s *RolloutState) RolledOut(sel Selection) bool {
	if s == nil || sel.Error == nil && sel.Digest != s.Digest {
		return false
	}
	return !slices.ContainsFunc(s.Bindings, func(b Binding) bool { return b.Index != s.Index || b.Failed })
}

// RolloutStep is a rollout brought to an instant: the state to keep, the
// status to report, what is left of it and the selection it rolls out.
type RolloutStep struct {
	State     RolloutState
	Status    PlacementRolloutStatus
	Plan      RolloutPlan
	Selection Selection
}

// PlacementFailures are the clusters a fleet makes fail to apply what
// placements roll out (fleet.Failures.Placement), with the message.
func PlacementFailures(f *fleet.Fleet) map[string]string {
	out := map[string]string{}
	for _, c := range f.Clusters {
		if c.Failures.Placement != "" {
			out[c.Name] = c.Failures.Placement
		}
	}
	return out
}

// AdvanceRollout brings the rollout of the placement name (spec, with the
// clusters selected and the scheduler's decisions) from prev to now, as
// Fleet's controllers would have moved it meanwhile: it replays the batches
// due since prev.At, takes the clusters selected now (a new one unbound, a
// released one gone), starts a new resource snapshot when the resources
// selected on the fleet's hub cluster say something else, lets a cluster
// whose injected failure is gone apply again, and plays the batches due at
// once. Without prev (nil) the clusters selected start on snapshot 0:
// unbound when fresh (a new placement), applied long ago when not (a
// placement a hub kept before it kept rollouts).
func AdvanceRollout(name string, spec Spec, prev *RolloutState, fresh bool, selected []string, decisions []Decision, f *fleet.Fleet, now time.Time) RolloutStep {
	sel := SelectResources(spec.ResourceSelectors, f.Hub)
	failing := PlacementFailures(f)
	var st RolloutState
	if prev != nil {
		st = *prev
		st.Bindings = slices.Clone(prev.Bindings)
	} else {
		st = RolloutState{Digest: sel.Digest, Untracked: Untracked(sel), At: now, IndexAt: now}
		for _, c := range selected {
			b := Binding{Cluster: c, Index: -1, Since: now}
			if !fresh {
				b.Index, b.AppliedAt, b.Since = 0, time.Unix(0, 0).UTC(), time.Unix(0, 0).UTC()
			}
			st.Bindings = append(st.Bindings, b)
		}
	}
	in := RolloutInput{Spec: spec, Latest: st.Index, Failing: failing, Untracked: st.Untracked}
	// The fleet's changes since prev (clusters selected, resources, failures)
	// happened when it changed, where its hub knows that, else now: a read
	// that stores nothing sees them at the same instant as the next.
	changed := now
	if at := f.ChangedAt; !at.IsZero() && at.Before(now) {
		changed = at
		if st.At.After(changed) {
			changed = st.At
		}
	}
	// play replays from the instant from, applies the batches due by until
	// and returns what is left.
	play := func(from, until time.Time) RolloutPlan {
		in.Bindings, in.Now = st.Bindings, from
		plan := PlanRollout(in)
		left := plan
		left.Batches = nil
		at := make(map[string]int, len(st.Bindings))
		for i, b := range st.Bindings {
			at[b.Cluster] = i
		}
		for _, b := range plan.Batches {
			if b.At.After(until) {
				left.Batches = append(left.Batches, b)
				continue
			}
			for _, c := range b.Clusters {
				i := at[c]
				_, failed := failing[c]
				st.Bindings[i].Index, st.Bindings[i].AppliedAt, st.Bindings[i].Failed = st.Index, b.At, failed
			}
		}
		return left
	}
	if st.At.Before(changed) {
		if st.Strategy != nil && st.Policy != nil { // replayed under the spec it ran under
			in.Spec = Spec{Policy: *st.Policy, Strategy: *st.Strategy}
		}
		play(st.At, changed)
		in.Spec = spec
	}
	st.Policy, st.Strategy = &spec.Policy, &spec.Strategy
	st.Bindings = selectedBindings(st.Bindings, selected, changed)
	if sel.Error == nil && sel.Digest != st.Digest {
		st.Index, st.Digest, st.Untracked, st.IndexAt = st.Index+1, sel.Digest, Untracked(sel), changed
		in.Latest, in.Untracked = st.Index, st.Untracked
	}
	for i, b := range st.Bindings { // a failure no longer injected: it applies again
		if _, still := failing[b.Cluster]; b.Failed && !still {
			st.Bindings[i].Failed, st.Bindings[i].AppliedAt = false, changed
		}
	}
	plan := play(changed, now)
	st.At = now
	in.Bindings, in.Now, in.LatestAt = st.Bindings, now, st.IndexAt
	return RolloutStep{State: st, Plan: plan, Selection: sel, Status: RolloutStatus(name, in, plan, decisions, sel)}
}

// selectedBindings are the bindings of the clusters selected: a cluster
// held keeps its binding, a new one is unbound, a released one's is gone;
// by cluster name.
func selectedBindings(bindings []Binding, selected []string, now time.Time) []Binding {
	held, want := map[string]bool{}, make(map[string]bool, len(selected))
	for _, c := range selected {
		want[c] = true
	}
	out := slices.DeleteFunc(slices.Clone(bindings), func(b Binding) bool {
		held[b.Cluster] = true
		return !want[b.Cluster]
	})
	for _, c := range selected {
		if !held[c] {
			out = append(out, Binding{Cluster: c, Index: -1, Since: now})
		}
	}
	slices.SortFunc(out, func(a, b Binding) int { return strings.Compare(a.Cluster, b.Cluster) })
	return out
}

// NextRollout is the rollout a write of spec at now starts (the preview of
// a change, designs/placement.md §10): from the bindings the hub reports
// (st; every cluster on st.Index when the hub keeps no more), for the
// clusters the write selects, on a new resource snapshot when changes (the
// resources selected, sel, say something else). Failing are the clusters
// known to fail to apply.
func NextRollout(spec Spec, st RolloutState, selected []string, changes bool, sel Selection, failing map[string]string, now time.Time) RolloutPlan {
	in := RolloutInput{Spec: spec, Latest: st.Index, Bindings: selectedBindings(st.Bindings, selected, now), Failing: failing,
		Untracked: st.Untracked, Now: now}
	switch {
	case changes:
		in.Latest, in.Untracked = st.Index+1, Untracked(sel)
	case len(st.Bindings) == 0: // a new placement: its first snapshot is sel
		in.Untracked = Untracked(sel)
	}
	return PlanRollout(in)
}

// Moved tells whether the rollout state s differs from prev in more than
// the instant it is as of: a hub keeps s only then (replaying from prev.At
// gives the same).
func (s RolloutState) Moved(prev *RolloutState) bool {
	if prev == nil {
		return true
	}
	return s.Index != prev.Index || s.Digest != prev.Digest || s.Untracked != prev.Untracked || !s.IndexAt.Equal(prev.IndexAt) ||
		!reflect.DeepEqual(s.Policy, prev.Policy) || !reflect.DeepEqual(s.Strategy, prev.Strategy) ||
		!slices.EqualFunc(s.Bindings, prev.Bindings, func(a, b Binding) bool {
			return a.Cluster == b.Cluster && a.Index == b.Index && a.AppliedAt.Equal(b.AppliedAt) && a.Failed == b.Failed && a.Since.Equal(b.Since)
		})
}
