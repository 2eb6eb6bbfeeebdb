package mock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// Auto-upgrade triggering on the mock hub (designs/updates.md §5): a release
// entering an enabled profile's channel starts one run at the release's
// instant, which upgrades the clusters for good.

// profileInventory: two members on 1.30.4 without windows, one on 1.29.9
// (two minors behind 1.31), a 1.31.2 release at testNow+1h and a node image
// at testNow+2h. extra is appended to the region's Kubernetes releases.
func profileInventory(extra string) string {
	return `regions:
  - name: westeurope
    kubernetes_versions:
      - { version: 1.29.9, released_at: "2026-06-01T00:00:00Z" }
      - { version: 1.30.4, released_at: "2026-07-01T00:00:00Z" }
      - { version: 1.31.2, released_at: "2026-11-21T13:00:00Z" }
` + extra + `    node_images:
      - { family: AKSUbuntu-2204gen2containerd, version: 202610.27.0, released_at: "2026-10-01T00:00:00Z" }
      - { family: AKSUbuntu-2204gen2containerd, version: 202611.21.0, released_at: "2026-11-21T14:00:00Z" }
clusters:
  - { name: member-a, region: westeurope, kubernetes_version: 1.30.4, node_pools: [{ name: system, node_image_family: AKSUbuntu-2204gen2containerd, node_image_version: 202610.27.0 }] }
  - { name: member-b, region: westeurope, kubernetes_version: 1.30.4, node_pools: [{ name: system, node_image_family: AKSUbuntu-2204gen2containerd, node_image_version: 202610.27.0 }] }
  - { name: member-c, region: westeurope, kubernetes_version: 1.29.9, node_pools: [{ name: system, node_image_family: AKSUbuntu-2204gen2containerd, node_image_version: 202610.27.0 }] }
`
}

