package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Every key of a hand-written configuration is checked (designs/schema.md
// §1): a misspelt key in any structure — the YAML spelling of the Fleet and
// NAP documents included — is an error at validate, from the CLI itself,
// naming the key and, where one is close (Terraform suggests within an edit
// distance of 3), the right spelling. The first six
// cases are the slips that used to pass silently as wrong policy.
func TestAccMisspeltKeysAreErrors(t *testing.T) {
	cfg := providerConfig(t, "")
	placement := func(body string) string {
		return `resource "aks_fleet_placement" "t" {
  name = "t"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
` + body + "\n}\n"
	}
	pool := func(template, body string) string {
		return `resource "aks_nap_nodepool" "t" {
  cluster = "aks-east-prod-01"
  name    = "t"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
` + template + `
  }
` + body + "\n}\n"
	}
	run := func(body string) string {
		return `resource "aks_fleet_update_run" "t" {
  name = "t"
  upgrade {
    type = "NodeImageOnly"
  }
` + body + "\n}\n"
	}
	cases := []struct {
		name, config, key, suggestion string
	}{
		{"topology_spread_constraints", placement(`policy {
  placement_type     = "PickN"
  number_of_clusters = 2
  topology_spread_constraints {
    topology_key      = "region"
    maxSkew           = 2
    whenUnsatisfiable = "ScheduleAnyway"
  }
}`), "maxSkew", "max_skew"},
		{"rolling_update", placement(`strategy {
  rolling_update {
    maxUnavailable = "100%"
  }
}`), "maxUnavailable", "max_unavailable"},
		{"disruption", pool("", `disruption {
  consolidationPolicy = "WhenEmpty"
  consolidate_after   = "1m"
}`), "consolidationPolicy", "consolidation_policy"},
		{"disruption.expireAfter", pool("", `disruption {
  expireAfter       = "168h"
  consolidate_after = "1m"
}`), "expireAfter", ""},
		{"budgets", pool("", `disruption {
  consolidate_after = "1m"
  budgets {
    node     = "0"
    schedule = "@daily"
    duration = "10m"
  }
}`), "node", "nodes"},
		{"template", pool(`terminationGracePeriod = "48h"`, ""), "terminationGracePeriod", ""},
		{"policy", placement(`policy {
  placementType = "PickAll"
}`), "placementType", "placement_type"},
		{"affinity", placement(`policy {
  affinity {
    requiredDuringSchedulingIgnoredDuringExecution {
    }
  }
}`), "requiredDuringSchedulingIgnoredDuringExecution", ""},
		{"label_selector", placement(`policy {
  affinity {
    required {
      label_selector {
        matchLabels = { env = "prod" }
      }
    }
  }
}`), "matchLabels", "match_labels"},
		{"property_selector", placement(`policy {
  affinity {
    required {
      property_selector {
        match_expressions {
          name     = "kubernetes-fleet.io/node-count"
          operator = "Ge"
          value    = ["5"]
        }
      }
    }
  }
}`), "value", "values"},
		{"preference", placement(`policy {
  placement_type     = "PickN"
  number_of_clusters = 1
  affinity {
    preferred {
      weight = 10
      preference {
        property_sorter {
          name      = "resources.kubernetes-fleet.io/available-cpu"
          sortOrder = "Descending"
        }
      }
    }
  }
}`), "sortOrder", "sort_order"},
		{"tolerations", placement(`policy {
  tolerations {
    key    = "dedicated"
    efect  = "NoSchedule"
  }
}`), "efect", "effect"},
		{"resource_selectors", `resource "aks_fleet_placement" "t" {
  name = "t"
  resource_selectors {
    version = "v1"
    Kind    = "Namespace"
  }
}`, "Kind", "kind"},
		{"requirements", pool(`requirements {
  key       = "karpenter.sh/capacity-type"
  operator  = "In"
  values    = ["spot"]
  minValues = 1
}`, ""), "minValues", "min_values"},
		{"taints", pool(`taints {
  key    = "gpu"
  efect  = "NoSchedule"
}`, ""), "efect", "effect"},
		{"node_class_ref", `resource "aks_nap_nodepool" "t" {
  cluster = "aks-east-prod-01"
  name    = "t"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      nmae  = "default"
    }
  }
}`, "nmae", "name"},
		{"stages", `resource "aks_fleet_update_strategy" "t" {
  name = "t"
  stages {
    name = "one"
    afterStageWaitInSeconds = 60
    groups {
      name = "canary"
    }
  }
}`, "afterStageWaitInSeconds", ""},
		{"groups", `resource "aks_fleet_update_strategy" "t" {
  name = "t"
  stages {
    name = "one"
    groups {
      name           = "canary"
      maxConcurrency = "2"
    }
  }
}`, "maxConcurrency", "max_concurrency"},
		{"gates", `resource "aks_fleet_update_strategy" "t" {
  name = "t"
  stages {
    name = "one"
    groups {
      name = "canary"
    }
    before_gates {
      displayName = "CAB"
    }
  }
}`, "displayName", "display_name"},
		{"upgrade", `resource "aks_fleet_update_run" "t" {
  name = "t"
  upgrade {
    type              = "Full"
    kubernetesVersion = "1.33.2"
  }
}`, "kubernetesVersion", "kubernetes_version"},
		{"node_image_selection", run(`node_image_selection {
  typ = "Latest"
}`), "typ", "type"},
		{"skip", run(`skip {
  type  = "Member"
  namee = "aks-east-gpu-01"
}`), "namee", "name"},
		{"timeouts", run(`timeouts {
  creat = "10m"
}`), "creat", "create"},
		{"disruption_preview.budgets", `data "aks_nap_disruption_preview" "t" {
  nodes = 10
  budgets {
    nodes    = "0"
    schedule = "@daily"
    duraton  = "10m"
  }
}`, "duraton", "duration"},
		{"member_clusters.label_selector", `data "aks_fleet_member_clusters" "t" {
  label_selector {
    match_label = { env = "prod" }
  }
}`, "match_label", "match_labels"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := `An argument named "` + c.key + `" is not expected here`
			if strings.HasPrefix(c.key, "requiredDuring") {
				want = `Blocks of type "` + c.key + `" are not expected here`
			}
			if c.suggestion != "" {
				want += `. Did you mean "` + c.suggestion + `"\?`
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
				Config: cfg + c.config, PlanOnly: true,
				ExpectError: regexp.MustCompile(strings.ReplaceAll(want, " ", `\s+`)),
			}}})
		})
	}
}

