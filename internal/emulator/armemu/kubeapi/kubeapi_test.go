package kubeapi

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/pager"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

const token = "test-token-0123456789"

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// fixture is the endpoint over the sample fleet, behind loopback TLS.
type fixture struct {
	fleet  *fleet.Fleet
	server *Server
	srv    *httptest.Server
	caPEM  []byte
	cfg    *rest.Config
	fail   atomic.Bool // the backend fails
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	h, err := mock.New(mock.Config{
		StatePath: filepath.Join(t.TempDir(), "s.db"),
		Clock:     mock.ClockConfig{Mode: mock.ClockFixed, Time: now},
	})
	if err != nil {
		t.Fatal(err)
	}
	fx := &fixture{}
	fx.fleet, err = h.Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(fx.fleet.Clusters) < 5 {
		t.Fatalf("the sample fleet has %d clusters; the paging test wants more", len(fx.fleet.Clusters))
	}
	fx.server = New(func(ctx context.Context) (*fleet.Fleet, error) {
		if fx.fail.Load() {
			return nil, errors.New("the backend is down")
		}
		return h.Fleet(ctx)
	}, token)
	fx.srv = httptest.NewTLSServer(fx.server)
	t.Cleanup(fx.srv.Close)
	fx.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: fx.srv.Certificate().Raw})
	fx.cfg, err = clientcmd.RESTConfigFromKubeConfig(Kubeconfig(fx.srv.URL, fx.caPEM, token))
	if err != nil {
		t.Fatalf("the kubeconfig does not load: %v", err)
	}
	fx.cfg.QPS, fx.cfg.Burst = -1, -1 // no client-side rate limit (5 requests a second by default)
	return fx
}

func (fx *fixture) dynamic(t *testing.T, cfg *rest.Config) dynamic.NamespaceableResourceInterface {
	t.Helper()
	c, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c.Resource(kube.MemberClusterGVR)
}

// checkFacts compares what the server sent for a cluster with the fleet.
func checkFacts(t *testing.T, c *fleet.Cluster, u *unstructured.Unstructured) {
	t.Helper()
	got, err := kube.MemberFactsFrom(u)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	if len(got.Labels)+len(c.Labels) > 0 && !reflect.DeepEqual(got.Labels, c.Labels) {
		t.Errorf("%s: labels %v, want %v", c.Name, got.Labels, c.Labels)
	}
	if len(got.Taints)+len(c.Taints) > 0 && !reflect.DeepEqual(got.Taints, c.Taints) {
		t.Errorf("%s: taints %v, want %v", c.Name, got.Taints, c.Taints)
	}
	if got.Agent != c.Agent {
		t.Errorf("%s: agent %+v, want %+v", c.Name, got.Agent, c.Agent)
	}
	if len(got.Properties)+len(c.Properties) > 0 && !reflect.DeepEqual(got.Properties, c.Properties) {
		t.Errorf("%s: properties %v, want %v", c.Name, got.Properties, c.Properties)
	}
	for _, capacity := range []string{fleet.CapacityTotal, fleet.CapacityAllocatable, fleet.CapacityAvailable} {
		g, w := got.Usage.ByCapacity(capacity), c.Usage.ByCapacity(capacity)
		if !sameQuantities(g, w) {
			t.Errorf("%s: %s %v, want %v", c.Name, capacity, g, w)
		}
	}
}

