package azure

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// placementListsMaxAge bounds how long one listing serves reads: a
// Terraform command reads its placements within seconds, and a long one
// (an apply waiting on an update run) lists again.
const placementListsMaxAge = 30 * time.Second

// placementLists are the hub cluster's ClusterResourcePlacements, their
// ClusterResourceBindings and their latest ClusterSchedulingPolicySnapshots,
// each kind listed once (paged) and served to every placement read of the
// provider process, as an informer's cache serves a controller
// (designs/hub.md §10). A write of a placement drops them: the next read
// lists again, and sees what Fleet did with the write.
type placementLists struct {
	mu  sync.Mutex // held while listing: concurrent reads wait for one listing
	cur *listedPlacements
}

// listedPlacements is one listing, by placement name.
type listedPlacements struct {
	at         time.Time
	placements map[string]*unstructured.Unstructured
	bindings   map[string][]unstructured.Unstructured
	snapshots  map[string][]unstructured.Unstructured
}

// get returns the listing, listing the three kinds first when there is
// none or it is older than placementListsMaxAge.
func (l *placementLists) get(ctx context.Context, kc *kubeCluster) (*listedPlacements, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cur != nil && time.Since(l.cur.at) < placementListsMaxAge {
		return l.cur, nil
	}
	at := time.Now()
	crps, err := listPages(ctx, kc, kube.PlacementGVR, "", metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	bindings, err := listPages(ctx, kc, kube.BindingGVR, "", metav1.ListOptions{LabelSelector: kube.ParentPlacementLabel})
	if err != nil {
		return nil, err
	}
	latest := labels.Set{kube.IsLatestSnapshotLabel: "true"}
	snapshots, err := listPages(ctx, kc, kube.PolicySnapshotGVR, "", metav1.ListOptions{LabelSelector: latest.String()})
	if err != nil {
		return nil, err
	}
	cur := &listedPlacements{at: at, placements: make(map[string]*unstructured.Unstructured, len(crps)),
		bindings: map[string][]unstructured.Unstructured{}, snapshots: map[string][]unstructured.Unstructured{}}
	for i := range crps {
		cur.placements[crps[i].GetName()] = &crps[i]
	}
	for _, b := range bindings {
		parent := b.GetLabels()[kube.ParentPlacementLabel]
		cur.bindings[parent] = append(cur.bindings[parent], b)
	}
	for _, s := range snapshots {
		parent := s.GetLabels()[kube.ParentPlacementLabel]
		cur.snapshots[parent] = append(cur.snapshots[parent], s)
	}
	l.cur = cur
	return cur, nil
}

// invalidate drops the listing.
func (l *placementLists) invalidate() {
	l.mu.Lock()
	l.cur = nil
	l.mu.Unlock()
}
