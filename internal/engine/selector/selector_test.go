package selector

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

func TestLabelSelectorSemantics(t *testing.T) {
	set := labels.Set{"env": "prod", "region": "east"}
	cases := []struct {
		name string
		sel  LabelSelector
		want bool
	}{
		{"empty matches all", LabelSelector{}, true},
		{"match labels", LabelSelector{MatchLabels: map[string]string{"env": "prod"}}, true},
		{"match labels miss", LabelSelector{MatchLabels: map[string]string{"env": "dev"}}, false},
		{"In", LabelSelector{MatchExpressions: []LabelExpression{{"region", OpIn, []string{"west", "east"}}}}, true},
		{"NotIn on missing key matches", LabelSelector{MatchExpressions: []LabelExpression{{"tier", OpNotIn, []string{"gold"}}}}, true},
		{"Exists", LabelSelector{MatchExpressions: []LabelExpression{{"env", OpExists, nil}}}, true},
		{"DoesNotExist", LabelSelector{MatchExpressions: []LabelExpression{{"env", OpDoesNotExist, nil}}}, false},
		{"AND of labels and expressions", LabelSelector{MatchLabels: map[string]string{"env": "prod"}, MatchExpressions: []LabelExpression{{"region", OpNotIn, []string{"east"}}}}, false},
	}
	for _, c := range cases {
		if errs := c.sel.Validate(); len(errs) > 0 {
			t.Fatalf("%s: %v", c.name, errs)
		}
		s, err := c.sel.Compile()
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Matches(set); got != c.want {
			t.Errorf("%s: got %v", c.name, got)
		}
	}
}

func TestLabelSelectorValidate(t *testing.T) {
	cases := []struct {
		sel  LabelSelector
		path string
		rule string
	}{
		{LabelSelector{MatchExpressions: []LabelExpression{{"env", "Equals", []string{"a"}}}}, "match_expressions[0].operator", "not a label selector operator"},
		{LabelSelector{MatchExpressions: []LabelExpression{{"env", OpIn, nil}}}, "match_expressions[0].values", "at least one value"},
		{LabelSelector{MatchExpressions: []LabelExpression{{"env", OpExists, []string{"x"}}}}, "match_expressions[0].values", "takes no values"},
		{LabelSelector{MatchExpressions: []LabelExpression{{"bad key!", OpExists, nil}}}, "match_expressions[0].key", "not a valid label key"},
		{LabelSelector{MatchLabels: map[string]string{"env": "no spaces"}}, `match_labels["env"]`, "not a valid label value"},
	}
	for _, c := range cases {
		errs := c.sel.Validate()
		if len(errs) != 1 || errs[0].Path.String() != c.path || !strings.Contains(errs[0].Rule, c.rule) {
			t.Errorf("got %v, want %s: %s", errs, c.path, c.rule)
		}
	}
}

func cluster(props map[string]string, availCPU string) *fleet.Cluster {
	c := &fleet.Cluster{Name: "c", Properties: props}
	if availCPU != "" {
		c.Usage.Available = map[string]resource.Quantity{"cpu": resource.MustParse(availCPU)}
	}
	return c
}

func expr(name, op string, values ...string) PropertyExpression {
	return PropertyExpression{Name: name, Operator: op, Values: values}
}

