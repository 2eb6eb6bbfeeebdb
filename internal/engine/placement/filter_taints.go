package placement

import (
	"cmp"
	"fmt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// filterTaints is Fleet's TaintToleration filter (designs/placement.md §3): every taint
// of the cluster must be tolerated. The reason names the first taint that is
// not, e.g. "taint dedicated=gpu:NoSchedule cannot be tolerated".
func (c *cycle) filterTaints(i int) string {
	if t, ok := untoleratedTaint(c.clusters[i].Taints, c.policy.Tolerations); ok {
		return fmt.Sprintf(reasonTaintFormat, t.String())
	}
	return ""
}

// untoleratedTaint returns the first taint no toleration tolerates.
func untoleratedTaint(taints []fleet.Taint, tolerations []Toleration) (fleet.Taint, bool) {
	for _, t := range taints {
		tolerated := false
		for _, tol := range tolerations {
			if tolerates(tol, t) {
				tolerated = true
				break
			}
		}
		if !tolerated {
			return t, true
		}
	}
	return fleet.Taint{}, false
}

// tolerates applies Fleet's toleration rule: Exists matches any value of the
// same key (or every key when the key is empty); Equal needs the same key and
// value; an empty effect matches every effect.
func tolerates(tol Toleration, t fleet.Taint) bool {
	effectOK := tol.Effect == "" || tol.Effect == t.Effect
	switch cmp.Or(tol.Operator, TolerationOpEqual) {
	case TolerationOpExists:
		return (tol.Key == "" || tol.Key == t.Key) && effectOK
	case TolerationOpEqual:
		return tol.Key == t.Key && tol.Value == t.Value && effectOK
	}
	return false
}
