package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// The documented examples must run as they are: each is planned and applied
// against the mock hub's sample fleet, and a second plan must be empty.
// The terraform block and the empty provider block of the quickstart are
// replaced by the test's provider configuration (the test harness serves the
// provider in-process under its own address).
var (
	terraformBlock     = regexp.MustCompile(`(?ms)^terraform \{.*?^\}\n`)
	emptyProviderBlock = regexp.MustCompile(`(?m)^provider "aks" \{\}\n`)
)

func TestAccExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*/*/*.tf")
	if err != nil {
		t.Fatal(err)
	}
	// examples/quickstart calls a module, which terraform-plugin-testing does
	// not support: TestAccQuickstartWithModule runs it with the CLI itself,
	// and applies examples/modules with it.
	ran := 0
	for _, f := range files {
		if filepath.Base(filepath.Dir(f)) == "provider" || filepath.Base(filepath.Dir(filepath.Dir(f))) == "modules" {
			continue
		}
		ran++
		t.Run(f[len("../../"):], func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cfg := emptyProviderBlock.ReplaceAllString(terraformBlock.ReplaceAllString(string(src), ""), "")
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviders,
				Steps: []resource.TestStep{{
					Config: providerConfig(t, "") + cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				}},
			})
		})
	}
	if ran < 2 {
		t.Fatalf("found only %d examples", ran)
	}
}
