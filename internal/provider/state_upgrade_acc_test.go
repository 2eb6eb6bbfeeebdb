package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A state written by the release before blocks (commit 60900cf, with its
// mock hub's database) upgrades with the current provider, and the same
// configuration in block syntax plans no change: designs/schema.md §1.
func TestAccStateUpgrade_blocks(t *testing.T) {
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		t.Skip("set TF_ACC and TF_ACC_TERRAFORM_PATH to run with the real CLI")
	}
	if testHubIsAzure() {
		t.Skip("the state was written against the mock hub's database")
	}
	const from = "testdata/state_60900cf"
	dir := t.TempDir()
	for _, f := range []string{"terraform.tfstate", "state.db", "main.tf"} {
		b, err := os.ReadFile(filepath.Join(from, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "main.tf" {
			b = []byte(`terraform {
  required_providers {
    aks = { source = "fleetform/aks" }
  }
}
` + providerConfigAt(filepath.Join(dir, "state.db"), "", testClock) + string(b))
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := realCLI(t, tf, dir)
	run("init", "-no-color")
	out, ok := cliRun(t, tf, dir)("plan", "-no-color", "-detailed-exitcode")
	if !ok || !strings.Contains(out, "No changes.") {
		t.Fatalf("the upgraded state must plan no change:\n%s", out)
	}
	// The upgraded state says what the old one did: an explicitly empty
	// budget list is no_budgets, an absent one is no blocks.
	run("apply", "-auto-approve", "-no-color", "-refresh-only")
	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(run("show", "-json")), &state); err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]any{}
	for _, r := range state.Values.RootModule.Resources {
		got[r.Address] = r.Values
	}
	disruption := func(addr string) map[string]any {
		d, _ := got[addr]["disruption"].(map[string]any)
		return d
	}
	if d := disruption("aks_nap_nodepool.unlimited"); d["no_budgets"] != true || len(d["budgets"].([]any)) != 0 {
		t.Errorf("budgets = [] must become no_budgets = true: %v", d)
	}
	if d := disruption("aks_nap_nodepool.budgets"); d["no_budgets"] != false || len(d["budgets"].([]any)) != 2 {
		t.Errorf("two budgets must stay two budgets: %v", d)
	}
	if d := disruption("aks_nap_nodepool.plain"); d != nil {
		t.Errorf("an absent disruption block stays absent: %v", d)
	}
	if s, _ := got["aks_fleet_update_run.by_strategy"]["stages"].([]any); s == nil {
		t.Errorf("a run without inline stages has no stages blocks, an empty list: %v", got["aks_fleet_update_run.by_strategy"]["stages"])
	}
}
