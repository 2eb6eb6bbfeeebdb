package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// gitHubAudience is the audience Entra ID expects of a federated token, the
// one go-azure-sdk's GitHub OIDC authorizer asks GitHub for.
const gitHubAudience = "api://AzureADTokenExchange"

// gitHubAssertion requests an ID token from GitHub Actions on every call:
// GET the request URL (with audience=api://AzureADTokenExchange unless it
// names one) with the request token as bearer; the answer is {"value": token}.
// Its errors never hold the request token.
func gitHubAssertion(requestURL *url.URL, requestToken string, t policy.Transporter) func(context.Context) (string, error) {
	if t == nil {
		t = http.DefaultClient
	}
	u := *requestURL
	if q := u.Query(); q.Get("audience") == "" {
		q.Set("audience", gitHubAudience)
		u.RawQuery = q.Encode()
	}
	return func(ctx context.Context) (string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), http.NoBody)
		if err != nil {
			return "", fmt.Errorf("cannot request an ID token from GitHub Actions: %w", err)
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Authorization", "Bearer "+requestToken)
		resp, err := t.Do(req)
		if err != nil {
			return "", fmt.Errorf("cannot request an ID token from GitHub Actions: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("GitHub Actions refused the ID token request: %s", resp.Status)
		}
		var body struct {
			Value string `json:"value"`
		}
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&body); err != nil || body.Value == "" {
			return "", errors.New("GitHub Actions answered the ID token request without a token")
		}
		return body.Value, nil
	}
}
