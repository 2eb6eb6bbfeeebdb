package armclient

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// noSecrets fails if an error message could carry the credential.
func noSecrets(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); strings.Contains(msg, "fake_token") || strings.Contains(msg, "Bearer ") {
		t.Errorf("error message shows the credential: %s", msg)
	}
}

func TestRetriesThrottlingWithRetryAfterMs(t *testing.T) {
	fx := loadFixture(t, "UpdateRuns_Get")
	f := newFake(t)
	f.on(http.MethodGet, fx.Path,
		reply{status: http.StatusTooManyRequests, header: map[string]string{"Retry-After-Ms": "5"}, body: armError("TooManyRequests", "slow down")},
		reply{status: http.StatusOK, body: fx.Response})
	start := time.Now()
	if _, err := f.client(t, testFleet).GetUpdateRun(t.Context(), "run1"); err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if d := time.Since(start); d < 5*time.Millisecond {
		t.Errorf("retried after %v, before Retry-After-Ms", d)
	}
}

func TestRetries500WhilePolling(t *testing.T) {
	fx := loadFixture(t, "UpdateRuns_Start")
	f := newFake(t)
	f.on(http.MethodPost, fx.Path, reply{status: http.StatusAccepted, header: map[string]string{
		"Azure-AsyncOperation": "{base}/operations/s1", "Location": "{base}/operationResults/s1",
	}})
	f.on(http.MethodGet, "/operations/s1",
		reply{status: http.StatusInternalServerError, body: armError("InternalServerError", "try again")},
		reply{status: http.StatusOK, body: opStatus(armfleet.OperationSucceeded)})
	f.on(http.MethodGet, "/operationResults/s1", reply{status: http.StatusOK, body: fx.Response})
	f.on(http.MethodGet, fx.resourcePath(), reply{status: http.StatusOK, body: fx.Response})
	if _, err := f.client(t, testFleet).StartUpdateRun(t.Context(), "run1", hub.Precondition{}); err != nil {
		t.Fatal(err)
	}
	want := []string{"POST ~/updateRuns/run1/start@2026-06-01", "GET /operations/s1", "GET /operations/s1", "GET /operationResults/s1"}
	if seq := f.shortSequence(); strings.Join(seq, "|") != strings.Join(want, "|") {
		t.Errorf("exchange %q, want %q", seq, want)
	}
}

