package update

import (
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// TestContract checks the engine contract (package enginetest) for each of
// the package's three specs over the specs of its test tables, with the
// warnings bound to warnFleet.
func TestContract(t *testing.T) {
	f := warnFleet()
	t.Run("Strategy", func(t *testing.T) {
		enginetest.Contract[Strategy]{
			Validate:       ValidateStrategy,
			ValidateUpdate: ValidateStrategyUpdate,
			WithDefaults:   StrategyWithDefaults,
			Warnings:       func(s Strategy) []field.Warning { return StrategyWarnings(s, f) },
			WarningIDs:     []string{WarnGroupWithoutMembers, WarnMembersNotInStrategy, WarnGroupConcurrencyAboveMembers},
		}.Check(t, strategyFixtures())
	})
	t.Run("RunSpec", func(t *testing.T) {
		enginetest.Contract[RunSpec]{
			Validate:       ValidateRun,
			ValidateUpdate: ValidateRunUpdate,
			WithDefaults:   RunWithDefaults,
			Warnings:       func(r RunSpec) []field.Warning { return RunWarnings(r, f) },
			WarningIDs: []string{WarnGroupWithoutMembers, WarnMembersNotInStrategy, WarnGroupConcurrencyAboveMembers,
				WarnVersionLeadingV, WarnVersionNotReleased},
		}.Check(t, runFixtures())
	})
	t.Run("ProfileSpec", func(t *testing.T) {
		enginetest.Contract[ProfileSpec]{
			Validate:       ValidateProfile,
			ValidateUpdate: ValidateProfileUpdate,
			WithDefaults:   ProfileWithDefaults,
			Warnings:       func(p ProfileSpec) []field.Warning { return ProfileWarnings(p, f) },
			WarningIDs:     []string{WarnProfileDisabled, WarnTargetVersionNotInCatalog},
		}.Check(t, profileFixtures())
	})
}

// fixtures collects a table's valid and rule-breaking changes of fresh().
func fixtures[T any](fresh func() T, valid []validCase[T], rules []ruleCase[T]) map[string]T {
	fx := map[string]T{}
	for _, tc := range valid {
		s := fresh()
		tc.mutate(&s)
		fx["valid "+tc.name] = s
	}
	for _, tc := range rules {
		s := fresh()
		tc.mutate(&s)
		fx["rule "+tc.name] = s
	}
	return fx
}

// strategyFixtures are the strategies of the test tables, the warning cases,
// and strategies with some or all of their defaults written, as the service
// returns them.
func strategyFixtures() map[string]Strategy {
	fx := fixtures(okStrategy, strategyValidCases, strategyRuleCases)
	fx["zero"] = Strategy{}
	fx["defaults written"] = StrategyWithDefaults(okStrategy())
	fx["some defaults written"] = func() Strategy {
		s := okStrategy()
		s.Stages[0].MaxConcurrency = DefaultStageMaxConcurrency
		s.Stages[1].Groups[1].MaxConcurrency = DefaultGroupMaxConcurrency
		return s
	}()
	for _, tc := range strategyWarningCases {
		s := okStrategy()
		tc.mutate(&s)
		fx["warnings "+tc.name] = s
	}
	return fx
}

func runFixtures() map[string]RunSpec {
	fx := fixtures(okRun, runValidCases, runRuleCases)
	fx["zero"] = RunSpec{}
	fx["defaults written"] = RunWithDefaults(okRun())
	fx["defaults written, one by one"] = RunWithDefaults(RunSpec{ManagedClusterUpdate: ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeNodeImageOnly}}})
	for name, v := range map[string]string{"a version with a v": "v1.31.2", "a version never released": "1.35.0"} {
		r := okRun()
		r.ManagedClusterUpdate.Upgrade.KubernetesVersion = v
		fx["warnings "+name] = r
	}
	for _, tc := range strategyWarningCases {
		r := okRun()
		tc.mutate(r.Strategy)
		fx["warnings "+tc.name] = r
	}
	return fx
}

func profileFixtures() map[string]ProfileSpec {
	fx := fixtures(okProfile, profileValidCases, profileRuleCases)
	fx["zero"] = ProfileSpec{}
	fx["defaults written"] = ProfileWithDefaults(ProfileSpec{Channel: ChannelStable, UpdateStrategyID: "canary-first"})
	for _, tc := range profileWarningCases {
		fx["warnings "+tc.name] = tc.profile
	}
	return fx
}
