package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// A review token is one line, the same for the same decisions (no instant
// in it: designs/previews.md §4), and reads back.
func TestReviewToken(t *testing.T) {
	e := placement.Expect(placement.Result{Selected: []string{"a", "b"}})
	t1, err := reviewToken(reviewPlacement, "web", "d1", e)
	if err != nil {
		t.Fatal(err)
	}
	t2, _ := reviewToken(reviewPlacement, "web", "d1", e)
	if t1 != t2 || !strings.HasPrefix(t1, reviewPrefix) || strings.ContainsAny(t1, "\n ") {
		t.Fatalf("not a stable one-line token: %q %q", t1, t2)
	}
	r, err := decodeReview(t1)
	if err != nil || r.Kind != reviewPlacement || r.Object != "web" || r.Spec != "d1" {
		t.Fatalf("decode: %+v %v", r, err)
	}
	for _, bad := range []string{"", "aks-review-v1:", "aks-review-v1:!!", "something else", reviewPrefix + "H4sIAAAAAAAA_wEAAP__AAAAAAAAAAA"} {
		if _, err := decodeReview(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

// The guard: nothing without a token; one error naming each difference
// when the decisions moved; an error naming the data source when the token
// is of another kind or another configuration (designs/previews.md §4).
func TestReviewedPreviewGuard(t *testing.T) {
	obj := objectRef{placementType, "web"}
	reviewed, _ := reviewToken(reviewPlacement, "web", "d1", placement.Expect(placement.Result{Selected: []string{"a", "b"}}))
	run := func(token, spec string, selected ...string) diag.Diagnostics {
		var diags diag.Diagnostics
		check(guard{kind: reviewPlacement, token: token, obj: obj}, &diags, "policy", spec, time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC),
			placement.Expect(placement.Result{Selected: selected}), placement.Expectation.Differences)
		return diags
	}
	if d := run("", "d1", "x"); d.HasError() {
		t.Fatalf("no guard: %v", d)
	}
	if d := run(reviewed, "d1", "b", "a"); d.HasError() {
		t.Fatalf("the same decisions: %v", d)
	}
	d := run(reviewed, "d1", "a", "c")
	if len(d) != 1 || d[0].Summary() != "The fleet changed since the plan was made" ||
		!strings.Contains(d[0].Detail(), "  - Fleet would now also select c\n  - Fleet would no longer select b") ||
		!strings.Contains(d[0].Detail(), "Nothing was applied to aks_fleet_placement web. Plan again") {
		t.Fatalf("moved: %v", d)
	}
	if d := run(reviewed, "d2", "a", "b"); len(d) != 1 || !strings.Contains(d[0].Detail(), "previewed a configuration other than this resource's (what differs: its policy)") {
		t.Fatalf("another configuration: %v", d)
	}
	other, _ := reviewToken(reviewRun, "web", "d1", nil)
	if d := run(other, "d1", "a", "b"); len(d) != 1 || !strings.Contains(d[0].Detail(), "it is the review of another kind of preview (update run)") {
		t.Fatalf("another kind: %v", d)
	}
	unnamed, _ := reviewToken(reviewPlacement, "", "d1", placement.Expect(placement.Result{Selected: []string{"a", "b"}}))
	if d := run(unnamed, "d1", "a", "b"); len(d) != 1 || d[0].Summary() != "Reviewed preview of no object" ||
		!strings.Contains(d[0].Detail(), "Give the data source this resource's name") {
		t.Fatalf("a data source without a name: %v", d)
	}
	api, _ := reviewToken(reviewPlacement, "api", "d1", placement.Expect(placement.Result{Selected: []string{"a", "b"}}))
	if d := run(api, "d1", "a", "b"); len(d) != 1 || d[0].Summary() != "Reviewed preview of another object" ||
		!strings.Contains(d[0].Detail(), "this is the review of placement api, not of web") {
		t.Fatalf("another placement's review: %v", d)
	}
	if d := run("junk", "d1", "a", "b"); len(d) != 1 || d[0].Summary() != "Invalid reviewed preview" ||
		!strings.Contains(d[0].Detail(), "Set it to data.aks_fleet_placement_preview.<name>.review") {
		t.Fatalf("junk: %v", d)
	}
}

// A preview's detail: a first line, then sections whose lines are indented
// so that Terraform prints each as one line, lists bounded.
func TestPreviewDetail(t *testing.T) {
	p := preview{Headline: "h", At: time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC), Basis: "on the fleet"}
	p.add("", "a line of the preview")
	p.add("list", bounded([]string{"1", "2", "3"}, 2, "elsewhere")...)
	p.add("empty")
	want := "Evaluated at 2026-11-27T03:00:00Z on the fleet.\n  a line of the preview\n  list:\n    1\n    2\n    … and 1 more (elsewhere)"
	if got := p.detail(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := previewSummary(objectRef{placementType, "web"}, "h"); got != "Preview: aks_fleet_placement web — h" {
		t.Fatal(got)
	}
	for _, c := range []struct{ limit, a, b, wa, wb int }{{20, 3, 9, 3, 9}, {20, 5, 995, 5, 15}, {20, 1000, 0, 20, 0}, {20, 50, 50, 10, 10}, {20, 995, 5, 15, 5}} {
		if a, b := split(c.limit, c.a, c.b); a != c.wa || b != c.wb {
			t.Errorf("split(%d, %d, %d) = %d, %d; want %d, %d", c.limit, c.a, c.b, a, b, c.wa, c.wb)
		}
	}
}
