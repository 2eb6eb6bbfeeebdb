package armclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// AuthError is a request Azure refused for who sent it: 401 (the token) or
// 403 (the identity's permissions or a policy).
type AuthError struct {
	Object  string // what the request was about, e.g. update run "run-1"
	Status  int
	Code    string
	Message string
	resp    *azcore.ResponseError
}

func (e *AuthError) Error() string {
	what := fmt.Sprintf("%d %s", e.Status, e.Code)
	if e.Message != "" {
		what += ": " + e.Message
	}
	if e.Status == http.StatusUnauthorized {
		return fmt.Sprintf("%s: Azure Resource Manager did not accept the credentials (%s) — check the credential settings "+
			"(ARM_TENANT_ID, ARM_CLIENT_ID and the client secret, certificate or OIDC token, or `az login`) and that they belong to the cloud of the endpoint",
			e.Object, what)
	}
	return fmt.Sprintf("%s: the identity is not allowed to do this (%s) — check its role assignment on the fleet "+
		"(for example \"Azure Kubernetes Fleet Manager Contributor Role\" on the fleet or its resource group) and any Azure Policy that denies it",
		e.Object, what)
}

// Unwrap gives access to the *azcore.ResponseError.
func (e *AuthError) Unwrap() error { return e.resp }

