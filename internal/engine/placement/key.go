package placement

import (
	"maps"
	"slices"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// scheduleKey names everything a cycle depends on besides the fleet, as an
// explicit key (fleet.Digest): every field of the policies written by name
// here, none through an encoding, so that no Terraform attribute name or Go
// field name is part of it.
func scheduleKey(pol Policy, held []string, now time.Time, opts ScheduleOptions) string {
	d := fleet.NewDigest("placement.Schedule")
	writePolicy(d, &pol)
	d.Strings(held)
	d.Int(now.UnixNano())
	d.Bool(opts.Prev != nil)
	if opts.Prev != nil {
		writePolicy(d, &opts.Prev.Policy)
	}
	d.Int(int64(len(opts.Recorded)))
	for _, name := range slices.Sorted(maps.Keys(opts.Recorded)) {
		d.String(name)
		d.Int(int64(opts.Recorded[name].Affinity))
		d.Int(int64(opts.Recorded[name].TopologySpread))
	}
	d.Strings(opts.Scheduled)
	return d.Sum()
}

func writePolicy(d *fleet.Digest, p *Policy) {
	d.String(p.PlacementType)
	d.Strings(p.ClusterNames)
	writeOptInt(d, p.NumberOfClusters)
	d.Bool(p.Affinity != nil)
	if a := p.Affinity; a != nil {
		d.Int(int64(len(a.Required)))
		for i := range a.Required {
			writeTerm(d, &a.Required[i])
		}
		d.Int(int64(len(a.Preferred)))
		for i := range a.Preferred {
			d.Int(int64(a.Preferred[i].Weight))
			writeTerm(d, &a.Preferred[i].Preference)
		}
	}
	d.Int(int64(len(p.TopologySpreadConstraints)))
	for _, c := range p.TopologySpreadConstraints {
		writeOptInt(d, c.MaxSkew)
		d.String(c.TopologyKey)
		d.String(c.WhenUnsatisfiable)
	}
	d.Int(int64(len(p.Tolerations)))
	for _, t := range p.Tolerations {
		d.String(t.Key)
		d.String(t.Operator)
		d.String(t.Value)
		d.String(t.Effect)
	}
}

func writeTerm(d *fleet.Digest, t *ClusterSelectorTerm) {
	d.Bool(t.LabelSelector != nil)
	if s := t.LabelSelector; s != nil {
		writeLabelSelector(d, s)
	}
	d.Bool(t.PropertySelector != nil)
	if s := t.PropertySelector; s != nil {
		d.Int(int64(len(s.MatchExpressions)))
		for _, e := range s.MatchExpressions {
			d.String(e.Name)
			d.String(e.Operator)
			d.Strings(e.Values)
		}
	}
	d.Bool(t.PropertySorter != nil)
	if s := t.PropertySorter; s != nil {
		d.String(s.Name)
		d.String(s.SortOrder)
	}
}

func writeLabelSelector(d *fleet.Digest, s *selector.LabelSelector) {
	d.Map(s.MatchLabels)
	d.Int(int64(len(s.MatchExpressions)))
	for _, e := range s.MatchExpressions {
		d.String(e.Key)
		d.String(e.Operator)
		d.Strings(e.Values)
	}
}

func writeOptInt(d *fleet.Digest, n *int) {
	d.Bool(n != nil)
	if n != nil {
		d.Int(int64(*n))
	}
}
