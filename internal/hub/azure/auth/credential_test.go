package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// The values no description or error may contain.
const (
	subscription = "00000000-0000-0000-0000-00000000000a"
	tenant       = "00000000-0000-0000-0000-00000000000b"
	client       = "00000000-0000-0000-0000-00000000000c"
	secret       = "s3cret-Value~42"
	password     = "p4ssword-Value"
	oidcJWT      = "eyJoidc.token.value"
	requestToken = "gh-request-token-value"
)

var secrets = []string{secret, password, oidcJWT, requestToken}

// vars is the environment of a service principal in the subscription, with kv added.
func vars(kv ...string) map[string]string {
	m := map[string]string{"ARM_SUBSCRIPTION_ID": subscription, "ARM_TENANT_ID": tenant, "ARM_CLIENT_ID": client}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// without is m without the keys.
func without(m map[string]string, keys ...string) map[string]string {
	m = maps.Clone(m)
	for _, k := range keys {
		delete(m, k)
	}
	return m
}

func credential(t *testing.T, block Settings, vars map[string]string, opts ...Option) (azcore.TokenCredential, string, error) {
	t.Helper()
	s, err := FromEnv(block, env(vars))
	if err != nil {
		t.Fatal(err)
	}
	cred, desc, err := Credential(s, opts...)
	for _, v := range secrets {
		if strings.Contains(desc, v) || err != nil && strings.Contains(err.Error(), v) {
			t.Errorf("%q leaks into the description %q or the error %v", v, desc, err)
		}
	}
	return cred, desc, err
}

func TestCredentialSelection(t *testing.T) {
	pemFile, pfxFile := pemCertFile(t), pfxCertFile(t, password)
	tokenFile := writeFile(t, "token", []byte(oidcJWT+"\n"))
	const (
		cert      = "*azidentity.ClientCertificateCredential"
		secretCr  = "*azidentity.ClientSecretCredential"
		assertion = "*azidentity.ClientAssertionCredential"
		msi       = "*azidentity.ManagedIdentityCredential"
		cli       = "*azidentity.AzureCLICredential"
		principal = "for client " + client + " in tenant " + tenant
	)
	var (
		withPEM    = []string{"ARM_CLIENT_CERTIFICATE_PATH", pemFile}
		withSecret = []string{"ARM_CLIENT_SECRET", secret}
		withOIDC   = []string{"ARM_USE_OIDC", "true", "ARM_OIDC_TOKEN", oidcJWT}
		withGitHub = []string{"ARM_USE_OIDC", "true", "ACTIONS_ID_TOKEN_REQUEST_URL", "https://token.actions.example/?x=1",
			"ACTIONS_ID_TOKEN_REQUEST_TOKEN", requestToken}
		withMSI = []string{"ARM_USE_MSI", "true"}
		cat     = slices.Concat[[]string]
	)
	for _, tc := range []struct {
		name     string
		block    Settings
		vars     map[string]string
		want     string
		wantDesc string
	}{
		// each method
		{"certificate PEM", Settings{}, vars(withPEM...), cert, "client certificate " + pemFile + " " + principal},
		{"certificate PKCS#12 with password", Settings{}, vars("ARM_CLIENT_CERTIFICATE_PATH", pfxFile, "ARM_CLIENT_CERTIFICATE_PASSWORD", password),
			cert, "client certificate " + pfxFile + " " + principal},
		{"client secret", Settings{}, vars(withSecret...), secretCr, "client secret " + principal},
		{"OIDC token", Settings{}, vars(withOIDC...), assertion, "OIDC token " + principal},
		{"OIDC token file", Settings{}, vars("ARM_USE_OIDC", "true", "ARM_OIDC_TOKEN_FILE_PATH", tokenFile),
			assertion, "OIDC token file " + tokenFile + " " + principal},
		{"OIDC token and the same in a file", Settings{}, vars(cat(withOIDC, []string{"ARM_OIDC_TOKEN_FILE_PATH", tokenFile})...),
			assertion, "OIDC token file " + tokenFile},
		{"GitHub Actions", Settings{}, vars(withGitHub...), assertion, "GitHub Actions OIDC token " + principal},
		{"system-assigned managed identity", Settings{}, without(vars(withMSI...), "ARM_CLIENT_ID"), msi, "system-assigned managed identity"},
		{"user-assigned managed identity", Settings{}, vars(withMSI...), msi, "managed identity with client ID " + client},
		{"managed identity at an endpoint", Settings{}, vars(cat(withMSI, []string{"ARM_MSI_ENDPOINT", "http://127.0.0.1:50342/oauth2/token"})...),
			msi, "managed identity with client ID " + client + " at http://127.0.0.1:50342/oauth2/token"},
		{"Azure CLI by default", Settings{}, map[string]string{"ARM_SUBSCRIPTION_ID": subscription}, cli, "Azure CLI login for subscription " + subscription},
		{"Azure CLI in the tenant", Settings{}, vars(), cli, "Azure CLI login in tenant " + tenant},

		// azurerm's precedence
		{"certificate before secret", Settings{}, vars(cat(withPEM, withSecret)...), cert, "client certificate"},
		{"certificate before OIDC", Settings{}, vars(cat(withPEM, withOIDC)...), cert, "client certificate"},
		{"secret before OIDC", Settings{}, vars(cat(withSecret, withOIDC)...), secretCr, "client secret"},
		{"secret before managed identity", Settings{}, vars(cat(withSecret, withMSI)...), secretCr, "client secret"},
		{"OIDC token before GitHub Actions", Settings{}, vars(cat(withGitHub, withOIDC)...), assertion, "OIDC token for"},
		{"OIDC before managed identity", Settings{}, vars(cat(withOIDC, withMSI)...), assertion, "OIDC token"},
		{"managed identity before Azure CLI", Settings{}, vars(cat(withMSI, []string{"ARM_USE_CLI", "true"})...), msi, "managed identity"},
		{"an OIDC token without use_oidc is not used", Settings{}, vars("ARM_OIDC_TOKEN", oidcJWT), cli, "Azure CLI"},
		{"GitHub Actions without use_oidc is not used", Settings{}, vars(withGitHub[2:]...), cli, "Azure CLI"},

		// the block wins
		{"block use_msi = false", Settings{UseMSI: ptr(false)}, vars(withMSI...), cli, "Azure CLI"},
		{"block use_oidc = true", Settings{UseOIDC: ptr(true)}, vars("ARM_USE_OIDC", "false", "ARM_OIDC_TOKEN", oidcJWT), assertion, "OIDC token"},
		{"block use_cli = false", Settings{UseCLI: ptr(false)}, vars(withMSI...), msi, "managed identity"},
		{"block client_id", Settings{ClientID: "11111111-0000-0000-0000-000000000000"}, vars(withSecret...),
			secretCr, "client secret for client 11111111-0000-0000-0000-000000000000 in tenant " + tenant},
		{"block environment", Settings{Environment: "public"}, vars(cat(withSecret, []string{"ARM_ENVIRONMENT", "mars"})...), secretCr, "client secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cred, desc, err := credential(t, tc.block, tc.vars)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%T", cred); got != tc.want {
				t.Errorf("credential %s, want %s", got, tc.want)
			}
			if !strings.Contains(desc, tc.wantDesc) {
				t.Errorf("description %q, want it to contain %q", desc, tc.wantDesc)
			}
		})
	}
}

