# An auto-upgrade profile is imported by its name,
terraform import aks_fleet_autoupgrade_profile.stable stable
# or by its ARM id.
terraform import aks_fleet_autoupgrade_profile.stable /subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-fleet/providers/Microsoft.ContainerService/fleets/fleet/autoUpgradeProfiles/stable
