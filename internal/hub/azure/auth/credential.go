package auth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

// Option adjusts the credentials Credential builds.
type Option func(*azcore.ClientOptions)

// WithClientOptions gives the credential's HTTP pipeline these options
// (transport, retries, logging, telemetry). Their Cloud is replaced by the
// settings' cloud. The transport also carries the GitHub Actions token request.
func WithClientOptions(o azcore.ClientOptions) Option {
	return func(c *azcore.ClientOptions) { *c = o }
}

// Credential is the credential the settings select, in azurerm's order (see
// the package documentation), and a description of it for logs that names
// the method, client, tenant and files but never a secret, token, password or
// certificate. A misconfiguration is a *ConfigError. Building the credential
// contacts no one; the first token request does.
func Credential(s Settings, opts ...Option) (azcore.TokenCredential, string, error) {
	if s.SubscriptionID == "" {
		return nil, "", subscriptionID.err("no subscription: set "+subscriptionID.where(), nil)
	}
	c, err := Cloud(s)
	if err != nil {
		return nil, "", err
	}
	var co azcore.ClientOptions
	for _, o := range opts {
		o(&co)
	}
	co.Cloud = c
	switch {
	case s.ClientCertificatePath != "":
		return certificateCredential(s, co)
	case s.ClientSecret != "":
		return secretCredential(s, co)
	case enabled(s.UseOIDC, false):
		return oidcCredential(s, co)
	case enabled(s.UseMSI, false):
		return msiCredential(s, co)
	case enabled(s.UseCLI, true):
		return cliCredential(s)
	}
	return nil, "", useCLI.err(fmt.Sprintf("no way to authenticate to Azure: in the azure block set %s, %s, %s = true or %s = true, "+
		"or allow the Azure CLI login with %s = true", clientSecret.named(), clientCertificatePath.named(), useOIDC.named(), useMSI.named(),
		useCLI.named()), nil)
}

func certificateCredential(s Settings, co azcore.ClientOptions) (azcore.TokenCredential, string, error) {
	if err := needServicePrincipal(s, "client certificate"); err != nil {
		return nil, "", err
	}
	path := s.ClientCertificatePath
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", clientCertificatePath.err(fmt.Sprintf("cannot read the client certificate file %s: fix %s", path, clientCertificatePath.where()), err)
	}
	var password []byte
	if s.ClientCertificatePassword != "" {
		password = []byte(s.ClientCertificatePassword)
	}
	certs, key, err := azidentity.ParseCertificates(data, password)
	if err != nil {
		blame := clientCertificatePath
		if password != nil {
			blame = clientCertificatePassword
		}
		return nil, "", blame.err(fmt.Sprintf("cannot load the client certificate %s: it must be a PEM or PKCS#12 file holding the certificate "+
			"and its private key, and %s must be its password (empty for none)", path, clientCertificatePassword.named()), err)
	}
	cred, err := azidentity.NewClientCertificateCredential(s.TenantID, s.ClientID, certs, key,
		&azidentity.ClientCertificateCredentialOptions{ClientOptions: co, DisableInstanceDiscovery: privateAuthority(s)})
	return built(cred, err, "client certificate "+path+" "+principal(s), clientCertificatePath, "client certificate")
}

func secretCredential(s Settings, co azcore.ClientOptions) (azcore.TokenCredential, string, error) {
	if err := needServicePrincipal(s, "client secret"); err != nil {
		return nil, "", err
	}
	cred, err := azidentity.NewClientSecretCredential(s.TenantID, s.ClientID, s.ClientSecret,
		&azidentity.ClientSecretCredentialOptions{ClientOptions: co, DisableInstanceDiscovery: privateAuthority(s)})
	return built(cred, err, "client secret "+principal(s), tenantID, "client secret")
}

