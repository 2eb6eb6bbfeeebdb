// Package aksconv converts between the fleet model (internal/engine/fleet)
// and the AKS resource models of the generated SDK
// (armcontainerservice/v6, API 2025-02-01), in both directions, so that the
// ARM wire emulator and the azure hub share one definition of the shapes:
//
//   - the emulator side (ManagedCluster, MaintenanceConfiguration,
//     KubernetesVersions, AgentPoolUpgradeProfile) builds what ARM would
//     return for a simulated cluster or region at an instant;
//   - the client side (ClusterFacts, Releases, LatestNodeImage) builds the
//     fleet facts the azure hub reads from those resources.
//
// What survives a round trip (fleet → SDK model → JSON → SDK model → fleet):
// a cluster's region, resource group, subscription, Kubernetes version, node
// pools and maintenance window, exactly; a region's released Kubernetes
// patches with their preview and LTS flags, and the newest node image of a
// family. What ARM cannot carry:
//
//   - release times: ARM lists what is available now, never since when.
//     Releases and LatestNodeImage return a zero ReleasedAt, meaning "already
//     released" (the engine compares with !ReleasedAt.After(t), which holds
//     for the zero time at every t);
//   - preview per patch: the version list marks a whole minor preview or
//     not (KubernetesVersions explains what it does with a mixed minor);
//   - LTS per patch: the support plan is the minor's, so every patch of a
//     minor with an LTS release comes back LTS;
//   - the catalog of node images: ARM only tells a pool's newest image.
package aksconv

import (
	"fmt"
	"strings"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

// ARM resource types and names of the resources this package converts.
const (
	ManagedClusterType           = "Microsoft.ContainerService/ManagedClusters"
	MaintenanceConfigurationType = "Microsoft.ContainerService/managedClusters/maintenanceConfigurations"
	AgentPoolUpgradeProfileType  = "Microsoft.ContainerService/managedClusters/agentPools/upgradeProfiles"

	// AutoUpgradeScheduleName is the maintenance configuration that holds
	// the cluster auto-upgrade window (designs/maintenance.md).
	AutoUpgradeScheduleName = "aksManagedAutoUpgradeSchedule"
	// UpgradeProfileName is the name of every agent pool upgrade profile.
	UpgradeProfileName = "default"
	// ProvisioningSucceeded is the provisioning state of a settled resource.
	ProvisioningSucceeded = "Succeeded"
)

// NodeImageVersion is how AKS writes a node image: <family>-<version>, e.g.
// AKSUbuntu-2204gen2containerd-202611.03.0.
func NodeImageVersion(family, version string) string { return family + "-" + version }

// ParseNodeImageVersion splits an AKS node image version at its last '-'
// into the image family and the image version (families contain '-',
// versions do not).
func ParseNodeImageVersion(s string) (family, version string, err error) {
	family, version, ok := update.SplitNodeImageVersion(s)
	if !ok {
		return "", "", fmt.Errorf("%q is not a node image version: AKS writes them <family>-<version>, e.g. AKSUbuntu-2204gen2containerd-202611.03.0", s)
	}
	return family, version, nil
}

// deref is *p, or the zero value when p is nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// canonical returns the spelling in allowed that equals s ignoring case.
func canonical[S ~string](s string, allowed []S) (S, bool) {
	for _, a := range allowed {
		if strings.EqualFold(string(a), s) {
			return a, true
		}
	}
	return "", false
}
