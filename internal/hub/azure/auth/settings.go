package auth

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// The environment variables FromEnv reads. The ARM_* and ACTIONS_* names are
// azurerm's; the AKS_* names are this provider's.
const (
	EnvSubscriptionID            = "ARM_SUBSCRIPTION_ID"
	EnvTenantID                  = "ARM_TENANT_ID"
	EnvClientID                  = "ARM_CLIENT_ID"
	EnvClientSecret              = "ARM_CLIENT_SECRET"
	EnvClientCertificatePath     = "ARM_CLIENT_CERTIFICATE_PATH"
	EnvClientCertificatePassword = "ARM_CLIENT_CERTIFICATE_PASSWORD"
	EnvUseOIDC                   = "ARM_USE_OIDC"
	EnvOIDCToken                 = "ARM_OIDC_TOKEN"
	EnvOIDCTokenFilePath         = "ARM_OIDC_TOKEN_FILE_PATH"
	EnvOIDCRequestURL            = "ARM_OIDC_REQUEST_URL"
	EnvOIDCRequestToken          = "ARM_OIDC_REQUEST_TOKEN"
	EnvGitHubRequestURL          = "ACTIONS_ID_TOKEN_REQUEST_URL"
	EnvGitHubRequestToken        = "ACTIONS_ID_TOKEN_REQUEST_TOKEN"
	EnvUseMSI                    = "ARM_USE_MSI"
	EnvMSIEndpoint               = "ARM_MSI_ENDPOINT"
	EnvUseCLI                    = "ARM_USE_CLI"
	EnvEnvironment               = "ARM_ENVIRONMENT"
	EnvResourceManagerEndpoint   = "AKS_ARM_ENDPOINT"
	EnvResourceManagerAudience   = "AKS_ARM_AUDIENCE"
	EnvAuthorityHost             = "AKS_ARM_AUTHORITY_HOST"
	EnvResourceGroupName         = "AKS_FLEET_RESOURCE_GROUP"
	EnvFleetName                 = "AKS_FLEET_NAME"
)

// Settings are the azure block's settings. An empty string and a nil *bool
// mean unset: FromEnv fills them from the environment, and what is still nil
// afterwards takes its default (UseCLI true, UseOIDC and UseMSI false).
type Settings struct {
	SubscriptionID string // subscription_id
	TenantID       string // tenant_id
	// ClientID is the service principal's application ID, or with UseMSI the
	// user-assigned managed identity's client ID.
	ClientID string // client_id

	ClientSecret              string // client_secret
	ClientCertificatePath     string // client_certificate_path: PEM or PKCS#12
	ClientCertificatePassword string // client_certificate_password

	UseOIDC           *bool  // use_oidc
	OIDCToken         string // oidc_token
	OIDCTokenFilePath string // oidc_token_file_path
	OIDCRequestURL    string // oidc_request_url: GitHub Actions' token endpoint
	OIDCRequestToken  string // oidc_request_token: the bearer token for it

	UseMSI      *bool  // use_msi
	MSIEndpoint string // msi_endpoint: replaces the IMDS token endpoint

	UseCLI *bool // use_cli

	Environment             string // environment: public, usgovernment or china
	ResourceManagerEndpoint string // resource_manager_endpoint
	ResourceManagerAudience string // resource_manager_audience
	AuthorityHost           string // authority_host: the Entra ID (login) host

	ResourceGroupName string // resource_group_name
	FleetName         string // fleet_name
}

// setting is an azure block attribute and the environment variables that
// stand in for it, in order.
type setting struct {
	attr string
	env  string
	alt  string // read when env is unset, or ""
}

