package provider

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
)

// BenchmarkPlanPlacement5000 is one placement's plan in the provider
// process (what `terraform plan` asks 200 times for 200 placements): a PickN
// policy with label affinity and a property sorter over a 5,000-cluster
// fleet, from the protocol request to the planned state. Every plan has the
// same policy, as placements that share one do: it is scheduled once
// (designs/hub.md §8). BenchmarkPlanPlacement5000Distinct plans a different
// policy each time: every plan runs a scheduling cycle.
func BenchmarkPlanPlacement5000(b *testing.B)         { benchPlanPlacement(b, 1) }
func BenchmarkPlanPlacement5000Distinct(b *testing.B) { benchPlanPlacement(b, 2*fleet.MaxDerived) }

func benchPlanPlacement(b *testing.B, policies int) {
	ctx := context.Background()
	dir := b.TempDir()
	fleetFile := filepath.Join(dir, "fleet.json")
	if err := os.WriteFile(fleetFile, fleetgen.Generate(fleetgen.Options{Clusters: 5000, Seed: 1, StaleEvery: 50, TaintEvery: 40}), 0o644); err != nil {
		b.Fatal(err)
	}
	server := providerserver.NewProtocol6(New("bench")())()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	pt := schemas.Provider.ValueType()
	pv, err := encode(map[string]any{"mock": map[string]any{"fleet_file": fleetFile, "state_path": filepath.Join(dir, "state.db"),
		"clock": "fixed", "clock_time": testClock}}, pt)
	if err != nil {
		b.Fatal(err)
	}
	pdv, _ := tfprotov6.NewDynamicValue(pt, pv)
	if resp, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &pdv}); err != nil || len(resp.Diagnostics) > 0 {
		b.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	rt := schemas.ResourceSchemas[placementType].ValueType()
	configs := make([]*tfprotov6.DynamicValue, policies)
	for i := range configs {
		n := 5 + i
		spec := struct {
			Name              string                       `json:"name"`
			ResourceSelectors []placement.ResourceSelector `json:"resource_selectors"`
			Policy            placement.Policy             `json:"policy"`
			PreviewLimit      int                          `json:"preview_limit"`
		}{"app", []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app"}}, placement.Policy{
			PlacementType: placement.PickN, NumberOfClusters: &n,
			Affinity: &placement.Affinity{
				Required: []placement.ClusterSelectorTerm{{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}}},
				Preferred: []placement.PreferredTerm{
					{Weight: 40, Preference: placement.ClusterSelectorTerm{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}}}},
					{Weight: 60, Preference: placement.ClusterSelectorTerm{PropertySorter: &placement.PropertySorter{Name: "kubernetes.azure.com/per-cpu-core-cost", SortOrder: placement.Ascending}}},
				}},
			Tolerations: []placement.Toleration{{Key: "dedicated", Operator: placement.TolerationOpExists}},
		}, placement.DefaultPreviewLimit}
		cfg, err := encode(spec, rt)
		if err != nil {
			b.Fatal(err)
		}
		cv, _ := tfprotov6.NewDynamicValue(rt, cfg)
		configs[i] = &cv
	}
	prior, _ := tfprotov6.NewDynamicValue(rt, tftypes.NewValue(rt, nil))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cv := configs[i%policies]
		resp, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: placementType, PriorState: &prior, ProposedNewState: cv, Config: cv})
		if err != nil || slices.ContainsFunc(resp.Diagnostics, func(d *tfprotov6.Diagnostic) bool { // the preview is a warning
			return d.Severity == tfprotov6.DiagnosticSeverityError
		}) {
			b.Fatalf("plan: %v %v", err, resp.Diagnostics)
		}
	}
}
