package kubetest

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

var (
	nodeGVR      = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	nodePoolGVR  = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}
	nodeClaimGVR = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}
)

func TestCRDs(t *testing.T) {
	names := func(crds []*apiextv1.CustomResourceDefinition) []string {
		var out []string
		for _, crd := range crds {
			out = append(out, crd.Name)
		}
		slices.Sort(out)
		return out
	}
	hub := names(HubCRDs())
	for _, want := range []string{
		"clusterresourcebindings.placement.kubernetes-fleet.io",
		"clusterresourceplacements.placement.kubernetes-fleet.io",
		"memberclusters.cluster.kubernetes-fleet.io",
	} {
		if !slices.Contains(hub, want) {
			t.Errorf("HubCRDs() = %v, want %s among them", hub, want)
		}
	}
	member := names(MemberCRDs())
	if want := []string{nodeClaimCRDName, "nodepools.karpenter.sh"}; !slices.Equal(member, want) {
		t.Errorf("MemberCRDs() = %v, want %v", member, want)
	}
	// Each call returns copies.
	a, b := MemberCRDs(), MemberCRDs()
	a[0].Name = "changed"
	if b[0].Name == "changed" || MemberCRDs()[0].Name == "changed" {
		t.Error("MemberCRDs() shares its CRDs between calls")
	}
}

// TestEtcdPortTaken: Start tries other ports when one it picked is taken.
func TestEtcdPortTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	picks := 0
	pick := func() (url.URL, error) {
		picks++
		if picks == 1 {
			return url.URL{Scheme: "http", Host: taken.Addr().String()}, nil
		}
		return freeLoopbackURL()
	}
	env, err := start(t, pick)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if picks != 4 || env.clientURL.Host == taken.Addr().String() {
		t.Errorf("etcd serves on %s after %d picks; want new ports after the taken %s", env.clientURL.Host, picks, taken.Addr())
	}
	if _, err := env.etcdClient.Put(context.Background(), "/kubetest-probe", "1"); err != nil {
		t.Errorf("etcd does not serve: %v", err)
	}
}