// The provider's own blocks are checked as strictly (mock here; azure in
// hub_azure_test.go's configurations).
func TestAccMisspeltProviderKeysAreErrors(t *testing.T) {
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: `provider "aks" {
  mock {
    clock_tme = "2026-11-21T12:00:00Z"
  }
}
data "aks_fleet_member_clusters" "all" {}
`, PlanOnly: true,
		ExpectError: regexp.MustCompile(`An\s+argument\s+named\s+"clock_tme"\s+is\s+not\s+expected\s+here.\s+Did\s+you\s+mean\s+"clock_time"\?`),
	}, {
		Config: `provider "aks" {
  azure {
    fleet_name = "f"
    hub_cluster {
      kubeconfig = "~/.kube/config"
    }
  }
}
data "aks_fleet_member_clusters" "all" {}
`, PlanOnly: true,
		ExpectError: regexp.MustCompile(`An\s+argument\s+named\s+"kubeconfig"\s+is\s+not\s+expected\s+here`),
	}}})
}

// A value of the wrong type inside a block is named by Terraform itself
// (with a nested attribute it said only "a number is required").
func TestAccWrongTypeInABlockNamesTheAttribute(t *testing.T) {
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: providerConfig(t, "") + `resource "aks_fleet_update_strategy" "t" {
  name = "t"
  stages {
    name                        = "one"
    after_stage_wait_in_seconds = "1h"
    groups { name = "canary" }
  }
}`, PlanOnly: true,
		ExpectError: regexp.MustCompile(`Inappropriate\s+value\s+for\s+attribute\s+"after_stage_wait_in_seconds":\s+a\s+number\s+is\s+required`),
	}}})
}
