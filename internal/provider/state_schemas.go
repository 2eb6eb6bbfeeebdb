package provider

import (
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The prior schemas of the state upgrades (state_upgrade.go), frozen as
// they were at commit 60900cf by TestFreezeSchemas: the types of each
// resource's state at that version, nothing else. Never edit them: a new
// version freezes its own.

// fleetPlacementSchemaV2 is aks_fleet_placement's schema at version 2.
func fleetPlacementSchemaV2() rschema.Schema {
	return rschema.Schema{Version: 2, Attributes: map[string]rschema.Attribute{
		"id":   rschema.StringAttribute{Optional: true},
		"name": rschema.StringAttribute{Optional: true},
		"policy": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"affinity": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
				"preferred": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"preference": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
						"label_selector": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
							"match_expressions": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
								"key":      rschema.StringAttribute{Optional: true},
								"operator": rschema.StringAttribute{Optional: true},
								"values":   rschema.ListAttribute{Optional: true, ElementType: types.StringType},
							}}},
							"match_labels": rschema.MapAttribute{Optional: true, ElementType: types.StringType},
						}},
						"property_selector": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
							"match_expressions": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
								"name":     rschema.StringAttribute{Optional: true},
								"operator": rschema.StringAttribute{Optional: true},
								"values":   rschema.ListAttribute{Optional: true, ElementType: types.StringType},
							}}},
						}},
						"property_sorter": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
							"name":       rschema.StringAttribute{Optional: true},
							"sort_order": rschema.StringAttribute{Optional: true},
						}},
					}},
					"weight": rschema.NumberAttribute{Optional: true},
				}}},
				"required": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"label_selector": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
						"match_expressions": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
							"key":      rschema.StringAttribute{Optional: true},
							"operator": rschema.StringAttribute{Optional: true},
							"values":   rschema.ListAttribute{Optional: true, ElementType: types.StringType},
						}}},
						"match_labels": rschema.MapAttribute{Optional: true, ElementType: types.StringType},
					}},
					"property_selector": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
						"match_expressions": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
							"name":     rschema.StringAttribute{Optional: true},
							"operator": rschema.StringAttribute{Optional: true},
							"values":   rschema.ListAttribute{Optional: true, ElementType: types.StringType},
						}}},
					}},
					"property_sorter": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
						"name":       rschema.StringAttribute{Optional: true},
						"sort_order": rschema.StringAttribute{Optional: true},
					}},
				}}},
			}},
			"cluster_names":      rschema.ListAttribute{Optional: true, ElementType: types.StringType},
			"number_of_clusters": rschema.NumberAttribute{Optional: true},
			"placement_type":     rschema.StringAttribute{Optional: true},
			"tolerations": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"effect":   rschema.StringAttribute{Optional: true},
				"key":      rschema.StringAttribute{Optional: true},
				"operator": rschema.StringAttribute{Optional: true},
				"value":    rschema.StringAttribute{Optional: true},
			}}},
			"topology_spread_constraints": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"max_skew":           rschema.NumberAttribute{Optional: true},
				"topology_key":       rschema.StringAttribute{Optional: true},
				"when_unsatisfiable": rschema.StringAttribute{Optional: true},
			}}},
		}},
		"preview_limit": rschema.NumberAttribute{Optional: true},
		"resource_selectors": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"group": rschema.StringAttribute{Optional: true},
			"kind":  rschema.StringAttribute{Optional: true},
			"label_selector": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
				"match_expressions": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"key":      rschema.StringAttribute{Optional: true},
					"operator": rschema.StringAttribute{Optional: true},
					"values":   rschema.ListAttribute{Optional: true, ElementType: types.StringType},
				}}},
				"match_labels": rschema.MapAttribute{Optional: true, ElementType: types.StringType},
			}},
			"name":    rschema.StringAttribute{Optional: true},
			"version": rschema.StringAttribute{Optional: true},
		}}},
		"reviewed_preview":       rschema.StringAttribute{Optional: true},
		"revision_history_limit": rschema.NumberAttribute{Optional: true},
		"status": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"conditions": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"last_transition_time": rschema.StringAttribute{Optional: true},
				"message":              rschema.StringAttribute{Optional: true},
				"reason":               rschema.StringAttribute{Optional: true},
				"status":               rschema.StringAttribute{Optional: true},
				"type":                 rschema.StringAttribute{Optional: true},
			}}},
			"fulfilled":           rschema.BoolAttribute{Optional: true},
			"message":             rschema.StringAttribute{Optional: true},
			"observed_generation": rschema.Int64Attribute{Optional: true},
			"requested":           rschema.Int64Attribute{Optional: true},
			"selected":            rschema.Int64Attribute{Optional: true},
		}},
		"strategy": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"rolling_update": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
				"max_surge":                  rschema.StringAttribute{Optional: true},
				"max_unavailable":            rschema.StringAttribute{Optional: true},
				"unavailable_period_seconds": rschema.NumberAttribute{Optional: true},
			}},
			"type": rschema.StringAttribute{Optional: true},
		}},
	}}
}

