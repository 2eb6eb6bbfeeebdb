package mock

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// Reads are reads (designs/hub.md §2): a day after the last write — a
// profile's trigger due, a run on, the fleet's inventory edited — every
// read of the hub shows that world and writes nothing; the next write
// stores it.
func TestReadsWriteNothing(t *testing.T) {
	dir := t.TempDir()
	writeInventory(t, dir, profileInventory(""))
	ctx := context.Background()
	h := profileHub(t, dir, testNow)
	putProfile(t, h, "rapid", update.ProfileSpec{Channel: update.ChannelRapid})
	two := 2
	if _, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: placement.Spec{
		Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &two}}}, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
	writeInventory(t, dir, profileInventory("      - { version: 1.31.3, released_at: \"2026-11-21T18:00:00Z\" }\n"))

	later := profileHub(t, dir, testNow.Add(24*time.Hour)) // a new process, a day on
	before, err := later.Store().TxID()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := later.Fleet(ctx); err != nil {
		t.Fatal(err)
	}
	p, err := later.GetAutoUpgradeProfile(ctx, "rapid")
	if err != nil || p.Status.LastRun == "" {
		t.Fatalf("the profile does not show its trigger's run: %+v, %v", p, err)
	}
	run, err := later.GetUpdateRun(ctx, p.Status.LastRun)
	if err != nil || run.Status.State != update.StateCompleted {
		t.Fatalf("the run the trigger started: %+v, %v", run, err)
	}
	if runs, err := later.ListNames(ctx, store.BucketRuns); err != nil || !slices.Contains(runs, p.Status.LastRun) {
		t.Fatalf("listed runs %v, %v", runs, err)
	}
	if _, err := later.GetPlacement(ctx, "web"); err != nil {
		t.Fatal(err)
	}
	if _, err := later.HubResources(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if after, _ := later.Store().TxID(); after != before {
		t.Fatalf("reads wrote: transaction %d, then %d", before, after)
	}
	if _, err := later.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: "s"}}, store.Precondition{}); err != nil {
		t.Fatal(err)
	}
	if _, err := later.Store().Get(store.BucketRuns, p.Status.LastRun); err != nil {
		t.Fatalf("the write did not store the run the reads showed: %v", err)
	}
}
