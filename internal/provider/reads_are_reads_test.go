package provider

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// Reads are reads (designs/hub.md §2): `terraform plan` — refresh included,
// a change planned, a refresh-only plan — writes nothing to the mock hub's
// state, even when the world moved since the last write (the clock on by
// days: an auto-upgrade trigger due, runs and rollouts further on; the
// inventory edited). The plan shows that world; the next apply stores it.
func TestAccPlanWritesNothingOnTheMock(t *testing.T) {
	if testHubIsAzure() {
		t.Skip("the mock hub's own state")
	}
	w := newWorld(t, clockFromEnv)
	t.Setenv(EnvClockTime, "2026-11-27T10:00:00Z")
	enabled := strings.Replace(worldConfig(nil, budgetsAlways, budgetsBusiness, true),
		"resource \"aks_fleet_autoupgrade_profile\" \"rapid\" {\n  name     = \"rapid\"\n  channel  = \"Rapid\"\n  disabled = true\n",
		"resource \"aks_fleet_autoupgrade_profile\" \"rapid\" {\n  name     = \"rapid\"\n  channel  = \"Rapid\"\n", 1)
	if enabled == worldConfig(nil, budgetsAlways, budgetsBusiness, true) {
		t.Fatal("the profile of worldConfig is not where this test enables it")
	}
	w.config(enabled + "\noutput \"runs\" {\n  value = aks_fleet_autoupgrade_profile.rapid.status.runs\n}\n")
	w.must("init", "-input=false", "-no-color")
	w.must("apply", "-input=false", "-no-color", "-auto-approve")

	// Three days on: 1.34.1 was released on Sunday (the profile triggers),
	// the update run and the placements' rollouts went on; a member changed.
	t.Setenv(EnvClockTime, "2026-11-30T12:00:00Z")
	edited := strings.Replace(worldFleet, `resource_usage: { available: { cpu: "10", memory: 100Gi } }`, `resource_usage: { available: { cpu: "50", memory: 100Gi } }`, 1)
	if err := os.WriteFile(w.fleet, []byte(strings.TrimLeft(edited, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(w.dir, "state.db")
	before := stateFingerprint(t, state)
	out := w.must("plan", "-input=false", "-no-color", "-refresh-only")
	if !strings.Contains(out, "rapid-20261129-000000") {
		t.Errorf("the refresh does not show the run the trigger started:\n%s", out)
	}
	w.must("plan", "-input=false", "-no-color")
	w.config(strings.Replace(enabled, `consolidate_after = "5m"`, `consolidate_after = "10m"`, 1))
	w.must("plan", "-input=false", "-no-color")
	if after := stateFingerprint(t, state); after != before {
		t.Fatalf("terraform plan wrote to the mock hub's state: %s, then %s", before, after)
	}
	w.must("apply", "-input=false", "-no-color", "-auto-approve")
	if after := stateFingerprint(t, state); after == before {
		t.Fatal("the apply wrote nothing")
	} else {
		t.Logf("the plans left the state at %s; the apply brought it to %s", before, after)
	}
	s, err := store.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("updateRuns", "rapid-20261129-000000"); err != nil {
		t.Fatalf("the apply did not store the run the trigger started: %v", err)
	}
}

// stateFingerprint is the mock state's last transaction and a digest of its
// file: both stay as they are while nothing writes.
func stateFingerprint(t *testing.T, path string) string {
	t.Helper()
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.TxID()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("transaction %d, sha256 %x", id, sha256.Sum256(data))
}
