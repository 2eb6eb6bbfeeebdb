package kube

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// full is a cluster with every fact set, whose object the cases below break.
func full() *fleet.Cluster {
	return &fleet.Cluster{
		Name:   "aks-full",
		Labels: map[string]string{"env": "prod"},
		Taints: []fleet.Taint{{Key: "dedicated", Value: "gpu", Effect: fleet.TaintEffectNoSchedule}},
		Agent: fleet.AgentStatus{Present: true, Joined: true, Healthy: fleet.ConditionFalse,
			HealthSince: now.Add(-time.Minute), LastHeartbeat: now, Leaving: true},
		Properties: map[string]string{fleet.PropertyNodeCount: "3"},
		Usage:      fleet.ResourceUsage{Capacity: map[string]resource.Quantity{"cpu": resource.MustParse("8")}},
	}
}

// setPath replaces the value at a path of maps and list indexes.
func setPath(obj map[string]any, v any, path ...any) {
	var cur any = obj
	for i, step := range path {
		last := i == len(path)-1
		switch s := step.(type) {
		case string:
			m := cur.(map[string]any)
			if last {
				m[s] = v
				return
			}
			cur = m[s]
		case int:
			l := cur.([]any)
			if last {
				l[s] = v
				return
			}
			cur = l[s]
		}
	}
}

func del(obj map[string]any, path ...string) {
	m := obj
	for _, s := range path[:len(path)-1] {
		m = m[s].(map[string]any)
	}
	delete(m, path[len(path)-1])
}

