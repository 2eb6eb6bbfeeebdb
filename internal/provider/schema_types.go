package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// withTypes returns resource attributes whose nested attributes carry their
// value type, computed once.
//
// The framework asks a nested attribute for its type (GetType) for every
// value it walks in a plan — to apply defaults, to mark computed values
// unknown, to convert a path — and, unless the attribute has a CustomType,
// builds that type anew each time from the attribute's whole subtree. A
// placement's policy holds some sixty attributes, so a plan spent more time
// building types than scheduling the placement (designs/hub.md §8).
// With the type precomputed as its CustomType, GetType is a field read. The
// types are the framework's own (basetypes.ObjectType, ListType, SetType,
// MapType): values, plan modifiers and defaults see exactly what they saw
// without it.
func withTypes(attrs map[string]rschema.Attribute) map[string]rschema.Attribute {
	out := make(map[string]rschema.Attribute, len(attrs))
	for name, a := range attrs {
		out[name] = withType(a)
	}
	return out
}

func withType(a rschema.Attribute) rschema.Attribute {
	switch a := a.(type) {
	case rschema.SingleNestedAttribute:
		if a.CustomType == nil {
			a.Attributes = withTypes(a.Attributes)
			a.CustomType = objectType(a.Attributes)
		}
		return a
	case rschema.ListNestedAttribute:
		if a.CustomType == nil {
			a.NestedObject = withObjectType(a.NestedObject)
			a.CustomType = basetypes.ListType{ElemType: a.NestedObject.CustomType}
		}
		return a
	case rschema.SetNestedAttribute:
		if a.CustomType == nil {
			a.NestedObject = withObjectType(a.NestedObject)
			a.CustomType = basetypes.SetType{ElemType: a.NestedObject.CustomType}
		}
		return a
	case rschema.MapNestedAttribute:
		if a.CustomType == nil {
			a.NestedObject = withObjectType(a.NestedObject)
			a.CustomType = basetypes.MapType{ElemType: a.NestedObject.CustomType}
		}
		return a
	}
	return a
}

func withObjectType(o rschema.NestedAttributeObject) rschema.NestedAttributeObject {
	if o.CustomType == nil {
		o.Attributes = withTypes(o.Attributes)
		o.CustomType = objectType(o.Attributes)
	}
	return o
}

func objectType(attrs map[string]rschema.Attribute) basetypes.ObjectType {
	types := make(map[string]attr.Type, len(attrs))
	for name, a := range attrs {
		types[name] = a.GetType()
	}
	return basetypes.ObjectType{AttrTypes: types}
}

// The attribute kinds the resources' computed parts (previews, status) are
// made of, and their optional flags, each with its description.

func computedString(d string) rschema.StringAttribute {
	return rschema.StringAttribute{Computed: true, MarkdownDescription: d}
}

func computedStringList(d string) rschema.ListAttribute {
	return rschema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: d}
}

func computedStringMap(d string) rschema.MapAttribute {
	return rschema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: d}
}

func computedInt(d string) rschema.Int64Attribute {
	return rschema.Int64Attribute{Computed: true, MarkdownDescription: d}
}

// optionalFalse is an optional flag that is false when unset.
func optionalFalse(d string) rschema.BoolAttribute {
	return rschema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false), MarkdownDescription: d}
}
