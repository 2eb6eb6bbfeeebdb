package fleetsim

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// PlacementFinalizer is the finalizer Fleet puts on every placement it
// schedules: it holds a deleted placement until its bindings and policy
// snapshots are deleted.
const PlacementFinalizer = "kubernetes-fleet.io/crp-cleanup"

// ObservedFleetAnnotation is the fixture's own annotation on a policy
// snapshot: the fingerprint of the fleet its decisions were made on (the
// mock hub's ObservedFleet). A placement is scheduled again when the fleet
// it was scheduled on changed.
const ObservedFleetAnnotation = "fleetsim.fleetform.github.io/observed-fleet"

// retryDelay is how long the scheduler waits before it lists again after
// the watch failed or a placement could not be scheduled.
const retryDelay = 100 * time.Millisecond

// scheduler is Fleet's scheduler on the hub cluster: a goroutine that
// watches ClusterResourcePlacements and reconciles each that needs it.
type scheduler struct {
	sim     *Sim
	cluster *kubetest.Cluster
	cancel  context.CancelFunc
	done    chan struct{}

	// mu serializes reconciliations: the watch's and the hub syncs'.
	mu sync.Mutex
	// refused are the generations of placements the engine refused, which
	// are not tried again (a new generation is).
	refused map[string]int64
	// rolling are the placements whose rollout has batches to come: Fleet's
	// rollout controller requeues them, the ticker brings them to the hub's now.
	rolling map[string]bool
	ticked  chan struct{}
}

// rolloutTick is how often the rollout controller looks at the rollouts
// that have batches to come (real time; the hub's clock may run faster).
const rolloutTick = 200 * time.Millisecond

func startScheduler(s *Sim, c *kubetest.Cluster) *scheduler {
	ctx, cancel := context.WithCancel(context.Background())
	sc := &scheduler{sim: s, cluster: c, cancel: cancel, done: make(chan struct{}), refused: map[string]int64{},
		rolling: map[string]bool{}, ticked: make(chan struct{})}
	go sc.run(ctx)
	go sc.tick(ctx)
	return sc
}

func (sc *scheduler) stop() {
	sc.cancel()
	<-sc.done
	<-sc.ticked
}

// tick brings the rollouts with batches to come to the hub's now, as Fleet's
// rollout controller requeues a placement until its rollout is done.
func (sc *scheduler) tick(ctx context.Context) {
	defer close(sc.ticked)
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(rolloutTick):
		}
		sc.mu.Lock()
		any := len(sc.rolling) > 0
		sc.mu.Unlock()
		if any {
			if err := sc.rollOutAll(ctx); err != nil && ctx.Err() == nil {
				sc.sim.logf("fleetsim: rollout: %v", err)
			}
		}
	}
}

func (sc *scheduler) placements() dynamic.ResourceInterface {
	return sc.cluster.Dynamic.Resource(kube.PlacementGVR)
}

// run lists and watches placements until stopped, listing again whenever
// the watch ends or a reconciliation fails.
func (sc *scheduler) run(ctx context.Context) {
	defer close(sc.done)
	for ctx.Err() == nil {
		err := sc.listAndWatch(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			sc.sim.logf("fleetsim: scheduler: %v (listing again)", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(retryDelay):
		}
	}
}

func (sc *scheduler) listAndWatch(ctx context.Context) error {
	list, err := sc.placements().List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("listing placements: %w", err)
	}
	for i := range list.Items {
		if err := sc.reconcile(ctx, &list.Items[i], false); err != nil {
			return err
		}
	}
	w, err := sc.placements().Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		return fmt.Errorf("watching placements: %w", err)
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		switch ev.Type {
		case watch.Added, watch.Modified:
			if obj, ok := ev.Object.(*unstructured.Unstructured); ok {
				if err := sc.reconcile(ctx, obj, false); err != nil {
					return err
				}
			}
		case watch.Error:
			return fmt.Errorf("watching placements: %w", apierrors.FromObject(ev.Object))
		}
	}
	return nil
}

// rescheduleAll schedules again every placement scheduled on another state
// of the fleet (as the mock hub does when it reads one).
func (s *Sim) rescheduleAll(ctx context.Context, c *kubetest.Cluster) error {
	sc := s.sched
	if sc == nil { // the hub's first sync: the scheduler starts after it
		sc = &scheduler{sim: s, cluster: c, refused: map[string]int64{}}
	}
	list, err := sc.placements().List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("fleetsim: listing placements: %w", err)
	}
	for i := range list.Items {
		if err := sc.reconcile(ctx, &list.Items[i], true); err != nil {
			return fmt.Errorf("fleetsim: %w", err)
		}
	}
	return nil
}

