package provider

import (
	"fmt"
	"slices"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// Every structure a configuration writes is a block (designs/schema.md §1):
// Terraform itself rejects a misspelt key in a block ("An argument named
// "maxSkew" is not expected here. Did you mean "max_skew"?"), while it drops
// the unknown keys of an object assigned to a nested attribute before any
// provider sees them. Computed structures (previews, status) stay nested
// attributes: nobody writes them.
//
// Schemas are written once as nested attributes (the spec trees shared by
// resources and data sources); configBlocks turns the configurable ones into
// blocks mechanically, so that the rule is applied in one place and no
// schema can forget it. A Required nested attribute becomes a block with a
// validator that requires it (blocks cannot be Required), naming the block.

// configBlocks splits attributes into plain attributes and blocks: every
// nested attribute that is not Computed becomes a block of the same name.
func configBlocks(in map[string]rschema.Attribute) (map[string]rschema.Attribute, map[string]rschema.Block) {
	attrs := make(map[string]rschema.Attribute, len(in))
	blocks := map[string]rschema.Block{}
	for name, a := range in {
		if b, ok := asBlock(a); ok {
			blocks[name] = b
		} else {
			attrs[name] = withType(a)
		}
	}
	return attrs, blocks
}

// asBlock converts a configurable nested attribute into its block.
func asBlock(a rschema.Attribute) (rschema.Block, bool) {
	if a.IsComputed() {
		return nil, false
	}
	switch a := a.(type) {
	case rschema.SingleNestedAttribute:
		attrs, blocks := configBlocks(a.Attributes)
		for name, x := range attrs {
			attrs[name] = requiredInBlock(x)
		}
		validators := a.Validators
		if a.Required {
			validators = append([]validator.Object{blockRequired{}}, validators...)
		}
		return rschema.SingleNestedBlock{Attributes: attrs, Blocks: blocks, CustomType: blockObjectType(attrs, blocks),
			MarkdownDescription: requiredNote(a.Required, false) + a.MarkdownDescription, DeprecationMessage: a.DeprecationMessage,
			Validators: validators, PlanModifiers: a.PlanModifiers}, true
	case rschema.ListNestedAttribute:
		attrs, blocks := configBlocks(a.NestedObject.Attributes)
		validators := a.Validators
		if a.Required {
			validators = append([]validator.List{blockRequired{}}, validators...)
		}
		obj := rschema.NestedBlockObject{Attributes: attrs, Blocks: blocks, CustomType: blockObjectType(attrs, blocks),
			Validators: a.NestedObject.Validators, PlanModifiers: a.NestedObject.PlanModifiers}
		return rschema.ListNestedBlock{NestedObject: obj, CustomType: basetypes.ListType{ElemType: obj.CustomType},
			MarkdownDescription: requiredNote(a.Required, true) + a.MarkdownDescription, DeprecationMessage: a.DeprecationMessage,
			Validators: validators, PlanModifiers: a.PlanModifiers}, true
	case rschema.SetNestedAttribute, rschema.MapNestedAttribute:
		// Neither has a block form that keeps its meaning; none is configurable today.
		panic(fmt.Sprintf("schema: a configurable %T cannot be a block: make it a list", a))
	}
	return nil, false
}

// blockOf is the block form of one configurable nested attribute.
func blockOf(a rschema.Attribute) rschema.Block {
	b, ok := asBlock(a)
	if !ok {
		panic(fmt.Sprintf("schema: %T is not a configurable nested attribute", a))
	}
	return b
}

// requiredInBlock turns a Required attribute of a single block into an
// Optional one that a validator requires when the block is written: the
// framework checks a Required attribute even inside an absent single block
// ("Must set a configuration value for the policy.affinity…name attribute"
// where no affinity is written).
func requiredInBlock(a rschema.Attribute) rschema.Attribute {
	if !a.IsRequired() {
		return a
	}
	desc := "**Required** in this block. " + a.GetMarkdownDescription()
	switch a := a.(type) {
	case rschema.StringAttribute:
		a.Required, a.Optional, a.MarkdownDescription = false, true, desc
		a.Validators = append([]validator.String{argRequired{}}, a.Validators...)
		return a
	case rschema.NumberAttribute:
		a.Required, a.Optional, a.MarkdownDescription = false, true, desc
		a.Validators = append([]validator.Number{argRequired{}}, a.Validators...)
		return a
	case rschema.Int64Attribute:
		a.Required, a.Optional, a.MarkdownDescription = false, true, desc
		a.Validators = append([]validator.Int64{argRequired{}}, a.Validators...)
		return a
	case rschema.BoolAttribute:
		a.Required, a.Optional, a.MarkdownDescription = false, true, desc
		a.Validators = append([]validator.Bool{argRequired{}}, a.Validators...)
		return a
	case rschema.ListAttribute:
		a.Required, a.Optional, a.MarkdownDescription = false, true, desc
		a.Validators = append([]validator.List{argRequired{}}, a.Validators...)
		return a
	case rschema.MapAttribute:
		a.Required, a.Optional, a.MarkdownDescription = false, true, desc
		a.Validators = append([]validator.Map{argRequired{}}, a.Validators...)
		return a
	}
	panic(fmt.Sprintf("schema: requiredInBlock does not handle %T", a))
}

// requiredNote opens a required block's description: the documentation
// lists blocks as optional, the validator enforces it.
func requiredNote(required, list bool) string {
	switch {
	case required && list:
		return "**Required**, at least one block. "
	case required:
		return "**Required** block. "
	}
	return ""
}

// blockObjectType is the object type of a block's attributes and nested
// blocks, precomputed as withTypes does for nested attributes.
func blockObjectType(attrs map[string]rschema.Attribute, blocks map[string]rschema.Block) basetypes.ObjectType {
	t := objectType(attrs)
	for name, b := range blocks {
		t.AttrTypes[name] = b.Type()
	}
	return t
}

// dataSourceBlocks derives data-source blocks from resource blocks, as
// dataSourceAttrs derives attributes.
func dataSourceBlocks(in map[string]rschema.Block) map[string]dschema.Block {
	out := make(map[string]dschema.Block, len(in))
	for name, b := range in {
		out[name] = dataSourceBlock(b)
	}
	return out
}

func dataSourceBlock(b rschema.Block) dschema.Block {
	switch b := b.(type) {
	case rschema.SingleNestedBlock:
		return dschema.SingleNestedBlock{Attributes: dataSourceAttrs(b.Attributes), Blocks: dataSourceBlocks(b.Blocks),
			MarkdownDescription: b.MarkdownDescription, DeprecationMessage: b.DeprecationMessage, Validators: b.Validators}
	case rschema.ListNestedBlock:
		return dschema.ListNestedBlock{NestedObject: dschema.NestedBlockObject{Attributes: dataSourceAttrs(b.NestedObject.Attributes),
			Blocks: dataSourceBlocks(b.NestedObject.Blocks), Validators: b.NestedObject.Validators},
			MarkdownDescription: b.MarkdownDescription, DeprecationMessage: b.DeprecationMessage, Validators: b.Validators}
	}
	panic(fmt.Sprintf("schema: no data-source form for %T", b))
}

// dataSourceSpec is the data-source form of a resource's spec attributes:
// its plain attributes and its blocks.
func dataSourceSpec(in map[string]rschema.Attribute) (map[string]dschema.Attribute, map[string]dschema.Block) {
	attrs, blocks := configBlocks(in)
	return dataSourceAttrs(attrs), dataSourceBlocks(blocks)
}

// missingBlocks are the required blocks a configuration leaves out where
// their enclosing block is written (blockRequired reports each once). The
// engines' rules about what such a block holds would only say the same
// again ("template.node_class_ref.group is required" for a missing
// template), so validation treats them as it treats unknown values: the
// rules about them wait (unknownPaths.covers).
func missingBlocks(config tfsdk.Config) unknownPaths {
	var tree map[string]blockShape
	switch s := config.Schema.(type) {
	case rschema.Schema:
		tree = shapesOf(s.Blocks)
	case dschema.Schema:
		tree = shapesOf(s.Blocks)
	}
	var out unknownPaths
	var walk func(blocks map[string]blockShape, v tftypes.Value, at field.Path)
	walk = func(blocks map[string]blockShape, v tftypes.Value, at field.Path) {
		var obj map[string]tftypes.Value
		if !v.IsKnown() || v.IsNull() || v.As(&obj) != nil {
			return
		}
		for name, b := range blocks {
			bv, p := obj[name], at.Child(name)
			if !bv.IsKnown() {
				continue
			}
			if !b.list {
				if bv.IsNull() && b.required {
					out = append(out, p)
				}
				walk(b.blocks, bv, p)
				continue
			}
			var l []tftypes.Value
			if bv.As(&l) != nil {
				continue
			}
			if len(l) == 0 && b.required {
				out = append(out, p)
			}
			for i, e := range l {
				walk(b.blocks, e, p.Index(i))
			}
		}
	}
	walk(tree, config.Raw, field.Path{})
	return out
}

// blockShape is what missingBlocks needs of a block: list or single,
// required (blockRequired), and its nested blocks.
type blockShape struct {
	list, required bool
	blocks         map[string]blockShape
}

func shapesOf[B any](in map[string]B) map[string]blockShape {
	out := make(map[string]blockShape, len(in))
	for name, b := range in {
		switch b := any(b).(type) {
		case rschema.ListNestedBlock:
			out[name] = blockShape{list: true, required: hasBlockRequired(b.Validators), blocks: shapesOf(b.NestedObject.Blocks)}
		case rschema.SingleNestedBlock:
			out[name] = blockShape{required: hasBlockRequired(b.Validators), blocks: shapesOf(b.Blocks)}
		case dschema.ListNestedBlock:
			out[name] = blockShape{list: true, required: hasBlockRequired(b.Validators), blocks: shapesOf(b.NestedObject.Blocks)}
		case dschema.SingleNestedBlock:
			out[name] = blockShape{required: hasBlockRequired(b.Validators), blocks: shapesOf(b.Blocks)}
		}
	}
	return out
}

func hasBlockRequired[V any](vs []V) bool {
	return slices.ContainsFunc(vs, func(v V) bool { _, ok := any(v).(blockRequired); return ok })
}
