package placement

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// syntheticFleet deterministically builds n member clusters over 12 regions
// and 5 update rings, with labels, properties and resource usage; about 1%
// are ineligible and 2% tainted.
func syntheticFleet(n int) *fleet.Fleet {
	rng := rand.New(rand.NewPCG(42, uint64(n)))
	regions := []string{"eastus", "eastus2", "westus", "westus2", "westus3", "centralus", "northeurope", "westeurope", "uksouth", "japaneast", "australiaeast", "southeastasia"}
	envs := []string{"prod", "staging", "dev"}
	tiers := []string{"gold", "silver", "bronze"}
	f := &fleet.Fleet{Clusters: make([]fleet.Cluster, n)}
	for i := range f.Clusters {
		name := fmt.Sprintf("member-%06d", i)
		region := regions[rng.IntN(len(regions))]
		c := fleet.Cluster{
			Name: name, Region: region, ResourceGroup: "rg-" + region, SubscriptionID: "00000000-0000-0000-0000-000000000001",
			Agent: fleet.AgentStatus{Present: true, Joined: true, Healthy: fleet.ConditionTrue, HealthSince: now.Add(-time.Hour), LastHeartbeat: now.Add(-time.Duration(rng.IntN(120)) * time.Second)},
		}
		c.Labels = fleet.AutomaticLabels(&c)
		c.Labels["env"] = envs[rng.IntN(len(envs))]
		c.Labels["tier"] = tiers[rng.IntN(len(tiers))]
		c.Labels["ring"] = fmt.Sprintf("ring-%d", rng.IntN(5))
		c.Properties = map[string]string{
			fleet.PropertyNodeCount:      fmt.Sprint(1 + rng.IntN(100)),
			fleet.PropertyPerCPUCoreCost: fmt.Sprintf("%.3f", 0.02+rng.Float64()),
		}
		cpu := 4 + rng.IntN(400)
		c.Usage = fleet.ResourceUsage{
			Capacity:    map[string]resource.Quantity{fleet.ResourceCPU: *resource.NewQuantity(int64(cpu), resource.DecimalSI), fleet.ResourceMemory: *resource.NewQuantity(int64(cpu)*4<<30, resource.BinarySI)},
			Allocatable: map[string]resource.Quantity{fleet.ResourceCPU: *resource.NewMilliQuantity(int64(cpu)*900, resource.DecimalSI)},
			Available:   map[string]resource.Quantity{fleet.ResourceCPU: *resource.NewMilliQuantity(int64(rng.IntN(cpu*900)), resource.DecimalSI), fleet.ResourceMemory: *resource.NewQuantity(int64(rng.IntN(cpu*4))<<30, resource.BinarySI)},
		}
		switch r := rng.IntN(100); {
		case r == 0:
			c.Agent.LastHeartbeat = now.Add(-time.Hour)
		case r < 3:
			c.Taints = []fleet.Taint{{Key: "dedicated", Value: "gpu", Effect: fleet.TaintEffectNoSchedule}}
		}
		f.Clusters[i] = c
	}
	f.Sort()
	return f
}

func preferred3Spec() Spec {
	p := pickN(25)
	p.Affinity = &Affinity{
		Required: []ClusterSelectorTerm{{LabelSelector: matchLabels("env", "prod")}, {LabelSelector: matchLabels("env", "staging")}},
		Preferred: []PreferredTerm{
			preferLabels(40, "tier", "gold"),
			preferLabels(-20, "ring", "ring-0"),
			{Weight: 60, Preference: ClusterSelectorTerm{LabelSelector: matchLabels("env", "prod"), PropertySorter: &PropertySorter{Name: "resources.kubernetes-fleet.io/available-cpu", SortOrder: Descending}}},
		},
	}
	return spec(p)
}

func topology50Spec() Spec {
	p := pickN(50)
	p.Affinity = &Affinity{Preferred: []PreferredTerm{preferLabels(30, "tier", "gold")}}
	p.TopologySpreadConstraints = []TopologySpreadConstraint{
		spread(fleet.LabelLocation, DoNotSchedule, 1),
		spread("ring", ScheduleAnyway, 2),
	}
	return spec(p)
}

func benchSchedule(b *testing.B, s Spec, n int) {
	f := syntheticFleet(n)
	if r, err := Schedule(s, f, nil, now, ScheduleOptions{}); err != nil || !r.Fulfilled {
		b.Fatalf("err=%v fulfilled=%v", err, r.Fulfilled)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Schedule(s, f, nil, now, ScheduleOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPickN3Preferred1k(b *testing.B)  { benchSchedule(b, preferred3Spec(), 1_000) }
func BenchmarkPickN3Preferred10k(b *testing.B) { benchSchedule(b, preferred3Spec(), 10_000) }
func BenchmarkPickN50Topology1k(b *testing.B)  { benchSchedule(b, topology50Spec(), 1_000) }
func BenchmarkPickN50Topology10k(b *testing.B) { benchSchedule(b, topology50Spec(), 10_000) }

// The synthetic fleet spreads evenly and the greedy pick keeps the region skew within 1.
func TestSyntheticTopologyPick(t *testing.T) {
	f := syntheticFleet(2_000)
	r := mustSchedule(t, topology50Spec(), f, nil, ScheduleOptions{})
	if !r.Fulfilled || len(r.Selected) != 50 {
		t.Fatalf("fulfilled=%v selected=%d", r.Fulfilled, len(r.Selected))
	}
	per := map[string]int{}
	for _, n := range r.Selected {
		c, _ := f.Cluster(n)
		per[c.Labels[fleet.LabelLocation]]++
	}
	lo, hi := 1<<30, 0
	for _, region := range []string{"eastus", "eastus2", "westus", "westus2", "westus3", "centralus", "northeurope", "westeurope", "uksouth", "japaneast", "australiaeast", "southeastasia"} {
		lo, hi = min(lo, per[region]), max(hi, per[region])
	}
	if hi-lo > 1 {
		t.Fatalf("region skew %d: %v", hi-lo, per)
	}
}
