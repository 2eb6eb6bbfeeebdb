# What a node image upgrade of every member, one by one, would do now —
# without creating a run.
data "aks_fleet_update_preview" "node_images" {
  upgrade {
    type = "NodeImageOnly"
  }
  node_image_selection {
    type = "Latest"
  }
}

output "node_image_rollout" {
  value = data.aks_fleet_update_preview.node_images.preview.summary
}

# What-if: a Kubernetes upgrade region by region, canary first, with an
# hour between stages — compare it with the same upgrade in one stage.
data "aks_fleet_update_preview" "by_region" {
  upgrade {
    type               = "Full"
    kubernetes_version = "1.33"
  }
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
    after_stage_wait_in_seconds = 3600
  }
  stages {
    name = "rest"
    groups {
      name = "wave-1"
    }
    groups {
      name = "wave-2"
    }
  }
}

output "by_region_chart" {
  value = data.aks_fleet_update_preview.by_region.preview.gantt
}
