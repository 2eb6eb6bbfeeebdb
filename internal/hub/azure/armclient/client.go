// Package armclient is the Azure Resource Manager client for the Fleet
// resources of one fleet (Microsoft.ContainerService/fleets/{fleet}), built
// directly on azcore: the Fleet SDK is not on the module proxy, so requests,
// pagers and pollers are hand-rolled here and the wire models come from
// armfleet.
//
// The wire contract (success codes, LRO final states, conditional headers)
// follows designs/hub.md §9 and what it rests on, designs/arm.md §3 (the
// azcore building blocks are designs/arm.md §6).
// API versions: every operation on a kind of resource uses one version, its
// kind's: armfleet.APIVersionGates (2026-06-01) for members (labels),
// strategies and runs (gates, maxConcurrency), profiles (the
// TargetKubernetesVersion channel, targetKubernetesVersion,
// longTermSupport) and gates; armfleet.APIVersion (2025-03-01) for the fleet
// itself. One version per kind keeps writes and reads on one shape: a write
// at an older version would leave properties it does not know in place.
//
// Every failure is returned through HubError, so callers see the hub's
// errors (hub.ErrNotFound, hub.ErrPreconditionFailed, *hub.ConflictError,
// *hub.InvalidError) or this package's *AuthError and *UnreachableError.
package armclient

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// Telemetry identity of the client (User-Agent "azsdk-go-armclient/v0.1.0").
const (
	moduleName    = "armclient"
	moduleVersion = "v0.1.0"
)

// Options configure a Client.
type Options struct {
	// Credential authenticates every request (azidentity in production,
	// a static or fake credential in tests).
	Credential azcore.TokenCredential
	// Cloud holds the Resource Manager endpoint and token audience; the zero
	// value is Azure public cloud. Tests point it at the emulator's URL.
	Cloud cloud.Configuration
	// Transport sends the requests; nil uses azcore's default HTTP client.
	// Tests pass the emulator's *http.Client.
	Transport policy.Transporter
	// Retry overrides azcore's retry policy; nil keeps its defaults, which
	// honour Retry-After-Ms / x-ms-retry-after-ms / Retry-After and retry
	// 408, 429 and 5xx three times (designs/arm.md §6).
	Retry *policy.RetryOptions
	// PollFrequency is the interval between polls of a long-running
	// operation when the service sends no Retry-After; 0 is azcore's default
	// (30s). azcore refuses intervals under a second outside `go test`.
	PollFrequency time.Duration
	// DisableRPRegistration turns off azcore's automatic registration of
	// the resource provider on a MissingSubscriptionRegistration error. Set
	// it for an endpoint that is not Azure (the wire emulator) or when the
	// identity may not register providers in the subscription.
	DisableRPRegistration bool
}

// Client talks to the Fleet resources of one fleet. It is safe for
// concurrent use.
type Client struct {
	fleet armfleet.FleetID
	arm   *arm.Client
	opts  *arm.ClientOptions
	poll  time.Duration
	clock *serverClock
}

// New returns a client for fleet.
func New(fleet armfleet.FleetID, o Options) (*Client, error) {
	if fleet.SubscriptionID == "" || fleet.ResourceGroup == "" || fleet.Fleet == "" {
		return nil, errors.New("armclient: the fleet needs a subscription id, a resource group and a name")
	}
	if o.Credential == nil {
		return nil, errors.New("armclient: no Azure credential")
	}
	clock := &serverClock{}
	opts := &arm.ClientOptions{DisableRPRegistration: o.DisableRPRegistration}
	opts.Cloud = o.Cloud
	opts.Transport = o.Transport
	if o.Retry != nil {
		opts.Retry = *o.Retry
	}
	opts.PerRetryPolicies = []policy.Policy{clock, countTries{}}
	client, err := arm.NewClient(moduleName, moduleVersion, o.Credential, opts)
	if err != nil {
		return nil, fmt.Errorf("armclient: %w", err)
	}
	return &Client{fleet: fleet, arm: client, opts: opts, poll: o.PollFrequency, clock: clock}, nil
}

// Fleet is the fleet the client works on.
func (c *Client) Fleet() armfleet.FleetID { return c.fleet }

// ClientOptions are the client's cloud, transport and retry settings, for
// other ARM clients (armcontainerservice) built by the caller. They include
// the policy behind ServerTime, so those clients' responses count too.
func (c *Client) ClientOptions() *arm.ClientOptions { return c.opts.Clone() }

// ServerTime is the Date header of the newest response received (by this
// client or one built from ClientOptions); zero before any response.
func (c *Client) ServerTime() time.Time { return c.clock.get() }

// serverClock is a per-retry policy that records the Date of every
// response, so each attempt of a retried request counts.
type serverClock struct {
	mu sync.Mutex
	t  time.Time
}

func (s *serverClock) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	if resp != nil {
		if t, perr := http.ParseTime(resp.Header.Get("Date")); perr == nil {
			s.mu.Lock()
			if t.After(s.t) { // concurrent answers arrive out of order: the newest wins
				s.t = t
			}
			s.mu.Unlock()
		}
	}
	return resp, err
}

func (s *serverClock) get() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t
}
