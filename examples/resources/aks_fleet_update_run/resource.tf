# A Kubernetes upgrade rolled out in three stages over the sample fleet's
# update groups: the canary group first, then wave-1 and wave-2, with an
# hour's wait after the canary stage and an approval gate before wave-2.
# `terraform plan` shows the rollout: every member in the order
# the run reaches it, what happens to it (upgrade, skipped as already up to
# date, pending until its maintenance window opens or the version reaches
# its region) and when, plus a Mermaid gantt chart for a pull request.
resource "aks_fleet_update_run" "to_1_33" {
  name = "upgrade-to-1-33"
  upgrade {
    type               = "Full"
    kubernetes_version = "1.33.2"
  }
  node_image_selection {
    type = "Consistent" # the newest image released in every region of the run
  }

  stages {
    name = "canary"
    groups {
      name = "canary"
    }
    after_stage_wait_in_seconds = 3600
  }
  stages {
    name = "wave-1"
    groups {
      name            = "wave-1"
      max_concurrency = "50%"
    }
  }
  stages {
    name = "wave-2"
    groups {
      name = "wave-2"
    }
    before_gates {
      display_name = "Change advisory board"
    }
  }

  # Driven as code: start it, approve the gate when the run reaches it,
  # skip what must not be upgraded; change rerun_trigger to re-run after a failure.
  start          = true
  approved_gates = ["wave-2:before"]
  skip {
    type = "Member"
    name = "aks-east-gpu-01"
  }
  rerun_trigger = "1"
}

# The same rollout for modules and pull requests: a Mermaid gantt chart.
data "aks_fleet_update_preview" "to_1_33" {
  upgrade {
    type               = "Full"
    kubernetes_version = "1.33.2"
  }
  node_image_selection {
    type = "Consistent"
  }
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
    after_stage_wait_in_seconds = 3600
  }
  stages {
    name = "wave-1"
    groups {
      name            = "wave-1"
      max_concurrency = "50%"
    }
  }
  stages {
    name = "wave-2"
    groups {
      name = "wave-2"
    }
    before_gates {
      display_name = "Change advisory board"
    }
  }
  skip {
    type = "Member"
    name = "aks-east-gpu-01"
  }
}

output "rollout_chart" {
  value = data.aks_fleet_update_preview.to_1_33.preview.gantt
}

# Every member's state as the hub reports it, once the run is applied.
data "aks_fleet_update_run" "to_1_33" {
  name = aks_fleet_update_run.to_1_33.name
}

output "members" {
  value = data.aks_fleet_update_run.to_1_33.members
}

# A node image refresh that follows a reusable strategy (the run copies it
# when it is created), installs exactly the given images, and makes apply
# wait for the rollout, bounded by timeouts. Members whose region has not
# released an image yet stay Pending, and apply stops waiting when only they
# are left. Set stopped = true to stop the run: upgrades in flight finish.
resource "aks_fleet_update_strategy" "by_wave" {
  name = "by-wave"
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
  }
  stages {
    name = "waves"
    groups {
      name = "wave-1"
    }
    groups {
      name = "wave-2"
    }
    max_concurrency = "2"
  }
}

resource "aks_fleet_update_run" "node_images" {
  name               = "node-images-2026-11"
  update_strategy_id = aks_fleet_update_strategy.by_wave.id
  upgrade {
    type = "NodeImageOnly"
  }
  node_image_selection {
    type = "Custom"
    custom_node_image_versions = [
      "AKSUbuntu-2204gen2containerd-202611.10.0",
      "AzureLinuxV3gen2-202611.10.0",
    ]
  }

  start               = true
  stopped             = false
  wait_for_completion = true
  timeouts {
    create = "2h"
    update = "2h"
  }
}
