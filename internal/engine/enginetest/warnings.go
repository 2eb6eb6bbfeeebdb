package enginetest

import (
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// WantWarning is a warning a test expects: the id of its rule, its path and
// a part of its message. Tests assert the id so that rewording a message
// breaks no test, and a warning of the wrong rule does.
type WantWarning struct {
	ID       string
	Path     string
	Contains string
}

// CheckWarnings fails t unless got are the wanted warnings, in order.
func CheckWarnings(t *testing.T, got []field.Warning, want []WantWarning) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d warnings, want %d:\n%s", len(got), len(want), WarningLines(got))
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.ID || g.Path.String() != w.Path || !strings.Contains(g.Message, w.Contains) {
			t.Errorf("warning %d = %s %s\nwant %s at %s containing %q", i, g.ID, g, w.ID, w.Path, w.Contains)
		}
	}
}

// WarningLines renders warnings one a line with their ids, for failure
// messages.
func WarningLines(ws []field.Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString("  " + w.ID + " " + w.String() + "\n")
	}
	return b.String()
}
