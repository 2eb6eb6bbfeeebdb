package kubetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	kubeapiservertesting "k8s.io/kubernetes/cmd/kube-apiserver/app/testing"
)

// AdminUser is the user name of each cluster's static bearer token, which is
// in the group system:masters (cluster-admin).
const AdminUser = "clusterAdmin"

// crdTimeout bounds how long Cluster waits for a CRD to be Established.
const crdTimeout = 30 * time.Second

// etcdOpTimeout bounds one etcd request of Backdate.
const etcdOpTimeout = 10 * time.Second

// Cluster is one kube-apiserver of an Env.
type Cluster struct {
	Name string
	// Config is an admin client config (the static token). Copy it with
	// rest.CopyConfig before modifying it.
	Config  *rest.Config
	Dynamic dynamic.Interface
	// Kubeconfig is a self-contained kubeconfig for a client outside the
	// test: the server's URL, its CA and the admin bearer token, as AKS's
	// listClusterUserCredential or Fleet's listCredentials return it for a
	// cluster with local accounts.
	Kubeconfig []byte
	// Token is the admin bearer token (user AdminUser, group system:masters).
	Token string

	env      *Env
	prefix   string // the etcd prefix of the cluster's objects
	tb       *serverTB
	teardown func()

	crdMu sync.Mutex
	crds  map[string]bool // names of the CRDs installed and Established
	ext   apiextclient.Interface
}

// Cluster returns the API server called name, starting it on the first call
// for that name, and installs the CRDs not yet installed in it (by name),
// waiting until each is Established; a CRD whose names are not accepted is
// an error. It is safe for concurrent use: concurrent first calls for a name
// start one server. A start that failed is tried again by the next call.
func (e *Env) Cluster(name string, crds ...*apiextv1.CustomResourceDefinition) (*Cluster, error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, errors.New("kubetest: Cluster called after Close")
	}
	slot, found := e.clusters[name]
	seq := 0
	if !found {
		slot = &clusterSlot{ready: make(chan struct{})}
		e.clusters[name] = slot
		e.started++
		seq = e.started
	}
	e.mu.Unlock()

	if !found {
		e.fillSlot(slot, name, seq)
	}
	<-slot.ready
	if slot.err != nil {
		return nil, slot.err
	}
	if err := slot.cluster.installCRDs(crds); err != nil {
		return nil, err
	}
	return slot.cluster, nil
}

// fillSlot starts the cluster of slot and records it, or the error, in the
// slot while Close cannot run, so that Close stops every cluster started.
// A failed start leaves the name free for a later call to try again.
func (e *Env) fillSlot(slot *clusterSlot, name string, seq int) {
	defer close(slot.ready)
	e.startMu.Lock()
	defer e.startMu.Unlock()
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	var c *Cluster
	err := errors.New("kubetest: Cluster called after Close")
	if !closed {
		c, err = e.startCluster(name, seq)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	slot.cluster, slot.err = c, err
	if err != nil {
		delete(e.clusters, name)
	}
}

// startCluster starts the kube-apiserver of a cluster, seq being unique in
// the Env. The caller holds e.startMu.
func (e *Env) startCluster(name string, seq int) (*Cluster, error) {
	dir, err := os.MkdirTemp(e.dir, "cluster-")
	if err != nil {
		return nil, fmt.Errorf("kubetest: cluster %q: %w", name, err)
	}
	token, err := randomToken()
	if err != nil {
		return nil, fmt.Errorf("kubetest: cluster %q: %w", name, err)
	}
	tokenFile := filepath.Join(dir, "tokens.csv")
	line := fmt.Sprintf("%s,%s,%s,\"system:masters\"\n", token, AdminUser, AdminUser)
	if err := os.WriteFile(tokenFile, []byte(line), 0o600); err != nil {
		return nil, fmt.Errorf("kubetest: cluster %q: %w", name, err)
	}

	prefix := "/kubetest/" + strconv.Itoa(seq)
	storage := storagebackend.NewDefaultConfig(prefix, nil)
	storage.Transport.ServerList = []string{e.clientURL.String()}
	flags := []string{
		"--token-auth-file=" + tokenFile,
		"--authorization-mode=RBAC", // system:masters is always allowed
		"--storage-media-type=application/json",
		// API Priority and Fairness would create its bootstrap
		// configuration objects at each start: not needed by tests.
		"--enable-priority-and-fairness=false",
		"--profiling=false",
	}
	tb := newServerTB(e, name)
	opts := &kubeapiservertesting.TestServerInstanceOptions{
		// The invariant checks scrape metrics at tear-down and report
		// through the TB: of no use here.
		DisableInvariantChecks: true,
	}
	srv, err := startTestServer(tb, opts, flags, storage)
	if err != nil {
		tb.runCleanups()
		return nil, fmt.Errorf("kubetest: starting the API server of cluster %q: %w", name, err)
	}
	c := &Cluster{
		Name:     name,
		Token:    token,
		env:      e,
		prefix:   prefix,
		tb:       tb,
		teardown: srv.TearDownFn,
		crds:     map[string]bool{},
	}
	if err := c.connect(srv); err != nil {
		c.stop()
		return nil, fmt.Errorf("kubetest: cluster %q: %w", name, err)
	}
	e.verbosef("kubetest: cluster %q serving on %s (etcd prefix %s)", name, c.Config.Host, prefix)
	return c, nil
}

// startTestServer is StartTestServer, with a Fatal of the TB as an error.
func startTestServer(tb *serverTB, opts *kubeapiservertesting.TestServerInstanceOptions, flags []string, storage *storagebackend.Config) (srv kubeapiservertesting.TestServer, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(fatalError)
			if !ok {
				panic(r)
			}
			// StartTestServer's deferred clean-up has run.
			srv, err = kubeapiservertesting.TestServer{}, f
		}
	}()
	return kubeapiservertesting.StartTestServer(tb, opts, flags, storage)
}

