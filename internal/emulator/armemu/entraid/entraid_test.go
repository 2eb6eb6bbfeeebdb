package entraid_test

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu/entraid"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/auth"
)

const (
	tenant   = "72f988bf-86f1-41af-91ab-2d7cd011db47"
	clientID = "0b5c9a3e-1f2d-4c6b-8e7a-9d0f1e2c3b4a"
	secret   = "s3cr3t~value.that.must.not.leak"
	armScope = "https://management.azure.com/.default"
)

// recorder keeps the method and path of every request the emulator gets.
type recorder struct {
	h http.Handler

	mu   sync.Mutex
	reqs []string
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req.Method+" "+req.URL.Path)
	r.mu.Unlock()
	r.h.ServeHTTP(w, req)
}

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs)
}

func start(t *testing.T, accept func(entraid.Grant) error) (*entraid.Server, *recorder, *httptest.Server) {
	t.Helper()
	s := entraid.New(accept)
	rec := &recorder{h: s}
	srv := httptest.NewTLSServer(rec)
	t.Cleanup(srv.Close)
	return s, rec, srv
}

func settings(srv *httptest.Server) auth.Settings {
	return auth.Settings{
		SubscriptionID: "00000000-0000-0000-0000-000000000001",
		TenantID:       tenant,
		ClientID:       clientID,
		AuthorityHost:  srv.URL,
	}
}

func credential(t *testing.T, s auth.Settings, srv *httptest.Server) azcore.TokenCredential {
	t.Helper()
	cred, desc, err := auth.Credential(s, auth.WithClientOptions(azcore.ClientOptions{Transport: srv.Client()}))
	if err != nil {
		t.Fatalf("auth.Credential: %v", err)
	}
	t.Logf("credential: %s", desc)
	return cred
}

func getToken(t *testing.T, cred azcore.TokenCredential) (azcore.AccessToken, error) {
	t.Helper()
	return cred.GetToken(t.Context(), policy.TokenRequestOptions{Scopes: []string{armScope}})
}

// checkToken checks the token the emulator issued for the client.
func checkToken(t *testing.T, tok azcore.AccessToken) {
	t.Helper()
	at, err := entraid.ParseAccessToken(tok.Token)
	if err != nil {
		t.Fatalf("ParseAccessToken: %v", err)
	}
	if at.Audience != "https://management.azure.com" || at.TenantID != tenant || at.AppID != clientID {
		t.Errorf("token claims = %+v, want aud https://management.azure.com, tid %s, appid %s", at, tenant, clientID)
	}
	if d := time.Until(at.ExpiresAt); d < 55*time.Minute || d > 61*time.Minute {
		t.Errorf("token expires in %v, want an hour", d)
	}
	if d := time.Until(tok.ExpiresOn); d < 55*time.Minute || d > 61*time.Minute {
		t.Errorf("azcore ExpiresOn in %v, want an hour", d)
	}
	_, claims, err := entraid.DecodeJWT(tok.Token)
	if err != nil {
		t.Fatal(err)
	}
	if claims["azp"] != clientID {
		t.Errorf("azp = %v, want %s", claims["azp"], clientID)
	}
}

// wantMSALRequests is what MSAL asks of a custom authority with instance
// discovery disabled: the OpenID configuration, then the token.
var wantMSALRequests = []string{
	"GET /" + tenant + "/v2.0/.well-known/openid-configuration",
	"POST /" + tenant + "/oauth2/v2.0/token",
}

func TestClientSecret(t *testing.T) {
	s, rec, srv := start(t, nil)
	set := settings(srv)
	set.ClientSecret = secret
	cred := credential(t, set, srv)

	tok, err := getToken(t, cred)
	if err != nil {
		t.Fatalf("GetToken: %v", err)
	}
	checkToken(t, tok)
	want := []entraid.Grant{{Tenant: tenant, ClientID: clientID, Scope: armScope, Method: entraid.MethodSecret, Secret: secret}}
	if got := s.Grants(); !slices.Equal(got, want) {
		t.Errorf("Grants() = %+v, want %+v", got, want)
	}
	if got := rec.requests(); !slices.Equal(got, wantMSALRequests) {
		t.Errorf("requests = %q, want %q", got, wantMSALRequests)
	}

	// The second token comes from MSAL's cache.
	if _, err := getToken(t, cred); err != nil {
		t.Fatalf("second GetToken: %v", err)
	}
	if n := len(s.Grants()); n != 1 {
		t.Errorf("%d grants after a cached token, want 1", n)
	}
}

