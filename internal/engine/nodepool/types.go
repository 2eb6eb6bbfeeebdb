package nodepool

import "time"

// NodePool is the provider-neutral model of a Karpenter NodePool spec.
//
// Optional scalar fields are pointers: nil means "not set" (and is subject to
// the defaults of WithDefaults), which is distinct from a set zero value.
type NodePool struct {
	// Weight orders NodePools for scheduling; nil means unset (treated as 0).
	Weight *int32
	// Limits bounds the total resources of the pool, as Kubernetes quantities
	// keyed by resource name (cpu, memory, nodes, ...).
	Limits map[string]string
	// Template describes the nodes the pool launches.
	Template Template
	// Disruption holds the behaviour of voluntary disruption.
	Disruption Disruption
}

// Template is spec.template: metadata and spec of the NodeClaims the pool
// launches. All of its fields except Requirements take part in the
// NodePool hash, so changing them drifts every node (see Drift).
type Template struct {
	Labels       map[string]string
	Annotations  map[string]string
	NodeClassRef NodeClassRef
	Requirements []Requirement
	Taints       []Taint
	// StartupTaints are applied at node start-up and expected to be removed
	// by a DaemonSet.
	StartupTaints []Taint
	// ExpireAfter is a duration such as "720h" or "Never"; nil means default
	// (720h).
	ExpireAfter *string
	// TerminationGracePeriod is a duration such as "30m"; nil means unset
	// (wait indefinitely for pods to drain).
	TerminationGracePeriod *string
}

// NodeClassRef references the provider NodeClass (on AKS an AKSNodeClass).
// Group and Kind are immutable once created.
type NodeClassRef struct {
	Group string
	Kind  string
	Name  string
}

// Requirement is a node selector requirement with optional minValues.
type Requirement struct {
	Key      string
	Operator string
	Values   []string
	// MinValues is the minimum number of distinct values that must remain
	// schedulable; nil means unset.
	MinValues *int
}

// Taint is a Kubernetes taint.
type Taint struct {
	Key    string
	Value  string
	Effect string
}

// Disruption is spec.disruption.
type Disruption struct {
	// ConsolidationPolicy is WhenEmpty or WhenEmptyOrUnderutilized (default).
	ConsolidationPolicy *string
	// ConsolidateAfter is a duration or "Never". Required on AKS.
	ConsolidateAfter *string
	// Budgets rate-limit voluntary disruption. nil means not set (defaults to
	// a single 10% budget); a non-nil empty slice is an explicitly empty list,
	// which means unlimited disruption.
	Budgets []Budget
}

// Budget is one entry of spec.disruption.budgets.
type Budget struct {
	// Nodes is an integer ("5") or a percentage ("10%"); nil means default
	// ("10%").
	Nodes *string
	// Schedule is a standard 5-field cron expression or macro, always in UTC.
	Schedule *string
	// Duration is how long the budget stays active after each schedule hit,
	// e.g. "8h" or "1h30m".
	Duration *string
	// Reasons restricts the budget to some disruption reasons. nil means all
	// reasons; a non-nil empty slice means none (the budget applies to
	// nothing).
	Reasons []string
}

// Node is an existing node launched by NAP for a NodePool.
type Node struct {
	Name     string
	NodePool string
	Labels   map[string]string
	// CreatedAt is the creation time of the node (its NodeClaim), from which
	// expiration is counted.
	CreatedAt time.Time
	// Ready is the node's Ready condition.
	Ready bool
	// MarkedForDeletion is true when the node is being deleted or has been
	// chosen for disruption.
	MarkedForDeletion bool
	// DoNotDisrupt is true when the node carries karpenter.sh/do-not-disrupt:
	// "true" (voluntary disruption skips it; expiration does not).
	DoNotDisrupt bool
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

// CountNodes returns the total number of nodes and how many of them are
// already disrupting (not Ready, or marked for deletion), as Karpenter counts
// them before subtracting from the budget.
func CountNodes(nodes []Node) (total, disrupting int) {
	for _, n := range nodes {
		total++
		if !n.Ready || n.MarkedForDeletion {
			disrupting++
		}
	}
	return total, disrupting
}
