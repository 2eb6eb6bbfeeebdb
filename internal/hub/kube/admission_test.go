//go:build admission

// The admission tests send objects to a real Kubernetes API server serving
// the CRDs of crdFiles, one server for the whole test binary. The NodePool
// test sends every NodePool of the engine's validation corpus (package
// nodepooltest) under the AKS NodePool CRD
// (internal/emulator/kubetest/crds/aks-karpenter.sh_nodepools.yaml, as AKS Node Auto Provisioning
// installs it), and fails when the engine accepts a NodePool the server
// rejects; admission_fleet_test.go and admission_nodes_test.go send what the
// other converters write. They need no network and no binaries: the server
// is an embedded etcd plus the apiextensions API server (the CRD-serving
// half of kube-apiserver, with the real OpenAPI, defaulting and CEL
// validation), run in-process. It takes a few seconds, so they are behind
// the admission build tag: `make test-admission`.

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
	"sync"
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
	nodePools := apiServer(t).Resource(NodePoolGVR)
	start := time.Now()

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

// crdFiles are the CRDs the admission tests' API server serves: the AKS
// NodePool as Node Auto Provisioning installs it, Karpenter's NodeClaim
// (sigs.k8s.io/karpenter v1.14.1 pkg/apis/crds), Fleet's placement and
// binding (internal/emulator/kubetest/crds/README.md), and our own policy snapshot CRD.
var crdFiles = []string{
	"../../emulator/kubetest/crds/aks-karpenter.sh_nodepools.yaml",
	"testdata/karpenter.sh_nodeclaims.yaml",
	"../../emulator/kubetest/crds/fleet-placement.kubernetes-fleet.io_clusterresourceplacements.yaml",
	"../../emulator/kubetest/crds/fleet-placement.kubernetes-fleet.io_clusterresourcebindings.yaml",
	"../../emulator/kubetest/crds/fleet-placement.kubernetes-fleet.io_clusterschedulingpolicysnapshots.yaml",
}

// server is the API server the admission tests share: started by the
// first test that needs it, with every CRD of crdFiles, and stopped by
// TestMain when all have run.
var server struct {
	once   sync.Once
	client *dynamic.DynamicClient
	err    error
	stop   []func() // in the order to run
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, stop := range server.stop {
		stop()
	}
	os.Exit(code)
}

// apiServer returns a client of the shared API server, starting it on the
// first call (a few seconds).
func apiServer(t *testing.T) *dynamic.DynamicClient {
	t.Helper()
	server.once.Do(func() {
		start := time.Now()
		server.client, server.err = startAPIServer(crdFiles...)
		if server.err == nil {
			t.Logf("API server with %d CRDs established in %s", len(crdFiles), time.Since(start).Round(time.Millisecond))
		}
	})
	if server.err != nil {
		t.Fatal(server.err)
	}
	return server.client
}

// startAPIServer starts an embedded etcd and an apiextensions API server on
// free local ports, installs the CRDs in crdFiles, waits until they are
// Established and returns a dynamic client. Both servers and their
// directories go in server.stop.
func startAPIServer(crdFiles ...string) (*dynamic.DynamicClient, error) {
	dir, err := os.MkdirTemp("", "kube-admission-")
	if err != nil {
		return nil, err
	}
	server.stop = append(server.stop, func() { os.RemoveAll(dir) })
	etcdURL, stopEtcd, err := startEtcd(filepath.Join(dir, "etcd"))
	if err != nil {
		return nil, err
	}

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
		stopEtcd()
		return nil, err
	}
	srv, err := apiexttesting.StartTestServer(quietLogger{}, nil, []string{
		"--etcd-servers", etcdURL,
		"--authentication-skip-lookup",
		"--authentication-kubeconfig", kubeconfig, "--authorization-kubeconfig", kubeconfig, "--kubeconfig", kubeconfig,
		"--enable-priority-and-fairness=false",
		// These need a full kube-apiserver (namespaces, webhooks, policies).
		"--disable-admission-plugins", "NamespaceLifecycle,MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ValidatingAdmissionPolicy,MutatingAdmissionPolicy",
	}, nil)
	if err != nil {
		stopEtcd()
		return nil, fmt.Errorf("starting the API server: %w", err)
	}
	// The API server stops before etcd, then the directory goes.
	server.stop = append([]func(){srv.TearDownFn, stopEtcd}, server.stop...)
	cfg := rest.CopyConfig(srv.ClientConfig)
	cfg.QPS, cfg.Burst = -1, -1 // no client-side rate limit

	for _, f := range crdFiles {
		if err := installCRD(cfg, f); err != nil {
			return nil, err
		}
	}
	return dynamic.NewForConfig(cfg)
}

// quietLogger takes the API server's start-up log (apiexttesting.Logger),
// which outlives any one test.
type quietLogger struct{}

func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Logf(string, ...any)   {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

// startEtcd starts a single-member etcd in dir and returns its client URL
// and how to stop it. The ports are chosen free just before; should another
// process take one in between, it tries again.
func startEtcd(dir string) (string, func(), error) {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		client, peer := freeLocalURL(), freeLocalURL()
		if client.Host == "" || peer.Host == "" {
			return "", nil, errors.New("no free local port")
		}
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
		select {
		case <-e.Server.ReadyNotify():
			return client.String(), e.Close, nil
		case err := <-e.Err():
			e.Close()
			return "", nil, fmt.Errorf("etcd: %w", err)
		case <-time.After(time.Minute):
			e.Close()
			return "", nil, errors.New("etcd did not become ready within a minute")
		}
	}
	return "", nil, fmt.Errorf("starting etcd: %w", lastErr)
}

// freeLocalURL returns http://127.0.0.1:<port> for a port free right now
// (an empty URL when there is none).
func freeLocalURL() url.URL {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return url.URL{}
	}
	defer l.Close()
	return url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)}
}

// installCRD creates the CRD in file and waits until it is Established
// (served) or its names are rejected.
func installCRD(cfg *rest.Config, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	var crd apiextv1.CustomResourceDefinition
	if err := utilyaml.NewYAMLOrJSONDecoder(f, 4096).Decode(&crd); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	crds := apiextclient.NewForConfigOrDie(cfg).ApiextensionsV1().CustomResourceDefinitions()
	ctx := context.Background()
	if _, err := crds.Create(ctx, &crd, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the CRD %s: %w", crd.Name, err)
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
		return fmt.Errorf("waiting for the CRD %s to be established: %w", crd.Name, err)
	}
	return nil
}
