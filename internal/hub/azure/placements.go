package azure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// DefaultPlacementTimeout bounds the wait for Fleet's scheduler after a
// placement is written, and for its finalizers after it is deleted.
const DefaultPlacementTimeout = 2 * time.Minute

// Placements are ClusterResourcePlacements on the fleet hub cluster
// (designs/hub.md §10). A write replaces the spec and keeps what Fleet
// keeps on the object (finalizers, labels, status); the answer waits until
// Fleet's scheduler has decided for the new generation, as the mock hub's
// answer holds its decisions.

// GetPlacement reads a placement from the hub cluster's placements,
// bindings and latest policy snapshots as listed once for the provider
// process (placementLists) — a refresh of many placements costs three paged
// LISTs, not three requests each — or, for a wait (hub.FreshReads), from
// what the API server holds now.
func (h *Hub) GetPlacement(ctx context.Context, name string) (*hub.Placement, error) {
	kc, err := h.clusters.hubCluster(ctx)
	if err != nil {
		return nil, err
	}
	if hub.FreshReadsOf(ctx) {
		obj, err := kc.dyn.Resource(kube.PlacementGVR).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, kc.fail(placementObject(name), err)
		}
		return placementFrom(ctx, kc, obj)
	}
	lists, err := kc.placements.get(ctx, kc)
	if err != nil {
		return nil, err
	}
	obj, ok := lists.placements[name]
	if !ok {
		return nil, kc.fail(placementObject(name), apierrors.NewNotFound(kube.PlacementGVR.GroupResource(), name))
	}
	return placementOf(obj, lists.bindings[name], lists.snapshots[name])
}

func (h *Hub) ApplyPlacement(ctx context.Context, p hub.Placement, pre hub.Precondition) (*hub.Placement, error) {
	kc, err := h.clusters.hubCluster(ctx)
	if err != nil {
		return nil, err
	}
	// Dropped when the write is done, Fleet's answer awaited: a listing made
	// meanwhile, by a read running beside the write, is dropped with it.
	defer kc.placements.invalidate()
	obj, err := writeSpec(ctx, kc, kube.PlacementGVR, placementObject(p.Name), written(kube.PlacementObject(p.Name, p.Spec)), pre)
	if err != nil {
		return nil, err
	}
	obj, err = h.awaitScheduled(ctx, kc, obj)
	if err != nil {
		return nil, err
	}
	return placementFrom(ctx, kc, obj)
}

func (h *Hub) DeletePlacement(ctx context.Context, name string, pre hub.Precondition) error {
	kc, err := h.clusters.hubCluster(ctx)
	if err != nil {
		return err
	}
	defer kc.placements.invalidate()
	return deleteObject(ctx, kc, kube.PlacementGVR, placementObject(name), name, pre, h.placementTimeout())
}

func placementObject(name string) string { return fmt.Sprintf("ClusterResourcePlacement %q", name) }

func (h *Hub) placementTimeout() time.Duration {
	if h.cfg.PlacementTimeout > 0 {
		return h.cfg.PlacementTimeout
	}
	return DefaultPlacementTimeout
}

// awaitScheduled waits until Fleet's scheduler reports decisions for the
// placement's current generation (its Scheduled condition observes it).
func (h *Hub) awaitScheduled(ctx context.Context, kc *kubeCluster, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	name, generation := obj.GetName(), obj.GetGeneration()
	client := kc.dyn.Resource(kube.PlacementGVR)
	err := poll(ctx, h.placementTimeout(), func(first bool) (bool, error) {
		if !first {
			var err error
			if obj, err = client.Get(ctx, name, metav1.GetOptions{}); err != nil {
				return false, kc.fail(placementObject(name), err)
			}
		}
		st, err := kube.PlacementStatusFrom(obj)
		return err == nil && st.ObservedGeneration >= generation, err
	})
	if errors.Is(err, errTimedOut) {
		return nil, &hub.ClusterError{Cluster: kc.what,
			Problem: fmt.Sprintf("Fleet's scheduler has not scheduled %s (generation %d) within %s", placementObject(name), generation, h.placementTimeout()),
			Fix:     "check that the fleet's hub agent runs on the hub cluster (kubectl -n fleet-system get pods) and read its scheduler's log"}
	}
	return obj, err
}

// errTimedOut is poll's error when its timeout passes.
var errTimedOut = errors.New("timed out")

