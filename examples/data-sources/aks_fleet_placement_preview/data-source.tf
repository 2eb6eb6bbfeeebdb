# What would a PickN of the two cheapest production clusters pick today, and
# which clusters are left out, and why?
data "aks_fleet_placement_preview" "cheap_prod" {
  policy {
    placement_type     = "PickN"
    number_of_clusters = 2
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
            name       = "kubernetes.azure.com/per-cpu-core-cost"
            sort_order = "Ascending"
          }
        }
      }
    }
  }
  # What if the placement already held this cluster? Held clusters stay held.
  held_clusters = ["aks-weu-prod-02"]
  preview_limit = 5
}

output "picked" {
  value = [for d in data.aks_fleet_placement_preview.cheap_prod.preview.decisions : d.cluster_name if d.selected]
}

output "left_out" {
  value = data.aks_fleet_placement_preview.cheap_prod.preview.left_out_counts
}

# A placement held to its reviewed preview: read at plan, the preview is kept
# in the plan file; applied after the fleet changed so that Fleet would pick
# other clusters, the placement refuses and asks for a new plan. The data
# source takes the placement's policy block as written (a policy that differs
# is refused at apply, naming what differs).
data "aks_fleet_placement_preview" "batch" {
  name = "batch"
  policy {
    placement_type     = "PickN"
    number_of_clusters = 2
    affinity {
      preferred {
        weight = 100
        preference {
          property_sorter {
            name       = "kubernetes.azure.com/per-cpu-core-cost"
            sort_order = "Ascending"
          }
        }
      }
    }
  }
}

resource "aks_fleet_placement" "batch" {
  name = "batch"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "batch"
  }
  policy {
    placement_type     = "PickN"
    number_of_clusters = 2
    affinity {
      preferred {
        weight = 100
        preference {
          property_sorter {
            name       = "kubernetes.azure.com/per-cpu-core-cost"
            sort_order = "Ascending"
          }
        }
      }
    }
  }
  reviewed_preview = data.aks_fleet_placement_preview.batch.review
}
