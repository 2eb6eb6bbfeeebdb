package nodepool

import (
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
)

// TestContract checks the engine contract (package enginetest) over the
// NodePools of every test table of the package.
func TestContract(t *testing.T) {
	enginetest.Contract[NodePool]{
		Validate:       Validate,
		ValidateUpdate: ValidateUpdate,
		WithDefaults:   WithDefaults,
		Warnings:       Warnings,
		WarningIDs: []string{WarnEmptyBudgets, WarnBlocksForever, WarnNeverFires, WarnDurationCoversPeriod, WarnNeverActive,
			WarnReasonsEmpty, WarnCannotRaise, WarnUnlimitedOutsideWindows, WarnReasonUnbudgeted},
	}.Check(t, contractFixtures())
}

// contractFixtures are the pools of the validation, warning and defaults
// tests, and pools that write out their defaults, as a server returns them.
func contractFixtures() map[string]NodePool {
	fx := map[string]NodePool{
		"zero":                  {},
		"valid":                 validPool(),
		"rich":                  richPool(),
		"defaults written":      WithDefaults(richPool()),
		"some defaults written": func() NodePool { np := richPool(); np.Disruption.Budgets[0].Nodes = sp(DefaultBudgetNodes); return np }(),
	}
	for _, tt := range validateCases {
		np := validPool()
		tt.mutate(&np)
		fx["validate "+tt.name] = np
	}
	for _, tt := range warningCases {
		np := validPool()
		np.Disruption.Budgets = tt.budgets
		fx["warnings "+tt.name] = np
	}
	for _, tt := range defaultsCases {
		fx["defaults "+tt.name] = tt.in
	}
	return fx
}