func TestPropertySelectorMatches(t *testing.T) {
	const nc = fleet.PropertyNodeCount
	const cpu = "resources.kubernetes-fleet.io/available-cpu"
	cases := []struct {
		name  string
		exprs []PropertyExpression
		c     *fleet.Cluster
		want  bool
	}{
		{"Ge equal", []PropertyExpression{expr(nc, OpGe, "5")}, cluster(map[string]string{nc: "5"}, ""), true},
		{"Ge below", []PropertyExpression{expr(nc, OpGe, "5")}, cluster(map[string]string{nc: "4"}, ""), false},
		{"Gt 8 cpu", []PropertyExpression{expr(cpu, OpGt, "8")}, cluster(nil, "8"), false},
		{"Gt 8 cpu millis", []PropertyExpression{expr(cpu, OpGt, "8")}, cluster(nil, "8001m"), true},
		{"Eq 500m vs 0.5", []PropertyExpression{expr("p", OpEq, "500m")}, cluster(map[string]string{"p": "0.5"}, ""), true},
		{"Eq 1Gi vs bytes", []PropertyExpression{expr("p", OpEq, "1Gi")}, cluster(map[string]string{"p": "1073741824"}, ""), true},
		{"Ne", []PropertyExpression{expr("p", OpNe, "1")}, cluster(map[string]string{"p": "2"}, ""), true},
		{"Lt", []PropertyExpression{expr("p", OpLt, "1")}, cluster(map[string]string{"p": "0.999"}, ""), true},
		{"Le", []PropertyExpression{expr("p", OpLe, "1")}, cluster(map[string]string{"p": "1.001"}, ""), false},
		{"missing property never matches, even Ne", []PropertyExpression{expr("p", OpNe, "1")}, cluster(nil, ""), false},
		{"missing resource", []PropertyExpression{expr(cpu, OpGe, "0")}, cluster(nil, ""), false},
		{"AND", []PropertyExpression{expr(nc, OpGe, "2"), expr(cpu, OpGt, "1")}, cluster(map[string]string{nc: "3"}, "500m"), false},
		{"empty matches", nil, cluster(nil, ""), true},
	}
	for _, c := range cases {
		s, err := PropertySelector{MatchExpressions: c.exprs}.Compile()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := s.Matches(c.c)
		if err != nil || got != c.want {
			t.Errorf("%s: got %v, %v", c.name, got, err)
		}
	}
}

func TestPropertySelectorNonQuantityValueIsError(t *testing.T) {
	s, _ := PropertySelector{MatchExpressions: []PropertyExpression{expr("version", OpGe, "1")}}.Compile()
	if _, err := s.Matches(cluster(map[string]string{"version": "1.30.2"}, "")); err == nil || !strings.Contains(err.Error(), "not a quantity") {
		t.Fatalf("got %v", err)
	}
}

func TestPropertySelectorValidate(t *testing.T) {
	cases := []struct {
		name  string
		exprs []PropertyExpression
		path  string
		rule  string
	}{
		{"bad operator", []PropertyExpression{expr("p", "Gte", "1")}, "match_expressions[0].operator", "not a property selector operator"},
		{"two values", []PropertyExpression{expr("p", OpGt, "1", "2")}, "match_expressions[0].values", "exactly one value, got 2"},
		{"no values", []PropertyExpression{expr("p", OpGt)}, "match_expressions[0].values", "exactly one value, got 0"},
		{"not a quantity", []PropertyExpression{expr("p", OpGt, "eight")}, "match_expressions[0].values[0]", `"eight" is not a quantity`},
		{"bad resource name", []PropertyExpression{expr("resources.kubernetes-fleet.io/free-cpu", OpGt, "1")}, "match_expressions[0].name", "not a valid resource property name"},
		{"two Eq", []PropertyExpression{expr("p", OpEq, "1"), expr("p", OpEq, "2")}, "match_expressions[1]", "cannot equal both"},
		{"Eq and Ne", []PropertyExpression{expr("p", OpEq, "1"), expr("p", OpNe, "1000m")}, "match_expressions[1]", "Eq and Ne"},
		{"empty interval", []PropertyExpression{expr("p", OpGt, "5"), expr("p", OpLt, "5")}, "match_expressions[1]", "empty range"},
		{"empty interval Ge Le crossed", []PropertyExpression{expr("p", OpGe, "6"), expr("p", OpLe, "5")}, "match_expressions[1]", "empty range"},
		{"Eq outside", []PropertyExpression{expr("p", OpEq, "3"), expr("p", OpGe, "4")}, "match_expressions[0]", "outside the lower bound"},
		{"Eq on strict upper", []PropertyExpression{expr("p", OpLt, "3"), expr("p", OpEq, "3")}, "match_expressions[1]", "outside the upper bound"},
	}
	for _, c := range cases {
		errs := PropertySelector{MatchExpressions: c.exprs}.Validate()
		if len(errs) != 1 || errs[0].Path.String() != c.path || !strings.Contains(errs[0].Rule, c.rule) {
			t.Errorf("%s: got %v, want %s: %s", c.name, errs, c.path, c.rule)
		}
	}
	ok := []PropertyExpression{expr("p", OpGe, "5"), expr("p", OpLe, "5"), expr("p", OpEq, "5"), expr("q", OpEq, "1"), expr("p", OpNe, "4")}
	if errs := (PropertySelector{MatchExpressions: ok}).Validate(); len(errs) != 0 {
		t.Errorf("consistent selector rejected: %v", errs)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"kitten", "sitting", 3}, {"same", "same", 0}, {"available-cpu", "available-cpus", 1}} {
		if got := fleet.EditDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("%s/%s: %d", tc.a, tc.b, got)
		}
	}
}