// profileHub opens a hub on dir's inventory and state with the clock at at.
func profileHub(t *testing.T, dir string, at time.Time) *Hub {
	t.Helper()
	d := 10 * time.Minute
	h, err := New(Config{FleetFile: filepath.Join(dir, "fleet.yaml"), StatePath: filepath.Join(dir, "state.db"),
		Clock: ClockConfig{Mode: ClockFixed, Time: at}, UpgradeDuration: &d})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func writeInventory(t *testing.T, dir, doc string) {
	t.Helper()
	file := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	// A new modification time, so that a hub of this process decodes it again.
	later := time.Now().Add(time.Duration(len(doc)) * time.Millisecond)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
}

func putProfile(t *testing.T, h *Hub, name string, spec update.ProfileSpec) {
	t.Helper()
	if _, err := h.PutAutoUpgradeProfile(context.Background(), hub.AutoUpgradeProfile{Meta: hub.Meta{Name: name}, Spec: spec}, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
}

func versions(t *testing.T, h *Hub) string {
	t.Helper()
	f, err := h.Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range f.Clusters {
		out = append(out, c.Name+"="+c.KubernetesVersion+"/"+c.NodePools[0].NodeImageVersion)
	}
	return strings.Join(out, " ")
}

func TestProfileTriggersOnRelease(t *testing.T) {
	dir := t.TempDir()
	writeInventory(t, dir, profileInventory(""))
	ctx := context.Background()
	h := profileHub(t, dir, testNow)
	putProfile(t, h, "rapid", update.ProfileSpec{Channel: update.ChannelRapid})
	putProfile(t, h, "images", update.ProfileSpec{Channel: update.ChannelNodeImage})
	putProfile(t, h, "off", update.ProfileSpec{Channel: update.ChannelRapid, Disabled: true})
	p, err := h.GetAutoUpgradeProfile(ctx, "rapid")
	if err != nil || !p.Status.LastTriggeredAt.IsZero() || len(p.Status.Runs) != 0 {
		t.Fatalf("before any release: %+v %v", p, err)
	}

	// A later command, a day on: 1.31.2 (13:00) and the node image (14:00) were released meanwhile.
	h2 := profileHub(t, dir, testNow.Add(24*time.Hour))
	p, err = h2.GetAutoUpgradeProfile(ctx, "rapid")
	if err != nil {
		t.Fatal(err)
	}
	want := update.ProfileStatus{LastTriggeredAt: testNow.Add(time.Hour), LastTriggerStatus: update.TriggerSucceeded,
		LastTriggerUpgradeVersions: []string{"1.31.2"}, LastRun: "rapid-20261121-130000", Runs: []string{"rapid-20261121-130000"}}
	if !p.Status.LastTriggeredAt.Equal(want.LastTriggeredAt) || p.Status.LastTriggerStatus != want.LastTriggerStatus ||
		!slices.Equal(p.Status.LastTriggerUpgradeVersions, want.LastTriggerUpgradeVersions) || p.Status.LastRun != want.LastRun || !slices.Equal(p.Status.Runs, want.Runs) {
		t.Fatalf("rapid after the release: %+v\nwant %+v", p.Status, want)
	}
	run, err := h2.GetUpdateRun(ctx, p.Status.LastRun)
	if err != nil {
		t.Fatal(err)
	}
	if run.AutoUpgrade == nil || run.AutoUpgrade.Profile != "rapid" || run.Status.State != update.StateCompleted || !run.Status.StartTime.Equal(testNow.Add(time.Hour)) {
		t.Fatalf("the triggered run: profile %+v, %s from %s", run.AutoUpgrade, run.Status.State, run.Status.StartTime)
	}
	// member-c is two minors behind 1.31.2: the profile's run skips it, naming the way back.
	for _, m := range run.Status.Members() {
		if m.Name == "member-c" && (m.State != update.StateSkipped || !strings.Contains(m.Message, "bring it back with a manual update run to 1.30.4")) {
			t.Errorf("member-c: %s %q", m.State, m.Message)
		}
	}
	if p, _ := h2.GetAutoUpgradeProfile(ctx, "images"); p.Status.LastRun != "images-20261121-140000" ||
		!slices.Equal(p.Status.LastTriggerUpgradeVersions, []string{"AKSUbuntu-2204gen2containerd-202611.21.0"}) {
		t.Errorf("images: %+v", p.Status)
	}
	if p, _ := h2.GetAutoUpgradeProfile(ctx, "off"); len(p.Status.Runs) != 0 || p.Status.LastRun != "" {
		t.Errorf("a disabled profile triggered: %+v", p.Status)
	}
	// Both runs completed: upgrades for good, member-c untouched by the Kubernetes run.
	if got := versions(t, h2); got != "member-a=1.31.2/202611.21.0 member-b=1.31.2/202611.21.0 member-c=1.29.9/202611.21.0" {
		t.Errorf("fleet after the runs: %s", got)
	}

	// Reading again, in this process and another, triggers nothing new.
	h3 := profileHub(t, dir, testNow.Add(48*time.Hour))
	for _, hh := range []*Hub{h2, h3} {
		if p, _ := hh.GetAutoUpgradeProfile(ctx, "rapid"); len(p.Status.Runs) != 1 {
			t.Fatalf("triggered again: %v", p.Status.Runs)
		}
	}

	// Reads stored nothing; a write stores the world as the reads saw it.
	if _, err := h3.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: "later"}}, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
	// A release added to the catalog later, dated before the profile's last
	// stored trigger, triggers when the hub first sees it.
	writeInventory(t, dir, profileInventory("      - { version: 1.31.3, released_at: \"2026-11-21T12:30:00Z\" }\n"))
	h4 := profileHub(t, dir, testNow.Add(72*time.Hour))
	p, _ = h4.GetAutoUpgradeProfile(ctx, "rapid")
	if !slices.Equal(p.Status.Runs, []string{"rapid-20261121-130000", "rapid-20261124-120000"}) || !p.Status.LastTriggeredAt.Equal(testNow.Add(72*time.Hour)) {
		t.Fatalf("after a late release: %+v", p.Status)
	}
}

