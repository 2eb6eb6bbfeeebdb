package armemu

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/aksconv"
)

const aksVersion = "2025-02-01"

// The AKS side serves the fleet's clusters as aksconv shapes them, decoded
// here by the SDK's own models.
func TestAKS(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.PageSize = 1 })
	f, err := e.backend.Load().Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c, _ := f.Cluster("aks-east-prod-01")
	clusterPath := c.ResourceID + "?api-version=" + aksVersion

	var mc armcontainerservice.ManagedCluster
	r := e.do(http.MethodGet, clusterPath, nil)
	expect(t, "get cluster", r, http.StatusOK)
	r.decode(t, &mc)
	if *mc.ID != c.ResourceID || *mc.Location != c.Region || *mc.Properties.CurrentKubernetesVersion != c.KubernetesVersion ||
		len(mc.Properties.AgentPoolProfiles) != len(c.NodePools) {
		t.Errorf("managed cluster %+v", mc)
	}
	expect(t, "a fleet api-version on an AKS route", e.do(http.MethodGet, c.ResourceID+"?api-version="+v1, nil), http.StatusBadRequest)
	expect(t, "a missing cluster", e.do(http.MethodGet, clustersOf(c.SubscriptionID, c.ResourceGroup)+"/nope?api-version="+aksVersion, nil), http.StatusNotFound)

	var mw armcontainerservice.MaintenanceConfiguration
	r = e.do(http.MethodGet, c.ResourceID+"/maintenanceConfigurations/"+aksconv.AutoUpgradeScheduleName+"?api-version="+aksVersion, nil)
	expect(t, "maintenance configuration", r, http.StatusOK)
	r.decode(t, &mw)
	if mw.Properties == nil || mw.Properties.MaintenanceWindow == nil || *mw.Properties.MaintenanceWindow.DurationHours != int32(c.MaintenanceWindow.DurationHours) {
		t.Errorf("maintenance configuration %+v", mw)
	}
	dev, _ := f.Cluster("aks-east-dev-01")
	expect(t, "the window of a cluster without one", e.do(http.MethodGet, dev.ResourceID+"/maintenanceConfigurations/"+aksconv.AutoUpgradeScheduleName+"?api-version="+aksVersion, nil), http.StatusNotFound)

	var up armcontainerservice.AgentPoolUpgradeProfile
	r = e.do(http.MethodGet, c.ResourceID+"/agentPools/system/upgradeProfiles/default?api-version="+aksVersion, nil)
	expect(t, "agent pool upgrade profile", r, http.StatusOK)
	r.decode(t, &up)
	if up.Properties == nil || up.Properties.LatestNodeImageVersion == nil || *up.Properties.LatestNodeImageVersion != "AKSUbuntu-2204gen2containerd-202611.10.0" {
		t.Errorf("upgrade profile %+v", up.Properties)
	}
	expect(t, "a missing pool", e.do(http.MethodGet, c.ResourceID+"/agentPools/nope/upgradeProfiles/default?api-version="+aksVersion, nil), http.StatusNotFound)

	var kv armcontainerservice.KubernetesVersionListResult
	r = e.do(http.MethodGet, "/subscriptions/"+c.SubscriptionID+"/providers/Microsoft.ContainerService/locations/eastus/kubernetesVersions?api-version="+aksVersion, nil)
	expect(t, "kubernetes versions", r, http.StatusOK)
	r.decode(t, &kv)
	if len(kv.Values) != 5 {
		t.Errorf("%d minors in eastus, want 5", len(kv.Values))
	}
	expect(t, "a region not in the fleet", e.do(http.MethodGet, "/subscriptions/"+c.SubscriptionID+"/providers/Microsoft.ContainerService/locations/mars/kubernetesVersions?api-version="+aksVersion, nil), http.StatusNotFound)

	var want []string
	for _, cl := range f.Clusters {
		if cl.ResourceGroup == c.ResourceGroup && cl.SubscriptionID == c.SubscriptionID {
			want = append(want, cl.Name)
		}
	}
	pages, names := e.list(clustersOf(c.SubscriptionID, c.ResourceGroup) + "?api-version=" + aksVersion)
	if !slices.Equal(names, want) || len(pages) != len(want) {
		t.Errorf("clusters of %s: %v in pages %v, want %v", c.ResourceGroup, names, pages, want)
	}
}

// clustersOf is the managedClusters collection of a resource group.
func clustersOf(sub, rg string) string {
	return "/subscriptions/" + sub + "/resourceGroups/" + rg + "/providers/Microsoft.ContainerService/managedClusters"
}
