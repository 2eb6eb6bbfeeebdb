# A NAP NodePool on a member cluster: D- and E-family VMs, spot or on-demand,
# consolidated after 5 minutes, at most 10% of nodes disrupted at once and
# none during business hours on weekdays.
resource "aks_nap_nodepool" "general" {
  cluster = "aks-east-prod-01"
  name    = "default"

  weight = 10 # preferred over NodePools of lower weight

  template {
    labels      = { team = "platform" }
    annotations = { "example.com/owner" = "platform-team" }
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
    requirements {
      key        = "karpenter.azure.com/sku-family"
      operator   = "In"
      values     = ["D", "E"]
      min_values = 2
    }
    requirements {
      key      = "karpenter.sh/capacity-type"
      operator = "In"
      values   = ["spot", "on-demand"]
    }
    taints {
      key    = "example.com/dedicated"
      value  = "platform"
      effect = "NoSchedule"
    }
    startup_taints {
      key    = "example.com/agent-not-ready"
      effect = "NoSchedule"
    }
    expire_after             = "720h"
    termination_grace_period = "48h"
  }

  limits = { cpu = "1000", memory = "4000Gi" }

  disruption {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "5m"
    budgets {
      nodes = "10%"
    }
    budgets {
      nodes    = "0"
      schedule = "0 9 * * 1-5"
      duration = "8h"
    } # Mon–Fri 09:00–17:00 UTC
  }
}

# `terraform plan` shows when nodes may be disrupted this week (one line per
# window, with the reasons it applies to), which nodes expire, and which a
# change drifts. The same evaluation for modules: the pool's budgets for its
# live nodes.
data "aks_nap_disruption_preview" "general" {
  cluster  = aks_nap_nodepool.general.cluster
  nodepool = aks_nap_nodepool.general.name
  # The pool's own budgets, block by block, and its no_budgets: without it a
  # pool with no_budgets = true (unlimited) would be evaluated with none
  # written, which is Karpenter's default 10% budget.
  no_budgets = aks_nap_nodepool.general.disruption.no_budgets
  dynamic "budgets" {
    for_each = aks_nap_nodepool.general.disruption.budgets
    content {
      nodes    = budgets.value.nodes
      schedule = budgets.value.schedule
      duration = budgets.value.duration
      reasons  = budgets.value.reasons
    }
  }
}

output "disruption_windows" {
  value = [for w in data.aks_nap_disruption_preview.general.windows : w.description]
}
