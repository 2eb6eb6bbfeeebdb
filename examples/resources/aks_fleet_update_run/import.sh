# An update run is imported by its name, or by its ARM id.
terraform import aks_fleet_update_run.to_1_33 upgrade-to-1-33
terraform import aks_fleet_update_run.to_1_33 /subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-fleet/providers/Microsoft.ContainerService/fleets/fleet/updateRuns/upgrade-to-1-33
