package provider

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

const npAddr = "aks_nap_nodepool.test"

// npObj names the test's NodePool in its preview's summary.
const npObj = nodePoolType + " aks-east-prod-01/default"

// nodePoolConfig is a NodePool on the sample fleet's aks-east-prod-01, whose
// NAP pool "default" has 3 nodes (30h, 200h and 700h old).
func nodePoolConfig(labels, budgets string) string {
	return `
resource "aks_nap_nodepool" "test" {
  cluster = "aks-east-prod-01"
  name    = "default"
  template {
    labels         = { ` + labels + ` }
    node_class_ref {
      group = "karpenter.azure.com"
      kind = "AKSNodeClass"
      name = "default"
    }
    requirements {
      key = "karpenter.azure.com/sku-family"
      operator = "In"
      values = ["D", "E"]
    }
  }
  disruption {
    consolidate_after = "30s"
` + blocksOf("budgets", budgets) + `
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
				// A new pool previews the nodes it takes over: the cluster's
				// three labelled karpenter.sh/nodepool=default (issue 24,
				// finding 6). Once applied, its status counts the same three.
				Config: cfg + nodePoolConfig(`team = "web"`, `{ nodes = "2" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(npAddr, plancheck.ResourceActionCreate),
					expectPreview(npObj, "— 3 nodes; disruptions allowed now: 2", "3 nodes, 0 disrupting"),
					expectSection(npObj, "expiring within 7 days", "aks-default-b3n8r  2026-11-22T08:00:00Z"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(npAddr, attrPath("status", "nodes"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(npAddr, attrPath("id"), knownvalue.StringExact("aks-east-prod-01/default")),
				},
			},
			{
				// The pool's live nodes are previewed from now on.
				Config: cfg + nodePoolConfig(`team = "web"`, weekdays),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					// Saturday noon: the weekday budget is inactive; 10% of 3 rounds up to 1.
					expectPreview(npObj, "— 3 nodes; disruptions allowed now: 1",
						"3 nodes, 0 disrupting; expire_after 720h, consolidation_policy WhenEmptyOrUnderutilized"),
					expectSection(npObj, "allowed now", "Empty 1 (budget #1)", "Drifted 1 (budget #1)", "Underutilized 1 (budget #1)"),
					expectSection(npObj, "next allowed"), // nothing blocked now
					expectSection(npObj, "budgets", "#1: 10% · always · all reasons", `#2: 0 · schedule "0 9 * * 1-5" for 8h · all reasons`),
					// Monday 09:00–17:00 UTC the weekday budget blocks disruption, for every reason: one line.
					expectPreviewLine(npObj, lineIs("Sat 12:00–Mon 09:00 UTC · Empty, Drifted, Underutilized: 1 (budget #1)")),
					expectPreviewLine(npObj, lineIs("Mon 09:00–17:00 UTC · Empty, Drifted, Underutilized: 0 (budget #2)")),
					expectSectionSize(npObj, "the next 7 days", 11), // 5 weekday windows and 6 between
					// The 700h-old node expires at 720h, within 7 days.
					expectSection(npObj, "expiring within 7 days", "aks-default-b3n8r 2026-11-22T08:00:00Z"),
					expectPreview(npObj, "drift:", "0 of 3 node(s) drift"),
				}},
			},
			{
				// A budget change drifts nothing.
				Config: cfg + nodePoolConfig(`team = "web"`, `{ nodes = "2" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(npAddr, plancheck.ResourceActionUpdate),
					expectSection(npObj, "drift", "0 of 3 node(s) drift: disruption.budgets changed (never drifts)", "no drifted node to replace"),
					expectPreviewLine(npObj, keyLine("Empty", "2 (budget #1)")),
					expectSection(npObj, "the next 7 days", "Sat 2026-11-21 12:00–Sat 2026-11-28 12:00 UTC · Empty, Drifted, Underutilized: 2 (budget #1)"),
				}},
			},
			{
				// A template label change drifts every node; 2 at a time takes 2 passes.
				Config: cfg + nodePoolConfig(`team = "payments"`, `{ nodes = "2" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectSection(npObj, "drift", "3 of 3 node(s) drift: template.labels changed (drifts every node)",
						"3 drifted node(s): 2 per pass (budget #1), 2 pass(es), starting now",
						"aks-default-7xk2p template.labels", "aks-default-9qw4m template.labels", "aks-default-b3n8r template.labels"),
				}},
			},
			{
				ResourceName:      npAddr,
				ImportState:       true,
				ImportStateId:     "aks-east-prod-01/default",
				ImportStateVerify: true,
			},
		},
	})
}

