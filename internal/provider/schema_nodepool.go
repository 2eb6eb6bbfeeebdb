package provider

import (
	"time"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

// The Karpenter NodePool spec in snake_case, and the NAP previews.

func taintListAttr(desc string) rschema.ListNestedAttribute {
	return rschema.ListNestedAttribute{Optional: true, MarkdownDescription: desc,
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"key": rschema.StringAttribute{Required: true, MarkdownDescription: "Taint key."},
			"value": rschema.StringAttribute{Optional: true, MarkdownDescription: "Taint value, e.g. `gpu` or `example.com/gpu`; " +
				"omit it for a taint without one (Kubernetes rejects an explicit empty value)."},
			"effect": rschema.StringAttribute{Required: true, MarkdownDescription: "`NoSchedule`, `PreferNoSchedule` or `NoExecute`."},
		}},
	}
}

// budgetsAttr is disruption.budgets (nodepool.Budget).
func budgetsAttr(desc string) rschema.ListNestedAttribute {
	return rschema.ListNestedAttribute{Optional: true, MarkdownDescription: desc,
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"nodes": rschema.StringAttribute{Optional: true, MarkdownDescription: "How many nodes may be disrupted at once: an integer " +
				"from 0 to 2147483647 (`\"5\"`) or a percentage of the pool's nodes, rounded up (`\"10%\"`, the default)."},
			"schedule": rschema.StringAttribute{Optional: true, MarkdownDescription: "When the budget becomes active: a standard 5-field " +
				"cron expression in UTC (day of week 0–6 or sun–sat, no ranges that wrap), or `@yearly`, `@monthly`, `@weekly`, " +
				"`@daily`, `@hourly`. Without a schedule the budget is always active. Requires `duration`."},
			"duration": rschema.StringAttribute{Optional: true, MarkdownDescription: "How long the budget stays active after each " +
				"schedule hit, e.g. `8h` or `1h30m` (hours and minutes only)."},
			"reasons": rschema.ListAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: "The disruption " +
				"reasons the budget limits: `Empty`, `Drifted`, `Underutilized`, each at most once. Unset means all; an empty list means none."},
		}},
	}
}

// noBudgetsAttr is the flag that says a budget list is empty on purpose
// (Karpenter's `budgets: []`), which no number of blocks can say.
func noBudgetsAttr() rschema.BoolAttribute {
	return rschema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false), MarkdownDescription: "`true` for no budget at all, Karpenter's " +
		"`budgets: []`: voluntary disruption is not rate-limited. Without it and without `budgets` blocks, Karpenter's default " +
		"applies (one `10%` budget). Not with `budgets` blocks."}
}

// nodePoolSpecAttrs are the attributes of nodepool.NodePool.
func nodePoolSpecAttrs() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"weight": rschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true, MarkdownDescription: "Priority among NodePools when several can schedule a pod (1–100)."},
		"limits": rschema.MapAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: "Upper bounds on the " +
			"pool's total resources as Kubernetes quantities, e.g. `{ cpu = \"1000\", memory = \"1000Gi\" }`."},
		"template": rschema.SingleNestedAttribute{Required: true, MarkdownDescription: "The nodes the pool launches. Changing labels, " +
			"annotations, taints, startup taints, the node class, `expire_after` or `termination_grace_period` drifts every existing " +
			"node; changing requirements drifts only the nodes they exclude.",
			Attributes: map[string]rschema.Attribute{
				"labels": rschema.MapAttribute{ElementType: types.StringType, Optional: true,
					MarkdownDescription: "Labels of the launched nodes (at most 100)."},
				"annotations": rschema.MapAttribute{ElementType: types.StringType, Optional: true,
					MarkdownDescription: "Annotations of the launched nodes and their NodeClaims (keys are qualified names, 256 KiB in all)."},
				"node_class_ref": rschema.SingleNestedAttribute{Required: true,
					MarkdownDescription: "The AKSNodeClass the nodes use. `group` and `kind` cannot change.",
					Attributes: map[string]rschema.Attribute{
						"group": rschema.StringAttribute{Required: true, MarkdownDescription: "API group, `karpenter.azure.com` (no version)."},
						"kind":  rschema.StringAttribute{Required: true, MarkdownDescription: "Kind, `AKSNodeClass`."},
						"name":  rschema.StringAttribute{Required: true, MarkdownDescription: "Name, e.g. `default`."},
					},
				},
				"requirements": rschema.ListNestedAttribute{Optional: true,
					MarkdownDescription: "Node selector requirements on instance types and labels (at most 100).",
					NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
						"key": rschema.StringAttribute{Required: true,
							MarkdownDescription: "Label key, e.g. `karpenter.sh/capacity-type` or `karpenter.azure.com/sku-family`."},
						"operator": rschema.StringAttribute{Required: true,
							MarkdownDescription: "`In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt`, `Gte` or `Lte`."},
						"values": rschema.ListAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: "Values: at " +
							"least one for `In`; exactly one non-negative integer for `Gt`, `Lt`, `Gte`, `Lte`."},
						"min_values": rschema.Int64Attribute{CustomType: wholeNumberType{}, Optional: true,
							MarkdownDescription: "Minimum number of distinct values that must stay schedulable (1–50)."},
					}},
				},
				"taints":         taintListAttr("Taints of the launched nodes."),
				"startup_taints": taintListAttr("Taints applied at start-up and expected to be removed by a DaemonSet."),
				"expire_after": rschema.StringAttribute{Optional: true, MarkdownDescription: "Node lifetime, e.g. `720h` (the default) " +
					"or `Never`. Expiry is forceful: budgets do not delay it."},
				"termination_grace_period": rschema.StringAttribute{Optional: true,
					MarkdownDescription: "How long a node may drain before it is forcibly deleted, e.g. `48h`."},
			},
		},
		"disruption": rschema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Voluntary disruption: consolidation and budgets. " +
			"Omitted, Kubernetes sets `consolidate_after = \"0s\"` and the defaults below.",
			Attributes: map[string]rschema.Attribute{
				"consolidation_policy": rschema.StringAttribute{Optional: true,
					MarkdownDescription: "`WhenEmptyOrUnderutilized` (default), `WhenEmpty`, or `Balanced` (consolidates an underutilized node " +
						"only when the cost saved outweighs the disruption, so it also depends on prices; budgets as for `WhenEmptyOrUnderutilized`)."},
				"consolidate_after": rschema.StringAttribute{Optional: true, MarkdownDescription: "How long a node must be empty or " +
					"underutilized before it is consolidated, e.g. `30s`, `10m`, or `Never`. Required when `disruption` is set."},
				"budgets": budgetsAttr("Budgets rate-limit voluntary disruption; the allowance is the minimum over the active budgets. " +
					"None means one `10%` budget; `no_budgets = true` means unlimited disruption."),
				"no_budgets": noBudgetsAttr(),
			},
		},
	}
}

