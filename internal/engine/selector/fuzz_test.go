package selector

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// FuzzPropertySelector: two expressions on one property, and a cluster
// reporting a value for it. Whatever they hold, Validate states each rule at
// the expression's attributes in its own words; it accepts a value exactly
// when apimachinery's resource.ParseQuantity does, within the bounds of
// fleet.ParseQuantity (enginetest.ReferenceQuantity), and an operator exactly
// when Fleet has it; an accepted value's canonical form (what messages
// show) reads back the same; the selector compiles exactly when it
// validates; matching agrees with comparing the parsed quantities; and two
// expressions are said to contradict each other only when the cluster's
// value does not satisfy both. `go test` runs the seeds; `make fuzz` runs
// it longer.
func FuzzPropertySelector(f *testing.F) {
	f.Add("kubernetes-fleet.io/node-count", "Ge", "5", "Lt", "10", "7")
	f.Add("kubernetes-fleet.io/node-count", "Gt", "5", "Le", "5", "5")
	f.Add("p", "Eq", "1", "Eq", "1000m", "1")
	f.Add("p", "Eq", "1000E", "Eq", "1", "1") // apimachinery prints 1000E as "1"
	f.Add("p", "Eq", "1Ki", "Ne", "1024", "1024")
	f.Add("p", "Eq", "2", "Gt", "2", "2")
	f.Add("p", "Lt", "0.5", "Gt", "500m", "0.5")
	f.Add("p", "Ge", "1e3", "Le", "1k", "1000")
	f.Add("p", "Gte", "twelve", "In", "", "x")
	f.Add("p", "Ne", "+", "Gt", ".", "1e1.5")
	f.Add("p", "Gt", "-0.0000000001", "Lt", "0.0000000001", "0")
	f.Add(fleet.ResourcePropertyPrefix+"available-cpu", "Gt", "8", "Le", "64", "16")
	f.Add(fleet.ResourcePropertyPrefix+"total-ephemeral-storage", "Gt", "1", "Lt", "2", "1")
	f.Add("bad/name/", "Gt", "1", "Lt", "2", "1")
	f.Add("p", "Gt", "e9999999913", "Lt", "1e1000", "0e-1001") // beyond the bounds: apimachinery would take forever
	f.Fuzz(func(t *testing.T, name, op1, v1, op2, v2, value string) {
		sel := PropertySelector{MatchExpressions: []PropertyExpression{{name, op1, []string{v1}}, {name, op2, []string{v2}}}}
		errs := sel.Validate()
		enginetest.CheckErrors(t, errs, name, op1, v1, op2, v2)
		at := map[string]bool{}
		for _, e := range errs {
			at[e.Path.String()] = true
		}
		for i, e := range sel.MatchExpressions {
			ref, ok := enginetest.ReferenceQuantity(e.Values[0])
			if path := fmt.Sprintf("match_expressions[%d].values[0]", i); at[path] == ok {
				t.Fatalf("%s = %q: rejected %v, the reference reads it: %v", path, e.Values[0], at[path], ok)
			}
			if path := fmt.Sprintf("match_expressions[%d].operator", i); at[path] == slices.Contains(PropertyOperators, e.Operator) {
				t.Fatalf("%s = %q: rejected %v", path, e.Operator, at[path])
			}
			if ok {
				if again, err := resource.ParseQuantity(fleet.FormatQuantity(ref)); err != nil || again.Cmp(ref) != 0 {
					t.Fatalf("%q: its canonical form %q reads back as %s (%v)", e.Values[0], fleet.FormatQuantity(ref), again.String(), err)
				}
			}
		}
		compiled, cerr := sel.Compile()
		if (cerr == nil) != (len(errs) == 0) {
			t.Fatalf("Compile: %v, Validate: %v", cerr, errs)
		}

		// The cluster's value, and what each expression says of it.
		w, wok := enginetest.ReferenceQuantity(value)
		c := &fleet.Cluster{Name: "c", Properties: map[string]string{name: value}}
		if capacity, res, err := fleet.SplitResourceProperty(name); err == nil && wok {
			c.Usage = fleet.ResourceUsage{Capacity: map[string]resource.Quantity{}, Allocatable: map[string]resource.Quantity{}, Available: map[string]resource.Quantity{}}
			c.Usage.ByCapacity(capacity)[res] = w
		}
		holds := func(e PropertyExpression) bool {
			q, ok := enginetest.ReferenceQuantity(e.Values[0])
			return ok && compareRef(w.Cmp(q), e.Operator)
		}
		both := wok && holds(sel.MatchExpressions[0]) && holds(sel.MatchExpressions[1])
		// Contradictions are looked for only when nothing else is wrong.
		contradiction := len(errs) > 0 && !at["match_expressions[0].name"] && !at["match_expressions[0].values[0]"] &&
			!at["match_expressions[1].values[0]"] && !at["match_expressions[0].operator"] && !at["match_expressions[1].operator"]
		if contradiction && both {
			t.Fatalf("%v: said to contradict each other, yet %q satisfies both", errs, value)
		}
		if cerr != nil {
			return
		}
		got, err := compiled.Matches(c)
		var ee *ExpressionError
		switch {
		case fleet.IsResourceProperty(name):
			if err == nil && got != both {
				t.Fatalf("%s = %q: matches %v, the quantities say %v", name, value, got, both)
			}
		case !wok:
			if !errors.As(err, &ee) || ee.Index != 0 {
				t.Fatalf("a reported value %q that is not a quantity: %v, %v", value, got, err)
			}
		case err != nil || got != both:
			t.Fatalf("%s = %q: matches %v (%v), the quantities say %v", name, value, got, err, both)
		}
	})
}

// compareRef is the meaning of each operator on a comparison result.
func compareRef(c int, op string) bool {
	return map[string]bool{OpGt: c > 0, OpGe: c >= 0, OpLt: c < 0, OpLe: c <= 0, OpEq: c == 0, OpNe: c != 0}[op]
}
