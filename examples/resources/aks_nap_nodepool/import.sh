# A NodePool is imported as <member cluster>/<nodepool>.
terraform import aks_nap_nodepool.general aks-east-prod-01/default
