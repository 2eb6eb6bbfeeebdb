# The fleet follows the Stable channel (the newest patch of minor N−1) in the
# order of a canary-first strategy. `terraform plan` shows, before the profile
# exists, what Stable resolves to today and what the run it triggers would do
# to every member — including the members auto-upgrade leaves behind (more
# than one minor behind, or outside the supported minors) with the manual
# upgrades that bring them back. The aks_fleet_autoupgrade_preview data
# source keeps that preview in the plan, and the profile holds to it: applied
# after a release entered the channel, it refuses and asks for a new plan.
resource "aks_fleet_update_strategy" "canary_first" {
  name = "canary-first"
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
    after_stage_wait_in_seconds = 3600
  }
  stages {
    name = "waves"
    groups {
      name = "wave-1"
    }
    groups {
      name = "wave-2"
    }
  }
}

data "aks_fleet_autoupgrade_preview" "stable" {
  name                 = "stable"
  channel              = "Stable"
  node_image_selection = "Consistent"
}

resource "aks_fleet_autoupgrade_profile" "stable" {
  name                 = "stable"
  channel              = "Stable"
  update_strategy_id   = aks_fleet_update_strategy.canary_first.id
  node_image_selection = "Consistent"
  reviewed_preview     = data.aks_fleet_autoupgrade_preview.stable.review
}

# Weekly node images for every member, one by one; switched off for now. Changing
# generate_run_trigger asks the hub for the run it would trigger, not started
# (`generated_run_id`), to review before starting it.
resource "aks_fleet_autoupgrade_profile" "node_images" {
  name                 = "node-images"
  channel              = "NodeImage"
  disabled             = true
  generate_run_trigger = "2026-11-review"
}

# Pinned to the 1.32 line: the newest 1.32 patch, whatever is released after
# it. (A long-term-support minor outside the N−2..N window needs
# long_term_support = true.)
resource "aks_fleet_autoupgrade_profile" "pinned" {
  name                      = "pinned-1-32"
  channel                   = "TargetKubernetesVersion"
  target_kubernetes_version = "1.32"
  disabled                  = true
}

output "stable_target" {
  description = "The Kubernetes version the Stable channel resolves to today."
  value       = data.aks_fleet_autoupgrade_preview.stable.kubernetes_version
}

output "stable_rollout" {
  description = "What the Stable profile's run would do to each member, in rollout order."
  value       = data.aks_fleet_autoupgrade_preview.stable.rollout.members
}

output "left_behind" {
  description = "Members the Stable profile never moves, and how to bring them back."
  value       = data.aks_fleet_autoupgrade_preview.stable.left_behind
}

output "generated_run" {
  description = "The node-image run generated for review (not started)."
  value       = aks_fleet_autoupgrade_profile.node_images.generated_run_id
}
