
resource "aks_fleet_placement" "spread" {
  name = "spread"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "web"
  }
  resource_selectors {
    group   = "rbac.authorization.k8s.io"
    version = "v1"
    kind    = "ClusterRole"
    label_selector {
      match_labels = { app = "web" }
    }
  }
  policy {
    placement_type     = "PickN"
    number_of_clusters = 3
    affinity {
      required {
        label_selector {
          match_expressions {
            key      = "env"
            operator = "In"
            values   = ["prod"]
          }
        }
      }
      preferred {
        weight = 50
        preference {
          property_sorter {
            name       = "resources.kubernetes-fleet.io/available-cpu"
            sort_order = "Descending"
          }
        }
      }
    }
    topology_spread_constraints {
      topology_key       = "region"
      max_skew           = 2
      when_unsatisfiable = "ScheduleAnyway"
    }
    tolerations {
      key      = "dedicated"
      operator = "Equal"
      value    = "gpu"
      effect   = "NoSchedule"
    }
  }
  strategy {
    type = "RollingUpdate"
    rolling_update {
      max_unavailable            = "100%"
      max_surge                  = "1"
      unavailable_period_seconds = 30
    }
  }
}

resource "aks_fleet_placement" "all" {
  name = "all"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "api"
  }
}

resource "aks_nap_nodepool" "budgets" {
  cluster = "aks-east-prod-01"
  name    = "budgets"
  weight  = 5
  limits  = { cpu = "100" }
  template {
    labels = { team = "a" }
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
    requirements {
      key        = "karpenter.azure.com/sku-family"
      operator   = "In"
      values     = ["D"]
      min_values = 1
    }
    taints {
      key    = "example.com/dedicated"
      value  = "a"
      effect = "NoSchedule"
    }
    startup_taints {
      key    = "example.com/not-ready"
      effect = "NoSchedule"
    }
    expire_after             = "168h"
    termination_grace_period = "48h"
  }
  disruption {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "10m"
    budgets {
      nodes = "10%"
    }
    budgets {
      nodes    = "0"
      schedule = "@daily"
      duration = "10m"
      reasons  = ["Drifted"]
    }
  }
}

resource "aks_nap_nodepool" "unlimited" {
  cluster = "aks-east-prod-01"
  name    = "unlimited"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
  }
  disruption {
    consolidate_after = "0s"
    no_budgets        = true
  }
}

resource "aks_nap_nodepool" "plain" {
  cluster = "aks-east-prod-01"
  name    = "plain"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
  }
}

resource "aks_fleet_update_strategy" "waves" {
  name = "waves"
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
    after_stage_wait_in_seconds = 60
    after_gates {
      display_name = "check"
    }
  }
  stages {
    name = "rest"
    groups {
      name            = "wave-1"
      max_concurrency = "50%"
    }
    groups {
      name = "wave-2"
      before_gates {}
    }
    max_concurrency = "10"
  }
}

resource "aks_fleet_update_run" "inline" {
  name = "inline"
  upgrade {
    type               = "Full"
    kubernetes_version = "1.33.2"
  }
  node_image_selection {
    type = "Latest"
  }
  stages {
    name = "one"
    groups {
      name = "canary"
    }
    groups {
      name = "wave-1"
    }
    groups {
      name = "wave-2"
    }
  }
  skip {
    type = "Member"
    name = "aks-east-gpu-01"
  }
  timeouts {
    create = "10m"
  }
}

resource "aks_fleet_update_run" "by_strategy" {
  name               = "by-strategy"
  update_strategy_id = aks_fleet_update_strategy.waves.id
  upgrade {
    type = "NodeImageOnly"
  }
}

resource "aks_fleet_autoupgrade_profile" "stable" {
  name     = "stable"
  channel  = "Stable"
  disabled = true
}
