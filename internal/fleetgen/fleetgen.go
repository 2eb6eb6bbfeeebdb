// Package fleetgen generates large synthetic fleets as inventory JSON for the
// mock hub, deterministically from a seed. Benchmarks use it, and so can
// anyone who wants to see how a policy behaves on a big fleet
// (`go run ./tools/fleetgen -clusters 5000 > fleet.json`). The mock hub
// reads a file named *.json as JSON, several times faster than YAML.
package fleetgen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
)

// Options shape the generated fleet.
type Options struct {
	Clusters int
	Regions  int    // default 6
	Seed     uint64 // same seed, same fleet
	// StaleEvery makes every n-th cluster's heartbeat stale (0: none).
	StaleEvery int
	// TaintEvery taints every n-th cluster (0: none).
	TaintEvery int
	// NAPNodes per cluster (0: none).
	NAPNodes int
}

var (
	regionNames   = []string{"eastus", "westeurope", "southeastasia", "westus2", "northeurope", "japaneast", "australiaeast", "brazilsouth", "centralindia", "uksouth"}
	envs          = []string{"prod", "staging", "dev"}
	tiers         = []string{"gold", "silver", "bronze"}
	days          = []string{"monday", "tuesday", "wednesday", "thursday"}
	groups        = []string{"canary", "wave-1", "wave-2", "wave-3"}
	versions      = []string{"1.30.14", "1.31.10", "1.32.6", "1.33.2"}
	weekdays      = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	hubNamespaces = []string{"web", "api", "batch"}
	skus          = []string{"Standard_D4s_v5", "Standard_D8s_v5", "Standard_E8s_v5", "Standard_F16s_v2"}
)

// The inventory's shape, as far as fleetgen writes it (the mock hub's
// inventory format, designs/hub.md §2), in the order of its fields.
type (
	inventory struct {
		Regions    []region   `json:"regions"`
		Clusters   []cluster  `json:"clusters"`
		HubCluster hubCluster `json:"hub_cluster"`
	}
	region struct {
		Name               string    `json:"name"`
		KubernetesVersions []release `json:"kubernetes_versions"`
		NodeImages         []image   `json:"node_images"`
	}
	release struct {
		Version    string `json:"version"`
		ReleasedAt string `json:"released_at"`
	}
	image struct {
		Family     string `json:"family"`
		Version    string `json:"version"`
		ReleasedAt string `json:"released_at"`
	}
	cluster struct {
		Name              string            `json:"name"`
		Region            string            `json:"region"`
		Group             string            `json:"group"`
		Labels            map[string]string `json:"labels"`
		Taints            []taint           `json:"taints,omitempty"`
		Agent             *agent            `json:"agent,omitempty"`
		Properties        map[string]string `json:"properties"`
		ResourceUsage     usage             `json:"resource_usage"`
		KubernetesVersion string            `json:"kubernetes_version"`
		NodePools         []nodePool        `json:"node_pools"`
		MaintenanceWindow *window           `json:"maintenance_window,omitempty"`
		NAPNodes          []napNode         `json:"nap_nodes,omitempty"`
	}
	taint struct {
		Key    string `json:"key"`
		Value  string `json:"value"`
		Effect string `json:"effect"`
	}
	agent struct {
		HeartbeatAge string `json:"heartbeat_age"`
	}
	usage struct {
		Capacity    map[string]string `json:"capacity"`
		Allocatable map[string]string `json:"allocatable"`
		Available   map[string]string `json:"available"`
	}
	nodePool struct {
		Name             string `json:"name"`
		VMSize           string `json:"vm_size"`
		NodeCount        int    `json:"node_count"`
		NodeImageFamily  string `json:"node_image_family"`
		NodeImageVersion string `json:"node_image_version"`
	}
	window struct {
		Schedule      schedule `json:"schedule"`
		StartTime     string   `json:"start_time"`
		DurationHours int      `json:"duration_hours"`
	}
	schedule struct {
		Weekly weekly `json:"weekly"`
	}
	weekly struct {
		IntervalWeeks int    `json:"interval_weeks"`
		DayOfWeek     string `json:"day_of_week"`
	}
	napNode struct {
		Name     string            `json:"name"`
		NodePool string            `json:"nodepool"`
		Age      string            `json:"age"`
		Labels   map[string]string `json:"labels"`
	}
	hubCluster struct {
		Namespaces []namespace `json:"namespaces"`
	}
	namespace struct {
		Name    string            `json:"name"`
		Labels  map[string]string `json:"labels"`
		Objects []object          `json:"objects"`
	}
	object struct {
		Group string `json:"group,omitempty"`
		Kind  string `json:"kind"`
		Name  string `json:"name"`
	}
)

