# Every placement policy of the Fleet documentation, against the mock hub's
# sample fleet. `terraform plan` shows each one's decisions: the selected
# clusters with their scores, the best left out and why.

# PickAll: every eligible cluster with at least 5 nodes.
resource "aks_fleet_placement" "five_nodes" {
  name = "five-nodes"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
  policy {
    placement_type = "PickAll"
    affinity {
      required {
        property_selector {
          match_expressions {
            name     = "kubernetes-fleet.io/node-count"
            operator = "Ge"
            values   = ["5"]
          }
        }
      }
    }
  }
}

# PickAll: clusters labelled region=east that also have at least 5 nodes
# (label and property selectors in one term are AND'd).
resource "aks_fleet_placement" "east_five_nodes" {
  name = "east-five-nodes"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
  policy {
    affinity {
      required {
        label_selector {
          match_labels = { region = "east" }
        }
        property_selector {
          match_expressions {
            name     = "kubernetes-fleet.io/node-count"
            operator = "Ge"
            values   = ["5"]
          }
        }
      }
    }
  }
}

# PickN: the three clusters with the most available CPU.
resource "aks_fleet_placement" "most_cpu" {
  name = "most-cpu"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "batch"
  }
  policy {
    placement_type     = "PickN"
    number_of_clusters = 3
    affinity {
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

# PickN: the three clusters with the cheapest CPU cores. The plan lists at
# most 10 of the clusters left out (the rest are counted by reason), and the
# hub keeps 5 old resource snapshots.
resource "aks_fleet_placement" "cheapest_cpu" {
  name = "cheapest-cpu"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "batch"
  }
  preview_limit          = 10
  revision_history_limit = 5
  policy {
    placement_type     = "PickN"
    number_of_clusters = 3
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

# PickN with required and preferred affinity: production clusters only,
# gold-tier ones preferred. Equal scores go to the larger cluster name.
resource "aks_fleet_placement" "prod_gold" {
  name = "prod-gold"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "payments"
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
        weight = 20
        preference {
          label_selector {
            match_labels = { tier = "gold" }
          }
        }
      }
    }
  }
}

# PickN spread over regions (hard) and update days (soft).
resource "aks_fleet_placement" "spread" {
  name = "spread"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "frontend"
  }
  policy {
    placement_type     = "PickN"
    number_of_clusters = 6
    topology_spread_constraints {
      max_skew           = 2
      topology_key       = "region"
      when_unsatisfiable = "DoNotSchedule"
    }
    topology_spread_constraints {
      max_skew           = 2
      topology_key       = "updateDay"
      when_unsatisfiable = "ScheduleAnyway"
    }
  }
  # The plan previews the rollout's batches; apply waits until every
  # cluster has the resources applied and available, or says which failed.
  strategy {
    rolling_update {
      max_unavailable = "50%"
      max_surge       = "1"
    }
  }
  wait_for_rollout = true
  timeouts {
    create = "10m"
    update = "10m"
  }
}

# PickFixed: exactly these clusters.
resource "aks_fleet_placement" "fixed" {
  name = "fixed"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "test-deployment"
  }
  policy {
    placement_type = "PickFixed"
    cluster_names  = ["aks-east-prod-01", "aks-weu-prod-01"]
  }
}
