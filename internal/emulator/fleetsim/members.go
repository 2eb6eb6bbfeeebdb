package fleetsim

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// syncMemberClusters makes the hub cluster's MemberClusters those of the
// backend's fleet, then reschedules the placements when what scheduling
// depends on changed since the last sync. The caller holds s.hubMu.
func (s *Sim) syncMemberClusters(ctx context.Context, c *kubetest.Cluster) error {
	h, f, err := s.fleet(ctx)
	if err != nil {
		return err
	}
	client := c.Dynamic.Resource(kube.MemberClusterGVR)
	cur, err := byName(ctx, client, nil)
	if err != nil {
		return fmt.Errorf("fleetsim: listing MemberClusters: %w", err)
	}
	for i := range f.Clusters {
		m := &f.Clusters[i]
		if err := syncMemberCluster(ctx, client, m, cur[m.Name]); err != nil {
			return fmt.Errorf("fleetsim: MemberCluster %q: %w", m.Name, err)
		}
		delete(cur, m.Name)
	}
	for name, obj := range cur { // members no longer in the fleet
		if err := remove(ctx, client, obj); err != nil {
			return fmt.Errorf("fleetsim: removing MemberCluster %q: %w", name, err)
		}
	}
	fp := placement.FleetFingerprint(f, h.Now())
	if fp == s.syncedFP {
		return nil
	}
	if err := s.rescheduleAll(ctx, c); err != nil {
		return err
	}
	s.syncedFP = fp
	return nil
}

// syncMemberCluster writes the MemberCluster of m over cur (nil: none yet).
// The server sets the metadata kube.MemberCluster carries for a
// leaving member (deletionTimestamp) when the object is deleted: Fleet's
// finalizer, which the object always has, then holds it. A member that
// left and is back gets a new object.
func syncMemberCluster(ctx context.Context, client dynamic.ResourceInterface, m *fleet.Cluster, cur *unstructured.Unstructured) error {
	want := kube.MemberCluster(m)
	leaving := want.GetDeletionTimestamp() != nil
	want.SetDeletionTimestamp(nil)
	want.SetDeletionGracePeriodSeconds(nil)
	unstructured.RemoveNestedField(want.Object, "metadata", "generation")
	status := want.Object["status"]
	delete(want.Object, "status")

	if cur != nil && cur.GetDeletionTimestamp() != nil && !leaving {
		if err := remove(ctx, client, cur); err != nil {
			return err
		}
		cur = nil
	}
	var err error
	if cur == nil {
		if cur, err = client.Create(ctx, want, metav1.CreateOptions{}); err != nil {
			return err
		}
	} else if !sameJSON(cur.GetLabels(), want.GetLabels()) || !sameJSON(cur.Object["spec"], want.Object["spec"]) {
		upd := cur.DeepCopy()
		upd.SetLabels(want.GetLabels())
		upd.Object["spec"] = want.Object["spec"]
		if cur, err = client.Update(ctx, upd, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	if cur, err = writeStatus(ctx, client, cur, status); err != nil {
		return err
	}
	if leaving && cur.GetDeletionTimestamp() == nil {
		return deleteObject(ctx, client, cur.GetName())
	}
	return nil
}