func TestMalformed(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(o map[string]any)
		member string // in the error
		field  string // in the error
	}{
		{"metadata not an object", func(o map[string]any) { o["metadata"] = "x" }, "", "metadata"},
		{"no name", func(o map[string]any) { del(o, "metadata", "name") }, "", "metadata.name"},
		{"empty name", func(o map[string]any) { setPath(o, "", "metadata", "name") }, "", "metadata.name"},
		{"name not a string", func(o map[string]any) { setPath(o, int64(3), "metadata", "name") }, "", "metadata.name"},
		{"other kind", func(o map[string]any) { o["kind"] = "ConfigMap" }, "aks-full", "kind"},
		{"other group", func(o map[string]any) { o["apiVersion"] = "v1" }, "aks-full", "apiVersion"},
		{"label not a string", func(o map[string]any) { setPath(o, true, "metadata", "labels", "env") }, "aks-full", `metadata.labels["env"]`},
		{"labels a list", func(o map[string]any) { setPath(o, []any{}, "metadata", "labels") }, "aks-full", "metadata.labels"},
		{"deletionTimestamp garbage", func(o map[string]any) { setPath(o, "yesterday", "metadata", "deletionTimestamp") }, "aks-full", "metadata.deletionTimestamp"},
		{"deletionTimestamp a number", func(o map[string]any) { setPath(o, int64(5), "metadata", "deletionTimestamp") }, "aks-full", "metadata.deletionTimestamp"},
		{"spec a list", func(o map[string]any) { o["spec"] = []any{} }, "aks-full", "spec"},
		{"taints an object", func(o map[string]any) { setPath(o, map[string]any{}, "spec", "taints") }, "aks-full", "spec.taints"},
		{"taint null", func(o map[string]any) { setPath(o, nil, "spec", "taints", 0) }, "aks-full", "spec.taints[0]"},
		{"taint without key", func(o map[string]any) { del(o["spec"].(map[string]any)["taints"].([]any)[0].(map[string]any), "key") }, "aks-full", "spec.taints[0].key"},
		{"taint without effect", func(o map[string]any) { setPath(o, "", "spec", "taints", 0, "effect") }, "aks-full", "spec.taints[0].effect"},
		{"taint value a number", func(o map[string]any) { setPath(o, 1.5, "spec", "taints", 0, "value") }, "aks-full", "spec.taints[0].value"},
		{"status a string", func(o map[string]any) { o["status"] = "ok" }, "aks-full", "status"},
		{"property without value", func(o map[string]any) {
			del(o["status"].(map[string]any)["properties"].(map[string]any)[fleet.PropertyNodeCount].(map[string]any), "value")
		}, "aks-full", `status.properties["kubernetes-fleet.io/node-count"].value`},
		{"property value a number", func(o map[string]any) { setPath(o, int64(3), "status", "properties", fleet.PropertyNodeCount, "value") }, "aks-full", `status.properties["kubernetes-fleet.io/node-count"].value`},
		{"property a string", func(o map[string]any) { setPath(o, "3", "status", "properties", fleet.PropertyNodeCount) }, "aks-full", `status.properties["kubernetes-fleet.io/node-count"]`},
		{"quantity garbage", func(o map[string]any) { setPath(o, "eight", "status", "resourceUsage", "capacity", "cpu") }, "aks-full", `status.resourceUsage.capacity["cpu"]`},
		{"quantity out of bounds", func(o map[string]any) { setPath(o, "1e999999999", "status", "resourceUsage", "capacity", "cpu") }, "aks-full", `status.resourceUsage.capacity["cpu"]`},
		{"quantity a boolean", func(o map[string]any) { setPath(o, true, "status", "resourceUsage", "capacity", "cpu") }, "aks-full", `status.resourceUsage.capacity["cpu"]`},
		{"capacity a list", func(o map[string]any) { setPath(o, []any{"1"}, "status", "resourceUsage", "capacity") }, "aks-full", "status.resourceUsage.capacity"},
		{"agentStatus an object", func(o map[string]any) { setPath(o, map[string]any{}, "status", "agentStatus") }, "aks-full", "status.agentStatus"},
		{"agent entry without type", func(o map[string]any) { setPath(o, map[string]any{}, "status", "agentStatus", 0) }, "aks-full", "status.agentStatus[0].type"},
		{"heartbeat garbage", func(o map[string]any) { setPath(o, "now", "status", "agentStatus", 0, "lastReceivedHeartbeat") }, "aks-full", "status.agentStatus[0].lastReceivedHeartbeat"},
		{"heartbeat empty", func(o map[string]any) { setPath(o, "", "status", "agentStatus", 0, "lastReceivedHeartbeat") }, "aks-full", "status.agentStatus[0].lastReceivedHeartbeat"},
		{"conditions a string", func(o map[string]any) { setPath(o, "Joined", "status", "agentStatus", 0, "conditions") }, "aks-full", "status.agentStatus[0].conditions"},
		{"condition without type", func(o map[string]any) {
			del(o["status"].(map[string]any)["agentStatus"].([]any)[0].(map[string]any)["conditions"].([]any)[1].(map[string]any), "type")
		}, "aks-full", "status.agentStatus[0].conditions[1].type"},
		{"joined status yes", func(o map[string]any) { setPath(o, "yes", "status", "agentStatus", 0, "conditions", 0, "status") }, "aks-full", "status.agentStatus[0].conditions[0].status"},
		{"healthy status missing", func(o map[string]any) {
			del(o["status"].(map[string]any)["agentStatus"].([]any)[0].(map[string]any)["conditions"].([]any)[1].(map[string]any), "status")
		}, "aks-full", "status.agentStatus[0].conditions[1].status"},
		{"healthy since garbage", func(o map[string]any) {
			setPath(o, "2026-13-01T00:00:00Z", "status", "agentStatus", 0, "conditions", 1, "lastTransitionTime")
		}, "aks-full", "status.agentStatus[0].conditions[1].lastTransitionTime"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := MemberCluster(full())
			c.break_(u.Object)
			_, err := MemberFactsFrom(u)
			if err == nil {
				t.Fatal("no error")
			}
			var e *MemberError
			if !errors.As(err, &e) {
				t.Fatalf("%T %v, want an *Error", err, err)
			}
			if e.Member != c.member || e.Field != c.field {
				t.Errorf("error names member %q field %q, want %q %q: %v", e.Member, e.Field, c.member, c.field, err)
			}
			if c.member != "" && !strings.Contains(err.Error(), `"`+c.member+`"`) {
				t.Errorf("the message does not name the member: %v", err)
			}
			t.Log(err)
		})
	}
	if _, err := MemberFactsFrom(nil); err == nil {
		t.Error("nil object: no error")
	}
	if _, err := MemberFactsFrom(&unstructured.Unstructured{}); err == nil {
		t.Error("empty object: no error")
	}
}

