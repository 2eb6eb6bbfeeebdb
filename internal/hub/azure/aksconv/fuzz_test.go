package aksconv

import (
	"encoding/json"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
)

// FuzzClientSide: whatever ARM sends that the SDK decodes, the client side
// answers with facts or an error, never a panic.
func FuzzClientSide(f *testing.F) {
	mc, cfg := goodCluster()
	mcJSON, _ := json.Marshal(mc)
	cfgJSON, _ := json.Marshal(cfg)
	f.Add(string(mcJSON), string(cfgJSON))
	f.Add(`{"id":"/subscriptions/s/resourceGroups/r/providers/Microsoft.ContainerService/managedClusters/c","location":"x","properties":{"agentPoolProfiles":[{}]}}`,
		`{"properties":{"maintenanceWindow":{"schedule":{"weekly":{}},"notAllowedDates":[{},null]}}}`)
	f.Add(`{"properties":null}`, `{"properties":{"maintenanceWindow":{}}}`)
	f.Add(`{"values":[{"patchVersions":{"1.2.3":null}}]}`, `{"properties":{"latestNodeImageVersion":"a-1"}}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		var mc armcontainerservice.ManagedCluster
		var cfg armcontainerservice.MaintenanceConfiguration
		if json.Unmarshal([]byte(a), &mc) == nil && json.Unmarshal([]byte(b), &cfg) == nil {
			if _, err := ClusterFacts(mc, &cfg); err != nil && err.Error() == "" {
				t.Error("an error without a message")
			}
		}
		var l armcontainerservice.KubernetesVersionListResult
		if json.Unmarshal([]byte(a), &l) == nil {
			Releases(l)
		}
		var p armcontainerservice.AgentPoolUpgradeProfile
		if json.Unmarshal([]byte(b), &p) == nil {
			LatestNodeImage(p)
		}
	})
}
