# A Kubernetes upgrade rolled out in three stages over the sample fleet's
# update groups: the canary group first, then wave-1 and wave-2, with an
# hour's wait after the canary stage and an approval gate before wave-2.
# `terraform plan` shows the rollout in `preview`: every member in the order
# the run reaches it, what happens to it (upgrade, skipped as already up to
# date, pending until its maintenance window opens or the version reaches
# its region) and when, plus a Mermaid gantt chart for a pull request.
resource "aks_fleet_update_run" "to_1_33" {
  name    = "upgrade-to-1-33"
  upgrade = { type = "Full", kubernetes_version = "1.33.2" }
  node_image_selection = {
    type = "Consistent" # the newest image released in every region of the run
  }

  stages = [
    { name = "canary", groups = [{ name = "canary" }], after_stage_wait_in_seconds = 3600 },
    { name = "wave-1", groups = [{ name = "wave-1", max_concurrency = "50%" }] },
    {
      name         = "wave-2"
      groups       = [{ name = "wave-2" }]
      before_gates = [{ display_name = "Change advisory board" }]
    },
  ]

  # Driven as code: start it, approve the gate when the run reaches it,
  # skip what must not be upgraded; change rerun_trigger to re-run after a failure.
  start          = true
  approved_gates = ["wave-2:before"]
  skip           = [{ type = "Member", name = "aks-east-gpu-01" }]
  rerun_trigger  = "1"
}

output "rollout" {
  value = aks_fleet_update_run.to_1_33.preview.members
}

output "rollout_chart" {
  value = aks_fleet_update_run.to_1_33.preview.gantt
}