// Generate returns an inventory document in JSON.
func Generate(o Options) []byte {
	if o.Regions <= 0 {
		o.Regions = 6
	}
	if o.Regions > len(regionNames) {
		o.Regions = len(regionNames)
	}
	r := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
	var inv inventory
	for _, name := range regionNames[:o.Regions] {
		reg := region{Name: name, NodeImages: []image{{Family: "AKSUbuntu-2204gen2containerd", Version: "202611.10.0", ReleasedAt: "2026-11-12T00:00:00Z"}}}
		for i, v := range versions {
			reg.KubernetesVersions = append(reg.KubernetesVersions, release{Version: v, ReleasedAt: fmt.Sprintf("2026-%02d-01T00:00:00Z", 3+2*i)})
		}
		inv.Regions = append(inv.Regions, reg)
	}
	inv.Clusters = make([]cluster, 0, o.Clusters)
	for i := 0; i < o.Clusters; i++ {
		region := regionNames[r.IntN(o.Regions)]
		nodes := 1 + r.IntN(60)
		cpu := nodes * 8
		avail := r.IntN(cpu*1000 + 1)
		sku := skus[r.IntN(len(skus))]
		c := cluster{Name: fmt.Sprintf("member-%05d", i), Region: region, Group: groups[r.IntN(len(groups))]}
		c.Labels = map[string]string{"env": envs[r.IntN(len(envs))], "tier": tiers[r.IntN(len(tiers))], "updateDay": days[r.IntN(len(days))], "zone-pair": fmt.Sprintf("z%d", r.IntN(8))}
		if o.TaintEvery > 0 && i%o.TaintEvery == 0 {
			c.Taints = []taint{{Key: "dedicated", Value: "batch", Effect: "NoSchedule"}}
		}
		if o.StaleEvery > 0 && i%o.StaleEvery == 0 {
			c.Agent = &agent{HeartbeatAge: "1h"}
		}
		c.Properties = map[string]string{"kubernetes-fleet.io/node-count": fmt.Sprint(nodes),
			"kubernetes.azure.com/per-cpu-core-cost":          fmt.Sprintf("%.3f", 0.05+r.Float64()),
			"kubernetes.azure.com/vm-sizes/" + sku + "/count": fmt.Sprint(nodes)}
		c.ResourceUsage = usage{
			Capacity:    map[string]string{"cpu": fmt.Sprint(cpu), "memory": fmt.Sprintf("%dGi", cpu*4)},
			Allocatable: map[string]string{"cpu": fmt.Sprint(cpu - nodes/2), "memory": fmt.Sprintf("%dGi", cpu*4-nodes)},
			Available:   map[string]string{"cpu": fmt.Sprintf("%dm", avail), "memory": fmt.Sprintf("%dGi", r.IntN(cpu*4+1))},
		}
		c.KubernetesVersion = versions[r.IntN(len(versions))]
		c.NodePools = []nodePool{{Name: "system", VMSize: sku, NodeCount: nodes, NodeImageFamily: "AKSUbuntu-2204gen2containerd", NodeImageVersion: "202610.27.0"}}
		if r.IntN(3) > 0 {
			day := weekdays[r.IntN(7)]
			start := fmt.Sprintf("%02d:00", r.IntN(24))
			c.MaintenanceWindow = &window{Schedule: schedule{Weekly: weekly{IntervalWeeks: 1, DayOfWeek: day}}, StartTime: start, DurationHours: 4 + r.IntN(5)}
		}
		for n := 0; n < o.NAPNodes; n++ {
			age := fmt.Sprintf("%dh", r.IntN(800))
			c.NAPNodes = append(c.NAPNodes, napNode{Name: fmt.Sprintf("nap-%05d-%03d", i, n), NodePool: "default", Age: age,
				Labels: map[string]string{"node.kubernetes.io/instance-type": skus[r.IntN(len(skus))]}})
		}
		inv.Clusters = append(inv.Clusters, c)
	}
	// The hub cluster: the namespaces placements usually select, a
	// Deployment and a Service in each.
	for _, ns := range hubNamespaces {
		inv.HubCluster.Namespaces = append(inv.HubCluster.Namespaces, namespace{Name: ns, Labels: map[string]string{"app": ns},
			Objects: []object{{Group: "apps", Kind: "Deployment", Name: ns}, {Kind: "Service", Name: ns}}})
	}
	out, err := json.MarshalIndent(inv, "", " ")
	if err != nil {
		panic(fmt.Sprintf("fleetgen: %v", err)) // strings, integers, lists and maps: cannot fail
	}
	return append(out, '\n')
}
