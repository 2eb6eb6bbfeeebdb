# Eligible production clusters in the east with at least 5 nodes and more
# than 8 available CPU cores: the clusters a placement with the same required
# affinity could pick.
data "aks_fleet_member_clusters" "east_prod" {
  eligible_only = true

  label_selector {
    match_labels = { env = "prod" }
    match_expressions {
      key      = "region"
      operator = "In"
      values   = ["east"]
    }
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

output "east_prod" {
  value = data.aks_fleet_member_clusters.east_prod.names
}

# Why is a cluster not eligible?
data "aks_fleet_member_clusters" "all" {}

output "not_eligible" {
  value = {
    for c in data.aks_fleet_member_clusters.all.clusters : c.name => c.ineligible_reason if !c.eligible
  }
}
