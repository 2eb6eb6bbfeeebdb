package inventory

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"gopkg.in/yaml.v3"
)

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func TestSampleFleet(t *testing.T) {
	f, err := Parse(SampleName, Sample, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Clusters) != 12 || len(f.Regions) != 3 {
		t.Fatalf("sample fleet has %d clusters in %d regions", len(f.Clusters), len(f.Regions))
	}
	var tainted, ineligible, windows, nap int
	groups, versions := map[string]bool{}, map[string]bool{}
	for i := range f.Clusters {
		c := &f.Clusters[i]
		tainted += len(c.Taints)
		if !fleet.CheckEligibility(c, testNow).Eligible {
			ineligible++
		}
		if c.MaintenanceWindow != nil {
			windows++
		}
		nap += len(c.NAPNodes)
		groups[c.Group] = true
		versions[c.KubernetesVersion] = true
		if c.Labels[fleet.LabelMemberName] != c.Name || c.Labels[fleet.LabelLocation] != c.Region {
			t.Errorf("%s: automatic labels missing: %v", c.Name, c.Labels)
		}
	}
	if tainted != 1 || ineligible != 1 || windows < 5 || nap < 5 || len(groups) < 3 || len(versions) < 3 {
		t.Fatalf("sample fleet lacks variety: tainted=%d ineligible=%d windows=%d nap=%d groups=%v versions=%v", tainted, ineligible, windows, nap, groups, versions)
	}
	c, _ := f.Cluster("aks-weu-dev-01")
	if e := fleet.CheckEligibility(c, testNow); e.Reason != "not eligible: heartbeat older than 5m" {
		t.Fatalf("stale cluster: %+v", e)
	}
}

