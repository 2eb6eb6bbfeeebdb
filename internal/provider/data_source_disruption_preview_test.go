package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func dpAddr(name string) string { return "data.aks_nap_disruption_preview." + name }

// The seed's budget examples, with what Karpenter actually does.
func TestAccDisruptionPreview_seedExamples(t *testing.T) {
	cfg := providerConfig(t, "") + `
# Default: one 10% budget.
data "aks_nap_disruption_preview" "default" {
  nodes = 10
}

# 10% always, 0 on weekdays 09:00-17:00 UTC. Monday 08:00 UTC, one day.
data "aks_nap_disruption_preview" "weekdays" {
  nodes = 10
  from  = "2026-11-23T08:00:00Z"
  span  = "24h"
  budgets {
    nodes = "10%"
  }
  budgets {
    nodes = "0"
    schedule = "0 9 * * 1-5"
    duration = "8h"
  }
}

# 20% and 5 with 30 nodes: 5; and 0 from 00:00 to 00:10 UTC every day.
data "aks_nap_disruption_preview" "daily_at_0005" {
  nodes   = 30
  from    = "2026-11-23T00:05:00Z"
  span    = "24h"
  budgets {
    nodes = "20%"
  }
  budgets {
    nodes = "5"
  }
  budgets {
    nodes = "0"
    schedule = "@daily"
    duration = "10m"
  }
}
data "aks_nap_disruption_preview" "daily_at_0010" {
  nodes   = 30
  from    = "2026-11-23T00:10:00Z"
  budgets {
    nodes = "20%"
  }
  budgets {
    nodes = "5"
  }
  budgets {
    nodes = "0"
    schedule = "@daily"
    duration = "10m"
  }
}

# "Weekend only": the unscheduled 0 is always active, so nothing is ever allowed.
data "aks_nap_disruption_preview" "weekend_only" {
  nodes   = 10
  from    = "2026-11-21T12:00:00Z" # a Saturday
  budgets {
    nodes = "50%"
    schedule = "0 0 * * 6"
    duration = "48h"
  }
  budgets {
    nodes = "0"
  }
}

# "Gradual": no budget is active outside 02:00-08:00 UTC: unlimited then.
data "aks_nap_disruption_preview" "gradual" {
  nodes   = 10
  from    = "2026-11-23T12:00:00Z"
  budgets {
    nodes = "1"
    schedule = "0 2 * * *"
    duration = "2h"
  }
  budgets {
    nodes = "3"
    schedule = "0 4 * * *"
    duration = "4h"
  }
}

# Percentages round up: 10% of 11 is 2. Two nodes already disrupting use it up.
data "aks_nap_disruption_preview" "rounding" {
  nodes   = 11
  budgets {
    nodes = "10%"
  }
}
data "aks_nap_disruption_preview" "disrupting" {
  nodes      = 11
  disrupting = 2
  budgets {
    nodes = "10%"
  }
}

# An explicitly empty list: unlimited. reasons = [] applies to nothing.
data "aks_nap_disruption_preview" "empty" {
  nodes   = 10
  no_budgets = true
}
data "aks_nap_disruption_preview" "no_reasons" {
  nodes   = 10
  budgets {
    nodes = "0"
    reasons = []
  }
  budgets {
    nodes = "3"
    reasons = ["Drifted"]
  }
}

# A schedule that never fires (30 February) is always active; a 0m duration never is.
data "aks_nap_disruption_preview" "never_fires" {
  nodes   = 10
  budgets {
    nodes = "0"
    schedule = "0 0 30 2 *"
    duration = "1h"
  }
}
data "aks_nap_disruption_preview" "zero_duration" {
  nodes   = 10
  budgets {
    nodes = "0"
    schedule = "@hourly"
    duration = "0m"
  }
}
`
	allowed := func(name string, reason int, v knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(dpAddr(name), attrPath("allowed_now", reason, "allowed"), v)
	}
	n := func(v int64) knownvalue.Check { return knownvalue.Int64Exact(v) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				allowed("default", 0, n(1)),
				statecheck.ExpectKnownValue(dpAddr("default"), tfjsonpath.New("timeline"), knownvalue.ListSizeExact(3)), // constant for each reason
				allowed("weekdays", 0, n(1)),
				statecheck.ExpectKnownValue(dpAddr("weekdays"), attrPath("timeline", 0, "description"), knownvalue.StringExact("Mon 08:00–09:00 UTC: 1 (budget #1)")),
				statecheck.ExpectKnownValue(dpAddr("weekdays"), attrPath("timeline", 1, "description"), knownvalue.StringExact("Mon 09:00–17:00 UTC: 0 (budget #2)")),
				statecheck.ExpectKnownValue(dpAddr("weekdays"), attrPath("timeline", 1, "start"), knownvalue.StringExact("2026-11-23T09:00:00Z")),
				statecheck.ExpectKnownValue(dpAddr("weekdays"), attrPath("timeline", 1, "end"), knownvalue.StringExact("2026-11-23T17:00:00Z")),
				// The same windows for every reason: each once in windows.
				statecheck.ExpectKnownValue(dpAddr("weekdays"), tfjsonpath.New("timeline"), knownvalue.ListSizeExact(9)),
				statecheck.ExpectKnownValue(dpAddr("weekdays"), tfjsonpath.New("windows"), knownvalue.ListSizeExact(3)),
				statecheck.ExpectKnownValue(dpAddr("weekdays"), attrPath("windows", 1), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"start": knownvalue.StringExact("2026-11-23T09:00:00Z"), "end": knownvalue.StringExact("2026-11-23T17:00:00Z"),
					"reasons": listOf("Empty", "Drifted", "Underutilized"), "allowed": n(0), "unlimited": knownvalue.Bool(false),
					"budget_indexes": knownvalue.ListExact([]knownvalue.Check{n(1)}),
					"description":    knownvalue.StringExact("Mon 09:00–17:00 UTC · Empty, Drifted, Underutilized: 0 (budget #2)"),
				})),
				allowed("daily_at_0005", 1, n(0)),
				// Blocked now: next allowed when the 10-minute window ends.
				statecheck.ExpectKnownValue(dpAddr("daily_at_0005"), attrPath("next_allowed", "Drifted"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"at": knownvalue.StringExact("2026-11-23T00:10:00Z"), "allowed": n(5), "unlimited": knownvalue.Bool(false),
					"budget_indexes": knownvalue.ListExact([]knownvalue.Check{n(1)}), "description": knownvalue.StringExact("2026-11-23T00:10:00Z: 5 (budget #2)"),
				})),
				statecheck.ExpectKnownValue(dpAddr("daily_at_0005"), tfjsonpath.New("next_allowed"), knownvalue.MapSizeExact(3)),
				statecheck.ExpectKnownValue(dpAddr("daily_at_0010"), tfjsonpath.New("next_allowed"), knownvalue.MapSizeExact(0)),
				allowed("daily_at_0010", 1, n(5)), // the window's end is exclusive
				statecheck.ExpectKnownValue(dpAddr("daily_at_0010"), attrPath("allowed_now", 1, "budget_indexes"), knownvalue.ListExact([]knownvalue.Check{n(1)})),
				allowed("weekend_only", 0, n(0)),
				statecheck.ExpectKnownValue(dpAddr("weekend_only"), attrPath("next_allowed", "Empty"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"at": knownvalue.Null(), "allowed": knownvalue.Null(), "unlimited": knownvalue.Bool(false), "budget_indexes": knownvalue.ListSizeExact(0),
					"description": knownvalue.StringExact("not before 2026-11-28T12:00:00Z (blocked for the whole timeline)"),
				})),
				statecheck.ExpectKnownValue(dpAddr("weekend_only"), tfjsonpath.New("warnings"), anyElementMatches(`Actually allowed for Empty, Drifted and Underutilized: 0 at all times`)),
				allowed("gradual", 0, knownvalue.Null()),
				statecheck.ExpectKnownValue(dpAddr("gradual"), attrPath("allowed_now", 0, "unlimited"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(dpAddr("gradual"), tfjsonpath.New("warnings"), anyElementMatches(`unlimited outside 02:00–08:00 UTC`)),
				allowed("rounding", 0, n(2)),
				allowed("disrupting", 0, n(0)),
				statecheck.ExpectKnownValue(dpAddr("empty"), attrPath("allowed_now", 2, "unlimited"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(dpAddr("no_reasons"), attrPath("allowed_now", 0, "unlimited"), knownvalue.Bool(true)), // Empty: no budget applies
				allowed("no_reasons", 1, n(3)), // Drifted
				statecheck.ExpectKnownValue(dpAddr("no_reasons"), attrPath("windows", 0, "reasons"), listOf("Empty", "Underutilized")),
				statecheck.ExpectKnownValue(dpAddr("no_reasons"), attrPath("windows", 1, "description"),
					knownvalue.StringExact("Sat 2026-11-21 12:00–Sat 2026-11-28 12:00 UTC · Drifted: 3 (budget #2)")),
				allowed("never_fires", 0, n(0)),
				statecheck.ExpectKnownValue(dpAddr("zero_duration"), attrPath("allowed_now", 0, "unlimited"), knownvalue.Bool(true)),
			},
		}},
	})
}