func sameQuantities(a, b map[string]resource.Quantity) bool {
	if len(a) != len(b) {
		return false
	}
	for k, q := range a {
		if w, ok := b[k]; !ok || q.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

func names(items []unstructured.Unstructured) []string {
	out := make([]string, len(items))
	for i := range items {
		out[i] = items[i].GetName()
	}
	return out
}

func fleetNames(f *fleet.Fleet) []string {
	out := make([]string, len(f.Clusters))
	for i := range f.Clusters {
		out[i] = f.Clusters[i].Name
	}
	return out
}

func TestListAndGetWithClientGo(t *testing.T) {
	fx := newFixture(t)
	mcs := fx.dynamic(t, fx.cfg)
	ctx := context.Background()

	list, err := mcs.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if list.GetResourceVersion() == "" || list.GetContinue() != "" {
		t.Errorf("list metadata: resourceVersion %q, continue %q", list.GetResourceVersion(), list.GetContinue())
	}
	if got, want := names(list.Items), fleetNames(fx.fleet); !reflect.DeepEqual(got, want) {
		t.Fatalf("listed %v, want %v", got, want)
	}
	for i := range list.Items {
		u := &list.Items[i]
		c := &fx.fleet.Clusters[i]
		if u.GetAPIVersion() != kube.MemberClusterAPIVersion || u.GetKind() != kube.MemberClusterKind || u.GetUID() == "" || u.GetResourceVersion() == "" {
			t.Errorf("%s: %s %s uid %q resourceVersion %q", c.Name, u.GetAPIVersion(), u.GetKind(), u.GetUID(), u.GetResourceVersion())
		}
		checkFacts(t, c, u)

		got, err := mcs.Get(ctx, c.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("get %s: %v", c.Name, err)
		}
		if !reflect.DeepEqual(got.Object, u.Object) {
			t.Errorf("%s: get and list differ:\n%v\n%v", c.Name, got.Object, u.Object)
		}
		status, err := mcs.Get(ctx, c.Name, metav1.GetOptions{}, "status")
		if err != nil || !reflect.DeepEqual(status.Object, u.Object) {
			t.Errorf("get %s/status: %v", c.Name, err)
		}
	}

	// The same fleet again: the same resourceVersion.
	again, err := mcs.List(ctx, metav1.ListOptions{})
	if err != nil || again.GetResourceVersion() != list.GetResourceVersion() {
		t.Errorf("second list: resourceVersion %q, first %q (%v)", again.GetResourceVersion(), list.GetResourceVersion(), err)
	}
}

func TestPaging(t *testing.T) {
	fx := newFixture(t)
	mcs := fx.dynamic(t, fx.cfg)
	ctx := context.Background()
	want := fleetNames(fx.fleet)

	var got []string
	opts := metav1.ListOptions{Limit: 2}
	pages := 0
	for {
		page, err := mcs.List(ctx, opts)
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		pages++
		if len(page.Items) > 2 || len(page.Items) == 0 {
			t.Fatalf("page %d has %d items", pages, len(page.Items))
		}
		got = append(got, names(page.Items)...)
		rest := page.GetRemainingItemCount()
		if page.GetContinue() == "" {
			if rest != nil {
				t.Errorf("last page: remainingItemCount %d", *rest)
			}
			break
		}
		if rest == nil || int(*rest) != len(want)-len(got) {
			t.Errorf("page %d: remainingItemCount %v, want %d", pages, rest, len(want)-len(got))
		}
		opts.Continue = page.GetContinue()
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("paged %v, want %v", got, want)
	}
	if wantPages := (len(want) + 1) / 2; pages != wantPages {
		t.Errorf("%d pages, want %d", pages, wantPages)
	}

	// client-go's pager, as kubectl and informers page.
	p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return mcs.List(ctx, opts)
	})
	p.PageSize = 2
	got = nil
	if err := p.EachListItem(ctx, metav1.ListOptions{}, func(o runtime.Object) error {
		got = append(got, o.(*unstructured.Unstructured).GetName())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the pager listed %v, want %v", got, want)
	}

	// A larger limit still gets pages of PageSize; with a larger PageSize,
	// pages of the limit.
	for _, c := range []struct {
		pageSize int
		limit    int64
		first    int
	}{{DefaultPageSize, 5, 2}, {500, 5, 5}, {500, 1000, len(want)}, {0, 5, 5}, {DefaultPageSize, 0, len(want)}} {
		fx.server.PageSize = c.pageSize
		page, err := mcs.List(ctx, metav1.ListOptions{Limit: c.limit})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != c.first || (page.GetContinue() != "") != (c.first < len(want)) {
			t.Errorf("PageSize %d, limit %d: %d items, continue %q; want %d", c.pageSize, c.limit, len(page.Items), page.GetContinue(), c.first)
		}
	}
	fx.server.PageSize = DefaultPageSize

	// A continue token that is not one is a bad request.
	_, err := mcs.List(ctx, metav1.ListOptions{Limit: 2, Continue: "garbage"})
	if !apierrors.IsBadRequest(err) {
		t.Errorf("a bad continue token: %v, want BadRequest", err)
	}
}

func TestSelectors(t *testing.T) {
	fx := newFixture(t)
	mcs := fx.dynamic(t, fx.cfg)
	ctx := context.Background()
	var prod []string
	for _, c := range fx.fleet.Clusters {
		if c.Labels["env"] == "prod" {
			prod = append(prod, c.Name)
		}
	}
	if len(prod) < 2 {
		t.Fatalf("the sample fleet has %d prod clusters", len(prod))
	}
	list, err := mcs.List(ctx, metav1.ListOptions{LabelSelector: "env=prod"})
	if err != nil || !reflect.DeepEqual(names(list.Items), prod) {
		t.Errorf("env=prod: %v (%v), want %v", names(list.Items), err, prod)
	}
	// Paging through a selection.
	var got []string
	opts := metav1.ListOptions{LabelSelector: "env=prod", Limit: 1}
	for {
		page, err := mcs.List(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, names(page.Items)...)
		if page.GetRemainingItemCount() != nil {
			t.Error("remainingItemCount with a selector")
		}
		if opts.Continue = page.GetContinue(); opts.Continue == "" {
			break
		}
	}
	if !reflect.DeepEqual(got, prod) {
		t.Errorf("paged env=prod: %v, want %v", got, prod)
	}
	one := fx.fleet.Clusters[1].Name
	list, err = mcs.List(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + one})
	if err != nil || !reflect.DeepEqual(names(list.Items), []string{one}) {
		t.Errorf("metadata.name=%s: %v (%v)", one, names(list.Items), err)
	}
	for _, bad := range []metav1.ListOptions{{LabelSelector: "env in (prod"}, {FieldSelector: "spec.color=red"}} {
		if _, err := mcs.List(ctx, bad); !apierrors.IsBadRequest(err) {
			t.Errorf("%+v: %v, want BadRequest", bad, err)
		}
	}
	none, err := mcs.List(ctx, metav1.ListOptions{LabelSelector: "env=nowhere"})
	if err != nil || len(none.Items) != 0 {
		t.Errorf("env=nowhere: %v (%v)", names(none.Items), err)
	}
}

