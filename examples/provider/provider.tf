# With no configuration at all the provider uses the embedded mock hub and
# its built-in sample fleet. Configure the mock hub to simulate your own fleet:
provider "aks" {
  mock {
    fleet_file = "${path.module}/fleet.yaml" # or AKS_MOCK_FLEET_FILE
    state_path = "${path.module}/.aks-mock/state.db"

    # A scaled clock makes simulated time run 60 times faster than real time,
    # starting at clock_time and continuing across Terraform commands.
    clock       = "scaled"
    clock_time  = "2026-11-23T08:00:00Z"
    clock_scale = 60
  }
}
