package provider

import (
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
)

// The Karpenter NodePool spec in snake_case, and the NAP previews.

func taintListAttr(desc string) attr {
	return optional(kObjectList, desc).with(map[string]attr{
		"key":    required(kString, "Taint key."),
		"value":  optional(kString, "Taint value."),
		"effect": required(kString, "`NoSchedule`, `PreferNoSchedule` or `NoExecute`."),
	})
}

func budgetsAttr(desc string) attr {
	return optional(kObjectList, desc).with(map[string]attr{
		"nodes": optional(kString, "How many nodes may be disrupted at once: an integer (`\"5\"`) or a percentage of the pool's nodes, rounded up (`\"10%\"`, the default)."),
		"schedule": optional(kString, "When the budget becomes active: a standard 5-field cron expression in UTC (day of week 0–6 or sun–sat, no ranges that wrap), "+
			"or `@yearly`, `@monthly`, `@weekly`, `@daily`, `@hourly`. Without a schedule the budget is always active. Requires `duration`."),
		"duration": optional(kString, "How long the budget stays active after each schedule hit, e.g. `8h` or `1h30m` (hours and minutes only)."),
		"reasons":  optional(kStringList, "The disruption reasons the budget limits: `Empty`, `Drifted`, `Underutilized`. Unset means all; an empty list means none."),
	})
}

func nodePoolSpecAttrs() map[string]attr {
	return map[string]attr{
		"weight": optional(kInt, "Priority among NodePools when several can schedule a pod (1–100)."),
		"limits": optional(kStringMap, "Upper bounds on the pool's total resources as Kubernetes quantities, e.g. `{ cpu = \"1000\", memory = \"1000Gi\" }`."),
		"template": required(kObject, "The nodes the pool launches. Changing labels, annotations, taints, startup taints, the node class, "+
			"`expire_after` or `termination_grace_period` drifts every existing node; changing requirements drifts only the nodes they exclude.").with(map[string]attr{
			"labels":      optional(kStringMap, "Labels of the launched nodes."),
			"annotations": optional(kStringMap, "Annotations of the launched nodes."),
			"node_class_ref": required(kObject, "The AKSNodeClass the nodes use. `group` and `kind` cannot change.").with(map[string]attr{
				"group": required(kString, "API group, `karpenter.azure.com`."),
				"kind":  required(kString, "Kind, `AKSNodeClass`."),
				"name":  required(kString, "Name, e.g. `default`."),
			}),
			"requirements": optional(kObjectList, "Node selector requirements on instance types and labels (at most 100).").with(map[string]attr{
				"key":        required(kString, "Label key, e.g. `karpenter.sh/capacity-type` or `karpenter.azure.com/sku-family`."),
				"operator":   required(kString, "`In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt`, `Gte` or `Lte`."),
				"values":     optional(kStringList, "Values: at least one for `In`; exactly one non-negative integer for `Gt`, `Lt`, `Gte`, `Lte`."),
				"min_values": optional(kInt, "Minimum number of distinct values that must stay schedulable (1–50)."),
			}),
			"taints":                   taintListAttr("Taints of the launched nodes."),
			"startup_taints":           taintListAttr("Taints applied at start-up and expected to be removed by a DaemonSet."),
			"expire_after":             optional(kString, "Node lifetime, e.g. `720h` (the default) or `Never`. Expiry is forceful: budgets do not delay it."),
			"termination_grace_period": optional(kString, "How long a node may drain before it is forcibly deleted, e.g. `48h`."),
		}),
		"disruption": optional(kObject, "Voluntary disruption: consolidation and budgets.").with(map[string]attr{
			"consolidation_policy": optional(kString, "`WhenEmptyOrUnderutilized` (default) or `WhenEmpty`."),
			"consolidate_after":    optional(kString, "How long a node must be empty or underutilized before it is consolidated, e.g. `30s`, `10m`, or `Never`. Required on AKS."),
			"budgets": budgetsAttr("Budgets rate-limit voluntary disruption; the allowance is the minimum over the active budgets. Unset means one `10%` " +
				"budget; an empty list means unlimited disruption."),
		}),
	}
}

var nodePoolSpecAttrNames = []string{"weight", "limits", "template", "disruption"}

// Preview building blocks shared by the resource and the data source.
func disruptionPreviewAttrs() map[string]attr {
	return map[string]attr{
		"allowed_now": computed(kObjectList, "Allowed disruptions now, per reason (the minimum over the active budgets, minus nodes already disrupting).").with(map[string]attr{
			"reason":         computed(kString, "`Empty`, `Drifted` or `Underutilized`."),
			"allowed":        computed(kInt, "Nodes that may start disrupting for this reason now; null when unlimited."),
			"unlimited":      computed(kBool, "Whether no active budget limits this reason."),
			"budget_indexes": computed(kIntList, "Indexes into `disruption.budgets` of the budgets that set the allowance (0-based)."),
		}),
		"timeline": computed(kObjectList, "The next 7 days (UTC): intervals over which each reason's allowance is constant, merged and sorted.").with(map[string]attr{
			"reason":         computed(kString, "`Empty`, `Drifted` or `Underutilized`."),
			"start":          computed(kString, "Start of the interval, inclusive (RFC 3339)."),
			"end":            computed(kString, "End of the interval, exclusive (RFC 3339)."),
			"allowed":        computed(kInt, "Nodes that may be disrupted; null when unlimited."),
			"unlimited":      computed(kBool, "Whether no active budget limits the reason in the interval."),
			"budget_indexes": computed(kIntList, "Indexes of the budgets that set the allowance (0-based)."),
			"description":    computed(kString, "E.g. `Mon 09:00–17:00 UTC: 0 (budget #2)` (budgets numbered from 1)."),
		}),
	}
}

type allowanceDoc struct {
	Reason        string
	Allowed       *int
	Unlimited     bool
	BudgetIndexes []int
}

type intervalDoc struct {
	Reason, Start, End string
	Allowed            *int
	Unlimited          bool
	BudgetIndexes      []int
	Description        string
}

type disruptionPreviewDoc struct {
	AllowedNow []allowanceDoc
	Timeline   []intervalDoc
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
			doc := intervalDoc{Reason: string(r), Start: iv.Start.UTC().Format(time.RFC3339), End: iv.End.UTC().Format(time.RFC3339),
				Unlimited: iv.Unlimited, BudgetIndexes: nonNilInts(iv.Budgets), Description: iv.String()}
			if !iv.Unlimited {
				allowed := iv.Allowed
				doc.Allowed = &allowed
			}
			d.Timeline = append(d.Timeline, doc)
		}
	}
	return d
}

func nonNilInts(is []int) []int {
	if is == nil {
		return []int{}
	}
	return is
}
