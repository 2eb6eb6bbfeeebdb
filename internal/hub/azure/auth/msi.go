package auth

import (
	"net/http"
	"net/url"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// imdsRedirect sends the managed identity credential's requests for the IMDS
// token endpoint to msi_endpoint instead, with the same query and headers:
// what go-azure-sdk's CustomManagedIdentityEndpoint does.
type imdsRedirect struct{ to *url.URL }

func (r imdsRedirect) Do(req *policy.Request) (*http.Response, error) {
	raw := req.Raw()
	if u := raw.URL; u.Host == "169.254.169.254" && u.Path == "/metadata/identity/oauth2/token" {
		u.Scheme, u.Host, u.Path, u.RawPath = r.to.Scheme, r.to.Host, r.to.Path, r.to.RawPath
		raw.Host = r.to.Host
	}
	return req.Next()
}
