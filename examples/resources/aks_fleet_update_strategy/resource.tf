# Upgrade the sample fleet in three stages: the canary members first, then,
# an hour later and once someone approves, wave 1, then wave 2. A member's
# update group is set on the member (`group` in the fleet inventory).
resource "aks_fleet_update_strategy" "canary_first" {
  name = "canary-first"

  stages {
    name = "canary"
    groups {
      name            = "canary"
      max_concurrency = "50%"
    }                                  # half the canaries at once
    after_stage_wait_in_seconds = 3600 # watch the canaries for an hour
  }
  stages {
    name = "wave-1"
    groups {
      name = "wave-1"
    } # one member at a time (the default)
    before_gates {
      type         = "Approval"
      display_name = "Canaries healthy"
    }
  }
  stages {
    name = "wave-2"
    groups {
      name            = "wave-2"
      max_concurrency = "2"
    }
  }
}

# `terraform plan` shows which members each group reaches in the fleet, e.g.
# "wave-1/wave-1  3 members: aks-east-prod-02, aks-sea-prod-01, aks-weu-prod-01 (concurrency 1)",
# and the members no stage reaches. The rollout a run following the strategy
# would perform, for modules and reviews:
data "aks_fleet_update_preview" "canary_first" {
  update_strategy_id = aks_fleet_update_strategy.canary_first.id
  upgrade {
    type = "NodeImageOnly"
  }
}

output "rollout" {
  value = data.aks_fleet_update_preview.canary_first.preview.members
}
