package azure

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/kubeconv"
)

// AKSServerScope is the token scope of AKS clusters with Microsoft Entra ID
// integration (the AKS server application, as kubelogin requests it).
const AKSServerScope = "6dae42f8-4368-4678-94ff-3960e28e3630/.default"

// memberClusterPage is how many MemberClusters one LIST returns.
const memberClusterPage = 500

// hubClusterFacts reads the fleet hub cluster's MemberCluster objects: the
// facts Resource Manager does not carry (agent status and heartbeats,
// taints, properties, resource usage), by member name. The hub cluster's
// kubeconfig comes from the fleet's listCredentials; a kubeconfig that signs
// in through kubelogin (Entra ID) gets its tokens from the hub's own
// credential instead, so no external binary runs. A hubless fleet has no
// hub cluster: no facts.
func (inv *inventory) hubClusterFacts(ctx context.Context, cred azcore.TokenCredential) (map[string]kubeconv.Facts, error) {
	if !inv.hubCluster {
		return nil, nil
	}
	creds, err := inv.c.ListCredentials(ctx)
	if err != nil {
		return nil, err
	}
	if len(creds.Kubeconfigs) == 0 {
		return nil, fmt.Errorf("the fleet's listCredentials returned no kubeconfig for its hub cluster")
	}
	cfg, err := restConfig(creds.Kubeconfigs[0].Value, cred)
	if err != nil {
		return nil, fmt.Errorf("the fleet hub cluster's kubeconfig: %w", err)
	}
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("the fleet hub cluster's kubeconfig: %w", err)
	}
	out := map[string]kubeconv.Facts{}
	opts := metav1.ListOptions{Limit: memberClusterPage}
	for {
		list, err := client.Resource(kubeconv.MemberClusterGVR).List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("listing the MemberClusters of the fleet hub cluster %s: %w", cfg.Host, err)
		}
		for i := range list.Items {
			facts, err := kubeconv.FactsFrom(&list.Items[i])
			if err != nil {
				return nil, err
			}
			out[list.Items[i].GetName()] = facts
		}
		if opts.Continue = list.GetContinue(); opts.Continue == "" {
			return out, nil
		}
	}
}

// restConfig is the client configuration of a kubeconfig; an exec plugin
// (kubelogin, what AKS returns for Entra ID clusters) is replaced by tokens
// of cred for the server application it names.
func restConfig(kubeconfig []byte, cred azcore.TokenCredential) (*rest.Config, error) {
	raw, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return nil, err
	}
	scope := ""
	if ctx, ok := raw.Contexts[raw.CurrentContext]; ok {
		if user, ok := raw.AuthInfos[ctx.AuthInfo]; ok && user.Exec != nil {
			scope = AKSServerScope
			if id := flagValue(user.Exec.Args, "--server-id"); id != "" {
				scope = id + "/.default" // kubelogin's server application, as the kubeconfig names it
			}
			user.Exec = nil
		}
	}
	cfg, err := clientcmd.NewDefaultClientConfig(*raw, nil).ClientConfig()
	if err != nil {
		return nil, err
	}
	if scope != "" {
		cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &entraToken{next: rt, cred: cred, scope: scope} })
	}
	cfg.UserAgent = "terraform-provider-aks"
	// kubectl's client limits (client-go's default, 5 per second, would
	// make paging through a large fleet's MemberClusters crawl).
	cfg.QPS, cfg.Burst = 50, 300
	return cfg, nil
}

// entraToken signs each request with a token for the AKS server application.
type entraToken struct {
	next  http.RoundTripper
	cred  azcore.TokenCredential
	scope string
}

// flagValue is the value of flag in args ("--flag value" or "--flag=value").
func flagValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
	}
	return ""
}

func (e *entraToken) RoundTrip(r *http.Request) (*http.Response, error) {
	tok, err := e.cred.GetToken(r.Context(), policy.TokenRequestOptions{Scopes: []string{e.scope}})
	if err != nil {
		return nil, err
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+tok.Token)
	return e.next.RoundTrip(r)
}
