package azure

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/sync/errgroup"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/aksconv"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armclient"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// MaintenanceConfigName is the AKS maintenance configuration that schedules
// cluster auto-upgrades, the window Fleet's update runs wait for.
const MaintenanceConfigName = "aksManagedAutoUpgradeSchedule"

// inventory reads the fleet model from Resource Manager: the members
// (paged), their managed clusters (listed per resource group, paged), their
// maintenance configurations (one request per member), each region's
// Kubernetes catalog and each (region, image family)'s newest node image.
// Requests run at most limit at a time.
type inventory struct {
	c     *armclient.Client
	limit int
	// hubCluster: the fleet has a hub cluster (hubProfile), whose
	// MemberCluster objects hold the facts ARM does not.
	hubCluster bool
	// hubClient connects to the hub cluster; nil when there is none.
	hubClient func(context.Context) (*kubeCluster, error)

	mu        sync.Mutex
	factories map[string]*armcontainerservice.ClientFactory // per subscription
}

func newInventory(c *armclient.Client, limit int, hubCluster bool) *inventory {
	return &inventory{c: c, limit: limit, hubCluster: hubCluster, factories: map[string]*armcontainerservice.ClientFactory{}}
}

func (inv *inventory) factory(cred armclient.Options, sub string) (*armcontainerservice.ClientFactory, error) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	if f, ok := inv.factories[sub]; ok {
		return f, nil
	}
	f, err := armcontainerservice.NewClientFactory(sub, cred.Credential, inv.c.ClientOptions())
	if err != nil {
		return nil, err
	}
	inv.factories[sub] = f
	return f, nil
}

type memberRef struct {
	m  armfleet.Member
	id *arm.ResourceID
}