// blockedBudgets allow 2 at all times, block Empty over the weekend and
// Drifted at all times: on the test clock (Saturday noon) Empty and Drifted
// are blocked.
const blockedBudgets = `{ nodes = "2" },
      { nodes = "0", schedule = "0 0 * * 6", duration = "48h", reasons = ["Empty"] },
      { nodes = "0", reasons = ["Drifted"] }`

// blockedPreview is what the preview of nodePoolConfig with blockedBudgets
// says, by section.
var blockedPreview = map[string][]string{
	"allowed now": {"Empty 0 (budget #2)", "Drifted 0 (budget #3)", "Underutilized 2 (budget #1)"},
	"next allowed": {"Empty 2026-11-23T00:00:00Z: 2 (budget #1)",
		"Drifted not before 2026-11-28T12:00:00Z (blocked for the whole timeline)"},
	// Windows the reasons share are printed once, the others once per reason.
	"the next 7 days": {
		"Sat 12:00–Mon 00:00 UTC · Empty: 0 (budget #2)",
		"Sat 2026-11-21 12:00–Sat 2026-11-28 12:00 UTC · Drifted: 0 (budget #3)",
		"Sat 2026-11-21 12:00–Sat 2026-11-28 12:00 UTC · Underutilized: 2 (budget #1)",
		"Mon 00:00–Sat 00:00 UTC · Empty: 2 (budget #1)",
		"Sat 00:00–12:00 UTC · Empty: 0 (budget #2)",
	},
	"budgets":                {"#1: 2 · always · all reasons", `#2: 0 · schedule "0 0 * * 6" for 48h · Empty`, "#3: 0 · always · Drifted"},
	"expiring within 7 days": {"aks-default-b3n8r 2026-11-22T08:00:00Z"},
}

// blockedChecks check every section of blockedPreview.
func blockedChecks(obj string) []plancheck.PlanCheck {
	var checks []plancheck.PlanCheck
	for title, lines := range blockedPreview {
		checks = append(checks, expectSection(obj, title, lines...))
	}
	return checks
}

// Reasons blocked now say when they are next allowed.
func TestAccNodePool_nextAllowed(t *testing.T) {
	cfg := providerConfig(t, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: cfg + nodePoolConfig(`team = "web"`, `{ nodes = "2" }`)}, // a new pool has no nodes to preview
			{Config: cfg + nodePoolConfig(`team = "web"`, blockedBudgets), ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(blockedChecks(npObj),
				expectPreview(npObj, "— 3 nodes; disruptions allowed now: Empty, Drifted 0; Underutilized 2"))}},
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
	pool := func(template, disruption string) string { return cfg + issue9Pool(template, disruption) }
	ok := `consolidate_after = "30s"`
	cases := []struct{ config, want string }{
		{pool(`requirements {
  key = "karpenter.sh/capacity-type"
  operator = "Gtx"
  values = ["1"]
}`, ok), `template.requirements[0].operator:`},
		{pool(`requirements {
  key = "karpenter.sh/capacity-type"
  operator = "In"
  values = ["preemptible"]
}`, ok), `template.requirements[0]`},
		{pool(`labels = { "karpenter.sh/nodepool" = "x" }`, ok), `template.labels["karpenter.sh/nodepool"]:`},
		{pool(`labels = { "kubernetes.azure.com/agentpool-name" = "x" }`, ok), `template.labels["kubernetes.azure.com/agentpool-name"]:`},
		{pool(`taints {
  key = "a"
  effect = "NoSchedule"
}
startup_taints {
  key = "a"
  effect = "NoSchedule"
}`, ok), `template.startup_taints[0]`},
		{pool(`expire_after = "30d"`, ok), `template.expire_after:`},
		{pool("", `no_budgets = true`), `disruption.consolidate_after:`}, // an explicit block needs it
		{pool("", ok+"\n"+blocksOf("budgets", "{ nodes = \"0\", schedule = \"0 9 * * 7\", duration = \"8h\" }")), `disruption.budgets[0].schedule:`},
		{pool("", ok+"\n"+blocksOf("budgets", "{ nodes = \"0\", schedule = \"0 0 * * sat-sun\", duration = \"8h\" }")), `disruption.budgets[0].schedule:`},
		{pool("", ok+"\n"+blocksOf("budgets", "{ nodes = \"2147483648\" }")), `disruption.budgets[0].nodes:`},
		{pool("", ok+"\n"+blocksOf("budgets", "{ nodes = \"1\", schedule = \"@daily\" }")), `disruption.budgets[0]`},
		{pool("", ok+"\nconsolidation_policy = \"Always\""), `disruption.consolidation_policy:`},
	}
	steps := []resource.TestStep{}
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: c.config, ExpectError: expectError(c.want), PlanOnly: true})
	}
	steps = append(steps, resource.TestStep{
		Config: strings.Replace(pool("", ok), `"aks-east-prod-01"`, `"aks-nowhere-01"`, 1), ExpectError: expectError(`cluster: "aks-nowhere-01" is not a member cluster of the fleet`), PlanOnly: true,
	}, resource.TestStep{
		// A slip names the members closest to it.
		Config: strings.Replace(pool("", ok), `"aks-east-prod-01"`, `"aks-east-prd-01"`, 1), PlanOnly: true,
		ExpectError: expectError(`cluster: "aks-east-prd-01" is not a member cluster of the fleet; did you mean "aks-east-prod-01"`),
	})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: steps})
}

