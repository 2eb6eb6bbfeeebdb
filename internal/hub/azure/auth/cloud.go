package auth

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	// arm/runtime's init fills in the Resource Manager endpoints and
	// audiences of cloud.AzurePublic, AzureGovernment and AzureChina.
	_ "github.com/Azure/azure-sdk-for-go/sdk/azcore/arm/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
)

// Cloud is the cloud the settings name: the environment's (public when
// unset), with the Resource Manager endpoint, its audience and the authority
// host replaced by those set. A custom endpoint's audience defaults to the
// endpoint. The result shares no map with the azcore cloud variables.
func Cloud(s Settings) (cloud.Configuration, error) {
	var base cloud.Configuration
	switch strings.ToLower(strings.TrimSpace(s.Environment)) {
	case "", "public", "global":
		base = cloud.AzurePublic
	case "usgovernment", "usgovernmentl4":
		base = cloud.AzureGovernment
	case "china":
		base = cloud.AzureChina
	default:
		return cloud.Configuration{}, environment.err(fmt.Sprintf("unknown environment %q: set %s to public, usgovernment or china, "+
			"or set %s for another cloud", s.Environment, environment.where(), resourceManagerEndpoint.where()), nil)
	}
	c := cloud.Configuration{ActiveDirectoryAuthorityHost: base.ActiveDirectoryAuthorityHost, Services: maps.Clone(base.Services)}
	if s.AuthorityHost != "" {
		if _, err := parseURL(authorityHost, s.AuthorityHost, "https"); err != nil {
			return cloud.Configuration{}, err
		}
		c.ActiveDirectoryAuthorityHost = s.AuthorityHost
	}
	rm := c.Services[cloud.ResourceManager]
	if s.ResourceManagerEndpoint != "" {
		if _, err := parseURL(resourceManagerEndpoint, s.ResourceManagerEndpoint, "https", "http"); err != nil {
			return cloud.Configuration{}, err
		}
		rm = cloud.ServiceConfiguration{Endpoint: s.ResourceManagerEndpoint, Audience: s.ResourceManagerEndpoint}
	}
	if s.ResourceManagerAudience != "" {
		rm.Audience = s.ResourceManagerAudience
	}
	c.Services[cloud.ResourceManager] = rm
	return c, nil
}

// parseURL parses the value of an endpoint setting, which must be an absolute
// URL with one of the schemes.
func parseURL(s setting, value string, schemes ...string) (*url.URL, error) {
	if u, err := url.Parse(value); err == nil && u.Host != "" && slices.Contains(schemes, u.Scheme) {
		return u, nil
	}
	return nil, s.err(fmt.Sprintf("%s must be an absolute URL starting with %s://, not %q: fix %s",
		s.attr, strings.Join(schemes, ":// or "), value, s.where()), nil)
}
