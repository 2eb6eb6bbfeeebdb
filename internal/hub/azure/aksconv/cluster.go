package aksconv

import (
	"errors"
	"fmt"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// ManagedCluster is the managed cluster ARM returns for c: its id, name,
// location and type; the control plane at c.KubernetesVersion (requested and
// current alike: a settled cluster); one agent pool per node pool, in order,
// running c.KubernetesVersion on the pool's node image, Linux on scale sets.
// The first pool is the System pool (AKS requires one), the others are User
// pools; the fleet model does not record pool modes, so ClusterFacts ignores
// them.
func ManagedCluster(c *fleet.Cluster) armcontainerservice.ManagedCluster {
	pools := make([]*armcontainerservice.ManagedClusterAgentPoolProfile, 0, len(c.NodePools))
	for i, np := range c.NodePools {
		mode := armcontainerservice.AgentPoolModeUser
		if i == 0 {
			mode = armcontainerservice.AgentPoolModeSystem
		}
		pools = append(pools, &armcontainerservice.ManagedClusterAgentPoolProfile{
			Name:                       to.Ptr(np.Name),
			VMSize:                     to.Ptr(np.VMSize),
			Count:                      to.Ptr(int32(np.NodeCount)),
			NodeImageVersion:           to.Ptr(NodeImageVersion(np.NodeImageFamily, np.NodeImageVersion)),
			OrchestratorVersion:        to.Ptr(c.KubernetesVersion),
			CurrentOrchestratorVersion: to.Ptr(c.KubernetesVersion),
			Mode:                       to.Ptr(mode),
			OSType:                     to.Ptr(armcontainerservice.OSTypeLinux),
			Type:                       to.Ptr(armcontainerservice.AgentPoolTypeVirtualMachineScaleSets),
			ProvisioningState:          to.Ptr(ProvisioningSucceeded),
		})
	}
	return armcontainerservice.ManagedCluster{
		ID:       to.Ptr(c.ResourceID),
		Name:     to.Ptr(c.Name),
		Location: to.Ptr(c.Region),
		Type:     to.Ptr(ManagedClusterType),
		Properties: &armcontainerservice.ManagedClusterProperties{
			KubernetesVersion:        to.Ptr(c.KubernetesVersion),
			CurrentKubernetesVersion: to.Ptr(c.KubernetesVersion),
			AgentPoolProfiles:        pools,
			ProvisioningState:        to.Ptr(ProvisioningSucceeded),
		},
	}
}

// Facts are the fleet facts of a member cluster that ARM carries: what
// ClusterFacts reads from its managed cluster and maintenance configuration.
// (The type cannot share the function's name in Go.)
type Facts struct {
	Region            string
	ResourceGroup     string
	SubscriptionID    string
	KubernetesVersion string
	NodePools         []fleet.NodePool
	// MaintenanceWindow is nil when the cluster has no auto-upgrade schedule.
	MaintenanceWindow *fleet.MaintenanceWindow
}

// managedClusterChain is the resource-type ancestry of a managed cluster id.
var managedClusterChain = []arm.ResourceType{
	arm.TenantResourceType,
	arm.SubscriptionResourceType,
	arm.ResourceGroupResourceType,
	arm.NewResourceType("Microsoft.ContainerService", "managedClusters"),
}

// ClusterFacts reads a member cluster's facts from its managed cluster mc and
// its aksManagedAutoUpgradeSchedule maintenance configuration mw (nil when the
// cluster has none: ARM answers 404). The subscription and resource group
// come from mc's id, the region from its location (as ARM writes it), the
// Kubernetes version from currentKubernetesVersion (what runs), else
// kubernetesVersion; node pools keep ARM's order. Anything the fleet model
// needs and mc or mw lacks or garbles is an error that says what and where.
func ClusterFacts(mc armcontainerservice.ManagedCluster, mw *armcontainerservice.MaintenanceConfiguration) (Facts, error) {
	name := deref(mc.Name)
	if name == "" {
		name = deref(mc.ID)
	}
	fail := func(err error) (Facts, error) {
		if name == "" {
			return Facts{}, fmt.Errorf("a managed cluster without name or id: %w", err)
		}
		return Facts{}, fmt.Errorf("managed cluster %q: %w", name, err)
	}
	var f Facts
	if mc.ID == nil || *mc.ID == "" {
		return fail(errors.New("ARM returned it without an id, so its subscription and resource group are unknown"))
	}
	id, err := arm.ParseResourceID(*mc.ID)
	if err == nil {
		err = id.ValidateResourceTypeChain(managedClusterChain)
	}
	if err != nil {
		return fail(fmt.Errorf("id %q is not a managed cluster id (/subscriptions/…/resourceGroups/…/providers/Microsoft.ContainerService/managedClusters/…): %w", *mc.ID, err))
	}
	f.SubscriptionID, f.ResourceGroup = id.SubscriptionID, id.ResourceGroupName
	if f.Region = deref(mc.Location); f.Region == "" {
		return fail(errors.New("ARM returned it without a location"))
	}
	p := mc.Properties
	if p == nil {
		return fail(errors.New("ARM returned it without properties, so its versions and node pools are unknown"))
	}
	if f.KubernetesVersion = deref(p.CurrentKubernetesVersion); f.KubernetesVersion == "" {
		f.KubernetesVersion = deref(p.KubernetesVersion)
	}
	// Neither version set leaves it unknown (""), as an inventory may.
	for i, ap := range p.AgentPoolProfiles {
		if ap == nil {
			continue
		}
		np, err := nodePool(ap)
		if err != nil {
			return fail(fmt.Errorf("agentPoolProfiles[%d]: %w", i, err))
		}
		f.NodePools = append(f.NodePools, np)
	}
	if mw != nil {
		w, err := WindowFromARM(mw)
		if err != nil {
			return fail(err)
		}
		f.MaintenanceWindow = w
	}
	return f, nil
}

// nodePool reads one agent pool.
func nodePool(ap *armcontainerservice.ManagedClusterAgentPoolProfile) (fleet.NodePool, error) {
	np := fleet.NodePool{Name: deref(ap.Name), VMSize: deref(ap.VMSize), NodeCount: int(deref(ap.Count))}
	if np.Name == "" {
		return np, errors.New("the agent pool has no name")
	}
	if ap.NodeImageVersion == nil || *ap.NodeImageVersion == "" {
		return np, fmt.Errorf("agent pool %q has no nodeImageVersion, so its node image is unknown", np.Name)
	}
	fam, ver, err := ParseNodeImageVersion(*ap.NodeImageVersion)
	if err != nil {
		return np, fmt.Errorf("agent pool %q: %w", np.Name, err)
	}
	np.NodeImageFamily, np.NodeImageVersion = fam, ver
	return np, nil
}
