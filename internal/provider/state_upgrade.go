package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
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
