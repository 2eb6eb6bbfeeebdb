package nodepool

// Hooks for the external tests (package nodepool_test), which run the
// validation corpus of package nodepooltest: that package imports this one,
// so only an external test can import it.

// PathFromSteps is pathFromSteps.
var PathFromSteps = pathFromSteps

// TableFixtures returns the pools of this package's own test tables (the
// warning and defaults tests), keyed by a unique name, for the contract test.
func TableFixtures() map[string]NodePool {
	fx := map[string]NodePool{"zero": {}}
	for _, tt := range warningCases {
		np := validPool()
		np.Disruption.Budgets = tt.budgets
		fx["warnings "+tt.name] = np
	}
	for _, tt := range poolWarningCases {
		np := validPool()
		tt.mutate(&np)
		fx["pool warnings "+tt.name] = np
	}
	for _, tt := range defaultsCases {
		fx["defaults "+tt.name] = tt.in
	}
	return fx
}
