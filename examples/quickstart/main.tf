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
  label_selector = {
    match_labels = { env = "prod" }
  }
  property_selector = {
    match_expressions = [
      { name = "kubernetes-fleet.io/node-count", operator = "Ge", values = ["5"] },
      { name = "resources.kubernetes-fleet.io/available-cpu", operator = "Gt", values = ["8"] },
    ]
  }
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
