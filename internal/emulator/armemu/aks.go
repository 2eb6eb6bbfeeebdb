package armemu

import (
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/aksconv"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// The AKS side (api-version 2025-02-01): the fleet's clusters as managed
// clusters, their auto-upgrade maintenance windows and agent pool upgrade
// profiles, and the regions' Kubernetes version lists, in the shapes of
// package aksconv, marshalled as the SDK models marshal themselves.

// typeManagedCluster names managed clusters in errors.
const typeManagedCluster = "Microsoft.ContainerService/managedClusters"

// aksRoutes are the routes of the AKS side.
func (s *Server) aksRoutes() []route {
	return []route{
		newRoute(http.MethodGet, clustersPath, aksVersions, s.listClusters),
		newRoute(http.MethodGet, clustersPath+"/{name}", aksVersions, s.getCluster),
		newRoute(http.MethodGet, clustersPath+"/{name}/maintenanceConfigurations/{config}", aksVersions, s.getMaintenanceConfiguration),
		newRoute(http.MethodGet, clustersPath+"/{name}/agentPools/{pool}/upgradeProfiles/"+aksconv.UpgradeProfileName, aksVersions, s.getAgentPoolUpgradeProfile),
		newRoute(http.MethodGet, locationPath+"/kubernetesVersions", aksVersions, s.kubernetesVersions),
		newRoute(http.MethodPost, clustersPath+"/{name}/listClusterUserCredential", aksVersions, s.listClusterUserCredential),
	}
}

// listClusterUserCredential serves POST
// …/managedClusters/{name}/listClusterUserCredential: the kubeconfig of the
// member cluster's API server, from Options.Kubeconfig. An emulator without
// member API servers refuses, as AKS refuses a cluster that is stopped.
func (s *Server) listClusterUserCredential(c *call) {
	_, cl := c.cluster()
	if cl == nil {
		return
	}
	if s.opts.Kubeconfig == nil {
		c.fail(http.StatusBadRequest, "OperationNotAllowed", "The emulator serves no Kubernetes API for managed cluster '"+cl.Name+"'.", "")
		return
	}
	kubeconfig, err := s.opts.Kubeconfig(c.r.Context(), cl.Name)
	if err != nil {
		c.fail(http.StatusInternalServerError, "InternalServerError", "The member cluster's API server is not available: "+err.Error(), "")
		return
	}
	name := "clusterUser"
	c.reply(http.StatusOK, armcontainerservice.CredentialResults{Kubeconfigs: []*armcontainerservice.CredentialResult{
		{Name: &name, Value: kubeconfig}}}, "")
}

// cluster is the fleet and the cluster the path names (ARM ids compare
// case-insensitively); nil (and the 404 answered) when there is none.
func (c *call) cluster() (*fleet.Fleet, *fleet.Cluster) {
	name := c.params["name"]
	f := c.fleetOf(typeManagedCluster, name)
	if f == nil {
		return nil, nil
	}
	id := fleet.ManagedClusterID(c.params["sub"], c.params["rg"], name)
	for i := range f.Clusters {
		if strings.EqualFold(f.Clusters[i].ResourceID, id) {
			return f, &f.Clusters[i]
		}
	}
	c.notFound(typeManagedCluster, name)
	return nil, nil
}

// listClusters serves GET …/resourceGroups/{rg}/providers/Microsoft.ContainerService/managedClusters, paged.
func (s *Server) listClusters(c *call) {
	f := c.fleetOf(typeManagedCluster, "")
	if f == nil {
		return
	}
	prefix := strings.ToLower(fleet.ManagedClusterID(c.params["sub"], c.params["rg"], ""))
	var in []*fleet.Cluster
	for i := range f.Clusters {
		if strings.HasPrefix(strings.ToLower(f.Clusters[i].ResourceID), prefix) {
			in = append(in, &f.Clusters[i])
		}
	}
	from, to, next, ok := c.page(len(in))
	if !ok {
		return
	}
	out := armfleet.List[armcontainerservice.ManagedCluster]{Value: []armcontainerservice.ManagedCluster{}, NextLink: next}
	for _, cl := range in[from:to] {
		out.Value = append(out.Value, aksconv.ManagedCluster(cl))
	}
	c.reply(http.StatusOK, out, "")
}

// getCluster serves GET …/managedClusters/{name}.
func (s *Server) getCluster(c *call) {
	if _, cl := c.cluster(); cl != nil {
		c.reply(http.StatusOK, aksconv.ManagedCluster(cl), "")
	}
}

// getMaintenanceConfiguration serves GET
// …/managedClusters/{name}/maintenanceConfigurations/aksManagedAutoUpgradeSchedule;
// 404 for a cluster without a window, and for every other configuration.
func (s *Server) getMaintenanceConfiguration(c *call) {
	_, cl := c.cluster()
	if cl == nil {
		return
	}
	config := c.params["config"]
	if mc, ok := aksconv.MaintenanceConfiguration(cl); ok && strings.EqualFold(config, aksconv.AutoUpgradeScheduleName) {
		c.reply(http.StatusOK, mc, "")
		return
	}
	c.notFound(aksconv.MaintenanceConfigurationType, cl.Name+"/"+config)
}

// getAgentPoolUpgradeProfile serves GET …/managedClusters/{name}/agentPools/{pool}/upgradeProfiles/default.
func (s *Server) getAgentPoolUpgradeProfile(c *call) {
	f, cl := c.cluster()
	if cl == nil {
		return
	}
	for _, p := range cl.NodePools {
		if strings.EqualFold(p.Name, c.params["pool"]) {
			region, _ := f.Region(cl.Region)
			c.reply(http.StatusOK, aksconv.AgentPoolUpgradeProfile(region, cl, p, c.hub.Now()), "")
			return
		}
	}
	c.notFound(typeManagedCluster+"/agentPools", cl.Name+"/"+c.params["pool"])
}

// kubernetesVersions serves GET /subscriptions/{s}/providers/Microsoft.ContainerService/locations/{l}/kubernetesVersions:
// the region's release catalog at the hub's clock; 404 for a region the
// fleet's inventory does not have.
func (s *Server) kubernetesVersions(c *call) {
	loc := c.params["location"]
	f := c.fleetOf("Microsoft.ContainerService/locations", loc)
	if f == nil {
		return
	}
	for i := range f.Regions {
		if strings.EqualFold(f.Regions[i].Name, loc) {
			c.reply(http.StatusOK, aksconv.KubernetesVersions(&f.Regions[i], c.hub.Now()), "")
			return
		}
	}
	c.fail(http.StatusNotFound, "LocationNotAvailableForResourceType",
		"The location '"+loc+"' is not available for resource type 'Microsoft.ContainerService/locations/kubernetesVersions' in this fleet.", "")
}