// connect sets the cluster's kubeconfig and clients from the started server.
func (c *Cluster) connect(srv kubeapiservertesting.TestServer) error {
	serving := srv.ServerOpts.SecureServing
	certPEM, err := os.ReadFile(serving.ServerCert.CertKey.CertFile)
	if err != nil {
		return fmt.Errorf("reading the serving certificate: %w", err)
	}
	ca, err := caOf(certPEM)
	if err != nil {
		return err
	}
	server := "https://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(serving.BindPort))
	c.Kubeconfig, err = kubeconfig(c.Name, server, ca, c.Token)
	if err != nil {
		return err
	}
	c.Config, err = clientcmd.RESTConfigFromKubeConfig(c.Kubeconfig)
	if err != nil {
		return fmt.Errorf("loading the kubeconfig: %w", err)
	}
	c.Config.QPS, c.Config.Burst = 1000, 2000
	if c.Dynamic, err = dynamic.NewForConfig(c.Config); err != nil {
		return err
	}
	if c.ext, err = apiextclient.NewForConfig(c.Config); err != nil {
		return err
	}
	return nil
}

// caOf returns the PEM of the CA certificates in a serving certificate file
// (the server's certificate followed by the self-signed CA that signed it),
// or the whole file if it holds no CA certificate.
func caOf(certPEM []byte) ([]byte, error) {
	var cas bytes.Buffer
	n := 0
	for rest := certPEM; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		n++
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parsing the serving certificate: %w", err)
		}
		if cert.IsCA {
			if err := pem.Encode(&cas, block); err != nil {
				return nil, err
			}
		}
	}
	if n == 0 {
		return nil, errors.New("the serving certificate file holds no certificate")
	}
	if cas.Len() == 0 {
		return certPEM, nil
	}
	return cas.Bytes(), nil
}

// kubeconfig returns a kubeconfig with one cluster, user and context, all
// called name.
func kubeconfig(name, server string, ca []byte, token string) ([]byte, error) {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[name] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: ca}
	cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
	cfg.CurrentContext = name
	out, err := clientcmd.Write(*cfg)
	if err != nil {
		return nil, fmt.Errorf("writing the kubeconfig: %w", err)
	}
	return out, nil
}

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// stop tears the API server down and runs what it left to clean up.
func (c *Cluster) stop() {
	if c.teardown != nil {
		c.teardown()
	}
	c.tb.runCleanups()
}

// installCRDs creates the CRDs not installed yet and waits until each is
// Established.
// InstallCRDs creates the CRDs the cluster does not have yet and waits
// until their resources can be written.
func (c *Cluster) InstallCRDs(crds ...*apiextv1.CustomResourceDefinition) error {
	return c.installCRDs(crds)
}

func (c *Cluster) installCRDs(crds []*apiextv1.CustomResourceDefinition) error {
	c.crdMu.Lock()
	defer c.crdMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), crdTimeout)
	defer cancel()
	var pending []string
	for _, crd := range crds {
		if c.crds[crd.Name] {
			continue
		}
		in := crd.DeepCopy()
		in.ResourceVersion, in.UID, in.CreationTimestamp = "", "", metav1.Time{}
		in.Status = apiextv1.CustomResourceDefinitionStatus{}
		_, err := c.ext.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, in, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("kubetest: cluster %q: creating CRD %s: %w", c.Name, crd.Name, err)
		}
		pending = append(pending, crd.Name)
	}
	var establishedAt time.Time
	for _, name := range pending {
		crd, err := c.waitEstablished(ctx, name)
		if err == nil {
			err = c.warmUp(ctx, crd)
		}
		if err != nil {
			return fmt.Errorf("kubetest: cluster %q: CRD %s: %w", c.Name, name, err)
		}
		if at := establishedTime(crd); at.After(establishedAt) {
			establishedAt = at
		}
		c.crds[name] = true
	}
	// The API server holds every create of a custom resource for 2s while
	// its CRD has been Established for less than 2s (by the condition's
	// lastTransitionTime, which has second precision), for the sake of HA
	// clusters. Wait that out here, once for all the new CRDs, rather than
	// in the first create of each test.
	if !establishedAt.IsZero() {
		if err := sleep(ctx, time.Until(establishedAt.Add(justCreatedWindow))); err != nil {
			return fmt.Errorf("kubetest: cluster %q: %w", c.Name, err)
		}
	}
	return nil
}

