//go:build admission

// The admission test sends every NodePool of the engine's validation corpus
// (package nodepooltest) to a real Kubernetes API server serving the AKS
// NodePool CRD (testdata/aks-karpenter.sh_nodepools.yaml, as AKS Node Auto
// Provisioning installs it), and fails when the engine accepts a NodePool
// the server rejects. It needs no network and no binaries: the server is an
// embedded etcd plus the apiextensions API server (the CRD-serving half of
// kube-apiserver, with the real OpenAPI, defaulting and CEL validation), run
// in-process. It takes a few seconds, so it is behind the admission build
// tag: `make test-admission`.

package kube

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apiexttesting "k8s.io/apiextensions-apiserver/pkg/cmd/server/testing"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool/nodepooltest"
)

// TestNodePoolAdmission: whatever the engine accepts, the API server admits.
// For every case of the corpus the engine's verdict is Validate's (and the
// corpus must agree with it); an accepted pool is created under a fresh name
// and must be admitted, and what the server stores (with its defaults) must
// read back through NodePoolFromObject as the engine's WithDefaults of it. A
// rejected pool is sent too, for information: the engine is stricter than the
// CRD where AKS or Karpenter reject at run time what the API admits.
func TestNodePoolAdmission(t *testing.T) {
	cases := nodepooltest.Cases()
	if len(cases) == 0 {
		t.Fatal("the corpus is empty")
	}
	start := time.Now()
	nodePools := startAPIServer(t, "testdata/aks-karpenter.sh_nodepools.yaml").Resource(NodePoolGVR)
	t.Logf("API server with the NodePool CRD established in %s", time.Since(start).Round(time.Millisecond))

	ctx := context.Background()
	var acceptedAdmitted, acceptedRejected, rejectedAdmitted, rejectedRejected int
	var stricter []string
	for i, c := range cases {
		name := fmt.Sprintf("case-%03d", i)
		if errs := nodepool.ValidateIdentity("member", name); len(errs) > 0 {
			t.Fatalf("generated name %q: %v", name, errs)
		}
		errs := nodepool.Validate(c.Pool)
		accepted := len(errs) == 0
		if accepted != (len(c.Errors) == 0) {
			t.Errorf("%s: the corpus lists errors %v, Validate returns %v", c.Name, c.Errors, errs)
		}
		created, err := nodePools.Create(ctx, NodePoolObject(name, c.Pool), metav1.CreateOptions{})
		if err == nil {
			if err := nodePools.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
				t.Fatalf("%s: deleting %s: %v", c.Name, name, err)
			}
		}
		switch {
		case accepted && err == nil:
			acceptedAdmitted++
			checkServerDefaults(t, c.Name, c.Pool, created)
		case accepted:
			acceptedRejected++
			t.Errorf("%s: the engine accepts it, the API server rejects it:\n  %v", c.Name, err)
		case err == nil:
			rejectedAdmitted++
			stricter = append(stricter, fmt.Sprintf("%s (%s)", c.Name, strings.Join(c.Errors, ", ")))
		default:
			rejectedRejected++
			t.Logf("%s: both reject: %v", c.Name, err)
		}
	}
	t.Logf("%d NodePools in %s: engine accepts %d → server admits %d, rejects %d; engine rejects %d → server admits %d, rejects %d",
		len(cases), time.Since(start).Round(time.Millisecond),
		acceptedAdmitted+acceptedRejected, acceptedAdmitted, acceptedRejected,
		rejectedAdmitted+rejectedRejected, rejectedAdmitted, rejectedRejected)
	for _, s := range stricter {
		t.Logf("stricter than the CRD (AKS/Karpenter run-time rules): %s", s)
	}
}

// checkServerDefaults reads the stored object back into the model: it must
// read (a converter bug otherwise) and equal the engine's defaults of what
// was sent (a defaults mismatch is reported, not failed on: WithDefaults is
// the engine's business, and the preview's).
func checkServerDefaults(t *testing.T, caseName string, sent nodepool.NodePool, created *unstructured.Unstructured) {
	t.Helper()
	_, got, err := NodePoolFromObject(created)
	if err != nil {
		t.Errorf("%s: the stored object does not read back: %v", caseName, err)
		return
	}
	want := nodepool.WithDefaults(sent)
	if len(want.Template.Requirements) == 0 {
		want.Template.Requirements = nil
	}
	if !reflect.DeepEqual(got, want) {
		t.Logf("%s: the server's defaults differ from WithDefaults:\n  server %+v\n  engine %+v", caseName, got, want)
	}
}

