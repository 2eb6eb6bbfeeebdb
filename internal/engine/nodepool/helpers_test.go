package nodepool

import (
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

func sp(s string) *string { return &s }
func ip(i int) *int       { return &i }
func wp(i int32) *int32   { return &i }

// at parses "2006-01-02 15:04:05" (UTC).
func at(t testing.TB, s string) time.Time {
	t.Helper()
	ts, err := time.Parse("2006-01-02 15:04:05", s)
	if err != nil {
		t.Fatalf("bad time %q: %v", s, err)
	}
	return ts.UTC()
}

// monday is 2024-01-01 00:00 UTC, a Monday.
var monday = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func budget(nodes string) Budget { return Budget{Nodes: sp(nodes)} }

func scheduled(nodes, schedule, duration string, reasons ...string) Budget {
	return Budget{Nodes: sp(nodes), Schedule: sp(schedule), Duration: sp(duration), Reasons: reasons}
}

func withReasons(b Budget, reasons ...string) Budget {
	if reasons == nil {
		reasons = []string{}
	}
	b.Reasons = reasons
	return b
}

// The examples of the seed (AKS NAP disruption documentation).
var (
	// seedBusinessHours: "10%" plus "0" on weekdays 09:00 for 8h.
	seedBusinessHours = []Budget{budget("10%"), scheduled("0", "0 9 * * 1-5", "8h")}
	// seedDailyWindow: "20%", "5", and "0" on @daily for 10m.
	seedDailyWindow = []Budget{budget("20%"), budget("5"), scheduled("0", "@daily", "10m")}
	// seedWeekendOnly: "50%" on Saturday midnight for 48h plus unscheduled "0".
	seedWeekendOnly = []Budget{scheduled("50%", "0 0 * * 6", "48h"), budget("0")}
	// seedGradual: "1" at 02:00 for 2h, "3" at 04:00 for 4h.
	seedGradual = []Budget{scheduled("1", "0 2 * * *", "2h"), scheduled("3", "0 4 * * *", "4h")}
)

// validPool is a NodePool that passes Validate.
func validPool() NodePool {
	return NodePool{
		Template: Template{
			NodeClassRef: NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"},
			Requirements: []Requirement{
				{Key: "karpenter.azure.com/sku-family", Operator: "In", Values: []string{"D"}},
				{Key: "kubernetes.io/arch", Operator: "In", Values: []string{"amd64"}},
				{Key: "karpenter.sh/capacity-type", Operator: "In", Values: []string{"on-demand"}},
			},
		},
		Disruption: &Disruption{ConsolidateAfter: sp("30s")},
	}
}

// pathFromSteps rebuilds a path from its steps, as a caller translating
// field.Path into its own path type would.
func pathFromSteps(steps []field.Step) field.Path {
	var p field.Path
	for _, s := range steps {
		switch {
		case s.IsKey:
			p = p.Key(s.Key)
		case s.Name == "":
			p = p.Index(s.Index)
		default:
			p = p.Child(s.Name)
		}
	}
	return p
}