func TestStatusErrors(t *testing.T) {
	runPath := testFleet.Child(armfleet.UpdateRuns, "run1")
	strategyPath := testFleet.Child(armfleet.UpdateStrategies, "s1")
	putRun := func(ctx context.Context, c *Client) error {
		_, err := c.PutUpdateRun(ctx, "run1", exampleRun, etag)
		return err
	}
	tests := []struct {
		name   string
		method string
		path   string
		reply  reply
		call   func(context.Context, *Client) error
		check  func(*testing.T, error)
	}{
		{
			name: "404 is hub.ErrNotFound", method: http.MethodGet, path: runPath,
			reply: reply{status: http.StatusNotFound, body: armError("ResourceNotFound", "The Resource 'run1' was not found.")},
			call:  func(ctx context.Context, c *Client) error { _, err := c.GetUpdateRun(ctx, "run1"); return err },
			check: func(t *testing.T, err error) {
				if !errors.Is(err, hub.ErrNotFound) {
					t.Errorf("not ErrNotFound: %v", err)
				}
				if want := `update run "run1" not found — ResourceNotFound: The Resource 'run1' was not found.`; err.Error() != want {
					t.Errorf("message %q, want %q", err, want)
				}
			},
		},
		{
			name: "404 on DELETE is hub.ErrNotFound too", method: http.MethodDelete, path: runPath,
			reply: reply{status: http.StatusNotFound, body: armError("ResourceNotFound", "gone")},
			call:  func(ctx context.Context, c *Client) error { return c.DeleteUpdateRun(ctx, "run1", hub.Precondition{}) },
			check: func(t *testing.T, err error) {
				if !errors.Is(err, hub.ErrNotFound) {
					t.Errorf("not ErrNotFound: %v", err)
				}
			},
		},
		{
			name: "412 is hub.ErrPreconditionFailed naming the object", method: http.MethodPut, path: runPath,
			reply: reply{status: http.StatusPreconditionFailed, body: armError("PreconditionFailed", "ETag mismatch")},
			call:  putRun,
			check: func(t *testing.T, err error) {
				if !errors.Is(err, hub.ErrPreconditionFailed) {
					t.Errorf("not ErrPreconditionFailed: %v", err)
				}
				if want := `update run "run1" was changed by someone else since it was read — refresh and apply again`; err.Error() != want {
					t.Errorf("message %q, want %q", err, want)
				}
				var re *azcore.ResponseError
				if !errors.As(err, &re) || re.StatusCode != http.StatusPreconditionFailed {
					t.Errorf("no *azcore.ResponseError behind %v", err)
				}
			},
		},
		{
			name: "409 is a *hub.ConflictError with ARM's message", method: http.MethodPut, path: runPath,
			reply: reply{status: http.StatusConflict, body: armError("Conflict", "The update run can only be modified while it is NotStarted.")},
			call:  putRun,
			check: func(t *testing.T, err error) {
				var ce *hub.ConflictError
				if !errors.As(err, &ce) || ce.Object != `update run "run1"` || ce.Reason != "The update run can only be modified while it is NotStarted." {
					t.Errorf("error %#v", err)
				}
			},
		},
		{
			name: "400 is a *hub.InvalidError with code and message", method: http.MethodPut, path: strategyPath,
			reply: reply{status: http.StatusBadRequest, body: map[string]any{"error": map[string]any{
				"code": "InvalidParameter", "message": "The strategy is invalid.",
				"details": []any{map[string]any{"code": "DuplicateGroup", "message": "group-a is in two stages"}},
			}}},
			call: func(ctx context.Context, c *Client) error {
				_, err := c.PutUpdateStrategy(ctx, "s1", armfleet.UpdateStrategy{Properties: armfleet.UpdateStrategyProperties{Strategy: exampleStrategy}}, hub.Precondition{})
				return err
			},
			check: func(t *testing.T, err error) {
				var ie *hub.InvalidError
				if !errors.As(err, &ie) || ie.Object != `update strategy "s1"` ||
					ie.Reason != "InvalidParameter: The strategy is invalid. (DuplicateGroup: group-a is in two stages)" {
					t.Errorf("error %#v", err)
				}
			},
		},
		{
			name: "422 is a *hub.InvalidError", method: http.MethodPut, path: runPath,
			reply: reply{status: http.StatusUnprocessableEntity, body: armError("UnprocessableEntity", "no member in group-a")},
			call:  putRun,
			check: func(t *testing.T, err error) {
				var ie *hub.InvalidError
				if !errors.As(err, &ie) || ie.Reason != "UnprocessableEntity: no member in group-a" {
					t.Errorf("error %#v", err)
				}
			},
		},
		{
			name: "401 is an *AuthError about the credentials", method: http.MethodGet, path: testFleet.String(),
			reply: reply{status: http.StatusUnauthorized, body: armError("InvalidAuthenticationToken", "The access token is invalid.")},
			call:  func(ctx context.Context, c *Client) error { _, err := c.GetFleet(ctx); return err },
			check: func(t *testing.T, err error) {
				var ae *AuthError
				if !errors.As(err, &ae) || ae.Status != 401 || ae.Code != "InvalidAuthenticationToken" || ae.Message != "The access token is invalid." {
					t.Fatalf("error %#v", err)
				}
				if !strings.Contains(err.Error(), "check the credential settings") {
					t.Errorf("message %q does not say what to check", err)
				}
			},
		},
		{
			name: "403 is an *AuthError about the role assignment", method: http.MethodPost, path: runPath + "/start",
			reply: reply{status: http.StatusForbidden, body: armError("AuthorizationFailed", "The client does not have authorization to perform action.")},
			call: func(ctx context.Context, c *Client) error {
				_, err := c.StartUpdateRun(ctx, "run1", hub.Precondition{})
				return err
			},
			check: func(t *testing.T, err error) {
				var ae *AuthError
				if !errors.As(err, &ae) || ae.Status != 403 || ae.Code != "AuthorizationFailed" {
					t.Fatalf("error %#v", err)
				}
				if !strings.Contains(err.Error(), "role assignment on the fleet") || !strings.HasPrefix(err.Error(), `update run "run1": `) {
					t.Errorf("message %q", err)
				}
			},
		},
		{
			name: "other statuses keep method, status, code and message", method: http.MethodGet, path: testFleet.Collection(armfleet.Gates),
			reply: reply{status: http.StatusInternalServerError, body: armError("InternalServerError", "boom")},
			call:  func(ctx context.Context, c *Client) error { _, err := c.ListGates(ctx, ""); return err },
			check: func(t *testing.T, err error) {
				if want := `gates of fleet "fleet1": GET 500 InternalServerError: boom`; err.Error() != want {
					t.Errorf("message %q, want %q", err, want)
				}
				var re *azcore.ResponseError
				if !errors.As(err, &re) || re.StatusCode != 500 {
					t.Errorf("no *azcore.ResponseError behind %v", err)
				}
			},
		},
		{
			name: "a body that is not JSON is quoted briefly", method: http.MethodGet, path: runPath,
			reply: reply{status: http.StatusBadGateway, header: map[string]string{"Content-Type": "text/html"}, body: "<html>\n <body>Bad gateway</body>\n</html>"},
			call:  func(ctx context.Context, c *Client) error { _, err := c.GetUpdateRun(ctx, "run1"); return err },
			check: func(t *testing.T, err error) {
				if want := `update run "run1": GET 502 <html> <body>Bad gateway</body> </html>`; err.Error() != want {
					t.Errorf("message %q, want %q", err, want)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.on(tc.method, tc.path, tc.reply)
			err := tc.call(t.Context(), f.client(t, testFleet))
			if err == nil {
				t.Fatal("no error")
			}
			noSecrets(t, err)
			tc.check(t, err)
		})
	}
}

func TestFailedOperationSurfacesCodeAndMessage(t *testing.T) {
	fx := loadFixture(t, "UpdateRuns_CreateOrUpdate")
	for _, state := range []string{armfleet.OperationFailed, armfleet.OperationCanceled} {
		t.Run(state, func(t *testing.T) {
			f := newFake(t)
			f.on(http.MethodPut, fx.Path, reply{
				status: http.StatusCreated,
				header: map[string]string{"Azure-AsyncOperation": "{base}/operations/put1"},
				body:   withState(t, fx.Response, armfleet.ProvisioningCreating),
			})
			f.on(http.MethodGet, "/operations/put1", reply{status: http.StatusOK, body: map[string]any{
				"id": "op", "name": "put1", "status": state,
				"error": map[string]any{"code": "UpdateRunFailed", "message": "member-one could not be upgraded"},
			}})
			_, err := f.client(t, testFleet).PutUpdateRun(t.Context(), "run1", exampleRun, hub.Precondition{})
			if err == nil {
				t.Fatal("no error")
			}
			noSecrets(t, err)
			if want := `update run "run1": the operation ended ` + state + `: UpdateRunFailed: member-one could not be upgraded`; err.Error() != want {
				t.Errorf("message %q, want %q", err, want)
			}
			var re *azcore.ResponseError
			if !errors.As(err, &re) || re.ErrorCode != "UpdateRunFailed" {
				t.Errorf("no *azcore.ResponseError behind %v", err)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	t.Run("connection refused", func(t *testing.T) {
		f := newFake(t)
		c := f.client(t, testFleet)
		endpoint := f.srv.URL
		f.srv.Close()
		_, err := c.GetFleet(t.Context())
		var ue *UnreachableError
		if !errors.As(err, &ue) || ue.Endpoint != endpoint {
			t.Fatalf("error %#v", err)
		}
		var op *net.OpError
		if !errors.As(err, &op) {
			t.Errorf("no *net.OpError behind %v", err)
		}
		if !strings.HasPrefix(err.Error(), `fleet "fleet1": cannot reach Azure Resource Manager at `+endpoint+": ") {
			t.Errorf("message %q", err)
		}
		noSecrets(t, err)
	})
	t.Run("untrusted certificate", func(t *testing.T) {
		srv := httptest.NewUnstartedServer(http.NotFoundHandler())
		srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
		srv.StartTLS()
		defer srv.Close()
		c, err := New(testFleet, Options{
			Credential: &azfake.TokenCredential{},
			Cloud: cloud.Configuration{Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
				cloud.ResourceManager: {Endpoint: srv.URL, Audience: "https://management.core.windows.net/"},
			}},
			Retry:                 &policy.RetryOptions{MaxRetries: -1},
			DisableRPRegistration: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.GetFleet(t.Context())
		var ue *UnreachableError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "certificate") {
			t.Fatalf("error %v", err)
		}
	})
}

func TestHubErrorPassesThrough(t *testing.T) {
	if HubError(nil, "x") != nil {
		t.Error("nil became an error")
	}
	mapped := &hub.ConflictError{Object: "a", Reason: "b"}
	if got := HubError(mapped, "other"); got != error(mapped) {
		t.Errorf("mapped error rewrapped: %v", got)
	}
	if err := HubError(context.Canceled, `update run "r"`); !errors.Is(err, context.Canceled) || err.Error() != `update run "r": context canceled` {
		t.Errorf("error %v", err)
	}
}
