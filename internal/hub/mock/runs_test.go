package mock

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// A run executes over simulated time between commands (designs/hub.md §2):
// started by one hub process, read by a later one whose clock is a month on,
// it has completed, and its upgrades show in that process's fleet.
func TestRunCompletesAcrossProcesses(t *testing.T) {
	cfg, run := startFleetgenRun(t, 300, "run-1")
	later := cfg
	later.Clock.Time = testNow.Add(30 * 24 * time.Hour) // four stages, each waiting up to a week for windows
	h2, err := New(later)
	if err != nil {
		t.Fatal(err)
	}
	got, err := h2.GetUpdateRun(context.Background(), run)
	if err != nil || got.Status.State != update.StateCompleted {
		t.Fatalf("a week later: %+v %v", got.Status.State, err)
	}
	f, _ := h2.Fleet(context.Background())
	for _, c := range f.Clusters {
		if v := c.NodePools[0].NodeImageVersion; v != "202611.10.0" {
			t.Fatalf("%s runs node image %s after the run completed", c.Name, v)
		}
	}
}

// startFleetgenRun starts a node image upgrade (to the generator's
// 202611.10.0, released in every region) over a generated fleet of n
// members, one stage per update group, with zero upgrade duration. (Its
// members run 1.30 to 1.33: a Kubernetes upgrade would skip minors on some.)
func startFleetgenRun(tb testing.TB, n int, name string) (Config, string) {
	tb.Helper()
	dir := tb.TempDir()
	file := filepath.Join(dir, "fleet.json")
	if err := os.WriteFile(file, fleetgen.Generate(fleetgen.Options{Clusters: n, Seed: 11}), 0o644); err != nil {
		tb.Fatal(err)
	}
	zero := time.Duration(0)
	cfg := Config{FleetFile: file, StatePath: filepath.Join(dir, "state.db"), Clock: ClockConfig{Mode: ClockFixed, Time: testNow}, UpgradeDuration: &zero}
	h, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	var s update.Strategy
	for _, g := range []string{"canary", "wave-1", "wave-2", "wave-3"} {
		s.Stages = append(s.Stages, update.Stage{Name: g, Groups: []update.Group{{Name: g, MaxConcurrency: "10"}}})
	}
	spec := update.RunSpec{Strategy: &s, ManagedClusterUpdate: update.ManagedClusterUpdate{
		Upgrade: update.Upgrade{Type: update.UpgradeNodeImageOnly}, NodeImageSelection: update.NodeImageSelection{Type: update.NodeImageLatest}}}
	if _, err := h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: spec}, store.Precondition{IfNoneMatch: true}); err != nil {
		tb.Fatal(err)
	}
	if _, err := h.StartUpdateRun(ctx, name, store.Precondition{}); err != nil {
		tb.Fatal(err)
	}
	return cfg, name
}

// BenchmarkRun1000ToCompletion: a 1,000-member run (four stages, the
// generator's update groups) started with zero upgrade duration, and read
// to completion a month later by another hub process: what the mock computes
// to report a whole run's progress (issue 11 target: under 2 s).
func BenchmarkRun1000ToCompletion(b *testing.B) {
	for i := range b.N {
		cfg, run := startFleetgenRun(b, 1000, fmt.Sprintf("run-%d", i))
		cfg.Clock.Time = testNow.Add(30 * 24 * time.Hour)
		h, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		got, err := h.GetUpdateRun(context.Background(), run)
		if err != nil || got.Status.State != update.StateCompleted {
			b.Fatalf("%v %v", got.Status.State, err)
		}
	}
}

// The hub fingerprints each fleet it resolves with its members' facts
// computed once per inventory document (inventoryDoc.facts): at every
// instant, also once a run upgraded the members, that is the fingerprint
// of the fleet it resolved.
func TestFleetFingerprintAcrossInstantsAndUpgrades(t *testing.T) {
	cfg, _ := startFleetgenRun(t, 300, "run-1")
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	now := testNow
	h.clock = &Clock{cfg: ClockConfig{Mode: ClockScaled, Time: testNow, Scale: 1}, anchor: testNow, real: func() time.Time { return now }}
	ctx := context.Background()
	upgraded := false
	for _, after := range []time.Duration{0, time.Minute, 24 * time.Hour, 30 * 24 * time.Hour} {
		now = testNow.Add(after)
		f, fp, err := h.scheduledFleet(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := placement.FleetFingerprint(f, h.Now()); fp != want {
			t.Fatalf("%s on: the hub's fingerprint %s, the fleet's %s", after, fp, want)
		}
		upgraded = f.Clusters[0].NodePools[0].NodeImageVersion == "202611.10.0"
	}
	if !upgraded {
		t.Fatal("the run upgraded no member: the test proves nothing about upgrades")
	}
}