// issue9Pool is a NodePool with the given template and disruption lines
// (disruption omitted when "").
func issue9Pool(template, disruption string) string {
	d := ""
	if disruption != "" {
		d = "\n  disruption {\n" + disruption + "\n  }"
	}
	return `
resource "aks_nap_nodepool" "test" {
  cluster = "aks-east-prod-01"
  name    = "batch"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind = "AKSNodeClass"
      name = "default"
    }
    ` + template + `
  }` + d + `
}`
}

// Issue 9 items 8, 9 and 12: what Kubernetes with the AKS NodePool CRD, or
// Karpenter and AKS Karpenter at runtime, reject is rejected at plan, with
// the attribute, the rule and the fix.
func TestAccNodePool_rejectedLikeKarpenter(t *testing.T) {
	cfg := providerConfig(t, "")
	ok := `consolidate_after = "30s"`
	labels := make([]string, 101)
	for i := range labels {
		labels[i] = fmt.Sprintf(`"example.com/l%d" = "x"`, i)
	}
	cases := []struct{ config, want string }{
		// Item 8 — validateWellKnownValues (pkg/apis/v1/nodeclaim_validation.go): an In
		// requirement none of whose values is known, or with fewer known values than
		// minValues, is rejected; the AKS provider registers the closed sets.
		{issue9Pool(`requirements {
  key = "kubernetes.azure.com/scalesetpriority"
  operator = "In"
  values = ["low"]
}`, ok),
			`template.requirements[0].values: none of ["low"] is a known value of kubernetes.azure.com/scalesetpriority`},
		{issue9Pool(`requirements {
  key = "karpenter.sh/capacity-type"
  operator = "In"
  values = ["spot", "reserved"]
  min_values = 2
}`, ok),
			`template.requirements[0].min_values: min_values is 2 but only 1 of ["spot" "reserved"] are known values`},
		// Item 9 — the CRD: nodeClassRef.group pattern ^[^/]*$; labels maxProperties 100;
		// reasons x-kubernetes-list-type set; a taint value's pattern needs a character.
		{strings.Replace(issue9Pool("", ok), `group = "karpenter.azure.com"`, `group = "karpenter.azure.com/v1beta1"`, 1),
			`template.node_class_ref.group: group "karpenter.azure.com/v1beta1" contains '/'`},
		{issue9Pool(`labels = { `+strings.Join(labels, ", ")+` }`, ok), `template.labels: at most 100 labels are allowed, got 101`},
		{issue9Pool("", ok+`
    budgets {
      nodes = "1"
      reasons = ["Drifted", "Drifted"]
    }`), `disruption.budgets[0].reasons: reason "Drifted" is listed twice`},
		{issue9Pool(`taints {
  key = "example.com/gpu"
  value = ""
  effect = "NoSchedule"
}`, ok),
			`template.taints[0].value: taint value "" is not allowed: the CRD rejects an explicit empty value. Omit value`},
		// Item 9 — the API server's object-metadata rules on the NodeClaims Karpenter creates
		// (apimachinery ValidateAnnotations), and AKS Karpenter's IsRestrictedLabel for
		// karpenter.azure.com/aksnodeclass (the AKS CRD admits it).
		{issue9Pool(`annotations = { "bad key" = "x" }`, ok), `template.annotations["bad key"]: annotation key "bad key" is not a qualified name`},
		{issue9Pool(`labels = { "karpenter.azure.com/aksnodeclass" = "default" }`, ok),
			`template.labels["karpenter.azure.com/aksnodeclass"]: label "karpenter.azure.com/aksnodeclass" is restricted: the AKS CRD admits it, but AKS Karpenter rejects it`},
		{issue9Pool(`requirements {
  key = "karpenter.azure.com/aksnodeclass"
  operator = "Exists"
}`, ok),
			`template.requirements[0].key: label "karpenter.azure.com/aksnodeclass" is restricted`},
		// Item 12 — numbers: the CRD's int32 weight (1–100), minValues (1–50), and budget
		// node counts that Karpenter reads as int32.
		{strings.Replace(issue9Pool("", ok), `name    = "batch"`, "name    = \"batch\"\n  weight  = 2.5", 1), `weight: weight must be a whole number from 1 to 100, got 2.5`},
		{issue9Pool(`requirements {
  key = "karpenter.azure.com/sku-family"
  operator = "In"
  values = ["D", "E"]
  min_values = 1.5
}`, ok),
			`template.requirements[0].min_values: min_values must be a whole number from 1 to 50, got 1.5`},
		{issue9Pool("", ok+`
    budgets {
      nodes = 99999999999999999999
    }`), `disruption.budgets[0].nodes: 99999999999999999999 is out of range: a node count must be from 0 to 2147483647`},
	}
	steps := []resource.TestStep{}
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: cfg + c.config, ExpectError: expectError(c.want), PlanOnly: true})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: steps})
}