func TestErrors(t *testing.T) {
	fx := newFixture(t)
	ctx := context.Background()

	_, err := fx.dynamic(t, fx.cfg).Get(ctx, "no-such-member", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Fatalf("get of a missing member: %v, want NotFound", err)
	}
	if st := (apierrors.APIStatus)(nil); errors.As(err, &st) {
		d := st.Status().Details
		if d == nil || d.Name != "no-such-member" || d.Group != kube.MemberClusterGroup || d.Kind != kube.MemberClusterResource {
			t.Errorf("NotFound details %+v", d)
		}
	}

	for name, cfg := range map[string]*rest.Config{
		"no token":    withToken(fx.cfg, ""),
		"wrong token": withToken(fx.cfg, "not-"+token),
	} {
		mcs := fx.dynamic(t, cfg)
		if _, err := mcs.List(ctx, metav1.ListOptions{}); !apierrors.IsUnauthorized(err) {
			t.Errorf("%s: list: %v, want Unauthorized", name, err)
		}
		if _, err := mcs.Get(ctx, fx.fleet.Clusters[0].Name, metav1.GetOptions{}); !apierrors.IsUnauthorized(err) {
			t.Errorf("%s: get: %v, want Unauthorized", name, err)
		}
	}

	fx.fail.Store(true)
	if _, err := fx.dynamic(t, fx.cfg).List(ctx, metav1.ListOptions{}); !apierrors.IsInternalError(err) || !strings.Contains(err.Error(), "the backend is down") {
		t.Errorf("a failing backend: %v, want InternalError", err)
	}
	fx.fail.Store(false)

	if _, err := fx.dynamic(t, fx.cfg).Watch(ctx, metav1.ListOptions{}); !apierrors.IsMethodNotSupported(err) {
		t.Errorf("watch: %v, want MethodNotAllowed", err)
	}
	if err := fx.dynamic(t, fx.cfg).Delete(ctx, fx.fleet.Clusters[0].Name, metav1.DeleteOptions{}); !apierrors.IsMethodNotSupported(err) {
		t.Errorf("delete: %v, want MethodNotAllowed", err)
	}
	other := schema.GroupVersionResource{Group: kube.MemberClusterGroup, Version: kube.MemberClusterVersion, Resource: "internalmemberclusters"}
	c, _ := dynamic.NewForConfig(fx.cfg)
	if _, err := c.Resource(other).List(ctx, metav1.ListOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("another resource: %v, want NotFound", err)
	}
}