// needsScheduling tells whether Fleet would act on the placement obj: it is
// being deleted and still has the finalizer, it has no finalizer yet, or its
// generation is newer than the one its Scheduled condition observes (and
// not one the engine refused).
func (sc *scheduler) needsScheduling(obj *unstructured.Unstructured) bool {
	held := slices.Contains(obj.GetFinalizers(), PlacementFinalizer)
	switch {
	case obj.GetDeletionTimestamp() != nil:
		return held
	case !held:
		return true
	}
	st, err := kube.PlacementStatusFrom(obj)
	if err != nil {
		return true
	}
	refused, ok := sc.refused[obj.GetName()]
	return obj.GetGeneration() > st.ObservedGeneration && (!ok || refused != obj.GetGeneration())
}

// reconcile acts on the placement obj as Fleet does when it needs it, and
// with fleetChanged also when the fleet it was scheduled on has changed.
// obj may be out of date: the placement is read again before anything is
// decided.
func (sc *scheduler) reconcile(ctx context.Context, obj *unstructured.Unstructured, fleetChanged bool) error {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if !fleetChanged && !sc.needsScheduling(obj) {
		return nil
	}
	name := obj.GetName()
	obj, err := sc.placements().Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		return fmt.Errorf("reading placement %s: %w", name, err)
	case obj.GetDeletionTimestamp() != nil:
		if !slices.Contains(obj.GetFinalizers(), PlacementFinalizer) {
			return nil
		}
		return sc.cleanUp(ctx, obj)
	case !fleetChanged && !sc.needsScheduling(obj):
		return nil
	}
	if !slices.Contains(obj.GetFinalizers(), PlacementFinalizer) {
		upd := obj.DeepCopy()
		upd.SetFinalizers(append(obj.GetFinalizers(), PlacementFinalizer))
		if obj, err = sc.placements().Update(ctx, upd, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("adding the finalizer of placement %s: %w", name, err)
		}
	}
	return sc.schedule(ctx, obj, fleetChanged)
}

// cleanUp deletes a deleted placement's bindings and policy snapshots, then
// lets it go.
func (sc *scheduler) cleanUp(ctx context.Context, obj *unstructured.Unstructured) error {
	parent := labels.Set{kube.ParentPlacementLabel: obj.GetName()}
	for _, gvr := range []schema.GroupVersionResource{kube.BindingGVR, kube.PolicySnapshotGVR} {
		client := sc.cluster.Dynamic.Resource(gvr)
		objs, err := byName(ctx, client, parent)
		if err != nil {
			return fmt.Errorf("listing the %s of placement %s: %w", gvr.Resource, obj.GetName(), err)
		}
		for name := range objs {
			if err := deleteObject(ctx, client, name); err != nil {
				return fmt.Errorf("deleting %s %s: %w", gvr.Resource, name, err)
			}
		}
	}
	if err := withoutFinalizer(ctx, sc.placements(), obj, PlacementFinalizer); err != nil {
		return fmt.Errorf("removing the finalizer of placement %s: %w", obj.GetName(), err)
	}
	return nil
}

// heldBinding is a binding of a cluster the placement holds.
type heldBinding struct {
	obj      *unstructured.Unstructured
	decision placement.Decision
	state    string
}

