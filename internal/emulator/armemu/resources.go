package armemu

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// wire is a resource document of armfleet: it embeds armfleet.Resource.
type wire interface {
	Meta() hub.Meta
}

// kind is a collection of the fleet whose resources the backend stores
// (update strategies, runs, auto-upgrade profiles): its GET, PUT, DELETE
// and LIST are served by the same handlers.
type kind[W wire] struct {
	collection string // armfleet.UpdateRuns, …
	typ        string // armfleet.TypeUpdateRun, …
	what       string // "update run", … (update.ValidateName)
	// get reads a resource from the backend.
	get func(c *call, name string) (W, error)
	// put checks the body of a PUT (answering a 400 itself: errAnswered)
	// and writes it to the backend.
	put func(c *call, name string, body *W, pre hub.Precondition) (W, error)
	del func(c *call, name string, pre hub.Precondition) error
	// state is the resource's provisioningState.
	state func(*W) *string
}

// routes are the kind's GET, PUT, DELETE and LIST.
func (k kind[W]) routes() []route {
	coll := fleetPath + "/" + k.collection
	return []route{
		newRoute(http.MethodGet, coll, fleetVersions, k.serveList),
		newRoute(http.MethodGet, coll+"/{name}", fleetVersions, func(c *call) { k.write(c, c.params["name"]) }),
		newRoute(http.MethodPut, coll+"/{name}", fleetVersions, k.servePut),
		newRoute(http.MethodDelete, coll+"/{name}", fleetVersions, k.serveDelete),
	}
}

// read is get, with the provisioning state of a PUT still in flight.
func (k kind[W]) read(c *call, name string) (W, error) {
	w, err := k.get(c, name)
	if err == nil {
		if st, ok := c.s.ops.provisioning(c.s.fleet.Child(k.collection, name)); ok {
			*k.state(&w) = st
		}
	}
	return w, err
}

// write answers 200 with the resource (a GET, or an operation's result).
func (k kind[W]) write(c *call, name string) {
	w, err := k.read(c, name)
	if err != nil {
		c.hubError(k.typ, name, err)
		return
	}
	c.reply(http.StatusOK, w, w.Meta().ETag)
}

// servePut writes the resource and answers as a long-running operation:
// 201 Creating or 200 Updating, with the status URL (designs/arm.md §3).
func (k kind[W]) servePut(c *call) {
	name := c.params["name"]
	if err := update.ValidateName(k.what, name); err != nil {
		c.fail(http.StatusBadRequest, "InvalidResourceName", err.Error(), "name")
		return
	}
	var body W
	if !c.decode(&body) {
		return
	}
	_, err := k.get(c, name)
	existed := err == nil
	if err != nil && !errors.Is(err, hub.ErrNotFound) {
		c.hubError(k.typ, name, err)
		return
	}
	pre, ifMatchAny := c.precondition()
	if ifMatchAny && !existed {
		c.hubError(k.typ, name, hub.ErrPreconditionFailed)
		return
	}
	w, err := k.put(c, name, &body, pre)
	if err != nil {
		c.hubError(k.typ, name, err)
		return
	}
	code, state := http.StatusCreated, armfleet.ProvisioningCreating
	if existed {
		code, state = http.StatusOK, armfleet.ProvisioningUpdating
	}
	*k.state(&w) = state
	c.accept(lro{code: code, body: w, etag: w.Meta().ETag, resource: c.s.fleet.Child(k.collection, name), provisioning: state})
}

// serveDelete deletes the resource and answers 202 with the status and
// result URLs; the result is 204. Deleting what does not exist is done
// already: 204 at once, as ARM answers it, unless If-Match asked for a
// version of it: 404, as the mock hub and designs/arm.md §4 answer it.
func (k kind[W]) serveDelete(c *call) {
	name := c.params["name"]
	pre, ifMatchAny := c.precondition()
	err := k.del(c, name, pre)
	switch {
	case errors.Is(err, hub.ErrNotFound) && pre.IfMatch == "" && !ifMatchAny:
		noContent(c)
	case err != nil:
		c.hubError(k.typ, name, err)
	default:
		c.accept(lro{code: http.StatusAccepted, result: noContent})
	}
}

// serveList answers a page of the collection.
func (k kind[W]) serveList(c *call) {
	names, err := listNames(c.ctx, c.hub, k.collection)
	if err != nil {
		c.hubError(k.typ, "", err)
		return
	}
	from, to, next, ok := c.page(len(names))
	if !ok {
		return
	}
	out := armfleet.List[W]{Value: []W{}, NextLink: next}
	for _, n := range names[from:to] {
		w, err := k.read(c, n)
		switch {
		case errors.Is(err, hub.ErrNotFound): // deleted meanwhile
		case err != nil:
			c.hubError(k.typ, n, err)
			return
		default:
			out.Value = append(out.Value, w)
		}
	}
	c.reply(http.StatusOK, out, "")
}

// page is the window of a LIST of n items the request asks for (its
// $skipToken, an offset) and the nextLink of the page after it: an absolute
// URL, empty on the last page. ok is false (and the 400 answered) for a
// token the emulator did not mint.
func (c *call) page(n int) (from, to int, next string, ok bool) {
	q := c.r.URL.Query()
	if t := q.Get("$skipToken"); t != "" {
		var err error
		if from, err = strconv.Atoi(t); err != nil || from < 0 || from > n {
			c.invalid("$skipToken", "The $skipToken %q is not valid for this list.", t)
			return 0, 0, "", false
		}
	}
	to = min(from+c.s.opts.PageSize, n)
	if to < n {
		q.Set("$skipToken", strconv.Itoa(to))
		next = c.baseURL() + c.r.URL.EscapedPath() + "?" + q.Encode()
	}
	return from, to, next, true
}

// Lister lists the names of the resources of a fleet collection
// (armfleet.UpdateStrategies, UpdateRuns or AutoUpgradeProfiles), sorted.
// hub.Hub has no list operations, so a backend offers them through this
// interface to answer LISTs (the mock hub does).
type Lister interface {
	ListNames(ctx context.Context, collection string) ([]string, error)
}

// listNames lists a collection of the backend through Lister.
func listNames(ctx context.Context, h hub.Hub, collection string) ([]string, error) {
	if b, ok := h.(Lister); ok {
		return b.ListNames(ctx, collection)
	}
	return nil, fmt.Errorf("the emulator's backend (%T) cannot list %s: it implements no armemu.Lister", h, collection)
}
