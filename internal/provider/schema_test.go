package provider

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Every attribute of every schema is documented (docs/ is generated from these).
func TestEveryAttributeHasADescription(t *testing.T) {
	server := providerserver.NewProtocol6(New("test")())()
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var walkAttrs func(where string, attrs []*tfprotov6.SchemaAttribute)
	walkAttrs = func(where string, attrs []*tfprotov6.SchemaAttribute) {
		for _, a := range attrs {
			if a.Description == "" {
				t.Errorf("%s.%s has no description", where, a.Name)
			}
			if a.NestedType != nil {
				walkAttrs(where+"."+a.Name, a.NestedType.Attributes)
			}
		}
	}
	var walkBlock func(where string, b *tfprotov6.SchemaBlock)
	walkBlock = func(where string, b *tfprotov6.SchemaBlock) {
		if b.Description == "" {
			t.Errorf("%s has no description", where)
		}
		walkAttrs(where, b.Attributes)
		for _, nb := range b.BlockTypes {
			walkBlock(where+"."+nb.TypeName, nb.Block)
		}
	}
	walkBlock("provider", resp.Provider.Block)
	for name, s := range resp.ResourceSchemas {
		walkBlock(name, s.Block)
	}
	for name, s := range resp.DataSourceSchemas {
		walkBlock(name, s.Block)
	}
	if len(resp.ResourceSchemas) < 2 || len(resp.DataSourceSchemas) < 3 {
		t.Fatalf("schemas missing: %d resources, %d data sources", len(resp.ResourceSchemas), len(resp.DataSourceSchemas))
	}
}

// TestSchemaTypesPrecomputed: every nested attribute of a resource schema
// carries its type (withTypes), and that type is exactly the one the
// framework builds from the attribute's subtree without it.
func TestSchemaTypesPrecomputed(t *testing.T) {
	ctx := context.Background()
	for _, r := range New("test")().Resources(ctx) {
		var resp resource.SchemaResponse
		r().Schema(ctx, resource.SchemaRequest{}, &resp)
		var check func(p string, a rschema.Attribute)
		check = func(p string, a rschema.Attribute) {
			orig := a.GetType()
			if _, library := orig.(timeouts.Type); library {
				return // terraform-plugin-framework-timeouts' own type, not a precomputed one
			}
			var built attr.Type
			var children map[string]rschema.Attribute
			switch a := a.(type) {
			case rschema.SingleNestedAttribute:
				children = a.Attributes
				if a.CustomType != nil {
					a.CustomType = nil
					built = a.GetType()
				}
			case rschema.ListNestedAttribute:
				children = a.NestedObject.Attributes
				if a.CustomType != nil && a.NestedObject.CustomType != nil {
					a.CustomType, a.NestedObject.CustomType = nil, nil
					built = a.GetType()
				}
			case rschema.SetNestedAttribute:
				children = a.NestedObject.Attributes
				if a.CustomType != nil && a.NestedObject.CustomType != nil {
					a.CustomType, a.NestedObject.CustomType = nil, nil
					built = a.GetType()
				}
			case rschema.MapNestedAttribute:
				children = a.NestedObject.Attributes
				if a.CustomType != nil && a.NestedObject.CustomType != nil {
					a.CustomType, a.NestedObject.CustomType = nil, nil
					built = a.GetType()
				}
			default:
				return
			}
			if built == nil {
				t.Errorf("%s: nested attribute without a precomputed type", p)
				return
			}
			if !built.Equal(orig) {
				t.Errorf("%s: precomputed type %s, the framework builds %s", p, orig, built)
			}
			for name, c := range children {
				check(p+"."+name, c)
			}
		}
		for name, a := range resp.Schema.Attributes {
			check(name, a)
		}
	}
}

// The rule of designs/schema.md §1: every structure a configuration writes is
// a block, so that Terraform rejects a misspelt key in it. A nested attribute
// (or an attribute of objects) that a configuration can write fails here.
func TestConfigurableStructuresAreBlocks(t *testing.T) {
	server := providerserver.NewProtocol6(New("test")())()
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var walkBlock func(where string, b *tfprotov6.SchemaBlock)
	walkBlock = func(where string, b *tfprotov6.SchemaBlock) {
		for _, a := range b.Attributes {
			if a.NestedType != nil && (a.Optional || a.Required) {
				t.Errorf("%s.%s is a configurable nested attribute: Terraform drops its misspelt keys unseen; make it a block", where, a.Name)
			}
			if a.Type != nil && (a.Optional || a.Required) && containsObject(a.Type) {
				t.Errorf("%s.%s takes objects: Terraform drops their misspelt keys unseen; make it a block", where, a.Name)
			}
		}
		for _, nb := range b.BlockTypes {
			walkBlock(where+"."+nb.TypeName, nb.Block)
		}
	}
	walkBlock("provider", resp.Provider.Block)
	for name, s := range resp.ResourceSchemas {
		walkBlock(name, s.Block)
	}
	for name, s := range resp.DataSourceSchemas {
		walkBlock(name, s.Block)
	}
}

