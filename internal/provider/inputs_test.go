package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Inputs that must never look like a provider bug (issue 9, items 12 and
// 14): each gets one error that names the attribute and what to write.

// A fractional or oversized number is the practitioner's mistake, not "an
// error in the provider": whole-number inputs are Int64 attributes of a type
// that passes such a value on (wholeNumberType), and the bridge names the
// attribute and the range of the field (Fleet's and Karpenter's int32 fields
// give theirs). One error each: the framework's own says nothing.
func TestAccInputs_numbers(t *testing.T) {
	cfg := providerConfig(t, "")
	cases := []struct{ config, want string }{
		{simplePlacement("", `policy {
  placement_type = "PickN"
  number_of_clusters = 2.5
}`), "policy.number_of_clusters: 2.5 is not a whole number"},
		{simplePlacement("", `preview_limit = 2.5`), "preview_limit: 2.5 is not a whole number: write a whole number from 1 to 10000."},
		// At its own path, list indices included, with the attribute's range.
		{simplePlacement("", `policy {
  placement_type = "PickN"
  number_of_clusters = 2
  topology_spread_constraints {
    topology_key = "region"
    max_skew     = 1e30
  }
}`), "policy.topology_spread_constraints[0].max_skew: 1e+30 is out of range: write a whole number from 1 to 2147483647."},
		{`resource "aks_fleet_update_strategy" "s" {
  name = "two"
  stages {
    name = "one"
    groups { name = "a" }
  }
  stages {
    name = "two"
    groups { name = "b" }
    after_stage_wait_in_seconds = 1.5
  }
}`, "stages[1].after_stage_wait_in_seconds: 1.5 is not a whole number: write a whole number from 0 to 2147483647."},
		{strings.Replace(nodePoolConfig(`team = "web"`, `{ nodes = "10%" }`), `name    = "default"`, "name    = \"default\"\n  weight  = 1e30", 1),
			"weight: weight must be a whole number from 1 to 100, got 1000000000000000000000000000000"},
		{`data "aks_nap_disruption_preview" "p" {
  nodes = 2.5
}`, "nodes: nodes must be a whole number from 0 to 2147483647, got 2.5"},
	}
	for _, c := range cases {
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: cfg + c.config, PlanOnly: true, ExpectError: expectError(c.want)},
		}})
	}
}

// `mock { clock = "fixed" }` without a time fails at validate (before any
// hub is built), naming clock_time and its environment variable.
func TestValidateProviderConfig_clock(t *testing.T) {
	t.Setenv(EnvClockTime, "")
	t.Setenv(EnvClockScale, "")
	ctx := context.Background()
	server := providerserver.NewProtocol6(New("test")())()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	typ := schemas.Provider.ValueType()
	for _, c := range []struct {
		mock map[string]any
		want string
	}{
		{map[string]any{"clock": "fixed"}, `mock.clock = "fixed" needs mock.clock_time (or the environment variable AKS_MOCK_CLOCK_TIME)`},
		{map[string]any{"clock": "scaled"}, `mock.clock = "scaled" needs mock.clock_time (or the environment variable AKS_MOCK_CLOCK_TIME)`},
		{map[string]any{"clock": "scaled", "clock_time": testClock}, `mock.clock = "scaled" needs mock.clock_scale (or the environment variable AKS_MOCK_CLOCK_SCALE)`},
		{map[string]any{"clock": "fixed", "clock_time": testClock}, ""},
	} {
		v, err := encode(map[string]any{"mock": c.mock}, typ)
		if err != nil {
			t.Fatal(err)
		}
		dv, _ := tfprotov6.NewDynamicValue(typ, v)
		resp, err := server.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				got = append(got, d.Detail)
				if c.want != "" && !d.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("mock").WithAttributeName(strings.Split(strings.Split(c.want, " needs mock.")[1], " ")[0])) {
					t.Errorf("%v: the error is on %v, want the attribute it names", c.mock, d.Attribute)
				}
			}
		}
		if (c.want == "") != (len(got) == 0) || (c.want != "" && !strings.Contains(strings.Join(got, "\n"), c.want)) {
			t.Errorf("%v: errors %q, want %q", c.mock, got, c.want)
		}
	}
}

// The same through the CLI: the configuration is refused before any plan.
func TestAccInputs_fixedClockWithoutTime(t *testing.T) {
	t.Setenv(EnvClockTime, "")
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{{
		Config: `
provider "aks" {
  mock {
    clock = "fixed"
  }
}
data "aks_fleet_member_clusters" "all" {}
`,
		PlanOnly:    true,
		ExpectError: expectError(`mock.clock = "fixed" needs mock.clock_time (or the environment variable AKS_MOCK_CLOCK_TIME)`),
	}}})
}
