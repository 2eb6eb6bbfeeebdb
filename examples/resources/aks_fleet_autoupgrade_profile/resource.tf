# The fleet follows the Stable channel (the newest patch of minor N−1) in the
# order of a canary-first strategy. `terraform plan` shows, before the profile
# exists, what Stable resolves to today and what the run it triggers would do
# to every member — including the members auto-upgrade leaves behind (more
# than one minor behind, or outside the supported minors) with the manual
# upgrades that bring them back (`preview.left_behind`).
resource "aks_fleet_update_strategy" "canary_first" {
  name = "canary-first"
  stages = [
    { name = "canary", groups = [{ name = "canary" }], after_stage_wait_in_seconds = 3600 },
    { name = "waves", groups = [{ name = "wave-1" }, { name = "wave-2" }] },
  ]
}

resource "aks_fleet_autoupgrade_profile" "stable" {
  name                 = "stable"
  channel              = "Stable"
  update_strategy_id   = aks_fleet_update_strategy.canary_first.id
  node_image_selection = "Consistent"
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
  value       = aks_fleet_autoupgrade_profile.stable.preview.kubernetes_version
}

output "stable_rollout" {
  description = "What the Stable profile's run would do to each member, in rollout order."
  value       = aks_fleet_autoupgrade_profile.stable.preview.rollout.members
}

output "left_behind" {
  description = "Members the Stable profile never moves, and how to bring them back."
  value       = aks_fleet_autoupgrade_profile.stable.preview.left_behind
}

output "generated_run" {
  description = "The node-image run generated for review (not started)."
  value       = aks_fleet_autoupgrade_profile.node_images.generated_run_id
}
