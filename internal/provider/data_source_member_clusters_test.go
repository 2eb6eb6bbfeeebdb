package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const dsAddr = "data.aks_fleet_member_clusters.test"

func expectNames(names ...string) statecheck.StateCheck {
	vals := make([]knownvalue.Check, len(names))
	for i, n := range names {
		vals[i] = knownvalue.StringExact(n)
	}
	return statecheck.ExpectKnownValue(dsAddr, tfjsonpath.New("names"), knownvalue.ListExact(vals))
}

func TestAccMemberClusters_filters(t *testing.T) {
	cfg := providerConfig(t, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg + `data "aks_fleet_member_clusters" "test" {}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(dsAddr, tfjsonpath.New("names"), knownvalue.ListSizeExact(12)),
				},
			},
			{
				// Label filter.
				Config: cfg + `data "aks_fleet_member_clusters" "test" {
  label_selector {
    match_labels      = { env = "prod" }
    match_expressions {
      key = "region"
      operator = "In"
      values = ["east", "asia"]
    }
  }
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					expectNames("aks-east-gpu-01", "aks-east-prod-01", "aks-east-prod-02", "aks-sea-edge-01", "aks-sea-prod-01", "aks-sea-prod-02"),
				},
			},
			{
				// Ge on node count: the cluster that does not report node-count never matches.
				Config: cfg + `data "aks_fleet_member_clusters" "test" {
  property_selector {
    match_expressions {
      name = "kubernetes-fleet.io/node-count"
      operator = "Ge"
      values = ["5"]
    }
  }
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					expectNames("aks-east-gpu-01", "aks-east-prod-01", "aks-east-prod-02", "aks-sea-prod-01", "aks-sea-prod-02", "aks-weu-prod-01", "aks-weu-prod-02"),
				},
			},
			{
				// Gt "8" on available CPU, compared as quantities (8 is not > 8).
				Config: cfg + `data "aks_fleet_member_clusters" "test" {
  property_selector {
    match_expressions {
      name = "resources.kubernetes-fleet.io/available-cpu"
      operator = "Gt"
      values = ["8"]
    }
  }
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					expectNames("aks-east-dev-01", "aks-east-gpu-01", "aks-east-prod-01", "aks-east-prod-02", "aks-sea-prod-01", "aks-sea-prod-02", "aks-weu-prod-01", "aks-weu-stage-01"),
				},
			},
			{
				// A property some clusters lack: even Ge 0 leaves them out.
				Config: cfg + `data "aks_fleet_member_clusters" "test" {
  property_selector {
    match_expressions {
      name = "kubernetes-fleet.io/node-count"
      operator = "Ge"
      values = ["0"]
    }
  }
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(dsAddr, tfjsonpath.New("names"), knownvalue.ListSizeExact(11)),
					statecheck.ExpectKnownValue(dsAddr, tfjsonpath.New("names"), knownvalue.ListPartial(map[int]knownvalue.Check{
						6: knownvalue.StringExact("aks-sea-stage-01"), // aks-sea-edge-01 would sort before it
					})),
				},
			},
			{
				// eligible_only drops the cluster whose heartbeat is stale.
				Config: cfg + `data "aks_fleet_member_clusters" "test" {
  eligible_only  = true
  label_selector {
    match_labels = { env = "dev" }
  }
}`,
				ConfigStateChecks: []statecheck.StateCheck{expectNames("aks-east-dev-01")},
			},
			{
				Config: cfg + `data "aks_fleet_member_clusters" "test" {
  label_selector {
    match_labels = { env = "dev" }
  }
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					expectNames("aks-east-dev-01", "aks-weu-dev-01"),
					statecheck.ExpectKnownValue(dsAddr, tfjsonpath.New("clusters").AtSliceIndex(1).AtMapKey("eligible"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(dsAddr, tfjsonpath.New("clusters").AtSliceIndex(1).AtMapKey("ineligible_reason"), knownvalue.StringExact("not eligible: heartbeat older than 5m")),
					statecheck.ExpectKnownValue(dsAddr, tfjsonpath.New("clusters").AtSliceIndex(0).AtMapKey("ineligible_reason"), knownvalue.Null()),
				},
			},
		},
	})
}

