package armclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// kind describes one child collection of the fleet.
type kind[T resource] struct {
	collection string // path segment, e.g. armfleet.UpdateRuns
	noun       string // "update run", for error messages
	plural     string // "update runs"
	// read is the API version of every operation on the kind (designs/arm.md
	// §1: only 2026-06-01 has gates, maxConcurrency, member labels and
	// the TargetKubernetesVersion channel GA).
	read string
	// deleted are the success codes of DELETE (designs/arm.md §3).
	deleted []int
}

// resource is what every Fleet resource model has (armfleet.Resource).
type resource interface{ Meta() hub.Meta }

var (
	// Members' labels are GA from 2026-06-01 (designs/arm.md §1): read there.
	members = kind[armfleet.Member]{
		collection: armfleet.Members, noun: "fleet member", plural: "fleet members", read: armfleet.APIVersionGates,
	}
	strategies = kind[armfleet.UpdateStrategy]{
		collection: armfleet.UpdateStrategies, noun: "update strategy", plural: "update strategies",
		read: armfleet.APIVersionGates, deleted: []int{http.StatusOK, http.StatusAccepted, http.StatusNoContent},
	}
	runs = kind[armfleet.UpdateRun]{
		collection: armfleet.UpdateRuns, noun: "update run", plural: "update runs",
		read: armfleet.APIVersionGates, deleted: []int{http.StatusOK, http.StatusAccepted, http.StatusNoContent},
	}
	// AutoUpgradeProfiles_Delete is ArmResourceDeleteWithoutOkAsync: 202 or
	// 204, never 200 (designs/arm.md §3).
	profiles = kind[armfleet.AutoUpgradeProfile]{
		collection: armfleet.AutoUpgradeProfiles, noun: "auto-upgrade profile", plural: "auto-upgrade profiles",
		read: armfleet.APIVersionGates, deleted: []int{http.StatusAccepted, http.StatusNoContent},
	}
	gates = kind[armfleet.Gate]{
		collection: armfleet.Gates, noun: "gate", plural: "gates", read: armfleet.APIVersionGates,
	}
)

// object names one resource in messages: update run "run-1".
func (k kind[T]) object(name string) string { return fmt.Sprintf("%s %q", k.noun, name) }

// request is one ARM request.
type request struct {
	method  string
	path    string // below the endpoint, already escaped
	version string // api-version
	query   url.Values
	body    any // JSON; nil sends no body
	pre     hub.Precondition
	// notIdempotent: a repeat would do the work again (generateUpdateRun
	// creates a run each time), so only a 429 — refused, not done — is
	// retried, never a lost answer or a 5xx that may follow the work.
	notIdempotent bool
}

// path is the escaped ARM path of the fleet or of something below it.
func (c *Client) path(segments ...string) string {
	var b strings.Builder
	b.WriteString("/subscriptions/" + url.PathEscape(c.fleet.SubscriptionID) +
		"/resourceGroups/" + url.PathEscape(c.fleet.ResourceGroup) +
		"/providers/Microsoft.ContainerService/fleets/" + url.PathEscape(c.fleet.Fleet))
	for _, s := range segments {
		b.WriteString("/" + url.PathEscape(s))
	}
	return b.String()
}

