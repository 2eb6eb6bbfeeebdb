# What would each auto-upgrade channel install now, across the whole fleet,
# and would a profile pinned to 1.32 still have a version to follow?
data "aks_fleet_kubernetes_versions" "all" {
  target_kubernetes_version = "1.32"
}

output "channels" {
  value = {
    for name, c in data.aks_fleet_kubernetes_versions.all.channels :
    name => coalesce(c.kubernetes_version, c.note, jsonencode(c.node_images))
  }
}

output "supported_minors" {
  value = data.aks_fleet_kubernetes_versions.all.supported_minors
}

# Region by region: where the Rapid channel lags behind the fleet, and the
# releases announced but not out yet.
output "rapid_by_region" {
  value = {
    for r in data.aks_fleet_kubernetes_versions.all.catalogs :
    r.name => coalesce(r.channels["Rapid"].kubernetes_version, r.channels["Rapid"].note)
  }
}

output "not_released_yet" {
  value = flatten([
    for r in data.aks_fleet_kubernetes_versions.all.catalogs :
    [for k in r.kubernetes_versions : "${r.name}: ${k.version}" if !k.released]
  ])
}

# Only some regions: what a profile whose members are all in eastus follows.
data "aks_fleet_kubernetes_versions" "eastus" {
  regions = ["eastus"]
}

output "eastus_stable" {
  value = data.aks_fleet_kubernetes_versions.eastus.channels["Stable"].kubernetes_version
}