// TestLenient: what Fleet's scheduler does not read, or reads leniently,
// FactsFrom does too.
func TestLenient(t *testing.T) {
	read := func(t *testing.T, change func(o map[string]any)) MemberFacts {
		t.Helper()
		u := MemberCluster(full())
		change(u.Object)
		f, err := MemberFactsFrom(u)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	t.Run("no apiVersion or kind (a list's item)", func(t *testing.T) {
		read(t, func(o map[string]any) { delete(o, "apiVersion"); delete(o, "kind") })
	})
	t.Run("v1beta1", func(t *testing.T) {
		read(t, func(o map[string]any) { o["apiVersion"] = MemberClusterGroup + "/v1beta1" })
	})
	t.Run("null deletionTimestamp is not leaving", func(t *testing.T) {
		if f := read(t, func(o map[string]any) { setPath(o, nil, "metadata", "deletionTimestamp") }); f.Agent.Leaving {
			t.Error("leaving")
		}
	})
	t.Run("zero deletionTimestamp is not leaving, as metav1.Time reads it", func(t *testing.T) {
		if f := read(t, func(o map[string]any) { setPath(o, "0001-01-01T00:00:00Z", "metadata", "deletionTimestamp") }); f.Agent.Leaving {
			t.Error("leaving")
		}
	})
	t.Run("other agents and garbage in conditions Fleet does not read", func(t *testing.T) {
		f := read(t, func(o map[string]any) {
			agents := o["status"].(map[string]any)["agentStatus"].([]any)
			mine := agents[0].(map[string]any)
			conds := mine["conditions"].([]any)
			mine["conditions"] = append(conds,
				map[string]any{"type": AgentConditionHealthy, "status": "bogus"}, // a second Healthy: Fleet reads the first
				map[string]any{"type": "Other", "status": "whatever", "lastTransitionTime": 7})
			o["status"].(map[string]any)["agentStatus"] = []any{
				map[string]any{"type": "ServiceExportImportAgent", "lastReceivedHeartbeat": "garbage"},
				mine,
				map[string]any{"type": AgentTypeMember}, // a second MemberAgent: Fleet reads the first
			}
		})
		if want := full().Agent; f.Agent != want {
			t.Errorf("agent %+v, want %+v", f.Agent, want)
		}
	})
	t.Run("no conditions: present, not joined", func(t *testing.T) {
		f := read(t, func(o map[string]any) { setPath(o, nil, "status", "agentStatus", 0, "conditions") })
		if !f.Agent.Present || f.Agent.Joined || f.Agent.Healthy != "" {
			t.Errorf("agent %+v", f.Agent)
		}
	})
	t.Run("Joined Unknown is not joined", func(t *testing.T) {
		if f := read(t, func(o map[string]any) { setPath(o, "Unknown", "status", "agentStatus", 0, "conditions", 0, "status") }); f.Agent.Joined {
			t.Error("joined")
		}
	})
	t.Run("times with offsets are read in UTC", func(t *testing.T) {
		f := read(t, func(o map[string]any) {
			setPath(o, "2026-11-21T13:00:00.5+01:00", "status", "agentStatus", 0, "lastReceivedHeartbeat")
		})
		if want := now.Add(500 * time.Millisecond); f.Agent.LastHeartbeat != want {
			t.Errorf("heartbeat %v, want %v", f.Agent.LastHeartbeat, want)
		}
	})
}

// FuzzMemberFactsFrom: whatever JSON object a server sends, FactsFrom answers
// without panicking, and an error always names a field.
func FuzzMemberFactsFrom(f *testing.F) {
	for _, c := range []*fleet.Cluster{full(), {Name: "bare"}} {
		b, err := json.Marshal(MemberCluster(c))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"MemberCluster","metadata":{"name":"x"},"status":{"agentStatus":[{"type":"MemberAgent","conditions":[{"type":"Healthy","status":"True","lastTransitionTime":null}]}]}}`))
	f.Add([]byte(`{"metadata":{"name":"x","labels":null},"spec":null,"status":{"resourceUsage":{"capacity":{"cpu":1e400}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var obj map[string]any
		if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
			return
		}
		_, err := MemberFactsFrom(&unstructured.Unstructured{Object: obj})
		var e *MemberError
		if err != nil && (!errors.As(err, &e) || e.Msg == "") {
			t.Fatalf("error %v is not a described *Error", err)
		}
		u := &unstructured.Unstructured{}
		if u.UnmarshalJSON(data) == nil {
			_, _ = MemberFactsFrom(u)
		}
	})
}