var (
	subscriptionID            = setting{attr: "subscription_id", env: EnvSubscriptionID}
	tenantID                  = setting{attr: "tenant_id", env: EnvTenantID}
	clientID                  = setting{attr: "client_id", env: EnvClientID}
	clientSecret              = setting{attr: "client_secret", env: EnvClientSecret}
	clientCertificatePath     = setting{attr: "client_certificate_path", env: EnvClientCertificatePath}
	clientCertificatePassword = setting{attr: "client_certificate_password", env: EnvClientCertificatePassword}
	useOIDC                   = setting{attr: "use_oidc", env: EnvUseOIDC}
	oidcToken                 = setting{attr: "oidc_token", env: EnvOIDCToken}
	oidcTokenFilePath         = setting{attr: "oidc_token_file_path", env: EnvOIDCTokenFilePath}
	oidcRequestURL            = setting{attr: "oidc_request_url", env: EnvOIDCRequestURL, alt: EnvGitHubRequestURL}
	oidcRequestToken          = setting{attr: "oidc_request_token", env: EnvOIDCRequestToken, alt: EnvGitHubRequestToken}
	useMSI                    = setting{attr: "use_msi", env: EnvUseMSI}
	msiEndpoint               = setting{attr: "msi_endpoint", env: EnvMSIEndpoint}
	useCLI                    = setting{attr: "use_cli", env: EnvUseCLI}
	environment               = setting{attr: "environment", env: EnvEnvironment}
	resourceManagerEndpoint   = setting{attr: "resource_manager_endpoint", env: EnvResourceManagerEndpoint}
	resourceManagerAudience   = setting{attr: "resource_manager_audience", env: EnvResourceManagerAudience}
	authorityHost             = setting{attr: "authority_host", env: EnvAuthorityHost}
	resourceGroupName         = setting{attr: "resource_group_name", env: EnvResourceGroupName}
	fleetName                 = setting{attr: "fleet_name", env: EnvFleetName}
)

// where says where the user sets it: "tenant_id in the azure block or ARM_TENANT_ID".
func (s setting) where() string {
	return fmt.Sprintf("%s in the azure block or %s", s.attr, s.env)
}

// named is the attribute with its variable: "tenant_id (ARM_TENANT_ID)".
func (s setting) named() string {
	return fmt.Sprintf("%s (%s)", s.attr, s.env)
}

func (s setting) err(msg string, cause error) *ConfigError {
	return &ConfigError{Setting: s.attr, Env: s.env, Message: msg, Err: cause}
}

// FromEnv returns block with every unset setting read from its environment
// variable through getenv (os.Getenv when nil). It fails only on a boolean
// variable that strconv.ParseBool does not accept.
func FromEnv(block Settings, getenv func(string) string) (Settings, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	s := block
	for _, f := range []struct {
		dst *string
		setting
	}{
		{&s.SubscriptionID, subscriptionID},
		{&s.TenantID, tenantID},
		{&s.ClientID, clientID},
		{&s.ClientSecret, clientSecret},
		{&s.ClientCertificatePath, clientCertificatePath},
		{&s.ClientCertificatePassword, clientCertificatePassword},
		{&s.OIDCToken, oidcToken},
		{&s.OIDCTokenFilePath, oidcTokenFilePath},
		{&s.OIDCRequestURL, oidcRequestURL},
		{&s.OIDCRequestToken, oidcRequestToken},
		{&s.MSIEndpoint, msiEndpoint},
		{&s.Environment, environment},
		{&s.ResourceManagerEndpoint, resourceManagerEndpoint},
		{&s.ResourceManagerAudience, resourceManagerAudience},
		{&s.AuthorityHost, authorityHost},
		{&s.ResourceGroupName, resourceGroupName},
		{&s.FleetName, fleetName},
	} {
		if *f.dst == "" {
			*f.dst = getenv(f.env)
		}
		if *f.dst == "" && f.alt != "" {
			*f.dst = getenv(f.alt)
		}
	}
	for _, f := range []struct {
		dst **bool
		setting
	}{
		{&s.UseOIDC, useOIDC},
		{&s.UseMSI, useMSI},
		{&s.UseCLI, useCLI},
	} {
		v := getenv(f.env)
		if *f.dst != nil || v == "" {
			continue
		}
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return Settings{}, f.err(fmt.Sprintf("%s must be true or false (or 1 or 0), not %q: fix the variable, or set %s in the azure block",
				f.env, v, f.attr), nil)
		}
		*f.dst = &b
	}
	return s, nil
}

// enabled is a boolean setting's value, def when unset.
func enabled(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}