// UnreachableError is a request that got no HTTP response: the endpoint
// could not be reached or its TLS could not be verified.
type UnreachableError struct {
	Object   string
	Endpoint string // scheme://host of the URL that failed
	Err      error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("%s: cannot reach Azure Resource Manager at %s: %v — check the endpoint (the cloud configuration), the network, any proxy, and TLS trust",
		e.Object, e.Endpoint, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// statusError is an ARM error response with a message for people. It is
// errors.Is its sentinel (hub.ErrNotFound, hub.ErrPreconditionFailed, or
// none) and unwraps to the *azcore.ResponseError.
type statusError struct {
	msg      string
	sentinel error
	resp     *azcore.ResponseError
}

func (e *statusError) Error() string        { return e.msg }
func (e *statusError) Unwrap() error        { return e.resp }
func (e *statusError) Is(target error) bool { return e.sentinel != nil && target == e.sentinel }

// HubError maps a failure of a request about object (update run "run-1") to
// the hub's errors; the client applies it to everything it returns:
//   - 404 → errors.Is(err, hub.ErrNotFound);
//   - 412 → errors.Is(err, hub.ErrPreconditionFailed), naming object;
//   - 409 → *hub.ConflictError with ARM's message;
//   - 400, 422 → *hub.InvalidError with "<code>: <message>";
//   - 401, 403 → *AuthError;
//   - no response (unreachable, TLS) → *UnreachableError;
//   - a long-running operation that ended Failed or Canceled → its error's
//     code and message;
//   - any other status → "<object>: <METHOD> <status> <code>: <message>".
//
// The *azcore.ResponseError stays reachable with errors.As except behind
// the hub's ConflictError and InvalidError. No message includes request
// headers, so never the Authorization header. Errors already mapped are
// returned as they are; nil stays nil.
func HubError(err error, object string) error {
	if err == nil || mapped(err) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %w", object, err)
	}
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		if errors.As(err, new(retriedErr)) {
			return retried{fromResponse(re, object)}
		}
		return fromResponse(re, object)
	}
	var failed *azidentity.AuthenticationFailedError
	if errors.As(err, &failed) {
		return &SignInError{Object: object, Err: err}
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.Op != "parse" {
		return &UnreachableError{Object: object, Endpoint: endpointOf(ue.URL), Err: ue.Err}
	}
	return fmt.Errorf("%s: %w", object, err)
}

// SignInError is a token that Microsoft Entra ID refused to issue. The
// message is azidentity's, which names the credential and Entra's error
// code, never a secret. (A credential that cannot work here at all, such as
// the Azure CLI without a login, keeps azidentity's own message.)
type SignInError struct {
	Object string
	Err    error
}

func (e *SignInError) Error() string {
	return fmt.Sprintf("%s: signing in to Microsoft Entra ID failed — check tenant_id, client_id and the secret, certificate or "+
		"OIDC token (or ARM_TENANT_ID, ARM_CLIENT_ID, …): %v", e.Object, e.Err)
}

func (e *SignInError) Unwrap() error { return e.Err }

// ErrRetried marks a refusal that answered a retry of a write whose first
// attempt's answer was lost (a dropped connection, a timeout): the first
// attempt may have been applied, and the refusal (412 on a create or an
// If-Match, 409 on a start, 404 on a delete) may be the write's own effect.
// The hub then reads the object to tell (designs/hub.md §9).
var ErrRetried = errors.New("the refusal answered a retry of the request")

// retriedErr marks a raw response error as answering a retry.
type retriedErr struct{ error }

func (e retriedErr) Unwrap() error { return e.error }

// retried is a mapped error that answered a retry: errors.Is ErrRetried and
// whatever the mapped error is.
type retried struct{ err error }

func (e retried) Error() string   { return e.err.Error() }
func (e retried) Unwrap() []error { return []error{e.err, ErrRetried} }

func mapped(err error) bool {
	var (
		si *SignInError
		se *statusError
		ae *AuthError
		ue *UnreachableError
		ce *hub.ConflictError
		ie *hub.InvalidError
	)
	return errors.As(err, &si) || errors.As(err, &se) || errors.As(err, &ae) || errors.As(err, &ue) || errors.As(err, &ce) || errors.As(err, &ie)
}

func fromResponse(re *azcore.ResponseError, object string) error {
	b := parseBody(re)
	code, message := b.Error.Code, b.Error.Message
	if re.ErrorCode != "" {
		code = re.ErrorCode
	}
	switch status := re.StatusCode; {
	case status >= 200 && status < 300 && b.failed() != "":
		// A long-running operation that ended Failed or Canceled: azcore
		// reports the last status document (or resource) as the error.
		return &statusError{msg: fmt.Sprintf("%s: the operation ended %s%s", object, b.failed(), codeMessage(": ", code, message)), resp: re}
	case status == http.StatusNotFound:
		return &statusError{msg: fmt.Sprintf("%s not found%s", object, codeMessage(" — ", code, message)), sentinel: hub.ErrNotFound, resp: re}
	case status == http.StatusPreconditionFailed:
		return &statusError{msg: object + " was changed by someone else since it was read — refresh and apply again", sentinel: hub.ErrPreconditionFailed, resp: re}
	case status == http.StatusConflict:
		reason := message
		if reason == "" {
			reason = code
		}
		return &hub.ConflictError{Object: object, Reason: reason}
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		return &hub.InvalidError{Object: object, Reason: codeMessage("", code, message)}
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return &AuthError{Object: object, Status: status, Code: code, Message: message, resp: re}
	default:
		method := "request"
		if re.RawResponse != nil && re.RawResponse.Request != nil {
			method = re.RawResponse.Request.Method
		}
		return &statusError{msg: fmt.Sprintf("%s: %s %d%s", object, method, status, codeMessage(" ", code, message)), resp: re}
	}
}

// body is what an error response may say: ARM's {"error":{…}}, an
// operation-status document, or a resource whose provisioning failed.
type body struct {
	Status     string               `json:"status"`
	Error      armfleet.ErrorDetail `json:"error"`
	Properties struct {
		ProvisioningState string `json:"provisioningState"`
	} `json:"properties"`
}

// failed is the terminal failure state the body reports (an operation's
// status, else a resource's provisioningState), or "".
func (b body) failed() string {
	for _, state := range []string{b.Status, b.Properties.ProvisioningState} {
		switch strings.ToLower(state) {
		case "failed", "canceled", "cancelled":
			return state
		}
	}
	return ""
}

func parseBody(re *azcore.ResponseError) body {
	var b body
	if re.RawResponse == nil {
		return b
	}
	payload, err := runtime.Payload(re.RawResponse)
	if err != nil || len(payload) == 0 {
		return b
	}
	if json.Unmarshal(payload, &b) != nil {
		// Not JSON (a proxy's page): keep a short, single-line excerpt.
		text := strings.Join(strings.Fields(string(payload)), " ")
		if len(text) > 200 {
			text = text[:200] + "…"
		}
		b.Error.Message = text
	}
	if len(b.Error.Details) > 0 {
		var parts []string
		for _, d := range b.Error.Details {
			parts = append(parts, codeMessage("", d.Code, d.Message))
		}
		b.Error.Message = strings.TrimSpace(b.Error.Message + " (" + strings.Join(parts, "; ") + ")")
	}
	return b
}

// codeMessage is sep + "code: message", leaving out what is empty.
func codeMessage(sep, code, message string) string {
	switch {
	case code == "" && message == "":
		return ""
	case code == "":
		return sep + message
	case message == "":
		return sep + code
	}
	return sep + code + ": " + message
}

// endpointOf is scheme://host of a URL, without path or query.
func endpointOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Scheme + "://" + u.Host
}