func TestAccDisruptionPreview_invalid(t *testing.T) {
	cfg := providerConfig(t, "")
	step := func(budgets, want string) resource.TestStep {
		return resource.TestStep{
			Config:      cfg + `data "aks_nap_disruption_preview" "test" {` + "\n  nodes = 10\n" + blocksOf("budgets", budgets) + "}",
			ExpectError: expectError(want),
			PlanOnly:    true,
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			step(`{ nodes = "0", schedule = "0 9 * * 7", duration = "8h" }`, `budgets[0].schedule:`),
			step(`{ nodes = "0", schedule = "0 0 * * sat-sun", duration = "48h" }`, `budgets[0].schedule:`),
			step(`{ nodes = "4294967296" }`, `budgets[0].nodes:`),
			step(`{ nodes = "0", schedule = "@daily", duration = "30s" }`, `budgets[0].duration:`),
			step(`{ nodes = "0", schedule = "@daily" }`, `budgets[0]`),
			step(`{ nodes = "1", reasons = ["Expired"] }`, `budgets[0].reasons:`),
		},
	})
}

// Issue 9 item 11: Karpenter's Budget.IsActive is !Next(now-duration).After(now),
// and robfig/cron's Next returns the zero time — active — when no hit lies
// within five years. With duration 0m, 29 February 2096 is followed by
// 29 February 2104, so the budget turns active at the 2096 hit (and stays so
// until 2099 brings 2104 within the horizon): the timeline changes at the hit.
func TestAccDisruptionPreview_zeroDurationBeyondHorizon(t *testing.T) {
	cfg := providerConfig(t, "") + `
data "aks_nap_disruption_preview" "leap" {
  nodes   = 10
  from    = "2096-02-28T12:00:00Z"
  span    = "48h"
  budgets {
    nodes = "0"
    schedule = "0 0 29 2 *"
    duration = "0m"
  }
}`
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: cfg,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(dpAddr("leap"), attrPath("timeline", 0, "description"), knownvalue.StringExact("Tue 12:00–Wed 00:00 UTC: unlimited (no active budget)")),
			statecheck.ExpectKnownValue(dpAddr("leap"), attrPath("timeline", 1, "start"), knownvalue.StringExact("2096-02-29T00:00:00Z")),
			statecheck.ExpectKnownValue(dpAddr("leap"), attrPath("timeline", 1, "description"), knownvalue.StringExact("Wed 00:00–Thu 12:00 UTC: 0 (budget #1)")),
		},
	}}})
}

