package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Every validation rule of designs/placement.md §2 fails at plan, naming the attribute.
func TestAccPlacement_validation(t *testing.T) {
	cfg := providerConfig(t, "")
	sel := `[{ version = "v1", kind = "Namespace", name = "web" }]`
	placementWith := func(name, selectors, body string) string {
		return cfg + `
resource "aks_fleet_placement" "test" {
  name               = "` + name + `"
` + blocksOf("resource_selectors", strings.TrimSuffix(strings.TrimPrefix(selectors, "["), "]")) + `
` + body + `
}`
	}
	policy := func(p string) string { return placementWith("app", sel, "  policy {\n"+p+"\n  }") }
	term := func(t string) string {
		return policy(`placement_type = "PickN"
number_of_clusters = 2
affinity {
` + blocksOf("required", t) + `
}`)
	}
	preferred := func(p string) string {
		return policy(`placement_type = "PickN"
number_of_clusters = 2
affinity {
` + blocksOf("preferred", p) + `
}`)
	}
	cases := []struct{ config, want string }{
		{placementWith("Web_1", sel, ""), `name: "Web_1" is not a DNS-1035 label`},
		{placementWith("app", "[]", ""), `resource_selectors: at least one resource_selectors block is required here. Add one: resource_selectors { … }.`},
		{placementWith("app", `[{ version = "v1", kind = "Namespace", name = "a", label_selector {
  match_labels = { a = "b" }
} }]`, ""),
			`resource_selectors[0].label_selector: name and label_selector are mutually exclusive`},
		{policy(`placement_type = "PickSome"`), `policy.placement_type: "PickSome" is not a placement type`},
		// PickFixed: only cluster names.
		{policy(`placement_type = "PickFixed"
cluster_names = ["aks-east-prod-01"]
number_of_clusters = 1`), `policy.number_of_clusters: number_of_clusters cannot be set for placement_type PickFixed`},
		{policy(`placement_type = "PickFixed"
cluster_names = ["aks-east-prod-01"]
tolerations {
  key = "a"
  operator = "Exists"
}`), `policy.tolerations: tolerations cannot be set for placement_type PickFixed`},
		// Fleet admits a dotted name (a DNS subdomain) but fails every cycle
		// that binds it (uniquename.NewBindingName needs a DNS label): issue 9 item 5.
		{policy(`placement_type = "PickFixed"
cluster_names = ["aks.east"]`), `policy.cluster_names[0]: "aks.east" is not a valid cluster name: Fleet admits a dotted name, but its scheduler names the cluster's binding after it as a DNS label, so every scheduling cycle that places on this cluster fails. Use the member cluster's name`},
		{policy(`placement_type = "PickFixed"
cluster_names = ["a", "a"]`), `policy.cluster_names[1]: cluster "a" is already listed at index 0`},
		{policy(`placement_type = "PickFixed"
cluster_names = ["Not_A_Name"]`), `policy.cluster_names[0]: "Not_A_Name" is not a valid cluster name`},
		// PickAll.
		{policy(`cluster_names = ["a"]`), `policy.cluster_names: cluster_names cannot be set for placement_type PickAll`},
		{policy(`number_of_clusters = 2`), `policy.number_of_clusters: number_of_clusters cannot be set for placement_type PickAll`},
		{policy(`affinity {
  preferred {
    weight = 10
    preference {
      label_selector {
        match_labels = { a = "b" }
      }
    }
  }
}`),
			`policy.affinity.preferred: preferred affinity is ignored for PickAll`},
		{policy(`topology_spread_constraints {
  topology_key = "region"
}`),
			`policy.topology_spread_constraints: topology_spread_constraints cannot be set for placement_type PickAll`},
		// PickN.
		{policy(`placement_type = "PickN"`), `policy.number_of_clusters: number_of_clusters is required for PickN`},
		{policy(`placement_type = "PickN"
number_of_clusters = -1`), `policy.number_of_clusters: number_of_clusters must be between 0 and 2147483647`},
		// Fleet's numberOfClusters is an int32 (the CRD's format int32): a
		// whole number beyond it is named with its range (issue 9 item 12).
		{policy(`placement_type = "PickN"
number_of_clusters = 3000000000`), `policy.number_of_clusters: number_of_clusters must be between 0 and 2147483647 (numberOfClusters is a 32-bit integer in Fleet's API), got 3000000000. Use a whole number from 0 to 2147483647`},
		{policy(`placement_type = "PickN"
number_of_clusters = 1
cluster_names = ["a"]`), `policy.cluster_names: cluster_names cannot be set for placement_type PickN`},
		// Required terms.
		{policy(`placement_type = "PickN"
number_of_clusters = 1
affinity {
  required {}
  required {}
  required {}
  required {}
  required {}
  required {}
  required {}
  required {}
  required {}
  required {}
  required {}
}`), `policy.affinity.required: at most 10 required terms are allowed, got 11`},
		{term(`{ property_sorter {
  name = "kubernetes-fleet.io/node-count"
  sort_order = "Descending"
} }`),
			`policy.affinity.required[0].property_sorter: a required term cannot have a property_sorter`},
		{term(`{ property_selector {
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Gte"
    values = ["5"]
  }
} }`),
			`policy.affinity.required[0].property_selector.match_expressions[0].operator: "Gte" is not a property selector operator`},
		{term(`{ property_selector {
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Gt"
    values = ["5", "6"]
  }
} }`),
			`policy.affinity.required[0].property_selector.match_expressions[0].values: operator Gt takes exactly one value, got 2`},
		{term(`{ property_selector {
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Gt"
    values = ["five"]
  }
} }`),
			`policy.affinity.required[0].property_selector.match_expressions[0].values[0]: "five" is not a quantity`},
		{term(`{ property_selector {
  match_expressions {
    name = "resources.kubernetes-fleet.io/spare-cpu"
    operator = "Gt"
    values = ["1"]
  }
} }`),
			`policy.affinity.required[0].property_selector.match_expressions[0].name: "resources.kubernetes-fleet.io/spare-cpu" is not a valid resource property name`},
		{term(`{ property_selector {
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Eq"
    values = ["3"]
  }
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Eq"
    values = ["4"]
  }
} }`), `policy.affinity.required[0].property_selector.match_expressions[1]: property "kubernetes-fleet.io/node-count" cannot equal both 3 (expression 0) and 4`},
		{term(`{ property_selector {
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Eq"
    values = ["3"]
  }
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Ne"
    values = ["3"]
  }
} }`), `policy.affinity.required[0].property_selector.match_expressions[1]: property "kubernetes-fleet.io/node-count" cannot be Eq and Ne 3 at once`},
		{term(`{ property_selector {
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
} }`), `policy.affinity.required[0].property_selector.match_expressions[1]: property "kubernetes-fleet.io/node-count" has an empty range`},
		{term(`{ property_selector {
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Eq"
    values = ["3"]
  }
  match_expressions {
    name = "kubernetes-fleet.io/node-count"
    operator = "Ge"
    values = ["4"]
  }
} }`), `policy.affinity.required[0].property_selector.match_expressions[0]: property "kubernetes-fleet.io/node-count": Eq 3 lies outside the lower bound`},
		{term(`{ label_selector {
  match_expressions {
    key = "env"
    operator = "In"
  }
} }`),
			`policy.affinity.required[0].label_selector.match_expressions[0].values: operator In needs at least one value`},
		// Preferred terms.
		{preferred(`{ weight = 101, preference {} }`), `policy.affinity.preferred[0].weight: weight must be between -100 and 100, got 101`},
		{preferred(`{ weight = 10, preference {
  property_selector {
    match_expressions {
      name = "a"
      operator = "Gt"
      values = ["1"]
    }
  }
} }`),
			`policy.affinity.preferred[0].preference.property_selector: a preferred term cannot have a property_selector`},
		{preferred(`{ weight = 10, preference {
  property_sorter {
    name = "kubernetes-fleet.io/node-count"
    sort_order = "Up"
  }
} }`),
			`policy.affinity.preferred[0].preference.property_sorter.sort_order: "Up" is not a sort order`},
		// Tolerations.
		{policy(`tolerations {
  key = "a"
  operator = "Exists"
  value = "b"
}`), `policy.tolerations[0].value: operator Exists takes no value`},
		{policy(`tolerations {
  value = "b"
}`), `policy.tolerations[0].key: operator Equal needs a key`},
		{policy(`tolerations {
  key = "a"
  value = "not a label value!"
}`), `policy.tolerations[0].value: "not a label value!" is not a valid taint value`},
		{policy(`tolerations {
  key = "a"
  operator = "Is"
}`), `policy.tolerations[0].operator: "Is" is not a toleration operator`},
		{policy(`tolerations {
  key = "a"
  value = "b"
  effect = "NoExecute"
}`), `policy.tolerations[0].effect: "NoExecute" is not a taint effect`},
		{policy(`tolerations {
  key = "a"
  value = "b"
}
tolerations {
  key = "a"
  value = "b"
}`), `policy.tolerations[1]: toleration a=b (Equal) is already listed at index 0`},
		// Topology spread.
		{policy(`placement_type = "PickN"
number_of_clusters = 2
topology_spread_constraints {
  topology_key = "region"
  max_skew = 0
}`), `policy.topology_spread_constraints[0].max_skew: max_skew must be between 1 and 2147483647`},
		{policy(`placement_type = "PickN"
number_of_clusters = 2
topology_spread_constraints {
  topology_key = "region"
  when_unsatisfiable = "Sometimes"
}`), `policy.topology_spread_constraints[0].when_unsatisfiable: "Sometimes" is not a whenUnsatisfiable value`},
		// Rollout.
		{placementWith("app", sel, `strategy {
  rolling_update {
    max_unavailable = "150%"
  }
}`), `strategy.rolling_update.max_unavailable: "150%" is not an integer or a percentage`},
		{placementWith("app", sel, `strategy {
  type = "External"
  rolling_update {
    max_surge = "1"
  }
}`), `strategy.rolling_update: rolling_update cannot be set with type External`},
		{placementWith("app", sel, `revision_history_limit = 0`), `revision_history_limit: must be between 1 and 1000, got 0`},
	}
	steps := make([]resource.TestStep, len(cases))
	for i, c := range cases {
		steps[i] = resource.TestStep{Config: c.config, ExpectError: expectError(c.want), PlanOnly: true}
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: steps})
}
