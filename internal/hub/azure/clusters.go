package azure

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armclient"
)

// KubeconfigSource is a kubeconfig given explicitly for a cluster, loaded
// with clientcmd's rules: Path, or else the KUBECONFIG environment variable's
// files, or else ~/.kube/config; Context, or else the file's current context.
type KubeconfigSource struct {
	Path    string
	Context string
}

// kubeCluster is a client of one cluster's Kubernetes API.
type kubeCluster struct {
	// what names the cluster in errors: "the fleet hub cluster" or "member cluster \"x\"".
	what string
	// member is the member's name; "" for the hub cluster.
	member string
	host   string
	dyn    dynamic.Interface
	disc   discovery.DiscoveryInterface

	once   sync.Once
	napErr error // whether it serves karpenter.sh/v1 NodePools, asked once

	// placements: the hub cluster's placements as listed for the process.
	placements placementLists
}

// clusters connects to the fleet hub cluster and the member clusters when
// first needed (never at plan for an object being created), once per
// provider process each.
type clusters struct {
	h *Hub

	mu      sync.Mutex
	hub     *kubeCluster
	members map[string]*kubeCluster
}

func (cs *clusters) hubCluster(ctx context.Context) (*kubeCluster, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.hub != nil {
		return cs.hub, nil
	}
	what := "the fleet hub cluster"
	var cfg *rest.Config
	var err error
	if src := cs.h.cfg.HubCluster; src != nil {
		cfg, err = explicitConfig(*src, cs.h.cfg.Client.Credential)
		if err != nil {
			return nil, &hub.ClusterError{Cluster: what, Problem: "its kubeconfig (azure.hub_cluster) cannot be used: " + err.Error(),
				Fix: "check azure.hub_cluster.kubeconfig_path and context, or leave hub_cluster out to use the fleet's credentials"}
		}
	} else {
		if !cs.h.inv.hubCluster {
			return nil, &hub.ClusterError{Cluster: what, Problem: "the fleet has no hub cluster (it was created without a hub profile)",
				Fix: "placements need a fleet with a hub cluster: create one with a hub profile, or use the mock hub"}
		}
		creds, lerr := cs.h.c.ListCredentials(ctx)
		if lerr == nil && len(creds.Kubeconfigs) == 0 {
			lerr = errors.New("the fleet's listCredentials returned no kubeconfig")
		}
		if lerr != nil {
			return nil, &hub.ClusterError{Cluster: what, Problem: "its credentials cannot be listed: " + lerr.Error(),
				Fix: "the identity needs Microsoft.ContainerService/fleets/listCredentials/action on the fleet (role Azure Kubernetes Fleet " +
					"Manager RBAC Reader or higher), or set azure.hub_cluster to a kubeconfig"}
		}
		cfg, err = restConfig(creds.Kubeconfigs[0].Value, cs.h.cfg.Client.Credential)
		if err != nil {
			return nil, &hub.ClusterError{Cluster: what, Problem: "the kubeconfig of the fleet's listCredentials cannot be used: " + err.Error(),
				Fix: "set azure.hub_cluster to a kubeconfig of the hub cluster"}
		}
	}
	kc, err := newKubeCluster(what, "", cfg)
	if err != nil {
		return nil, err
	}
	cs.hub = kc
	return kc, nil
}

// member is the client of a member cluster: from azure.member_clusters, or
// else from its managed cluster's user credentials.
func (cs *clusters) member(ctx context.Context, name string) (*kubeCluster, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if kc, ok := cs.members[name]; ok {
		return kc, nil
	}
	what := fmt.Sprintf("member cluster %q", name)
	var cfg *rest.Config
	if src, ok := cs.h.cfg.MemberClusters[name]; ok {
		var err error
		if cfg, err = explicitConfig(src, cs.h.cfg.Client.Credential); err != nil {
			return nil, &hub.ClusterError{Cluster: what, Problem: fmt.Sprintf("its kubeconfig (azure.member_clusters[%q]) cannot be used: %v", name, err),
				Fix: "check its kubeconfig_path and context, or leave the member out of member_clusters to use its user credentials"}
		}
	} else {
		kubeconfig, err := cs.userCredentials(ctx, name)
		if err != nil {
			return nil, err
		}
		if cfg, err = restConfig(kubeconfig, cs.h.cfg.Client.Credential); err != nil {
			return nil, &hub.ClusterError{Cluster: what, Problem: "the kubeconfig of its user credentials cannot be used: " + err.Error(),
				Fix: fmt.Sprintf("set azure.member_clusters[%q] to a kubeconfig of the cluster", name)}
		}
	}
	kc, err := newKubeCluster(what, name, cfg)
	if err != nil {
		return nil, err
	}
	if cs.members == nil {
		cs.members = map[string]*kubeCluster{}
	}
	cs.members[name] = kc
	return kc, nil
}

