# Quickstart: explore the built-in sample fleet of the embedded mock hub.
# `make demo` plans and applies this with the provider built from source.
terraform {
  required_providers {
    aks = {
      source = "fleetform/aks"
    }
  }
}

# No configuration: the embedded mock hub with its built-in sample fleet
# (twelve clusters in three regions). Point mock.fleet_file at your own
# inventory to simulate your fleet.
provider "aks" {}

# Every member cluster, with all the facts the hub knows about it.
data "aks_fleet_member_clusters" "all" {}

# Candidates for a production workload: eligible prod clusters with at least
# five nodes and more than 8 cores available.
data "aks_fleet_member_clusters" "prod_candidates" {
  eligible_only = true
  label_selector {
    match_labels = { env = "prod" }
  }
  property_selector {
    match_expressions {
      name     = "kubernetes-fleet.io/node-count"
      operator = "Ge"
      values   = ["5"]
    }
    match_expressions {
      name     = "resources.kubernetes-fleet.io/available-cpu"
      operator = "Gt"
      values   = ["8"]
    }
  }
}

# Place the "web" namespace on the three production clusters with the most
# available CPU. `terraform plan` shows the scheduler's decisions before
# anything is applied; the preview data source keeps them in the plan, and
# the placement holds to them: applied later, after the fleet changed so that
# Fleet would pick other clusters, it refuses and asks for a new plan. The
# data source takes the placement's policy block as written; should the two
# differ, apply refuses the review and says what differs.
data "aks_fleet_placement_preview" "web" {
  name = "web"
  policy {
    placement_type     = "PickN"
    number_of_clusters = 3
    affinity {
      required {
        label_selector {
          match_labels = { env = "prod" }
        }
      }
      preferred {
        weight = 100
        preference {
          property_sorter {
            name       = "resources.kubernetes-fleet.io/available-cpu"
            sort_order = "Descending"
          }
        }
      }
    }
  }
}

resource "aks_fleet_placement" "web" {
  name = "web"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
  policy {
    placement_type     = "PickN"
    number_of_clusters = 3
    affinity {
      required {
        label_selector {
          match_labels = { env = "prod" }
        }
      }
      preferred {
        weight = 100
        preference {
          property_sorter {
            name       = "resources.kubernetes-fleet.io/available-cpu"
            sort_order = "Descending"
          }
        }
      }
    }
  }
  reviewed_preview = data.aks_fleet_placement_preview.web.review
}

# What the hub holds once the placement is applied.
data "aks_fleet_placement" "web" {
  name = aks_fleet_placement.web.name
}

# Node Auto Provisioning on one member: no disruption during weekday business hours.
resource "aks_nap_nodepool" "default" {
  cluster = "aks-east-prod-01"
  name    = "default"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
    requirements {
      key      = "karpenter.azure.com/sku-family"
      operator = "In"
      values   = ["D", "E"]
    }
  }
  disruption {
    consolidate_after = "5m"
    budgets {
      nodes = "10%"
    }
    budgets {
      nodes    = "0"
      schedule = "0 9 * * 1-5"
      duration = "8h"
    }
  }
}

output "web_placement" {
  description = "What the scheduler decided: one line per cluster, selected and the best left out."
  value       = { for d in data.aks_fleet_placement.web.decisions : d.cluster_name => d.selected ? "selected" : d.reason }
}

output "web_clusters" {
  description = "The clusters the hub holds for the web placement."
  value       = data.aks_fleet_placement.web.selected_clusters
}


output "fleet" {
  description = "Member clusters by region."
  value = {
    for c in data.aks_fleet_member_clusters.all.clusters : c.region => c.name...
  }
}

output "not_eligible" {
  description = "Clusters the Fleet scheduler would leave out, and why."
  value = {
    for c in data.aks_fleet_member_clusters.all.clusters : c.name => c.ineligible_reason if !c.eligible
  }
}

output "tainted" {
  description = "Clusters a placement must tolerate explicitly."
  value = {
    for c in data.aks_fleet_member_clusters.all.clusters : c.name => [for t in c.taints : "${t.key}=${t.value}:${t.effect}"] if length(c.taints) > 0
  }
}

output "prod_candidates" {
  description = "Eligible prod clusters with at least 5 nodes and more than 8 available cores."
  value       = data.aks_fleet_member_clusters.prod_candidates.names
}

# An upgrade to Kubernetes 1.33.2, region by region, West Europe first, with
# an hour between regions: examples/modules/regional-rollout builds the
# strategy and the run from the member clusters. Its `rollout` output shows,
# at plan, every member's fate: upgraded, skipped as already up to date,
# pending until its maintenance window opens or 1.33.2 reaches its region.
module "rollout" {
  source        = "../modules/regional-rollout"
  name          = "quickstart-1-33"
  upgrade       = { type = "Full", kubernetes_version = "1.33.2" }
  canary_region = "westeurope"
}

output "rollout" {
  description = "The update run's rollout, one line per member."
  value       = module.rollout.rollout
}

output "rollout_summary" {
  description = "Totals and the estimated duration of the rollout."
  value       = module.rollout.summary
}

# Auto-upgrade, previewed before it is switched on: what the Rapid channel
# resolves to today, what its run would do to each member, and which members
# it would leave behind (more than one minor behind, or outside the supported
# minors) with the manual upgrades that bring them back. Disabled: it
# triggers nothing until `disabled = false`.
data "aks_fleet_autoupgrade_preview" "rapid" {
  name     = "rapid"
  channel  = "Rapid"
  disabled = true
}

resource "aks_fleet_autoupgrade_profile" "rapid" {
  name     = "rapid"
  channel  = "Rapid"
  disabled = true
}

output "autoupgrade_rapid" {
  description = "The Kubernetes version the Rapid channel resolves to now."
  value       = data.aks_fleet_autoupgrade_preview.rapid.kubernetes_version
}

output "autoupgrade_left_behind" {
  description = "Members the Rapid profile would never move, and how to bring them back."
  value       = data.aks_fleet_autoupgrade_preview.rapid.left_behind
}
