package update

import "slices"

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

// orDefault is s, or d when s is unset.
func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// StrategyWithDefaults returns s as the service stores it, every default
// filled in: a stage's max_concurrency "50", a group's "1", a gate's type
// Approval (after_stage_wait_in_seconds defaults to 0, the zero value). It
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
		s.MaxConcurrency = orDefault(s.MaxConcurrency, DefaultStageMaxConcurrency)
		if s.AfterStageWaitInSeconds == nil {
			w := DefaultAfterStageWaitInSeconds
			s.AfterStageWaitInSeconds = &w
		}
		s.BeforeGates = gatesWithDefaults(s.BeforeGates)
		s.AfterGates = gatesWithDefaults(s.AfterGates)
		if s.Groups != nil {
			groups := make([]Group, len(s.Groups))
			for j, g := range s.Groups {
				g.MaxConcurrency = orDefault(g.MaxConcurrency, DefaultGroupMaxConcurrency)
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
		g.Type = orDefault(g.Type, DefaultGateType)
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
	if r.Strategy != nil {
		s := StrategyWithDefaults(*r.Strategy)
		out.Strategy = &s
	}
	sel := &out.ManagedClusterUpdate.NodeImageSelection
	sel.Type = orDefault(sel.Type, DefaultNodeImageSelection)
	sel.CustomNodeImageVersions = slices.Clone(r.ManagedClusterUpdate.NodeImageSelection.CustomNodeImageVersions)
	return out
}

// ProfileWithDefaults returns p as the service stores it: node image
// selection Latest when unset, except with channel NodeImage, which takes
// none (designs/updates.md §5); disabled and long_term_support default to
// false, their zero values. It is idempotent.
func ProfileWithDefaults(p ProfileSpec) ProfileSpec {
	out := p
	if p.Channel != ChannelNodeImage {
		out.NodeImageSelectionType = orDefault(p.NodeImageSelectionType, DefaultNodeImageSelection)
	}
	return out
}

// AfterStageWait is the stage's wait in seconds, the default when unset.
func (s Stage) AfterStageWait() int {
	if s.AfterStageWaitInSeconds == nil {
		return DefaultAfterStageWaitInSeconds
	}
	return *s.AfterStageWaitInSeconds
}

// WaitSeconds is an after-stage wait of n seconds, for writing a Stage.
func WaitSeconds(n int) *int { return &n }
