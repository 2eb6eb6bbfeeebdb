package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// Data-source schema pieces for the cluster selectors.

func labelSelectorDataSourceAttribute(description string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional:            true,
		MarkdownDescription: description + " Kubernetes label-selector semantics: `match_labels` and every `match_expressions` entry must all hold.",
		Attributes: map[string]schema.Attribute{
			"match_labels": schema.MapAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Labels the cluster must carry with exactly these values.",
			},
			"match_expressions": schema.ListNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Label requirements, all of which must hold.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"key": schema.StringAttribute{Required: true, MarkdownDescription: "Label key, e.g. `env` or `example.com/tier`."},
					"operator": schema.StringAttribute{Required: true, MarkdownDescription: "One of `" +
						strings.Join(selector.LabelOperators, "`, `") + "`."},
					"values": schema.ListAttribute{ElementType: types.StringType, Optional: true,
						MarkdownDescription: "Values for `In` and `NotIn` (at least one); must be empty for `Exists` and `DoesNotExist`."},
				}},
			},
		},
	}
}

func propertySelectorDataSourceAttribute(description string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: description + " Fleet property-selector semantics: every expression must hold, values are compared " +
			"as exact Kubernetes quantities, and a cluster that lacks a property does not match.",
		Attributes: map[string]schema.Attribute{
			"match_expressions": schema.ListNestedAttribute{
				Required:            true,
				MarkdownDescription: "Property requirements, all of which must hold.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Required: true, MarkdownDescription: "Property name: a reported property such as " +
						"`kubernetes-fleet.io/node-count` or `kubernetes.azure.com/per-cpu-core-cost`, or a resource property " +
						"`resources.kubernetes-fleet.io/{total|allocatable|available}-<resource>` such as `resources.kubernetes-fleet.io/available-cpu`."},
					"operator": schema.StringAttribute{Required: true, MarkdownDescription: "One of `" +
						strings.Join(selector.PropertyOperators, "`, `") + "`."},
					"values": schema.ListAttribute{ElementType: types.StringType, Required: true,
						MarkdownDescription: "Exactly one Kubernetes quantity, e.g. `[\"5\"]`, `[\"500m\"]` or `[\"16Gi\"]`."},
				}},
			},
		},
	}
}
