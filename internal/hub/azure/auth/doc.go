// Package auth turns the provider's azure block and the environment into the
// credential and the cloud the azure hub talks to Resource Manager with, the
// way the azurerm provider does: azurerm users' ARM_* variables work unchanged
// and secrets never reach a log (designs/hub.md §3).
//
// # Settings
//
// Every setting is an attribute of the azure block and an environment
// variable. [FromEnv] fills what the block leaves unset from the environment,
// so a value in the block always wins, an explicit use_cli = false included.
//
//	attribute                    environment variable
//	subscription_id              ARM_SUBSCRIPTION_ID
//	tenant_id                    ARM_TENANT_ID
//	client_id                    ARM_CLIENT_ID
//	client_secret                ARM_CLIENT_SECRET
//	client_certificate_path      ARM_CLIENT_CERTIFICATE_PATH      (PEM or PKCS#12)
//	client_certificate_password  ARM_CLIENT_CERTIFICATE_PASSWORD
//	use_oidc                     ARM_USE_OIDC                     (default false)
//	oidc_token                   ARM_OIDC_TOKEN
//	oidc_token_file_path         ARM_OIDC_TOKEN_FILE_PATH
//	oidc_request_url             ARM_OIDC_REQUEST_URL, then ACTIONS_ID_TOKEN_REQUEST_URL
//	oidc_request_token           ARM_OIDC_REQUEST_TOKEN, then ACTIONS_ID_TOKEN_REQUEST_TOKEN
//	use_msi                      ARM_USE_MSI                      (default false)
//	msi_endpoint                 ARM_MSI_ENDPOINT
//	use_cli                      ARM_USE_CLI                      (default true)
//	environment                  ARM_ENVIRONMENT                  (public, usgovernment or china; default public)
//	resource_manager_endpoint    AKS_ARM_ENDPOINT                 (overrides the environment's)
//	resource_manager_audience    AKS_ARM_AUDIENCE                 (default: the endpoint)
//	authority_host               AKS_ARM_AUTHORITY_HOST           (default: the environment's)
//	resource_group_name          AKS_FLEET_RESOURCE_GROUP         (carried, not used here)
//	fleet_name                   AKS_FLEET_NAME                   (carried, not used here)
//
// Booleans are read with [strconv.ParseBool] (true, false, 1, 0, …).
//
// # Which credential
//
// [Credential] takes the first method whose settings are present, in
// azurerm's order:
//
//  1. client certificate: client_certificate_path;
//  2. client secret: client_secret;
//  3. OIDC, when use_oidc is true: the token in oidc_token_file_path (read
//     again on every token request) or oidc_token, else the token GitHub
//     Actions hands out at oidc_request_url with oidc_request_token;
//  4. managed identity, when use_msi is true (client_id picks a
//     user-assigned identity);
//  5. the Azure CLI, when use_cli is true, which it is unless turned off.
//
// The order is hashicorp/go-azure-sdk's sdk/auth/auth.go,
// NewAuthorizerFromCredentials ("Client certificate, Client secret, OIDC,
// GitHub OIDC, MSI, Azure CLI"), with the toggles azurerm passes it in
// internal/provider/provider.go, providerConfigure: certificate and secret
// always enabled, OIDC and GitHub OIDC by use_oidc, MSI by use_msi, the CLI
// by use_cli; azurerm reads oidc_token_file_path into the OIDC token (getOidcToken), so
// the file and the token are the same step.
//
// One difference: where azurerm skips a method whose settings are incomplete
// (a client secret without tenant_id, use_oidc without a token) and falls
// through to the next, Credential stops with a [*ConfigError] naming what to
// set, so a half-configured service principal never silently becomes the
// developer's Azure CLI login.
//
// Every credential but the CLI's is given the cloud of [Cloud], so sovereign
// clouds authenticate against their own authority; the Azure CLI uses the
// cloud it is logged in to (az cloud set).
package auth
