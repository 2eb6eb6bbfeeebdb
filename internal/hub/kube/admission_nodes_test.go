//go:build admission

// The NodeClaims NodeObjects writes, sent to the shared API server
// (admission_test.go) under Karpenter's NodeClaim CRD
// (testdata/karpenter.sh_nodeclaims.yaml, sigs.k8s.io/karpenter v1.14.1).
// The Node is a core object the apiextensions server does not serve: it is
// paired as written.

package kube

import (
	"context"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

// TestNodeClaimAdmission: every claim is admitted, takes its status, and
// pairs with its node into the node written, with the server's creation
// time; deleting a claim (held by a finalizer) marks it for deletion.
func TestNodeClaimAdmission(t *testing.T) {
	claims := apiServer(t).Resource(NodeClaimGVR)
	ctx := context.Background()
	for _, n := range []nodepool.Node{
		napNode("aks-default-a", nil),
		napNode("aks-default-b", func(n *nodepool.Node) { n.Ready, n.DoNotDisrupt, n.MarkedForDeletion = false, true, true }),
		napNode("aks-spot-c", func(n *nodepool.Node) { n.NodePool = "spot"; n.Labels[nodepool.LabelNodePool] = "spot" }),
		{Name: "standalone-d"},
		napNode("aks-default-e", func(n *nodepool.Node) { n.Uninitialized, n.ExpireAfter = true, "336h" }),
		napNode("aks-default-f", func(n *nodepool.Node) {
			n.InstanceTerminating, n.MarkedForDeletion, n.ExpireAfter = true, true, nodepool.Never
		}),
	} {
		t.Run(n.Name, func(t *testing.T) {
			claim, node := NodeObjects(n)
			claim.SetFinalizers([]string{"kube.test/hold"})
			before := time.Now().Add(-time.Second)
			created, err := claims.Create(ctx, claim, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("the API server rejects it: %v", err)
			}
			t.Cleanup(func() {
				patch := []byte(`{"metadata":{"finalizers":null}}`)
				if _, err := claims.Patch(ctx, n.Name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
					t.Errorf("releasing %s: %v", n.Name, err)
				}
			})
			created.Object["status"] = claim.Object["status"]
			stored, err := claims.UpdateStatus(ctx, created, metav1.UpdateOptions{})
			if err != nil {
				t.Fatalf("the API server rejects the status: %v", err)
			}

			// The server's creation time, not the one written; the node's
			// labels with karpenter.sh/initialized as written; the claim's
			// expireAfter, which the CRD defaults to 720h.
			want := initializedAs(n)
			want.CreatedAt = stored.GetCreationTimestamp().UTC()
			if want.ExpireAfter == "" {
				want.ExpireAfter = nodepool.DefaultExpireAfter
			}
			if want.CreatedAt.Before(before.Truncate(time.Second)) || want.CreatedAt.After(time.Now()) {
				t.Errorf("creationTimestamp %s is not the server's", want.CreatedAt)
			}
			got, err := NodeFrom(stored, node)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("claim and node read back as\n  %#v %v\nwant\n  %#v", got, err, want)
			}
			if got, err := PairNodes([]unstructured.Unstructured{*stored}, []unstructured.Unstructured{*node}); err != nil || !reflect.DeepEqual(got, []nodepool.Node{want}) {
				t.Errorf("paired as %#v %v", got, err)
			}

			// Deleting the claim sets its deletionTimestamp: marked for deletion.
			if err := claims.Delete(ctx, n.Name, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			deleting, err := claims.Get(ctx, n.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err = NodeFrom(deleting, nil)
			if err != nil || !got.MarkedForDeletion || got.Ready || got.Name != n.Name {
				t.Errorf("a deleted claim without its node reads as %#v %v", got, err)
			}
		})
	}
}