// Issue 9 items 7, 8 and 10: what Kubernetes with the AKS CRD and Karpenter
// admit is planned and applied, and plans no change afterwards.
func TestAccNodePool_admittedLikeKarpenter(t *testing.T) {
	cfg := providerConfig(t, "")
	steps := []resource.TestStep{}
	for _, c := range []struct {
		config string
		checks []plancheck.PlanCheck
	}{
		// Item 10 — the CRD defaults an omitted disruption block to
		// {consolidateAfter: 0s}, then budgets and consolidationPolicy inside it.
		{issue9Pool("", ""), []plancheck.PlanCheck{
			expectPreview(nodePoolType+" aks-east-prod-01/batch", "consolidation_policy WhenEmptyOrUnderutilized"),
			expectSection(nodePoolType+" aks-east-prod-01/batch", "budgets", "#1: 10% · always · all reasons"),
		}},
		// Item 10 — an empty limits key (the CRD's limits admit any key) and a taint value
		// with a prefix (the CRD's pattern and Karpenter's IsQualifiedName admit it).
		{strings.Replace(issue9Pool(`taints {
  key = "example.com/gpu"
  value = "example.com/a100"
  effect = "NoSchedule"
}
taints {
  key = "example.com/spot"
  effect = "NoExecute"
}`, ""),
			`name    = "batch"`, "name    = \"batch\"\n  limits  = { \"\" = \"1\", cpu = \"100\" }", 1), nil},
		// Item 7 — Balanced is in both CRDs' enum.
		{issue9Pool("", `consolidate_after = "1m"
    consolidation_policy = "Balanced"`), []plancheck.PlanCheck{
			expectPreview(nodePoolType+" aks-east-prod-01/batch", "consolidation_policy Balanced"),
		}},
		// Item 8 — a mixed In list passes validateWellKnownValues; NotIn is not checked;
		// kubernetes.io and k8s.io keys are not restricted by Karpenter v1.14.1 or the AKS CRD.
		{issue9Pool(`labels = { "kubernetes.io/team" = "a", "kops.k8s.io/instancegroup" = "b" }
    requirements {
      key = "karpenter.sh/capacity-type"
      operator = "In"
      values = ["spot", "reserved"]
    }
    requirements {
      key = "kubernetes.azure.com/os-sku"
      operator = "NotIn"
      values = ["Windows2022"]
    }`, `consolidate_after = "0s"`), nil},
	} {
		steps = append(steps,
			resource.TestStep{Config: cfg + c.config, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: c.checks}},
			resource.TestStep{Config: cfg + c.config, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		)
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: steps})
}

