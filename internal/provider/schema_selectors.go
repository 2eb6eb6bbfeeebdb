package provider

import (
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// The cluster selectors, shared by every schema that selects clusters.

func labelSelectorAttr(mode attrMode, description string) attr {
	return attr{kind: kObject, mode: mode, desc: description + " Kubernetes label-selector semantics: `match_labels` and every `match_expressions` entry must all hold."}.with(map[string]attr{
		"match_labels": optional(kStringMap, "Labels the cluster must carry with exactly these values."),
		"match_expressions": optional(kObjectList, "Label requirements, all of which must hold.").with(map[string]attr{
			"key":      required(kString, "Label key, e.g. `env` or `example.com/tier`."),
			"operator": required(kString, "One of "+codeList(selector.LabelOperators)+"."),
			"values":   optional(kStringList, "Values for `In` and `NotIn` (at least one); must be empty for `Exists` and `DoesNotExist`."),
		}),
	})
}

func propertySelectorAttr(mode attrMode, description string) attr {
	return attr{kind: kObject, mode: mode, desc: description + " Fleet property-selector semantics: every expression must hold, values are compared " +
		"as exact Kubernetes quantities, and a cluster that lacks a property does not match."}.with(map[string]attr{
		"match_expressions": required(kObjectList, "Property requirements, all of which must hold.").with(map[string]attr{
			"name": required(kString, "Property name: a reported property such as "+
				"`kubernetes-fleet.io/node-count` or `kubernetes.azure.com/per-cpu-core-cost`, or a resource property "+
				"`resources.kubernetes-fleet.io/{total|allocatable|available}-<resource>` such as `resources.kubernetes-fleet.io/available-cpu`."),
			"operator": required(kString, "One of "+codeList(selector.PropertyOperators)+"."),
			"values":   required(kStringList, "Exactly one Kubernetes quantity, e.g. `[\"5\"]`, `[\"500m\"]` or `[\"16Gi\"]`."),
		}),
	})
}
