package azure_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

var aksNodeClass = nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}

func webPlacement(n int) placement.Spec {
	return placement.Spec{Name: "web", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
		Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n}}
}

// A placement edited on the hub cluster (kubectl edit) after the provider
// read it: the provider's write, conditioned on the resourceVersion it
// read, is refused by the API server (409) as ErrPreconditionFailed, the
// "changed outside Terraform" of an ARM 412, and the other edit stays.
func TestPlacementEditedOnTheClusterIsAConflict(t *testing.T) {
	e := newEmulated(t)
	ctx := context.Background()
	read, err := e.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: webPlacement(2)}, hub.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.sim.Hub(ctx)
	if err != nil {
		t.Fatal(err)
	}
	crps := c.Dynamic.Resource(kube.PlacementGVR)
	obj, err := crps.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	obj.Object["spec"].(map[string]any)["revisionHistoryLimit"] = int64(3)
	if _, err := crps.Update(ctx, obj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = e.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: webPlacement(1)}, hub.Precondition{IfMatch: read.ETag})
	if !errors.Is(err, hub.ErrPreconditionFailed) {
		t.Fatalf("write after an edit on the cluster: %v, want ErrPreconditionFailed", err)
	}
	got, err := e.GetPlacement(ctx, "web")
	if err != nil {
		t.Fatal(err)
	}
	if l := got.Spec.RevisionHistoryLimit; l == nil || *l != 3 || *got.Spec.Policy.NumberOfClusters != 2 {
		t.Fatalf("the cluster holds %+v, want the other edit", got.Spec)
	}
	if err := e.DeletePlacement(ctx, "web", hub.Precondition{IfMatch: read.ETag}); !errors.Is(err, hub.ErrPreconditionFailed) {
		t.Fatalf("delete with the old resourceVersion: %v, want ErrPreconditionFailed", err)
	}
}

// A member cluster that does not serve karpenter.sh/v1 NodePools (Node
// Auto Provisioning is not enabled): every NodePool call says so, naming
// the cluster — reached here through an explicit kubeconfig
// (azure.member_clusters), with a context of its own.
func TestNodePoolWithoutNodeAutoProvisioning(t *testing.T) {
	c, err := kubeEnv(t).Cluster("without-nap") // no CRDs
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, c.Kubeconfig, 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEmulatedWith(t, func(cfg *azure.Config) {
		cfg.MemberClusters = map[string]azure.KubeconfigSource{"aks-east-prod-01": {Path: path}}
	})
	ctx := context.Background()
	_, err = e.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: "general"}, Cluster: "aks-east-prod-01",
		Spec: nodepool.NodePool{Template: nodepool.Template{NodeClassRef: aksNodeClass}}}, hub.Precondition{IfNoneMatch: true})
	var ce *hub.ClusterError
	if !errors.As(err, &ce) || ce.Cluster != `member cluster "aks-east-prod-01"` || !strings.Contains(ce.Problem, "Node Auto Provisioning is not enabled") {
		t.Fatalf("apply: %v, want a ClusterError saying Node Auto Provisioning is not enabled on aks-east-prod-01", err)
	}
	if _, err := e.GetNodePool(ctx, "aks-east-prod-01", "general"); !errors.As(err, &ce) {
		t.Fatalf("get: %v, want the same ClusterError", err)
	}
}

// A member cluster whose API server cannot be reached fails the call with
// a ClusterError that names it and says what to check; so does a
// kubeconfig without the context asked for.
func TestUnreachableMemberCluster(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(`apiVersion: v1
kind: Config
clusters: [{name: gone, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: not-a-secret}}]
contexts: [{name: gone, context: {cluster: gone, user: u}}]
current-context: gone
`), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEmulatedWith(t, func(cfg *azure.Config) {
		cfg.MemberClusters = map[string]azure.KubeconfigSource{"aks-east-prod-01": {Path: path}, "aks-east-dev-01": {Path: path, Context: "other"}}
	})
	ctx := context.Background()
	var ce *hub.ClusterError
	_, err := e.NodePoolNodes(ctx, "aks-east-prod-01", "default")
	if !errors.As(err, &ce) || !strings.Contains(ce.Problem, "cannot be reached") || !strings.Contains(ce.Fix, "reachable from this machine") {
		t.Fatalf("unreachable: %v", err)
	}
	_, err = e.NodePoolNodes(ctx, "aks-east-dev-01", "default")
	if !errors.As(err, &ce) || !strings.Contains(ce.Problem, `no context "other"`) {
		t.Fatalf("missing context: %v", err)
	}
}

// The placements a process reads are listed once: three paged LISTs
// (placements, bindings, latest policy snapshots) serve every read, a name
// not listed is not found, a write drops the listing, and a fresh read
// (hub.FreshReads, what a wait asks for) goes to the API server.
func TestPlacementReadsShareOneListing(t *testing.T) {
	e := newEmulated(t)
	ctx := context.Background()
	for _, name := range []string{"a", "b", "c"} {
		if _, err := e.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: name}, Spec: webPlacement(2)}, hub.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
	var requests atomic.Int64
	azure.SetKubeTransportWrapper(func(rt http.RoundTripper) http.RoundTripper { return countingTransport{rt, &requests} })
	t.Cleanup(func() { azure.SetKubeTransportWrapper(nil) })
	h, err := azure.New(ctx, e.cfg) // a new provider process
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) *hub.Placement {
		t.Helper()
		p, err := h.GetPlacement(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return p
	}
	for _, name := range []string{"a", "b", "c", "a"} {
		if p := read(name); len(p.Status.Selected) != 2 || p.Name != name {
			t.Fatalf("%s: %+v", name, p.Status)
		}
	}
	if n := requests.Load(); n != 3 {
		t.Errorf("four reads of three placements sent %d requests, want 3 LISTs", n)
	}
	if _, err := h.GetPlacement(ctx, "nowhere"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a placement not listed: %v, want not found", err)
	}
	// Another writer (kubectl, another process) changes b: the listing does
	// not show it; a fresh read does; a write of this process drops the listing.
	if _, err := e.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "b"}, Spec: webPlacement(3)}, hub.Precondition{}); err != nil {
		t.Fatal(err)
	}
	if p := read("b"); len(p.Status.Selected) != 2 {
		t.Errorf("the listing changed under the process: %v", p.Status.Selected)
	}
	if p, err := h.GetPlacement(hub.FreshReads(ctx), "b"); err != nil || len(p.Status.Selected) != 3 {
		t.Errorf("a fresh read: %v, %v; want 3 clusters", p.Status.Selected, err)
	}
	if _, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "c"}, Spec: webPlacement(1)}, hub.Precondition{}); err != nil {
		t.Fatal(err)
	}
	if p := read("b"); len(p.Status.Selected) != 3 {
		t.Errorf("after a write, the next read lists again: %v", p.Status.Selected)
	}
}
