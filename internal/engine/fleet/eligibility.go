package fleet

import "time"

// Thresholds of the Fleet scheduler's cluster eligibility checker.
const (
	// HeartbeatTimeout is how old the last agent heartbeat may be.
	HeartbeatTimeout = 5 * time.Minute
	// UnhealthyTolerance is how long the Healthy condition may be other than
	// True (False or Unknown) and the cluster stay eligible.
	UnhealthyTolerance = 5 * time.Minute
)

// Eligibility says whether a cluster may receive placements and, if not, why.
type Eligibility struct {
	Eligible bool
	// Reason explains ineligibility, e.g. "not eligible: heartbeat older than 5m"; empty when eligible.
	Reason string
}

func ineligible(why string) Eligibility { return Eligibility{Reason: "not eligible: " + why} }

// CheckEligibility applies the Fleet scheduler's eligibility rules (designs/placement.md §3)
// in Fleet's order: leaving, no agent status, stale heartbeat, not joined,
// no Healthy condition, Healthy other than True for longer than the tolerance.
//
// Fleet's checker (clustereligibilitychecker.IsEligible) rejects a missing
// Healthy condition at once, but tolerates any status other than True —
// False and Unknown alike — for five minutes after its last transition.
func CheckEligibility(c *Cluster, now time.Time) Eligibility {
	a := c.Agent
	switch {
	case a.Leaving:
		return ineligible("cluster is leaving the fleet")
	case !a.Present:
		return ineligible("no member agent status")
	case now.Sub(a.LastHeartbeat) > HeartbeatTimeout:
		return ineligible("heartbeat older than 5m")
	case !a.Joined:
		return ineligible("member agent has not joined")
	case a.Healthy == "":
		return ineligible("no health condition reported")
	case a.Healthy != ConditionTrue && now.Sub(a.HealthSince) > UnhealthyTolerance:
		if a.Healthy == ConditionFalse {
			return ineligible("unhealthy for more than 5m")
		}
		return ineligible("health unknown for more than 5m")
	}
	return Eligibility{Eligible: true}
}
