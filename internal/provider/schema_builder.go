package provider

import (
	"strings"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Schemas shared by resources and data sources (a placement's policy is both
// the aks_fleet_placement resource's input and the preview data source's) are
// described once with attr and rendered into either schema package.

type attrKind int

const (
	kString attrKind = iota
	kInt
	kBool
	kStringList
	kIntList
	kStringMap
	kIntMap
	kObject
	kObjectList
)

type attrMode int

const (
	mOptional attrMode = iota
	mRequired
	mComputed
)

// attr is a schema attribute independent of the schema package.
type attr struct {
	kind  attrKind
	mode  attrMode
	desc  string
	attrs map[string]attr // kObject, kObjectList
}

func optional(k attrKind, desc string) attr { return attr{kind: k, mode: mOptional, desc: desc} }
func required(k attrKind, desc string) attr { return attr{kind: k, mode: mRequired, desc: desc} }
func computed(k attrKind, desc string) attr { return attr{kind: k, mode: mComputed, desc: desc} }

func (a attr) with(attrs map[string]attr) attr { a.attrs = attrs; return a }

// codeList renders values as `a`, `b`, `c` for descriptions.
func codeList(values []string) string { return "`" + strings.Join(values, "`, `") + "`" }

func (a attr) resource() rschema.Attribute {
	req, opt, comp := a.mode == mRequired, a.mode == mOptional, a.mode == mComputed
	switch a.kind {
	case kString:
		return rschema.StringAttribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kInt:
		return rschema.Int64Attribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kBool:
		return rschema.BoolAttribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kStringList:
		return rschema.ListAttribute{ElementType: types.StringType, Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kIntList:
		return rschema.ListAttribute{ElementType: types.Int64Type, Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kStringMap:
		return rschema.MapAttribute{ElementType: types.StringType, Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kIntMap:
		return rschema.MapAttribute{ElementType: types.Int64Type, Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kObject:
		return rschema.SingleNestedAttribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc, Attributes: resourceAttrs(a.attrs)}
	case kObjectList:
		return rschema.ListNestedAttribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc,
			NestedObject: rschema.NestedAttributeObject{Attributes: resourceAttrs(a.attrs)}}
	}
	panic("schema: unknown attribute kind") // unreachable: every kind is listed above
}

func (a attr) dataSource() dschema.Attribute {
	req, opt, comp := a.mode == mRequired, a.mode == mOptional, a.mode == mComputed
	switch a.kind {
	case kString:
		return dschema.StringAttribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kInt:
		return dschema.Int64Attribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kBool:
		return dschema.BoolAttribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kStringList:
		return dschema.ListAttribute{ElementType: types.StringType, Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kIntList:
		return dschema.ListAttribute{ElementType: types.Int64Type, Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kStringMap:
		return dschema.MapAttribute{ElementType: types.StringType, Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kIntMap:
		return dschema.MapAttribute{ElementType: types.Int64Type, Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc}
	case kObject:
		return dschema.SingleNestedAttribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc, Attributes: dataSourceAttrs(a.attrs)}
	case kObjectList:
		return dschema.ListNestedAttribute{Required: req, Optional: opt, Computed: comp, MarkdownDescription: a.desc,
			NestedObject: dschema.NestedAttributeObject{Attributes: dataSourceAttrs(a.attrs)}}
	}
	panic("schema: unknown attribute kind") // unreachable: every kind is listed above
}

// resourceAttrs renders attributes for a resource schema. Below a computed
// object every attribute is computed.
func resourceAttrs(m map[string]attr) map[string]rschema.Attribute {
	out := make(map[string]rschema.Attribute, len(m))
	for k, a := range m {
		out[k] = a.resource()
	}
	return out
}

func dataSourceAttrs(m map[string]attr) map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(m))
	for k, a := range m {
		out[k] = a.dataSource()
	}
	return out
}

// allComputed marks an attribute tree computed (for outputs described with the builder).
func allComputed(a attr) attr {
	a.mode = mComputed
	if a.attrs != nil {
		m := make(map[string]attr, len(a.attrs))
		for k, c := range a.attrs {
			m[k] = allComputed(c)
		}
		a.attrs = m
	}
	return a
}