// Fleet's webhook validates a property name as pkg/utils/validator
// validateName does: a resource property is split at its first '-' into a
// capacity type and a resource and must be a qualified name as a whole; any
// other name is checked segment by segment between the slashes, the first a
// DNS subdomain or a qualified name, the others qualified names (issue 9 item 3).
func TestValidatePropertyName(t *testing.T) {
	for name, wantRule := range map[string]string{
		"kubernetes-fleet.io/node-count":                      "",
		"kubernetes.azure.com/vm-sizes/Standard_D4s_v3/count": "", // a property the fleet model defines
		"node-count": "",
		"resources.kubernetes-fleet.io/total-CPU":               "", // admitted; matches nothing
		"resources.kubernetes-fleet.io/total-ephemeral-storage": "", // admitted; the scheduler cannot read it
		"resources.kubernetes-fleet.io/available-cpu":           "",
		"resources.kubernetes-fleet.io/free-cpu":                "does not start with total-, allocatable- or available-",
		"resources.kubernetes-fleet.io/cpu":                     "does not start with total-, allocatable- or available-",
		"resources.kubernetes-fleet.io/total-":                  "not a valid resource property name",
		"resources.kubernetes-fleet.io/total-nvidia.com/gpu":    "not a valid resource property name",
		"":                                "not a valid property name",
		"a//b":                            `segment ""`,
		"Bad_Prefix!/count":               "first segment",
		"kubernetes.azure.com/vm sizes/x": `segment "vm sizes"`,
		"kubernetes.azure.com/" + strings.Repeat("x", 64): "segment",
	} {
		errs := ValidatePropertyName(field.Root("name"), name)
		switch {
		case wantRule == "" && len(errs) > 0:
			t.Errorf("%q: rejected: %v", name, errs)
		case wantRule != "" && (len(errs) != 1 || !strings.Contains(errs[0].Rule, wantRule) || errs[0].Fix == ""):
			t.Errorf("%q: got %v, want one error containing %q with a fix", name, errs, wantRule)
		}
	}
}

// The property warning of the placement resource and the member clusters
// data source: a name no cluster has, with similar names that exist.
func TestKnownPropertiesNotInFleet(t *testing.T) {
	f := &fleet.Fleet{Clusters: []fleet.Cluster{
		{Name: "a", Properties: map[string]string{fleet.PropertyNodeCount: "3"}},
		{Name: "b", Usage: fleet.ResourceUsage{Capacity: map[string]resource.Quantity{"cpu": resource.MustParse("4")}}},
	}}
	known := FleetProperties(f)
	if _, ok := known.NotInFleet(field.Root("x"), fleet.PropertyNodeCount, "…"); ok {
		t.Error("node-count is known")
	}
	for name, want := range map[string]string{
		"kubernetes.azure.com/node-count":         `did you mean "kubernetes-fleet.io/node-count"?`,
		"resources.kubernetes-fleet.io/total-CPU": `(Kubernetes resource names are lower case, and Fleet compares them exactly); did you mean "resources.kubernetes-fleet.io/total-cpu"`,
	} {
		w, ok := known.NotInFleet(field.Root("x"), name, "it matches nothing")
		if !ok || w.ID != WarnPropertyNotInFleet || !strings.Contains(w.Message, want) || !strings.Contains(w.Message, "so it matches nothing") {
			t.Errorf("%s: got %v %q", name, ok, w.Message)
		}
	}
}