// idToken is a JWT-shaped OIDC ID token, as a workload identity presents.
func idToken() string {
	seg := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return seg(map[string]any{"alg": "RS256", "typ": "JWT", "kid": "gh"}) + "." +
		seg(map[string]any{"iss": "https://token.actions.githubusercontent.com", "sub": "repo:fleetform/x:ref:refs/heads/main",
			"aud": "api://AzureADTokenExchange", "exp": time.Now().Add(time.Hour).Unix()}) + ".c2ln"
}

func TestOIDCToken(t *testing.T) {
	s, rec, srv := start(t, nil)
	oidc := idToken()
	set := settings(srv)
	set.UseOIDC = new(true)
	set.OIDCToken = oidc
	tok, err := getToken(t, credential(t, set, srv))
	if err != nil {
		t.Fatalf("GetToken: %v", err)
	}
	checkToken(t, tok)
	want := []entraid.Grant{{Tenant: tenant, ClientID: clientID, Scope: armScope, Method: entraid.MethodAssertion, Assertion: oidc}}
	if got := s.Grants(); !slices.Equal(got, want) {
		t.Errorf("Grants() = %+v, want %+v", got, want)
	}
	if got := rec.requests(); !slices.Equal(got, wantMSALRequests) {
		t.Errorf("requests = %q, want %q", got, wantMSALRequests)
	}
}

func TestOIDCTokenFile(t *testing.T) {
	s, _, srv := start(t, nil)
	path := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(path, []byte("opaque-federated-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	set := settings(srv)
	set.UseOIDC = new(true)
	set.OIDCTokenFilePath = path
	if _, err := getToken(t, credential(t, set, srv)); err != nil {
		t.Fatalf("GetToken: %v", err)
	}
	if g := s.Grants(); len(g) != 1 || g[0].Assertion != "opaque-federated-token" {
		t.Errorf("Grants() = %+v, want the file's token as assertion", g)
	}
}

// certificateFile writes a self-signed certificate and its key as PEM.
func certificateFile(t *testing.T) (string, *x509.Certificate) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "terraform-provider-aks test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	data := append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk})...)
	path := filepath.Join(t.TempDir(), "client.pem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, cert
}

func TestClientCertificate(t *testing.T) {
	s, rec, srv := start(t, nil)
	path, cert := certificateFile(t)
	set := settings(srv)
	set.ClientCertificatePath = path
	tok, err := getToken(t, credential(t, set, srv))
	if err != nil {
		t.Fatalf("GetToken: %v", err)
	}
	checkToken(t, tok)
	if got := rec.requests(); !slices.Equal(got, wantMSALRequests) {
		t.Errorf("requests = %q, want %q", got, wantMSALRequests)
	}
	g := s.Grants()
	if len(g) != 1 || g[0].Method != entraid.MethodAssertion || g[0].ClientID != clientID || g[0].Tenant != tenant || g[0].Scope != armScope {
		t.Fatalf("Grants() = %+v, want one assertion grant for the client", g)
	}
	header, claims, err := entraid.DecodeJWT(g[0].Assertion)
	if err != nil {
		t.Fatalf("the assertion is not a JWT: %v", err)
	}
	if header["alg"] != "PS256" || header["x5t#S256"] == nil {
		t.Errorf("assertion header = %v, want PS256 with x5t#S256", header)
	}
	wantAud := srv.URL + "/" + tenant + "/oauth2/v2.0/token"
	if claims["iss"] != clientID || claims["sub"] != clientID || claims["aud"] != wantAud {
		t.Errorf("assertion claims = %v, want iss and sub %s, aud %s", claims, clientID, wantAud)
	}
	// The assertion is signed with the certificate's key.
	parts := strings.Split(g[0].Assertion, ".")
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		t.Fatal(err)
	}
	if err := verifyPS256(cert, parts[0]+"."+parts[1], sig); err != nil {
		t.Errorf("assertion signature: %v", err)
	}
}

func TestRejectedSecret(t *testing.T) {
	s, _, srv := start(t, func(g entraid.Grant) error {
		return fmt.Errorf("Invalid client secret provided for app '%s'.", g.ClientID)
	})
	set := settings(srv)
	set.ClientSecret = secret
	_, err := getToken(t, credential(t, set, srv))
	if err == nil {
		t.Fatal("GetToken succeeded, want invalid_client")
	}
	msg := err.Error()
	t.Logf("error:\n%s", msg)
	for _, want := range []string{"invalid_client", "AADSTS7000215", "Invalid client secret provided", "401"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not mention %q", want)
		}
	}
	if strings.Contains(msg, secret) {
		t.Error("the error contains the secret")
	}
	if _, ok := errors.AsType[*azidentity.AuthenticationFailedError](err); !ok {
		t.Errorf("error is %T, want an *azidentity.AuthenticationFailedError", err)
	}
	if n := len(s.Grants()); n != 1 {
		t.Errorf("%d grants recorded, want the refused one", n)
	}
}

