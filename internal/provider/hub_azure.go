package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armclient"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/auth"
)

// EnvCACertificatePath adds a CA certificate (PEM) that Resource Manager's
// and the identity endpoint's TLS certificates may chain to, for private
// clouds and the wire emulator (azure.ca_certificate_path).
const EnvCACertificatePath = "AKS_ARM_CA_CERTIFICATE_PATH"

// MaxRetries is how often a Resource Manager request is retried after 408,
// 429 or 5xx (honouring Retry-After), more than azcore's default 3: a
// throttled subscription answers 429 to bursts of requests for a while.
const MaxRetries = 8

// EnvAzureUpgradeDuration sets azure.upgrade_duration.
const EnvAzureUpgradeDuration = "AKS_AZURE_UPGRADE_DURATION"

// azureModel is the azure block: the attributes of auth.Settings, in the
// names azurerm users know, plus what only this provider has.
type azureModel struct {
	SubscriptionID            string `json:"subscription_id"`
	ResourceGroupName         string `json:"resource_group_name"`
	FleetName                 string `json:"fleet_name"`
	TenantID                  string `json:"tenant_id"`
	ClientID                  string `json:"client_id"`
	ClientSecret              string `json:"client_secret"`
	ClientCertificatePath     string `json:"client_certificate_path"`
	ClientCertificatePassword string `json:"client_certificate_password"`
	UseOIDC                   *bool  `json:"use_oidc"`
	OIDCToken                 string `json:"oidc_token"`
	OIDCTokenFilePath         string `json:"oidc_token_file_path"`
	OIDCRequestURL            string `json:"oidc_request_url"`
	OIDCRequestToken          string `json:"oidc_request_token"`
	UseMSI                    *bool  `json:"use_msi"`
	MSIEndpoint               string `json:"msi_endpoint"`
	UseCLI                    *bool  `json:"use_cli"`
	Environment               string `json:"environment"`
	ResourceManagerEndpoint   string `json:"resource_manager_endpoint"`
	ResourceManagerAudience   string `json:"resource_manager_audience"`
	AuthorityHost             string `json:"authority_host"`
	CACertificatePath         string `json:"ca_certificate_path"`
	UpgradeDuration           string `json:"upgrade_duration"`
	// HubCluster and MemberClusters give kubeconfigs explicitly.
	HubCluster     *kubeconfigModel     `json:"hub_cluster"`
	MemberClusters []memberClusterModel `json:"member_clusters"`
}

// memberClusterModel is a kubeconfig given for a member cluster.
type memberClusterModel struct {
	Name string `json:"name"`
	kubeconfigModel
}

// kubeconfigModel is a kubeconfig given for a cluster.
type kubeconfigModel struct {
	KubeconfigPath string `json:"kubeconfig_path"`
	Context        string `json:"context"`
}

func (k kubeconfigModel) source() azure.KubeconfigSource {
	return azure.KubeconfigSource{Path: k.KubeconfigPath, Context: k.Context}
}

// Environment variables of azure.hub_cluster.
const (
	EnvHubKubeconfig = "AKS_FLEET_HUB_KUBECONFIG"
	EnvHubContext    = "AKS_FLEET_HUB_CONTEXT"
)

// kubeconfigAttributes are the attributes of a kubeconfig given for a cluster.
func kubeconfigAttributes(what string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"kubeconfig_path": schema.StringAttribute{Optional: true, MarkdownDescription: "The kubeconfig file of " + what +
			" (`~/` is the home directory). Default: the files of the `KUBECONFIG` environment variable, or else `~/.kube/config`."},
		"context": schema.StringAttribute{Optional: true, MarkdownDescription: "The kubeconfig's context for " + what +
			". Default: its current context."},
	}
}

// memberClusterAttributes are a member_clusters block's: the member and its kubeconfig.
func memberClusterAttributes() map[string]schema.Attribute {
	attrs := kubeconfigAttributes("the member cluster")
	attrs["name"] = schema.StringAttribute{Required: true, MarkdownDescription: "The member cluster's name in the fleet."}
	return attrs
}

