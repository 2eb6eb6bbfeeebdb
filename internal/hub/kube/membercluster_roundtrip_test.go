package kube

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/inventory"
)

var (
	now       = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	metaEpoch = metav1.NewTime(time.Unix(0, 0))
)

// sampleFleet is the mock hub's built-in sample fleet at now.
func sampleFleet(t *testing.T) *fleet.Fleet {
	t.Helper()
	f, err := inventory.Parse(inventory.SampleName, inventory.Sample, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Clusters) == 0 {
		t.Fatal("the sample fleet has no clusters")
	}
	return f
}

// wire sends a MemberCluster over the wire: its JSON, decoded as a client does.
func wire(t *testing.T, u *unstructured.Unstructured) *unstructured.Unstructured {
	t.Helper()
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	out := &unstructured.Unstructured{}
	if err := out.UnmarshalJSON(b); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	return out
}

// factsOf are the facts of a cluster that a MemberCluster carries.
func factsOf(c *fleet.Cluster) MemberFacts {
	return MemberFacts{Labels: c.Labels, Taints: c.Taints, Agent: c.Agent, Properties: c.Properties, Usage: c.Usage}
}

// sameFacts compares exactly, quantities with Cmp; a nil and an empty map or
// list are the same.
func sameFacts(t *testing.T, name string, got, want MemberFacts) {
	t.Helper()
	if !sameMap(got.Labels, want.Labels) {
		t.Errorf("%s: labels\n got %v\nwant %v", name, got.Labels, want.Labels)
	}
	if len(got.Taints)+len(want.Taints) > 0 && !reflect.DeepEqual(got.Taints, want.Taints) {
		t.Errorf("%s: taints\n got %v\nwant %v", name, got.Taints, want.Taints)
	}
	if got.Agent != want.Agent {
		t.Errorf("%s: agent\n got %+v\nwant %+v", name, got.Agent, want.Agent)
	}
	if !sameMap(got.Properties, want.Properties) {
		t.Errorf("%s: properties\n got %v\nwant %v", name, got.Properties, want.Properties)
	}
	for _, capacity := range []string{fleet.CapacityTotal, fleet.CapacityAllocatable, fleet.CapacityAvailable} {
		g, w := got.Usage.ByCapacity(capacity), want.Usage.ByCapacity(capacity)
		if !sameQuantities(g, w) {
			t.Errorf("%s: resource usage %s\n got %v\nwant %v", name, capacity, g, w)
		}
	}
}

func sameMap(a, b map[string]string) bool {
	return len(a) == len(b) && (len(a) == 0 || maps.Equal(a, b))
}