func containsObject(t tftypes.Type) bool {
	switch t := t.(type) {
	case tftypes.Object:
		return true
	case tftypes.List:
		return containsObject(t.ElementType)
	case tftypes.Set:
		return containsObject(t.ElementType)
	case tftypes.Map:
		return containsObject(t.ElementType)
	}
	return false
}

// A missing required block is one error, not one per rule about its
// contents (designs/schema.md §1).
func TestMissingRequiredBlockIsOneError(t *testing.T) {
	ctx := context.Background()
	server, schemas := protocolServer(t)
	for typeName, want := range map[string]string{
		"aks_nap_nodepool":          "template: a template block is required here",
		"aks_fleet_update_run":      "upgrade: an upgrade block is required here",
		"aks_fleet_update_strategy": "stages: at least one stages block is required here",
		"aks_fleet_placement":       "resource_selectors: at least one resource_selectors block is required here",
	} {
		typ := schemas.ResourceSchemas[typeName].ValueType().(tftypes.Object)
		vals := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			switch {
			case name == "name":
				vals[name] = tftypes.NewValue(at, "x")
			case name == "cluster":
				vals[name] = tftypes.NewValue(at, "aks-east-prod-01")
			case isBlockList(at):
				vals[name] = tftypes.NewValue(at, []tftypes.Value{})
			default:
				vals[name] = tftypes.NewValue(at, nil)
			}
		}
		cfg, _ := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
		resp, err := server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: &cfg})
		if err != nil {
			t.Fatal(err)
		}
		errs := errorsOf(resp.Diagnostics)
		if len(errs) != 1 || !strings.Contains(errs[0], want) {
			t.Errorf("%s: want one error %q, got %q", typeName, want, errs)
		}
	}
}

// Every whole number a configuration writes is an Int64 of wholeNumberType
// (designs/schema.md §4): with the framework's own Int64 type, `2.5` would be
// "Value Conversion Error … always an error in the provider". And the type
// passes such a number on, for the bridge to report.
func TestWholeNumberInputs(t *testing.T) {
	ctx := context.Background()
	var check func(where string, attrs map[string]any, blocks map[string]any)
	check = func(where string, attrs map[string]any, blocks map[string]any) {
		for name, a := range attrs {
			a := a.(interface {
				IsOptional() bool
				IsRequired() bool
				GetType() attr.Type
			})
			if !a.IsOptional() && !a.IsRequired() {
				continue
			}
			if _, ok := a.GetType().(basetypes.Int64Type); ok {
				t.Errorf("%s.%s: a configurable Int64 of the framework's type; give it CustomType wholeNumberType{}", where, name)
			}
			if _, ok := a.GetType().(basetypes.NumberType); ok {
				t.Errorf("%s.%s: a configurable Number; whole numbers are Int64 of wholeNumberType", where, name)
			}
		}
		for name, b := range blocks {
			switch b := b.(type) {
			case rschema.ListNestedBlock:
				check(where+"."+name, anyMap(b.NestedObject.Attributes), anyMap(b.NestedObject.Blocks))
			case rschema.SingleNestedBlock:
				check(where+"."+name, anyMap(b.Attributes), anyMap(b.Blocks))
			case dschema.ListNestedBlock:
				check(where+"."+name, anyMap(b.NestedObject.Attributes), anyMap(b.NestedObject.Blocks))
			case dschema.SingleNestedBlock:
				check(where+"."+name, anyMap(b.Attributes), anyMap(b.Blocks))
			}
		}
	}
	p := New("test")()
	for _, r := range p.Resources(ctx) {
		var resp resource.SchemaResponse
		r().Schema(ctx, resource.SchemaRequest{}, &resp)
		check("resource", anyMap(resp.Schema.Attributes), anyMap(resp.Schema.Blocks))
	}
	for _, d := range p.DataSources(ctx) {
		var resp datasource.SchemaResponse
		d().Schema(ctx, datasource.SchemaRequest{}, &resp)
		check("data source", anyMap(resp.Schema.Attributes), anyMap(resp.Schema.Blocks))
	}

	for _, n := range []string{"2.5", "1e30", "-0.5"} {
		f, _, _ := big.ParseFloat(n, 10, 512, big.ToNearestEven)
		tv := tftypes.NewValue(tftypes.Number, f)
		v, err := wholeNumberType{}.ValueFromTerraform(ctx, tv)
		if err != nil || !v.IsUnknown() {
			t.Errorf("%s: %v, %v; want an unknown value, no error", n, v, err)
		}
		if d := (wholeNumberType{}).Validate(ctx, tv, path.Root("x")); d.HasError() {
			t.Errorf("%s: %v", n, d)
		}
	}
	v, err := wholeNumberType{}.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.Number, big.NewFloat(42)))
	if err != nil || v.(wholeNumberValue).ValueInt64() != 42 {
		t.Errorf("42: %v, %v", v, err)
	}
}

func anyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// The schema announces what the engines decide (designs/schema.md §4): the
// description of every enumerated attribute names each value its engine
// accepts, from the engine's own list, and that of every ranged whole
// number states the engine's bounds — in the provider schema that
// `terraform providers schema -json`, the language server and the docs read.
func TestSchemaAnnouncesEngineRules(t *testing.T) {
	enums := map[string][]string{
		"policy.placement_type":                              placement.PlacementTypes,
		"topology_spread_constraints.when_unsatisfiable":     placement.WhenUnsatisfiableValues,
		"tolerations.operator":                               placement.TolerationOperators,
		"tolerations.effect":                                 placement.TolerationEffects,
		"property_sorter.sort_order":                         placement.SortOrders,
		"strategy.type":                                      placement.StrategyTypes,
		"label_selector.match_expressions.operator":          selector.LabelOperators,
		"property_selector.match_expressions.operator":       selector.PropertyOperators,
		"requirements.operator":                              nodepool.Operators,
		"taints.effect":                                      nodepool.TaintEffects,
		"disruption.consolidation_policy":                    nodepool.ConsolidationPolicies,
		"upgrade.type":                                       update.UpgradeTypes,
		"node_image_selection.type":                          update.NodeImageSelectionTypes,
		"aks_fleet_autoupgrade_profile.node_image_selection": update.ProfileNodeImageSelectionTypes,
		"aks_fleet_autoupgrade_profile.channel":              update.Channels,
		"aks_fleet_autoupgrade_preview.node_image_selection": update.ProfileNodeImageSelectionTypes,
		"aks_fleet_autoupgrade_preview.channel":              update.Channels,
		"before_gates.type":                                  update.GateTypes,
		"after_gates.type":                                   update.GateTypes,
		"skip.type":                                          update.SkipTargetTypes,
	}
	ranges := map[string][2]int64{"budgets.nodes": {0, nodepool.MaxBudgetNodes}} // a string: a count or a percentage
	for suffix, b := range wholeNumberBounds {
		ranges[suffix] = b
	}
	server := providerserver.NewProtocol6(New("test")())()
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(where string, b *tfprotov6.SchemaBlock)
	walk = func(where string, b *tfprotov6.SchemaBlock) {
		for _, a := range b.Attributes {
			if !a.Optional && !a.Required {
				continue
			}
			at := where + "." + a.Name
			for suffix, values := range enums {
				if strings.HasSuffix(at, "."+suffix) || at == suffix {
					seen[suffix] = true
					for _, v := range values {
						if !strings.Contains(a.Description, "`"+v+"`") {
							t.Errorf("%s: the description does not name `%s`, which the engine accepts: %q", at, v, a.Description)
						}
					}
				}
			}
			for suffix, r := range ranges {
				if strings.HasSuffix(at, "."+suffix) || at == suffix {
					seen[suffix] = true
					for _, n := range r {
						if !strings.Contains(a.Description, fmt.Sprint(n)) {
							t.Errorf("%s: the description does not state the bound %d: %q", at, n, a.Description)
						}
					}
				}
			}
		}
		for _, nb := range b.BlockTypes {
			walk(where+"."+nb.TypeName, nb.Block)
		}
	}
	for name, s := range resp.ResourceSchemas {
		walk(name, s.Block)
	}
	for name, s := range resp.DataSourceSchemas {
		walk(name, s.Block)
	}
	for suffix := range enums {
		if !seen[suffix] {
			t.Errorf("%s: no attribute of the schema", suffix)
		}
	}
	for suffix := range ranges {
		if !seen[suffix] {
			t.Errorf("%s: no attribute of the schema", suffix)
		}
	}
}
