package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
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