// schedule runs a scheduling cycle for the placement obj, as the mock
// hub's schedule does, and writes its outcome: the bindings, the policy
// snapshot, then the placement's status. With fleetChanged and a generation
// already scheduled, it runs only when the fleet changed since.
func (sc *scheduler) schedule(ctx context.Context, obj *unstructured.Unstructured, fleetChanged bool) error {
	name, generation := obj.GetName(), obj.GetGeneration()
	_, spec, err := kube.PlacementFromObject(obj)
	if err != nil {
		sc.refuse(name, generation, err)
		return nil
	}
	h, f, err := sc.sim.fleet(ctx)
	if err != nil {
		return err
	}
	now := h.Now()
	fp := placement.FleetFingerprint(f, now)

	bindings, err := sc.bindings(ctx, name)
	if err != nil {
		return err
	}
	snapName := kube.PolicySnapshotName(name, 0)
	snapshots := sc.cluster.Dynamic.Resource(kube.PolicySnapshotGVR)
	snapObj, err := snapshots.Get(ctx, snapName, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		snapObj = nil
	case err != nil:
		return fmt.Errorf("reading policy snapshot %s: %w", snapName, err)
	}
	if fleetChanged && !sc.needsScheduling(obj) && (snapObj == nil || snapObj.GetAnnotations()[ObservedFleetAnnotation] == fp) {
		return nil // scheduled on this fleet already (or never: refused)
	}

	// The clusters held, with the scores recorded on their bindings, and
	// the policy they were scheduled with.
	var held, scheduledBefore []string
	var heldDecisions []placement.Decision
	for cluster, b := range bindings {
		if b.state != kube.BindingStateUnscheduled {
			held = append(held, cluster)
			heldDecisions = append(heldDecisions, b.decision)
		}
		if b.state == kube.BindingStateScheduled {
			scheduledBefore = append(scheduledBefore, cluster)
		}
	}
	slices.Sort(held)
	slices.Sort(scheduledBefore)
	opts := placement.ScheduleOptions{Recorded: placement.RecordedScores(heldDecisions), Scheduled: scheduledBefore}
	var prevPolicy placement.Policy
	if snapObj != nil {
		snap, err := kube.PolicySnapshotFrom(snapObj)
		if err != nil {
			return err
		}
		prevPolicy = snap.Policy
		opts.Prev = &placement.Spec{Policy: prevPolicy}
	}
	res, err := placement.Schedule(spec, f, held, now, opts)
	if err != nil {
		sc.refuse(name, generation, err)
		return nil
	}
	policy := spec.Policy
	if res.Unchanged && snapObj != nil && placement.WithDefaults(spec).Policy.PlacementType != placement.PickFixed {
		// As the mock: the clusters held stay bound under the policy they
		// were scheduled with, so the next cycle still sees them as
		// obsolete. Not for PickFixed (a cycle skipped for want of names):
		// its cycle never reads the previous policy, and a snapshot tells
		// how many clusters it requests from its policy, which must then be
		// the new one (none) for it to read as the mock's Requested.
		policy = prevPolicy
	}
	decisions := placement.StoredDecisions(res.Decisions)

	// Fleet's rollout controller binds what the strategy lets it
	// (placement.BindingStates): the bindings it does not stay Scheduled.
	scheduled := placement.BindingStates(spec, held, scheduledBefore, res)
	if err := sc.writeBindings(ctx, name, snapName, bindings, decisions, scheduled); err != nil {
		return err
	}
	if err := sc.writeSnapshot(ctx, snapshots, snapObj, kube.PolicySnapshotObject(snapName, name, policy, generation, res.Requested, decisions), fp); err != nil {
		return err
	}
	return sc.writePlacementStatus(ctx, obj, spec, outcome{selected: res.Selected, decisions: decisions, fulfilled: res.Fulfilled,
		message: res.UnfulfilledMessage, requested: res.Requested}, f, now)
}

// refuse records that the engine refused a generation of a placement: it is
// not tried again, and the Scheduled condition does not observe it.
func (sc *scheduler) refuse(name string, generation int64, err error) {
	sc.refused[name] = generation
	sc.sim.logf("fleetsim: scheduler: placement %s (generation %d) cannot be scheduled: %v", name, generation, err)
}

// bindings are the placement's bindings by cluster.
func (sc *scheduler) bindings(ctx context.Context, placementName string) (map[string]heldBinding, error) {
	objs, err := byName(ctx, sc.cluster.Dynamic.Resource(kube.BindingGVR), labels.Set{kube.ParentPlacementLabel: placementName})
	if err != nil {
		return nil, fmt.Errorf("listing the bindings of placement %s: %w", placementName, err)
	}
	out := make(map[string]heldBinding, len(objs))
	for _, obj := range objs {
		d, state, err := kube.DecisionFromBinding(obj)
		if err != nil {
			return nil, err
		}
		out[d.ClusterName] = heldBinding{obj: obj, decision: d, state: state}
	}
	return out, nil
}