func TestRejectedAssertionWithError(t *testing.T) {
	_, _, srv := start(t, func(g entraid.Grant) error {
		return fmt.Errorf("federation: %w", &entraid.Error{Status: http.StatusBadRequest, Code: "invalid_request", AADSTS: 70021,
			Message: "No matching federated identity record found for presented assertion."})
	})
	set := settings(srv)
	set.UseOIDC = new(true)
	set.OIDCToken = idToken()
	_, err := getToken(t, credential(t, set, srv))
	if err == nil {
		t.Fatal("GetToken succeeded")
	}
	for _, want := range []string{"invalid_request", "AADSTS70021", "400"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
}

func TestRejectedDefaultAssertionCode(t *testing.T) {
	_, _, srv := start(t, func(g entraid.Grant) error { return errors.New("Client assertion failed signature validation.") })
	set := settings(srv)
	set.UseOIDC = new(true)
	set.OIDCToken = idToken()
	_, err := getToken(t, credential(t, set, srv))
	if err == nil || !strings.Contains(err.Error(), "invalid_client") || !strings.Contains(err.Error(), "AADSTS700027") {
		t.Fatalf("GetToken error = %v, want invalid_client AADSTS700027", err)
	}
}

// TestSharedServer mounts the emulator beside another API on one server.
func TestSharedServer(t *testing.T) {
	s := entraid.New(nil)
	other := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "arm "+r.URL.Path)
	})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.Owns(r) {
			s.ServeHTTP(w, r)
			return
		}
		other.ServeHTTP(w, r)
	}))
	defer srv.Close()
	set := settings(srv)
	set.ClientSecret = secret
	if _, err := getToken(t, credential(t, set, srv)); err != nil {
		t.Fatalf("GetToken: %v", err)
	}
	resp, err := srv.Client().Get(srv.URL + "/subscriptions/x/resourceGroups/rg?api-version=2025-03-01")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "arm /subscriptions/x/resourceGroups/rg" {
		t.Errorf("other path answered %q", b)
	}

	// And on a ServeMux, as the catch-all beside more specific patterns.
	mux := http.NewServeMux()
	mux.Handle("/subscriptions/", other)
	mux.Handle("/", s)
	srv2 := httptest.NewTLSServer(mux)
	defer srv2.Close()
	set = settings(srv2)
	set.ClientSecret = secret
	if _, err := getToken(t, credential(t, set, srv2)); err != nil {
		t.Fatalf("GetToken through a ServeMux: %v", err)
	}
}

