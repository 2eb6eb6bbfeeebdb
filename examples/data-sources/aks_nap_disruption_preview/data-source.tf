# Check a budget design without a cluster: 30 nodes, 20% or 5 at most, and
# nothing during the ten minutes after midnight UTC.
data "aks_nap_disruption_preview" "design" {
  nodes      = 30
  disrupting = 1                      # one node is already being replaced
  from       = "2026-11-23T00:00:00Z" # a Monday
  span       = "48h"
  budgets {
    nodes = "20%"
  }
  budgets {
    nodes = "5"
  }
  budgets {
    nodes    = "0"
    schedule = "@daily"
    duration = "10m"
  }
}

output "allowed_now" {
  value = { for a in data.aks_nap_disruption_preview.design.allowed_now : a.reason => a.unlimited ? "unlimited" : tostring(a.allowed) }
}

# Each window once, with the reasons it applies to; and, for a reason blocked
# at `from`, when it is next allowed (here: 00:10, when the daily window ends).
output "windows" {
  value = [for w in data.aks_nap_disruption_preview.design.windows : w.description]
}

output "next_allowed" {
  value = { for reason, n in data.aks_nap_disruption_preview.design.next_allowed : reason => n.at }
}

# The "weekend only" design does not do what it says: the unscheduled "0"
# budget is always active, and budgets only ever restrict.
data "aks_nap_disruption_preview" "weekend_only" {
  nodes = 10
  budgets {
    nodes    = "50%"
    schedule = "0 0 * * 6"
    duration = "48h"
  }
  budgets {
    nodes = "0"
  }
}

output "weekend_only_warnings" {
  value = data.aks_nap_disruption_preview.weekend_only.warnings
}

# No budget at all (Karpenter's `budgets: []`): every reason is unlimited —
# which a warning says. Without no_budgets and without budgets blocks, the
# default applies: one 10% budget.
data "aks_nap_disruption_preview" "unlimited" {
  nodes      = 10
  no_budgets = true
}

output "unlimited_allowed_now" {
  value = { for a in data.aks_nap_disruption_preview.unlimited.allowed_now : a.reason => a.unlimited }
}

# A pool's budgets for its live nodes, now, as the pool's plan previews them
# (a pool that does not exist yet has none).
data "aks_nap_disruption_preview" "east_default" {
  cluster  = "aks-east-prod-01"
  nodepool = "default"
  budgets {
    nodes = "10%"
  }
  budgets {
    nodes    = "0"
    schedule = "0 9 * * 1-5"
    duration = "8h"
  }
}

output "east_default_windows" {
  value = [for w in data.aks_nap_disruption_preview.east_default.windows : w.description]
}
