package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
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