// disruptionPreviewAttrs are the data source's structured allowances and
// timeline.
func disruptionPreviewAttrs() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"allowed_now": rschema.ListNestedAttribute{Computed: true, MarkdownDescription: "Allowed disruptions now, per reason (the " +
			"minimum over the active budgets, minus nodes already disrupting).",
			NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"reason":    rschema.StringAttribute{Computed: true, MarkdownDescription: "`Empty`, `Drifted` or `Underutilized`."},
				"allowed":   rschema.Int64Attribute{Computed: true, MarkdownDescription: "Nodes that may start disrupting for this reason now; null when unlimited."},
				"unlimited": rschema.BoolAttribute{Computed: true, MarkdownDescription: "Whether no active budget limits this reason."},
				"budget_indexes": rschema.ListAttribute{ElementType: types.Int64Type, Computed: true,
					MarkdownDescription: "Indexes into `disruption.budgets` of the budgets that set the allowance (0-based)."},
			}},
		},
		"timeline": rschema.ListNestedAttribute{Computed: true, MarkdownDescription: "The next 7 days (UTC): intervals over which " +
			"each reason's allowance is constant, merged and sorted.",
			NestedObject: rschema.NestedAttributeObject{Attributes: spanAttrs("interval", "the reason",
				"reason", rschema.StringAttribute{Computed: true, MarkdownDescription: "`Empty`, `Drifted` or `Underutilized`."},
				"`Mon 09:00–17:00 UTC: 0 (budget #2)`")},
		},
		"windows": rschema.ListNestedAttribute{Computed: true, MarkdownDescription: "The timeline with each window once: the " +
			"intervals of `timeline` whose start, end and allowance (number and budgets) are the same for several reasons " +
			"become one window naming them, sorted by start (what `aks_nap_nodepool`'s preview shows).",
			NestedObject: rschema.NestedAttributeObject{Attributes: spanAttrs("window", "these reasons",
				"reasons", rschema.ListAttribute{ElementType: types.StringType, Computed: true,
					MarkdownDescription: "The reasons the window applies to, in Karpenter's order (`Empty`, `Drifted`, `Underutilized`)."},
				"`Mon 09:00–17:00 UTC · Empty, Drifted: 0 (budget #2)`")},
		},
	}
}

// spanAttrs are the attributes of a spanDoc (an interval or a window, of
// what, with an example description), and the attribute that says which
// reasons it is of.
func spanAttrs(what, of, reasonsName string, reasons rschema.Attribute, example string) map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		reasonsName: reasons,
		"start":     rschema.StringAttribute{Computed: true, MarkdownDescription: "Start of the " + what + ", inclusive (RFC 3339)."},
		"end":       rschema.StringAttribute{Computed: true, MarkdownDescription: "End of the " + what + ", exclusive (RFC 3339)."},
		"allowed":   rschema.Int64Attribute{Computed: true, MarkdownDescription: "Nodes that may be disrupted; null when unlimited."},
		"unlimited": rschema.BoolAttribute{Computed: true, MarkdownDescription: "Whether no active budget limits " + of + " in the " + what + "."},
		"budget_indexes": rschema.ListAttribute{ElementType: types.Int64Type, Computed: true,
			MarkdownDescription: "Indexes of the budgets that set the allowance (0-based)."},
		"description": rschema.StringAttribute{Computed: true, MarkdownDescription: "E.g. " + example + " (budgets numbered from 1)."},
	}
}

