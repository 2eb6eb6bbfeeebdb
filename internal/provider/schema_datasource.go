package provider

import (
	"fmt"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Schemas are written once, framework-native, as resource schema attributes.
// A data source that shares a tree with a resource (the placement preview
// takes a placement's policy; the disruption preview takes a NodePool's
// budgets) derives its attributes from the resource's mechanically: the same
// names, types, descriptions and validators, without the resource-only plan
// modifiers and defaults.

// dataSourceAttrs derives data-source attributes from resource attributes.
func dataSourceAttrs(in map[string]rschema.Attribute) map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(in))
	for name, a := range in {
		out[name] = dataSourceAttr(a)
	}
	return out
}

// dataSourceAttr derives one data-source attribute. An Optional+Computed
// resource attribute with a default becomes Optional (a data source has no
// defaults; its code applies the engine's).
func dataSourceAttr(a rschema.Attribute) dschema.Attribute {
	optional := a.IsOptional()
	computed := a.IsComputed() && !optional
	desc := a.GetMarkdownDescription()
	switch a := a.(type) {
	case rschema.StringAttribute:
		return dschema.StringAttribute{Required: a.Required, Optional: optional, Computed: computed, Sensitive: a.Sensitive,
			MarkdownDescription: desc, DeprecationMessage: a.DeprecationMessage, Validators: a.Validators}
	case rschema.Int64Attribute:
		return dschema.Int64Attribute{CustomType: a.CustomType, Required: a.Required, Optional: optional, Computed: computed, Sensitive: a.Sensitive,
			MarkdownDescription: desc, DeprecationMessage: a.DeprecationMessage, Validators: a.Validators}
	case rschema.NumberAttribute:
		return dschema.NumberAttribute{Required: a.Required, Optional: optional, Computed: computed, Sensitive: a.Sensitive,
			MarkdownDescription: desc, DeprecationMessage: a.DeprecationMessage, Validators: a.Validators}
	case rschema.BoolAttribute:
		return dschema.BoolAttribute{Required: a.Required, Optional: optional, Computed: computed, Sensitive: a.Sensitive,
			MarkdownDescription: desc, DeprecationMessage: a.DeprecationMessage, Validators: a.Validators}
	case rschema.ListAttribute:
		return dschema.ListAttribute{ElementType: a.ElementType, Required: a.Required, Optional: optional, Computed: computed,
			Sensitive: a.Sensitive, MarkdownDescription: desc, DeprecationMessage: a.DeprecationMessage, Validators: a.Validators}
	case rschema.MapAttribute:
		return dschema.MapAttribute{ElementType: a.ElementType, Required: a.Required, Optional: optional, Computed: computed,
			Sensitive: a.Sensitive, MarkdownDescription: desc, DeprecationMessage: a.DeprecationMessage, Validators: a.Validators}
	case rschema.SingleNestedAttribute:
		return dschema.SingleNestedAttribute{Attributes: dataSourceAttrs(a.Attributes), Required: a.Required, Optional: optional,
			Computed: computed, Sensitive: a.Sensitive, MarkdownDescription: desc, DeprecationMessage: a.DeprecationMessage, Validators: a.Validators}
	case rschema.ListNestedAttribute:
		return dschema.ListNestedAttribute{NestedObject: dschema.NestedAttributeObject{Attributes: dataSourceAttrs(a.NestedObject.Attributes)},
			Required: a.Required, Optional: optional, Computed: computed, Sensitive: a.Sensitive, MarkdownDescription: desc,
			DeprecationMessage: a.DeprecationMessage, Validators: a.Validators}
	}
	// Schemas are static: TestEveryAttributeHasADescription renders every
	// one, so a kind added to a schema but not here fails the tests first.
	panic(fmt.Sprintf("schema: no data-source form for %T", a))
}