func TestInventoryErrorsNameFileLineAndField(t *testing.T) {
	const head = `regions:
  - name: eastus
clusters:
`
	cases := []struct {
		name string
		body string
		want string
	}{
		{"unknown field", "  - name: a\n    region: eastus\n    colour: blue\n", "fleet.yaml:6: field colour not found"},
		{"bad quantity", "  - name: a\n    region: eastus\n    resource_usage:\n      capacity: { cpu: twelve }\n", `fleet.yaml:7: clusters[0].resource_usage.capacity["cpu"]: "twelve" is not a quantity`},
		{"duplicate cluster", "  - name: a\n    region: eastus\n  - name: a\n    region: eastus\n", `fleet.yaml:6: clusters[1].name: duplicate cluster "a"`},
		{"unknown region", "  - name: a\n    region: mars\n", `fleet.yaml:5: clusters[0].region: unknown region "mars". Declare it under regions, or use one of: eastus`},
		{"bad maintenance window", "  - name: a\n    region: eastus\n    maintenance_window:\n      schedule: { weekly: { interval_weeks: 1, day_of_week: Funday } }\n      start_time: \"03:00\"\n      duration_hours: 2\n",
			`fleet.yaml:7: clusters[0].maintenance_window.schedule.weekly.day_of_week: "Funday" is not a day of the week`},
		{"short maintenance window", "  - name: a\n    region: eastus\n    maintenance_window:\n      schedule: { daily: { interval_days: 1 } }\n      start_time: \"03:00\"\n      duration_hours: 2\n",
			`fleet.yaml:9: clusters[0].maintenance_window.duration_hours: must be between 4 and 24, got 2`},
		{"wrong type", "  - name: a\n    region: eastus\n    node_pools: [{ name: p, node_count: many }]\n", "fleet.yaml:6: cannot unmarshal !!str `many` into int"},
		{"bad heartbeat", "  - name: a\n    region: eastus\n    agent: { heartbeat_age: yesterday }\n", `fleet.yaml:6: clusters[0].agent.heartbeat_age: "yesterday" is not a duration`},
		{"hub object kind in lower case", "  - name: a\n    region: eastus\nhub_cluster:\n  namespaces:\n    - name: web\n      objects: [{ kind: service, name: web }]\n",
			`fleet.yaml:9: hub_cluster.namespaces[0].objects[0].kind: "service" is not a kind`},
		{"hub object without a name", "  - name: a\n    region: eastus\nhub_cluster:\n  objects: [{ kind: ClusterRole }]\n",
			`fleet.yaml:7: hub_cluster.objects[0].name: a hub object needs a name`},
		{"empty envelope", "  - name: a\n    region: eastus\nhub_cluster:\n  namespaces:\n    - name: web\n      objects: [{ kind: ConfigMap, name: b, envelope: [] }]\n",
			`hub_cluster.namespaces[0].objects[0].envelope: an envelope carries no object`},
		{"a namespace the API server has", "  - name: a\n    region: eastus\nhub_cluster:\n  namespaces:\n    - name: default\n",
			`fleet.yaml:8: hub_cluster.namespaces[0].name: namespace default is the API server's own`},
		{"bad namespace name", "  - name: a\n    region: eastus\nhub_cluster:\n  namespaces:\n    - name: Shop_NS\n",
			`hub_cluster.namespaces[0].name: "Shop_NS" is not a valid name`},
		{"bad node expire_after", "  - name: a\n    region: eastus\n    nap_nodes:\n      - { name: n, nodepool: p, age: 2h, expire_after: 30d }\n",
			`fleet.yaml:7: clusters[0].nap_nodes[0].expire_after: "30d" is not a valid duration`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "fleet.yaml")
			if err := os.WriteFile(path, []byte(head+c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadFile(path, testNow)
			var ies Errors
			if !errors.As(err, &ies) {
				t.Fatalf("got %v (%T), want Errors", err, err)
			}
			got := strings.TrimPrefix(err.Error(), dir+string(filepath.Separator))
			if !strings.Contains(got, c.want) {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// A JSON inventory (a file named *.json) is read as strictly, every error
// with its line: keys are matched exactly, unknown and duplicate fields are
// refused, and a syntax error names where it is.
func TestInventoryJSONErrorsNameFileLineAndField(t *testing.T) {
	cases := []struct {
		name string
		body string
		want string
	}{
		{"unknown field", "{\n \"regions\": [{\"name\": \"eastus\"}],\n \"clusters\": [\n  {\"name\": \"a\", \"region\": \"eastus\",\n   \"colour\": \"blue\"}\n ]\n}\n",
			"fleet.json:5: field colour not found"},
		{"a key in another case", "{\"regions\": [{\"name\": \"eastus\"}],\n \"clusters\": [{\"Name\": \"a\", \"region\": \"eastus\"}]}\n",
			"fleet.json:2: field Name not found"},
		{"duplicate key", "{\"regions\": [{\"name\": \"eastus\", \"name\": \"westus\"}]}\n",
			`fleet.json:1: mapping key "name" already defined at line 1`},
		{"wrong type", "{\"regions\": [{\"name\": \"eastus\"}],\n \"clusters\": [{\"name\": \"a\", \"region\": \"eastus\",\n  \"node_pools\": [{\"name\": \"p\", \"node_count\": \"many\"}]}]}\n",
			"fleet.json:3: cannot unmarshal !!str `many` into int"},
		{"syntax", "{\"regions\": [{\"name\": \"eastus\"}],\n \"clusters\": [{\"name\": \"a\",, \"region\": \"eastus\"}]}\n",
			"fleet.json:2: not valid JSON: invalid character ','"},
		{"a rule of the inventory", "{\"regions\": [{\"name\": \"eastus\"}],\n \"clusters\": [\n  {\"name\": \"a\", \"region\": \"mars\"}]}\n",
			`fleet.json:3: clusters[0].region: unknown region "mars"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "fleet.json")
			if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadFile(path, testNow)
			var ie Error
			var ies Errors
			if !errors.As(err, &ies) && !errors.As(err, &ie) {
				t.Fatalf("got %v (%T), want inventory errors", err, err)
			}
			got := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			if !strings.Contains(got, c.want) {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// The same fleet in YAML and in JSON is the same fleet.
func TestInventoryJSONIsTheYAMLFleet(t *testing.T) {
	var doc any
	if err := yaml.Unmarshal(Sample, &doc); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err := Parse("sample.yaml", Sample, testNow)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := Parse("sample.json", js, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromYAML, fromJSON) {
		t.Fatal("the sample fleet reads differently as JSON")
	}
}

func TestInventoryRelativeTimes(t *testing.T) {
	f, err := Parse("x", []byte(`regions: [{name: r}]
clusters:
  - name: a
    region: r
    agent: { heartbeat_age: 10m, healthy: false, unhealthy_for: 1m }
    nap_nodes: [{ name: n, nodepool: default, age: 2h }]
  - name: b
    region: r
    agent: { last_heartbeat: "2026-11-21T11:59:00Z", present: true, joined: false }
`), testNow)
	if err != nil {
		t.Fatal(err)
	}
	a, b := f.Clusters[0], f.Clusters[1]
	if !a.Agent.LastHeartbeat.Equal(testNow.Add(-10*time.Minute)) || !a.Agent.HealthSince.Equal(testNow.Add(-time.Minute)) || a.Agent.Healthy != fleet.ConditionFalse {
		t.Fatalf("a agent: %+v", a.Agent)
	}
	if n := a.NAPNodes[0]; !n.CreatedAt.Equal(testNow.Add(-2*time.Hour)) || !n.Ready || n.Uninitialized || n.InstanceTerminating || n.ExpireAfter != "720h" {
		t.Fatalf("nap node (ready, initialized, the CRD's expireAfter): %+v", n)
	}
	if got := fleet.CheckEligibility(&b, testNow); got.Reason != "not eligible: member agent has not joined" {
		t.Fatalf("b: %+v", got)
	}
}

func TestEmptyInventory(t *testing.T) {
	f, err := Parse("empty", nil, testNow)
	if err != nil || len(f.Clusters) != 0 {
		t.Fatalf("%v %v", f, err)
	}
}