func (m azureModel) settings() auth.Settings {
	return auth.Settings{SubscriptionID: m.SubscriptionID, TenantID: m.TenantID, ClientID: m.ClientID, ClientSecret: m.ClientSecret,
		ClientCertificatePath: m.ClientCertificatePath, ClientCertificatePassword: m.ClientCertificatePassword,
		UseOIDC: m.UseOIDC, OIDCToken: m.OIDCToken, OIDCTokenFilePath: m.OIDCTokenFilePath, OIDCRequestURL: m.OIDCRequestURL,
		OIDCRequestToken: m.OIDCRequestToken, UseMSI: m.UseMSI, MSIEndpoint: m.MSIEndpoint, UseCLI: m.UseCLI,
		Environment: m.Environment, ResourceManagerEndpoint: m.ResourceManagerEndpoint, ResourceManagerAudience: m.ResourceManagerAudience,
		AuthorityHost: m.AuthorityHost, ResourceGroupName: m.ResourceGroupName, FleetName: m.FleetName}
}

// azureBlock is the azure block's schema.
func azureBlock() schema.SingleNestedBlock {
	str := func(desc string, sensitive bool) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Sensitive: sensitive, MarkdownDescription: desc}
	}
	flag := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Optional: true, MarkdownDescription: desc}
	}
	env := func(name string) string { return " Environment: `" + name + "`." }
	return schema.SingleNestedBlock{
		MarkdownDescription: "The real hub: an Azure Kubernetes Fleet Manager fleet through Azure Resource Manager. Update strategies, " +
			"update runs, auto-upgrade profiles and member clusters through Resource Manager; placements on the fleet hub cluster's " +
			"Kubernetes API; NodePools on the member clusters' Kubernetes APIs. Authentication follows the azurerm provider: the same `ARM_*` environment variables, in the same " +
			"order of precedence (client certificate, client secret, OIDC, managed identity, Azure CLI). Every attribute can also " +
			"be set with its environment variable; the configuration wins. Secrets are never stored in state or written to logs.",
		Attributes: map[string]schema.Attribute{
			"subscription_id":             str("The fleet's subscription."+env(auth.EnvSubscriptionID), false),
			"resource_group_name":         str("The fleet's resource group."+env(auth.EnvResourceGroupName), false),
			"fleet_name":                  str("The Fleet Manager fleet."+env(auth.EnvFleetName), false),
			"tenant_id":                   str("The Microsoft Entra tenant of the service principal."+env(auth.EnvTenantID), false),
			"client_id":                   str("The client (application) id of the service principal or user-assigned managed identity."+env(auth.EnvClientID), false),
			"client_secret":               str("The service principal's client secret."+env(auth.EnvClientSecret), true),
			"client_certificate_path":     str("A PEM or PKCS#12 file with the service principal's certificate and key."+env(auth.EnvClientCertificatePath), false),
			"client_certificate_password": str("The password of the PKCS#12 file."+env(auth.EnvClientCertificatePassword), true),
			"use_oidc":                    flag("Authenticate with an OIDC token (workload identity federation, e.g. GitHub Actions)." + env(auth.EnvUseOIDC)),
			"oidc_token":                  str("The OIDC token itself."+env(auth.EnvOIDCToken), true),
			"oidc_token_file_path":        str("A file holding the OIDC token, read at every token request."+env(auth.EnvOIDCTokenFilePath), false),
			"oidc_request_url":            str("The endpoint to request an OIDC token from (GitHub Actions sets it)."+env(auth.EnvOIDCRequestURL), false),
			"oidc_request_token":          str("The bearer token for `oidc_request_url`."+env(auth.EnvOIDCRequestToken), true),
			"use_msi":                     flag("Authenticate with a managed identity." + env(auth.EnvUseMSI)),
			"msi_endpoint":                str("A managed identity endpoint other than the instance metadata service."+env(auth.EnvMSIEndpoint), false),
			"use_cli":                     flag("Authenticate with the Azure CLI's login when nothing else is configured (default `true`)." + env(auth.EnvUseCLI)),
			"environment":                 str("The Azure cloud: `public` (default), `usgovernment` or `china`."+env(auth.EnvEnvironment), false),
			"resource_manager_endpoint": str("A Resource Manager endpoint other than the cloud's (a private cloud, or the wire emulator, "+
				"`go run ./cmd/fleet-emulator`)."+env(auth.EnvResourceManagerEndpoint), false),
			"resource_manager_audience": str("The token audience for `resource_manager_endpoint` (default: the endpoint)."+env(auth.EnvResourceManagerAudience), false),
			"authority_host":            str("The Microsoft Entra host that issues tokens, for a custom endpoint."+env(auth.EnvAuthorityHost), false),
			"ca_certificate_path": str("A CA certificate (PEM) to trust besides the system's, for endpoints with a private certificate "+
				"authority."+env(EnvCACertificatePath), false),
			"upgrade_duration": str("How long one member's upgrade takes, for the rollout previews' time estimates, as a Go duration "+
				"(default `"+azure.DefaultUpgradeDuration.String()+"`)."+env(EnvAzureUpgradeDuration), false),
		},
		Blocks: map[string]schema.Block{
			"hub_cluster": schema.SingleNestedBlock{Attributes: kubeconfigAttributes("the fleet hub cluster"),
				MarkdownDescription: "How to reach the fleet hub cluster's Kubernetes API, where placements live. Default: the kubeconfig " +
					"of the fleet's `listCredentials`. Either way a `kubelogin` (Microsoft Entra ID) user gets its tokens from this block's " +
					"credential: no `kubelogin` binary is needed. Environment: `" + EnvHubKubeconfig + "`, `" + EnvHubContext + "`."},
			"member_clusters": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: memberClusterAttributes()},
				MarkdownDescription: "How to reach a member cluster's Kubernetes API, where NodePools live: one block per member. A member not " +
					"listed is reached with its managed cluster's user credentials (`listClusterUserCredential`), tokens from this block's " +
					"credential for Microsoft Entra ID clusters. A member cluster is contacted only to read or change a NodePool that exists, " +
					"never to plan a new one."},
		},
	}
}