type allowanceDoc struct {
	Reason        string `json:"reason"`
	Allowed       *int   `json:"allowed"`
	Unlimited     bool   `json:"unlimited"`
	BudgetIndexes []int  `json:"budget_indexes"`
}

// spanDoc is a span of constant allowance: an interval of one reason's
// timeline, or a window shared by reasons.
type spanDoc struct {
	Start         string `json:"start"`
	End           string `json:"end"`
	Allowed       *int   `json:"allowed"`
	Unlimited     bool   `json:"unlimited"`
	BudgetIndexes []int  `json:"budget_indexes"`
	Description   string `json:"description"`
}

func newSpanDoc(iv nodepool.Interval, description string) spanDoc {
	return spanDoc{Start: iv.Start.UTC().Format(time.RFC3339), End: iv.End.UTC().Format(time.RFC3339), Allowed: limitedAllowance(iv),
		Unlimited: iv.Unlimited, BudgetIndexes: nonNilInts(iv.Budgets), Description: description}
}

type intervalDoc struct {
	Reason string `json:"reason"`
	spanDoc
}

type windowDoc struct {
	Reasons []string `json:"reasons"`
	spanDoc
}

type nextAllowanceDoc struct {
	At            string `json:"at"`
	Allowed       *int   `json:"allowed"`
	Unlimited     bool   `json:"unlimited"`
	BudgetIndexes []int  `json:"budget_indexes"`
	Description   string `json:"description"`
}

type disruptionPreviewDoc struct {
	AllowedNow  []allowanceDoc              `json:"allowed_now"`
	Timeline    []intervalDoc               `json:"timeline"`
	Windows     []windowDoc                 `json:"windows"`
	NextAllowed map[string]nextAllowanceDoc `json:"next_allowed"`
}

// previewSpan is how far the timeline and the expiry preview look ahead.
const previewSpan = 7 * 24 * time.Hour

// newDisruptionPreviewDoc evaluates budgets now and over the next span.
func newDisruptionPreviewDoc(budgets []nodepool.Budget, total, disrupting int, now time.Time, span time.Duration) disruptionPreviewDoc {
	d := disruptionPreviewDoc{AllowedNow: []allowanceDoc{}, Timeline: []intervalDoc{}}
	allowed := nodepool.AllowedDisruptionsByReason(budgets, total, disrupting, now)
	for _, r := range nodepool.Reasons {
		a := allowed[r]
		doc := allowanceDoc{Reason: string(r), Unlimited: a.Unbounded, BudgetIndexes: nonNilInts(a.Binding)}
		if !a.Unbounded {
			allowed := a.Allowed
			doc.Allowed = &allowed
		}
		d.AllowedNow = append(d.AllowedNow, doc)
	}
	tl := nodepool.Timeline(budgets, total, disrupting, now, span)
	for _, r := range nodepool.Reasons {
		for _, iv := range tl[r] {
			d.Timeline = append(d.Timeline, intervalDoc{Reason: string(r), spanDoc: newSpanDoc(iv, iv.String())})
		}
	}
	d.Windows = []windowDoc{}
	for _, w := range nodepool.MergeReasons(tl) {
		doc := windowDoc{Reasons: []string{}, spanDoc: newSpanDoc(w.Interval, w.String())}
		for _, r := range w.Reasons {
			doc.Reasons = append(doc.Reasons, string(r))
		}
		d.Windows = append(d.Windows, doc)
	}
	d.NextAllowed = map[string]nextAllowanceDoc{}
	for r, n := range nodepool.NextAllowed(tl) {
		doc := nextAllowanceDoc{BudgetIndexes: []int{}, Description: n.String()}
		if n.Found {
			doc.At = n.At.UTC().Format(time.RFC3339)
			doc.Allowed, doc.Unlimited, doc.BudgetIndexes = limitedAllowance(n.Interval), n.Interval.Unlimited, nonNilInts(n.Interval.Budgets)
		}
		d.NextAllowed[string(r)] = doc
	}
	return d
}

// limitedAllowance is an interval's allowance as the data source gives it:
// null when unlimited.
func limitedAllowance(iv nodepool.Interval) *int {
	if iv.Unlimited {
		return nil
	}
	allowed := iv.Allowed
	return &allowed
}

func nonNilInts(is []int) []int {
	if is == nil {
		return []int{}
	}
	return is
}
