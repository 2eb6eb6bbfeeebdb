// Package armemu is a wire emulator of Azure Resource Manager in front of a
// hub.Hub (normally the mock hub): a real HTTP server speaking the
// Microsoft.ContainerService fleets protocol of designs/hub.md §3, so that
// the azure hub's azcore client is tested end to end, and tools can be
// pointed at a local fleet.
//
// The emulator holds no resources of its own: every request reads or writes
// the backend, and every wire document is made by the conversions of
// package armfleet. What it adds is the protocol: api-version checks, ARM
// errors, ETag preconditions, paged LISTs, and long-running operations. A
// write is executed on the backend when the request arrives, and is then
// answered as a long-running operation (a status URL that answers
// InProgress a few times before Succeeded) so that clients poll as they do
// against Azure. Faults (throttling, server errors, dropped connections,
// failing status polls) can be switched on at run time.
//
// The protocol follows designs/arm.md §3–§7.
//
// It is part of the wire twin (internal/emulator): tests and
// cmd/fleet-emulator use it, nothing that ships imports it
// (TestImportBoundaries).
package armemu

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu/entraid"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu/kubeapi"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// Options configure the emulator.
type Options struct {
	// Fleet is the one fleet served; requests for another answer 404.
	Fleet armfleet.FleetID
	// Location is the fleet's location (default "eastus").
	Location string
	// Hub is the backend, called once per request (tests may answer with
	// another hub, e.g. one whose clock moved).
	Hub func(ctx context.Context) (hub.Hub, error)
	// PageSize is the number of items of a LIST page (default 2, small on
	// purpose so that clients page); negative means 1.
	PageSize int
	// SignIn decides whether the identity endpoint issues a token for a
	// grant (nil: every grant), so tests can refuse a credential.
	SignIn func(entraid.Grant) error
	// Kubeconfig, when set, gives the kubeconfig of a real Kubernetes API
	// server for the fleet hub cluster (cluster "") and for each member
	// cluster (its name), answered by the fleet's listCredentials and the
	// managed cluster's listClusterUserCredential. Unset: the hub cluster
	// is the emulator's own read-only MemberCluster API (package kubeapi)
	// and member clusters have none.
	Kubeconfig func(ctx context.Context, cluster string) ([]byte, error)
	// Polls is how many InProgress answers each long-running operation
	// gives before it finishes (default 1); negative means none.
	Polls int
}

// Defaults of Options.
const (
	DefaultLocation = "eastus"
	DefaultPageSize = 2
	DefaultPolls    = 1
)

// Request is one request the emulator served.
type Request struct {
	Method string
	Path   string
	Query  string
	// Status is the HTTP status answered; 0 for a dropped connection.
	Status int
}

// Server is the emulator, an http.Handler.
type Server struct {
	opts   Options
	fleet  armfleet.FleetID
	routes []route
	ops    operations
	faults faultState
	// identity is Microsoft Entra ID's token endpoint, so that credentials
	// sign in at the emulator (authority_host = the emulator's URL).
	identity *entraid.Server
	// kube is the emulated fleet hub cluster's Kubernetes API (MemberCluster
	// objects of the fleet), the server listCredentials' kubeconfig names.
	kube *kubeapi.Server
	// caPEM is the certificate clients trust (set by Listen), for the kubeconfig.
	caPEM []byte

	mu  sync.Mutex
	log []Request
}

// HubClusterToken is the bearer token of the emulated hub cluster's
// kubeconfig: not a secret, the emulator's own.
const HubClusterToken = "fleet-emulator-hub-cluster-token"

// New makes an emulator.
func New(o Options) *Server {
	if o.Location == "" {
		o.Location = DefaultLocation
	}
	switch {
	case o.PageSize == 0:
		o.PageSize = DefaultPageSize
	case o.PageSize < 0:
		o.PageSize = 1
	}
	switch {
	case o.Polls == 0:
		o.Polls = DefaultPolls
	case o.Polls < 0:
		o.Polls = 0
	}
	s := &Server{opts: o, fleet: o.Fleet, identity: entraid.New(o.SignIn)}
	s.kube = kubeapi.New(func(ctx context.Context) (*fleet.Fleet, error) {
		h, err := o.Hub(ctx)
		if err != nil {
			return nil, err
		}
		return h.Fleet(ctx)
	}, HubClusterToken)
	s.kube.PageSize = o.PageSize // the hub cluster pages its lists as Resource Manager does here
	s.routes = s.table()
	return s
}

// Requests returns the log of the requests served, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// ResetRequests empties the request log.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	s.log = nil
	s.mu.Unlock()
}

