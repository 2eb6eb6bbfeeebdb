package nodepool

import (
	"fmt"
	"strconv"
	"time"
)

// Expectation is what applying a NodePool's budgets lets Karpenter do now
// that depends on the clock and the pool's nodes: per disruption reason, how
// many nodes may start disrupting (designs/previews.md §5). The allowances of
// later hours and when a blocked reason is next allowed are not part of it.
type Expectation struct {
	// Nodes is the pool's node count the allowances were evaluated for.
	Nodes int `json:"nodes"`
	// Allowed is, per reason, a number of nodes, "unlimited" or "0 (fail closed)".
	Allowed map[Reason]string `json:"allowed"`
}

// Expect evaluates budgets (after defaults) for a pool of total nodes, of
// which disrupting are already disrupting, at now.
func Expect(budgets []Budget, total, disrupting int, now time.Time) Expectation {
	e := Expectation{Nodes: total, Allowed: map[Reason]string{}}
	for r, a := range AllowedDisruptionsByReason(budgets, total, disrupting, now) {
		e.Allowed[r] = a.count()
	}
	return e
}

// count is an allowance as a number of nodes, without the budgets that set it.
func (a Allowance) count() string {
	switch {
	case a.FailedClosed:
		return "0 (fail closed)"
	case a.Unbounded:
		return "unlimited"
	}
	return strconv.Itoa(a.Allowed)
}

// Differences says, one line each, how the allowances now differ from the
// reviewed ones: a reason a budget now blocks, or allows.
func (reviewed Expectation) Differences(now Expectation) []string {
	var out []string
	if reviewed.Nodes != now.Nodes {
		out = append(out, fmt.Sprintf("the pool has %d nodes now (reviewed: %d)", now.Nodes, reviewed.Nodes))
	}
	for _, r := range Reasons {
		if a, b := reviewed.Allowed[r], now.Allowed[r]; a != b {
			out = append(out, fmt.Sprintf("%s: %s nodes may be disrupted now (reviewed: %s)", r, b, a))
		}
	}
	return out
}
