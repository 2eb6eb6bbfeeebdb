package azure

import (
	"context"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// AKSServerScope is the token scope of AKS clusters with Microsoft Entra ID
// integration (the AKS server application, as kubelogin requests it).
const AKSServerScope = "6dae42f8-4368-4678-94ff-3960e28e3630/.default"

// memberClusterPage is how many MemberClusters one LIST returns.
const memberClusterPage = 500

// hubClusterFacts reads the fleet hub cluster's MemberCluster objects: the
// facts Resource Manager does not carry (agent status and heartbeats,
// taints, properties, resource usage), by member name. The hub cluster's
// kubeconfig comes from the fleet's listCredentials, or is given (azure.hub_cluster).
// A hubless fleet has no hub cluster: no facts.
func (inv *inventory) hubClusterFacts(ctx context.Context) (map[string]kube.MemberFacts, error) {
	if inv.hubClient == nil {
		return nil, nil
	}
	kc, err := inv.hubClient(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]kube.MemberFacts{}
	opts := metav1.ListOptions{Limit: memberClusterPage}
	for {
		list, err := kc.dyn.Resource(kube.MemberClusterGVR).List(ctx, opts)
		if err != nil {
			return nil, kc.fail("listing the MemberClusters", err)
		}
		for i := range list.Items {
			facts, err := kube.MemberFactsFrom(&list.Items[i])
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

// restConfig is the client configuration of a kubeconfig's current context
// (configFrom: a kubelogin exec plugin is replaced by tokens of cred).
func restConfig(kubeconfig []byte, cred azcore.TokenCredential) (*rest.Config, error) {
	raw, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return nil, err
	}
	return configFrom(raw, cred)
}

// entraTransport signs each request with a token of cred for scope.
func entraTransport(cred azcore.TokenCredential, scope string) func(http.RoundTripper) http.RoundTripper {
	return func(rt http.RoundTripper) http.RoundTripper { return &entraToken{next: rt, cred: cred, scope: scope} }
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
