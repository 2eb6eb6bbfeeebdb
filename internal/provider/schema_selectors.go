package provider

import (
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// The cluster selectors, shared by every schema that selects clusters
// (selector.LabelSelector and selector.PropertySelector).

func labelSelectorAttr(description string) rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: description + " Kubernetes label-selector semantics: `match_labels` and every `match_expressions` " +
			"entry must all hold.",
		Attributes: map[string]rschema.Attribute{
			"match_labels": rschema.MapAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Labels the cluster must carry with exactly these values."},
			"match_expressions": rschema.ListNestedAttribute{Optional: true, MarkdownDescription: "Label requirements, all of which must hold.",
				NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"key":      rschema.StringAttribute{Required: true, MarkdownDescription: "Label key, e.g. `env` or `example.com/tier`."},
					"operator": rschema.StringAttribute{Required: true, MarkdownDescription: "One of " + codeList(selector.LabelOperators) + "."},
					"values": rschema.ListAttribute{ElementType: types.StringType, Optional: true,
						MarkdownDescription: "Values for `In` and `NotIn` (at least one); must be empty for `Exists` and `DoesNotExist`."},
				}},
			},
		},
	}
}

func propertySelectorAttr(description string) rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: description + " Fleet property-selector semantics: every expression must hold, values are compared " +
			"as exact Kubernetes quantities, and a cluster that lacks a property does not match.",
		Attributes: map[string]rschema.Attribute{
			"match_expressions": rschema.ListNestedAttribute{Required: true, MarkdownDescription: "Property requirements, all of which must hold.",
				NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"name": rschema.StringAttribute{Required: true, MarkdownDescription: "Property name: a reported property such as " +
						"`kubernetes-fleet.io/node-count` or `kubernetes.azure.com/per-cpu-core-cost`, or a resource property " +
						"`resources.kubernetes-fleet.io/{total|allocatable|available}-<resource>` such as `resources.kubernetes-fleet.io/available-cpu`."},
					"operator": rschema.StringAttribute{Required: true, MarkdownDescription: "One of " + codeList(selector.PropertyOperators) + "."},
					"values": rschema.ListAttribute{ElementType: types.StringType, Required: true,
						MarkdownDescription: "Exactly one Kubernetes quantity, e.g. `[\"5\"]`, `[\"500m\"]` or `[\"16Gi\"]`."},
				}},
			},
		},
	}
}