// azureHub builds the azure hub: settings from the block and the environment,
// the credential azurerm's order selects, and a first read of the fleet, so
// that every misconfiguration is one diagnostic at plan.
func azureHub(ctx context.Context, m azureModel) (hub.Hub, diag.Diagnostics) {
	var diags diag.Diagnostics
	cfg, ok := azureConfig(m, &diags)
	if !ok {
		return nil, diags
	}
	h, err := azure.New(ctx, cfg)
	if err != nil {
		azureError(&diags, cfg.Fleet, err)
		return nil, diags
	}
	return h, diags
}

// azureLiterals checks what the block itself says, at validate time: the
// environment and credentials are Configure's (terraform validate runs
// without them, in CI lint jobs too).
func azureLiterals(m azureModel, diags *diag.Diagnostics) {
	if _, err := auth.Cloud(m.settings()); err != nil {
		azureError(diags, armfleet.FleetID{}, err)
	}
	upgradeDuration(m.UpgradeDuration, diags)
}

// upgradeDuration parses azure.upgrade_duration; "" is unset (the default).
func upgradeDuration(d string, diags *diag.Diagnostics) (time.Duration, bool) {
	if d == "" {
		return 0, false
	}
	v, err := time.ParseDuration(d)
	if err != nil || v < 0 {
		diags.AddAttributeError(path.Root("azure").AtName("upgrade_duration"), "Invalid upgrade duration",
			fmt.Sprintf("azure.upgrade_duration (or %s): %q is not a duration of zero or more such as 15m or 0s.", EnvAzureUpgradeDuration, d))
		return 0, false
	}
	return v, true
}

