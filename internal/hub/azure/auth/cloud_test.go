package auth

import (
	"errors"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
)

func TestCloud(t *testing.T) {
	const (
		publicLogin = "https://login.microsoftonline.com/"
		publicARM   = "https://management.azure.com"
		publicAud   = "https://management.core.windows.net/"
	)
	for _, tc := range []struct {
		name                          string
		s                             Settings
		authority, endpoint, audience string
	}{
		{"default", Settings{}, publicLogin, publicARM, publicAud},
		{"public", Settings{Environment: "public"}, publicLogin, publicARM, publicAud},
		{"case", Settings{Environment: " Public "}, publicLogin, publicARM, publicAud},
		{"usgovernment", Settings{Environment: "usgovernment"},
			"https://login.microsoftonline.us/", "https://management.usgovcloudapi.net", "https://management.core.usgovcloudapi.net/"},
		{"china", Settings{Environment: "china"},
			"https://login.chinacloudapi.cn/", "https://management.chinacloudapi.cn", "https://management.core.chinacloudapi.cn/"},
		{"custom endpoint", Settings{ResourceManagerEndpoint: "https://arm.example.com"},
			publicLogin, "https://arm.example.com", "https://arm.example.com"},
		{"custom endpoint overrides the environment", Settings{Environment: "usgovernment", ResourceManagerEndpoint: "https://arm.example.com"},
			"https://login.microsoftonline.us/", "https://arm.example.com", "https://arm.example.com"},
		{"custom audience", Settings{ResourceManagerEndpoint: "http://localhost:8443", ResourceManagerAudience: "api://arm"},
			publicLogin, "http://localhost:8443", "api://arm"},
		{"custom authority", Settings{ResourceManagerEndpoint: "https://arm.example.com", AuthorityHost: "https://login.example.com/"},
			"https://login.example.com/", "https://arm.example.com", "https://arm.example.com"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Cloud(tc.s)
			if err != nil {
				t.Fatal(err)
			}
			rm := c.Services[cloud.ResourceManager]
			if c.ActiveDirectoryAuthorityHost != tc.authority || rm.Endpoint != tc.endpoint || rm.Audience != tc.audience {
				t.Errorf("authority %q, endpoint %q, audience %q; want %q, %q, %q",
					c.ActiveDirectoryAuthorityHost, rm.Endpoint, rm.Audience, tc.authority, tc.endpoint, tc.audience)
			}
		})
	}
	if got := cloud.AzurePublic.Services[cloud.ResourceManager].Endpoint; got != publicARM {
		t.Errorf("cloud.AzurePublic was changed: its endpoint is %q", got)
	}
}

func TestCloudErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		s         Settings
		attr, env string
		mentions  []string
	}{
		{"unknown environment", Settings{Environment: "mars"}, "environment", "ARM_ENVIRONMENT",
			[]string{`"mars"`, "public, usgovernment or china", "ARM_ENVIRONMENT"}},
		{"relative endpoint", Settings{ResourceManagerEndpoint: "management.example.com"}, "resource_manager_endpoint", "AKS_ARM_ENDPOINT",
			[]string{"absolute URL", "AKS_ARM_ENDPOINT"}},
		{"http authority", Settings{AuthorityHost: "http://login.example.com"}, "authority_host", "AKS_ARM_AUTHORITY_HOST",
			[]string{"https://", "AKS_ARM_AUTHORITY_HOST"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Cloud(tc.s)
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Setting != tc.attr || ce.Env != tc.env {
				t.Fatalf("error %#v, want a *ConfigError on %s / %s", err, tc.attr, tc.env)
			}
			for _, m := range tc.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %s", err, m)
				}
			}
		})
	}
}
