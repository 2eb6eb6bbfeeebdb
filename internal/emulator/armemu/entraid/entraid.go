// Package entraid emulates the few Microsoft Entra ID (Azure AD) v2.0
// endpoints that azidentity's service principal credentials use through
// MSAL for Go: ClientSecretCredential, ClientCertificateCredential and
// ClientAssertionCredential (OIDC, workload identity). Tests point a
// credential's authority host at a loopback TLS server that serves a Server,
// and the credential gets tokens without a network.
//
// What MSAL (v1.10) requests of an authority https://<host>/<tenant> for a
// client credentials token:
//
//   - GET https://login.microsoftonline.com/common/discovery/instance, only
//     when instance discovery is enabled and the host is not one of Entra's
//     own: the request goes to login.microsoftonline.com, not to the custom
//     host, so a credential aimed at this emulator must disable instance
//     discovery (auth does when an authority host is set). The emulator
//     answers the path anyway, for a transport that routes Entra's hosts to
//     it.
//   - GET /<tenant>/v2.0/.well-known/openid-configuration, once per MSAL
//     client and authority (azidentity keeps one client with CAE, one
//     without): MSAL needs authorization_endpoint, token_endpoint and an
//     issuer on the authority's own scheme and host.
//   - POST <token_endpoint> (/<tenant>/oauth2/v2.0/token), form encoded,
//     grant_type=client_credentials with client_id, scope ("<resource>/.default
//     openid offline_access profile") and either client_secret or
//     client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer
//     with client_assertion (a JWT signed with the certificate, or the
//     caller's assertion such as an OIDC ID token).
//
// MSAL lower-cases the authority, so the tenant in the paths is lower case.
// It also asks a regional host (<region>.<host>) instead when the
// AZURE_REGIONAL_AUTHORITY_NAME environment variable is set, which no test
// server answers.
//
// The Server claims only these paths (see Owns), so it can share a TLS
// server with the Resource Manager emulator.
package entraid

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Grant methods.
const (
	MethodSecret    = "secret"
	MethodAssertion = "assertion"
)

// JWTBearer is the client_assertion_type of a client assertion.
const JWTBearer = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// Lifetime is how long issued access tokens last.
const Lifetime = time.Hour

// expiresIn is the expires_in Entra ID reports for a one hour token.
const expiresIn = 3599

// Grant is a client credentials token request as presented.
type Grant struct {
	Tenant   string // the tenant in the request path, as sent (MSAL lower-cases it)
	ClientID string
	// Scope is the requested resource scope, "https://management.azure.com/.default",
	// without the OpenID scopes MSAL adds to every request.
	Scope  string
	Method string // MethodSecret or MethodAssertion
	Secret string // the client secret, with MethodSecret

	// Assertion is the client assertion, with MethodAssertion: a JWT signed
	// with the client certificate, or the assertion the caller supplied (an
	// OIDC ID token).
	Assertion string
}

// Resource is the resource the scope names: the scope without its "/.default".
func (g Grant) Resource() string { return strings.TrimSuffix(g.Scope, "/.default") }

// Server is the Entra ID emulator, an http.Handler. It is safe for
// concurrent use.
type Server struct {
	accept func(Grant) error
	now    func() time.Time

	mu     sync.Mutex
	grants []Grant
}

// New returns an emulator that issues a token for every well-formed client
// credentials grant that accept accepts (nil accepts all). An error from
// accept is answered as Entra ID answers a bad credential: 401 invalid_client
// with the error's text in an AADSTS description (AADSTS7000215 for a secret,
// AADSTS700027 for an assertion); an *Error chooses the status and codes.
func New(accept func(Grant) error) *Server {
	return &Server{accept: accept, now: time.Now}
}

// Grants returns the well-formed grants presented so far, in order,
// including those that were refused.
func (s *Server) Grants() []Grant {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Grant(nil), s.grants...)
}

type endpoint int

const (
	none endpoint = iota
	openIDConfiguration
	token
	instanceDiscovery
)

