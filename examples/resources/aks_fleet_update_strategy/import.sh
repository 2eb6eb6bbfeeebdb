# An update strategy is imported by its name,
terraform import aks_fleet_update_strategy.canary_first canary-first
# or by its ARM id.
terraform import aks_fleet_update_strategy.canary_first /subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-fleet/providers/Microsoft.ContainerService/fleets/fleet/updateStrategies/canary-first