// napNodepoolSchemaV2 is aks_nap_nodepool's schema at version 2.
func napNodepoolSchemaV2() rschema.Schema {
	return rschema.Schema{Version: 2, Attributes: map[string]rschema.Attribute{
		"cluster": rschema.StringAttribute{Optional: true},
		"disruption": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"budgets": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"duration": rschema.StringAttribute{Optional: true},
				"nodes":    rschema.StringAttribute{Optional: true},
				"reasons":  rschema.ListAttribute{Optional: true, ElementType: types.StringType},
				"schedule": rschema.StringAttribute{Optional: true},
			}}},
			"consolidate_after":    rschema.StringAttribute{Optional: true},
			"consolidation_policy": rschema.StringAttribute{Optional: true},
		}},
		"id":               rschema.StringAttribute{Optional: true},
		"limits":           rschema.MapAttribute{Optional: true, ElementType: types.StringType},
		"name":             rschema.StringAttribute{Optional: true},
		"reviewed_preview": rschema.StringAttribute{Optional: true},
		"status": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"disrupting": rschema.Int64Attribute{Optional: true},
			"node_names": rschema.ListAttribute{Optional: true, ElementType: types.StringType},
			"nodes":      rschema.Int64Attribute{Optional: true},
			"ready":      rschema.Int64Attribute{Optional: true},
		}},
		"template": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"annotations":  rschema.MapAttribute{Optional: true, ElementType: types.StringType},
			"expire_after": rschema.StringAttribute{Optional: true},
			"labels":       rschema.MapAttribute{Optional: true, ElementType: types.StringType},
			"node_class_ref": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
				"group": rschema.StringAttribute{Optional: true},
				"kind":  rschema.StringAttribute{Optional: true},
				"name":  rschema.StringAttribute{Optional: true},
			}},
			"requirements": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"key":        rschema.StringAttribute{Optional: true},
				"min_values": rschema.NumberAttribute{Optional: true},
				"operator":   rschema.StringAttribute{Optional: true},
				"values":     rschema.ListAttribute{Optional: true, ElementType: types.StringType},
			}}},
			"startup_taints": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"effect": rschema.StringAttribute{Optional: true},
				"key":    rschema.StringAttribute{Optional: true},
				"value":  rschema.StringAttribute{Optional: true},
			}}},
			"taints": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"effect": rschema.StringAttribute{Optional: true},
				"key":    rschema.StringAttribute{Optional: true},
				"value":  rschema.StringAttribute{Optional: true},
			}}},
			"termination_grace_period": rschema.StringAttribute{Optional: true},
		}},
		"weight": rschema.NumberAttribute{Optional: true},
	}}
}

