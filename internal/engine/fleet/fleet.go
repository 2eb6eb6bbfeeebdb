// Package fleet is the model of a Fleet Manager fleet that every engine works
// on: member clusters with their labels, taints, agent status, properties,
// resource usage, versions, maintenance windows and NAP nodes, and the
// per-region release catalogs. It is filled by a hub (the mock hub from an
// inventory file, the Azure hub from ARM and the hub cluster) and is never
// mutated by the engines.
package fleet

import (
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Automatic labels that Fleet Manager puts on every member cluster.
const (
	LabelLocation       = "fleet.azure.com/location"
	LabelResourceGroup  = "fleet.azure.com/resource-group"
	LabelSubscriptionID = "fleet.azure.com/subscription-id"
	LabelClusterName    = "fleet.azure.com/cluster-name"
	LabelMemberName     = "fleet.azure.com/member-name"
)

// Well-known cluster properties reported by the Fleet member agent on AKS.
const (
	PropertyNodeCount         = "kubernetes-fleet.io/node-count"
	PropertyPerCPUCoreCost    = "kubernetes.azure.com/per-cpu-core-cost"
	PropertyPerGBMemoryCost   = "kubernetes.azure.com/per-gb-memory-cost"
	PropertyVMSizeCountPrefix = "kubernetes.azure.com/vm-sizes/" // + <SKU>/count
)

// Fleet is a snapshot of the whole fleet at one moment.
type Fleet struct {
	Regions  []Region  // sorted by name
	Clusters []Cluster // sorted by name, names unique
	// Hub is what the hub cluster holds that placements select, when the
	// hub reads it with the fleet (the mock hub, from its inventory).
	Hub HubResources
	// ChangedAt is when the fleet became as it is, where the hub knows it
	// (the mock hub: when its inventory took effect); zero when it does not.
	// A controller replaying time from an earlier instant sees the change
	// there, not at the instant it first reads it (placement.AdvanceRollout).
	ChangedAt time.Time

	derived *derived // set by Share: values computed once (derived.go)
}

// Sort puts regions and clusters in name order, the order every consumer relies on.
func (f *Fleet) Sort() {
	sort.Slice(f.Regions, func(i, j int) bool { return f.Regions[i].Name < f.Regions[j].Name })
	sort.Slice(f.Clusters, func(i, j int) bool { return f.Clusters[i].Name < f.Clusters[j].Name })
}

// Cluster returns the member cluster with the given name.
func (f *Fleet) Cluster(name string) (*Cluster, bool) {
	i := sort.Search(len(f.Clusters), func(i int) bool { return f.Clusters[i].Name >= name })
	if i < len(f.Clusters) && f.Clusters[i].Name == name {
		return &f.Clusters[i], true
	}
	return nil, false
}

// Region returns the region with the given name.
func (f *Fleet) Region(name string) (*Region, bool) {
	for i := range f.Regions {
		if f.Regions[i].Name == name {
			return &f.Regions[i], true
		}
	}
	return nil, false
}

// Region is an Azure region and its release catalog.
type Region struct {
	Name               string
	KubernetesVersions []KubernetesRelease
	NodeImages         []NodeImageRelease
}

// KubernetesRelease is a Kubernetes version released in a region.
type KubernetesRelease struct {
	Version string // e.g. 1.31.2
	Preview bool
	// LTS: the release is of a minor AKS supports long term (past the N−2
	// window), for profiles with long_term_support (designs/updates.md §5).
	LTS        bool
	ReleasedAt time.Time
}

// NodeImageRelease is a node image version released in a region.
type NodeImageRelease struct {
	Family     string // e.g. AKSUbuntu-2204gen2containerd
	Version    string // e.g. 202611.03.0
	ReleasedAt time.Time
}

// Cluster is a fleet member cluster.
type Cluster struct {
	Name           string
	Region         string
	ResourceGroup  string
	SubscriptionID string
	// ResourceID is the ARM id of the managed cluster.
	ResourceID string
	// Group is the member's update group; empty when it has none.
	Group string
	// Labels are the member's labels, including the automatic fleet.azure.com ones.
	Labels map[string]string
	Taints []Taint
	Agent  AgentStatus
	// Properties are the non-resource properties reported for the cluster (string values).
	Properties map[string]string
	Usage      ResourceUsage

	KubernetesVersion string
	NodePools         []NodePool
	// MaintenanceWindow is the AKS planned-maintenance (auto-upgrade) schedule; nil when none.
	MaintenanceWindow *MaintenanceWindow
	// NAPNodes are the nodes Node Auto Provisioning created on this cluster.
	NAPNodes []NAPNode
	Failures Failures
}

// ManagedClusterID is the ARM id of a managed cluster.
func ManagedClusterID(subscriptionID, resourceGroup, name string) string {
	return "/subscriptions/" + subscriptionID + "/resourceGroups/" + resourceGroup +
		"/providers/Microsoft.ContainerService/managedClusters/" + name
}

// AutomaticLabels are the labels Fleet Manager sets on a member cluster.
func AutomaticLabels(c *Cluster) map[string]string {
	return map[string]string{
		LabelLocation:       c.Region,
		LabelResourceGroup:  c.ResourceGroup,
		LabelSubscriptionID: c.SubscriptionID,
		LabelClusterName:    c.Name,
		LabelMemberName:     c.Name,
	}
}

// TaintEffectNoSchedule is the only taint effect a member cluster can carry.
const TaintEffectNoSchedule = "NoSchedule"

// Taint is a member-cluster taint.
type Taint struct {
	Key    string
	Value  string
	Effect string
}

// String renders the taint as Kubernetes does: key=value:Effect.
func (t Taint) String() string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	return s + ":" + t.Effect
}