// writeBindings makes the placement's bindings the selected decisions: a
// new binding (Scheduled) for a cluster newly selected, with the decision
// and its score at pick time; a cluster held keeps its binding (and state),
// whose decision follows the cycle's, which carries the score recorded on
// the binding whenever the engine kept the cluster (it scores a cluster
// again only when it picks it anew, after a policy change, as the mock
// records it then); the bindings of clusters no longer selected are deleted.
func (sc *scheduler) writeBindings(ctx context.Context, placementName, snapName string, bindings map[string]heldBinding, decisions []placement.Decision, scheduled []string) error {
	client := sc.cluster.Dynamic.Resource(kube.BindingGVR)
	for _, d := range decisions {
		if !d.Selected {
			continue
		}
		state := kube.BindingStateBound
		if slices.Contains(scheduled, d.ClusterName) {
			state = kube.BindingStateScheduled
		}
		b, ok := bindings[d.ClusterName]
		delete(bindings, d.ClusterName)
		if !ok {
			obj := kube.BindingObject(kube.BindingName(placementName, d.ClusterName), placementName, d, state, snapName)
			if _, err := client.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
				return fmt.Errorf("creating the binding of placement %s to %s: %w", placementName, d.ClusterName, err)
			}
			continue
		}
		want := kube.BindingObject(b.obj.GetName(), placementName, d, state, snapName)
		upd := b.obj.DeepCopy()
		for _, f := range []string{"state", "schedulingPolicySnapshotName", "clusterDecision"} {
			upd.Object["spec"].(map[string]any)[f] = want.Object["spec"].(map[string]any)[f]
		}
		if sameJSON(upd.Object, b.obj.Object) {
			continue
		}
		if _, err := client.Update(ctx, upd, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("updating binding %s: %w", b.obj.GetName(), err)
		}
	}
	for _, b := range bindings { // clusters no longer selected
		if err := deleteObject(ctx, client, b.obj.GetName()); err != nil {
			return fmt.Errorf("deleting binding %s: %w", b.obj.GetName(), err)
		}
	}
	return nil
}

// writeSnapshot creates or replaces the policy snapshot (cur nil: none yet)
// with want, annotated with the fingerprint of the fleet its decisions were
// made on, then writes its status.
func (sc *scheduler) writeSnapshot(ctx context.Context, client dynamic.ResourceInterface, cur, want *unstructured.Unstructured, fp string) error {
	annotations := want.GetAnnotations()
	annotations[ObservedFleetAnnotation] = fp
	want.SetAnnotations(annotations)
	status := want.Object["status"]
	delete(want.Object, "status")
	var err error
	if cur == nil {
		cur, err = client.Create(ctx, want, metav1.CreateOptions{})
	} else {
		want.SetResourceVersion(cur.GetResourceVersion())
		cur, err = client.Update(ctx, want, metav1.UpdateOptions{})
	}
	if err != nil {
		return fmt.Errorf("writing policy snapshot %s: %w", want.GetName(), err)
	}
	if _, err := writeStatus(ctx, client, cur, status); err != nil {
		return fmt.Errorf("writing the status of policy snapshot %s: %w", want.GetName(), err)
	}
	return nil
}

// RolloutAnnotation is the fixture's own annotation on a placement: its
// rollout state (placement.RolloutState as JSON), which Fleet keeps in its
// resource snapshots and bindings.
const RolloutAnnotation = "fleetsim.fleetform.github.io/rollout"

// outcome is what the last scheduling cycle decided for a placement.
type outcome struct {
	selected  []string
	decisions []placement.Decision
	fulfilled bool
	message   string
	requested int
}