// A NodePool deleted outside Terraform (kubectl delete nodepool) is gone
// from the state at the next refresh, and the plan creates it again.
func TestAccNodePool_deletedOutOfBandIsRecreated(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	cfg := providerConfigAt(state, "", testClock) + nodePoolConfig(`team = "web"`, `{ nodes = "2" }`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					if err := hubOf(t, state, "", testClock).DeleteNodePool(context.Background(), "aks-east-prod-01", "default", hub.Precondition{}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(npAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// A new NodePool's preview counts the nodes it takes over (issue 24,
// finding 6): aks-east-prod-01 has three nodes labelled
// karpenter.sh/nodepool=default and no NodePool of that name; creating one
// with expire_after = "168h" previews those three nodes and what its budgets
// allow for three nodes — as the pool holds them after apply. Each expires
// by its own claim's expireAfter (the CRD's default 720h: the sample
// inventory gives none), not by the new pool's 168h (finding 8).
func TestAccNodePool_createCountsTheNodesItTakesOver(t *testing.T) {
	cfg := providerConfig(t, "") + `
resource "aks_nap_nodepool" "n" {
  cluster = "aks-east-prod-01"
  name    = "default"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind  = "AKSNodeClass"
      name  = "default"
    }
    expire_after = "168h"
  }
}
`
	obj := nodePoolType + " aks-east-prod-01/default"
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: cfg,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			expectPreview(obj, "3 nodes; disruptions allowed now: 1"),
			expectSection(obj, "expiring within 7 days", "aks-default-b3n8r  2026-11-22T08:00:00Z"),
		}},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("aks_nap_nodepool.n", attrPath("status", "nodes"), knownvalue.Int64Exact(3)),
		},
	}}})
}

// napFleet: a member whose pool "default" has two nodes on a node image that
// turns 90 days old on Sunday 2026-11-22 23:30 UTC, a replacement launched
// and not initialized yet, an instance terminating, and a node launched
// with expireAfter 336h 400 hours ago.
const napFleet = `
regions:
  - name: eastus
    kubernetes_versions:
      - { version: 1.33.2, released_at: "2026-10-14T00:00:00Z" }
clusters:
  - name: n-1
    region: eastus
    labels: { env: prod }
    agent: { heartbeat_age: 30s }
    kubernetes_version: 1.33.2
    nap_nodes:
      - { name: n1-a, nodepool: default, age: 100h, labels: { kubernetes.azure.com/node-image-version: AKSUbuntu-2204gen2containerd-202608.25.0 } }
      - { name: n1-b, nodepool: default, age: 100h, labels: { kubernetes.azure.com/node-image-version: AKSUbuntu-2204gen2containerd-202608.25.0 } }
      - { name: n1-c, nodepool: default, age: 2h, ready: false, initialized: false, labels: { kubernetes.azure.com/node-image-version: AKSUbuntu-2204gen2containerd-202611.10.0 } }
      - { name: n1-d, nodepool: default, age: 300h, marked_for_deletion: true, instance_terminating: true }
      - { name: n1-e, nodepool: default, age: 400h, expire_after: 336h, labels: { kubernetes.azure.com/node-image-version: AKSUbuntu-2204gen2containerd-202611.10.0 } }
`

