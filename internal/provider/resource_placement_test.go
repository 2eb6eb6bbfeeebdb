package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const plAddr = "aks_fleet_placement.test"

func previewPath(steps ...any) tfjsonpath.Path {
	p := tfjsonpath.New("preview")
	for _, s := range steps {
		switch v := s.(type) {
		case string:
			p = p.AtMapKey(v)
		case int:
			p = p.AtSliceIndex(v)
		}
	}
	return p
}

func selectedNames(names ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(names))
	for i, n := range names {
		checks[i] = knownvalue.StringExact(n)
	}
	return knownvalue.ListExact(checks)
}

func TestAccPlacement_pickNPreview(t *testing.T) {
	cfg := providerConfig(t, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: cfg + `
resource "aks_fleet_placement" "test" {
  name = "web"
  resource_selectors = [{ version = "v1", kind = "Namespace", name = "web" }]
  policy = {
    placement_type     = "PickN"
    number_of_clusters = 3
    affinity = {
      preferred = [{
        weight     = 100
        preference = { property_sorter = { name = "resources.kubernetes-fleet.io/available-cpu", sort_order = "Descending" } }
      }]
    }
  }
}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(plAddr, previewPath("summary", "selected"), knownvalue.Int64Exact(3)),
					plancheck.ExpectKnownValue(plAddr, previewPath("decisions", 0, "cluster_name"), knownvalue.StringExact("aks-east-prod-01")),
					plancheck.ExpectKnownValue(plAddr, previewPath("decisions", 0, "affinity_score"), knownvalue.Int64Exact(100)),
					plancheck.ExpectKnownValue(plAddr, previewPath("decisions", 1, "affinity_score"), knownvalue.Int64Exact(49)),
					plancheck.ExpectKnownValue(plAddr, previewPath("decisions", 2, "affinity_score"), knownvalue.Int64Exact(32)),
					plancheck.ExpectKnownValue(plAddr, previewPath("decisions", 2, "reason"), knownvalue.StringExact("picked by scheduling policy")),
					plancheck.ExpectKnownValue(plAddr, previewPath("left_out_counts"), knownvalue.MapExact(map[string]knownvalue.Check{
						"does not score high enough":                         knownvalue.Int64Exact(7),
						"taint dedicated=gpu:NoSchedule cannot be tolerated": knownvalue.Int64Exact(1),
						"not eligible: heartbeat older than 5m":              knownvalue.Int64Exact(1),
					})),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(plAddr, tfjsonpath.New("status").AtMapKey("selected_clusters"), selectedNames("aks-east-prod-01", "aks-sea-prod-01", "aks-weu-prod-01")),
			},
		}},
	})
}