// poll calls done (first true on the first call) until it reports done or
// fails, waiting 10 ms, then twice as long each time up to a second
// (apimachinery's wait, with a wait.Backoff); after timeout it returns
// errTimedOut. done's requests use ctx, not the timeout's context: the one in
// flight when the timeout passes completes.
func poll(ctx context.Context, timeout time.Duration, done func(first bool) (bool, error)) error {
	limited, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	first := true
	backoff := wait.Backoff{Duration: 10 * time.Millisecond, Factor: 2, Cap: time.Second, Steps: math.MaxInt32}
	err := backoff.DelayFunc().Until(limited, true, false, func(context.Context) (bool, error) {
		ok, err := done(first)
		first = false
		return ok, err
	})
	if err != nil && ctx.Err() == nil && wait.Interrupted(err) {
		return errTimedOut
	}
	return err
}

// placementFrom reads a placement and its scheduling as Fleet keeps it: the
// spec and conditions on the ClusterResourcePlacement, the clusters held
// with the score each was picked with and whether it is bound yet on its
// ClusterResourceBindings, and
// the latest scheduling cycle's decisions (with the clusters left out and
// why) on its latest ClusterSchedulingPolicySnapshot.
func placementFrom(ctx context.Context, kc *kubeCluster, obj *unstructured.Unstructured) (*hub.Placement, error) {
	parent := labels.Set{kube.ParentPlacementLabel: obj.GetName()}
	bindings, err := listAll(ctx, kc, kube.BindingGVR, parent)
	if err != nil {
		return nil, err
	}
	latest := labels.Set{kube.ParentPlacementLabel: obj.GetName(), kube.IsLatestSnapshotLabel: "true"}
	snapshots, err := listAll(ctx, kc, kube.PolicySnapshotGVR, latest)
	if err != nil {
		return nil, err
	}
	return placementOf(obj, bindings, snapshots)
}

// placementOf is placementFrom with the placement's bindings and latest
// policy snapshots given.
func placementOf(obj *unstructured.Unstructured, bindings, snapshots []unstructured.Unstructured) (*hub.Placement, error) {
	_, spec, err := kube.PlacementFromObject(obj)
	if err != nil {
		return nil, err
	}
	st, err := kube.PlacementStatusFrom(obj)
	if err != nil {
		return nil, err
	}
	p := &hub.Placement{Meta: meta(obj), Spec: spec, Written: kube.WrittenPlacement(obj)}
	p.Status.ObservedGeneration = st.ObservedGeneration
	p.Status.SelectedResources, p.Status.Clusters, p.Status.ResourceIndex = st.SelectedResources, st.ClusterStatuses, st.ResourceIndex
	if st.ResourceIndex >= 0 {
		// Where the rollout stands, from the status alone (Fleet keeps the
		// rest in its resource snapshots and bindings).
		p.Status.Bindings = placement.BindingsFromStatus(st.ClusterStatuses, st.ClusterIndexes)
		in := placement.RolloutInput{Spec: spec, Latest: st.ResourceIndex, Bindings: p.Status.Bindings, Now: time.Now().UTC(),
			Untracked: placement.Untracked(placement.Selection{Resources: st.SelectedResources}), Failing: map[string]string{}}
		for _, b := range p.Status.Bindings {
			if b.Failed {
				in.Failing[b.Cluster] = "failed"
			}
		}
		p.Status.Rollout = placement.RolloutNote(placement.PlanRollout(in), in.Now)
	}
	for _, c := range st.Conditions {
		p.Status.Conditions = append(p.Status.Conditions, hub.Condition(c))
		if c.Type == kube.ConditionScheduled {
			p.Status.Fulfilled = c.Status == "True"
			if !p.Status.Fulfilled {
				p.Status.Message = c.Message
			}
		}
	}

	recorded := map[string]placement.Decision{}
	for i := range bindings {
		d, state, err := kube.DecisionFromBinding(&bindings[i])
		if err != nil {
			return nil, err
		}
		if state != kube.BindingStateUnscheduled {
			recorded[d.ClusterName] = d
			p.Status.Selected = append(p.Status.Selected, d.ClusterName)
		}
		if state == kube.BindingStateScheduled { // not bound yet: the next scale-in removes it first
			p.Status.Scheduled = append(p.Status.Scheduled, d.ClusterName)
		}
	}
	slices.Sort(p.Status.Selected)
	slices.Sort(p.Status.Scheduled)

	if len(snapshots) > 0 { // none before the scheduler's first cycle: nothing decided, nothing requested yet
		snap, err := kube.PolicySnapshotFrom(&snapshots[0])
		if err != nil {
			return nil, err
		}
		p.Status.Requested = snap.Requested
		for _, d := range snap.Decisions {
			if b, ok := recorded[d.ClusterName]; ok { // the binding holds the score the cluster was picked with
				d = b
			}
			if d.Selected && recorded[d.ClusterName].ClusterName == "" {
				continue // decided selected, but its binding is gone: not held
			}
			p.Status.Decisions = append(p.Status.Decisions, d)
		}
	}
	return p, nil
}