// Several provider processes reading at once trigger a release once.
func TestProfileTriggersOnceAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	writeInventory(t, dir, profileInventory(""))
	putProfile(t, profileHub(t, dir, testNow), "rapid", update.ProfileSpec{Channel: update.ChannelRapid})
	// Four processes start at once, a day on: each opening resolves the
	// fleet, which fires the trigger due.
	hubs := make([]*Hub, 4)
	var wg sync.WaitGroup
	for i := range hubs {
		wg.Go(func() {
			d := 10 * time.Minute
			h, err := New(Config{FleetFile: filepath.Join(dir, "fleet.yaml"), StatePath: filepath.Join(dir, "state.db"),
				Clock: ClockConfig{Mode: ClockFixed, Time: testNow.Add(24 * time.Hour)}, UpgradeDuration: &d})
			if err != nil {
				t.Error(err)
				return
			}
			if _, err := h.GetAutoUpgradeProfile(context.Background(), "rapid"); err != nil {
				t.Error(err)
			}
			hubs[i] = h
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	p, err := hubs[0].GetAutoUpgradeProfile(context.Background(), "rapid")
	if err != nil || len(p.Status.Runs) != 1 {
		t.Fatalf("runs %v, %v; want exactly one", p.Status.Runs, err)
	}
}

// The race itself, made certain: two processes both read the trigger due
// (their reads show the run it starts, which neither stores); both then
// write. The write that comes first fires it; the second finds it fired.
func TestProfileTriggerFiredOnce(t *testing.T) {
	dir := t.TempDir()
	writeInventory(t, dir, profileInventory(""))
	ctx := context.Background()
	putProfile(t, profileHub(t, dir, testNow), "rapid", update.ProfileSpec{Channel: update.ChannelRapid})
	a := profileHub(t, dir, testNow.Add(24*time.Hour))
	b := profileHub(t, dir, testNow.Add(24*time.Hour))
	before, _ := a.Store().TxID()
	for _, h := range []*Hub{a, b} {
		if p, err := h.GetAutoUpgradeProfile(ctx, "rapid"); err != nil || !slices.Equal(p.Status.Runs, []string{"rapid-20261121-130000"}) {
			t.Fatalf("the read does not show the run the trigger starts: %+v, %v", p, err)
		}
	}
	if after, _ := a.Store().TxID(); after != before {
		t.Fatalf("reads wrote: transaction %d, then %d", before, after)
	}
	for i, h := range []*Hub{a, b} {
		if _, err := h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: fmt.Sprintf("s%d", i)}}, store.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
	if p, _ := b.GetAutoUpgradeProfile(ctx, "rapid"); !slices.Equal(p.Status.Runs, []string{"rapid-20261121-130000"}) {
		t.Fatalf("runs %v, want exactly the one the reads showed", p.Status.Runs)
	}
	r, err := a.Store().Get(store.BucketRuns, "rapid-20261121-130000")
	if err != nil || r.ETag == "" {
		t.Fatalf("the first write did not store the run: %v", err)
	}
}

// Re-enabling a profile starts from its channel then: a release made while
// it was disabled never triggers it.
func TestProfileReenabledStartsFromNow(t *testing.T) {
	dir := t.TempDir()
	writeInventory(t, dir, profileInventory(""))
	ctx := context.Background()
	putProfile(t, profileHub(t, dir, testNow), "rapid", update.ProfileSpec{Channel: update.ChannelRapid, Disabled: true})
	h := profileHub(t, dir, testNow.Add(24*time.Hour))
	putProfile(t, h, "rapid", update.ProfileSpec{Channel: update.ChannelRapid})
	if p, _ := profileHub(t, dir, testNow.Add(48*time.Hour)).GetAutoUpgradeProfile(ctx, "rapid"); len(p.Status.Runs) != 0 {
		t.Fatalf("a release made while disabled triggered: %v", p.Status.Runs)
	}
}

// GenerateUpdateRun creates the run a trigger would, not started, and
// refuses when the channel resolves to nothing.
func TestGenerateUpdateRunFromProfile(t *testing.T) {
	dir := t.TempDir()
	writeInventory(t, dir, profileInventory(""))
	ctx := context.Background()
	h := profileHub(t, dir, testNow)
	putProfile(t, h, "rapid", update.ProfileSpec{Channel: update.ChannelRapid, NodeImageSelectionType: update.NodeImageConsistent})
	name, err := h.GenerateUpdateRun(ctx, "rapid")
	if err != nil {
		t.Fatal(err)
	}
	run, err := h.GetUpdateRun(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status.State != update.StateNotStarted || run.AutoUpgrade == nil || run.AutoUpgrade.Profile != "rapid" ||
		run.Spec.ManagedClusterUpdate.Upgrade != (update.Upgrade{Type: update.UpgradeFull, KubernetesVersion: "1.30.4"}) ||
		run.Spec.ManagedClusterUpdate.NodeImageSelection.Type != update.NodeImageConsistent {
		t.Fatalf("generated: %+v", run)
	}
	putProfile(t, h, "lts", update.ProfileSpec{Channel: update.ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.27"})
	var invalid *hub.InvalidError
	if _, err := h.GenerateUpdateRun(ctx, "lts"); err == nil || !errors.As(err, &invalid) {
		t.Fatalf("generate from a channel that resolves to nothing: %v", err)
	}
}

// A triggered run sees the members as they were at its instant: two
// releases a day apart, read once two days later, upgrade a member through
// both (1.30.4 → 1.31.2 → 1.32.0), as reading after each would.
func TestProfileTriggersInOrder(t *testing.T) {
	doc := profileInventory("      - { version: 1.32.0, released_at: \"2026-11-22T13:00:00Z\" }\n")
	final := map[string]string{}
	for _, reads := range [][]time.Duration{{48 * time.Hour}, {24 * time.Hour, 48 * time.Hour}} {
		dir := t.TempDir()
		writeInventory(t, dir, doc)
		putProfile(t, profileHub(t, dir, testNow), "rapid", update.ProfileSpec{Channel: update.ChannelRapid})
		var h *Hub
		for _, d := range reads {
			h = profileHub(t, dir, testNow.Add(d))
			if _, err := h.GetAutoUpgradeProfile(context.Background(), "rapid"); err != nil {
				t.Fatal(err)
			}
		}
		final[fmt.Sprint(reads)] = versions(t, h)
	}
	want := "member-a=1.32.0/202611.21.0 member-b=1.32.0/202611.21.0 member-c=1.29.9/202610.27.0" // no node-image profile: member-c untouched
	for reads, got := range final {
		if got != want {
			t.Errorf("read at %s: %s, want %s", reads, got, want)
		}
	}
}

// A generated run's name stays within the name rule for the longest profile
// names; a profile's strategy must exist.
func TestProfileNamesAndStrategy(t *testing.T) {
	long := strings.Repeat("p", update.MaxNameLength)
	if n := generatedRunName(long, testNow) + "-99"; update.ValidateName("update run", n) != nil {
		t.Errorf("%s: %v", n, update.ValidateName("update run", n))
	}
	if n := generatedRunName("rapid", testNow); n != "rapid-20261121-120000" {
		t.Errorf("short name cut: %s", n)
	}
	dir := t.TempDir()
	writeInventory(t, dir, profileInventory(""))
	h := profileHub(t, dir, testNow)
	var invalid *hub.InvalidError
	if _, err := h.PutAutoUpgradeProfile(context.Background(), hub.AutoUpgradeProfile{Meta: hub.Meta{Name: "p"},
		Spec: update.ProfileSpec{Channel: update.ChannelStable, UpdateStrategyID: "nope"}}, store.Precondition{}); !errors.As(err, &invalid) {
		t.Fatalf("a profile with a missing strategy: %v, want an *hub.InvalidError", err)
	}
}