func (c *Client) newRequest(ctx context.Context, r request) (*policy.Request, error) {
	req, err := runtime.NewRequest(ctx, r.method, runtime.JoinPaths(c.arm.Endpoint(), r.path))
	if err != nil {
		return nil, err
	}
	q := req.Raw().URL.Query()
	for k, vs := range r.query {
		q[k] = vs
	}
	q.Set("api-version", r.version)
	req.Raw().URL.RawQuery = q.Encode()
	h := req.Raw().Header
	h.Set("Accept", "application/json")
	if r.pre.IfMatch != "" {
		h.Set("If-Match", r.pre.IfMatch)
	}
	if r.pre.IfNoneMatch {
		h.Set("If-None-Match", "*")
	}
	if r.body != nil {
		if err := runtime.MarshalAsJSON(req, r.body); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// triesKey holds, in a write's context, how many attempts its first request
// took (countTries).
type triesKey struct{}

// countTries counts the attempts of a request whose context asks for it.
type countTries struct{}

func (countTries) Do(req *policy.Request) (*http.Response, error) {
	if n, ok := req.Raw().Context().Value(triesKey{}).(*atomic.Int32); ok {
		n.Add(1)
	}
	return req.Next()
}

func (c *Client) send(ctx context.Context, r request) (*http.Response, error) {
	req, err := c.newRequest(ctx, r)
	if err != nil {
		return nil, err
	}
	return c.arm.Pipeline().Do(req)
}

// call sends a synchronous request that answers 200 with a T.
func call[T any](ctx context.Context, c *Client, object string, r request) (*T, error) {
	resp, err := c.send(ctx, r)
	if err != nil {
		return nil, HubError(err, object)
	}
	if !runtime.HasStatusCode(resp, http.StatusOK) {
		return nil, HubError(runtime.NewResponseError(resp), object)
	}
	v := new(T)
	if err := runtime.UnmarshalAsJSON(resp, v); err != nil {
		return nil, fmt.Errorf("%s: reading the response: %w", object, err)
	}
	return v, nil
}

// get reads one resource.
func get[T resource](ctx context.Context, c *Client, k kind[T], name string) (*T, error) {
	return call[T](ctx, c, k.object(name), request{method: http.MethodGet, path: c.path(k.collection, name), version: k.read})
}

// list reads every page of a collection, following nextLink (an absolute
// URL that carries its own api-version and skip token).
func list[T resource](ctx context.Context, c *Client, k kind[T], query url.Values) ([]T, error) {
	object := fmt.Sprintf("%s of fleet %q", k.plural, c.fleet.Fleet)
	first := request{method: http.MethodGet, path: c.path(k.collection), version: k.read, query: query}
	pager := runtime.NewPager(runtime.PagingHandler[armfleet.List[T]]{
		More: func(page armfleet.List[T]) bool { return page.NextLink != "" },
		Fetcher: func(ctx context.Context, prev *armfleet.List[T]) (armfleet.List[T], error) {
			var page armfleet.List[T]
			next := ""
			if prev != nil {
				next = prev.NextLink
			}
			resp, err := runtime.FetcherForNextLink(ctx, c.arm.Pipeline(), next,
				func(ctx context.Context) (*policy.Request, error) { return c.newRequest(ctx, first) },
				&runtime.FetcherForNextLinkOptions{NextReq: func(ctx context.Context, link string) (*policy.Request, error) {
					return nextRequest(ctx, link, k.read)
				}})
			if err != nil {
				return page, err
			}
			return page, runtime.UnmarshalAsJSON(resp, &page)
		},
		Tracer: c.arm.Tracer(),
	})
	var all []T
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return nil, HubError(err, object)
		}
		all = append(all, page.Value...)
	}
	return all, nil
}

// nextRequest GETs a nextLink as given; ARM's links carry the api-version,
// which is added only if one is missing.
func nextRequest(ctx context.Context, link, version string) (*policy.Request, error) {
	req, err := runtime.NewRequest(ctx, http.MethodGet, link)
	if err != nil {
		return nil, err
	}
	if q := req.Raw().URL.Query(); q.Get("api-version") == "" {
		q.Set("api-version", version)
		req.Raw().URL.RawQuery = q.Encode()
	}
	req.Raw().Header.Set("Accept", "application/json")
	return req, nil
}