func (inv *inventory) read(ctx context.Context, opts armclient.Options) (*fleet.Fleet, error) {
	members, err := inv.c.ListMembers(ctx)
	if err != nil {
		return nil, err
	}
	refs := make([]memberRef, 0, len(members))
	groups := map[string]*arm.ResourceID{} // subscription/resource group → a cluster id in it
	for _, m := range members {
		id, err := arm.ParseResourceID(m.Properties.ClusterResourceID)
		if err != nil {
			return nil, fmt.Errorf("member %q: clusterResourceId %q is not an ARM id: %w", m.Name, m.Properties.ClusterResourceID, err)
		}
		refs = append(refs, memberRef{m, id})
		groups[strings.ToLower(id.SubscriptionID+"/"+id.ResourceGroupName)] = id
	}

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(inv.limit)
	var mu sync.Mutex
	clusters := map[string]armcontainerservice.ManagedCluster{} // lower-case id → cluster
	for _, id := range groups {
		g.Go(func() error {
			f, err := inv.factory(opts, id.SubscriptionID)
			if err != nil {
				return err
			}
			pager := f.NewManagedClustersClient().NewListByResourceGroupPager(id.ResourceGroupName, nil)
			for pager.More() {
				page, err := pager.NextPage(gctx)
				if err != nil {
					return armclient.HubError(err, "managed clusters of resource group "+id.ResourceGroupName)
				}
				mu.Lock()
				for _, mc := range page.Value {
					if mc != nil && mc.ID != nil {
						clusters[strings.ToLower(*mc.ID)] = *mc
					}
				}
				mu.Unlock()
			}
			return nil
		})
	}
	var hubFacts map[string]kube.MemberFacts
	g.Go(func() error {
		// The hub cluster holds facts no ARM operation has, for placements
		// and the member list; update runs and profiles need none of them.
		// A hub cluster that cannot be read (no Kubernetes role on it, a
		// private API server) leaves them unknown, as for a hubless fleet,
		// and says why in the log rather than failing every plan.
		facts, err := inv.hubClusterFacts(gctx)
		if err != nil && gctx.Err() == nil {
			tflog.Warn(ctx, "the fleet hub cluster's MemberClusters could not be read: member agent status, taints, properties "+
				"and resource usage are unknown", map[string]any{"error": err.Error()})
			return nil
		}
		hubFacts = facts
		return err
	})
	windows := make([]*armcontainerservice.MaintenanceConfiguration, len(refs))
	for i, r := range refs {
		g.Go(func() error {
			f, err := inv.factory(opts, r.id.SubscriptionID)
			if err != nil {
				return err
			}
			resp, err := f.NewMaintenanceConfigurationsClient().Get(gctx, r.id.ResourceGroupName, r.id.Name, MaintenanceConfigName, nil)
			err = armclient.HubError(err, "maintenance configuration of "+r.id.Name)
			switch {
			case errors.Is(err, hub.ErrNotFound):
			case err != nil:
				return err
			default:
				windows[i] = &resp.MaintenanceConfiguration
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}

	out := &fleet.Fleet{}
	type family struct{ region, family string }
	pools := map[family]struct {
		id   *arm.ResourceID
		pool string
	}{}
	regions := map[string]bool{}
	for i, r := range refs {
		mc, ok := clusters[strings.ToLower(r.id.String())]
		if !ok {
			return nil, fmt.Errorf("member %q: its managed cluster %s was not found (deleted, or no read access to its resource group)", r.m.Name, r.id)
		}
		facts, err := aksconv.ClusterFacts(mc, windows[i])
		if err != nil {
			return nil, fmt.Errorf("member %q: %w", r.m.Name, err)
		}
		c := fleet.Cluster{Name: r.m.Name, Region: facts.Region, ResourceGroup: facts.ResourceGroup, SubscriptionID: facts.SubscriptionID,
			ResourceID: r.m.Properties.ClusterResourceID, Group: r.m.Properties.Group, KubernetesVersion: facts.KubernetesVersion,
			NodePools: facts.NodePools, MaintenanceWindow: facts.MaintenanceWindow,
			Agent: fleet.AgentStatus{Leaving: r.m.Properties.ProvisioningState == "Leaving"}}
		c.Labels = fleet.AutomaticLabels(&c)
		c.Labels[fleet.LabelMemberName] = r.m.Name
		c.Labels[fleet.LabelClusterName] = r.id.Name
		if hf, ok := hubFacts[r.m.Name]; ok { // the hub cluster's view: agent, taints, properties, usage
			for k, v := range hf.Labels {
				c.Labels[k] = v
			}
			c.Taints, c.Agent, c.Properties, c.Usage = hf.Taints, hf.Agent, hf.Properties, hf.Usage
			c.Agent.Leaving = c.Agent.Leaving || r.m.Properties.ProvisioningState == "Leaving"
		}
		for k, v := range r.m.Properties.Labels { // ARM's labels are the member's own
			c.Labels[k] = v
		}
		regions[c.Region] = true
		for _, p := range c.NodePools {
			k := family{c.Region, p.NodeImageFamily}
			if _, ok := pools[k]; !ok && p.NodeImageFamily != "" {
				pools[k] = struct {
					id   *arm.ResourceID
					pool string
				}{r.id, p.Name}
			}
		}
		out.Clusters = append(out.Clusters, c)
	}

	catalogs := map[string]*fleet.Region{}
	for name := range regions {
		catalogs[name] = &fleet.Region{Name: name}
	}
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(inv.limit)
	for name, reg := range catalogs {
		g.Go(func() error {
			f, err := inv.factory(opts, inv.c.Fleet().SubscriptionID)
			if err != nil {
				return err
			}
			resp, err := f.NewManagedClustersClient().ListKubernetesVersions(gctx, name, nil)
			if err != nil {
				return armclient.HubError(err, "Kubernetes versions of region "+name)
			}
			rel := aksconv.Releases(resp.KubernetesVersionListResult)
			mu.Lock()
			reg.KubernetesVersions = rel
			mu.Unlock()
			return nil
		})
	}
	for k, p := range pools {
		g.Go(func() error {
			f, err := inv.factory(opts, p.id.SubscriptionID)
			if err != nil {
				return err
			}
			resp, err := f.NewAgentPoolsClient().GetUpgradeProfile(gctx, p.id.ResourceGroupName, p.id.Name, p.pool, nil)
			if err != nil {
				return armclient.HubError(err, "upgrade profile of node pool "+p.pool+" of "+p.id.Name)
			}
			if img, ok := aksconv.LatestNodeImage(resp.AgentPoolUpgradeProfile); ok {
				mu.Lock()
				catalogs[k.region].NodeImages = append(catalogs[k.region].NodeImages, img)
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for _, reg := range catalogs {
		sort.Slice(reg.NodeImages, func(i, j int) bool { return reg.NodeImages[i].Family < reg.NodeImages[j].Family })
		out.Regions = append(out.Regions, *reg)
	}
	out.Sort()
	out.Share()
	return out, nil
}
