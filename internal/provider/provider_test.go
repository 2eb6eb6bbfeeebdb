package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// testAccProviders runs the provider in-process for the Terraform CLI that
// terraform-plugin-testing starts (TF_ACC_TERRAFORM_PATH).
var testAccProviders = map[string]func() (tfprotov6.ProviderServer, error){
	"aks": providerserver.NewProtocol6WithError(New("test")()),
}

// testClock is the fixed instant every acceptance test runs at.
const testClock = "2026-11-21T12:00:00Z"

// providerConfig configures the mock hub with a private state file, a fixed
// clock and, optionally, an inventory file.
func providerConfig(t *testing.T, fleetFile string) string {
	t.Helper()
	return providerConfigAt(filepath.Join(t.TempDir(), "state.db"), fleetFile, testClock)
}

// providerConfigAt configures the mock hub with the given state, inventory
// and fixed clock — or, with AKS_TEST_HUB=azure, the azure block against the
// wire emulator of that same mock hub (hub_emulator_test.go).
func providerConfigAt(state, fleetFile, clock string) string {
	if testHubIsAzure() {
		return azureProviderConfig(state, fleetFile, clock)
	}
	ff := ""
	if fleetFile != "" {
		ff = fmt.Sprintf("    fleet_file = %q\n", fleetFile)
	}
	return fmt.Sprintf(`
provider "aks" {
  mock {
%s    state_path = %q
    clock      = "fixed"
    clock_time = %q
  }
}
`, ff, state, clock)
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
