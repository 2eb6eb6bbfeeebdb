package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// testClock is the fixed instant every acceptance test runs at.
const testClock = "2026-11-21T12:00:00Z"

// providerConfig configures the mock hub with a private state file, a fixed
// clock and, optionally, an inventory file.
func providerConfig(t *testing.T, fleetFile string) string {
	t.Helper()
	return providerConfigAt(filepath.Join(t.TempDir(), "state.db"), fleetFile, testClock)
}

// Clocks of providerConfigAt besides a fixed instant: the real clock, and a
// fixed clock at the instant the environment variable EnvClockTime holds
// when the hub is opened (a test moves it between commands; the provider
// under test runs in the test's process).
const (
	clockReal    = "real"
	clockFromEnv = "env"
	// clockScaled runs an hour per second from scaledFrom.
	clockScaled = "scaled"
	scaledFrom  = "2026-11-27T10:00:00Z"
	scaledRate  = 3600
)

// providerConfigAt configures the mock hub with the given state, inventory
// and clock (an RFC 3339 instant, clockReal or clockFromEnv) — or, with
// AKS_TEST_HUB=azure, the azure block against the wire emulator of that
// same mock hub (hub_emulator_test.go).
func providerConfigAt(state, fleetFile, clock string) string {
	if testHubIsAzure() {
		return azureProviderConfig(state, fleetFile, clock)
	}
	ff := ""
	if fleetFile != "" {
		ff = fmt.Sprintf("    fleet_file = %q\n", fleetFile)
	}
	clocks := ""
	switch clock {
	case clockReal:
	case clockFromEnv:
		clocks = "    clock      = \"fixed\"\n" // clock_time from EnvClockTime
	case clockScaled:
		clocks = fmt.Sprintf("    clock       = \"scaled\"\n    clock_time  = %q\n    clock_scale = %d\n", scaledFrom, scaledRate)
	default:
		clocks = fmt.Sprintf("    clock      = \"fixed\"\n    clock_time = %q\n", clock)
	}
	return fmt.Sprintf(`
provider "aks" {
  mock {
%s    state_path = %q
%s  }
}
`, ff, state, clocks)
}

// writeFleet writes an inventory file for a test and returns its path.
func writeFleet(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(p, []byte(strings.TrimLeft(body, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// expectError matches a diagnostic in Terraform's output, which wraps long
// lines: every run of spaces in the phrase matches any white space.
func expectError(phrase string) *regexp.Regexp {
	parts := strings.Fields(phrase)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(strings.Join(parts, `\s+`))
}

func TestAttributePath(t *testing.T) {
	p := attributePath(path.Root("property_selector"), field.Root("match_expressions").Index(2).Child("values").Index(0))
	if got := p.String(); got != "property_selector.match_expressions[2].values[0]" {
		t.Fatalf("got %s", got)
	}
	if got := attributePath(path.Empty(), field.Root("labels").Key("a/b")).String(); got != `labels["a/b"]` {
		t.Fatalf("got %s", got)
	}
}

// anyElementMatches is a knownvalue.Check that passes when some element of a
// list of strings matches the phrase (as expectError matches it).
type anyElementMatches string

func (a anyElementMatches) CheckValue(v any) error {
	l, ok := v.([]any)
	if !ok {
		return fmt.Errorf("expected a list, got %T", v)
	}
	re := expectError(string(a))
	for _, e := range l {
		if s, ok := e.(string); ok && re.MatchString(s) {
			return nil
		}
	}
	return fmt.Errorf("no element matches %q in %v", string(a), l)
}

func (a anyElementMatches) String() string { return "any element matching " + string(a) }

// blocksOf writes HCL objects (`{ a = 1, b = [2, 3] }, { a = 4 }`, as test
// tables list them) as blocks of name, one per object.
func blocksOf(name, objects string) string {
	var out, item strings.Builder
	depth, quoted := 0, false
	flush := func() {
		if s := strings.TrimSpace(item.String()); s != "" {
			out.WriteString("  " + s + "\n")
		}
		item.Reset()
	}
	for i := 0; i < len(objects); i++ {
		c := objects[i]
		switch {
		case quoted:
			item.WriteByte(c)
			if c == '\\' && i+1 < len(objects) {
				i++
				item.WriteByte(objects[i])
			} else if c == '"' {
				quoted = false
			}
		case c == '"':
			quoted = true
			item.WriteByte(c)
		case c == '{' && depth == 0:
			out.WriteString(name + " {\n")
			depth++
		case c == '}' && depth == 1:
			flush()
			out.WriteString("}\n")
			depth--
		case c == ',' && depth == 1:
			flush()
		case depth == 0:
			// the commas and spaces between objects
		default:
			if c == '[' || c == '{' {
				depth++
			} else if c == ']' || c == '}' {
				depth--
			}
			item.WriteByte(c)
		}
	}
	return out.String()
}
