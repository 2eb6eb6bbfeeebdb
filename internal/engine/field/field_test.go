package field

import "testing"

func TestPathString(t *testing.T) {
	cases := []struct {
		path Path
		want string
	}{
		{Root("eligible_only"), "eligible_only"},
		{Root("property_selector").Child("match_expressions").Index(1).Child("values"), "property_selector.match_expressions[1].values"},
		{Root("labels").Key("a/b"), `labels["a/b"]`},
		{Path{}, ""},
	}
	for _, c := range cases {
		if got := c.path.String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestPathIsImmutable(t *testing.T) {
	base := Root("a")
	x := base.Child("x")
	y := base.Child("y")
	if x.String() != "a.x" || y.String() != "a.y" || base.String() != "a" {
		t.Fatalf("paths share storage: %s %s %s", base, x, y)
	}
}

func TestErrorMessage(t *testing.T) {
	e := Errorf(Root("a").Index(0), "Give one value.", "operator %q takes exactly one value, got %d", "Gt", 2)
	want := `a[0]: operator "Gt" takes exactly one value, got 2. Give one value.`
	if e.Error() != want {
		t.Fatalf("got %q want %q", e.Error(), want)
	}
	if (Errors{}).Err() != nil {
		t.Fatal("empty list must be nil error")
	}
	if got := (Errors{e}).Prefix(Root("p")); got[0].Path.String() != "p.a[0]" {
		t.Fatalf("prefix: %s", got[0].Path)
	}
}

func TestErrorIDDoesNotChangeMessage(t *testing.T) {
	e := Error{Path: Root("a").Child("b"), ID: "some_rule", Rule: "b is wrong", Fix: "Fix b."}
	if want := "a.b: b is wrong. Fix b."; e.Error() != want {
		t.Fatalf("got %q want %q", e.Error(), want)
	}
}

func TestErrorsHas(t *testing.T) {
	es := Errors{
		{Path: Root("a"), ID: "rule_a", Rule: "a"},
		{Path: Root("b"), Rule: "b (unnamed rule)"},
		{Path: Root("c"), ID: "rule_c", Rule: "c"},
	}
	for id, want := range map[string]bool{"rule_a": true, "rule_c": true, "rule_b": false, "rule": false} {
		if got := es.Has(id); got != want {
			t.Errorf("Has(%q) = %v, want %v", id, got, want)
		}
	}
	if (Errors{}).Has("rule_a") || Errors(nil).Has("rule_a") {
		t.Error("an empty list has no rule")
	}
}

func TestErrorsAt(t *testing.T) {
	budget1 := Root("disruption").Child("budgets").Index(1)
	es := Errors{
		{Path: budget1.Child("nodes"), ID: "first", Rule: "x"},
		{Path: budget1.Child("schedule"), ID: "other", Rule: "y"},
		{Path: Root("template").Child("labels").Key("team"), ID: "label", Rule: "z"},
		{Path: budget1.Child("nodes"), ID: "second", Rule: "w"},
		{Path: budget1, ID: "parent", Rule: "v"},
	}
	got := es.At("disruption.budgets[1].nodes")
	if len(got) != 2 || got[0].ID != "first" || got[1].ID != "second" {
		t.Fatalf("At(nodes) = %v", got)
	}
	if got := es.At(`template.labels["team"]`); len(got) != 1 || got[0].ID != "label" {
		t.Fatalf("At(label) = %v", got)
	}
	// Exact match only: neither a parent nor a prefix of a path matches it.
	if got := es.At("disruption.budgets[1]"); len(got) != 1 || got[0].ID != "parent" {
		t.Fatalf("At(parent) = %v", got)
	}
	for _, p := range []string{"disruption.budgets", "disruption.budgets[1].node", "nodes", ""} {
		if got := es.At(p); got != nil {
			t.Errorf("At(%q) = %v, want nil", p, got)
		}
	}
}

func TestPathRel(t *testing.T) {
	p := Root("disruption").Child("budgets").Index(2).Child("nodes")
	if r, ok := p.Rel(Root("disruption")); !ok || r.String() != "budgets[2].nodes" {
		t.Fatalf("got %s %v", r, ok)
	}
	if _, ok := p.Rel(Root("template")); ok {
		t.Fatal("not under template")
	}
	if r, ok := p.Rel(Path{}); !ok || r.String() != p.String() {
		t.Fatal("relative to the root")
	}
}

func TestWarningString(t *testing.T) {
	w := Warning{Path: Root("a").Index(1), ID: "some_warning", Message: "a[1] does nothing"}
	if want := "a[1]: a[1] does nothing"; w.String() != want {
		t.Fatalf("got %q want %q", w.String(), want)
	}
	if w := (Warning{ID: "root", Message: "m"}); w.String() != "m" {
		t.Fatalf("a root warning renders its message alone, got %q", w.String())
	}
}