// Issue 9 items 9 and 12: duplicate reasons (the CRD declares reasons a set),
// and node counts that are not whole numbers in range, each get one error
// naming the attribute and the rule.
func TestAccDisruptionPreview_invalidInputs(t *testing.T) {
	cfg := providerConfig(t, "")
	step := func(body, want string) resource.TestStep {
		return resource.TestStep{Config: cfg + `data "aks_nap_disruption_preview" "test" {` + "\n" + body + "\n}", ExpectError: expectError(want), PlanOnly: true}
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		step(`nodes = 10
  budgets {
    nodes = "1"
    reasons = ["Empty", "Empty"]
  }`, `budgets[0].reasons: reason "Empty" is listed twice`),
		step(`nodes = 1e30`, `nodes: nodes must be a whole number from 0 to 2147483647, got 1000000000000000000000000000000`),
		step(`nodes = 10
  disrupting = -1`, `disrupting: disrupting must be a whole number from 0 to 2147483647, got -1`),
		step(`nodes = 10
  disrupting = 11`, `disrupting: 11 nodes cannot be disrupting in a pool of 10`),
		step(`nodes = 10
  budgets {
    nodes = 4294967296
  }`, `budgets[0].nodes: 4294967296 is out of range: a node count must be from 0 to 2147483647`),
	}})
}