func sameQuantities(a, b map[string]resource.Quantity) bool {
	if len(a) != len(b) {
		return false
	}
	for k, q := range a {
		w, ok := b[k]
		if !ok || q.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

// instantsAround are the moments at which to compare eligibility.
func instantsAround(a fleet.AgentStatus) []time.Time {
	ts := []time.Time{now, now.Add(time.Hour), {}}
	for _, t := range []time.Time{a.LastHeartbeat, a.HealthSince} {
		for _, d := range []time.Duration{0, fleet.HeartbeatTimeout, fleet.HeartbeatTimeout + time.Nanosecond, fleet.UnhealthyTolerance + time.Second} {
			ts = append(ts, t.Add(d))
		}
	}
	return ts
}

func TestSampleFleetRoundTrip(t *testing.T) {
	f := sampleFleet(t)
	var taints, stale int
	for i := range f.Clusters {
		c := &f.Clusters[i]
		u := MemberCluster(c)
		if u.GetName() != c.Name || u.GetAPIVersion() != MemberClusterAPIVersion || u.GetKind() != MemberClusterKind {
			t.Fatalf("%s: object is %s %s %q", c.Name, u.GetAPIVersion(), u.GetKind(), u.GetName())
		}
		got, err := MemberFactsFrom(wire(t, u))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		sameFacts(t, c.Name, got, factsOf(c))
		back := *c
		back.Agent = got.Agent
		for _, at := range instantsAround(c.Agent) {
			if g, w := fleet.CheckEligibility(&back, at), fleet.CheckEligibility(c, at); g != w {
				t.Errorf("%s at %s: eligibility %+v after the round trip, %+v before", c.Name, at, g, w)
			}
		}
		taints += len(c.Taints)
		if !fleet.CheckEligibility(c, now).Eligible {
			stale++
		}
	}
	// The sample fleet exercises taints and an ineligible (stale) member.
	if taints == 0 || stale == 0 {
		t.Errorf("the sample fleet has %d taints and %d ineligible clusters; the test expects some of each", taints, stale)
	}
}

// TestWireShape checks where the facts go, on one cluster, against the
// paths the CRD's printer columns and Fleet's scheduler read.
func TestWireShape(t *testing.T) {
	c := &fleet.Cluster{
		Name:   "aks-1",
		Labels: map[string]string{"env": "prod"},
		Taints: []fleet.Taint{{Key: "dedicated", Value: "gpu", Effect: fleet.TaintEffectNoSchedule}, {Key: "k", Effect: fleet.TaintEffectNoSchedule}},
		Agent: fleet.AgentStatus{Present: true, Joined: true, Healthy: fleet.ConditionFalse,
			HealthSince: now.Add(-2 * time.Minute), LastHeartbeat: now.Add(-30*time.Second - 250*time.Millisecond)},
		Properties: map[string]string{fleet.PropertyNodeCount: "3"},
		Usage: fleet.ResourceUsage{
			Capacity:  map[string]resource.Quantity{"cpu": resource.MustParse("8"), "memory": resource.MustParse("32Gi")},
			Available: map[string]resource.Quantity{"cpu": resource.MustParse("3500m")},
		},
	}
	u := wire(t, MemberCluster(c))
	str := func(fields ...string) string {
		t.Helper()
		s, ok, err := unstructured.NestedString(u.Object, fields...)
		if err != nil || !ok {
			t.Fatalf("%v: %v (found %v)", fields, err, ok)
		}
		return s
	}
	if got := str("status", "properties", fleet.PropertyNodeCount, "value"); got != "3" {
		t.Errorf("node count %q", got)
	}
	if got := str("status", "resourceUsage", "available", "cpu"); got != "3500m" {
		t.Errorf("available cpu %q", got)
	}
	if got := str("status", "resourceUsage", "capacity", "memory"); got != "32Gi" {
		t.Errorf("capacity memory %q", got)
	}
	if got := str("spec", "identity", "kind"); got != "ServiceAccount" {
		t.Errorf("identity kind %q", got)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(u.Object, "metadata", "deletionTimestamp"); found {
		t.Error("a member that is not leaving has a deletionTimestamp")
	}
	if !slices.Contains(u.GetFinalizers(), MemberClusterFinalizer) {
		t.Errorf("finalizers %v", u.GetFinalizers())
	}
	agents, _, _ := unstructured.NestedSlice(u.Object, "status", "agentStatus")
	if len(agents) != 1 {
		t.Fatalf("agentStatus %v", agents)
	}
	agent := agents[0].(map[string]any)
	if agent["type"] != AgentTypeMember || agent["lastReceivedHeartbeat"] != "2026-11-21T11:59:29.75Z" {
		t.Errorf("agent status %v", agent)
	}
	conds := map[string]map[string]any{}
	for _, c := range agent["conditions"].([]any) {
		m := c.(map[string]any)
		conds[m["type"].(string)] = m
	}
	if j := conds[AgentConditionJoined]; j["status"] != "True" {
		t.Errorf("Joined %v", j)
	}
	if h := conds[AgentConditionHealthy]; h["status"] != "False" || h["lastTransitionTime"] != "2026-11-21T11:58:00Z" || h["reason"] != reasonAgentUnhealthy {
		t.Errorf("Healthy %v", h)
	}
	taints, _, _ := unstructured.NestedSlice(u.Object, "spec", "taints")
	if _, has := taints[1].(map[string]any)["value"]; has {
		t.Errorf("a taint without a value is written with one: %v", taints[1])
	}

	c.Agent.Leaving = true
	u = wire(t, MemberCluster(c))
	if ts := u.GetDeletionTimestamp(); ts == nil || ts.IsZero() {
		t.Fatalf("a leaving member has deletionTimestamp %v", ts)
	}
	c.Agent.LastHeartbeat = time.Time{}
	if ts := wire(t, MemberCluster(c)).GetDeletionTimestamp(); ts == nil || !ts.Equal(&metaEpoch) {
		t.Fatalf("a leaving member without heartbeat has deletionTimestamp %v, want the Unix epoch", ts)
	}
}

// agentCases are agent states beyond the sample fleet's.
func agentCases() map[string]fleet.AgentStatus {
	hb := now.Add(-time.Minute)
	frac := now.Add(-4*time.Minute - 59*time.Second - 999999999)
	return map[string]fleet.AgentStatus{
		"healthy":                     {Present: true, Joined: true, Healthy: fleet.ConditionTrue, LastHeartbeat: hb},
		"healthy since":               {Present: true, Joined: true, Healthy: fleet.ConditionTrue, HealthSince: now.Add(-time.Hour), LastHeartbeat: hb},
		"unhealthy, long ago":         {Present: true, Joined: true, Healthy: fleet.ConditionFalse, LastHeartbeat: hb},
		"unhealthy for 2m":            {Present: true, Joined: true, Healthy: fleet.ConditionFalse, HealthSince: now.Add(-2 * time.Minute), LastHeartbeat: hb},
		"unhealthy for 10m":           {Present: true, Joined: true, Healthy: fleet.ConditionFalse, HealthSince: now.Add(-10 * time.Minute), LastHeartbeat: hb},
		"unknown health":              {Present: true, Joined: true, Healthy: fleet.ConditionUnknown, HealthSince: now.Add(-6 * time.Minute), LastHeartbeat: hb},
		"no health condition":         {Present: true, Joined: true, LastHeartbeat: hb},
		"not joined":                  {Present: true, Healthy: fleet.ConditionTrue, LastHeartbeat: hb},
		"stale heartbeat":             {Present: true, Joined: true, Healthy: fleet.ConditionTrue, LastHeartbeat: now.Add(-2 * time.Hour)},
		"never heartbeat":             {Present: true, Joined: true, Healthy: fleet.ConditionTrue},
		"sub-second times":            {Present: true, Joined: true, Healthy: fleet.ConditionFalse, HealthSince: frac, LastHeartbeat: frac},
		"leaving":                     {Present: true, Joined: true, Healthy: fleet.ConditionTrue, LastHeartbeat: hb, Leaving: true},
		"leaving, left":               {Present: true, Healthy: fleet.ConditionTrue, LastHeartbeat: hb, Leaving: true},
		"leaving, no heartbeat":       {Present: true, Joined: true, Healthy: fleet.ConditionTrue, Leaving: true},
		"absent agent":                {},
		"absent agent, leaving":       {Leaving: true},
		"absent agent with leftovers": {Joined: true, Healthy: fleet.ConditionTrue, HealthSince: hb, LastHeartbeat: hb},
	}
}

func TestAgentRoundTrip(t *testing.T) {
	for name, a := range agentCases() {
		t.Run(name, func(t *testing.T) {
			c := &fleet.Cluster{Name: "aks-agent", Agent: a}
			got, err := MemberFactsFrom(wire(t, MemberCluster(c)))
			if err != nil {
				t.Fatal(err)
			}
			want := a
			if !a.Present { // nothing of the agent is on the object but its absence
				want = fleet.AgentStatus{Leaving: a.Leaving}
			}
			if got.Agent != want {
				t.Errorf("agent\n got %+v\nwant %+v", got.Agent, want)
			}
			back := *c
			back.Agent = got.Agent
			for _, at := range instantsAround(a) {
				if g, w := fleet.CheckEligibility(&back, at), fleet.CheckEligibility(c, at); g != w {
					t.Errorf("at %s: eligibility %+v after the round trip, %+v before", at, g, w)
				}
			}
		})
	}
}

// TestEmptyCluster: a cluster with nothing but a name has an object that
// reads back as no facts.
func TestEmptyCluster(t *testing.T) {
	got, err := MemberFactsFrom(wire(t, MemberCluster(&fleet.Cluster{Name: "bare"})))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, MemberFacts{}) {
		t.Errorf("got %+v", got)
	}
}

// TestNumericQuantities: the CRD lets a resource quantity be a JSON number.
func TestNumericQuantities(t *testing.T) {
	u := MemberCluster(&fleet.Cluster{Name: "n", Usage: fleet.ResourceUsage{Capacity: map[string]resource.Quantity{"cpu": resource.MustParse("1")}}})
	for _, v := range []any{int64(16), 16.0, int(16), json.Number("16")} {
		// By hand: SetNestedField deep-copies, and panics on an int.
		u.Object["status"].(map[string]any)["resourceUsage"].(map[string]any)["capacity"].(map[string]any)["cpu"] = v
		got, err := MemberFactsFrom(u)
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		if q := got.Usage.Capacity["cpu"]; q.Cmp(resource.MustParse("16")) != 0 {
			t.Errorf("%T: cpu %s", v, q.String())
		}
	}
}

// typedMemberCluster is the part of Fleet's Go type (kubefleet apis/cluster/v1
// MemberCluster) that its eligibility checker reads, with the apimachinery
// types Fleet uses.
type typedMemberCluster struct {
	metav1.ObjectMeta `json:"metadata"`
	Status            struct {
		AgentStatus []struct {
			Type                  string             `json:"type"`
			Conditions            []metav1.Condition `json:"conditions"`
			LastReceivedHeartbeat metav1.Time        `json:"lastReceivedHeartbeat"`
		} `json:"agentStatus"`
	} `json:"status"`
}

// TestFleetsTypesReadTheSame: Fleet's own types, decoding the JSON, read the
// facts its checker uses as FactsFrom reads them — the zero time, fractions
// of a second and the deletionTimestamp included.
func TestFleetsTypesReadTheSame(t *testing.T) {
	for name, a := range agentCases() {
		t.Run(name, func(t *testing.T) {
			b, err := json.Marshal(MemberCluster(&fleet.Cluster{Name: "typed", Agent: a}))
			if err != nil {
				t.Fatal(err)
			}
			var mc typedMemberCluster
			if err := json.Unmarshal(b, &mc); err != nil {
				t.Fatal(err)
			}
			var got fleet.AgentStatus
			got.Leaving = !mc.GetDeletionTimestamp().IsZero()
			for _, s := range mc.Status.AgentStatus {
				if s.Type != AgentTypeMember {
					continue
				}
				got.Present = true
				got.LastHeartbeat = s.LastReceivedHeartbeat.UTC()
				if j := meta.FindStatusCondition(s.Conditions, AgentConditionJoined); j != nil {
					got.Joined = j.Status == metav1.ConditionTrue
				}
				if h := meta.FindStatusCondition(s.Conditions, AgentConditionHealthy); h != nil {
					got.Healthy, got.HealthSince = string(h.Status), h.LastTransitionTime.UTC()
				}
				break
			}
			for _, tm := range []*time.Time{&got.LastHeartbeat, &got.HealthSince} {
				if tm.IsZero() {
					*tm = time.Time{}
				}
			}
			want := a
			if !a.Present {
				want = fleet.AgentStatus{Leaving: a.Leaving}
			}
			if got != want {
				t.Errorf("Fleet's types read\n %+v\nwant %+v", got, want)
			}
		})
	}
}
