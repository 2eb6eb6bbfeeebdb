package provider

import (
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// The ClusterResourcePlacement spec in snake_case, shared by aks_fleet_placement
// and aks_fleet_placement_preview.

// clusterSelectorTermAttrs are the attributes of a cluster selector term.
func clusterSelectorTermAttrs() map[string]attr {
	return map[string]attr{
		"label_selector":    labelSelectorAttr(mOptional, "Clusters whose labels match."),
		"property_selector": propertySelectorAttr(mOptional, "Clusters whose properties match (required terms only)."),
		"property_sorter": optional(kObject, "Preferred terms only: interpolate the term's weight by a property, normalised "+
			"over every cluster of the fleet that has it (min → 0, max → weight, or the reverse for `Ascending`).").with(map[string]attr{
			"name":       required(kString, "The property to sort by, e.g. `resources.kubernetes-fleet.io/available-cpu` or `kubernetes.azure.com/per-cpu-core-cost`."),
			"sort_order": required(kString, "`Descending` (larger values score higher) or `Ascending` (smaller values score higher)."),
		}),
	}
}

func placementPolicyAttr(mode attrMode) attr {
	return attr{kind: kObject, mode: mode, desc: "The scheduling policy. Without it the placement is `PickAll` with no affinity."}.with(map[string]attr{
		"placement_type": optional(kString, "`PickAll` (default: every eligible cluster that passes the filters), `PickN` "+
			"(the best `number_of_clusters` clusters by score) or `PickFixed` (exactly `cluster_names`). Changing it replaces the placement."),
		"cluster_names": optional(kStringList, "PickFixed: the member clusters to place on (1–100 unique names)."),
		"number_of_clusters": optional(kInt, "PickN: how many clusters to pick (0 places nowhere). Raising it only adds clusters; "+
			"lowering it removes the lowest-scored ones."),
		"affinity": optional(kObject, "Cluster affinity.").with(map[string]attr{
			"required": optional(kObjectList, "Filters (requiredDuringSchedulingIgnoredDuringExecution): a cluster must match at least "+
				"one term (terms are OR'd; inside a term the label and property selectors are AND'd). At most 10. Not for PickFixed.").with(
				clusterSelectorTermAttrs()),
			"preferred": optional(kObjectList, "Scoring (preferredDuringSchedulingIgnoredDuringExecution), PickN only: every matching "+
				"term adds its weight (or its interpolated weight with a property sorter) to the cluster's affinity score.").with(map[string]attr{
				"weight":     required(kInt, "Weight of the term, from -100 to 100."),
				"preference": required(kObject, "The term: a label selector, optionally with a property sorter that interpolates the weight.").with(clusterSelectorTermAttrs()),
			}),
		}),
		"topology_spread_constraints": optional(kObjectList, "PickN only: spread the picks over the values of a cluster label. "+
			"Topology spread is scored before affinity (lexicographically, not summed).").with(map[string]attr{
			"max_skew":           optional(kInt, "Largest allowed difference between the most and the least used domain (default 1)."),
			"topology_key":       required(kString, "Cluster label whose values are the domains, e.g. `region`."),
			"when_unsatisfiable": optional(kString, "`DoNotSchedule` (default: a cluster that would exceed `max_skew` is filtered) or `ScheduleAnyway` (it is penalised)."),
		}),
		"tolerations": optional(kObjectList, "Tolerations of member-cluster taints. Tolerations can only be added: removing or "+
			"changing one is an error.").with(map[string]attr{
			"key":      optional(kString, "Taint key; empty with `Exists` tolerates every taint."),
			"operator": optional(kString, "`Equal` (default) or `Exists`."),
			"value":    optional(kString, "Taint value for `Equal`."),
			"effect":   optional(kString, "Empty (every effect) or `NoSchedule`."),
		}),
	})
}

func placementSpecAttrs(policyMode attrMode) map[string]attr {
	return map[string]attr{
		"resource_selectors": required(kObjectList, "The cluster-scoped hub objects to place (1–100); a Namespace brings everything in it. "+
			"Changing only the selectors never reschedules.").with(map[string]attr{
			"group":          optional(kString, "API group; leave unset for the core group."),
			"version":        required(kString, "API version, e.g. `v1`."),
			"kind":           required(kString, "Kind, e.g. `Namespace`."),
			"name":           optional(kString, "Name of one object; exclusive with `label_selector`."),
			"label_selector": labelSelectorAttr(mOptional, "All objects of the kind whose labels match."),
		}),
		"policy": placementPolicyAttr(policyMode),
		"strategy": optional(kObject, "How changes roll out to the selected clusters.").with(map[string]attr{
			"type": optional(kString, "`RollingUpdate` (default) or `External`."),
			"rolling_update": optional(kObject, "Rolling-update tuning (not with `External`).").with(map[string]attr{
				"max_unavailable":            optional(kString, "Clusters that may be unavailable at once: an integer or a percentage (default `25%`)."),
				"max_surge":                  optional(kString, "Clusters that may be added beyond the target at once: an integer or a percentage (default `25%`)."),
				"unavailable_period_seconds": optional(kInt, "Seconds to wait before treating an applied cluster as available (default 60)."),
			}),
		}),
		"revision_history_limit": optional(kInt, "How many old resource snapshots to keep (1–1000, default 10)."),
	}
}

// placementSpecAttrNames are the attributes that make up placement.Spec.
var placementSpecAttrNames = []string{"name", "resource_selectors", "policy", "strategy", "revision_history_limit"}

func decisionAttrs() map[string]attr {
	return map[string]attr{
		"cluster_name":          computed(kString, "Member cluster."),
		"selected":              computed(kBool, "Whether the cluster is picked."),
		"affinity_score":        computed(kInt, "Sum of the matching preferred terms' (interpolated) weights."),
		"topology_spread_score": computed(kInt, "Topology spread score (compared before the affinity score)."),
		"reason":                computed(kString, "Why the cluster is or is not picked, e.g. `taint dedicated=gpu:NoSchedule cannot be tolerated`."),
	}
}

func placementPreviewAttr(desc string) attr {
	return computed(kObject, desc).with(map[string]attr{
		"summary": computed(kObject, "Requested and selected counts.").with(map[string]attr{
			"requested": computed(kInt, "Clusters asked for: `number_of_clusters` for PickN, the number of names for PickFixed, null for PickAll."),
			"selected":  computed(kInt, "Clusters selected."),
			"fulfilled": computed(kBool, "Whether every requested cluster was found."),
			"message":   computed(kString, "Why the placement is not fulfilled; null when it is."),
		}),
		"decisions": computed(kObjectList, "Every selected cluster, then a bounded list (`preview_limit`) of clusters left out: "+
			"the best-scored ones not picked first, then the filtered ones by name.").with(decisionAttrs()),
		"left_out_total":  computed(kInt, "How many clusters are left out in all."),
		"left_out_counts": computed(kIntMap, "Left-out clusters per reason."),
		"rollout": computed(kObject, "The rollout strategy resolved for the selected clusters.").with(map[string]attr{
			"type":                       computed(kString, "`RollingUpdate` or `External`."),
			"max_unavailable":            computed(kInt, "`max_unavailable` in clusters (percentages round up)."),
			"max_surge":                  computed(kInt, "`max_surge` in clusters (percentages round up)."),
			"unavailable_period_seconds": computed(kInt, "Seconds before an applied cluster counts as available."),
		}),
	})
}

// previewDoc is the preview attribute's value.
type previewDoc struct {
	Summary struct {
		Requested *int
		Selected  int
		Fulfilled bool
		Message   string
	}
	Decisions     []placement.Decision
	LeftOutTotal  int
	LeftOutCounts map[string]int
	Rollout       placement.Rollout
}

// newPreviewDoc condenses a scheduling result for the plan.
func newPreviewDoc(spec placement.Spec, r placement.Result, limit int) previewDoc {
	p := placement.Preview(r, limit)
	var d previewDoc
	if p.Summary.Requested >= 0 {
		req := p.Summary.Requested
		d.Summary.Requested = &req
	}
	d.Summary.Selected, d.Summary.Fulfilled, d.Summary.Message = p.Summary.Selected, p.Summary.Fulfilled, r.UnfulfilledMessage
	d.Decisions = append(append([]placement.Decision{}, p.Selected...), p.LeftOut...)
	for _, n := range p.LeftOutCounts {
		d.LeftOutTotal += n
	}
	d.LeftOutCounts = p.LeftOutCounts
	d.Rollout = placement.ResolveRollout(spec.Strategy, p.Summary.Selected)
	return d
}