func withToken(cfg *rest.Config, token string) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.BearerToken = token
	return c
}

// TestRawStatus checks the wire of the errors: metav1.Status JSON, as the
// API server writes it.
func TestRawStatus(t *testing.T) {
	fx := newFixture(t)
	client := fx.srv.Client()
	do := func(method, path, tok string) (int, metav1.Status) {
		t.Helper()
		req, _ := http.NewRequest(method, fx.srv.URL+path, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q", method, path, ct)
		}
		b, _ := io.ReadAll(resp.Body)
		var st metav1.Status
		if resp.StatusCode != http.StatusOK {
			if err := json.Unmarshal(b, &st); err != nil || st.Kind != "Status" || st.APIVersion != "v1" || st.Status != metav1.StatusFailure || int(st.Code) != resp.StatusCode {
				t.Errorf("%s %s: %d %s is not a Status", method, path, resp.StatusCode, b)
			}
		}
		return resp.StatusCode, st
	}
	for _, c := range []struct {
		method, path, token string
		code                int
		reason              metav1.StatusReason
	}{
		{"GET", "/apis/" + kube.MemberClusterAPIVersion + "/memberclusters", "", 401, metav1.StatusReasonUnauthorized},
		{"GET", "/version", "", 401, metav1.StatusReasonUnauthorized},
		{"GET", "/apis/" + kube.MemberClusterAPIVersion + "/memberclusters/nope", token, 404, metav1.StatusReasonNotFound},
		{"GET", "/apis/" + kube.MemberClusterAPIVersion + "/memberclusters/" + fx.fleet.Clusters[0].Name + "/scale", token, 404, metav1.StatusReasonNotFound},
		{"GET", "/apis/apps/v1", token, 404, metav1.StatusReasonNotFound},
		{"GET", "/api/v1/namespaces", token, 404, metav1.StatusReasonNotFound},
		{"POST", "/apis/" + kube.MemberClusterAPIVersion + "/memberclusters", token, 405, metav1.StatusReasonMethodNotAllowed},
		{"PATCH", "/apis/" + kube.MemberClusterAPIVersion + "/memberclusters/" + fx.fleet.Clusters[0].Name, token, 405, metav1.StatusReasonMethodNotAllowed},
		{"GET", "/apis/" + kube.MemberClusterAPIVersion + "/memberclusters?limit=two", token, 400, metav1.StatusReasonBadRequest},
		{"GET", "/apis/" + kube.MemberClusterAPIVersion + "/memberclusters?watch=true", token, 405, metav1.StatusReasonMethodNotAllowed},
		{"GET", "/version", token, 200, ""},
		{"GET", "/apis/" + kube.MemberClusterGroup, token, 200, ""},
		{"GET", "/api/v1", token, 200, ""},
	} {
		code, st := do(c.method, c.path, c.token)
		if code != c.code || st.Reason != c.reason {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, code, st.Reason, c.code, c.reason)
		}
	}
	// Bearer in any case, as the API server's authenticator reads it.
	req, _ := http.NewRequest("GET", fx.srv.URL+"/version", nil)
	req.Header.Set("Authorization", "bearer "+token)
	if resp, err := client.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("lower-case bearer: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// TestDiscovery: discovery-based clients (kubectl, REST mappers) find
// memberclusters.
func TestDiscovery(t *testing.T) {
	fx := newFixture(t)
	dc, err := discovery.NewDiscoveryClientForConfig(fx.cfg)
	if err != nil {
		t.Fatal(err)
	}
	v, err := dc.ServerVersion()
	if err != nil || v.Major != "1" || v.GitVersion == "" {
		t.Fatalf("version %+v: %v", v, err)
	}
	groups, resources, err := dc.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, g := range groups {
		found = found || g.Name == kube.MemberClusterGroup && g.PreferredVersion.Version == kube.MemberClusterVersion
	}
	if !found {
		t.Errorf("groups %v", groups)
	}
	found = false
	for _, l := range resources {
		for _, r := range l.APIResources {
			found = found || l.GroupVersion == kube.MemberClusterAPIVersion && r.Name == kube.MemberClusterResource && !r.Namespaced && r.Kind == kube.MemberClusterKind
		}
	}
	if !found {
		t.Errorf("resources %v", resources)
	}

	gr, err := restmapper.GetAPIGroupResources(dc)
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDiscoveryRESTMapper(gr)
	m, err := mapper.RESTMapping(schema.GroupKind{Group: kube.MemberClusterGroup, Kind: kube.MemberClusterKind})
	if err != nil {
		t.Fatal(err)
	}
	if m.Resource != kube.MemberClusterGVR || m.Scope.Name() != "root" {
		t.Errorf("mapping %+v scope %s", m.Resource, m.Scope.Name())
	}
	short := restmapper.NewShortcutExpander(mapper, dc, nil)
	if gvr, err := short.ResourceFor(schema.GroupVersionResource{Resource: "cluster"}); err != nil || gvr != kube.MemberClusterGVR {
		t.Errorf("the short name cluster: %v %v", gvr, err)
	}
}

func TestOwns(t *testing.T) {
	s := New(nil, token)
	for path, want := range map[string]bool{
		"/api": true, "/api/v1": true, "/apis": true, "/apis/x/y": true, "/version": true, "/version/": true,
		"/": false, "/apix": false, "/subscriptions/x": false, "/versions": false, "/common/oauth2/v2.0/token": false,
	} {
		r := &http.Request{URL: &url.URL{Path: path}}
		if got := s.Owns(r); got != want {
			t.Errorf("Owns(%s) = %v", path, got)
		}
	}
}

func TestKubeconfig(t *testing.T) {
	cfg, err := clientcmd.Load(Kubeconfig("https://127.0.0.1:8443", []byte("PEM"), "tok"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := cfg.Contexts[cfg.CurrentContext]
	if ctx == nil || cfg.Clusters[ctx.Cluster].Server != "https://127.0.0.1:8443" || string(cfg.Clusters[ctx.Cluster].CertificateAuthorityData) != "PEM" ||
		cfg.AuthInfos[ctx.AuthInfo].Token != "tok" {
		t.Errorf("kubeconfig %+v", cfg)
	}
	cfg, err = clientcmd.Load(Kubeconfig("https://h", nil, "tok"))
	if err != nil || cfg.Clusters[KubeconfigCluster].CertificateAuthorityData != nil {
		t.Errorf("without a CA: %+v %v", cfg, err)
	}
}
