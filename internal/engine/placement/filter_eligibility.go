package placement

import "github.com/fleetform/terraform-provider-aks/internal/engine/fleet"

// filterEligibility is Fleet's ClusterEligibility filter (designs/placement.md §3): a
// cluster that is leaving, has no agent status, a stale heartbeat, has not
// joined, has unknown health or has been unhealthy too long is filtered out.
// The reason is fleet.CheckEligibility's, e.g. "not eligible: heartbeat older than 5m".
func (c *cycle) filterEligibility(i int) string {
	e := fleet.CheckEligibility(c.clusters[i], c.now)
	if e.Eligible {
		return ""
	}
	return e.Reason
}

// leftFleet reports whether a held cluster no longer counts as held: it is
// not a member any more, or it is leaving (Fleet marks such "dangling"
// bindings unscheduled before every scheduling cycle).
func leftFleet(c *fleet.Cluster) bool {
	return c == nil || c.Agent.Leaving
}
