package placement

import (
	"slices"
	"testing"
)

// What a placement's apply decides is the set of clusters Fleet selects
// (designs/previews.md §5): scores and left-out clusters do not count.
func TestExpectationDifferences(t *testing.T) {
	reviewed := Expect(Result{Selected: []string{"b", "a"}, Decisions: []Decision{{ClusterName: "a", Selected: true, AffinityScore: 10}}})
	if !slices.Equal(reviewed.Selected, []string{"a", "b"}) {
		t.Fatalf("selected not sorted: %v", reviewed.Selected)
	}
	same := Expect(Result{Selected: []string{"a", "b"}, Decisions: []Decision{{ClusterName: "a", Selected: true, AffinityScore: 99}}})
	if d := reviewed.Differences(same); len(d) != 0 {
		t.Fatalf("scores must not matter: %v", d)
	}
	moved := Expect(Result{Selected: []string{"a", "c"}})
	want := []string{"Fleet would now also select c", "Fleet would no longer select b"}
	if d := reviewed.Differences(moved); !slices.Equal(d, want) {
		t.Fatalf("got %q, want %q", d, want)
	}
	many := Expect(Result{Selected: []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12"}})
	if d := (Expectation{}).Differences(many); len(d) != 1 || d[0] != "Fleet would now also select c1, c10, c11, c12, c2, c3, c4, c5, c6, c7 and 2 more" {
		t.Fatalf("bounded: %q", d)
	}
	if e := Expect(Result{}); e.Selected == nil {
		t.Fatal("an empty selection must encode as [], not null")
	}
}
