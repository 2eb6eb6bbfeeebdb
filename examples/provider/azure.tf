# A real fleet: Azure Kubernetes Fleet Manager through Azure Resource Manager.
# Sign-in follows the azurerm provider: the same ARM_* environment variables,
# in the same order (client certificate, client secret, OIDC, managed
# identity, Azure CLI). Keep secrets in the environment: Terraform stores
# literal configuration values in saved plans.
provider "aks" {
  azure {
    subscription_id     = "00000000-0000-0000-0000-000000000000" # or ARM_SUBSCRIPTION_ID
    resource_group_name = "rg-fleet"                             # or AKS_FLEET_RESOURCE_GROUP
    fleet_name          = "fleet"                                # or AKS_FLEET_NAME
    # tenant_id, client_id: or ARM_TENANT_ID, ARM_CLIENT_ID; the secret from ARM_CLIENT_SECRET

    # Optional: kubeconfigs instead of the fleet's and the managed clusters'
    # credentials (KUBECONFIG or ~/.kube/config when no path is given).
    hub_cluster {
      context = "fleet-hub"
    }
    member_clusters {
      name            = "aks-east-prod-01"
      kubeconfig_path = "~/.kube/aks-east-prod-01.yaml"
    }
  }
}

# A local fleet over the real wire protocol: the mock hub served by
#   go run ./cmd/fleet-emulator -listen 127.0.0.1:8443 -cert-out emulator.pem
# as Resource Manager, Microsoft Entra ID and the fleet hub cluster would.
provider "aks" {
  alias = "emulated"
  azure {
    subscription_id           = "00000000-0000-0000-0000-000000000000"
    resource_group_name       = "rg"
    fleet_name                = "fleet"
    tenant_id                 = "00000000-0000-0000-0000-000000000001"
    client_id                 = "00000000-0000-0000-0000-000000000002"
    client_secret             = "any" # the emulator accepts any secret
    resource_manager_endpoint = "https://127.0.0.1:8443"
    authority_host            = "https://127.0.0.1:8443"
    ca_certificate_path       = "emulator.pem"
  }
}