func TestOwns(t *testing.T) {
	s := entraid.New(nil)
	for path, want := range map[string]bool{
		"/" + tenant + "/v2.0/.well-known/openid-configuration": true,
		"/contoso.onmicrosoft.com/oauth2/v2.0/token":            true,
		"/common/discovery/instance":                            true,
		"/subscriptions/x/providers/Microsoft.ContainerService": false,
		"/" + tenant + "/oauth2/v2.0/authorize":                 false,
		"/" + tenant + "/oauth2/token":                          false,
		"//v2.0/.well-known/openid-configuration":               false,
		"/": false,
		"/providers/Microsoft.ContainerService/operations": false,
	} {
		r := httptest.NewRequest(http.MethodGet, "https://login.example"+path, nil)
		if got := s.Owns(r); got != want {
			t.Errorf("Owns(%s) = %v, want %v", path, got, want)
		}
	}
}

func TestOpenIDConfiguration(t *testing.T) {
	_, _, srv := start(t, nil)
	var doc map[string]any
	status := getJSON(t, srv, "/"+tenant+"/v2.0/.well-known/openid-configuration", &doc)
	if status != http.StatusOK {
		t.Fatalf("status %d", status)
	}
	a := srv.URL + "/" + tenant
	for k, want := range map[string]string{
		"issuer":                 a + "/v2.0",
		"token_endpoint":         a + "/oauth2/v2.0/token",
		"authorization_endpoint": a + "/oauth2/v2.0/authorize",
	} {
		if doc[k] != want {
			t.Errorf("%s = %v, want %s", k, doc[k], want)
		}
	}
}

func TestInstanceDiscoveryDocument(t *testing.T) {
	_, _, srv := start(t, nil)
	u := srv.URL + "/common/discovery/instance?api-version=1.1&authorization_endpoint=" +
		url.QueryEscape("https://login.example:8443/"+tenant+"/oauth2/v2.0/authorize")
	var doc struct {
		TenantDiscoveryEndpoint string `json:"tenant_discovery_endpoint"`
		Metadata                []struct {
			Aliases []string `json:"aliases"`
		} `json:"metadata"`
	}
	if status := getJSON(t, srv, strings.TrimPrefix(u, srv.URL), &doc); status != http.StatusOK {
		t.Fatalf("status %d", status)
	}
	if want := "https://login.example:8443/" + tenant + "/v2.0/.well-known/openid-configuration"; doc.TenantDiscoveryEndpoint != want {
		t.Errorf("tenant_discovery_endpoint = %q, want %q", doc.TenantDiscoveryEndpoint, want)
	}
	if len(doc.Metadata) != 1 || !slices.Equal(doc.Metadata[0].Aliases, []string{"login.example:8443"}) {
		t.Errorf("metadata = %+v", doc.Metadata)
	}
	var e map[string]any
	if status := getJSON(t, srv, "/common/discovery/instance?api-version=1.1", &e); status != http.StatusBadRequest || e["error"] != "invalid_instance" {
		t.Errorf("without authorization_endpoint: %d %v", status, e)
	}
}

// rewrite sends requests for Entra ID's public host to the emulator.
type rewrite struct {
	srv *httptest.Server

	mu    sync.Mutex
	hosts []string
}

func (rw *rewrite) Do(req *http.Request) (*http.Response, error) {
	rw.mu.Lock()
	rw.hosts = append(rw.hosts, req.URL.Host)
	rw.mu.Unlock()
	if req.URL.Host == "login.microsoftonline.com" {
		u, _ := url.Parse(rw.srv.URL)
		req = req.Clone(req.Context())
		req.URL.Host, req.Host = u.Host, ""
	}
	return rw.srv.Client().Do(req)
}

