// Package kubeapi is the Kubernetes API of the emulated fleet hub cluster:
// a read-only endpoint, an http.Handler, serving Fleet's MemberClusters
// (cluster.kubernetes-fleet.io/v1, cluster-scoped) of a fleet, so that the
// real client-go (dynamic client, discovery, REST mapper, pager) and kubectl
// read a local fleet as they read a hub cluster (designs/hub.md §3). Each
// object is kube.MemberCluster of a cluster of the fleet.
//
// What it serves, with a bearer token (any other request is 401):
//
//	GET /version                                            version.Info
//	GET /api, /api/v1                                       APIVersions; an empty core APIResourceList
//	GET /apis, /apis/cluster.kubernetes-fleet.io            APIGroupList; APIGroup
//	GET /apis/cluster.kubernetes-fleet.io/v1                APIResourceList: memberclusters (get, list)
//	GET /apis/cluster.kubernetes-fleet.io/v1/memberclusters             MemberClusterList
//	GET /apis/cluster.kubernetes-fleet.io/v1/memberclusters/{name}      MemberCluster
//	GET /apis/cluster.kubernetes-fleet.io/v1/memberclusters/{name}/status  the same object
//
// Lists are in name order, as etcd lists a cluster-scoped resource. They
// honour limit and continue (with a limit, a page holds at most limit items,
// and at most PageSize, 2 by default, so that clients page; the continue
// token is opaque and resumes after the last name served, on the fleet as it
// is when the next page is asked for),
// labelSelector, and fieldSelector on metadata.name. A watch is refused (405),
// as is every method but GET and HEAD. Errors are metav1.Status documents, as
// the API server writes them: 401 Unauthorized, 404 NotFound (a member, or
// any other path), 400 BadRequest (a bad limit, continue token or selector),
// 405 MethodNotAllowed, 500 InternalError (the fleet could not be read).
//
// Discovery is the legacy (unaggregated) form: client-go asks for the
// aggregated form first and falls back to it when the answer is plain JSON.
// Answers are JSON whatever the Accept header (no protobuf, no Table).
package kubeapi

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"runtime"
	"strconv"
	"strings"

	"github.com/google/uuid"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/version"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// DefaultPageSize is the most items a list page holds when the client sets
// a limit: small on purpose, so that clients page (the API lets a server
// answer fewer items than the limit, with a continue token), as the ARM
// emulator's LISTs do.
const DefaultPageSize = 2

// The version the endpoint reports at /version.
const (
	versionMajor = "1"
	versionMinor = "33"
	gitVersion   = "v1.33.2"
)

// Server is the endpoint.
type Server struct {
	// PageSize is the most items of a list page when the client sets a
	// limit (a list without a limit has every item); New sets
	// DefaultPageSize. Set it before serving.
	PageSize int

	fleet func(ctx context.Context) (*fleet.Fleet, error)
	token string
}

// New makes the endpoint over a fleet, read once per request. token is the
// bearer token every request must carry (the one Kubeconfig writes); with an
// empty token every request is refused.
func New(fleet func(ctx context.Context) (*fleet.Fleet, error), token string) *Server {
	return &Server{PageSize: DefaultPageSize, fleet: fleet, token: token}
}

// Owns tells whether a request is for this endpoint: a path under /api,
// /apis or /version.
func (s *Server) Owns(r *http.Request) bool {
	p := r.URL.Path
	for _, root := range []string{"/api", "/apis", "/version"} {
		if p == root || strings.HasPrefix(p, root+"/") {
			return true
		}
	}
	return false
}

var memberClusters = schema.GroupResource{Group: kube.MemberClusterGroup, Resource: kube.MemberClusterResource}

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		writeStatus(w, apierrors.NewUnauthorized("Unauthorized"))
		return
	}
	p := r.URL.Path
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	var serve func()
	switch p {
	case "/version":
		serve = func() { writeJSON(w, http.StatusOK, versionInfo()) }
	case "/api":
		serve = func() { writeJSON(w, http.StatusOK, apiVersions(r)) }
	case "/api/v1":
		serve = func() {
			writeJSON(w, http.StatusOK, &metav1.APIResourceList{TypeMeta: typeMeta("APIResourceList"), GroupVersion: "v1", APIResources: []metav1.APIResource{}})
		}
	case "/apis":
		serve = func() {
			writeJSON(w, http.StatusOK, &metav1.APIGroupList{TypeMeta: typeMeta("APIGroupList"), Groups: []metav1.APIGroup{apiGroup()}})
		}
	case "/apis/" + kube.MemberClusterGroup:
		serve = func() { g := apiGroup(); g.TypeMeta = typeMeta("APIGroup"); writeJSON(w, http.StatusOK, &g) }
	case "/apis/" + kube.MemberClusterAPIVersion:
		serve = func() { writeJSON(w, http.StatusOK, apiResources()) }
	case "/apis/" + kube.MemberClusterAPIVersion + "/" + kube.MemberClusterResource:
		serve = func() { s.list(w, r) }
	default:
		rest, ok := strings.CutPrefix(p, "/apis/"+kube.MemberClusterAPIVersion+"/"+kube.MemberClusterResource+"/")
		name, sub, _ := strings.Cut(rest, "/")
		if ok && name != "" && (sub == "" || sub == "status") {
			serve = func() { s.get(w, r, name) }
		}
	}
	switch {
	case serve == nil:
		writeStatus(w, notFound())
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		writeStatus(w, apierrors.NewMethodNotSupported(memberClusters, strings.ToLower(r.Method)))
	default:
		serve()
	}
}

