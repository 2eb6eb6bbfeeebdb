package placement

import (
	"slices"
	"strconv"
	"strings"
)

// Rollout is a rollout strategy resolved for a number of selected clusters.
type Rollout struct {
	Type                     string `json:"type"`
	MaxUnavailable           int    `json:"max_unavailable"`
	MaxSurge                 int    `json:"max_surge"`
	UnavailablePeriodSeconds int    `json:"unavailable_period_seconds"`
}

// ResolveRollout applies the defaults (RollingUpdate, 25%, 25%, 60s) and
// resolves percentages against the selected count n as ceil(p × n / 100)
// (designs/placement.md §8). An External strategy has nothing to resolve.
func ResolveRollout(strategy Strategy, selected int) Rollout {
	s := WithDefaults(Spec{Strategy: strategy}).Strategy
	out := Rollout{Type: s.Type}
	if s.Type != RollingUpdateStrategy || s.RollingUpdate == nil {
		return out
	}
	out.MaxUnavailable = resolveIntOrPercent(*s.RollingUpdate.MaxUnavailable, selected)
	out.MaxSurge = resolveIntOrPercent(*s.RollingUpdate.MaxSurge, selected)
	out.UnavailablePeriodSeconds = *s.RollingUpdate.UnavailablePeriodSeconds
	return out
}

// resolveIntOrPercent resolves "3" to 3 and "25%" of n to ceil(25 × n / 100).
// Values Validate rejects resolve to 0.
func resolveIntOrPercent(v string, n int) int {
	if p, ok := strings.CutSuffix(v, "%"); ok {
		pct, err := strconv.Atoi(p)
		if err != nil || pct < 0 || n < 0 {
			return 0
		}
		return (pct*n + 99) / 100
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return 0
	}
	return i
}

// BindingStates returns the selected clusters of r whose bindings Fleet has
// not bound after the cycle (state Scheduled), sorted; the others are Bound
// (designs/placement.md §7). The scheduler creates a binding Scheduled; with
// a RollingUpdate strategy Fleet's rollout controller binds it at once — a
// binding that adds a cluster waits on no other, and the surge allowed is
// resolved against the new count, so every new binding fits — while with
// External nothing binds until an external rollout does. So with External a
// cluster newly selected is Scheduled and a cluster held keeps its state
// (scheduledBefore: those held Scheduled); with RollingUpdate none is.
func BindingStates(spec Spec, held, scheduledBefore []string, r Result) []string {
	out := []string{}
	if WithDefaults(spec).Strategy.Type != ExternalStrategy {
		return out
	}
	bound := make(map[string]bool, len(held))
	for _, c := range held {
		bound[c] = true
	}
	for _, c := range scheduledBefore {
		delete(bound, c)
	}
	for _, c := range r.Selected {
		if !bound[c] { // new, or held and not bound yet
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}