// route is the endpoint a path names, and the tenant in it.
func route(path string) (endpoint, string) {
	if path == "/common/discovery/instance" {
		return instanceDiscovery, "common"
	}
	tenant, rest, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if !ok || !strings.HasPrefix(path, "/") || !validTenant(tenant) {
		return none, ""
	}
	switch rest {
	case "v2.0/.well-known/openid-configuration":
		return openIDConfiguration, tenant
	case "oauth2/v2.0/token":
		return token, tenant
	}
	return none, ""
}

// validTenant accepts a tenant ID or domain name (or common, organizations).
func validTenant(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
		default:
			return false
		}
	}
	return true
}

// Owns reports whether the request's path is one the emulator serves (with
// any method), for a router that shares a server among emulators.
func (s *Server) Owns(r *http.Request) bool {
	e, _ := route(r.URL.Path)
	return e != none
}

// ServeHTTP serves the OpenID configuration, token and instance discovery
// endpoints, and 404 for any other path.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e, tenant := route(r.URL.Path)
	c := &call{w: w, r: r, now: s.now()}
	switch e {
	case none:
		http.NotFound(w, r)
	case openIDConfiguration:
		if c.method(http.MethodGet) {
			s.openIDConfiguration(c, tenant)
		}
	case instanceDiscovery:
		if c.method(http.MethodGet) {
			s.instanceDiscovery(c)
		}
	case token:
		if c.method(http.MethodPost) {
			s.token(c, tenant)
		}
	}
}

// authority is the https://host/tenant the request was sent to.
func authority(r *http.Request, tenant string) string {
	return "https://" + r.Host + "/" + tenant
}

