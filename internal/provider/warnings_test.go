package provider

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

// protocolPlan plans a new resource through the provider protocol, as
// Terraform does, and returns the diagnostics (plugin-testing does not show
// warnings).
func protocolPlan(t *testing.T, typeName string, config any) []*tfprotov6.Diagnostic {
	t.Helper()
	ctx := context.Background()
	server, schemas := protocolServer(t)
	rt := schemas.ResourceSchemas[typeName].ValueType()
	cfg, err := encode(config, rt)
	if err != nil {
		t.Fatal(err)
	}
	cv, _ := tfprotov6.NewDynamicValue(rt, cfg)
	prior, _ := tfprotov6.NewDynamicValue(rt, tftypes.NewValue(rt, nil))
	resp, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: &prior, ProposedNewState: &cv, Config: &cv,
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

// protocolRead reads a data source through the provider protocol and returns
// the diagnostics.
func protocolRead(t *testing.T, typeName string, config any) []*tfprotov6.Diagnostic {
	t.Helper()
	server, schemas := protocolServer(t)
	dt := schemas.DataSourceSchemas[typeName].ValueType()
	cfg, err := encode(config, dt)
	if err != nil {
		t.Fatal(err)
	}
	cv, _ := tfprotov6.NewDynamicValue(dt, cfg)
	resp, err := server.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: &cv})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

// protocolServer is the provider configured with the mock hub on the sample
// fleet, a private state and the fixed clock, and its schemas.
func protocolServer(t *testing.T) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	t.Helper()
	ctx := context.Background()
	server := providerserver.NewProtocol6(New("test")())()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	providerType := schemas.Provider.ValueType()
	mockType := providerType.(tftypes.Object).AttributeTypes["mock"]
	providerCfg, err := encode(map[string]any{"mock": map[string]any{
		"state_path": filepath.Join(t.TempDir(), "state.db"), "clock": "fixed", "clock_time": testClock,
	}}, providerType)
	if err != nil {
		t.Fatal(err, mockType)
	}
	dv, _ := tfprotov6.NewDynamicValue(providerType, providerCfg)
	if resp, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &dv}); err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	return server, schemas
}

// warningsOf are the details of the warnings that are not previews.
func warningsOf(diags []*tfprotov6.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		if _, preview := previewObject(d); !preview && d.Severity == tfprotov6.DiagnosticSeverityWarning {
			out = append(out, d.Detail)
		}
	}
	return out
}

func errorsOf(diags []*tfprotov6.Diagnostic) []string {
	return detailsOf(diags, tfprotov6.DiagnosticSeverityError)
}

// detailsOf are the details of the diagnostics of one severity.
func detailsOf(diags []*tfprotov6.Diagnostic, severity tfprotov6.DiagnosticSeverity) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == severity {
			out = append(out, d.Detail)
		}
	}
	return out
}

