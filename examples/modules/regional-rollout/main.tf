# regional-rollout: one upgrade rolled out region by region, canary region
# first, with a wait between regions — a module built from the provider's
# own pieces, as users compose it in theirs.
#
# Stages are regions. Fleet Manager orders by update group (a member's
# `group`), and a group may span regions, so each group goes to the stage of
# the first region (in rollout order) where it has a member: a group is in
# exactly one stage, as the service requires. The stages are computed from
# the member-clusters data source and written as `stages` blocks with
# `dynamic` blocks: every key of them is still checked by Terraform.

terraform {
  required_providers {
    aks = {
      source = "fleetform/aks"
    }
  }
}

variable "name" {
  description = "Name of the update run; the strategy is named <name>-by-region."
  type        = string
}

variable "label_selector" {
  description = "Which member clusters the rollout covers (every member when empty). Members without an update group are never upgraded by a strategy."
  type = object({
    match_labels = optional(map(string))
    match_expressions = optional(list(object({
      key      = string
      operator = string
      values   = optional(list(string))
    })))
  })
  default = {}
}

variable "upgrade" {
  description = "The upgrade: type Full, ControlPlaneOnly or NodeImageOnly, and kubernetes_version except for NodeImageOnly."
  type = object({
    type               = string
    kubernetes_version = optional(string)
  })
}

variable "canary_region" {
  description = "The region upgraded first; the others follow in name order. Null: name order throughout."
  type        = string
  default     = null
}

variable "wait_between_regions_seconds" {
  description = "Seconds to wait after each region before the next one starts."
  type        = number
  default     = 3600
}

variable "start" {
  description = "Whether apply starts the run (false: it is created, and its preview can be reviewed first)."
  type        = bool
  default     = false
}

data "aks_fleet_member_clusters" "targets" {
  dynamic "label_selector" {
    for_each = var.label_selector == null ? [] : [var.label_selector]
    content {
      match_labels = label_selector.value.match_labels
      dynamic "match_expressions" {
        for_each = label_selector.value.match_expressions == null ? [] : label_selector.value.match_expressions
        content {
          key      = match_expressions.value.key
          operator = match_expressions.value.operator
          values   = match_expressions.value.values
        }
      }
    }
  }
}

locals {
  members = [for c in data.aks_fleet_member_clusters.targets.clusters : c if c.group != null]
  by_name = sort(distinct([for c in local.members : c.region]))
  regions = var.canary_region == null ? local.by_name : concat([var.canary_region], [for r in local.by_name : r if r != var.canary_region])
  # group => the first region, in rollout order, where it has a member
  group_region = {
    for g in distinct([for c in local.members : c.group]) :
    g => [for r in local.regions : r if contains([for c in local.members : c.region if c.group == g], r)][0]
  }
  stages = [
    for r in local.regions : {
      name                        = r
      groups                      = [for g in sort(keys(local.group_region)) : { name = g } if local.group_region[g] == r]
      after_stage_wait_in_seconds = var.wait_between_regions_seconds
    } if contains(values(local.group_region), r)
  ]
}

# The strategy, for reuse: later runs and auto-upgrade profiles can follow
# it by id.
resource "aks_fleet_update_strategy" "by_region" {
  name = "${var.name}-by-region"
  dynamic "stages" {
    for_each = local.stages
    content {
      name                        = stages.value.name
      after_stage_wait_in_seconds = stages.value.after_stage_wait_in_seconds
      dynamic "groups" {
        for_each = stages.value.groups
        content {
          name = groups.value.name
        }
      }
    }
  }
}

# The rollout, previewed at plan from the same stages: the data source is
# read at plan and kept in the plan file, so the outputs below are exactly
# what a reviewer saw — also in `terraform show` of a saved plan — even
# though the strategy's id is known only once it exists.
data "aks_fleet_update_preview" "rollout" {
  name  = var.name
  start = var.start
  dynamic "stages" {
    for_each = local.stages
    content {
      name                        = stages.value.name
      after_stage_wait_in_seconds = stages.value.after_stage_wait_in_seconds
      dynamic "groups" {
        for_each = stages.value.groups
        content {
          name = groups.value.name
        }
      }
    }
  }
  upgrade {
    type               = var.upgrade.type
    kubernetes_version = var.upgrade.kubernetes_version
  }
}

# The run follows the strategy and holds to the reviewed rollout: started at
# apply, it refuses to start if it would now upgrade, skip or fail other
# members, or take them to other versions, than the plan showed.
resource "aks_fleet_update_run" "this" {
  name               = var.name
  update_strategy_id = aks_fleet_update_strategy.by_region.id
  start              = var.start
  reviewed_preview   = data.aks_fleet_update_preview.rollout.review
  upgrade {
    type               = var.upgrade.type
    kubernetes_version = var.upgrade.kubernetes_version
  }
}

output "stages" {
  description = "The stages in rollout order: region => its update groups."
  value       = { for s in local.stages : s.name => [for g in s.groups : g.name] }
}

output "rollout" {
  description = "What the run does to each member, in the order it takes them: upgrades (to which version), is skipped, fails or waits for good. It changes only when that does, not as the clock moves."
  value       = data.aks_fleet_update_preview.rollout.preview.outcomes
}

output "summary" {
  description = "The outcomes counted."
  value       = data.aks_fleet_update_preview.rollout.preview.outcome_summary
}

output "schedule" {
  description = "One line per member with the outcome, versions, reason and estimated times, if the run started now (it moves with the clock)."
  value       = data.aks_fleet_update_preview.rollout.preview.members
}

output "gantt" {
  description = "The rollout as a Mermaid gantt chart, for a pull-request comment (it moves with the clock)."
  value       = data.aks_fleet_update_preview.rollout.preview.gantt
}

output "strategy_id" {
  description = "The region-by-region strategy, for other runs and auto-upgrade profiles."
  value       = aks_fleet_update_strategy.by_region.id
}

output "run_status" {
  description = "The run's progress as the hub reports it."
  value       = aks_fleet_update_run.this.status
}
