package placement

import "fmt"

// Fleet's TopologySpreadConstraints plugin filters a cluster when placing it
// would push a DoNotSchedule constraint over its max skew; the evaluation
// itself lives in score_topology.go because filter and score share it.

// topologyReason is the filter reason for a DoNotSchedule violation, e.g.
// "violates DoNotSchedule topology spread constraint on region (max skew 1)".
func topologyReason(k *constraint) string {
	return fmt.Sprintf(reasonTopologyFormat, k.key, k.maxSkew)
}