// authorized checks the bearer token, as the API server's token
// authenticator reads the header (scheme in any case).
func (s *Server) authorized(r *http.Request) bool {
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	token = strings.TrimSpace(token)
	return ok && s.token != "" && strings.EqualFold(scheme, "bearer") &&
		subtle.ConstantTimeCompare([]byte(token), []byte(s.token)) == 1
}

// snapshot is the fleet's MemberClusters, made once per shared fleet.
type snapshot struct {
	items           []item // in name order
	resourceVersion string
}

type item struct {
	name   string
	labels labels.Set
	json   []byte
}

func (s *Server) snapshot(ctx context.Context) (*snapshot, error) {
	f, err := s.fleet(ctx)
	if err != nil {
		return nil, err
	}
	return fleet.Derive(f, "armemu/kubeapi.memberclusters", func() *snapshot { return build(f) }), nil
}

// build makes the served objects: MemberCluster, with the metadata a server
// sets (a uid that follows the name, a resourceVersion that follows the
// content) — but no creationTimestamp, which the fleet model does not know.
func build(f *fleet.Fleet) *snapshot {
	snap := &snapshot{items: make([]item, 0, len(f.Clusters))}
	all := fnv.New64a()
	for i := range f.Clusters {
		c := &f.Clusters[i]
		u := kube.MemberCluster(c)
		content, _ := json.Marshal(u.Object) // JSON values only: cannot fail
		u.SetUID(uidOf(c.Name))
		u.SetResourceVersion(versionOf(content))
		b, _ := json.Marshal(u.Object)
		snap.items = append(snap.items, item{name: c.Name, labels: labels.Set(c.Labels), json: b})
		all.Write(b)
	}
	snap.resourceVersion = strconv.FormatUint(max(all.Sum64(), 1), 10)
	return snap
}

var uidSpace = uuid.MustParse("6f1c5a0e-3c57-4f55-9a2c-0f1e7b0d9a51")

func uidOf(name string) types.UID { return types.UID(uuid.NewSHA1(uidSpace, []byte(name)).String()) }

// versionOf is a resourceVersion for a content: a decimal number, as the
// API server's are (clients must not interpret them, and some still parse them).
func versionOf(content []byte) string {
	h := fnv.New64a()
	h.Write(content)
	return strconv.FormatUint(max(h.Sum64(), 1), 10)
}

func (s *Server) get(w http.ResponseWriter, r *http.Request, name string) {
	snap, err := s.snapshot(r.Context())
	if err != nil {
		writeStatus(w, internalError(err))
		return
	}
	for _, it := range snap.items {
		if it.name == name {
			writeRaw(w, http.StatusOK, it.json)
			return
		}
	}
	writeStatus(w, apierrors.NewNotFound(memberClusters, name))
}

// continueToken is what a continue token says: resume after Start.
type continueToken struct {
	V     string `json:"v"`
	RV    string `json:"rv"`
	Start string `json:"start"`
}

