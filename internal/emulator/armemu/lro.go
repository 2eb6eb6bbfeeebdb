package armemu

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// Long-running operations (designs/arm.md §3 and §7 point 2). The emulator
// executes a write when the request arrives; what stays behind is its
// operation, which answers InProgress Options.Polls times before it
// succeeds. Status polls and Location polls count down together.

// retryAfterMs is the polling delay asked for: short, so that clients
// poll fast (designs/arm.md §3 point 4).
const retryAfterMs = "5"

// maxOperations bounds the operations remembered; the oldest are forgotten.
const maxOperations = 10000

// lro is the answer to a write the backend has already executed, given as
// ARM gives a long-running operation: the status URL in
// Azure-AsyncOperation, and for actions and DELETE the result URL in Location.
type lro struct {
	// code is 200 or 201 for a PUT, 202 for an action or a DELETE.
	code int
	// body is the PUT's resource, its provisioningState not yet terminal
	// (a 201 already Succeeded would not be polled: designs/arm.md §3 point 3).
	body any
	etag string
	// resource is the ARM id of the resource a PUT wrote, which reads as
	// provisioning (Creating, Updating) until the operation ends.
	resource, provisioning string
	// statusID is the id of the final status document; empty means the
	// operation's own. For generateUpdateRun it is the generated run's
	// (designs/arm.md §3 point 2).
	statusID string
	// result is the Location URL's answer once the operation is done; nil
	// sends no Location (PUT: the result is a GET of the resource).
	result func(*call)
}

// operation is a long-running operation the emulator minted.
type operation struct {
	id           string
	statusID     string
	left         int // InProgress answers left
	started      time.Time
	ended        time.Time
	resource     string // lower-case ARM id (ARM ids compare case-insensitively)
	provisioning string
	result       func(*call)
}

// operations are the operations minted, by id.
type operations struct {
	mu       sync.Mutex
	byID     map[string]*operation
	order    []string              // ids, oldest first
	inFlight map[string]*operation // resource → the latest PUT's operation, until it ends
}

// add remembers op, forgetting the oldest beyond maxOperations.
func (o *operations) add(op *operation) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.byID == nil {
		o.byID, o.inFlight = map[string]*operation{}, map[string]*operation{}
	}
	if len(o.order) >= maxOperations {
		o.forget(o.byID[o.order[0]])
		o.order = o.order[1:]
	}
	o.byID[op.id] = op
	o.order = append(o.order, op.id)
	if op.resource != "" {
		o.inFlight[op.resource] = op
	}
}

// forget drops op's claim on its resource's provisioning state, and op.
func (o *operations) forget(op *operation) {
	if o.inFlight[op.resource] == op {
		delete(o.inFlight, op.resource)
	}
	delete(o.byID, op.id)
}

// poll answers one poll of operation id at now: a copy of the operation,
// whether it is done (after counting down one InProgress answer), and
// whether it exists.
func (o *operations) poll(id string, now time.Time) (op operation, done, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	p, ok := o.byID[id]
	if !ok {
		return operation{}, false, false
	}
	if p.left > 0 {
		p.left--
		return *p, false, true
	}
	if p.ended.IsZero() {
		p.ended = now
		if o.inFlight[p.resource] == p {
			delete(o.inFlight, p.resource)
		}
	}
	return *p, true, true
}

// provisioning is the provisioning state of a resource while a PUT of it
// is in flight.
func (o *operations) provisioning(id string) (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	op, ok := o.inFlight[strings.ToLower(id)]
	if !ok {
		return "", false
	}
	return op.provisioning, true
}

// accept answers l: the one way every asynchronous operation is answered.
func (c *call) accept(l lro) {
	id := uuid.NewString()
	at := "/subscriptions/" + c.s.fleet.SubscriptionID + "/providers/Microsoft.ContainerService/locations/" + c.s.opts.Location
	op := &operation{id: id, statusID: l.statusID, left: c.s.opts.Polls, started: c.hub.Now(),
		resource: strings.ToLower(l.resource), provisioning: l.provisioning, result: l.result}
	if op.statusID == "" {
		op.statusID = at + "/operations/" + id
	}
	c.s.ops.add(op)
	q := "?api-version=" + c.version
	c.w.Header().Set("Azure-AsyncOperation", c.baseURL()+at+"/operations/"+id+q)
	if l.result != nil {
		c.w.Header().Set("Location", c.baseURL()+at+"/operationresults/"+id+q)
	}
	c.w.Header().Set("Retry-After-Ms", retryAfterMs)
	c.reply(l.code, l.body, l.etag)
}

// noContent is the result of a DELETE: 204.
func noContent(c *call) { c.reply(http.StatusNoContent, nil, "") }

// operationStatus serves the Azure-AsyncOperation URL: the status document.
func (s *Server) operationStatus(c *call) {
	op, done, ok := s.ops.poll(c.params["id"], c.hub.Now())
	if !ok {
		c.notFound("Microsoft.ContainerService/locations/operations", c.params["id"])
		return
	}
	doc := armfleet.OperationStatus{ID: op.statusID, Name: op.id, Status: armfleet.OperationInProgress, StartTime: &op.started}
	if done {
		doc.Status, doc.EndTime = armfleet.OperationSucceeded, &op.ended
	} else {
		c.w.Header().Set("Retry-After-Ms", retryAfterMs)
	}
	c.reply(http.StatusOK, doc, "")
}

// operationResult serves the Location URL: 202 until the operation is
// done, then its result.
func (s *Server) operationResult(c *call) {
	op, done, ok := s.ops.poll(c.params["id"], c.hub.Now())
	switch {
	case !ok || op.result == nil:
		c.notFound("Microsoft.ContainerService/locations/operationresults", c.params["id"])
	case !done:
		c.w.Header().Set("Location", c.baseURL()+c.r.URL.RequestURI())
		c.w.Header().Set("Retry-After-Ms", retryAfterMs)
		c.reply(http.StatusAccepted, nil, "")
	default:
		op.result(c)
	}
}
