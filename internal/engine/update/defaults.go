package update

import (
	"cmp"
	"slices"
)

// Defaults of the service (designs/updates.md §2, §5).
const (
	// DefaultStageMaxConcurrency is a stage's max_concurrency when unset: the
	// system limit, every group of the stage at once.
	DefaultStageMaxConcurrency = "50"
	// DefaultGroupMaxConcurrency is a group's max_concurrency when unset: its
	// members one at a time.
	DefaultGroupMaxConcurrency = "1"
	// DefaultAfterStageWaitInSeconds is the wait after a stage when unset.
	DefaultAfterStageWaitInSeconds = 0
	// DefaultGateType is a gate's type when unset; Approval is the only one.
	DefaultGateType = GateTypeApproval
	// DefaultNodeImageSelection is the node image selection of a run, and of
	// a profile whose channel is not NodeImage, when unset.
	DefaultNodeImageSelection = NodeImageLatest
)

// StrategyWithDefaults returns s as the service stores it, every default
// filled in: a stage's max_concurrency "50" and after-stage wait 0, a
// group's max_concurrency "1", a gate's type Approval. It
// never modifies s, whose slices it copies, keeping a nil list nil and an
// empty one empty, and it is idempotent.
//
// It exists for comparison: the provider compares StrategyWithDefaults of
// its state with StrategyWithDefaults of what the hub returns. The API
// documents the defaults of maxConcurrency (group 1, stage 50) but not
// whether a read echoes them in the spec (the status reports the resolved
// values); filling them on both sides is harmless either way, and a
// practitioner who writes the default sees no diff against a hub that omits
// it.
func StrategyWithDefaults(s Strategy) Strategy {
	out := s
	out.Stages = stagesWithDefaults(s.Stages)
	return out
}

func stagesWithDefaults(stages []Stage) []Stage {
	if stages == nil {
		return nil
	}
	out := make([]Stage, len(stages))
	for i, s := range stages {
		s.MaxConcurrency = cmp.Or(s.MaxConcurrency, DefaultStageMaxConcurrency)
		if s.AfterStageWaitInSeconds == nil {
			w := DefaultAfterStageWaitInSeconds
			s.AfterStageWaitInSeconds = &w
		}
		s.BeforeGates = gatesWithDefaults(s.BeforeGates)
		s.AfterGates = gatesWithDefaults(s.AfterGates)
		if s.Groups != nil {
			groups := make([]Group, len(s.Groups))
			for j, g := range s.Groups {
				g.MaxConcurrency = cmp.Or(g.MaxConcurrency, DefaultGroupMaxConcurrency)
				g.BeforeGates = gatesWithDefaults(g.BeforeGates)
				g.AfterGates = gatesWithDefaults(g.AfterGates)
				groups[j] = g
			}
			s.Groups = groups
		}
		out[i] = s
	}
	return out
}

func gatesWithDefaults(gates []Gate) []Gate {
	if gates == nil {
		return nil
	}
	out := make([]Gate, len(gates))
	for i, g := range gates {
		g.Type = cmp.Or(g.Type, DefaultGateType)
		out[i] = g
	}
	return out
}

// RunWithDefaults returns r as the service stores it: inline stages with the
// defaults of StrategyWithDefaults, node image selection Latest when unset.
// A run without stages gets none: the service's single stage and group of a
// one-by-one run belong to its status, not to its spec. Like
// StrategyWithDefaults it copies everything it returns, never modifies r,
// and is idempotent.
func RunWithDefaults(r RunSpec) RunSpec {
	out := r
	out.UpdateStrategyID = canonicalStrategyID(r.UpdateStrategyID)
	if r.Strategy != nil {
		s := StrategyWithDefaults(*r.Strategy)
		out.Strategy = &s
	}
	sel := &out.ManagedClusterUpdate.NodeImageSelection
	sel.Type = cmp.Or(sel.Type, DefaultNodeImageSelection)
	sel.CustomNodeImageVersions = slices.Clone(r.ManagedClusterUpdate.NodeImageSelection.CustomNodeImageVersions)
	return out
}

// ProfileWithDefaults returns p as the service stores it: node image
// selection Latest when unset, except with channel NodeImage, which takes
// none (designs/updates.md §5); disabled and long_term_support default to
// false, their zero values. It is idempotent.
func ProfileWithDefaults(p ProfileSpec) ProfileSpec {
	out := p
	out.UpdateStrategyID = canonicalStrategyID(p.UpdateStrategyID)
	if p.Channel != ChannelNodeImage {
		out.NodeImageSelectionType = cmp.Or(p.NodeImageSelectionType, DefaultNodeImageSelection)
	}
	return out
}

// canonicalStrategyID is the strategy an update_strategy_id names, as a
// name: the practitioner may write the name or the ARM id, and Resource
// Manager stores and returns the ARM id (updateStrategyId is an ARM id on
// the wire), so both forms are one value once the service has it. A
// strategy of another fleet is refused by the service before it is stored.
func canonicalStrategyID(id string) string { return StrategyNameFromID(id) }

// AfterStageWait is the stage's wait in seconds, the default when unset.
func (s Stage) AfterStageWait() int {
	if s.AfterStageWaitInSeconds == nil {
		return DefaultAfterStageWaitInSeconds
	}
	return *s.AfterStageWaitInSeconds
}

// WaitSeconds is an after-stage wait of n seconds, for writing a Stage.
func WaitSeconds(n int) *int { return &n }
