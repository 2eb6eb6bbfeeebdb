package placement

import "testing"

func TestWithDefaults(t *testing.T) {
	in := spec(Policy{TopologySpreadConstraints: []TopologySpreadConstraint{{TopologyKey: "r"}}, Tolerations: []Toleration{{Key: "k"}}})
	out := WithDefaults(in)
	p := out.Policy
	if p.PlacementType != PickAll || *p.TopologySpreadConstraints[0].MaxSkew != 1 || p.TopologySpreadConstraints[0].WhenUnsatisfiable != DoNotSchedule ||
		p.Tolerations[0].Operator != TolerationOpEqual || out.Strategy.Type != RollingUpdateStrategy ||
		*out.Strategy.RollingUpdate.MaxUnavailable != "25%" || *out.Strategy.RollingUpdate.MaxSurge != "25%" ||
		*out.Strategy.RollingUpdate.UnavailablePeriodSeconds != 60 || *out.RevisionHistoryLimit != 10 {
		t.Fatalf("defaults: %+v", out)
	}
	if in.Policy.TopologySpreadConstraints[0].MaxSkew != nil || in.Policy.Tolerations[0].Operator != "" || in.Strategy.RollingUpdate != nil {
		t.Fatal("WithDefaults modified its input")
	}
	if ext := WithDefaults(Spec{Strategy: Strategy{Type: ExternalStrategy}}); ext.Strategy.RollingUpdate != nil {
		t.Fatal("External must not get a rolling update")
	}
}