const tokenVersion = "kubeapi/v1"

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch strings.ToLower(q.Get("watch")) {
	case "", "false", "0":
	default:
		writeStatus(w, apierrors.NewMethodNotSupported(memberClusters, "watch"))
		return
	}
	limit := int64(0)
	if v := q.Get("limit"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			writeStatus(w, apierrors.NewBadRequest(fmt.Sprintf("limit %q is not an integer", v)))
			return
		}
		limit = n
	}
	if limit > 0 && s.PageSize > 0 && limit > int64(s.PageSize) {
		limit = int64(s.PageSize)
	}
	start := ""
	if v := q.Get("continue"); v != "" {
		tok, ok := decodeContinue(v)
		if !ok {
			writeStatus(w, apierrors.NewBadRequest("continue key is not valid: it is not a continue token of this server"))
			return
		}
		start = tok.Start
	}
	labelSel, err := labels.Parse(q.Get("labelSelector"))
	if err != nil {
		writeStatus(w, apierrors.NewBadRequest("unable to parse labelSelector: "+err.Error()))
		return
	}
	fieldSel, err := fields.ParseSelector(q.Get("fieldSelector"))
	if err != nil {
		writeStatus(w, apierrors.NewBadRequest("unable to parse fieldSelector: "+err.Error()))
		return
	}
	for _, req := range fieldSel.Requirements() {
		if req.Field != "metadata.name" && req.Field != "metadata.namespace" {
			writeStatus(w, apierrors.NewBadRequest(fmt.Sprintf("field label not supported: %s", req.Field)))
			return
		}
	}

	snap, err := s.snapshot(r.Context())
	if err != nil {
		writeStatus(w, internalError(err))
		return
	}
	var page []json.RawMessage
	rest := 0 // matching items after the page
	last := ""
	for _, it := range snap.items {
		if it.name <= start && start != "" {
			continue
		}
		if !labelSel.Matches(it.labels) || !fieldSel.Matches(fields.Set{"metadata.name": it.name, "metadata.namespace": ""}) {
			continue
		}
		if limit > 0 && int64(len(page)) >= limit {
			rest++
			continue
		}
		page = append(page, it.json)
		last = it.name
	}
	meta := map[string]any{"resourceVersion": snap.resourceVersion}
	if rest > 0 {
		meta["continue"] = encodeContinue(continueToken{V: tokenVersion, RV: snap.resourceVersion, Start: last})
		if labelSel.Empty() && fieldSel.Empty() { // as the API server: only without selectors
			meta["remainingItemCount"] = rest
		}
	}
	if page == nil {
		page = []json.RawMessage{}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"apiVersion": kube.MemberClusterAPIVersion,
		"kind":       kube.MemberClusterListKind,
		"metadata":   meta,
		"items":      page,
	})
}

func encodeContinue(t continueToken) string {
	b, _ := json.Marshal(t)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeContinue(s string) (continueToken, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return continueToken{}, false
	}
	var t continueToken
	if err := json.Unmarshal(b, &t); err != nil || t.V != tokenVersion || t.Start == "" {
		return continueToken{}, false
	}
	return t, true
}

func typeMeta(kind string) metav1.TypeMeta { return metav1.TypeMeta{Kind: kind, APIVersion: "v1"} }

func versionInfo() *version.Info {
	return &version.Info{
		Major: versionMajor, Minor: versionMinor, GitVersion: gitVersion,
		GitTreeState: "clean", GoVersion: runtime.Version(), Compiler: runtime.Compiler,
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
}

func apiVersions(r *http.Request) *metav1.APIVersions {
	return &metav1.APIVersions{
		TypeMeta: typeMeta("APIVersions"),
		Versions: []string{"v1"},
		ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{
			{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host},
		},
	}
}

func apiGroup() metav1.APIGroup {
	v := metav1.GroupVersionForDiscovery{GroupVersion: kube.MemberClusterAPIVersion, Version: kube.MemberClusterVersion}
	return metav1.APIGroup{Name: kube.MemberClusterGroup, Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v}
}

// apiResources is the discovery document of Fleet's cluster API, as the
// CRD declares memberclusters (categories, short name), with the verbs
// served here.
func apiResources() *metav1.APIResourceList {
	return &metav1.APIResourceList{
		TypeMeta:     typeMeta("APIResourceList"),
		GroupVersion: kube.MemberClusterAPIVersion,
		APIResources: []metav1.APIResource{
			{
				Name: kube.MemberClusterResource, SingularName: kube.MemberClusterSingular, Namespaced: false, Kind: kube.MemberClusterKind,
				Verbs: metav1.Verbs{"get", "list"}, ShortNames: []string{"cluster"}, Categories: []string{"fleet", "fleet-cluster"},
			},
			{Name: kube.MemberClusterResource + "/status", SingularName: "", Namespaced: false, Kind: kube.MemberClusterKind, Verbs: metav1.Verbs{"get"}},
		},
	}
}

// notFound is the API server's answer for a path it does not serve.
func notFound() *apierrors.StatusError {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusNotFound, Reason: metav1.StatusReasonNotFound,
		Message: "the server could not find the requested resource", Details: &metav1.StatusDetails{},
	}}
}

func internalError(err error) *apierrors.StatusError {
	return apierrors.NewInternalError(fmt.Errorf("reading the fleet: %w", err))
}

func writeStatus(w http.ResponseWriter, err *apierrors.StatusError) {
	st := err.Status()
	st.TypeMeta = typeMeta("Status")
	writeJSON(w, int(st.Code), &st)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		st := apierrors.NewInternalError(err).Status()
		st.TypeMeta = typeMeta("Status")
		code = http.StatusInternalServerError
		b, _ = json.Marshal(&st)
	}
	writeRaw(w, code, b)
}

func writeRaw(w http.ResponseWriter, code int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache, private")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	w.Write(b)
	w.Write([]byte("\n"))
}