// azureConfig resolves the block against the environment and selects the
// credential, without contacting anyone.
func azureConfig(m azureModel, diags *diag.Diagnostics) (azure.Config, bool) {
	attr := func(name string) path.Path { return path.Root("azure").AtName(name) }
	s, err := auth.FromEnv(m.settings(), os.Getenv)
	if err != nil {
		azureError(diags, armfleet.FleetID{}, err)
		return azure.Config{}, false
	}
	for _, req := range []struct{ value, name, env string }{
		{s.ResourceGroupName, "resource_group_name", auth.EnvResourceGroupName},
		{s.FleetName, "fleet_name", auth.EnvFleetName},
	} {
		if req.value == "" {
			diags.AddAttributeError(attr(req.name), "Missing "+req.name,
				fmt.Sprintf("The azure hub needs the fleet's %s: set %s in the azure block or %s.", req.name, req.name, req.env))
		}
	}
	cfg := azure.Config{Fleet: armfleet.FleetID{SubscriptionID: s.SubscriptionID, ResourceGroup: s.ResourceGroupName, Fleet: s.FleetName}}
	cfg.UpgradeDuration, cfg.UpgradeDurationSet = upgradeDuration(orEnv(m.UpgradeDuration, EnvAzureUpgradeDuration), diags)
	transport, err := caTransport(orEnv(m.CACertificatePath, EnvCACertificatePath))
	if err != nil {
		diags.AddAttributeError(attr("ca_certificate_path"), "Invalid CA certificate", err.Error())
	}
	if diags.HasError() {
		return cfg, false
	}
	cred, desc, err := auth.Credential(s, auth.WithClientOptions(azcore.ClientOptions{Transport: transport}))
	if err != nil {
		azureError(diags, cfg.Fleet, err)
		return cfg, false
	}
	cloudCfg, err := auth.Cloud(s)
	if err != nil {
		azureError(diags, cfg.Fleet, err)
		return cfg, false
	}
	cfg.Client = armclient.Options{Credential: cred, Cloud: cloudCfg, Transport: transport,
		Retry: &policy.RetryOptions{MaxRetries: MaxRetries}}
	cfg.CredentialDescription = desc
	hubSrc := kubeconfigModel{KubeconfigPath: orEnv("", EnvHubKubeconfig), Context: orEnv("", EnvHubContext)}
	if m.HubCluster != nil {
		hubSrc = *m.HubCluster
	}
	if hubSrc != (kubeconfigModel{}) || m.HubCluster != nil {
		src := hubSrc.source()
		cfg.HubCluster = &src
	}
	checkKubeconfig := func(at path.Path, what string, src azure.KubeconfigSource) {
		if err := azure.CheckKubeconfig(src); err != nil {
			diags.AddAttributeError(at, "Invalid kubeconfig", fmt.Sprintf("The kubeconfig of %s cannot be used: %v. Check kubeconfig_path "+
				"and context (without kubeconfig_path: the files of KUBECONFIG, or else ~/.kube/config).", what, err))
		}
	}
	if cfg.HubCluster != nil {
		checkKubeconfig(attr("hub_cluster"), "the fleet hub cluster (azure.hub_cluster)", *cfg.HubCluster)
	}
	for i, k := range m.MemberClusters {
		if cfg.MemberClusters == nil {
			cfg.MemberClusters = map[string]azure.KubeconfigSource{}
		}
		at := attr("member_clusters").AtListIndex(i)
		if _, dup := cfg.MemberClusters[k.Name]; dup {
			diags.AddAttributeError(at.AtName("name"), "Duplicate member cluster", fmt.Sprintf("Member cluster %q has two "+
				"azure.member_clusters blocks: keep one.", k.Name))
			continue
		}
		cfg.MemberClusters[k.Name] = k.source()
		checkKubeconfig(at, fmt.Sprintf("member cluster %q (azure.member_clusters)", k.Name), k.source())
	}
	return cfg, !diags.HasError()
}

// caTransport is an HTTP client that also trusts the CA certificate at path
// (a nil interface, azcore's default transport, without one: never a typed
// nil client, which would panic on the first request).
func caTransport(file string) (policy.Transporter, error) {
	if file == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("azure.ca_certificate_path (or %s): cannot read %q: %v", EnvCACertificatePath, file, errors.Unwrap(err))
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("azure.ca_certificate_path (or %s): %q holds no PEM certificate", EnvCACertificatePath, file)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: t}, nil
}

// untrustedCertificate tells whether err is a TLS certificate that no
// trusted authority signed; identity libraries flatten the error to text.
func untrustedCertificate(err error) bool {
	var unknown x509.UnknownAuthorityError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &unknown) || errors.As(err, &verify) || strings.Contains(err.Error(), "x509: certificate signed by unknown authority")
}

// azureError is the one diagnostic for a failure to reach the fleet.
func azureError(diags *diag.Diagnostics, f armfleet.FleetID, err error) {
	var cfgErr *auth.ConfigError
	var authErr *armclient.AuthError
	var unreachable *armclient.UnreachableError
	var signIn *armclient.SignInError
	switch {
	case untrustedCertificate(err):
		diags.AddAttributeError(path.Root("azure").AtName("ca_certificate_path"), "Untrusted TLS certificate",
			"The TLS certificate of the Resource Manager or Microsoft Entra ID endpoint is not signed by an authority this machine "+
				"trusts: set ca_certificate_path (or "+EnvCACertificatePath+") to the PEM file of its certificate authority, or check "+
				"resource_manager_endpoint and authority_host.")
	case errors.As(err, &signIn):
		diags.AddError("Cannot sign in to Azure", signIn.Error())
	case errors.As(err, &cfgErr):
		diags.AddAttributeError(path.Root("azure").AtName(cfgErr.Setting), "Invalid azure hub configuration", cfgErr.Error())
	case errors.As(err, &authErr):
		diags.AddError("Not authorized on the fleet", authErr.Error())
	case errors.As(err, &unreachable):
		diags.AddError("Cannot reach Azure Resource Manager", unreachable.Error())
	default:
		diags.AddError("Cannot use the fleet", fmt.Sprintf("%s: %v", f, err))
	}
}
