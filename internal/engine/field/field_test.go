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