// ServeHTTP routes a request, applies the fault due, if any, and serves it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.identity.Owns(r) {
		s.identity.ServeHTTP(w, r)
		return
	}
	if s.kube.Owns(r) {
		s.kube.ServeHTTP(w, r)
		return
	}
	rt, params, status := s.match(r)
	fault := s.faults.take(r, rt != nil && rt.poll)
	if fault == dropFault {
		// Logged first: the client sees the connection close, and may go
		// on, before this handler returns. Other answers are logged before
		// net/http sends their end.
		s.record(r, 0)
		drop(w)
		return
	}
	rec := &recorder{ResponseWriter: w}
	defer func() { s.record(r, rec.status) }()
	w.Header().Set("x-ms-request-id", uuid.NewString())
	if id := r.Header.Get("x-ms-client-request-id"); id != "" {
		w.Header().Set("x-ms-client-request-id", id)
	}
	c := &call{s: s, w: rec, r: r, ctx: r.Context()}
	h, err := s.opts.Hub(c.ctx)
	if err != nil {
		// The emulated fleet cannot be opened (an invalid inventory, an
		// unreadable state file): a fault of its configuration that no
		// retry cures, so a 400 that clients do not retry, not a 5xx.
		c.fail(http.StatusBadRequest, "InvalidEmulatedFleet", "the emulated fleet cannot be opened: "+err.Error(), "")
		return
	}
	c.hub = h
	// The Date header is the backend's clock, so that clients read the hub's time.
	w.Header().Set("Date", h.Now().UTC().Format(http.TimeFormat))

	if fault != noFault {
		c.answerFault(fault)
		return
	}
	switch status {
	case http.StatusNotFound:
		c.fail(status, "NotFound", "no resource type or operation at "+r.URL.Path, "")
		return
	case http.StatusMethodNotAllowed:
		c.fail(status, "MethodNotAllowed", "the method "+r.Method+" is not allowed on "+r.URL.Path, "")
		return
	}
	c.params = params
	if !c.checkAPIVersion(rt.versions) {
		return
	}
	if rt.fleetScoped && !s.fleet.SameFleet(armfleet.FleetID{SubscriptionID: params["sub"], ResourceGroup: params["rg"], Fleet: params["fleet"]}) {
		c.notFound(armfleet.TypeFleet, params["fleet"])
		return
	}
	rt.handle(c)
}

func (s *Server) record(r *http.Request, status int) {
	s.mu.Lock()
	s.log = append(s.log, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Status: status})
	s.mu.Unlock()
}

// recorder remembers the status a handler answered.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// call is one request being served.
type call struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	ctx    context.Context
	hub    hub.Hub
	params map[string]string
	// version is the request's api-version.
	version    string
	clusterIDs map[string]string // member name → managed cluster id, read once
}

// maxBody bounds a request body.
const maxBody = 1 << 20

// decode reads the JSON request body into v; false (and the 400 answered)
// when it is not JSON.
func (c *call) decode(v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(c.w, c.r.Body, maxBody)).Decode(v); err != nil {
		c.fail(http.StatusBadRequest, "InvalidRequestContent", "the request content is not valid JSON for this resource: "+err.Error(), "")
		return false
	}
	return true
}

// reply answers code with v as JSON (no body when v is nil), with the ETag
// header when etag is set.
func (c *call) reply(code int, v any, etag string) {
	if etag != "" {
		c.w.Header().Set("ETag", etag)
	}
	if v == nil {
		c.w.WriteHeader(code)
		return
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		c.fail(http.StatusInternalServerError, codeInternal, "encoding the response: "+err.Error(), "")
		return
	}
	c.w.Header().Set("Content-Type", "application/json; charset=utf-8")
	c.w.WriteHeader(code)
	_, _ = c.w.Write(buf.Bytes())
}

// baseURL is the scheme and host the client reached the emulator at, for
// the absolute URLs the emulator mints (nextLink, operation URLs).
func (c *call) baseURL() string {
	if c.r.TLS == nil {
		return "http://" + c.r.Host
	}
	return "https://" + c.r.Host
}

// precondition reads If-Match and If-None-Match (designs/arm.md §4). "If-Match:
// *" (any existing version) is no hub precondition: ifMatchAny tells the
// caller, which checks that the resource exists.
func (c *call) precondition() (pre hub.Precondition, ifMatchAny bool) {
	switch m := strings.TrimSpace(c.r.Header.Get("If-Match")); m {
	case "":
	case "*":
		ifMatchAny = true
	default:
		pre.IfMatch = m
	}
	pre.IfNoneMatch = strings.TrimSpace(c.r.Header.Get("If-None-Match")) == "*"
	return pre, ifMatchAny
}

// fleetOf reads the backend's fleet; nil (and the error answered, about
// the resource typ/name) when it fails.
func (c *call) fleetOf(typ, name string) *fleet.Fleet {
	f, err := c.hub.Fleet(c.ctx)
	if err != nil {
		c.hubError(typ, name, err)
		return nil
	}
	return f
}

// memberClusterIDs maps the fleet's member names to their managed clusters'
// ARM ids, for the members' status of runs (armfleet.UpdateRunToWire).
func (c *call) memberClusterIDs() (map[string]string, error) {
	if c.clusterIDs != nil {
		return c.clusterIDs, nil
	}
	f, err := c.hub.Fleet(c.ctx)
	if err != nil {
		return nil, err
	}
	c.clusterIDs = make(map[string]string, len(f.Clusters))
	for _, cl := range f.Clusters {
		c.clusterIDs[cl.Name] = cl.ResourceID
	}
	return c.clusterIDs, nil
}
