# What a node image upgrade of every member, one by one, would do now —
# without creating a run.
data "aks_fleet_update_preview" "node_images" {
  upgrade              = { type = "NodeImageOnly" }
  node_image_selection = { type = "Latest" }
}

output "node_image_rollout" {
  value = data.aks_fleet_update_preview.node_images.preview.summary
}
