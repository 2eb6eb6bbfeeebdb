package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

var _ resource.ResourceWithUpgradeState = (*nodePoolResource)(nil)

// State upgrades of aks_nap_nodepool. Version 0 (up to issue 10) held the
// preview as structured lists: allowances and timeline intervals per reason
// (the timeline printed once per reason), expiring nodes and drifted nodes as
// objects. Version 1 holds the same facts one line each (nodePoolPreviewDoc).

// UpgradeState rewrites a version-0 state: the spec and status are kept as
// they are; the preview is converted from the facts it holds (not computed
// again: it describes the plan it was made for).
func (r *nodePoolResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {StateUpgrader: r.upgradeFromV0}}
}

func (r *nodePoolResource) upgradeFromV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	if req.RawState == nil || req.RawState.JSON == nil {
		resp.Diagnostics.AddError("Cannot upgrade the NodePool state", "The state of schema version 0 is not JSON.")
		return
	}
	var old nodePoolModelV0
	dec := json.NewDecoder(bytes.NewReader(req.RawState.JSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&old); err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the NodePool state", "The state of schema version 0 does not decode: "+newDecodeError(err).Error())
		return
	}
	m := nodePoolModel{ID: old.ID, Cluster: old.Cluster, Name: old.Name, NodePool: old.NodePool, Status: old.Status}
	if old.Preview != nil {
		pv, err := old.Preview.upgrade()
		if err != nil {
			resp.Diagnostics.AddError("Cannot upgrade the NodePool state", "preview: "+err.Error())
			return
		}
		m.Preview = &pv
	}
	var schema resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &schema)
	typ := schema.Schema.Type().TerraformType(ctx)
	v, err := encode(m, typ)
	if err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the NodePool state", err.Error())
		return
	}
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the NodePool state", err.Error())
		return
	}
	resp.DynamicValue = &dv
}

// nodePoolModelV0 is the whole state of schema version 0.
type nodePoolModelV0 struct {
	ID      string `json:"id"`
	Cluster string `json:"cluster"`
	Name    string `json:"name"`
	nodepool.NodePool
	Preview *nodePoolPreviewV0 `json:"preview"`
	Status  *nodePoolStatusDoc `json:"status"`
}

type nodePoolPreviewV0 struct {
	EvaluatedAt string `json:"evaluated_at"`
	Defaults    struct {
		ExpireAfter         string            `json:"expire_after"`
		ConsolidationPolicy string            `json:"consolidation_policy"`
		Budgets             []nodepool.Budget `json:"budgets"`
	} `json:"defaults"`
	Nodes struct {
		Total      int `json:"total"`
		Disrupting int `json:"disrupting"`
	} `json:"nodes"`
	AllowedNow []allowanceDoc `json:"allowed_now"`
	Timeline   []intervalDoc  `json:"timeline"`
	Expiring   []struct {
		Node    string `json:"node"`
		At      string `json:"at"`
		Overdue bool   `json:"overdue"`
	} `json:"expiring"`
	Drift *struct {
		Drifted int    `json:"drifted"`
		Total   int    `json:"total"`
		Summary string `json:"summary"`
		Nodes   []struct {
			Name    string   `json:"name"`
			Reasons []string `json:"reasons"`
		} `json:"nodes"`
		Replacement struct {
			PerPass   int    `json:"per_pass"`
			Passes    int    `json:"passes"`
			Unlimited bool   `json:"unlimited"`
			Blocked   bool   `json:"blocked"`
			StartsAt  string `json:"starts_at"`
			Message   string `json:"message"`
		} `json:"replacement"`
	} `json:"drift"`
}

// upgrade rewrites a version-0 preview with the same facts: the timeline's
// intervals, per reason, become the engine's intervals again, which the
// engine merges into windows and reads for the next allowances exactly as
// for a new plan.
func (p nodePoolPreviewV0) upgrade() (nodePoolPreviewDoc, error) {
	var d nodePoolPreviewDoc
	d.EvaluatedAt = p.EvaluatedAt
	d.Defaults.ExpireAfter = p.Defaults.ExpireAfter
	d.Defaults.ConsolidationPolicy = p.Defaults.ConsolidationPolicy
	d.Defaults.Budgets = describeBudgets(p.Defaults.Budgets)
	d.Nodes.Total, d.Nodes.Disrupting = p.Nodes.Total, p.Nodes.Disrupting
	d.AllowedNow = map[string]string{}
	for _, a := range p.AllowedNow {
		// A bound allowance names its budgets; one with neither budgets nor
		// unlimited failed closed.
		al := nodepool.Allowance{Reason: nodepool.Reason(a.Reason), Unbounded: a.Unlimited, Binding: a.BudgetIndexes,
			FailedClosed: !a.Unlimited && len(a.BudgetIndexes) == 0}
		if a.Allowed != nil {
			al.Allowed = *a.Allowed
		}
		d.AllowedNow[a.Reason] = al.String()
	}
	tl := map[nodepool.Reason][]nodepool.Interval{}
	for _, doc := range p.Timeline {
		start, err := time.Parse(time.RFC3339, doc.Start)
		if err != nil {
			return d, err
		}
		end, err := time.Parse(time.RFC3339, doc.End)
		if err != nil {
			return d, err
		}
		iv := nodepool.Interval{Start: start.UTC(), End: end.UTC(), Unlimited: doc.Unlimited, Budgets: doc.BudgetIndexes,
			FailedClosed: strings.Contains(doc.Description, ": 0 (fail closed:")}
		switch {
		case doc.Allowed != nil:
			iv.Allowed = *doc.Allowed
		case doc.Unlimited: // as Timeline has it: Karpenter's unlimited minus the nodes disrupting
			iv.Allowed = max(nodepool.Unlimited-p.Nodes.Disrupting, 0)
		}
		r := nodepool.Reason(doc.Reason)
		tl[r] = append(tl[r], iv)
	}
	d.Timeline, d.NextAllowed = reviewTimeline(tl)
	d.Expiring = map[string]string{}
	for _, e := range p.Expiring {
		at, err := time.Parse(time.RFC3339, e.At)
		if err != nil {
			return d, err
		}
		d.Expiring[e.Node] = expiryLine(at, e.Overdue)
	}
	if p.Drift != nil {
		drift := &driftDoc{Drifted: p.Drift.Drifted, Summary: p.Drift.Summary, Nodes: map[string]string{},
			Replacement: p.Drift.Replacement.Message}
		for _, n := range p.Drift.Nodes {
			drift.Nodes[n.Name] = strings.Join(n.Reasons, "; ")
		}
		d.Drift = drift
	}
	return d, nil
}
