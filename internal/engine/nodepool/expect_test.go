package nodepool

import (
	"slices"
	"testing"
	"time"
)

// What a NodePool's budgets let Karpenter do now (designs/previews.md §5):
// a weekday budget that starts blocking between plan and apply matters; the
// same allowance an hour later does not.
func TestExpectationDifferences(t *testing.T) {
	s := func(v string) *string { return &v }
	budgets := []Budget{{Nodes: s("10%")}, {Nodes: s("0"), Schedule: s("0 9 * * 1-5"), Duration: s("8h")}}
	fri := time.Date(2026, 11, 27, 8, 59, 0, 0, time.UTC)
	reviewed := Expect(budgets, 3, 0, fri)
	if reviewed.Allowed[Drifted] != "1" || reviewed.Nodes != 3 {
		t.Fatalf("reviewed: %+v", reviewed)
	}
	if d := reviewed.Differences(Expect(budgets, 3, 0, fri.Add(30*time.Second))); len(d) != 0 {
		t.Fatalf("nothing changed: %v", d)
	}
	got := reviewed.Differences(Expect(budgets, 3, 0, fri.Add(2*time.Minute)))
	want := []string{"Empty: 0 nodes may be disrupted now (reviewed: 1)", "Drifted: 0 nodes may be disrupted now (reviewed: 1)",
		"Underutilized: 0 nodes may be disrupted now (reviewed: 1)"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if d := reviewed.Differences(Expect(budgets, 30, 0, fri)); len(d) != 4 || d[0] != "the pool has 30 nodes now (reviewed: 3)" {
		t.Fatalf("node count: %q", d)
	}
	if e := Expect(nil, 3, 0, fri); e.Allowed[Empty] != "unlimited" {
		t.Fatalf("no budget: %+v", e)
	}
	if e := Expect([]Budget{{Nodes: s("x%")}}, 3, 0, fri); e.Allowed[Empty] != "0 (fail closed)" {
		t.Fatalf("fail closed: %+v", e)
	}
}
