# Every cluster a placement holds, with the scores each was picked with — the
# placement's status counts them; this lists them, for modules that act on
# each cluster. Referencing the placement's name makes Terraform read it
# after the placement is applied.
resource "aks_fleet_placement" "web" {
  name = "web"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
  policy {
    affinity {
      required {
        label_selector {
          match_labels = { env = "prod" }
        }
      }
    }
  }
}

data "aks_fleet_placement" "web" {
  name = aks_fleet_placement.web.name
}

output "web_clusters" {
  value = data.aks_fleet_placement.web.selected_clusters
}

output "web_left_out" {
  value = { for d in data.aks_fleet_placement.web.decisions : d.cluster_name => d.reason if !d.selected }
}

# Where the placement's resources stand on each cluster, as Fleet reports it.
output "web_not_available" {
  value = {
    for s in data.aks_fleet_placement.web.placement_statuses : s.cluster_name => s.conditions[length(s.conditions) - 1].reason
    if s.conditions[length(s.conditions) - 1].type != "Available"
  }
}

output "web_resources" {
  value = data.aks_fleet_placement.web.selected_resources
}