func TestPlacementPlanWarnings(t *testing.T) {
	n := func(v int) *int { return &v }
	sel := []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}}
	cases := []struct {
		name   string
		policy placement.Policy
		want   []string
	}{
		{"unfulfilled PickN", placement.Policy{PlacementType: placement.PickN, NumberOfClusters: n(20)},
			[]string{"could not find all clusters needed as specified by the scheduling policy, found 10 cluster(s) instead"}},
		{"PickFixed names not found or not eligible", placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{"aks-east-prod-01", "aks-weu-dev-01", "aks-gone-01"}},
			[]string{`"aks-weu-dev-01"`, "heartbeat older than 5m", `"aks-gone-01"`}},
		{"sorter on a property no cluster has", placement.Policy{PlacementType: placement.PickN, NumberOfClusters: n(2), Affinity: &placement.Affinity{
			Preferred: []placement.PreferredTerm{{Weight: 50, Preference: placement.ClusterSelectorTerm{PropertySorter: &placement.PropertySorter{Name: "kubernetes.azure.com/node-count", SortOrder: placement.Descending}}}}}},
			[]string{"kubernetes.azure.com/node-count", "kubernetes-fleet.io/node-count"}},
		{"required affinity matches nothing", placement.Policy{Affinity: &placement.Affinity{Required: []placement.ClusterSelectorTerm{
			{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"env": "nowhere"}}}}}},
			[]string{"policy.affinity.required"}},
		// Issue 9 item 5: Fleet admits PickFixed without names (the CRD sets
		// no minItems; the webhook checks only names and uniqueness) and
		// skips its cycle (framework.go runSchedulingCycleForPickFixedPlacementType).
		{"PickFixed without names", placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{}},
			[]string{"policy.cluster_names: cluster_names is empty: Fleet admits the placement but skips its scheduling cycle, so it places nowhere"}},
		// Issue 9 item 4: Fleet's webhook admits a resource name with a '-'
		// (validateName splits at the first '-'), its scheduler splits at
		// every '-' and fails the cycle (clusteraffinity retrieveResourceUsageFrom).
		{"admitted but never scheduled", placement.Policy{PlacementType: placement.PickN, NumberOfClusters: n(2), Affinity: &placement.Affinity{
			Preferred: []placement.PreferredTerm{{Weight: 10, Preference: placement.ClusterSelectorTerm{PropertySorter: &placement.PropertySorter{
				Name: "resources.kubernetes-fleet.io/total-ephemeral-storage", SortOrder: placement.Descending}}}}}},
			[]string{"policy.affinity.preferred[0].preference.property_sorter.name: Fleet admits this placement, but every scheduling cycle fails, so it is never scheduled",
				`property "resources.kubernetes-fleet.io/total-ephemeral-storage" cannot be read by Fleet's scheduler`, "Use a resource whose name has no '-'"}},
		// Issue 9 item 3: Fleet admits an upper-case resource name (the whole
		// name is a qualified name) and compares it exactly: it matches
		// nothing. A segmented name such as the vm-size counts is valid.
		{"upper-case resource name", placement.Policy{PlacementType: placement.PickN, NumberOfClusters: n(2), Affinity: &placement.Affinity{
			Required: []placement.ClusterSelectorTerm{{PropertySelector: &selector.PropertySelector{MatchExpressions: []selector.PropertyExpression{
				{Name: "kubernetes.azure.com/vm-sizes/Standard_D8s_v5/count", Operator: selector.OpGe, Values: []string{"1"}},
				{Name: "resources.kubernetes-fleet.io/available-CPU", Operator: selector.OpGe, Values: []string{"1"}}}}}}}},
			[]string{"policy.affinity.required[0].property_selector.match_expressions[1].name", "Kubernetes resource names are lower case",
				`did you mean "resources.kubernetes-fleet.io/available-cpu"`}},
		// Issue 23: a memory quantity without a unit is bytes.
		{"memory without a unit", placement.Policy{PlacementType: placement.PickN, NumberOfClusters: n(2), Affinity: &placement.Affinity{
			Required: []placement.ClusterSelectorTerm{{PropertySelector: &selector.PropertySelector{MatchExpressions: []selector.PropertyExpression{
				{Name: "resources.kubernetes-fleet.io/available-memory", Operator: selector.OpLe, Values: []string{"64"}}}}}}}},
			[]string{`policy.affinity.required[0].property_selector.match_expressions[0].values[0]: "64" has no unit, so it is 64 bytes of memory`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := struct {
				Name              string                       `json:"name"`
				ResourceSelectors []placement.ResourceSelector `json:"resource_selectors"`
				Policy            placement.Policy             `json:"policy"`
			}{"web", sel, c.policy}
			diags := protocolPlan(t, "aks_fleet_placement", cfg)
			warnings := strings.Join(warningsOf(diags), "\n")
			for _, d := range diags {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					t.Fatalf("error: %s: %s", d.Summary, d.Detail)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(warnings, w) {
					t.Errorf("warnings do not mention %q:\n%s", w, warnings)
				}
			}
		})
	}
	// A satisfiable policy plans without warnings.
	ok := struct {
		Name              string                       `json:"name"`
		ResourceSelectors []placement.ResourceSelector `json:"resource_selectors"`
		Policy            placement.Policy             `json:"policy"`
	}{"web", sel, placement.Policy{PlacementType: placement.PickN, NumberOfClusters: n(2)}}
	if w := warningsOf(protocolPlan(t, "aks_fleet_placement", ok)); len(w) > 0 {
		t.Fatalf("unexpected warnings: %v", w)
	}
}

