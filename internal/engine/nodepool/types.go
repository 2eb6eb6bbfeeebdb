package nodepool

import (
	"maps"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// NodePool is the provider-neutral model of a Karpenter NodePool spec.
//
// Optional scalar fields are pointers: nil means "not set" (and is subject to
// the defaults of WithDefaults), which is distinct from a set zero value.
type NodePool struct {
	// Weight orders NodePools for scheduling; nil means unset (treated as 0).
	Weight *int32 `json:"weight"`
	// Limits bounds the total resources of the pool, as Kubernetes quantities
	// keyed by resource name (cpu, memory, nodes, ...).
	Limits map[string]string `json:"limits"`
	// Template describes the nodes the pool launches.
	Template Template `json:"template"`
	// Disruption holds the behaviour of voluntary disruption. nil means the
	// block is omitted, which the CRD defaults to {consolidateAfter: 0s}
	// (see WithDefaults); an explicit block must set ConsolidateAfter.
	Disruption *Disruption `json:"disruption"`
}

// Template is spec.template: metadata and spec of the NodeClaims the pool
// launches. All of its fields except Requirements take part in the
// NodePool hash, so changing them drifts every node (see Drift).
type Template struct {
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	NodeClassRef NodeClassRef      `json:"node_class_ref"`
	Requirements []Requirement     `json:"requirements"`
	Taints       []Taint           `json:"taints"`
	// StartupTaints are applied at node start-up and expected to be removed
	// by a DaemonSet.
	StartupTaints []Taint `json:"startup_taints"`
	// ExpireAfter is a duration such as "720h" or "Never"; nil means default
	// (720h).
	ExpireAfter *string `json:"expire_after"`
	// TerminationGracePeriod is a duration such as "30m"; nil means unset
	// (wait indefinitely for pods to drain).
	TerminationGracePeriod *string `json:"termination_grace_period"`
}

// NodeClassRef references the provider NodeClass (on AKS an AKSNodeClass).
// Group and Kind are immutable once created.
type NodeClassRef struct {
	Group string `json:"group"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
}

// Requirement is a node selector requirement with optional minValues.
type Requirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values"`
	// MinValues is the minimum number of distinct values that must remain
	// schedulable; nil means unset.
	MinValues *int `json:"min_values"`
}

// Taint is a Kubernetes taint.
type Taint struct {
	Key string `json:"key"`
	// Value is nil when omitted. An explicit empty value is not the same:
	// the CRD's pattern rejects it (designs/nap.md §2).
	Value  *string `json:"value"`
	Effect string  `json:"effect"`
}

// Disruption is spec.disruption.
type Disruption struct {
	// ConsolidationPolicy is WhenEmpty, WhenEmptyOrUnderutilized (default)
	// or Balanced.
	ConsolidationPolicy *string `json:"consolidation_policy"`
	// ConsolidateAfter is a duration or "Never". Required in an explicit
	// disruption block; an omitted block defaults it to "0s".
	ConsolidateAfter *string `json:"consolidate_after"`
	// Budgets rate-limit voluntary disruption. nil means not set (defaults to
	// a single 10% budget); a non-nil empty slice is an explicitly empty list,
	// which means unlimited disruption.
	Budgets []Budget `json:"budgets" empty:"distinct"`
}

// Budget is one entry of spec.disruption.budgets.
type Budget struct {
	// Nodes is an integer ("5") or a percentage ("10%"); nil means default
	// ("10%").
	Nodes *string `json:"nodes"`
	// Schedule is a standard 5-field cron expression or macro, always in UTC.
	Schedule *string `json:"schedule"`
	// Duration is how long the budget stays active after each schedule hit,
	// e.g. "8h" or "1h30m".
	Duration *string `json:"duration"`
	// Reasons restricts the budget to some disruption reasons. nil means all
	// reasons; a non-nil empty slice means none (the budget applies to
	// nothing).
	Reasons []string `json:"reasons" empty:"distinct"`
}

// Node is an existing node launched by NAP for a NodePool.
type Node struct {
	Name     string            `json:"name"`
	NodePool string            `json:"node_pool"`
	Labels   map[string]string `json:"labels"`
	// CreatedAt is the creation time of the node (its NodeClaim), from which
	// expiration is counted.
	CreatedAt time.Time `json:"created_at"`
	// Ready is the node's Ready condition.
	Ready bool `json:"ready"`
	// MarkedForDeletion is true when the node is being deleted or has been
	// chosen for disruption.
	MarkedForDeletion bool `json:"marked_for_deletion"`
	// DoNotDisrupt is true when the node carries karpenter.sh/do-not-disrupt:
	// "true" (voluntary disruption skips it; expiration does not).
	DoNotDisrupt bool `json:"do_not_disrupt"`
	// Uninitialized is true while the node is not initialized: its claim has
	// no Node yet, or the Node does not carry karpenter.sh/initialized:
	// "true". The budgets do not count it (designs/nap.md §4).
	Uninitialized bool `json:"uninitialized"`
	// InstanceTerminating is true when the claim's InstanceTerminating
	// condition is True: the node is drained and its instance being deleted.
	// The budgets do not count it, and it is MarkedForDeletion too.
	InstanceTerminating bool `json:"instance_terminating"`
	// ExpireAfter is the node's own NodeClaim's spec.expireAfter, copied from
	// the pool's template when the node was launched: a duration or "Never".
	// The node expires by it, not by the pool's current value; "" (not
	// known) means the pool's (designs/nap.md §5).
	ExpireAfter string `json:"expire_after"`
}

// Reason is a disruption reason that budgets can be scoped to.
type Reason string

// Disruption reasons, in the order Karpenter tries the corresponding methods:
// emptiness, then drift, then (multi- and single-node) consolidation.
const (
	Empty         Reason = "Empty"
	Drifted       Reason = "Drifted"
	Underutilized Reason = "Underutilized"
)

// Reasons lists every disruption reason in Karpenter's method order.
var Reasons = []Reason{Empty, Drifted, Underutilized}

// Well-known values of the NodePool API.
const (
	// Never disables expireAfter or consolidateAfter.
	Never = "Never"

	ConsolidationPolicyWhenEmpty                = "WhenEmpty"
	ConsolidationPolicyWhenEmptyOrUnderutilized = "WhenEmptyOrUnderutilized"
	ConsolidationPolicyBalanced                 = "Balanced"

	OperatorIn           = "In"
	OperatorNotIn        = "NotIn"
	OperatorExists       = "Exists"
	OperatorDoesNotExist = "DoesNotExist"
	OperatorGt           = "Gt"
	OperatorLt           = "Lt"
	OperatorGte          = "Gte"
	OperatorLte          = "Lte"

	TaintEffectNoSchedule       = "NoSchedule"
	TaintEffectPreferNoSchedule = "PreferNoSchedule"
	TaintEffectNoExecute        = "NoExecute"

	// Unlimited is the allowance of a reason no active budget restricts
	// (Karpenter's math.MaxInt32).
	Unlimited = 2147483647
)

// Budgets returns the pool's budgets as written: nil when the disruption
// block or its budgets are omitted.
func (np NodePool) Budgets() []Budget {
	if np.Disruption == nil {
		return nil
	}
	return np.Disruption.Budgets
}

// Scheduled reports whether the budget has a schedule or a duration, i.e. is
// only active in windows. A budget with neither is active at all times.
func (b Budget) Scheduled() bool { return b.Schedule != nil || b.Duration != nil }

// AppliesTo reports whether the budget restricts the given reason: true when
// Reasons is nil (all reasons) or lists the reason. An explicitly empty
// Reasons applies to nothing.
func (b Budget) AppliesTo(r Reason) bool {
	if b.Reasons == nil {
		return true
	}
	for _, x := range b.Reasons {
		if x == string(r) {
			return true
		}
	}
	return false
}

// NodeOf is the node of the preview that a fleet's NAP node is, labelled as
// Karpenter labels it on the cluster: with the pool's name
// (karpenter.sh/nodepool, which is how a pool's nodes are found) and, once
// initialized, karpenter.sh/initialized "true".
func NodeOf(n fleet.NAPNode) Node {
	labels := maps.Clone(n.Labels)
	if n.NodePool != "" {
		if labels == nil {
			labels = map[string]string{}
		}
		labels[LabelNodePool] = n.NodePool
	}
	if !n.Uninitialized {
		if labels == nil {
			labels = map[string]string{}
		}
		labels[LabelInitialized] = "true"
	}
	return Node{Name: n.Name, NodePool: n.NodePool, Labels: labels, CreatedAt: n.CreatedAt, Ready: n.Ready,
		MarkedForDeletion: n.MarkedForDeletion || n.InstanceTerminating, DoNotDisrupt: n.DoNotDisrupt,
		Uninitialized: n.Uninitialized, InstanceTerminating: n.InstanceTerminating, ExpireAfter: n.ExpireAfter}
}

// CountNodes returns the total number of nodes and how many of them are
// already disrupting (not Ready, or marked for deletion), as Karpenter's
// BuildDisruptionBudgetMapping counts them before subtracting from the
// budget: a node not initialized yet, or whose instance is terminating, is
// not counted at all — neither in the total the percentages apply to nor as
// disrupting (designs/nap.md §4).
func CountNodes(nodes []Node) (total, disrupting int) {
	for _, n := range nodes {
		if !Counted(n) {
			continue
		}
		total++
		if !n.Ready || n.MarkedForDeletion {
			disrupting++
		}
	}
	return total, disrupting
}

// Counted reports whether the budgets count a node (CountNodes): it is
// initialized and its instance is not terminating.
func Counted(n Node) bool { return !n.Uninitialized && !n.InstanceTerminating }

// Replaceable are the nodes a drift would still have Karpenter replace: not
// those already being deleted (marked for deletion, or their instance
// terminating).
func Replaceable(nodes []Node) []Node {
	var out []Node
	for _, n := range nodes {
		if !n.MarkedForDeletion && !n.InstanceTerminating {
			out = append(out, n)
		}
	}
	return out
}
