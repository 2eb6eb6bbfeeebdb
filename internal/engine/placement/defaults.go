package placement

import "cmp"

// Defaults applied by Fleet's API server (CRD defaults).
const (
	DefaultMaxSkew                  = 1
	DefaultMaxUnavailable           = "25%"
	DefaultMaxSurge                 = "25%"
	DefaultUnavailablePeriodSeconds = 60
	DefaultRevisionHistoryLimit     = 10
	// DefaultPreviewLimit is how many left-out clusters Fleet keeps in its status.
	DefaultPreviewLimit = 20
)

func intPtr(v int) *int       { return &v }
func strPtr(v string) *string { return &v }

// WithDefaults returns a copy of spec with Fleet's API defaults filled in:
// placement type PickAll, maxSkew 1, whenUnsatisfiable DoNotSchedule,
// toleration operator Equal, strategy RollingUpdate with 25% / 25% / 60s,
// revisionHistoryLimit 10. The input is never modified.
func WithDefaults(spec Spec) Spec {
	out := spec
	out.Policy = defaultPolicy(spec.Policy)
	out.Strategy.Type = cmp.Or(spec.Strategy.Type, RollingUpdateStrategy)
	if out.Strategy.Type == RollingUpdateStrategy {
		ru := RollingUpdate{}
		if spec.Strategy.RollingUpdate != nil {
			ru = *spec.Strategy.RollingUpdate
		}
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = strPtr(DefaultMaxUnavailable)
		}
		if ru.MaxSurge == nil {
			ru.MaxSurge = strPtr(DefaultMaxSurge)
		}
		if ru.UnavailablePeriodSeconds == nil {
			ru.UnavailablePeriodSeconds = intPtr(DefaultUnavailablePeriodSeconds)
		}
		out.Strategy.RollingUpdate = &ru
	}
	if out.RevisionHistoryLimit == nil {
		out.RevisionHistoryLimit = intPtr(DefaultRevisionHistoryLimit)
	}
	return out
}

// defaultPolicy is the policy part of WithDefaults, used alone where only the
// policy matters (ValidateUpdate compares defaulted policies).
func defaultPolicy(p Policy) Policy {
	out := p
	out.PlacementType = cmp.Or(p.PlacementType, PickAll)
	if len(p.TopologySpreadConstraints) > 0 {
		out.TopologySpreadConstraints = make([]TopologySpreadConstraint, len(p.TopologySpreadConstraints))
		for i, c := range p.TopologySpreadConstraints {
			if c.MaxSkew == nil {
				c.MaxSkew = intPtr(DefaultMaxSkew)
			}
			c.WhenUnsatisfiable = cmp.Or(c.WhenUnsatisfiable, DoNotSchedule)
			out.TopologySpreadConstraints[i] = c
		}
	}
	if len(p.Tolerations) > 0 {
		out.Tolerations = make([]Toleration, len(p.Tolerations))
		for i, t := range p.Tolerations {
			t.Operator = cmp.Or(t.Operator, TolerationOpEqual)
			out.Tolerations[i] = t
		}
	}
	return out
}