// writePlacementStatus brings the placement's rollout to now, as the mock
// hub does (placement.AdvanceRollout, its state kept in RolloutAnnotation),
// and writes its status as Fleet's controllers do: the conditions
// (placement.PlacementConditions) observing the generation scheduled, the
// resources selected and their snapshot's index, one placementStatuses
// entry per cluster selected with its conditions, failed placements and the
// index its binding carries, and one without a name per cluster missing
// from an unfulfilled PickN or PickFixed. On a conflict the placement is
// read again; a new generation meanwhile is left to its own cycle.
func (sc *scheduler) writePlacementStatus(ctx context.Context, obj *unstructured.Unstructured, spec placement.Spec, o outcome, f *fleet.Fleet, now time.Time) error {
	name, generation := obj.GetName(), obj.GetGeneration()
	for {
		prev, err := kube.PlacementStatusFrom(obj)
		if err != nil {
			prev = kube.PlacementStatus{}
		}
		var state *placement.RolloutState
		raw, kept := obj.GetAnnotations()[RolloutAnnotation]
		if kept {
			state = &placement.RolloutState{}
			if err := json.Unmarshal([]byte(raw), state); err != nil {
				return fmt.Errorf("placement %s: annotation %s: %w", name, RolloutAnnotation, err)
			}
		}
		// Fleet's controllers run all along: they see a change of the fleet
		// when they sync, not when the mock's inventory says it happened.
		live := *f
		live.ChangedAt = time.Time{}
		step := placement.AdvanceRollout(name, spec, state, !kept, o.selected, o.decisions, &live, now)
		if sc.rolling != nil {
			if len(step.Plan.Batches) > 0 {
				sc.rolling[name] = true
			} else {
				delete(sc.rolling, name)
			}
		}
		st := kube.PlacementStatus{ObservedGeneration: generation, Clusters: o.selected, ResourceIndex: step.State.Index,
			SelectedResources: step.Selection.Resources}
		if !o.fulfilled && o.requested > len(o.selected) {
			st.Unscheduled = o.requested - len(o.selected)
		}
		before := mapConditions(prev.Conditions)
		for _, c := range placement.PlacementConditions(o.fulfilled, o.message, step.Selection.Error, step.Status.Conditions, before, now) {
			st.Conditions = append(st.Conditions, kube.Condition(c))
		}
		for _, c := range o.selected {
			i := slices.IndexFunc(step.Status.Clusters, func(cs placement.ClusterStatus) bool { return cs.Cluster == c })
			j := slices.IndexFunc(step.State.Bindings, func(b placement.Binding) bool { return b.Cluster == c })
			st.ClusterStatuses = append(st.ClusterStatuses, step.Status.Clusters[i])
			st.ClusterIndexes = append(st.ClusterIndexes, step.State.Bindings[j].Index)
		}
		b, err := json.Marshal(step.State)
		if err != nil {
			return err
		}
		upd := obj.DeepCopy()
		if upd.GetAnnotations()[RolloutAnnotation] != string(b) {
			annotations := upd.GetAnnotations()
			if annotations == nil {
				annotations = map[string]string{}
			}
			annotations[RolloutAnnotation] = string(b)
			upd.SetAnnotations(annotations)
			if upd, err = sc.placements().Update(ctx, upd, metav1.UpdateOptions{}); err == nil {
				upd = upd.DeepCopy()
			}
		}
		if err == nil {
			kube.SetPlacementStatus(upd, st)
			_, err = sc.placements().UpdateStatus(ctx, upd, metav1.UpdateOptions{})
		}
		if err == nil || apierrors.IsNotFound(err) {
			return nil
		}
		if !apierrors.IsConflict(err) {
			return fmt.Errorf("writing the status of placement %s: %w", name, err)
		}
		if obj, err = sc.placements().Get(ctx, name, metav1.GetOptions{}); err != nil {
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("reading placement %s: %w", name, err)
		}
		if obj.GetGeneration() != generation || obj.GetDeletionTimestamp() != nil {
			return nil
		}
	}
}

func mapConditions(cs []kube.Condition) []placement.Condition {
	out := make([]placement.Condition, 0, len(cs))
	for _, c := range cs {
		out = append(out, placement.Condition(c))
	}
	return out
}

// rollOutAll brings every scheduled placement's rollout to now (the mock
// hub does it when it reads one): Fleet's rollout controller moves on with
// the clock and with the hub cluster's resources.
func (s *Sim) rollOutAll(ctx context.Context) error {
	if s.sched == nil {
		return nil
	}
	return s.sched.rollOutAll(ctx)
}

func (sc *scheduler) rollOutAll(ctx context.Context) error {
	s := sc.sim
	sc.mu.Lock()
	defer sc.mu.Unlock()
	list, err := sc.placements().List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("fleetsim: listing placements: %w", err)
	}
	h, f, err := s.fleet(ctx)
	if err != nil {
		return err
	}
	now := h.Now()
	for i := range list.Items {
		obj := &list.Items[i]
		if _, ok := obj.GetAnnotations()[RolloutAnnotation]; !ok || obj.GetDeletionTimestamp() != nil {
			continue // not scheduled yet: its cycle rolls it out
		}
		_, spec, err := kube.PlacementFromObject(obj)
		if err != nil {
			continue
		}
		st, err := kube.PlacementStatusFrom(obj)
		if err != nil || st.ObservedGeneration != obj.GetGeneration() {
			continue // a cycle is due: it rolls it out
		}
		bindings, err := sc.bindings(ctx, obj.GetName())
		if err != nil {
			return err
		}
		o := outcome{selected: st.Clusters, fulfilled: true, requested: len(st.Clusters) + st.Unscheduled}
		for _, c := range st.Conditions {
			if c.Type == kube.ConditionScheduled && c.Status != kube.ConditionStatusTrue && c.Reason != placement.ReasonInvalidResourceSelectors {
				o.fulfilled, o.message = false, c.Message
			}
		}
		for _, c := range st.Clusters {
			if b, ok := bindings[c]; ok {
				o.decisions = append(o.decisions, b.decision)
			}
		}
		if err := sc.writePlacementStatus(ctx, obj, spec, o, f, now); err != nil {
			return fmt.Errorf("fleetsim: %w", err)
		}
	}
	return nil
}
