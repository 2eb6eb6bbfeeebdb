package auth

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// env is a getenv over a map.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func ptr(b bool) *bool { return &b }

func TestFromEnvReadsEveryVariable(t *testing.T) {
	got, err := FromEnv(Settings{}, env(map[string]string{
		"ARM_SUBSCRIPTION_ID":             "sub",
		"ARM_TENANT_ID":                   "tenant",
		"ARM_CLIENT_ID":                   "client",
		"ARM_CLIENT_SECRET":               "secret",
		"ARM_CLIENT_CERTIFICATE_PATH":     "/cert.pfx",
		"ARM_CLIENT_CERTIFICATE_PASSWORD": "password",
		"ARM_USE_OIDC":                    "true",
		"ARM_OIDC_TOKEN":                  "token",
		"ARM_OIDC_TOKEN_FILE_PATH":        "/token",
		"ARM_OIDC_REQUEST_URL":            "https://request",
		"ARM_OIDC_REQUEST_TOKEN":          "request-token",
		"ARM_USE_MSI":                     "1",
		"ARM_MSI_ENDPOINT":                "http://msi",
		"ARM_USE_CLI":                     "0",
		"ARM_ENVIRONMENT":                 "china",
		"AKS_ARM_ENDPOINT":                "https://arm",
		"AKS_ARM_AUDIENCE":                "https://audience",
		"AKS_ARM_AUTHORITY_HOST":          "https://login",
		"AKS_FLEET_RESOURCE_GROUP":        "rg",
		"AKS_FLEET_NAME":                  "fleet",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{
		SubscriptionID: "sub", TenantID: "tenant", ClientID: "client",
		ClientSecret: "secret", ClientCertificatePath: "/cert.pfx", ClientCertificatePassword: "password",
		UseOIDC: ptr(true), OIDCToken: "token", OIDCTokenFilePath: "/token", OIDCRequestURL: "https://request", OIDCRequestToken: "request-token",
		UseMSI: ptr(true), MSIEndpoint: "http://msi", UseCLI: ptr(false),
		Environment: "china", ResourceManagerEndpoint: "https://arm", ResourceManagerAudience: "https://audience", AuthorityHost: "https://login",
		ResourceGroupName: "rg", FleetName: "fleet",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromEnv = %+v\nwant %+v", got, want)
	}
}

func TestFromEnvBlockWins(t *testing.T) {
	vars := map[string]string{
		"ARM_SUBSCRIPTION_ID": "env-sub", "ARM_CLIENT_SECRET": "env-secret", "ARM_ENVIRONMENT": "china",
		"ARM_USE_CLI": "true", "ARM_USE_MSI": "true", "ARM_USE_OIDC": "false", "AKS_FLEET_NAME": "env-fleet",
	}
	block := Settings{SubscriptionID: "block-sub", ClientSecret: "block-secret", Environment: "public",
		UseCLI: ptr(false), UseMSI: ptr(false), UseOIDC: ptr(true), FleetName: "block-fleet"}
	got, err := FromEnv(block, env(vars))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, block) {
		t.Errorf("FromEnv = %+v, want the block unchanged %+v", got, block)
	}
}

func TestFromEnvUnsetStaysUnset(t *testing.T) {
	got, err := FromEnv(Settings{}, env(nil))
	if err != nil || !reflect.DeepEqual(got, Settings{}) {
		t.Fatalf("FromEnv with no environment = %+v, %v", got, err)
	}
	if !enabled(got.UseCLI, true) || enabled(got.UseMSI, false) || enabled(got.UseOIDC, false) {
		t.Error("defaults: want use_cli true, use_msi and use_oidc false")
	}
}

// azurerm reads ARM_OIDC_REQUEST_* first and GitHub Actions' own variables
// when they are unset.
func TestFromEnvGitHubActionsVariables(t *testing.T) {
	for _, tc := range []struct {
		name               string
		vars               map[string]string
		wantURL, wantToken string
	}{
		{"github", map[string]string{"ACTIONS_ID_TOKEN_REQUEST_URL": "https://gh", "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "gh-token"}, "https://gh", "gh-token"},
		{"arm first", map[string]string{
			"ACTIONS_ID_TOKEN_REQUEST_URL": "https://gh", "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "gh-token",
			"ARM_OIDC_REQUEST_URL": "https://arm", "ARM_OIDC_REQUEST_TOKEN": "arm-token",
		}, "https://arm", "arm-token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromEnv(Settings{}, env(tc.vars))
			if err != nil {
				t.Fatal(err)
			}
			if got.OIDCRequestURL != tc.wantURL || got.OIDCRequestToken != tc.wantToken {
				t.Errorf("request URL %q, token %q; want %q, %q", got.OIDCRequestURL, got.OIDCRequestToken, tc.wantURL, tc.wantToken)
			}
		})
	}
}

func TestFromEnvBooleans(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{{"true", true}, {"TRUE", true}, {"1", true}, {" true ", true}, {"false", false}, {"0", false}, {"F", false}} {
		got, err := FromEnv(Settings{}, env(map[string]string{"ARM_USE_MSI": tc.value}))
		if err != nil || got.UseMSI == nil || *got.UseMSI != tc.want {
			t.Errorf("ARM_USE_MSI=%q: use_msi %v, error %v; want %v", tc.value, got.UseMSI, err, tc.want)
		}
	}
}

func TestFromEnvBadBoolean(t *testing.T) {
	for _, tc := range []struct{ env, attr string }{
		{"ARM_USE_OIDC", "use_oidc"}, {"ARM_USE_MSI", "use_msi"}, {"ARM_USE_CLI", "use_cli"},
	} {
		t.Run(tc.env, func(t *testing.T) {
			_, err := FromEnv(Settings{}, env(map[string]string{tc.env: "yes"}))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v, want a *ConfigError", err)
			}
			if ce.Setting != tc.attr || ce.Env != tc.env {
				t.Errorf("Setting %q, Env %q; want %q, %q", ce.Setting, ce.Env, tc.attr, tc.env)
			}
			for _, want := range []string{tc.env, `"yes"`, "true or false", tc.attr} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %s", err, want)
				}
			}
		})
	}
	// a block value is not overridden, so a bad variable behind it is not read
	if _, err := FromEnv(Settings{UseMSI: ptr(true)}, env(map[string]string{"ARM_USE_MSI": "yes"})); err != nil {
		t.Errorf("a bad ARM_USE_MSI behind use_msi in the block: %v", err)
	}
}