// fleetUpdateStrategySchemaV1 is aks_fleet_update_strategy's schema at version 1.
func fleetUpdateStrategySchemaV1() rschema.Schema {
	return rschema.Schema{Version: 1, Attributes: map[string]rschema.Attribute{
		"id":   rschema.StringAttribute{Optional: true},
		"name": rschema.StringAttribute{Optional: true},
		"stages": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"after_gates": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"display_name": rschema.StringAttribute{Optional: true},
				"type":         rschema.StringAttribute{Optional: true},
			}}},
			"after_stage_wait_in_seconds": rschema.NumberAttribute{Optional: true},
			"before_gates": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"display_name": rschema.StringAttribute{Optional: true},
				"type":         rschema.StringAttribute{Optional: true},
			}}},
			"groups": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"after_gates": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"display_name": rschema.StringAttribute{Optional: true},
					"type":         rschema.StringAttribute{Optional: true},
				}}},
				"before_gates": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"display_name": rschema.StringAttribute{Optional: true},
					"type":         rschema.StringAttribute{Optional: true},
				}}},
				"max_concurrency": rschema.StringAttribute{Optional: true},
				"name":            rschema.StringAttribute{Optional: true},
			}}},
			"max_concurrency": rschema.StringAttribute{Optional: true},
			"name":            rschema.StringAttribute{Optional: true},
		}}},
	}}
}

// fleetUpdateRunSchemaV1 is aks_fleet_update_run's schema at version 1.
func fleetUpdateRunSchemaV1() rschema.Schema {
	return rschema.Schema{Version: 1, Attributes: map[string]rschema.Attribute{
		"approved_gates": rschema.ListAttribute{Optional: true, ElementType: types.StringType},
		"id":             rschema.StringAttribute{Optional: true},
		"name":           rschema.StringAttribute{Optional: true},
		"node_image_selection": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"custom_node_image_versions": rschema.ListAttribute{Optional: true, ElementType: types.StringType},
			"type":                       rschema.StringAttribute{Optional: true},
		}},
		"rerun_trigger":    rschema.StringAttribute{Optional: true},
		"reviewed_preview": rschema.StringAttribute{Optional: true},
		"skip": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"name": rschema.StringAttribute{Optional: true},
			"type": rschema.StringAttribute{Optional: true},
		}}},
		"stages": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"after_gates": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"display_name": rschema.StringAttribute{Optional: true},
				"type":         rschema.StringAttribute{Optional: true},
			}}},
			"after_stage_wait_in_seconds": rschema.NumberAttribute{Optional: true},
			"before_gates": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"display_name": rschema.StringAttribute{Optional: true},
				"type":         rschema.StringAttribute{Optional: true},
			}}},
			"groups": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"after_gates": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"display_name": rschema.StringAttribute{Optional: true},
					"type":         rschema.StringAttribute{Optional: true},
				}}},
				"before_gates": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"display_name": rschema.StringAttribute{Optional: true},
					"type":         rschema.StringAttribute{Optional: true},
				}}},
				"max_concurrency": rschema.StringAttribute{Optional: true},
				"name":            rschema.StringAttribute{Optional: true},
			}}},
			"max_concurrency": rschema.StringAttribute{Optional: true},
			"name":            rschema.StringAttribute{Optional: true},
		}}},
		"start": rschema.BoolAttribute{Optional: true},
		"status": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"current_stage":        rschema.StringAttribute{Optional: true},
			"end_time":             rschema.StringAttribute{Optional: true},
			"gates":                rschema.MapAttribute{Optional: true, ElementType: types.StringType},
			"groups":               rschema.MapAttribute{Optional: true, ElementType: types.StringType},
			"member_counts":        rschema.MapAttribute{Optional: true, ElementType: types.Int64Type},
			"message":              rschema.StringAttribute{Optional: true},
			"progress":             rschema.StringAttribute{Optional: true},
			"selected_node_images": rschema.MapAttribute{Optional: true, ElementType: types.StringType},
			"stages":               rschema.MapAttribute{Optional: true, ElementType: types.StringType},
			"start_time":           rschema.StringAttribute{Optional: true},
			"state":                rschema.StringAttribute{Optional: true},
		}},
		"stopped": rschema.BoolAttribute{Optional: true},
		"timeouts": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"create": rschema.StringAttribute{Optional: true},
			"update": rschema.StringAttribute{Optional: true},
		}},
		"update_strategy_id": rschema.StringAttribute{Optional: true},
		"upgrade": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
			"kubernetes_version": rschema.StringAttribute{Optional: true},
			"type":               rschema.StringAttribute{Optional: true},
		}},
		"wait_for_completion": rschema.BoolAttribute{Optional: true},
	}}
}