// lro sends the first request of a long-running operation, checks its
// status code against ok, and polls it to the end with azcore's poller. The
// poller is chosen by the response (designs/arm.md §3, point
// 1): Azure-AsyncOperation first, then Location; a PUT or PATCH
// without either is followed by its provisioningState; a 200/201/204 that
// is already terminal needs no polling. final is the swagger's
// final-state-via, which azcore uses only for a POST polled through
// Azure-AsyncOperation; PUT and PATCH always end with a GET of the original
// URL, DELETE with the last status. Errors are raw (callers apply HubError).
func lro[T any](ctx context.Context, c *Client, r request, ok []int, final runtime.FinalStateVia) (T, error) {
	var zero T
	tries := new(atomic.Int32)
	sendCtx := context.WithValue(ctx, triesKey{}, tries)
	if r.notIdempotent {
		retry := c.opts.Retry
		retry.ShouldRetry = func(resp *http.Response, _ error) bool {
			return resp != nil && resp.StatusCode == http.StatusTooManyRequests
		}
		sendCtx = policy.WithRetryOptions(sendCtx, retry)
	}
	resp, err := c.send(sendCtx, r)
	if err != nil {
		return zero, err
	}
	if !runtime.HasStatusCode(resp, ok...) {
		err := runtime.NewResponseError(resp)
		if tries.Load() > 1 { // the answer to an earlier attempt was lost: it may have been applied
			return zero, retriedErr{err}
		}
		return zero, err
	}
	poller, err := runtime.NewPoller(resp, c.arm.Pipeline(), &runtime.NewPollerOptions[T]{FinalStateVia: final, Tracer: c.arm.Tracer()})
	if err != nil {
		return zero, err
	}
	if poller.Done() {
		// Complete already (e.g. a 201 whose provisioningState is
		// Succeeded): no Retry-After wait, no status poll.
		return poller.Result(ctx)
	}
	return poller.PollUntilDone(ctx, &runtime.PollUntilDoneOptions{Frequency: c.poll})
}

// settle returns the result of a write of k's resource name: the LRO's
// result when it is that resource, otherwise a fresh GET (the operation's
// final payload is not the resource, as with a gate PATCH polled via
// Location).
func settle[T resource](ctx context.Context, c *Client, k kind[T], name string, res T) (*T, error) {
	if strings.EqualFold(res.Meta().Name, name) {
		return &res, nil
	}
	return get(ctx, c, k, name)
}

// put creates or replaces a resource: PUT → 200/201, final state via
// azure-async-operation, i.e. poll the Azure-AsyncOperation URL, then GET
// the resource (designs/arm.md §3, the PUT row). If-Match and
// If-None-Match come from pre.
func put[T resource](ctx context.Context, c *Client, k kind[T], name string, body T, pre hub.Precondition) (*T, error) {
	r := request{method: http.MethodPut, path: c.path(k.collection, name), version: k.read, body: body, pre: pre}
	res, err := lro[T](ctx, c, r, []int{http.StatusOK, http.StatusCreated}, runtime.FinalStateViaAzureAsyncOp)
	if err != nil {
		return nil, HubError(err, k.object(name))
	}
	return settle(ctx, c, k, name, res)
}

// del deletes a resource: 200/204 are done, 202 is polled (designs/arm.md §3,
// the DELETE rows: final state via location). azcore polls the
// Azure-AsyncOperation URL when the 202 has one (the examples send both
// headers), else the Location URL until it stops answering 202. If-Match
// comes from pre; a missing resource is hub.ErrNotFound, for the caller to
// judge.
func del[T resource](ctx context.Context, c *Client, k kind[T], name string, pre hub.Precondition) error {
	r := request{method: http.MethodDelete, path: c.path(k.collection, name), version: k.read, pre: pre}
	_, err := lro[ignored](ctx, c, r, k.deleted, "")
	return HubError(err, k.object(name))
}

// action POSTs k's resource name's action (start, stop, skip): 200 with the
// resource or 202 (designs/arm.md §3, the start, stop, skip
// row: final state via location, no FinalStateVia in the SDK), so azcore polls
// Azure-AsyncOperation and then GETs the Location URL for the result.
func action[T resource](ctx context.Context, c *Client, k kind[T], name, verb string, body any, pre hub.Precondition) (*T, error) {
	r := request{method: http.MethodPost, path: c.path(k.collection, name, verb), version: k.read, body: body, pre: pre}
	res, err := lro[T](ctx, c, r, []int{http.StatusOK, http.StatusAccepted}, "")
	if err != nil {
		return nil, HubError(err, k.object(name))
	}
	return settle(ctx, c, k, name, res)
}

// ignored is the result of an operation whose payload does not matter (a
// DELETE's last status): any body, or none, decodes into it.
type ignored struct{}

func (*ignored) UnmarshalJSON([]byte) error { return nil }
