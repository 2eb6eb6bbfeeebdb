package provider

import (
	"context"
	"fmt"
	"go/format"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// TestFreezeSchemas writes every resource schema of this commit as Go
// source, types only: the frozen PriorSchema a state upgrader decodes the
// state of this version with (state_schemas.go). Run it before a change
// that bumps a schema version:
//
//	FREEZE_SCHEMAS=/tmp/frozen.go go test -run TestFreezeSchemas ./internal/provider/
func TestFreezeSchemas(t *testing.T) {
	out := os.Getenv("FREEZE_SCHEMAS")
	if out == "" {
		t.Skip("set FREEZE_SCHEMAS to a file to write the frozen schemas")
	}
	ctx := context.Background()
	var b strings.Builder
	b.WriteString("package provider\n\n")
	for _, f := range New("freeze")().Resources(ctx) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "aks"}, &meta)
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		name := strings.TrimPrefix(meta.TypeName, "aks_")
		fmt.Fprintf(&b, "// %sV%d is %s's schema at version %d, frozen: the types of its state, nothing else.\n",
			camel(name), resp.Schema.Version, meta.TypeName, resp.Schema.Version)
		fmt.Fprintf(&b, "func %sV%d() rschema.Schema {\n\treturn rschema.Schema{Version: %d, Attributes: %s}\n}\n\n",
			camel(name), resp.Schema.Version, resp.Schema.Version, frozenAttrs(resp.Schema.Attributes, resp.Schema.Blocks))
	}
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		t.Fatal(err)
	}
}

func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "") + "Schema"
}

func frozenAttrs(attrs map[string]rschema.Attribute, blocks map[string]rschema.Block) string {
	var names []string
	all := map[string]string{}
	for n, a := range attrs {
		names = append(names, n)
		all[n] = frozenAttr(a)
	}
	for n, bl := range blocks {
		names = append(names, n)
		all[n] = frozenBlock(bl)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("map[string]rschema.Attribute{\n")
	for _, n := range names {
		fmt.Fprintf(&b, "%q: %s,\n", n, all[n])
	}
	b.WriteString("}")
	return b.String()
}

func frozenAttr(a rschema.Attribute) string {
	switch a := a.(type) {
	case rschema.StringAttribute:
		return "rschema.StringAttribute{Optional: true}"
	case rschema.BoolAttribute:
		return "rschema.BoolAttribute{Optional: true}"
	case rschema.Int64Attribute:
		return "rschema.Int64Attribute{Optional: true}"
	case rschema.NumberAttribute:
		return "rschema.NumberAttribute{Optional: true}"
	case rschema.Float64Attribute:
		return "rschema.Float64Attribute{Optional: true}"
	case rschema.ListAttribute:
		return fmt.Sprintf("rschema.ListAttribute{Optional: true, ElementType: %s}", frozenElem(a.ElementType.String()))
	case rschema.MapAttribute:
		return fmt.Sprintf("rschema.MapAttribute{Optional: true, ElementType: %s}", frozenElem(a.ElementType.String()))
	case rschema.SingleNestedAttribute:
		return fmt.Sprintf("rschema.SingleNestedAttribute{Optional: true, Attributes: %s}", frozenAttrs(a.Attributes, nil))
	case rschema.ListNestedAttribute:
		return fmt.Sprintf("rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: %s}}",
			frozenAttrs(a.NestedObject.Attributes, nil))
	case rschema.MapNestedAttribute:
		return fmt.Sprintf("rschema.MapNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: %s}}",
			frozenAttrs(a.NestedObject.Attributes, nil))
	}
	panic(fmt.Sprintf("freeze: %T", a))
}

func frozenBlock(b rschema.Block) string {
	switch b := b.(type) {
	case rschema.SingleNestedBlock:
		return fmt.Sprintf("rschema.SingleNestedAttribute{Optional: true, Attributes: %s}", frozenAttrs(b.Attributes, b.Blocks))
	case rschema.ListNestedBlock:
		return fmt.Sprintf("rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: %s}}",
			frozenAttrs(b.NestedObject.Attributes, b.NestedObject.Blocks))
	}
	panic(fmt.Sprintf("freeze: %T", b))
}

func frozenElem(t string) string {
	switch t {
	case "basetypes.StringType":
		return "types.StringType"
	case "basetypes.Int64Type":
		return "types.Int64Type"
	}
	panic("freeze: element type " + t)
}