// TestEnv is the one test of the package that starts servers: one Env with
// two clusters, then a second Env after the first is closed.
func TestEnv(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	env, err := Start(t)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(env.Close)
	t.Logf("etcd started in %s", since(start))

	hub := startCluster(t, env, "hub", HubCRDs())
	member := startCluster(t, env, "member", MemberCRDs())

	t.Run("same cluster for a name", func(t *testing.T) {
		var wg sync.WaitGroup
		got := make([]*Cluster, 4)
		errs := make([]error, 4)
		for i := range got {
			wg.Go(func() { got[i], errs[i] = env.Cluster("member") })
		}
		wg.Wait()
		for i := range got {
			if errs[i] != nil || got[i] != member {
				t.Errorf("Cluster(member) = %p, %v; want %p", got[i], errs[i], member)
			}
		}
	})

	// The hub gets the member CRDs too, so that the isolation of the
	// clusters can be seen on a custom resource both serve.
	start = time.Now()
	if again, err := env.Cluster("hub", MemberCRDs()...); err != nil || again != hub {
		t.Fatalf("Cluster(hub, MemberCRDs()...) = %p, %v; want %p", again, err, hub)
	}
	t.Logf("member CRDs added to the running hub in %s", since(start))

	t.Run("hub CRDs served", func(t *testing.T) {
		for _, crd := range HubCRDs() {
			gvr := schema.GroupVersionResource{Group: crd.Spec.Group, Version: crd.Spec.Versions[0].Name, Resource: crd.Spec.Names.Plural}
			for _, v := range crd.Spec.Versions {
				if v.Storage {
					gvr.Version = v.Name
				}
			}
			if _, err := hub.Dynamic.Resource(gvr).List(ctx, metav1.ListOptions{}); err != nil {
				t.Errorf("listing %s: %v", gvr, err)
			}
		}
	})

	memberNodes := kubernetes.NewForConfigOrDie(member.Config).CoreV1().Nodes()
	t.Run("nodes", func(t *testing.T) {
		if _, err := memberNodes.Create(ctx, node("node-a"), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		list, err := memberNodes.List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != 1 || list.Items[0].Name != "node-a" {
			t.Errorf("nodes of member: %v, want node-a", nodeNames(list.Items))
		}
		hubList, err := kubernetes.NewForConfigOrDie(hub.Config).CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(hubList.Items) != 0 {
			t.Errorf("nodes of hub: %v, want none", nodeNames(hubList.Items))
		}
	})

	t.Run("clusters are separate", func(t *testing.T) {
		if _, err := member.Dynamic.Resource(nodeClaimGVR).Create(ctx, nodeClaim("claim-a"), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		_, err := hub.Dynamic.Resource(nodeClaimGVR).Get(ctx, "claim-a", metav1.GetOptions{})
		if !apierrors.IsNotFound(err) {
			t.Errorf("hub: get claim-a created in member: %v, want NotFound", err)
		}
		list, err := hub.Dynamic.Resource(nodeClaimGVR).List(ctx, metav1.ListOptions{})
		if err != nil || len(list.Items) != 0 {
			t.Errorf("hub: NodeClaims %d, %v; want none", len(list.Items), err)
		}
	})

	t.Run("NodePool validation", func(t *testing.T) {
		pools := member.Dynamic.Resource(nodePoolGVR)
		if _, err := pools.Create(ctx, nodePool("valid", []any{"amd64"}), metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating a valid NodePool: %v", err)
		}
		// CEL: "requirements with operator 'In' must have a value defined".
		_, err := pools.Create(ctx, nodePool("invalid", []any{}), metav1.CreateOptions{})
		if !apierrors.IsInvalid(err) || statusCode(err) != 422 {
			t.Fatalf("creating a NodePool with an In requirement without values: %v, want a 422", err)
		}
		if !strings.Contains(err.Error(), "must have a value defined") {
			t.Errorf("the 422 does not come from the CRD's CEL rule: %v", err)
		}
		// Schema: an unknown operator.
		bad := nodePool("bad-operator", []any{"amd64"})
		reqs, _, _ := unstructured.NestedSlice(bad.Object, "spec", "template", "spec", "requirements")
		reqs[0].(map[string]any)["operator"] = "Around"
		_ = unstructured.SetNestedSlice(bad.Object, reqs, "spec", "template", "spec", "requirements")
		if _, err := pools.Create(ctx, bad, metav1.CreateOptions{}); !apierrors.IsInvalid(err) || statusCode(err) != 422 {
			t.Errorf("creating a NodePool with an unknown operator: %v, want a 422", err)
		}
	})

	t.Run("conflict", func(t *testing.T) {
		stale, err := memberNodes.Get(ctx, "node-a", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fresh := stale.DeepCopy()
		fresh.Labels = map[string]string{"step": "1"}
		if _, err := memberNodes.Update(ctx, fresh, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		stale.Labels = map[string]string{"step": "stale"}
		_, err = memberNodes.Update(ctx, stale, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) || statusCode(err) != 409 {
			t.Errorf("update with a stale resourceVersion: %v, want a 409 Conflict", err)
		}
	})

	t.Run("backdate", func(t *testing.T) {
		keys := etcdKeys(t, env, member.prefix)
		for _, want := range []string{member.prefix + "/minions/node-a", member.prefix + "/karpenter.sh/nodeclaims/claim-a"} {
			if !slices.Contains(keys, want) {
				t.Fatalf("etcd has no key %s; keys of member: %v", want, keys)
			}
		}
		created := time.Now().Add(-72 * time.Hour).Truncate(time.Second)
		for _, gvr := range []schema.GroupVersionResource{nodeGVR, nodeClaimGVR} {
			name := map[string]string{"nodes": "node-a", "nodeclaims": "claim-a"}[gvr.Resource]
			if err := member.Backdate(ctx, gvr, name, created); err != nil {
				t.Fatal(err)
			}
			got, err := member.Dynamic.Resource(gvr).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if ts := got.GetCreationTimestamp(); !ts.Time.Equal(created) {
				t.Errorf("%s %s: creationTimestamp %s after Backdate, want %s", gvr.Resource, name, ts.UTC(), created.UTC())
			}
			// Lists are served from the watch cache: it has seen the write.
			list, err := member.Dynamic.Resource(gvr).List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, item := range list.Items {
				if ts := item.GetCreationTimestamp(); item.GetName() == name && !ts.Time.Equal(created) {
					t.Errorf("list of %s: %s created %s, want %s", gvr.Resource, name, ts.UTC(), created.UTC())
				}
			}
		}
		if err := member.Backdate(ctx, nodeGVR, "no-such-node", created); err == nil {
			t.Error("Backdate of a missing node succeeded")
		}
	})

	t.Run("kubeconfig", func(t *testing.T) {
		cfg, err := clientcmd.RESTConfigFromKubeConfig(member.Kubeconfig)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.BearerToken != member.Token || len(cfg.CAData) == 0 || cfg.Insecure {
			t.Errorf("kubeconfig: token %q, %d bytes of CA, insecure %v", cfg.BearerToken, len(cfg.CAData), cfg.Insecure)
		}
		client := kubernetes.NewForConfigOrDie(cfg)
		list, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if names := nodeNames(list.Items); !slices.Equal(names, []string{"node-a"}) {
			t.Errorf("nodes listed with the kubeconfig: %v, want [node-a]", names)
		}
		review, err := client.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if u := review.Status.UserInfo; u.Username != AdminUser || !slices.Contains(u.Groups, "system:masters") {
			t.Errorf("the kubeconfig's user is %s %v, want %s in system:masters", u.Username, u.Groups, AdminUser)
		}
		wrong := rest.CopyConfig(cfg)
		wrong.BearerToken = "not-" + member.Token
		_, err = kubernetes.NewForConfigOrDie(wrong).CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if !apierrors.IsUnauthorized(err) {
			t.Errorf("listing nodes with a wrong token: %v, want 401", err)
		}
		// The hub's token is not the member's.
		if hub.Token == member.Token {
			t.Error("hub and member have the same token")
		}
	})

	ports := envPorts(t, env)
	dir := env.dir
	start = time.Now()
	env.Close()
	t.Logf("Close (2 API servers and etcd) took %s", since(start))
	env.Close()
	assertClosed(t, ports, dir)
	if _, err := env.Cluster("late"); err == nil {
		t.Error("Cluster after Close succeeded")
	}

	// A second Env, right after: new ports, a working server.
	start = time.Now()
	env2, err := Start(t)
	if err != nil {
		t.Fatalf("second Start: %v", err)
	}
	t.Cleanup(env2.Close)
	t.Logf("second etcd started in %s", since(start))
	again := startCluster(t, env2, "member", nil)
	if _, err := kubernetes.NewForConfigOrDie(again.Config).CoreV1().Nodes().Create(ctx, node("node-b"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	ports, dir = envPorts(t, env2), env2.dir
	start = time.Now()
	env2.Close()
	t.Logf("Close (1 API server and etcd) took %s", since(start))
	assertClosed(t, ports, dir)
}

// startCluster starts a cluster and logs how long the API server and the
// CRDs took.
func startCluster(t *testing.T, env *Env, name string, crds []*apiextv1.CustomResourceDefinition) *Cluster {
	t.Helper()
	start := time.Now()
	c, err := env.Cluster(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("API server %s started in %s", name, since(start))
	if len(crds) == 0 {
		return c
	}
	start = time.Now()
	if _, err := env.Cluster(name, crds...); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d CRDs installed and Established in %s in %s", len(crds), name, since(start))
	return c
}

func since(start time.Time) time.Duration { return time.Since(start).Round(time.Millisecond) }

func statusCode(err error) int32 {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		return status.Status().Code
	}
	return 0
}

func node(name string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

func nodeNames(nodes []corev1.Node) []string {
	var names []string
	for _, n := range nodes {
		names = append(names, n.Name)
	}
	return names
}

func nodeClassRef() map[string]any {
	return map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"}
}

func archRequirement(values []any) []any {
	return []any{map[string]any{"key": "kubernetes.io/arch", "operator": "In", "values": values}}
}

func nodeClaim(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1",
		"kind":       "NodeClaim",
		"metadata":   map[string]any{"name": name},
		"spec": map[string]any{
			"nodeClassRef": nodeClassRef(),
			"requirements": archRequirement([]any{"amd64"}),
		},
	}}
}

func nodePool(name string, archValues []any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1",
		"kind":       "NodePool",
		"metadata":   map[string]any{"name": name},
		"spec": map[string]any{
			"template": map[string]any{
				"spec": map[string]any{
					"nodeClassRef": nodeClassRef(),
					"requirements": archRequirement(archValues),
				},
			},
		},
	}}
}

// etcdKeys lists the keys under prefix.
func etcdKeys(t *testing.T, env *Env, prefix string) []string {
	t.Helper()
	resp, err := env.etcdClient.Get(context.Background(), prefix+"/", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, kv := range resp.Kvs {
		keys = append(keys, string(kv.Key))
	}
	return keys
}

// envPorts returns the host:port of etcd (client and peer) and of every API
// server of env.
func envPorts(t *testing.T, env *Env) []string {
	t.Helper()
	ports := []string{env.clientURL.Host, env.peerURL.Host}
	env.mu.Lock()
	defer env.mu.Unlock()
	for _, slot := range env.clusters {
		u, err := url.Parse(slot.cluster.Config.Host)
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, u.Host)
	}
	return ports
}

// assertClosed checks that nothing listens on ports any more and that dir is
// gone.
func assertClosed(t *testing.T, ports []string, dir string) {
	t.Helper()
	for _, hostPort := range ports {
		conn, err := net.DialTimeout("tcp", hostPort, time.Second)
		if err == nil {
			conn.Close()
			t.Errorf("%s still accepts connections after Close", hostPort)
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still exists after Close (%v)", dir, err)
	}
}