// TestInstanceDiscoveryEnabled shows what MSAL does when instance discovery
// is left on for a custom authority: it asks login.microsoftonline.com,
// whatever the authority host, before the OpenID configuration and again
// when it reads its token cache.
func TestInstanceDiscoveryEnabled(t *testing.T) {
	s, rec, srv := start(t, nil)
	rw := &rewrite{srv: srv}
	cred, err := azidentity.NewClientSecretCredential(tenant, clientID, secret, &azidentity.ClientSecretCredentialOptions{
		ClientOptions: azcore.ClientOptions{
			Cloud:     cloud.Configuration{ActiveDirectoryAuthorityHost: srv.URL},
			Transport: rw,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := getToken(t, cred)
	if err != nil {
		t.Fatalf("GetToken: %v", err)
	}
	checkToken(t, tok)
	if !slices.Contains(rw.hosts, "login.microsoftonline.com") {
		t.Errorf("hosts = %q, want a request to login.microsoftonline.com", rw.hosts)
	}
	got := rec.requests()
	t.Logf("emulator requests: %q", got)
	if len(got) == 0 || got[0] != "GET /common/discovery/instance" || !slices.Contains(got, wantMSALRequests[0]) ||
		got[len(got)-1] != wantMSALRequests[1] {
		t.Errorf("requests = %q, want instance discovery, then %q", got, wantMSALRequests)
	}
	if len(s.Grants()) != 1 {
		t.Errorf("grants = %+v", s.Grants())
	}

	// Without the rewrite (no network), the discovery fails the token request.
	var asked []string
	failing := policyTransport(func(req *http.Request) (*http.Response, error) {
		asked = append(asked, req.URL.Host+req.URL.Path)
		if req.URL.Host == "login.microsoftonline.com" {
			return nil, errors.New("no network")
		}
		return srv.Client().Do(req)
	})
	cred, err = azidentity.NewClientSecretCredential(tenant, clientID, secret, &azidentity.ClientSecretCredentialOptions{
		ClientOptions: azcore.ClientOptions{
			Cloud:     cloud.Configuration{ActiveDirectoryAuthorityHost: srv.URL},
			Transport: failing,
			Retry:     policy.RetryOptions{MaxRetries: -1},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := getToken(t, cred); err == nil || !strings.Contains(err.Error(), "unable to resolve an endpoint") {
		t.Errorf("GetToken without discovery = %v, want it unable to resolve the endpoint", err)
	}
	// Once as it reads its cache (a failure there falls back), once to
	// resolve the endpoints (a failure there is fatal).
	if len(asked) == 0 || slices.ContainsFunc(asked, func(a string) bool { return a != "login.microsoftonline.com/common/discovery/instance" }) {
		t.Errorf("requests without discovery = %q, want only instance discovery at login.microsoftonline.com", asked)
	}
}

type policyTransport func(*http.Request) (*http.Response, error)

func (f policyTransport) Do(req *http.Request) (*http.Response, error) { return f(req) }

func getJSON(t *testing.T, srv *httptest.Server, path string, v any) int {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode
}

func postForm(t *testing.T, srv *httptest.Server, form url.Values) (int, map[string]any) {
	t.Helper()
	resp, err := srv.Client().PostForm(srv.URL+"/"+tenant+"/oauth2/v2.0/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

func TestTokenRequestErrors(t *testing.T) {
	s, _, srv := start(t, nil)
	base := func(kv ...string) url.Values {
		v := url.Values{"grant_type": {"client_credentials"}, "client_id": {clientID},
			"scope": {armScope + " openid offline_access profile"}, "client_secret": {secret}}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				v.Del(kv[i])
			} else {
				v.Set(kv[i], kv[i+1])
			}
		}
		return v
	}
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		code   string
		aadsts float64
	}{
		{"no grant type", base("grant_type", ""), 400, "invalid_request", 900144},
		{"password grant", base("grant_type", "password"), 400, "unsupported_grant_type", 70003},
		{"no client", base("client_id", ""), 400, "invalid_request", 900144},
		{"no scope", base("scope", "openid profile"), 400, "invalid_request", 900144},
		{"not .default", base("scope", "https://management.azure.com/user_impersonation"), 400, "invalid_scope", 1002012},
		{"two resources", base("scope", armScope+" https://graph.microsoft.com/.default"), 400, "invalid_scope", 28000},
		{"no credential", base("client_secret", ""), 401, "invalid_client", 7000216},
		{"both credentials", base("client_assertion", "a.b.c", "client_assertion_type", entraid.JWTBearer), 400, "invalid_request", 90023},
		{"no assertion type", base("client_secret", "", "client_assertion", "a.b.c"), 400, "invalid_request", 90014},
		{"bad assertion type", base("client_secret", "", "client_assertion", "a.b.c", "client_assertion_type", "saml"), 400, "invalid_request", 90023},
	} {
		status, body := postForm(t, srv, tc.form)
		codes, _ := body["error_codes"].([]any)
		desc, _ := body["error_description"].(string)
		if status != tc.status || body["error"] != tc.code || len(codes) != 1 || codes[0] != tc.aadsts ||
			!strings.HasPrefix(desc, fmt.Sprintf("AADSTS%d: ", int(tc.aadsts))) {
			t.Errorf("%s: %d %v, want %d %s AADSTS%d", tc.name, status, body, tc.status, tc.code, int(tc.aadsts))
		}
		if strings.Contains(fmt.Sprint(body), secret) {
			t.Errorf("%s: the response contains the secret", tc.name)
		}
	}
	if g := s.Grants(); len(g) != 0 {
		t.Errorf("malformed requests recorded as grants: %+v", g)
	}

	// A good one, answered as Entra ID does.
	status, body := postForm(t, srv, base())
	if status != 200 || body["token_type"] != "Bearer" || body["expires_in"] != float64(3599) || body["ext_expires_in"] != float64(3599) {
		t.Errorf("token response %d %v", status, body)
	}

	// Wrong methods.
	resp, err := srv.Client().Get(srv.URL + "/" + tenant + "/oauth2/v2.0/token")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
		t.Errorf("GET token: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	resp, err = srv.Client().Get(srv.URL + "/subscriptions/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("foreign path: %d", resp.StatusCode)
	}
}

func TestCertificateAssertionChecks(t *testing.T) {
	_, _, srv := start(t, nil)
	endpoint := srv.URL + "/" + tenant + "/oauth2/v2.0/token"
	jwt := func(claims map[string]any) string {
		seg := func(v any) string {
			b, _ := json.Marshal(v)
			return base64.RawURLEncoding.EncodeToString(b)
		}
		return seg(map[string]any{"alg": "PS256", "typ": "JWT", "x5t#S256": "AAAA"}) + "." + seg(claims) + ".c2ln"
	}
	now := time.Now().Unix()
	good := map[string]any{"iss": clientID, "sub": clientID, "aud": endpoint, "exp": now + 600, "nbf": now}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range good {
			m[kk] = vv
		}
		m[k] = v
		return m
	}
	for _, tc := range []struct {
		name   string
		claims map[string]any
		aadsts float64
	}{
		{"good", good, 0},
		{"other client", with("iss", "someone-else"), 700021},
		{"other audience", with("aud", "https://login.microsoftonline.com/"+tenant+"/oauth2/v2.0/token"), 700027},
		{"expired", with("exp", now-3600), 700024},
	} {
		status, body := postForm(t, srv, url.Values{"grant_type": {"client_credentials"}, "client_id": {clientID}, "scope": {armScope},
			"client_assertion_type": {entraid.JWTBearer}, "client_assertion": {jwt(tc.claims)}})
		if tc.aadsts == 0 {
			if status != 200 {
				t.Errorf("%s: %d %v", tc.name, status, body)
			}
			continue
		}
		codes, _ := body["error_codes"].([]any)
		if status != 401 || body["error"] != "invalid_client" || len(codes) != 1 || codes[0] != tc.aadsts {
			t.Errorf("%s: %d %v, want 401 invalid_client AADSTS%d", tc.name, status, body, int(tc.aadsts))
		}
	}
}

func TestParseAccessToken(t *testing.T) {
	if _, err := entraid.ParseAccessToken(idToken()); err == nil {
		t.Error("ParseAccessToken accepted a foreign token")
	}
	if _, err := entraid.ParseAccessToken("not-a-jwt"); err == nil {
		t.Error("ParseAccessToken accepted garbage")
	}
}

func verifyPS256(cert *x509.Certificate, signed string, sig []byte) error {
	pub, ok := cert.PublicKey.(*rsa.PublicKey)
	if !ok {
		return fmt.Errorf("certificate key is %T", cert.PublicKey)
	}
	sum := sha256.Sum256([]byte(signed))
	return rsa.VerifyPSS(pub, crypto.SHA256, sum[:], sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto})
}
