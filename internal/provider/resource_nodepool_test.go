package provider

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

const npAddr = "aks_nap_nodepool.test"

// nodePoolConfig is a NodePool on the sample fleet's aks-east-prod-01, whose
// NAP pool "default" has 3 nodes (30h, 200h and 700h old).
func nodePoolConfig(labels, budgets string) string {
	return `
resource "aks_nap_nodepool" "test" {
  cluster = "aks-east-prod-01"
  name    = "default"
  template = {
    labels         = { ` + labels + ` }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
    ]
  }
  disruption = {
    consolidate_after = "30s"
    budgets           = [` + budgets + `]
  }
}`
}

func TestAccNodePool_lifecycle(t *testing.T) {
	cfg := providerConfig(t, "") // fixed clock: Saturday 2026-11-21 12:00 UTC
	weekdays := `{ nodes = "10%" }, { nodes = "0", schedule = "0 9 * * 1-5", duration = "8h" }`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg + nodePoolConfig(`team = "web"`, weekdays),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "nodes", "total"), knownvalue.Int64Exact(3)),
					// Saturday noon: the weekday budget is inactive; 10% of 3 rounds up to 1.
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "allowed_now", 1, "reason"), knownvalue.StringExact("Drifted")),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "allowed_now", 1, "allowed"), knownvalue.Int64Exact(1)),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "defaults", "expire_after"), knownvalue.StringExact("720h")),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "defaults", "consolidation_policy"), knownvalue.StringExact("WhenEmptyOrUnderutilized")),
					// Monday 09:00–17:00 UTC the weekday budget blocks disruption.
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "timeline", 1, "description"), knownvalue.StringExact("Mon 09:00–17:00 UTC: 0 (budget #2)")),
					// The 700h-old node expires at 720h, within 7 days.
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "expiring"), knownvalue.ListSizeExact(1)),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "expiring", 0, "node"), knownvalue.StringExact("aks-default-b3n8r")),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "drift"), knownvalue.Null()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(npAddr, attrPath("status", "nodes"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(npAddr, attrPath("id"), knownvalue.StringExact("aks-east-prod-01/default")),
				},
			},
			{
				// A budget change drifts nothing.
				Config: cfg + nodePoolConfig(`team = "web"`, `{ nodes = "2" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(npAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "drift", "drifted"), knownvalue.Int64Exact(0)),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "allowed_now", 0, "allowed"), knownvalue.Int64Exact(2)),
				}},
			},
			{
				// A template label change drifts every node; 2 at a time takes 2 passes.
				Config: cfg + nodePoolConfig(`team = "payments"`, `{ nodes = "2" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "drift", "drifted"), knownvalue.Int64Exact(3)),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "drift", "nodes", 0, "reasons"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("template.labels")})),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "drift", "replacement", "per_pass"), knownvalue.Int64Exact(2)),
					plancheck.ExpectKnownValue(npAddr, attrPath("preview", "drift", "replacement", "passes"), knownvalue.Int64Exact(2)),
				}},
			},
			{
				ResourceName:      npAddr,
				ImportState:       true,
				ImportStateId:     "aks-east-prod-01/default",
				ImportStateVerify: true,
				// The drift preview describes the last planned change; an imported pool has none.
				ImportStateVerifyIgnore: []string{"preview.drift"},
			},
		},
	})
}

// Time passing changes the live allowances but never the plan.
func TestAccNodePool_clockMovesWithoutDiff(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	pool := nodePoolConfig(`team = "web"`, `{ nodes = "10%" }, { nodes = "0", schedule = "0 9 * * 1-5", duration = "8h" }`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: providerConfigAt(state, "", testClock) + pool},
			{
				// Monday 10:00 UTC, three days later: inside the blocking window, and one node past its expiry.
				Config:           providerConfigAt(state, "", "2026-11-23T10:00:00Z") + pool,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccNodePool_validation(t *testing.T) {
	cfg := providerConfig(t, "")
	pool := func(template, disruption string) string {
		return cfg + `
resource "aks_nap_nodepool" "test" {
  cluster = "aks-east-prod-01"
  name    = "batch"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
` + template + `
  }
  disruption = {
` + disruption + `
  }
}`
	}
	ok := `consolidate_after = "30s"`
	cases := []struct{ config, want string }{
		{pool(`requirements = [{ key = "karpenter.sh/capacity-type", operator = "Gtx", values = ["1"] }]`, ok), `template.requirements[0].operator:`},
		{pool(`requirements = [{ key = "karpenter.sh/capacity-type", operator = "In", values = ["preemptible"] }]`, ok), `template.requirements[0]`},
		{pool(`labels = { "karpenter.sh/nodepool" = "x" }`, ok), `template.labels["karpenter.sh/nodepool"]:`},
		{pool(`labels = { "kubernetes.azure.com/agentpool-name" = "x" }`, ok), `template.labels["kubernetes.azure.com/agentpool-name"]:`},
		{pool(`taints = [{ key = "a", effect = "NoSchedule" }]
startup_taints = [{ key = "a", effect = "NoSchedule" }]`, ok), `template.startup_taints[0]`},
		{pool(`expire_after = "30d"`, ok), `template.expire_after:`},
		{pool("", ``), `disruption.consolidate_after:`},
		{pool("", ok+"\nbudgets = [{ nodes = \"0\", schedule = \"0 9 * * 7\", duration = \"8h\" }]"), `disruption.budgets[0].schedule:`},
		{pool("", ok+"\nbudgets = [{ nodes = \"0\", schedule = \"0 0 * * sat-sun\", duration = \"8h\" }]"), `disruption.budgets[0].schedule:`},
		{pool("", ok+"\nbudgets = [{ nodes = \"2147483648\" }]"), `disruption.budgets[0].nodes:`},
		{pool("", ok+"\nbudgets = [{ nodes = \"1\", schedule = \"@daily\" }]"), `disruption.budgets[0]`},
		{pool("", ok+"\nconsolidation_policy = \"Always\""), `disruption.consolidation_policy:`},
	}
	steps := []resource.TestStep{}
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: c.config, ExpectError: expectError(c.want), PlanOnly: true})
	}
	steps = append(steps, resource.TestStep{
		Config: strings.Replace(pool("", ok), `"aks-east-prod-01"`, `"aks-nowhere-01"`, 1), ExpectError: expectError(`cluster: member cluster "aks-nowhere-01"`), PlanOnly: true,
	})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: steps})
}