// startAPIServer starts an embedded etcd and an apiextensions API server on
// free local ports, installs the CRD in crdFile, waits until it is
// Established and returns a dynamic client. Both servers stop in t.Cleanup.
func startAPIServer(t *testing.T, crdFile string) *dynamic.DynamicClient {
	t.Helper()
	dir := t.TempDir()
	etcdURL := startEtcd(t, filepath.Join(dir, "etcd"))

	// The delegated authentication and authorization kubeconfig is never
	// called (--authentication-skip-lookup, loopback client), but must parse.
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters:
- cluster: {server: "http://127.0.0.1:1"}
  name: unused
contexts:
- context: {cluster: unused, user: unused}
  name: unused
current-context: unused
users:
- name: unused
  user: {username: unused, password: unused}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, err := apiexttesting.StartTestServer(t, nil, []string{
		"--etcd-servers", etcdURL,
		"--authentication-skip-lookup",
		"--authentication-kubeconfig", kubeconfig, "--authorization-kubeconfig", kubeconfig, "--kubeconfig", kubeconfig,
		"--enable-priority-and-fairness=false",
		// These need a full kube-apiserver (namespaces, webhooks, policies).
		"--disable-admission-plugins", "NamespaceLifecycle,MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ValidatingAdmissionPolicy,MutatingAdmissionPolicy",
	}, nil)
	if err != nil {
		t.Fatalf("starting the API server: %v", err)
	}
	t.Cleanup(srv.TearDownFn) // runs before etcd's cleanup (LIFO)
	cfg := rest.CopyConfig(srv.ClientConfig)
	cfg.QPS, cfg.Burst = -1, -1 // no client-side rate limit

	installCRD(t, cfg, crdFile)
	return dynamic.NewForConfigOrDie(cfg)
}

// startEtcd starts a single-member etcd in dir and returns its client URL.
// The ports are chosen free just before; should another process take one in
// between, it tries again.
func startEtcd(t *testing.T, dir string) string {
	t.Helper()
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		client, peer := freeLocalURL(t), freeLocalURL(t)
		cfg := embed.NewConfig()
		cfg.Dir = dir
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{client}, []url.URL{client}
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peer}, []url.URL{peer}
		cfg.InitialCluster = cfg.Name + "=" + peer.String()
		cfg.LogLevel = "error"
		e, err := embed.StartEtcd(cfg)
		if err != nil {
			lastErr = err
			os.RemoveAll(dir)
			continue
		}
		t.Cleanup(e.Close)
		select {
		case <-e.Server.ReadyNotify():
			return client.String()
		case err := <-e.Err():
			t.Fatalf("etcd: %v", err)
		case <-time.After(time.Minute):
			t.Fatal("etcd did not become ready within a minute")
		}
	}
	t.Fatalf("starting etcd: %v", lastErr)
	return ""
}

// freeLocalURL returns http://127.0.0.1:<port> for a port free right now.
func freeLocalURL(t *testing.T) url.URL {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)}
}

// installCRD creates the CRD in file and waits until it is Established
// (served) or its names are rejected.
func installCRD(t *testing.T, cfg *rest.Config, file string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var crd apiextv1.CustomResourceDefinition
	if err := utilyaml.NewYAMLOrJSONDecoder(f, 4096).Decode(&crd); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	crds := apiextclient.NewForConfigOrDie(cfg).ApiextensionsV1().CustomResourceDefinitions()
	ctx := context.Background()
	if _, err := crds.Create(ctx, &crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating the CRD %s: %v", crd.Name, err)
	}
	err = wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		got, err := crds.Get(ctx, crd.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, c := range got.Status.Conditions {
			switch {
			case c.Type == apiextv1.Established && c.Status == apiextv1.ConditionTrue:
				return true, nil
			case c.Type == apiextv1.NamesAccepted && c.Status == apiextv1.ConditionFalse:
				return false, errors.New(c.Message)
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("waiting for the CRD %s to be established: %v", crd.Name, err)
	}
}