// userCredentials is the member's managed cluster's user kubeconfig in the
// exec format (kubelogin for Entra ID clusters, whose tokens restConfig
// takes from the hub's credential instead).
func (cs *clusters) userCredentials(ctx context.Context, member string) ([]byte, error) {
	what := fmt.Sprintf("member cluster %q", member)
	m, err := cs.h.c.GetMember(ctx, member)
	if errors.Is(err, hub.ErrNotFound) {
		return nil, fmt.Errorf("%s: %w in the fleet", what, hub.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	id, err := arm.ParseResourceID(m.Properties.ClusterResourceID)
	if err != nil {
		return nil, fmt.Errorf("member %q: clusterResourceId %q is not an ARM id: %w", member, m.Properties.ClusterResourceID, err)
	}
	f, err := cs.h.inv.factory(cs.h.cfg.Client, id.SubscriptionID)
	if err != nil {
		return nil, err
	}
	resp, err := f.NewManagedClustersClient().ListClusterUserCredentials(ctx, id.ResourceGroupName, id.Name,
		&armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions{Format: to.Ptr(armcontainerservice.FormatExec)})
	if err == nil && (len(resp.Kubeconfigs) == 0 || resp.Kubeconfigs[0] == nil) {
		err = errors.New("no kubeconfig was returned")
	}
	if err != nil {
		return nil, &hub.ClusterError{Cluster: what, Problem: "its user credentials cannot be listed: " + armclient.HubError(err, "managed cluster "+id.Name).Error(),
			Fix: fmt.Sprintf("the identity needs Microsoft.ContainerService/managedClusters/listClusterUserCredential/action on %s "+
				"(role Azure Kubernetes Service Cluster User Role), or set azure.member_clusters[%q] to a kubeconfig", id, member)}
	}
	return resp.Kubeconfigs[0].Value, nil
}

func newKubeCluster(what, member string, cfg *rest.Config) (*kubeCluster, error) {
	if wrapKubeTransport != nil {
		cfg = rest.CopyConfig(cfg)
		cfg.Wrap(wrapKubeTransport)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, &hub.ClusterError{Cluster: what, Problem: "its client cannot be configured: " + err.Error(), Fix: "check its kubeconfig"}
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, &hub.ClusterError{Cluster: what, Problem: "its client cannot be configured: " + err.Error(), Fix: "check its kubeconfig"}
	}
	// Discovery once per provider process (each Terraform command configures
	// its own): a plan's placements read the kinds the hub serves once.
	return &kubeCluster{what: what, member: member, host: cfg.Host, dyn: dyn, disc: memory.NewMemCacheClient(disc)}, nil
}

// wrapKubeTransport, when set (by benchmarks that count requests), wraps
// the transport of every Kubernetes client the hub makes.
var wrapKubeTransport func(http.RoundTripper) http.RoundTripper

// explicitConfig loads a kubeconfig given in the configuration.
func explicitConfig(src KubeconfigSource, cred azcore.TokenCredential) (*rest.Config, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if src.Path != "" {
		p, err := expandHome(src.Path)
		if err != nil {
			return nil, err
		}
		rules.ExplicitPath = p
	}
	raw, err := rules.Load()
	if err != nil {
		return nil, err
	}
	if src.Context != "" {
		if _, ok := raw.Contexts[src.Context]; !ok {
			return nil, fmt.Errorf("it has no context %q", src.Context)
		}
		raw.CurrentContext = src.Context
	}
	if raw.CurrentContext == "" {
		return nil, errors.New("it has no current context: name one with context")
	}
	return configFrom(raw, cred)
}

// expandHome expands a leading ~/ as shells do.
func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
}

// servesNodePools tells whether the member cluster serves Karpenter's
// NodePool API, which AKS installs with Node Auto Provisioning: without it
// every NodePool request would be a bare 404.
func (kc *kubeCluster) servesNodePools() error {
	kc.once.Do(func() {
		_, err := kc.disc.ServerResourcesForGroupVersion("karpenter.sh/v1")
		if errors.Is(err, memory.ErrCacheNotFound) { // the cache says the group is not served
			err = apierrors.NewNotFound(schema.GroupResource{Group: "karpenter.sh"}, "v1")
		}
		if err != nil && !apierrors.IsNotFound(err) {
			kc.napErr = kc.fail("discovering its APIs", err)
			return
		}
		if err == nil {
			return
		}
		kc.napErr = &hub.ClusterError{Cluster: kc.what,
			Problem: "Node Auto Provisioning is not enabled on it: it does not serve karpenter.sh/v1 NodePools",
			Fix:     "enable it (az aks update --node-provisioning-mode Auto, or node_provisioning_profile.mode = \"Auto\" in azurerm), or put the NodePool on a cluster that has it"}
	})
	return kc.napErr
}

// fail turns an error of a Kubernetes request into the hub's errors: a
// missing object ErrNotFound, a resourceVersion or existence precondition
// that does not hold ErrPreconditionFailed, a refused object an
// *InvalidError, and a cluster that cannot be reached or refuses the
// credential a *ClusterError that names it and what to check.
func (kc *kubeCluster) fail(what string, err error) error {
	var netErr net.Error
	var urlErr *url.Error
	switch {
	case err == nil:
		return nil
	case apierrors.IsNotFound(err):
		return fmt.Errorf("%s: %w", what, hub.ErrNotFound)
	case apierrors.IsConflict(err), apierrors.IsAlreadyExists(err):
		return fmt.Errorf("%s on %s: %w", what, kc.what, hub.ErrPreconditionFailed)
	case apierrors.IsInvalid(err), apierrors.IsBadRequest(err):
		return &hub.InvalidError{Object: what, Reason: kc.what + " refused it: " + err.Error()}
	case apierrors.IsUnauthorized(err):
		return &hub.ClusterError{Cluster: kc.what, Problem: fmt.Sprintf("%s: its API server (%s) does not accept the credential: %v", what, kc.host, err),
			Fix: "check that the credential signs in to the cluster (Microsoft Entra ID integration, or the kubeconfig's user)"}
	case apierrors.IsForbidden(err):
		return &hub.ClusterError{Cluster: kc.what, Problem: fmt.Sprintf("%s: forbidden: %v", what, err),
			Fix: "grant the identity a Kubernetes role that may do this on the cluster (Azure Kubernetes Service RBAC Writer, or a ClusterRole binding)"}
	case errors.As(err, &urlErr), errors.As(err, &netErr):
		return &hub.ClusterError{Cluster: kc.what, Problem: fmt.Sprintf("%s: its API server %s cannot be reached: %v", what, kc.host, errors.Unwrap(err)),
			Fix: "check that the cluster is running and that its API server is reachable from this machine (a private cluster needs a " +
				"network path to it; authorized IP ranges must include this machine's address)"}
	}
	return fmt.Errorf("%s on %s: %w", what, kc.what, err)
}

// configFrom is the client configuration of a loaded kubeconfig's current
// context; an exec plugin there (kubelogin, what AKS returns for Entra ID
// clusters) is replaced by tokens of cred for the server application it names.
func configFrom(raw *clientcmdapi.Config, cred azcore.TokenCredential) (*rest.Config, error) {
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
		cfg.Wrap(entraTransport(cred, scope))
	}
	cfg.UserAgent = "terraform-provider-aks"
	// kubectl's client limits (client-go's default, 5 per second, would
	// make paging through a large fleet's MemberClusters crawl).
	cfg.QPS, cfg.Burst = 50, 300
	return cfg, nil
}

// CheckKubeconfig loads a kubeconfig given in the configuration, without
// contacting its cluster, so that a wrong path or context fails at plan.
func CheckKubeconfig(src KubeconfigSource) error {
	_, err := explicitConfig(src, nil)
	return err
}