// Every fact of a cluster is exposed.
func TestAccMemberClusters_facts(t *testing.T) {
	cfg := providerConfig(t, "")
	c := func(attr ...string) tfjsonpath.Path {
		p := tfjsonpath.New("clusters").AtSliceIndex(0)
		for _, a := range attr {
			p = p.AtMapKey(a)
		}
		return p
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: cfg + `data "aks_fleet_member_clusters" "test" {
  label_selector {
    match_labels = { "fleet.azure.com/member-name" = "aks-east-gpu-01" }
  }
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dsAddr, c("region"), knownvalue.StringExact("eastus")),
				statecheck.ExpectKnownValue(dsAddr, c("group"), knownvalue.StringExact("wave-2")),
				statecheck.ExpectKnownValue(dsAddr, c("resource_id"), knownvalue.StringExact("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-fleet-gpu/providers/Microsoft.ContainerService/managedClusters/aks-east-gpu-01")),
				statecheck.ExpectKnownValue(dsAddr, c("labels"), knownvalue.MapPartial(map[string]knownvalue.Check{
					"workload": knownvalue.StringExact("gpu"), "fleet.azure.com/location": knownvalue.StringExact("eastus"),
				})),
				statecheck.ExpectKnownValue(dsAddr, c("taints"), knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
					"key": knownvalue.StringExact("dedicated"), "value": knownvalue.StringExact("gpu"), "effect": knownvalue.StringExact("NoSchedule"),
				})})),
				statecheck.ExpectKnownValue(dsAddr, c("properties"), knownvalue.MapPartial(map[string]knownvalue.Check{
					"kubernetes.azure.com/vm-sizes/Standard_NC24ads_A100_v4/count": knownvalue.StringExact("4"),
				})),
				statecheck.ExpectKnownValue(dsAddr, c("resource_usage", "capacity"), knownvalue.MapExact(map[string]knownvalue.Check{
					"cpu": knownvalue.StringExact("120"), "memory": knownvalue.StringExact("880Gi"),
				})),
				statecheck.ExpectKnownValue(dsAddr, c("kubernetes_version"), knownvalue.StringExact("1.32.6")),
				statecheck.ExpectKnownValue(dsAddr, c("node_pools"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue(dsAddr, c("maintenance_window", "schedule", "type"), knownvalue.StringExact("RelativeMonthly")),
				statecheck.ExpectKnownValue(dsAddr, c("maintenance_window", "schedule", "week_index"), knownvalue.StringExact("First")),
				statecheck.ExpectKnownValue(dsAddr, c("maintenance_window", "duration_hours"), knownvalue.Int64Exact(8)),
				statecheck.ExpectKnownValue(dsAddr, c("agent", "last_heartbeat"), knownvalue.StringExact(testClock)),
				statecheck.ExpectKnownValue(dsAddr, c("agent", "healthy"), knownvalue.StringExact("True")),
				statecheck.ExpectKnownValue(dsAddr, c("eligible"), knownvalue.Bool(true)),
			},
		}},
	})
}

func TestAccMemberClusters_invalidSelectors(t *testing.T) {
	cfg := providerConfig(t, "")
	step := func(ps string, want string) resource.TestStep {
		return resource.TestStep{
			Config:      cfg + `data "aks_fleet_member_clusters" "test" {` + "\n" + ps + "\n}",
			ExpectError: expectError(want),
			PlanOnly:    true,
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			step(`property_selector {
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Gte"
    values = ["5"]
  }
}`,
				`property_selector.match_expressions[0].operator: "Gte" is not a property selector operator. Use one of Gt, Ge, Lt, Le, Eq, Ne.`),
			step(`property_selector {
  match_expressions {
    name = "resources.kubernetes-fleet.io/available-cpu"
    operator = "Gt"
    values = ["8", "16"]
  }
}`,
				`property_selector.match_expressions[0].values: operator Gt takes exactly one value, got 2.`),
			step(`property_selector {
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Ge"
    values = ["five"]
  }
}`,
				`property_selector.match_expressions[0].values[0]: "five" is not a quantity.`),
			step(`label_selector {
  match_expressions {
    key = "env"
    operator = "Equals"
    values = ["prod"]
  }
}`,
				`label_selector.match_expressions[0].operator: "Equals" is not a label selector operator.`),
			step(`property_selector {
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Gt"
    values = ["5"]
  }
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Lt"
    values = ["5"]
  }
}`, `property_selector.match_expressions[1]: property "kubernetes-fleet.io/node-count" has an empty range`),
		},
	})
}

func TestAccMemberClusters_fleetFile(t *testing.T) {
	good := writeFleet(t, `
