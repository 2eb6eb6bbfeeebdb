package placement

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Expectation is what applying a placement does that depends on the fleet:
// the clusters Fleet selects (designs/previews.md §5). The expectation of a
// preview reviewed at plan is compared with the one at apply; scores, ranks
// and the reasons clusters are left out are not part of it: they change with
// every metric and do not change what apply does.
type Expectation struct {
	// Selected are the names of the selected clusters, sorted.
	Selected []string `json:"selected"`
}

// Expect is the expectation of a scheduling result.
func Expect(r Result) Expectation {
	sel := slices.Clone(r.Selected)
	slices.Sort(sel)
	if sel == nil {
		sel = []string{}
	}
	return Expectation{Selected: sel}
}

// ExpectApply is what applying next does to a placement that held the
// clusters held under prev (nil: a new placement), given the scheduling
// result for next: a write that leaves the policy as it was reschedules
// nothing — Fleet's scheduler acts on a new policy snapshot only, and a
// resource-only change rolls out to the bindings it has — so the clusters
// held stay; otherwise the result's selection.
func ExpectApply(prev *Spec, next Spec, held []string, r Result) Expectation {
	if prev != nil && reflect.DeepEqual(WithDefaults(Spec{Policy: prev.Policy}).Policy, WithDefaults(Spec{Policy: next.Policy}).Policy) {
		return Expect(Result{Selected: held})
	}
	return Expect(r)
}

// maxListed bounds the cluster names a difference lists.
const maxListed = 10

// Differences says, one line each, how what Fleet would select now differs
// from what was reviewed; none when the same clusters are selected.
func (reviewed Expectation) Differences(now Expectation) []string {
	var added, removed []string
	for _, c := range now.Selected {
		if !slices.Contains(reviewed.Selected, c) {
			added = append(added, c)
		}
	}
	for _, c := range reviewed.Selected {
		if !slices.Contains(now.Selected, c) {
			removed = append(removed, c)
		}
	}
	var out []string
	if len(added) > 0 {
		out = append(out, fmt.Sprintf("Fleet would now also select %s", listClusters(added)))
	}
	if len(removed) > 0 {
		out = append(out, fmt.Sprintf("Fleet would no longer select %s", listClusters(removed)))
	}
	return out
}

// listClusters names at most maxListed clusters, then how many more.
func listClusters(names []string) string {
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxListed], ", "), len(names)-maxListed)
}