func (s *Server) openIDConfiguration(c *call, tenant string) {
	a := authority(c.r, tenant)
	c.reply(http.StatusOK, map[string]any{
		"issuer":                                a + "/v2.0",
		"authorization_endpoint":                a + "/oauth2/v2.0/authorize",
		"token_endpoint":                        a + "/oauth2/v2.0/token",
		"device_authorization_endpoint":         a + "/oauth2/v2.0/devicecode",
		"end_session_endpoint":                  a + "/oauth2/v2.0/logout",
		"jwks_uri":                              "https://" + c.r.Host + "/" + tenant + "/discovery/v2.0/keys",
		"token_endpoint_auth_methods_supported": []string{"client_secret_post", "private_key_jwt", "client_secret_basic"},
		"response_modes_supported":              []string{"query", "fragment", "form_post"},
		"subject_types_supported":               []string{"pairwise"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"response_types_supported":              []string{"code", "id_token", "code id_token", "id_token token"},
		"scopes_supported":                      []string{"openid", "profile", "email", "offline_access"},
		"request_uri_parameter_supported":       false,
		"userinfo_endpoint":                     "https://" + c.r.Host + "/oidc/userinfo",
		"tenant_region_scope":                   "NA",
		"cloud_instance_name":                   "microsoftonline.com",
		"cloud_graph_host_name":                 "graph.windows.net",
		"msgraph_host":                          "graph.microsoft.com",
		"rbac_url":                              "https://pas.windows.net",
	})
}

// instanceDiscovery answers as Entra ID does for a host it knows: the
// authority named by the authorization_endpoint parameter is its own only
// alias.
func (s *Server) instanceDiscovery(c *call) {
	ae := c.r.URL.Query().Get("authorization_endpoint")
	u, err := url.Parse(ae)
	if ae == "" || err != nil || u.Scheme != "https" || u.Host == "" {
		c.fail(&Error{Status: http.StatusBadRequest, Code: "invalid_instance", AADSTS: 50049,
			Message: "Unknown or invalid instance."})
		return
	}
	tenant, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if !validTenant(tenant) {
		tenant = "common"
	}
	c.reply(http.StatusOK, map[string]any{
		"tenant_discovery_endpoint": "https://" + u.Host + "/" + tenant + "/v2.0/.well-known/openid-configuration",
		"api-version":               "1.1",
		"metadata": []map[string]any{{
			"preferred_network": u.Host,
			"preferred_cache":   u.Host,
			"aliases":           []string{u.Host},
		}},
	})
}

// maxForm bounds a token request's body.
const maxForm = 1 << 20

// openIDScopes are those MSAL adds to every token request.
var openIDScopes = map[string]bool{"openid": true, "offline_access": true, "profile": true}

func (s *Server) token(c *call, tenant string) {
	c.r.Body = http.MaxBytesReader(c.w, c.r.Body, maxForm)
	if err := c.r.ParseForm(); err != nil {
		c.fail(invalidRequest(900144, "The request body must contain the following parameter: 'grant_type'."))
		return
	}
	f := c.r.PostForm
	gt := f.Get("grant_type")
	switch {
	case gt == "":
		c.fail(missing("grant_type"))
		return
	case gt != "client_credentials":
		c.fail(&Error{Status: http.StatusBadRequest, Code: "unsupported_grant_type", AADSTS: 70003,
			Message: fmt.Sprintf("The app requested an unsupported grant type '%s'.", gt)})
		return
	}
	g := Grant{Tenant: tenant, ClientID: f.Get("client_id")}
	if g.ClientID == "" {
		c.fail(missing("client_id"))
		return
	}
	scope, ferr := resourceScope(f.Get("scope"))
	if ferr != nil {
		c.fail(ferr)
		return
	}
	g.Scope = scope
	secret, assertion := f.Get("client_secret"), f.Get("client_assertion")
	switch {
	case secret != "" && assertion != "":
		c.fail(invalidRequest(90023, "Both a client secret and a client assertion were presented; send one."))
		return
	case secret != "":
		g.Method, g.Secret = MethodSecret, secret
	case assertion != "":
		switch at := f.Get("client_assertion_type"); at {
		case "":
			c.fail(invalidRequest(90014, "The required field 'client_assertion_type' is missing from the credential. "+
				"Ensure that you have all the necessary parameters for the login request."))
			return
		case JWTBearer:
		default:
			c.fail(invalidRequest(90023, fmt.Sprintf("The client_assertion_type '%s' is not supported; use '%s'.", at, JWTBearer)))
			return
		}
		g.Method, g.Assertion = MethodAssertion, assertion
	default:
		c.fail(&Error{Status: http.StatusUnauthorized, Code: "invalid_client", AADSTS: 7000216,
			Message: "'client_assertion', 'client_secret' or 'request' is required for the 'client_credentials' grant type."})
		return
	}

	s.mu.Lock()
	s.grants = append(s.grants, g)
	s.mu.Unlock()

	if g.Method == MethodAssertion {
		if err := checkCertificateAssertion(g, authority(c.r, tenant)+"/oauth2/v2.0/token", c.now); err != nil {
			c.fail(err)
			return
		}
	}
	if s.accept != nil {
		if err := s.accept(g); err != nil {
			c.fail(refusal(g, err))
			return
		}
	}
	c.reply(http.StatusOK, map[string]any{
		"token_type":     "Bearer",
		"expires_in":     expiresIn,
		"ext_expires_in": expiresIn,
		"access_token":   accessToken(g, authority(c.r, tenant)+"/v2.0", c.now),
	})
}

// resourceScope is the one "<resource>/.default" scope of a client
// credentials request, which Entra ID requires.
func resourceScope(scope string) (string, *Error) {
	var resources []string
	for s := range strings.FieldsSeq(scope) {
		if !openIDScopes[s] {
			resources = append(resources, s)
		}
	}
	switch {
	case len(resources) == 0:
		return "", missing("scope")
	case len(resources) > 1:
		return "", &Error{Status: http.StatusBadRequest, Code: "invalid_scope", AADSTS: 28000,
			Message: fmt.Sprintf("Provided value for the input parameter scope '%s' is not valid because it contains more than one resource. "+
				"Scope %s is not valid.", scope, strings.Join(resources, " "))}
	case !strings.HasSuffix(resources[0], "/.default") || resources[0] == "/.default":
		return "", &Error{Status: http.StatusBadRequest, Code: "invalid_scope", AADSTS: 1002012,
			Message: fmt.Sprintf("The provided value for scope %s is not valid. Client credential flows must have a scope value "+
				"with /.default suffixed to the resource identifier (application ID URI).", resources[0])}
	}
	return resources[0], nil
}

// checkCertificateAssertion checks what Entra ID checks of an assertion
// MSAL signs with a client certificate (a JWT whose header carries the
// certificate's thumbprint), short of the signature: it is issued by and
// for the client, to the token endpoint, and current. Other assertions (ID
// tokens from federated issuers) are left to the accept function.
func checkCertificateAssertion(g Grant, tokenEndpoint string, now time.Time) *Error {
	header, claims, err := DecodeJWT(g.Assertion)
	if err != nil {
		return nil
	}
	_, x5t := header["x5t"]
	_, x5t256 := header["x5t#S256"]
	if !x5t && !x5t256 {
		return nil
	}
	str := func(k string) string { v, _ := claims[k].(string); return v }
	num := func(k string) (int64, bool) {
		switch v := claims[k].(type) {
		case float64:
			return int64(v), true
		case json.Number:
			n, err := v.Int64()
			return n, err == nil
		}
		return 0, false
	}
	if str("iss") != g.ClientID || str("sub") != g.ClientID {
		return &Error{Status: http.StatusUnauthorized, Code: "invalid_client", AADSTS: 700021,
			Message: "Client assertion application identifier doesn't match 'client_id' parameter. Review the documentation at " +
				"https://learn.microsoft.com/entra/identity-platform/certificate-credentials ."}
	}
	if aud := str("aud"); !sameURL(aud, tokenEndpoint) {
		return &Error{Status: http.StatusUnauthorized, Code: "invalid_client", AADSTS: 700027,
			Message: fmt.Sprintf("Client assertion contains an invalid audience '%s'; expected the token endpoint '%s'.", aud, tokenEndpoint)}
	}
	exp, ok := num("exp")
	nbf, hasNbf := num("nbf")
	const skew = 5 * time.Minute
	if !ok || now.After(time.Unix(exp, 0).Add(skew)) || (hasNbf && now.Add(skew).Before(time.Unix(nbf, 0))) {
		return &Error{Status: http.StatusUnauthorized, Code: "invalid_client", AADSTS: 700024,
			Message: fmt.Sprintf("Client assertion is not within its valid time range. Current time: %s.", now.UTC().Format(time.RFC3339))}
	}
	return nil
}

// sameURL compares URLs with their schemes and hosts case-insensitively.
func sameURL(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return false
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host) &&
		strings.EqualFold(strings.TrimSuffix(ua.Path, "/"), strings.TrimSuffix(ub.Path, "/"))
}

