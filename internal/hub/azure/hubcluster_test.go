package azure

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// scopeCredential records the scopes it is asked for.
type scopeCredential struct{ scopes []string }

func (s *scopeCredential) GetToken(_ context.Context, o policy.TokenRequestOptions) (azcore.AccessToken, error) {
	s.scopes = append(s.scopes, o.Scopes...)
	return azcore.AccessToken{Token: "entra-token"}, nil
}

// A hub-cluster kubeconfig that signs in through kubelogin (what an AKS
// fleet's listCredentials returns for Entra ID clusters) gets its tokens
// from the hub's credential, for the server application it names; no
// external binary runs.
func TestKubeloginReplacedByTheCredential(t *testing.T) {
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"major":"1","minor":"33"}`))
	}))
	defer srv.Close()
	kubeconfig := `apiVersion: v1
kind: Config
clusters:
- name: hub
  cluster:
    server: ` + srv.URL + `
contexts:
- name: hub
  context: {cluster: hub, user: clusterUser}
current-context: hub
users:
- name: clusterUser
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: kubelogin
      args: [get-token, --environment, AzurePublicCloud, --server-id, 6dae42f8-4368-4678-94ff-3960e28e3630, --login, devicecode]
`
	cred := &scopeCredential{}
	raw, err := clientcmd.Load([]byte(kubeconfig))
	if err != nil || raw.AuthInfos["clusterUser"].Exec == nil {
		t.Fatalf("the kubeconfig has no exec plugin: %v", err)
	}
	cfg, err := restConfig([]byte(kubeconfig), cred)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ExecProvider != nil {
		t.Fatal("the exec plugin is still configured")
	}
	// And a kubeconfig with a token keeps it (the emulator's, Fleet's own accounts).
	// (client-go sends a kubeconfig's token only to an https server)
	withToken := strings.Replace(kubeconfig[:strings.Index(kubeconfig, "    exec:")], srv.URL, "https://127.0.0.1:1", 1) + "    token: static\n"
	if tc, err := restConfig([]byte(withToken), cred); err != nil || tc.BearerToken != "static" {
		t.Errorf("a token kubeconfig: %v, token %q", err, tc.BearerToken)
	}
	client := &http.Client{}
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	client.Transport = rt
	resp, err := client.Get(srv.URL + "/version")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if auth != "Bearer entra-token" {
		t.Errorf("Authorization %q, want the credential's token", auth)
	}
	if len(cred.scopes) != 1 || cred.scopes[0] != "6dae42f8-4368-4678-94ff-3960e28e3630/.default" {
		t.Errorf("scopes %v", cred.scopes)
	}
}

// An explicit kubeconfig follows clientcmd's loading rules: without a path
// the files of KUBECONFIG, the context named or the current one, ~/ the
// home directory; a kubelogin user there is signed in with the credential
// too.
func TestExplicitKubeconfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, server, user string) string {
		p := dir + "/" + name
		body := "apiVersion: v1\nkind: Config\nclusters: [{name: " + name + ", cluster: {server: \"" + server + "\"}}]\n" +
			"users: [{name: " + name + ", user: " + user + "}]\n" +
			"contexts: [{name: " + name + ", context: {cluster: " + name + ", user: " + name + "}}]\ncurrent-context: " + name + "\n"
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a", "https://a.example:443", "{token: a-token}")
	b := write("b", "https://b.example:443", `{exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: kubelogin, args: [get-token, --server-id, 11111111-2222-3333-4444-555555555555]}}`)
	t.Setenv("KUBECONFIG", a+string(os.PathListSeparator)+b)
	cred := &scopeCredential{}
	for _, tc := range []struct {
		src       KubeconfigSource
		host, err string
	}{
		{KubeconfigSource{}, "https://a.example:443", ""},               // KUBECONFIG's first file's current context
		{KubeconfigSource{Context: "b"}, "https://b.example:443", ""},   // a context of the merged files
		{KubeconfigSource{Path: b}, "https://b.example:443", ""},        // an explicit path wins over KUBECONFIG
		{KubeconfigSource{Path: b, Context: "a"}, "", `no context "a"`}, // only that file's contexts
		{KubeconfigSource{Path: dir + "/missing"}, "", "no such file"},  // a file that is not there
	} {
		cfg, err := explicitConfig(tc.src, cred)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%+v: %v, want an error with %q", tc.src, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%+v: %v", tc.src, err)
		case tc.err == "" && cfg.Host != tc.host:
			t.Errorf("%+v: host %s, want %s", tc.src, cfg.Host, tc.host)
		case tc.err == "" && tc.host == "https://b.example:443" && cfg.ExecProvider != nil:
			t.Errorf("%+v: kubelogin left in the configuration", tc.src)
		}
	}
	home, _ := os.UserHomeDir()
	if p, _ := expandHome("~/.kube/config"); p != home+"/.kube/config" {
		t.Errorf("~/ expands to %s", p)
	}
}
