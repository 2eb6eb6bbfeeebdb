package provider

import (
	"fmt"
	"strings"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// The ClusterResourcePlacement spec (placement.Spec) in snake_case, shared by
// aks_fleet_placement and aks_fleet_placement_preview, and the preview.

// codeList renders values as `a`, `b`, `c` for descriptions.
func codeList(values []string) string { return "`" + strings.Join(values, "`, `") + "`" }

// clusterSelectorTermAttrs are the attributes of a cluster selector term.
func clusterSelectorTermAttrs() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"label_selector":    labelSelectorAttr("Clusters whose labels match."),
		"property_selector": propertySelectorAttr("Clusters whose properties match (required terms only)."),
		"property_sorter": rschema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "Preferred terms only: interpolate the term's weight by a property, normalised over every cluster " +
				"of the fleet that has it (min → 0, max → weight, or the reverse for `Ascending`).",
			Attributes: map[string]rschema.Attribute{
				"name": rschema.StringAttribute{Required: true, MarkdownDescription: "The property to sort by, e.g. " +
					"`resources.kubernetes-fleet.io/available-cpu` or `kubernetes.azure.com/per-cpu-core-cost`."},
				"sort_order": rschema.StringAttribute{Required: true,
					MarkdownDescription: "`Descending` (larger values score higher) or `Ascending` (smaller values score higher)."},
			},
		},
	}
}

// placementPolicyAttr is spec.policy. A change of placement type replaces the
// placement (Fleet forbids it in place); the rule is placementTypeChanges.
func placementPolicyAttr() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{
		Optional:            true,
		MarkdownDescription: "The scheduling policy. Without it the placement is `PickAll` with no affinity.",
		PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplaceIf(requiresReplaceOnPlacementType,
			"Changing the placement type replaces the placement.", "Changing the placement type replaces the placement.")},
		Attributes: map[string]rschema.Attribute{
			"placement_type": rschema.StringAttribute{Optional: true, MarkdownDescription: "`PickAll` (default: every eligible cluster " +
				"that passes the filters), `PickN` (the best `number_of_clusters` clusters by score) or `PickFixed` (exactly " +
				"`cluster_names`). Changing it replaces the placement."},
			"cluster_names": rschema.ListAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "PickFixed: the member clusters to place on (at most 100 unique names; an empty list places nowhere)."},
			"number_of_clusters": rschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true, MarkdownDescription: fmt.Sprintf("PickN: how many clusters to pick, "+
				"0 (places nowhere) to %d. Raising it only adds clusters; lowering it removes first the clusters Fleet has not bound "+
				"yet (with an `External` strategy, the ones a scale-out added), then the clusters with the lowest scores recorded when "+
				"they were picked.", placement.MaxInt32)},
			"affinity": rschema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Cluster affinity.",
				Attributes: map[string]rschema.Attribute{
					"required": rschema.ListNestedAttribute{Optional: true,
						MarkdownDescription: "Filters (requiredDuringSchedulingIgnoredDuringExecution): a cluster must match at least " +
							"one term (terms are OR'd; inside a term the label and property selectors are AND'd). At most 10. Not for PickFixed.",
						NestedObject: rschema.NestedAttributeObject{Attributes: clusterSelectorTermAttrs()},
					},
					"preferred": rschema.ListNestedAttribute{Optional: true,
						MarkdownDescription: "Scoring (preferredDuringSchedulingIgnoredDuringExecution), PickN only: every matching " +
							"term adds its weight (or its interpolated weight with a property sorter) to the cluster's affinity score.",
						NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
							"weight": rschema.Int64Attribute{CustomType: wholeNumberType{}, Required: true, MarkdownDescription: "Weight of the term, from -100 to 100."},
							"preference": rschema.SingleNestedAttribute{Required: true, Attributes: clusterSelectorTermAttrs(),
								MarkdownDescription: "The term: a label selector, optionally with a property sorter that interpolates the weight."},
						}},
					},
				},
			},
			"topology_spread_constraints": rschema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "PickN only: spread the picks over the values of a cluster label. Topology spread is scored " +
					"before affinity (lexicographically, not summed).",
				NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"max_skew": rschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true,
						MarkdownDescription: fmt.Sprintf("Largest allowed difference between the most and the least used domain, "+
							"1 (the default) to %d.", placement.MaxInt32)},
					"topology_key": rschema.StringAttribute{Required: true, MarkdownDescription: "Cluster label whose values are the domains, e.g. `region`."},
					"when_unsatisfiable": rschema.StringAttribute{Optional: true, MarkdownDescription: "`DoNotSchedule` (default: a cluster " +
						"that would exceed `max_skew` is filtered) or `ScheduleAnyway` (it is penalised)."},
				}},
			},
			"tolerations": rschema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "Tolerations of member-cluster taints. Tolerations can only be added: removing or changing one is an error.",
				NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"key":      rschema.StringAttribute{Optional: true, MarkdownDescription: "Taint key; empty with `Exists` tolerates every taint."},
					"operator": rschema.StringAttribute{Optional: true, MarkdownDescription: "`Equal` (default) or `Exists`."},
					"value":    rschema.StringAttribute{Optional: true, MarkdownDescription: "Taint value for `Equal`."},
					"effect":   rschema.StringAttribute{Optional: true, MarkdownDescription: "Empty (every effect) or `NoSchedule`."},
				}},
			},
		},
	}
}

