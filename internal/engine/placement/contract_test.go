package placement

import (
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// TestContract checks the engine contract (package enginetest) over the
// specs of every test table of the package.
func TestContract(t *testing.T) {
	f := warningsFleet()
	enginetest.Contract[Spec]{
		Validate:       Validate,
		ValidateUpdate: ValidateUpdate,
		WithDefaults:   WithDefaults,
		Warnings:       func(s Spec) []field.Warning { return warningsOn(f, s) },
		WarningIDs: []string{WarnClusterNotMember, WarnClusterNotEligible, WarnPickFixedEmpty, WarnPropertyNotInFleet, WarnRequiredMatchesNone,
			WarnPickNUnfulfilled, WarnSchedulingFails, WarnQuantityUnit, WarnMaxUnavailableAboveClusters},
	}.Check(t, contractFixtures())
}

// contractFixtures are the valid specs, the specs that break each rule, the
// updates and the warning cases of the tests, and specs that write out some
// or all of their defaults, as a server returns them.
func contractFixtures() map[string]Spec {
	fx := map[string]Spec{
		"zero":             {},
		"defaults written": WithDefaults(validPickN()),
		"some defaults written": func() Spec {
			s := validPickN()
			s.Strategy = Strategy{Type: RollingUpdateStrategy, RollingUpdate: &RollingUpdate{MaxSurge: strPtr(DefaultMaxSurge)}}
			s.Policy.TopologySpreadConstraints[0].WhenUnsatisfiable = DoNotSchedule
			return s
		}(),
		"empty lists": spec(Policy{PlacementType: PickN, NumberOfClusters: intPtr(1),
			TopologySpreadConstraints: []TopologySpreadConstraint{}, Tolerations: []Toleration{}}),
	}
	for name, s := range validSpecs() {
		fx["valid "+name] = s
	}
	changed := func(mutate func(*Spec)) Spec {
		s := validPickN()
		mutate(&s)
		return s
	}
	for _, tc := range ruleCases {
		fx["rule "+tc.name] = changed(tc.mutate)
	}
	for _, tc := range updateCases {
		fx["update "+tc.name] = changed(tc.mutate)
	}
	for _, tc := range warningCases {
		fx["warnings "+tc.name] = spec(tc.policy)
	}
	fx["warnings max_unavailable above the clusters"] = func() Spec {
		s := spec(pickN(2))
		s.Strategy = Strategy{RollingUpdate: &RollingUpdate{MaxUnavailable: strPtr("5")}}
		return s
	}()
	return fx
}