// justCreatedWindow is how long after a CRD is Established the API server
// delays creates of its resources (apiextensions-apiserver's crdHandler).
const justCreatedWindow = 2*time.Second + 10*time.Millisecond

func establishedTime(crd *apiextv1.CustomResourceDefinition) time.Time {
	for _, cond := range crd.Status.Conditions {
		if cond.Type == apiextv1.Established {
			return cond.LastTransitionTime.Time
		}
	}
	return time.Time{}
}

// warmUp lists the custom resources of each served version until the API
// server answers. Until the watch cache of a new CRD is filled (on the
// first request) the API server answers a list with a 429 and Retry-After:
// 1s, which client-go obeys: without this the first list of every CRD in a
// test would take a second.
func (c *Cluster) warmUp(ctx context.Context, crd *apiextv1.CustomResourceDefinition) error {
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		for {
			err := c.ext.ApiextensionsV1().RESTClient().Get().
				AbsPath("/apis", crd.Spec.Group, v.Name, crd.Spec.Names.Plural).
				Param("limit", "1").
				MaxRetries(0).
				Do(ctx).Error()
			if err == nil {
				break
			}
			if !apierrors.IsTooManyRequests(err) {
				return fmt.Errorf("listing %s %s: %w", v.Name, crd.Spec.Names.Plural, err)
			}
			if err := sleep(ctx, 10*time.Millisecond); err != nil {
				return fmt.Errorf("listing %s %s: %w", v.Name, crd.Spec.Names.Plural, err)
			}
		}
	}
	return nil
}

// sleep waits d (nothing if d <= 0) or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (c *Cluster) waitEstablished(ctx context.Context, name string) (*apiextv1.CustomResourceDefinition, error) {
	for {
		crd, err := c.ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		for _, cond := range crd.Status.Conditions {
			switch {
			case cond.Type == apiextv1.NamesAccepted && cond.Status == apiextv1.ConditionFalse:
				return nil, fmt.Errorf("names not accepted: %s: %s", cond.Reason, cond.Message)
			case cond.Type == apiextv1.Established && cond.Status == apiextv1.ConditionTrue:
				return crd, nil
			}
		}
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return nil, fmt.Errorf("not Established after %s", crdTimeout)
		}
	}
}

// etcdKey is where the API server stores a cluster-scoped object: core
// objects under <prefix>/<resource>/<name>, except Nodes, which are kept
// under "minions"; objects of other groups (custom resources) under
// <prefix>/<group>/<resource>/<name>.
func (c *Cluster) etcdKey(gvr schema.GroupVersionResource, name string) string {
	if gvr.Group == "" {
		resource := gvr.Resource
		if resource == "nodes" {
			resource = "minions"
		}
		return c.prefix + "/" + resource + "/" + name
	}
	return c.prefix + "/" + gvr.Group + "/" + gvr.Resource + "/" + name
}

// Backdate sets the metadata.creationTimestamp of a stored cluster-scoped
// object (a custom resource or a Node) to created, truncated to the second,
// by rewriting it in etcd: the API server sets the creation time to now on
// every create. The object's resourceVersion changes, as on any write.
func (c *Cluster) Backdate(ctx context.Context, gvr schema.GroupVersionResource, name string, created time.Time) error {
	key := c.etcdKey(gvr, name)
	for range 10 {
		done, err := c.backdateOnce(ctx, key, created)
		if err != nil {
			return fmt.Errorf("kubetest: backdating %s %s in cluster %q: %w", gvr.Resource, name, c.Name, err)
		}
		if done {
			return nil
		}
	}
	return fmt.Errorf("kubetest: backdating %s %s in cluster %q: the object kept changing", gvr.Resource, name, c.Name)
}

// backdateOnce rewrites the object at key unless it changes meanwhile
// (done false).
func (c *Cluster) backdateOnce(ctx context.Context, key string, created time.Time) (done bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, etcdOpTimeout)
	defer cancel()
	got, err := c.env.etcdClient.Get(ctx, key)
	if err != nil {
		return false, err
	}
	if len(got.Kvs) == 0 {
		return false, fmt.Errorf("no object at etcd key %s", key)
	}
	kv := got.Kvs[0]
	value, err := setCreationTimestamp(kv.Value, created)
	if err != nil {
		return false, fmt.Errorf("etcd key %s: %w", key, err)
	}
	txn, err := c.env.etcdClient.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision(key), "=", kv.ModRevision)).
		Then(clientv3.OpPut(key, string(value))).
		Commit()
	if err != nil {
		return false, err
	}
	return txn.Succeeded, nil
}

// setCreationTimestamp returns the stored JSON object with its
// metadata.creationTimestamp set to created.
func setCreationTimestamp(stored []byte, created time.Time) ([]byte, error) {
	trimmed := bytes.TrimSpace(stored)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, errors.New("the stored object is not JSON (is the storage media type application/json?)")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("decoding the stored object: %w", err)
	}
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		return nil, errors.New("the stored object has no metadata")
	}
	meta["creationTimestamp"] = created.UTC().Format(time.RFC3339)
	return json.Marshal(obj)
}
