# What following the Stable channel would do, before any profile exists:
# the version it resolves to now, the run a release would trigger, and the
# members it would leave behind with the manual upgrades that bring them
# back.
data "aks_fleet_autoupgrade_preview" "stable" {
  channel = "Stable"
}

output "stable_target" {
  value = data.aks_fleet_autoupgrade_preview.stable.kubernetes_version
}

output "left_behind" {
  value = data.aks_fleet_autoupgrade_preview.stable.left_behind
}

# Held to at apply: the profile refuses to be written when the channel
# resolves to another version than the plan showed.
data "aks_fleet_autoupgrade_preview" "rapid" {
  name    = "rapid"
  channel = "Rapid"
}

resource "aks_fleet_autoupgrade_profile" "rapid" {
  name             = "rapid"
  channel          = "Rapid"
  reviewed_preview = data.aks_fleet_autoupgrade_preview.rapid.review
}