// oidcCredential exchanges an ID token for Entra ID tokens: the file's (read
// on every request, since whoever writes it rotates it), the given token's,
// or one requested from GitHub Actions.
func oidcCredential(s Settings, co azcore.ClientOptions) (azcore.TokenCredential, string, error) {
	if err := needServicePrincipal(s, "OIDC"); err != nil {
		return nil, "", err
	}
	var (
		assertion func(context.Context) (string, error)
		source    string
	)
	switch {
	case s.OIDCTokenFilePath != "":
		path := s.OIDCTokenFilePath
		token, err := readToken(path)
		if err != nil {
			return nil, "", oidcTokenFilePath.err(fmt.Sprintf("cannot read the OIDC token file %s: fix %s", path, oidcTokenFilePath.where()), err)
		}
		if s.OIDCToken != "" && strings.TrimSpace(s.OIDCToken) != token {
			return nil, "", oidcToken.err(fmt.Sprintf("%s and the token in %s differ: set only one of them", oidcToken.where(), path), nil)
		}
		assertion, source = fileAssertion(path), "OIDC token file "+path
	case s.OIDCToken != "":
		token := s.OIDCToken
		assertion = func(context.Context) (string, error) { return token, nil }
		source = "OIDC token"
	case s.OIDCRequestURL != "" && s.OIDCRequestToken != "":
		u, err := parseURL(oidcRequestURL, s.OIDCRequestURL, "https", "http")
		if err != nil {
			return nil, "", err
		}
		assertion, source = gitHubAssertion(u, s.OIDCRequestToken, co.Transport), "GitHub Actions OIDC token"
	default:
		return nil, "", oidcToken.err(fmt.Sprintf("use_oidc is true but there is no ID token: in the azure block set %s or %s, "+
			"or run in GitHub Actions with the id-token: write permission, which sets %s and %s",
			oidcToken.named(), oidcTokenFilePath.named(), EnvGitHubRequestURL, EnvGitHubRequestToken), nil)
	}
	cred, err := azidentity.NewClientAssertionCredential(s.TenantID, s.ClientID, assertion,
		&azidentity.ClientAssertionCredentialOptions{ClientOptions: co, DisableInstanceDiscovery: privateAuthority(s)})
	return built(cred, err, source+" "+principal(s), tenantID, "OIDC")
}

func msiCredential(s Settings, co azcore.ClientOptions) (azcore.TokenCredential, string, error) {
	o := azidentity.ManagedIdentityCredentialOptions{ClientOptions: co}
	desc := "system-assigned managed identity"
	if s.ClientID != "" {
		o.ID = azidentity.ClientID(s.ClientID)
		desc = "managed identity with client ID " + s.ClientID
	}
	if s.MSIEndpoint != "" {
		u, err := parseURL(msiEndpoint, s.MSIEndpoint, "http", "https")
		if err != nil {
			return nil, "", err
		}
		o.PerCallPolicies = append([]policy.Policy{imdsRedirect{u}}, co.PerCallPolicies...)
		desc += " at " + s.MSIEndpoint
	}
	cred, err := azidentity.NewManagedIdentityCredential(&o)
	return built(cred, err, desc, useMSI, "managed identity")
}

// cliCredential asks the Azure CLI for tokens: in the tenant when one is set,
// else for the subscription (the CLI takes one or the other, not both), as
// azurerm's subscription hint does.
func cliCredential(s Settings) (azcore.TokenCredential, string, error) {
	o := azidentity.AzureCLICredentialOptions{TenantID: s.TenantID}
	desc, blame := "Azure CLI login in tenant "+s.TenantID, tenantID
	if s.TenantID == "" {
		o.Subscription = s.SubscriptionID
		desc, blame = "Azure CLI login for subscription "+s.SubscriptionID, subscriptionID
	}
	cred, err := azidentity.NewAzureCLICredential(&o)
	return built(cred, err, desc, blame, "Azure CLI")
}

// needServicePrincipal checks that a service principal method has its client
// and tenant.
func needServicePrincipal(s Settings, method string) error {
	switch {
	case s.ClientID == "":
		return clientID.err(fmt.Sprintf("%s authentication needs the service principal's client ID: set %s", method, clientID.where()), nil)
	case s.TenantID == "":
		return tenantID.err(fmt.Sprintf("%s authentication needs the service principal's tenant ID: set %s", method, tenantID.where()), nil)
	}
	return nil
}

// privateAuthority reports a custom authority host, which Entra ID's instance
// discovery at login.microsoftonline.com does not know (Azure Stack, private
// clouds): the user vouches for it, so the credentials skip the discovery.
func privateAuthority(s Settings) bool { return s.AuthorityHost != "" }

func principal(s Settings) string {
	return fmt.Sprintf("for client %s in tenant %s", s.ClientID, s.TenantID)
}

// built returns what an azidentity constructor returned, its error as a
// ConfigError on the setting most likely at fault (azidentity's errors name
// the problem, and never a secret).
func built[C azcore.TokenCredential](cred C, err error, desc string, blame setting, method string) (azcore.TokenCredential, string, error) {
	if err != nil {
		return nil, "", blame.err(fmt.Sprintf("cannot set up %s authentication: check %s", method, blame.where()), err)
	}
	return cred, desc, nil
}

// readToken reads an ID token file, without surrounding white space.
func readToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", errors.New("the file is empty")
	}
	return token, nil
}

// fileAssertion reads the token file on every call.
func fileAssertion(path string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		token, err := readToken(path)
		if err != nil {
			return "", fmt.Errorf("cannot read the OIDC token file %s: %w", path, err)
		}
		return token, nil
	}
}
