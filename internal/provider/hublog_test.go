package provider

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// Every hub call is one debug line with the object, the operation, the
// precondition, the outcome and the duration; specs are not logged.
func TestHubCallsAreLogged(t *testing.T) {
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	at, _ := time.Parse(time.RFC3339, testClock)
	m, err := mock.New(mock.Config{StatePath: filepath.Join(t.TempDir(), "state.db"), Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: at}})
	if err != nil {
		t.Fatal(err)
	}
	h := withLogging(m)
	spec := placement.Spec{Name: "web", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "secret-looking-namespace"}}}
	p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: spec}, hub.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: spec}, hub.Precondition{IfMatch: `"stale"`})
	_, _ = h.GetPlacement(ctx, "missing")
	if err := h.DeletePlacement(ctx, "web", hub.Precondition{IfMatch: p.ETag}); err != nil {
		t.Fatal(err)
	}
	entries, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ op, object, outcome string }{
		{"ApplyPlacement", "placement/web", "ok"},
		{"ApplyPlacement", "placement/web", "precondition_failed"},
		{"GetPlacement", "placement/missing", "not_found"},
		{"DeletePlacement", "placement/web", "ok"},
	}
	if len(entries) != len(want) {
		t.Fatalf("%d log lines, want one per call (%d):\n%s", len(entries), len(want), out.String())
	}
	for i, w := range want {
		e := entries[i]
		if e["@level"] != "debug" || e["@message"] != "hub call" || e["hub_operation"] != w.op || e["hub_object"] != w.object || e["outcome"] != w.outcome {
			t.Errorf("line %d: %v, want %v", i, e, w)
		}
		if _, ok := e["duration_ms"]; !ok {
			t.Errorf("line %d has no duration: %v", i, e)
		}
	}
	if entries[1]["if_match"] != `"stale"` || entries[0]["if_none_match"] != true {
		t.Errorf("preconditions not logged: %v / %v", entries[0], entries[1])
	}
	if bytes.Contains(out.Bytes(), []byte("secret-looking-namespace")) {
		t.Errorf("a spec reached the log:\n%s", out.String())
	}
}