// meta is a Kubernetes object's metadata as the hub's: the resourceVersion
// is the ETag that writes are conditioned on.
func meta(obj *unstructured.Unstructured) hub.Meta {
	return hub.Meta{Name: obj.GetName(), ETag: obj.GetResourceVersion(), Generation: obj.GetGeneration(),
		CreatedAt: obj.GetCreationTimestamp().UTC()} // Kubernetes keeps no update time
}

// listAll lists the objects of a resource with the labels, every page.
func listAll(ctx context.Context, kc *kubeCluster, gvr schema.GroupVersionResource, sel labels.Set) ([]unstructured.Unstructured, error) {
	return listPages(ctx, kc, gvr, "", metav1.ListOptions{LabelSelector: sel.String()})
}

// writeSpec creates or updates an object's spec under the precondition: a
// create must not find it (If-None-Match), an update must find the
// resourceVersion given (If-Match); without either, whatever is there is
// updated. An update replaces the spec only: the labels, annotations,
// finalizers and status that controllers keep on the object stay.
func writeSpec(ctx context.Context, kc *kubeCluster, gvr schema.GroupVersionResource, what string, want *unstructured.Unstructured, pre hub.Precondition) (*unstructured.Unstructured, error) {
	client := kc.dyn.Resource(gvr)
	if pre.IfNoneMatch {
		obj, err := client.Create(ctx, want, metav1.CreateOptions{FieldManager: fieldManager})
		return obj, kc.fail(what, err)
	}
	cur, err := client.Get(ctx, want.GetName(), metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err) && pre.IfMatch != "":
		return nil, fmt.Errorf("%s: it no longer exists: %w", what, hub.ErrPreconditionFailed)
	case apierrors.IsNotFound(err):
		obj, err := client.Create(ctx, want, metav1.CreateOptions{FieldManager: fieldManager})
		return obj, kc.fail(what, err)
	case err != nil:
		return nil, kc.fail(what, err)
	}
	if pre.IfMatch != "" {
		cur.SetResourceVersion(pre.IfMatch) // the server refuses the update (409) when the object moved on
	}
	cur.Object["spec"] = want.Object["spec"]
	if w, ok := want.GetAnnotations()[kube.WrittenSpecAnnotation]; ok { // the written form goes with the spec
		ann := cur.GetAnnotations()
		if ann == nil {
			ann = map[string]string{}
		}
		ann[kube.WrittenSpecAnnotation] = w
		cur.SetAnnotations(ann)
	}
	obj, err := client.Update(ctx, cur, metav1.UpdateOptions{FieldManager: fieldManager})
	return obj, kc.fail(what, err)
}

// written is obj, about to be written, with its spec recorded as its
// written form (kube.RecordWritten; designs/hub.md §5).
func written(obj *unstructured.Unstructured) *unstructured.Unstructured {
	kube.RecordWritten(obj)
	return obj
}

// fieldManager names this provider in the objects' managedFields.
const fieldManager = "terraform-provider-aks"

// deleteObject deletes an object, conditioned on its resourceVersion when
// pre has one, and waits until it is gone: controllers' finalizers (Fleet's
// on a placement) hold it until they have cleaned up, and a placement of
// the same name created meanwhile would be refused.
func deleteObject(ctx context.Context, kc *kubeCluster, gvr schema.GroupVersionResource, what, name string, pre hub.Precondition, timeout time.Duration) error {
	client := kc.dyn.Resource(gvr)
	opts := metav1.DeleteOptions{}
	if pre.IfMatch != "" {
		rv := pre.IfMatch
		opts.Preconditions = &metav1.Preconditions{ResourceVersion: &rv}
	}
	if err := client.Delete(ctx, name, opts); err != nil {
		return kc.fail(what, err)
	}
	return awaitGone(ctx, kc, client, what, name, timeout)
}

func awaitGone(ctx context.Context, kc *kubeCluster, client dynamic.ResourceInterface, what, name string, timeout time.Duration) error {
	var finalizers []string
	err := poll(ctx, timeout, func(bool) (bool, error) {
		obj, err := client.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		if err != nil {
			return false, kc.fail(what, err)
		}
		finalizers = obj.GetFinalizers()
		return false, nil
	})
	if errors.Is(err, errTimedOut) {
		return &hub.ClusterError{Cluster: kc.what,
			Problem: fmt.Sprintf("%s is still being deleted after %s, held by the finalizers %v", what, timeout, finalizers),
			Fix:     "check the controllers that own those finalizers on the cluster, then apply again"}
	}
	return err
}
