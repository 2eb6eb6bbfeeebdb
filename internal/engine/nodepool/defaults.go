package nodepool

// Defaults the API server applies to a NodePool (designs/nap.md §3).
const (
	// DefaultBudgetNodes is the nodes value of the default budget and of any
	// budget that omits nodes.
	DefaultBudgetNodes = "10%"
	// DefaultConsolidationPolicy applies when consolidationPolicy is unset.
	DefaultConsolidationPolicy = ConsolidationPolicyWhenEmptyOrUnderutilized
	// DefaultExpireAfter applies when expireAfter is unset.
	DefaultExpireAfter = "720h"
	// DefaultConsolidateAfter is the consolidateAfter of an omitted
	// disruption block (the CRD's default for the block).
	DefaultConsolidateAfter = "0s"
)

// DefaultBudgets returns the budgets of a NodePool that sets none:
// a single unscheduled budget of 10%.
func DefaultBudgets() []Budget {
	return []Budget{{Nodes: strPtr(DefaultBudgetNodes)}}
}

// WithDefaults returns a deep copy of np with the API server's defaults
// applied:
//
//   - an omitted disruption block becomes {consolidateAfter: 0s}, and the
//     defaults below apply inside it (the CRD defaults the block; inside an
//     explicit block consolidateAfter is required and has no default);
//   - budgets unset (nil) becomes [{nodes: "10%"}]; an explicitly empty
//     budgets list stays empty (unlimited disruption);
//   - a budget without nodes gets "10%";
//   - consolidationPolicy defaults to WhenEmptyOrUnderutilized;
//   - expireAfter defaults to 720h.
func WithDefaults(np NodePool) NodePool {
	out := np.DeepCopy()
	if out.Disruption == nil {
		out.Disruption = &Disruption{ConsolidateAfter: strPtr(DefaultConsolidateAfter)}
	}
	if out.Disruption.Budgets == nil {
		out.Disruption.Budgets = DefaultBudgets()
	}
	for i := range out.Disruption.Budgets {
		if out.Disruption.Budgets[i].Nodes == nil {
			out.Disruption.Budgets[i].Nodes = strPtr(DefaultBudgetNodes)
		}
	}
	if out.Disruption.ConsolidationPolicy == nil {
		out.Disruption.ConsolidationPolicy = strPtr(DefaultConsolidationPolicy)
	}
	if out.Template.ExpireAfter == nil {
		out.Template.ExpireAfter = strPtr(DefaultExpireAfter)
	}
	return out
}

// DeepCopy returns a copy of np that shares no maps, slices or pointers with
// it. nil-ness of slices and maps is preserved (it is meaningful for
// budgets and reasons).
func (np NodePool) DeepCopy() NodePool {
	out := np
	if np.Weight != nil {
		w := *np.Weight
		out.Weight = &w
	}
	out.Limits = copyMap(np.Limits)
	t := &out.Template
	t.Labels = copyMap(np.Template.Labels)
	t.Annotations = copyMap(np.Template.Annotations)
	if np.Template.Requirements != nil {
		t.Requirements = make([]Requirement, len(np.Template.Requirements))
		for i, r := range np.Template.Requirements {
			t.Requirements[i] = Requirement{Key: r.Key, Operator: r.Operator, Values: copySlice(r.Values)}
			if r.MinValues != nil {
				mv := *r.MinValues
				t.Requirements[i].MinValues = &mv
			}
		}
	}
	t.Taints = copyTaints(np.Template.Taints)
	t.StartupTaints = copyTaints(np.Template.StartupTaints)
	t.ExpireAfter = copyStrPtr(np.Template.ExpireAfter)
	t.TerminationGracePeriod = copyStrPtr(np.Template.TerminationGracePeriod)
	if np.Disruption == nil {
		return out
	}
	d := &Disruption{
		ConsolidationPolicy: copyStrPtr(np.Disruption.ConsolidationPolicy),
		ConsolidateAfter:    copyStrPtr(np.Disruption.ConsolidateAfter),
	}
	out.Disruption = d
	if np.Disruption.Budgets != nil {
		d.Budgets = make([]Budget, len(np.Disruption.Budgets))
		for i, b := range np.Disruption.Budgets {
			d.Budgets[i] = Budget{
				Nodes:    copyStrPtr(b.Nodes),
				Schedule: copyStrPtr(b.Schedule),
				Duration: copyStrPtr(b.Duration),
				Reasons:  copySlice(b.Reasons),
			}
		}
	}
	return out
}

func strPtr(s string) *string { return &s }

func copyTaints(ts []Taint) []Taint {
	out := copySlice(ts)
	for i := range out {
		out[i].Value = copyStrPtr(out[i].Value)
	}
	return out
}

func copyStrPtr(p *string) *string {
	if p == nil {
		return nil
	}
	s := *p
	return &s
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copySlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}
