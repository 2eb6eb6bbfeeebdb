package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// upgradeStateJSON upgrades a stored state of an earlier schema version by
// rewriting its JSON (rewrite edits the top-level attributes in place): the
// shape changes of designs/previews.md §7 drop and recount computed
// attributes, and every configured value stays as it was written.
func upgradeStateJSON(req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse, what string, rewrite func(map[string]json.RawMessage) error) {
	fix := "remove it from the state (terraform state rm) and import it again."
	if req.RawState == nil || req.RawState.JSON == nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", "The stored state of the "+what+" is empty: "+fix)
		return
	}
	var state map[string]json.RawMessage
	if err := json.Unmarshal(req.RawState.JSON, &state); err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", "The stored state of the "+what+" is not JSON ("+err.Error()+"): "+fix)
		return
	}
	if err := rewrite(state); err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", "The stored state of the "+what+" cannot be upgraded: "+err.Error()+"; "+fix)
		return
	}
	b, err := json.Marshal(state)
	if err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", err.Error())
		return
	}
	resp.DynamicValue = &tfprotov6.DynamicValue{JSON: b}
}

// dropPreview removes a state's preview attribute (a prediction, not state:
// designs/previews.md §2) and adds reviewed_preview, unset.
func dropPreview(state map[string]json.RawMessage) error {
	delete(state, "preview")
	state["reviewed_preview"] = json.RawMessage("null")
	return nil
}

// dropPreviewOnly removes a state's preview, for a resource without a guard.
func dropPreviewOnly(state map[string]json.RawMessage) error {
	delete(state, "preview")
	return nil
}

// upgraders maps each earlier schema version to one upgrade to the current.
func upgraders(what string, versions []int64, rewrite func(map[string]json.RawMessage) error) map[int64]resource.StateUpgrader {
	up := resource.StateUpgrader{StateUpgrader: func(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		upgradeStateJSON(req, resp, what, rewrite)
	}}
	out := map[int64]resource.StateUpgrader{}
	for _, v := range versions {
		out[v] = up
	}
	return out
}

// Version 3 of aks_fleet_placement and aks_nap_nodepool, version 2 of
// aks_fleet_update_strategy and aks_fleet_update_run: every configurable
// structure became a block (designs/schema.md §1). The state's types are
// the same but for two things, which blockUpgrade carries over: a list of
// blocks is never null (no blocks is an empty list), and a NodePool's
// explicitly empty budgets (unlimited disruption) is `no_budgets = true`
// (designs/schema.md §2).

// blockUpgraders upgrades to the block schema: from the frozen prior
// schema of the version before (prior), and from every earlier version
// through the JSON rewrite that reached it (rewrite, designs/previews.md §7).
func blockUpgraders(what string, prior rschema.Schema, earlier []int64, rewrite func(map[string]json.RawMessage) error) map[int64]resource.StateUpgrader {
	out := map[int64]resource.StateUpgrader{
		prior.Version: {PriorSchema: &prior, StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			setUpgraded(ctx, what, req.State.Raw, resp)
		}},
	}
	for _, v := range earlier {
		out[v] = resource.StateUpgrader{StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			upgradeStateJSON(req, resp, what, rewrite)
			if resp.Diagnostics.HasError() {
				return
			}
			raw, err := tftypes.ValueFromJSON(resp.DynamicValue.JSON, prior.Type().TerraformType(ctx))
			if err != nil {
				resp.Diagnostics.AddError("Cannot upgrade the state", "The stored state of the "+what+" cannot be read: "+err.Error())
				return
			}
			resp.DynamicValue = nil
			setUpgraded(ctx, what, raw, resp)
		}}
	}
	return out
}

// setUpgraded sets resp.State to the block form of a prior state.
func setUpgraded(ctx context.Context, what string, prior tftypes.Value, resp *resource.UpgradeStateResponse) {
	v, err := blockUpgrade(prior, resp.State.Schema.Type().TerraformType(ctx))
	if err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", "The stored state of the "+what+" cannot be upgraded: "+err.Error()+
			"; remove it from the state (terraform state rm) and import it again.")
		return
	}
	resp.State.Raw = v
}

// blockUpgrade converts a value of a prior schema to type to: attributes
// the prior state lacks are null, a null list of objects is empty, and a
// flag no_<list> says whether the prior <list> was explicitly empty.
func blockUpgrade(v tftypes.Value, to tftypes.Type) (tftypes.Value, error) {
	if !v.IsKnown() {
		return tftypes.NewValue(to, tftypes.UnknownValue), nil
	}
	if v.IsNull() {
		if isBlockList(to) {
			return tftypes.NewValue(to, []tftypes.Value{}), nil
		}
		return tftypes.NewValue(to, nil), nil
	}
	switch t := to.(type) {
	case tftypes.Object:
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return tftypes.Value{}, err
		}
		out := make(map[string]tftypes.Value, len(t.AttributeTypes))
		for name, at := range t.AttributeTypes {
			if list, isFlag := flaggedList(t, name); isFlag {
				if lv, had := m[list]; had {
					out[name] = tftypes.NewValue(at, lv.IsKnown() && !lv.IsNull() && emptyList(lv))
					continue
				}
			}
			pv, had := m[name]
			if !had {
				pv = tftypes.NewValue(at, nil)
			}
			x, err := blockUpgrade(pv, at)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("%s: %w", name, err)
			}
			out[name] = x
		}
		return tftypes.NewValue(t, out), nil
	case tftypes.List:
		var l []tftypes.Value
		if err := v.As(&l); err != nil {
			return tftypes.Value{}, err
		}
		out := make([]tftypes.Value, len(l))
		for i, e := range l {
			x, err := blockUpgrade(e, t.ElementType)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = x
		}
		return tftypes.NewValue(t, out), nil
	case tftypes.Map:
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return tftypes.Value{}, err
		}
		out := make(map[string]tftypes.Value, len(m))
		for k, e := range m {
			x, err := blockUpgrade(e, t.ElementType)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("[%q]: %w", k, err)
			}
			out[k] = x
		}
		return tftypes.NewValue(t, out), nil
	}
	if !v.Type().Equal(to) {
		return tftypes.Value{}, fmt.Errorf("a %s cannot become a %s", v.Type(), to)
	}
	return v, nil
}