// The three differences from Karpenter and AKS of issue 24, finding 8, on a
// new pool's preview (the mock hub, and the azure hub reading the same
// nodes as NodeClaims and Nodes from the member's API server):
//   - the budgets count only initialized nodes whose instance is not
//     terminating (Karpenter's BuildDisruptionBudgetMapping): 3 nodes, of
//     which 50% allows 2 — counting all five, 3 less 2 disrupting would
//     allow 1;
//   - n1-e expires by its own claim's expireAfter, 336h, so it is overdue
//     (by the pool's 720h it would not expire this week);
//   - AKS NAP refreshes the node image of n1-a and n1-b when it turns 90
//     days old, outside any maintenance window: its own line of the timeline.
func TestAccNodePool_countsExpiresAndRefreshesAsKarpenterAndAKS(t *testing.T) {
	cfg := providerConfig(t, writeFleet(t, napFleet)) +
		strings.Replace(nodePoolConfig(`team = "web"`, `{ nodes = "50%" }`), `"aks-east-prod-01"`, `"n-1"`, 1)
	obj := nodePoolType + " n-1/default"
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: cfg,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			expectPreview(obj, "3 nodes; disruptions allowed now: 2",
				"3 nodes, 0 disrupting (besides 1 not initialized and 1 terminating, which the budgets do not count)",
				"Sun 2026-11-22 23:30 UTC · node image refresh (AKS): AKSUbuntu-2204gen2containerd-202608.25.0 turns 90 days old; "+
					"2 nodes drift, replaced at the Drifted allowance even outside maintenance windows"),
			expectSection(obj, "expiring within 7 days", "n1-e  2026-11-18T20:00:00Z (overdue)"),
		}},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("aks_nap_nodepool.test", attrPath("status", "nodes"), knownvalue.Int64Exact(3)),
			statecheck.ExpectKnownValue("aks_nap_nodepool.test", attrPath("status", "ready"), knownvalue.Int64Exact(3)),
			statecheck.ExpectKnownValue("aks_nap_nodepool.test", attrPath("status", "disrupting"), knownvalue.Int64Exact(0)),
			statecheck.ExpectKnownValue("aks_nap_nodepool.test", attrPath("status", "node_names"), knownvalue.ListSizeExact(5)),
		},
	}, {
		// A label change drifts the four nodes that are not going already
		// (n1-d's instance is terminating), replaced two per pass.
		Config: strings.Replace(cfg, `team = "web"`, `team = "api"`, 1),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			expectSection(obj, "drift", "4 of 4 node(s) drift: template.labels changed (drifts every node)",
				"4 drifted node(s): 2 per pass (budget #1), 2 pass(es), starting now",
				"n1-a  template.labels", "n1-b  template.labels", "n1-c  template.labels", "n1-e  template.labels"),
		}},
	}}})
}

// silentCluster is a hub whose member clusters do not answer: reading a
// pool's nodes fails (a cluster being created by the same apply, or not
// serving NodePools yet).
type silentCluster struct{ hub.Hub }

func (silentCluster) NodePoolNodes(context.Context, string, string) (hub.NodePoolStatus, error) {
	return hub.NodePoolStatus{}, errors.New("dial tcp: connection refused")
}

// A new pool whose cluster does not answer at plan is previewed with its
// node count unknown, never 0; a review cannot be checked then, and the plan
// says so (issue 24, Deliver 5).
func TestAccNodePool_createOnASilentCluster(t *testing.T) {
	cfg := providerConfig(t, "") + nodePoolConfig(`team = "web"`, `{ nodes = "2" }`)
	obj := nodePoolType + " aks-east-prod-01/default"
	silent := providersWith(func(h hub.Hub) hub.Hub { return silentCluster{h} })["aks"]
	providers := map[string]func() (tfprotov6.ProviderServer, error){"aks": func() (tfprotov6.ProviderServer, error) {
		s, err := silent()
		return recordingServer{s}, err // the previews, as testAccProviders records them
	}}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: providers, Steps: []resource.TestStep{
		{Config: strings.Replace(cfg, `name    = "default"`, "name    = \"default\"\n  reviewed_preview = \"x\"", 1), PlanOnly: true,
			ExpectError: regexp.MustCompile(`Cannot check the review|Invalid reviewed_preview`)},
		{Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				expectPreview(obj, "the pool's nodes are unknown at plan", "takes over, and what its budgets allow for them, are unknown until apply"),
				expectPreviewLacks(obj, "0 nodes"),
			}}},
	}})
}