func TestCredentialErrors(t *testing.T) {
	pfxFile := pfxCertFile(t, password)
	garbage := writeFile(t, "garbage.pem", []byte("not a certificate"))
	tokenFile := writeFile(t, "token", []byte(oidcJWT))
	emptyFile := writeFile(t, "empty", []byte("\n"))
	missing := filepath.Join(t.TempDir(), "missing")
	for _, tc := range []struct {
		name      string
		block     Settings
		vars      map[string]string
		attr, env string
		mentions  []string
	}{
		{"no subscription", Settings{}, without(vars("ARM_CLIENT_SECRET", secret), "ARM_SUBSCRIPTION_ID"),
			"subscription_id", "ARM_SUBSCRIPTION_ID", []string{"no subscription", "subscription_id in the azure block or ARM_SUBSCRIPTION_ID"}},
		{"client secret without tenant", Settings{}, without(vars("ARM_CLIENT_SECRET", secret), "ARM_TENANT_ID"),
			"tenant_id", "ARM_TENANT_ID", []string{"client secret", "tenant_id in the azure block or ARM_TENANT_ID"}},
		{"client secret without client", Settings{}, without(vars("ARM_CLIENT_SECRET", secret), "ARM_CLIENT_ID"),
			"client_id", "ARM_CLIENT_ID", []string{"client secret", "ARM_CLIENT_ID"}},
		{"client secret with a malformed tenant", Settings{TenantID: "not/a tenant"}, vars("ARM_CLIENT_SECRET", secret),
			"tenant_id", "ARM_TENANT_ID", []string{"client secret", "invalid tenantID"}},
		{"certificate without tenant", Settings{}, without(vars("ARM_CLIENT_CERTIFICATE_PATH", pfxFile), "ARM_TENANT_ID"),
			"tenant_id", "ARM_TENANT_ID", []string{"client certificate", "ARM_TENANT_ID"}},
		{"certificate file unreadable", Settings{}, vars("ARM_CLIENT_CERTIFICATE_PATH", missing),
			"client_certificate_path", "ARM_CLIENT_CERTIFICATE_PATH", []string{"cannot read", missing}},
		{"certificate wrong password", Settings{}, vars("ARM_CLIENT_CERTIFICATE_PATH", pfxFile, "ARM_CLIENT_CERTIFICATE_PASSWORD", secret),
			"client_certificate_password", "ARM_CLIENT_CERTIFICATE_PASSWORD", []string{pfxFile, "password", "ARM_CLIENT_CERTIFICATE_PASSWORD"}},
		{"PKCS#12 certificate without its password", Settings{}, vars("ARM_CLIENT_CERTIFICATE_PATH", pfxFile),
			"client_certificate_path", "ARM_CLIENT_CERTIFICATE_PATH", []string{pfxFile, "PEM or PKCS#12"}},
		{"certificate file not a certificate", Settings{}, vars("ARM_CLIENT_CERTIFICATE_PATH", garbage),
			"client_certificate_path", "ARM_CLIENT_CERTIFICATE_PATH", []string{garbage, "PEM or PKCS#12"}},
		{"OIDC without a token", Settings{}, vars("ARM_USE_OIDC", "true"), "oidc_token", "ARM_OIDC_TOKEN",
			[]string{"use_oidc", "ARM_OIDC_TOKEN", "ARM_OIDC_TOKEN_FILE_PATH", "ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"}},
		{"OIDC with half of GitHub Actions", Settings{}, vars("ARM_USE_OIDC", "true", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", requestToken),
			"oidc_token", "ARM_OIDC_TOKEN", []string{"ACTIONS_ID_TOKEN_REQUEST_URL"}},
		{"OIDC without tenant", Settings{}, without(vars("ARM_USE_OIDC", "true", "ARM_OIDC_TOKEN", oidcJWT), "ARM_TENANT_ID"),
			"tenant_id", "ARM_TENANT_ID", []string{"OIDC", "ARM_TENANT_ID"}},
		{"OIDC token file missing", Settings{}, vars("ARM_USE_OIDC", "true", "ARM_OIDC_TOKEN_FILE_PATH", missing),
			"oidc_token_file_path", "ARM_OIDC_TOKEN_FILE_PATH", []string{missing}},
		{"OIDC token file empty", Settings{}, vars("ARM_USE_OIDC", "true", "ARM_OIDC_TOKEN_FILE_PATH", emptyFile),
			"oidc_token_file_path", "ARM_OIDC_TOKEN_FILE_PATH", []string{emptyFile, "empty"}},
		{"OIDC token and file differ", Settings{OIDCToken: secret}, vars("ARM_USE_OIDC", "true", "ARM_OIDC_TOKEN_FILE_PATH", tokenFile),
			"oidc_token", "ARM_OIDC_TOKEN", []string{"differ", tokenFile}},
		{"managed identity endpoint not a URL", Settings{}, vars("ARM_USE_MSI", "true", "ARM_MSI_ENDPOINT", "localhost:50342"),
			"msi_endpoint", "ARM_MSI_ENDPOINT", []string{"absolute URL", "ARM_MSI_ENDPOINT"}},
		{"block use_cli = false and nothing else", Settings{UseCLI: ptr(false)}, vars("ARM_USE_CLI", "true"), "use_cli", "ARM_USE_CLI",
			[]string{"no way to authenticate", "ARM_CLIENT_SECRET", "ARM_CLIENT_CERTIFICATE_PATH", "ARM_USE_OIDC", "ARM_USE_MSI", "ARM_USE_CLI"}},
		{"unknown environment", Settings{}, vars("ARM_ENVIRONMENT", "mars"), "environment", "ARM_ENVIRONMENT", []string{`"mars"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cred, desc, err := credential(t, tc.block, tc.vars)
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("Credential = %T %q, %v; want a *ConfigError", cred, desc, err)
			}
			if cred != nil || desc != "" {
				t.Errorf("a credential %T %q with the error", cred, desc)
			}
			if ce.Setting != tc.attr || ce.Env != tc.env {
				t.Errorf("Setting %q, Env %q; want %q, %q", ce.Setting, ce.Env, tc.attr, tc.env)
			}
			for _, m := range tc.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}
}

// fakeTransport records the requests and answers them with respond.
type fakeTransport struct {
	mu      sync.Mutex
	reqs    []*http.Request
	respond func(*http.Request) (int, string)
}

func (f *fakeTransport) Do(r *http.Request) (*http.Response, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, r)
	f.mu.Unlock()
	status, body := f.respond(r)
	return &http.Response{StatusCode: status, Status: fmt.Sprintf("%d %s", status, http.StatusText(status)), Request: r,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body))}, nil
}

func (f *fakeTransport) requests() []*http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reqs
}

var noRetry = azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}

// A sovereign cloud's credential authenticates against that cloud's authority.
func TestCredentialAuthority(t *testing.T) {
	for _, tc := range []struct {
		block Settings
		host  string
	}{
		{Settings{}, "login.microsoftonline.com"},
		{Settings{Environment: "usgovernment"}, "login.microsoftonline.us"},
		{Settings{Environment: "china"}, "login.chinacloudapi.cn"},
		{Settings{ResourceManagerEndpoint: "https://arm.example.com", AuthorityHost: "https://login.example.com/"}, "login.example.com"},
	} {
		t.Run(tc.host, func(t *testing.T) {
			ft := &fakeTransport{respond: func(*http.Request) (int, string) { return http.StatusBadRequest, `{"error":"invalid_request"}` }}
			o := noRetry
			o.Transport = ft
			cred, _, err := credential(t, tc.block, vars("ARM_CLIENT_SECRET", secret), WithClientOptions(o))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cred.GetToken(context.Background(), policy.TokenRequestOptions{Scopes: []string{"https://management.core.windows.net//.default"}}); err == nil {
				t.Fatal("GetToken succeeded against a transport that refuses everything")
			}
			reqs := ft.requests()
			if len(reqs) == 0 {
				t.Fatal("no request reached the transport")
			}
			for _, r := range reqs {
				if r.URL.Host != tc.host {
					t.Errorf("request to %s, want %s", r.URL, tc.host)
				}
			}
		})
	}
}

// msi_endpoint replaces the IMDS token endpoint, as in go-azure-sdk.
func TestManagedIdentityEndpoint(t *testing.T) {
	// the variables that would make azidentity use another managed identity source than IMDS
	for _, v := range []string{"IDENTITY_ENDPOINT", "IDENTITY_HEADER", "IDENTITY_SERVER_THUMBPRINT", "MSI_ENDPOINT", "MSI_SECRET", "IMDS_ENDPOINT"} {
		t.Setenv(v, "")
	}
	ft := &fakeTransport{respond: func(*http.Request) (int, string) {
		return http.StatusOK, `{"access_token":"at","expires_in":"3600","resource":"https://management.core.windows.net/","token_type":"Bearer"}`
	}}
	o := noRetry
	o.Transport = ft
	cred, _, err := credential(t, Settings{}, vars("ARM_USE_MSI", "true", "ARM_MSI_ENDPOINT", "http://127.0.0.1:50342/custom/token"), WithClientOptions(o))
	if err != nil {
		t.Fatal(err)
	}
	tk, err := cred.GetToken(context.Background(), policy.TokenRequestOptions{Scopes: []string{"https://management.core.windows.net//.default"}})
	if err != nil || tk.Token != "at" {
		t.Fatalf("GetToken = %q, %v", tk.Token, err)
	}
	reqs := ft.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	q := r.URL.Query()
	if r.URL.Scheme+"://"+r.URL.Host+r.URL.Path != "http://127.0.0.1:50342/custom/token" || r.Host != "127.0.0.1:50342" ||
		q.Get("client_id") != client || q.Get("resource") == "" || r.Header.Get("Metadata") != "true" {
		t.Errorf("request %s (Host %s, Metadata %q), want the IMDS request sent to the custom endpoint", r.URL, r.Host, r.Header.Get("Metadata"))
	}
}

func TestFileAssertionRereadsTheFile(t *testing.T) {
	path := writeFile(t, "token", []byte("first\n"))
	read := fileAssertion(path)
	for _, want := range []string{"first", "second"} {
		must(t, os.WriteFile(path, []byte(want+"\n"), 0o600))
		if got, err := read(context.Background()); err != nil || got != want {
			t.Errorf("token %q, %v; want %q", got, err, want)
		}
	}
	must(t, os.Remove(path))
	if _, err := read(context.Background()); err == nil || !strings.Contains(err.Error(), "OIDC token file "+path) {
		t.Errorf("error %v, want one naming the token file", err)
	}
}

func TestGitHubAssertion(t *testing.T) {
	u, err := url.Parse("https://token.actions.example/id?api-version=2.0")
	must(t, err)
	for _, tc := range []struct {
		name    string
		status  int
		body    string
		want    string
		wantErr string
	}{
		{"token", http.StatusOK, `{"count":1,"value":"` + oidcJWT + `"}`, oidcJWT, ""},
		{"refused", http.StatusUnauthorized, `{"message":"bad credentials"}`, "", "refused the ID token request: 401 Unauthorized"},
		{"no token", http.StatusOK, `{}`, "", "without a token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeTransport{respond: func(*http.Request) (int, string) { return tc.status, tc.body }}
			got, err := gitHubAssertion(u, requestToken, ft)(context.Background())
			if got != tc.want || (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("assertion %q, %v; want %q, error containing %q", got, err, tc.want, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), requestToken) {
				t.Errorf("the error %q holds the request token", err)
			}
			r := ft.requests()[0]
			if q := r.URL.Query(); q.Get("audience") != "api://AzureADTokenExchange" || q.Get("api-version") != "2.0" {
				t.Errorf("request %s, want audience=api://AzureADTokenExchange added to the request URL's query", r.URL)
			}
			if r.Header.Get("Authorization") != "Bearer "+requestToken {
				t.Errorf("Authorization %q, want the request token as bearer", r.Header.Get("Authorization"))
			}
		})
	}
	// an audience in the URL is kept
	ft := &fakeTransport{respond: func(*http.Request) (int, string) { return http.StatusOK, `{"value":"x"}` }}
	custom, err := url.Parse("https://token.actions.example/id?audience=api://custom")
	must(t, err)
	if _, err := gitHubAssertion(custom, requestToken, ft)(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := ft.requests()[0].URL.Query().Get("audience"); got != "api://custom" {
		t.Errorf("audience %q, want the URL's api://custom", got)
	}
}
