package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// The aks_fleet_placement resource's preview is read in a pull request, once
// per placement: one line per cluster with its verdict, and the totals
// (designs/placement.md §8). The structured decisions — every score as a
// number — stay where modules consume them: the aks_fleet_placement_preview
// data source (previewDoc) and the resource's status.

func placementPlanPreviewAttr() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Computed: true,
		MarkdownDescription: "What the Fleet scheduler will decide, one line per cluster, computed at plan when the placement is " +
			"created or its configuration changes (and kept until the configuration changes again, so time passing or the fleet " +
			"changing never causes a diff). The same decisions with every score as a number are in `status.decisions` and in the " +
			"`aks_fleet_placement_preview` data source.",
		Attributes: map[string]rschema.Attribute{
			"summary": rschema.StringAttribute{Computed: true, MarkdownDescription: "One line: the placement type, how many clusters " +
				"are selected of how many requested, and why the placement is not fulfilled when it is not — e.g. " +
				"`PickN: 3 of 3 clusters selected`."},
			"selected": rschema.MapAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "Every selected " +
				"cluster and its scores, e.g. `affinity 49, topology spread 0` (a held cluster shows the scores recorded when it was " +
				"picked, and why it is held when that is not the policy's pick)."},
			"left_out": rschema.MapAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "A bounded list " +
				"(`preview_limit`) of clusters left out, each with its rank — the best-scored first, then the filtered ones — and the " +
				"reason, e.g. `#1 does not score high enough (affinity score: 18, topology spread score: 0)`."},
			"left_out_total": rschema.Int64Attribute{Computed: true, MarkdownDescription: "How many clusters are left out in all."},
			"left_out_counts": rschema.MapAttribute{ElementType: types.Int64Type, Computed: true,
				MarkdownDescription: "Left-out clusters per reason."},
			"rollout": rschema.StringAttribute{Computed: true, MarkdownDescription: "The rollout strategy resolved for the selected " +
				"clusters, e.g. `RollingUpdate: up to 1 unavailable and 1 extra at a time, each available after 60s`."},
		},
	}
}

// planPreviewDoc is the resource's preview attribute.
type planPreviewDoc struct {
	Summary       string            `json:"summary"`
	Selected      map[string]string `json:"selected"`
	LeftOut       map[string]string `json:"left_out"`
	LeftOutTotal  int               `json:"left_out_total"`
	LeftOutCounts map[string]int    `json:"left_out_counts"`
	Rollout       string            `json:"rollout"`
}

// newPlanPreviewDoc condenses a scheduling result into one line per cluster.
func newPlanPreviewDoc(spec placement.Spec, r placement.Result, limit int) planPreviewDoc {
	return compactPreview(placement.WithDefaults(spec).Policy.PlacementType, newPreviewDoc(spec, r, limit))
}

// compactPreview renders a structured preview (the data source's) in the
// resource's one-line-per-cluster form.
func compactPreview(placementType string, d previewDoc) planPreviewDoc {
	out := planPreviewDoc{Selected: map[string]string{}, LeftOut: map[string]string{}, LeftOutTotal: d.LeftOutTotal,
		LeftOutCounts: d.LeftOutCounts, Rollout: rolloutLine(d.Rollout)}
	if out.LeftOutCounts == nil {
		out.LeftOutCounts = map[string]int{}
	}
	rank := 0
	for _, dec := range d.Decisions {
		if dec.Selected {
			v := fmt.Sprintf("affinity %d, topology spread %d", dec.AffinityScore, dec.TopologySpreadScore)
			if dec.Reason != "" && dec.Reason != placement.ReasonPicked {
				v += " — " + dec.Reason
			}
			out.Selected[dec.ClusterName] = v
			continue
		}
		rank++
		out.LeftOut[dec.ClusterName] = fmt.Sprintf("#%d %s", rank, dec.Reason)
	}
	s := d.Summary
	switch {
	case s.Requested == nil:
		out.Summary = fmt.Sprintf("%s: %s selected", placementType, clusters(s.Selected))
	case placementType == placement.PickFixed:
		out.Summary = fmt.Sprintf("%s: %d of %s named selected", placementType, s.Selected, clusters(*s.Requested))
	default:
		out.Summary = fmt.Sprintf("%s: %d of %s selected", placementType, s.Selected, clusters(*s.Requested))
	}
	if s.Message != "" {
		out.Summary += " — " + s.Message
	}
	return out
}

func clusters(n int) string {
	if n == 1 {
		return "1 cluster"
	}
	return fmt.Sprintf("%d clusters", n)
}

// rolloutLine is a resolved rollout in words.
func rolloutLine(r placement.Rollout) string {
	if r.Type != placement.RollingUpdateStrategy {
		return r.Type + ": rolled out by an external controller"
	}
	return fmt.Sprintf("%s: up to %d unavailable and %d extra at a time, each available after %ds",
		r.Type, r.MaxUnavailable, r.MaxSurge, r.UnavailablePeriodSeconds)
}

// The preview changed shape in schema version 1 (the structured decisions of
// version 0 became one line per cluster). upgradePlacementStateV0 rewrites a
// version-0 state's preview into the new form, so upgrading the provider
// plans no change.
func (r *placementResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {StateUpgrader: upgradePlacementStateV0}}
}

func upgradePlacementStateV0(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	if req.RawState == nil || req.RawState.JSON == nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", "The stored state of the placement is empty: remove it from the "+
			"state (terraform state rm) and import it again.")
		return
	}
	var state map[string]json.RawMessage
	if err := json.Unmarshal(req.RawState.JSON, &state); err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", "The stored state of the placement is not JSON ("+err.Error()+
			"): remove it from the state (terraform state rm) and import it again.")
		return
	}
	if raw := state["preview"]; len(raw) > 0 && string(raw) != "null" {
		var old previewDoc
		var policy struct {
			PlacementType string `json:"placement_type"`
		}
		_ = json.Unmarshal(state["policy"], &policy) // absent or null: PickAll
		if err := json.Unmarshal(raw, &old); err != nil {
			resp.Diagnostics.AddError("Cannot upgrade the state", "The stored preview of the placement cannot be read ("+err.Error()+
				"): remove the placement from the state (terraform state rm) and import it again.")
			return
		}
		pt := placement.WithDefaults(placement.Spec{Policy: placement.Policy{PlacementType: policy.PlacementType}}).Policy.PlacementType
		b, err := json.Marshal(compactPreview(pt, old))
		if err != nil {
			resp.Diagnostics.AddError("Cannot upgrade the state", err.Error())
			return
		}
		state["preview"] = b
	}
	b, err := json.Marshal(state)
	if err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", err.Error())
		return
	}
	resp.DynamicValue = &tfprotov6.DynamicValue{JSON: b}
}
