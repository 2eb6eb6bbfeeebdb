# Every member's state in a run, as the hub reports it — the run's status
# counts them per state; this has each member's line.
resource "aks_fleet_update_run" "images" {
  name = "images-2026-11"
  upgrade {
    type = "NodeImageOnly"
  }
  start = true
}

data "aks_fleet_update_run" "images" {
  name = aks_fleet_update_run.images.name
}

output "members" {
  value = data.aks_fleet_update_run.images.members
}