// refusal is the error answering a grant accept refused.
func refusal(g Grant, err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	code := 7000215
	if g.Method == MethodAssertion {
		code = 700027
	}
	return &Error{Status: http.StatusUnauthorized, Code: "invalid_client", AADSTS: code, Message: err.Error()}
}

// call is one request and its response.
type call struct {
	w   http.ResponseWriter
	r   *http.Request
	now time.Time
}

// method checks the request's method, answering 405 when it is another.
func (c *call) method(m string) bool {
	if c.r.Method == m {
		return true
	}
	c.w.Header().Set("Allow", m)
	c.fail(&Error{Status: http.StatusMethodNotAllowed, Code: "invalid_request", AADSTS: 900561,
		Message: fmt.Sprintf("The endpoint only accepts %s requests. Received a %s request.", m, c.r.Method)})
	return false
}

func (c *call) reply(status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		http.Error(c.w, err.Error(), http.StatusInternalServerError)
		return
	}
	h := c.w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store, no-cache")
	h.Set("Pragma", "no-cache")
	h.Set("x-ms-request-id", uuid.NewString())
	if id := c.r.Header.Get("client-request-id"); id != "" {
		h.Set("client-request-id", id)
	}
	c.w.WriteHeader(status)
	_, _ = c.w.Write(b)
}

// fail answers with Entra ID's error document.
func (c *call) fail(e *Error) {
	corr := c.r.Header.Get("client-request-id")
	if corr == "" {
		corr = uuid.NewString()
	}
	trace, ts := uuid.NewString(), c.now.UTC().Format("2006-01-02 15:04:05Z")
	n := e.aadsts()
	c.reply(e.status(), map[string]any{
		"error": e.code(),
		"error_description": fmt.Sprintf("AADSTS%d: %s Trace ID: %s Correlation ID: %s Timestamp: %s",
			n, e.Message, trace, corr, ts),
		"error_codes":    []int{n},
		"timestamp":      ts,
		"trace_id":       trace,
		"correlation_id": corr,
		"error_uri":      fmt.Sprintf("https://login.microsoftonline.com/error?code=%d", n),
	})
}