regions: [{ name: eastus }]
clusters:
  - { name: one, region: eastus, labels: { env: prod } }
  - { name: two, region: eastus, agent: { healthy: false, unhealthy_for: 10m } }
`)
	bad := writeFleet(t, `
regions: [{ name: eastus }]
clusters:
  - name: one
    region: eastus
    resource_usage: { capacity: { cpu: lots } }
`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config:      providerConfig(t, bad) + `data "aks_fleet_member_clusters" "test" {}`,
				ExpectError: expectError(`fleet.yaml:5: clusters[0].resource_usage.capacity["cpu"]: "lots" is not a quantity.`),
			},
			{
				Config: providerConfig(t, good) + `data "aks_fleet_member_clusters" "test" {}`,
				ConfigStateChecks: []statecheck.StateCheck{
					expectNames("one", "two"),
					statecheck.ExpectKnownValue(dsAddr, tfjsonpath.New("clusters").AtSliceIndex(1).AtMapKey("ineligible_reason"), knownvalue.StringExact("not eligible: unhealthy for more than 5m")),
				},
			},
		},
	})
}

// Issue 9 item 13: the data source checks what the placement resource
// checks. A property selector on a property no cluster has is a warning that
// suggests similar names (the slip of Fleet Manager's documentation:
// kubernetes.azure.com/node-count for kubernetes-fleet.io/node-count); a
// property Fleet cannot read is an error on the expression, with the fix.
func TestMemberClustersPropertyDiagnostics(t *testing.T) {
	expr := func(name string) map[string]any {
		return map[string]any{"property_selector": map[string]any{"match_expressions": []any{
			map[string]any{"name": name, "operator": "Ge", "values": []any{"1"}}}}}
	}
	diags := protocolRead(t, "aks_fleet_member_clusters", expr("kubernetes.azure.com/node-count"))
	if errs := errorsOf(diags); len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	warnings := strings.Join(warningsOf(diags), "\n")
	for _, want := range []string{`property_selector.match_expressions[0].name: no cluster of the fleet has property "kubernetes.azure.com/node-count"`,
		"this expression is false for every cluster and the data source lists none", `did you mean "kubernetes-fleet.io/node-count"?`} {
		if !strings.Contains(warnings, want) {
			t.Errorf("warnings do not say %q:\n%s", want, warnings)
		}
	}
	if w := warningsOf(protocolRead(t, "aks_fleet_member_clusters", expr("kubernetes-fleet.io/node-count"))); len(w) > 0 {
		t.Errorf("a property the fleet has: warnings %v", w)
	}
	errs := strings.Join(errorsOf(protocolRead(t, "aks_fleet_member_clusters", expr("resources.kubernetes-fleet.io/total-ephemeral-storage"))), "\n")
	for _, want := range []string{`property_selector.match_expressions[0].name: property "resources.kubernetes-fleet.io/total-ephemeral-storage" cannot be read by Fleet's scheduler`,
		"or on a resource whose name has no '-'"} {
		if !strings.Contains(errs, want) {
			t.Errorf("error does not say %q:\n%s", want, errs)
		}
	}
}

// Issue 9 item 13: a held cluster of the what-if that is not a member is
// named with a warning (Fleet drops such a binding, so the preview ignores it).
func TestPlacementPreviewHeldClusterNotMember(t *testing.T) {
	diags := protocolRead(t, "aks_fleet_placement_preview", map[string]any{
		"policy":        map[string]any{"placement_type": "PickN", "number_of_clusters": 1},
		"held_clusters": []any{"aks-east-prod-01", "aks-gone-01"},
	})
	if errs := errorsOf(diags); len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := `held_clusters[1]: cluster "aks-gone-01" is not a member of the fleet, so the placement cannot hold it and the preview ignores it; check the name`
	if w := warningsOf(diags); len(w) != 1 || w[0] != want {
		t.Errorf("warnings %q, want %q", w, want)
	}
}