func TestAccPlacementPreview_dataSource(t *testing.T) {
	cfg := providerConfig(t, "")
	const addr = "data.aks_fleet_placement_preview.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg + `
data "aks_fleet_placement_preview" "test" {
  policy {
    placement_type     = "PickN"
    number_of_clusters = 3
    affinity {
      preferred {
        weight = 100
        preference {
          property_sorter {
            name = "kubernetes.azure.com/per-cpu-core-cost"
            sort_order = "Ascending"
          }
        }
      }
    }
  }
  held_clusters = ["aks-weu-prod-02"]
  preview_limit = 2
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					// A held cluster stays held; the other two are the cheapest.
					statecheck.ExpectKnownValue(addr, attrPath("preview", "decisions"), knownvalue.ListSizeExact(5)),
					statecheck.ExpectKnownValue(addr, attrPath("preview", "decisions", 0, "cluster_name"), knownvalue.StringExact("aks-east-prod-01")),
					statecheck.ExpectKnownValue(addr, attrPath("preview", "decisions", 1, "cluster_name"), knownvalue.StringExact("aks-sea-prod-01")),
					statecheck.ExpectKnownValue(addr, attrPath("preview", "decisions", 2, "cluster_name"), knownvalue.StringExact("aks-weu-prod-02")),
					statecheck.ExpectKnownValue(addr, attrPath("preview", "left_out_total"), knownvalue.Int64Exact(9)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("warnings"), knownvalue.ListSizeExact(0)),
				},
			},
			{
				Config: cfg + `
data "aks_fleet_placement_preview" "test" {
  policy {
    placement_type     = "PickN"
    number_of_clusters = 2
    affinity {
      required {
        property_selector {
          match_expressions {
            name = "kubernetes.azure.com/node-count"
            operator = "Ge"
            values = ["5"]
          }
        }
      }
    }
  }
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("preview", "summary", "fulfilled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("warnings"), knownvalue.ListPartial(map[int]knownvalue.Check{
						0: knownvalue.StringRegexp(regexp.MustCompile(`kubernetes\.azure\.com/node-count.*kubernetes-fleet\.io/node-count`)),
					})),
				},
			},
		},
	})
}

func TestNodePoolPlanWarnings(t *testing.T) {
	s := func(v string) *string { return &v }
	pool := func(budgets ...nodepool.Budget) any {
		return nodePoolModel{Cluster: "aks-east-prod-01", Name: "default", NodePool: nodepool.NodePool{
			Template:   nodepool.Template{NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}},
			Disruption: &nodepool.Disruption{ConsolidateAfter: s("30s"), Budgets: budgets},
		}}
	}
	cases := []struct {
		name string
		pool any
		want string
	}{
		{"weekend only", pool(nodepool.Budget{Nodes: s("50%"), Schedule: s("0 0 * * 6"), Duration: s("48h")}, nodepool.Budget{Nodes: s("0")}),
			"0 at all times"},
		{"gradual", pool(nodepool.Budget{Nodes: s("1"), Schedule: s("0 2 * * *"), Duration: s("2h")}, nodepool.Budget{Nodes: s("3"), Schedule: s("0 4 * * *"), Duration: s("4h")}),
			"unlimited outside 02:00–08:00 UTC"},
		{"explicitly empty budgets", emptyBudgetsPool(), "disruption.budgets: no_budgets = true (Karpenter's budgets: []), so no budget limits"},
		// Issue 9 item 7: Karpenter's EvaluateBalancedMove approves a consolidation
		// move of a Balanced pool only when its score passes (k = 2).
		{"Balanced", func() any {
			m := pool(nodepool.Budget{Nodes: s("10%")}).(nodePoolModel)
			m.Disruption.ConsolidationPolicy = s("Balanced")
			return m
		}(), "disruption.consolidation_policy: Balanced consolidates an underutilized node only when the cost it saves outweighs the disruption"},
		// Issue 9 item 8: validateWellKnownValues admits a mixed In list and only logs
		// the unknown values, which never match.
		{"mixed known and unknown values", func() any {
			m := pool(nodepool.Budget{Nodes: s("10%")}).(nodePoolModel)
			m.Template.Requirements = []nodepool.Requirement{{Key: "karpenter.sh/capacity-type", Operator: "In", Values: []string{"spot", "reserved"}}}
			return m
		}(), `template.requirements[0].values: ["reserved"] can never match: karpenter.sh/capacity-type only takes on-demand, spot`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diags := protocolPlan(t, "aks_nap_nodepool", c.pool)
			for _, d := range diags {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					t.Fatalf("error: %s: %s", d.Summary, d.Detail)
				}
			}
			if w := strings.Join(warningsOf(diags), "\n"); !strings.Contains(w, c.want) {
				t.Fatalf("warnings do not say %q:\n%s", c.want, w)
			}
		})
	}
}

// emptyBudgetsPool has `no_budgets = true`, which is not the same as unset.
func emptyBudgetsPool() any {
	ca := "30s"
	return nodePoolModel{Cluster: "aks-east-prod-01", Name: "default", NodePool: nodepool.NodePool{
		Template:   nodepool.Template{NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}},
		Disruption: &nodepool.Disruption{ConsolidateAfter: &ca, Budgets: []nodepool.Budget{}},
	}}
}

// Issue 23: a run's kubernetes_version with a leading v, or one no region has
// released, plans with a warning naming the attribute.
func TestUpdateRunVersionWarnings(t *testing.T) {
	for v, want := range map[string]string{
		"v1.33.2": `upgrade.kubernetes_version: "v1.33.2" has a leading v: it is read as 1.33.2`,
		"1.35.0":  "upgrade.kubernetes_version: no region of the fleet has released Kubernetes 1.35.0, not even in preview",
	} {
		cfg := updateRunModel{Name: "r", Upgrade: update.Upgrade{Type: update.UpgradeFull, KubernetesVersion: v}}
		if w := strings.Join(warningsOf(protocolPlan(t, "aks_fleet_update_run", cfg)), "\n"); !strings.Contains(w, want) {
			t.Errorf("%s: warnings do not say %q:\n%s", v, want, w)
		}
	}
	cfg := updateRunModel{Name: "r", Upgrade: update.Upgrade{Type: update.UpgradeFull, KubernetesVersion: "1.33.2"}}
	if w := warningsOf(protocolPlan(t, "aks_fleet_update_run", cfg)); slices.ContainsFunc(w, func(s string) bool { return strings.Contains(s, "kubernetes_version") }) {
		t.Errorf("a released version plans without a version warning: %v", w)
	}
}

// A plan that starts a run predicted to fail warns once, naming the first
// member that fails, where, why, and how to skip it (issue 24, finding 4);
// one that creates the run without starting it does not.
func TestPlanWarnsOfAPredictedFailure(t *testing.T) {
	// In the sample fleet, aks-sea-prod-01's upgrade fails (a drain timeout).
	started := updateRunModel{Name: "r", Upgrade: update.Upgrade{Type: update.UpgradeFull, KubernetesVersion: "1.32.6"}, Start: true}
	var failing []string
	for _, w := range protocolPlan(t, "aks_fleet_update_run", started) {
		if w.Summary == "The run is predicted to fail" {
			failing = append(failing, w.Detail)
		}
	}
	if len(failing) != 1 || !strings.Contains(failing[0], "member aks-sea-prod-01 (default/default) fails at 2026-11-21 12:00: UpgradeFailed") ||
		!strings.Contains(failing[0], `skip { type = "Member" name = "aks-sea-prod-01" }`) {
		t.Errorf("started: %d warnings %q; want one naming the member, the reason and the skip", len(failing), failing)
	}
	created := started
	created.Start = false
	for _, w := range protocolPlan(t, "aks_fleet_update_run", created) {
		if w.Summary == "The run is predicted to fail" {
			t.Errorf("created, not started: %s", w.Detail)
		}
	}
}
