package fleetsim

import (
	"context"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// TerminationFinalizer is Karpenter's finalizer on a NodeClaim: it holds a
// deleted claim while its instance is terminated. The fixture puts it on the
// claim of a node marked for deletion, so that the claim stays, deleting.
const TerminationFinalizer = "karpenter.sh/termination"

// syncNodes makes the member cluster's NodeClaims (and their Nodes) those of
// its NAP nodes. A Node no claim of ours names is left alone (it is not one
// of Karpenter's).
func syncNodes(ctx context.Context, c *kubetest.Cluster, napNodes []fleet.NAPNode) error {
	claims := c.Dynamic.Resource(kube.NodeClaimGVR)
	nodes := c.Dynamic.Resource(kube.NodeGVR)
	curClaims, err := byName(ctx, claims, nil)
	if err != nil {
		return fmt.Errorf("fleetsim: cluster %s: listing NodeClaims: %w", c.Name, err)
	}
	curNodes, err := byName(ctx, nodes, nil)
	if err != nil {
		return fmt.Errorf("fleetsim: cluster %s: listing Nodes: %w", c.Name, err)
	}
	for _, n := range napNodes {
		if err := syncNode(ctx, c, nodepool.NodeOf(n), curClaims[n.Name], curNodes[n.Name]); err != nil {
			return fmt.Errorf("fleetsim: cluster %s: node %s: %w", c.Name, n.Name, err)
		}
		delete(curClaims, n.Name)
	}
	for name, claim := range curClaims { // nodes no longer listed
		if err := remove(ctx, claims, claim); err != nil {
			return fmt.Errorf("fleetsim: cluster %s: removing NodeClaim %s: %w", c.Name, name, err)
		}
		if node := curNodes[name]; node != nil {
			if err := remove(ctx, nodes, node); err != nil {
				return fmt.Errorf("fleetsim: cluster %s: removing Node %s: %w", c.Name, name, err)
			}
		}
	}
	return nil
}

// syncNode writes the claim and the node of n over the current ones (nil:
// none). The claim's creationTimestamp, which the server sets, is rewritten
// to n.CreatedAt; a claim marked for deletion gets Karpenter's finalizer and
// is deleted. A claim being deleted whose node is no longer marked is
// replaced (a deletion cannot be undone).
func syncNode(ctx context.Context, c *kubetest.Cluster, n nodepool.Node, curClaim, curNode *unstructured.Unstructured) error {
	claims := c.Dynamic.Resource(kube.NodeClaimGVR)
	wantClaim, wantNode := kube.NodeObjects(n)
	if n.MarkedForDeletion {
		wantClaim.SetFinalizers([]string{TerminationFinalizer})
	}
	if curClaim != nil && curClaim.GetDeletionTimestamp() != nil && !n.MarkedForDeletion {
		if err := remove(ctx, claims, curClaim); err != nil {
			return err
		}
		curClaim = nil
	}
	claim, err := writeObject(ctx, claims, wantClaim, curClaim, "metadata", "spec")
	if err != nil {
		return fmt.Errorf("NodeClaim: %w", err)
	}
	if claim, err = writeStatus(ctx, claims, claim, wantClaim.Object["status"]); err != nil {
		return fmt.Errorf("NodeClaim status: %w", err)
	}
	created := n.CreatedAt.UTC().Truncate(time.Second)
	if !n.CreatedAt.IsZero() && !claim.GetCreationTimestamp().Time.Equal(created) {
		if err := c.Backdate(ctx, kube.NodeClaimGVR, n.Name, created); err != nil {
			return err
		}
	}
	if n.MarkedForDeletion && claim.GetDeletionTimestamp() == nil {
		if err := deleteObject(ctx, claims, n.Name); err != nil {
			return fmt.Errorf("deleting the NodeClaim: %w", err)
		}
	}

	nodes := c.Dynamic.Resource(kube.NodeGVR)
	node, err := writeObject(ctx, nodes, wantNode, curNode, "metadata", "spec")
	if err != nil {
		return fmt.Errorf("Node: %w", err)
	}
	if _, err := writeStatus(ctx, nodes, node, wantNode.Object["status"]); err != nil {
		return fmt.Errorf("Node status: %w", err)
	}
	return nil
}

// writeObject creates want, or updates cur where it differs from want in the
// labels, annotations and finalizers (for "metadata") and in the other
// top-level fields named. It returns the object stored.
func writeObject(ctx context.Context, client dynamic.ResourceInterface, want, cur *unstructured.Unstructured, fields ...string) (*unstructured.Unstructured, error) {
	if cur == nil {
		create := want.DeepCopy()
		unstructured.RemoveNestedField(create.Object, "metadata", "creationTimestamp")
		return client.Create(ctx, create, metav1.CreateOptions{})
	}
	upd := cur.DeepCopy()
	for _, f := range fields {
		if f == "metadata" {
			upd.SetLabels(want.GetLabels())
			upd.SetAnnotations(want.GetAnnotations())
			if cur.GetDeletionTimestamp() == nil { // a deleting object takes no new finalizer
				fs := cur.GetFinalizers()
				for _, f := range want.GetFinalizers() {
					if !slices.Contains(fs, f) {
						fs = append(fs, f)
					}
				}
				upd.SetFinalizers(fs)
			}
			continue
		}
		if v, ok := want.Object[f]; ok {
			upd.Object[f] = v
		} else {
			delete(upd.Object, f)
		}
	}
	if sameJSON(upd.Object, cur.Object) {
		return cur, nil
	}
	return client.Update(ctx, upd, metav1.UpdateOptions{})
}
