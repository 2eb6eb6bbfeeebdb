# A placement is imported by its name.
terraform import aks_fleet_placement.web web