func placementStrategyAttr() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true, MarkdownDescription: "How changes roll out to the selected clusters.",
		Attributes: map[string]rschema.Attribute{
			"type": rschema.StringAttribute{Optional: true, MarkdownDescription: "`RollingUpdate` (default) or `External`."},
			"rolling_update": rschema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Rolling-update tuning (not with `External`).",
				Attributes: map[string]rschema.Attribute{
					"max_unavailable": rschema.StringAttribute{Optional: true,
						MarkdownDescription: "Clusters that may be unavailable at once: an integer or a percentage (default `25%`)."},
					"max_surge": rschema.StringAttribute{Optional: true,
						MarkdownDescription: "Clusters that may be added beyond the target at once: an integer or a percentage (default `25%`)."},
					"unavailable_period_seconds": rschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true,
						MarkdownDescription: "Seconds to wait before treating an applied cluster as available: 0 or more (default 60)."},
				},
			},
		},
	}
}

// placementSpecAttrs are the attributes of placement.Spec.
func placementSpecAttrs() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"name": rschema.StringAttribute{Required: true, MarkdownDescription: "Name of the ClusterResourcePlacement (a DNS-1035 label, " +
			"at most 63 characters). Changing it replaces the placement."},
		"resource_selectors": rschema.ListNestedAttribute{Required: true,
			MarkdownDescription: "The cluster-scoped hub objects to place (1–100); a Namespace brings everything in it. " +
				"Changing only the selectors never reschedules.",
			NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"group": rschema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(""),
					MarkdownDescription: "API group: `\"\"` (the default) for the core group, as Fleet's documents write it."},
				"version":        rschema.StringAttribute{Required: true, MarkdownDescription: "API version, e.g. `v1`."},
				"kind":           rschema.StringAttribute{Required: true, MarkdownDescription: "Kind, e.g. `Namespace`."},
				"name":           rschema.StringAttribute{Optional: true, MarkdownDescription: "Name of one object; exclusive with `label_selector`."},
				"label_selector": labelSelectorAttr("All objects of the kind whose labels match."),
			}},
		},
		"policy":   placementPolicyAttr(),
		"strategy": placementStrategyAttr(),
		"revision_history_limit": rschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true,
			MarkdownDescription: "How many old resource snapshots to keep (1–1000, default 10)."},
	}
}

func decisionAttrs() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"cluster_name":          rschema.StringAttribute{Computed: true, MarkdownDescription: "Member cluster."},
		"selected":              rschema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the cluster is picked."},
		"affinity_score":        rschema.Int64Attribute{Computed: true, MarkdownDescription: "Sum of the matching preferred terms' (interpolated) weights."},
		"topology_spread_score": rschema.Int64Attribute{Computed: true, MarkdownDescription: "Topology spread score (compared before the affinity score)."},
		"reason": rschema.StringAttribute{Computed: true,
			MarkdownDescription: "Why the cluster is or is not picked, e.g. `taint dedicated=gpu:NoSchedule cannot be tolerated`."},
	}
}

func placementPreviewAttr(desc string) rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: desc, Attributes: map[string]rschema.Attribute{
		"summary": rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: "Requested and selected counts.",
			Attributes: map[string]rschema.Attribute{
				"requested": rschema.Int64Attribute{Computed: true, MarkdownDescription: "Clusters asked for: `number_of_clusters` " +
					"for PickN, the number of names for PickFixed, null for PickAll."},
				"selected":  rschema.Int64Attribute{Computed: true, MarkdownDescription: "Clusters selected."},
				"fulfilled": rschema.BoolAttribute{Computed: true, MarkdownDescription: "Whether every requested cluster was found."},
				"message":   rschema.StringAttribute{Computed: true, MarkdownDescription: "Why the placement is not fulfilled; null when it is."},
			},
		},
		"decisions": rschema.ListNestedAttribute{Computed: true,
			MarkdownDescription: "Every selected cluster, then a bounded list (`preview_limit`) of clusters left out: " +
				"the best-scored ones not picked first, then the filtered ones by name.",
			NestedObject: rschema.NestedAttributeObject{Attributes: decisionAttrs()},
		},
		"left_out_total":  rschema.Int64Attribute{Computed: true, MarkdownDescription: "How many clusters are left out in all."},
		"left_out_counts": rschema.MapAttribute{ElementType: types.Int64Type, Computed: true, MarkdownDescription: "Left-out clusters per reason."},
		"rollout": rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The rollout strategy resolved for the selected clusters.",
			Attributes: map[string]rschema.Attribute{
				"type":            rschema.StringAttribute{Computed: true, MarkdownDescription: "`RollingUpdate` or `External`."},
				"max_unavailable": rschema.Int64Attribute{Computed: true, MarkdownDescription: "`max_unavailable` in clusters (percentages round up)."},
				"max_surge":       rschema.Int64Attribute{Computed: true, MarkdownDescription: "`max_surge` in clusters (percentages round up)."},
				"unavailable_period_seconds": rschema.Int64Attribute{Computed: true,
					MarkdownDescription: "Seconds before an applied cluster counts as available."},
			},
		},
	}}
}

// previewDoc is the preview attribute's value.
type previewDoc struct {
	Summary struct {
		Requested *int   `json:"requested"`
		Selected  int    `json:"selected"`
		Fulfilled bool   `json:"fulfilled"`
		Message   string `json:"message"`
	} `json:"summary"`
	Decisions     []placement.Decision `json:"decisions"`
	LeftOutTotal  int                  `json:"left_out_total"`
	LeftOutCounts map[string]int       `json:"left_out_counts"`
	Rollout       placement.Rollout    `json:"rollout"`
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