// Condition status values, as in Kubernetes conditions.
const (
	ConditionTrue    = "True"
	ConditionFalse   = "False"
	ConditionUnknown = "Unknown"
)

// AgentStatus is what the Fleet member agent reports about a cluster.
type AgentStatus struct {
	// Present is false when the member agent has never reported.
	Present bool
	Joined  bool
	// Healthy is a condition status: True, False or Unknown (or empty: not reported).
	Healthy string
	// HealthSince is when the Healthy condition last changed.
	HealthSince   time.Time
	LastHeartbeat time.Time
	// Leaving is true when the member is leaving the fleet.
	Leaving bool
}

// Resource names used in resource usage.
const (
	ResourceCPU    = "cpu"
	ResourceMemory = "memory"
)

// ResourceUsage is the cluster's capacity, allocatable and available resources.
type ResourceUsage struct {
	Capacity    map[string]resource.Quantity
	Allocatable map[string]resource.Quantity
	Available   map[string]resource.Quantity
}

// NodePool is an AKS agent pool of a member cluster.
type NodePool struct {
	Name             string
	VMSize           string
	NodeCount        int
	NodeImageFamily  string
	NodeImageVersion string
}

// NAPNode is a node created by Node Auto Provisioning (a Karpenter NodeClaim's node).
type NAPNode struct {
	Name              string
	NodePool          string
	Labels            map[string]string
	CreatedAt         time.Time
	Ready             bool
	MarkedForDeletion bool
	DoNotDisrupt      bool
	// Uninitialized: the node is not labelled karpenter.sh/initialized yet.
	Uninitialized bool
	// InstanceTerminating: its claim's instance is being deleted.
	InstanceTerminating bool
	// ExpireAfter is its claim's own spec.expireAfter ("": the pool's).
	ExpireAfter string
}

// Failures are failures injected into a simulated cluster.
type Failures struct {
	// Upgrade, when set, makes every upgrade of this cluster fail with this message.
	Upgrade string
	// Placement, when set, makes the cluster fail to apply what placements
	// roll out to it, with this message.
	Placement string
}
