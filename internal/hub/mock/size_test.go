package mock

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// Size targets of issue 10 (item 2), at 200 PickN placements over a
// 5,000-cluster fleet: each placement record is bounded like Fleet's own
// status, and deleting objects gives their space back.
const (
	maxPlacementRecord = 20 << 10 // bytes per placement record
	maxStateAfterApply = 5 << 20  // the database after 200 placements
	// After destroy the file is back near its empty size (the inventory
	// snapshot and the meta bucket): within a quarter of it, or below the
	// size at which the store starts compacting.
	maxStateShareAfterDestroy = 4
)

// scaleSpec is placement i of the measurement (and of
// scripts/bench-plan.sh): PickN 3–7 clusters with a required label, a
// preferred label and a property sorter, tolerating the fleet's taint.
func scaleSpec(i int) placement.Spec {
	envs, tiers := []string{"prod", "staging", "dev"}, []string{"gold", "silver", "bronze"}
	return placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: fmt.Sprintf("app-%d", i)}},
		Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: new(3 + i%5),
			Affinity: &placement.Affinity{
				Required: []placement.ClusterSelectorTerm{{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"env": envs[i%3]}}}},
				Preferred: []placement.PreferredTerm{
					{Weight: 40, Preference: placement.ClusterSelectorTerm{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"tier": tiers[i%3]}}}},
					{Weight: 60, Preference: placement.ClusterSelectorTerm{PropertySorter: &placement.PropertySorter{Name: "kubernetes.azure.com/per-cpu-core-cost", SortOrder: placement.Ascending}}},
				},
			},
			Tolerations: []placement.Toleration{{Key: "dedicated", Operator: placement.TolerationOpExists}},
		},
	}
}

func fileSize(t testing.TB, s *store.Store) int64 {
	t.Helper()
	n, err := s.Size()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStateSizeAtFleetScale applies 200 PickN placements over a
// 5,000-cluster fleet through the hub, then deletes them all, and measures
// the records and the database file.
func TestStateSizeAtFleetScale(t *testing.T) {
	if testing.Short() {
		t.Skip("schedules 200 placements over 5,000 clusters")
	}
	const placements, clusters = 200, 5000
	dir := t.TempDir()
	file := filepath.Join(dir, "fleet.yaml")
	must(t, os.WriteFile(file, fleetgen.Generate(fleetgen.Options{Clusters: clusters, Seed: 1, StaleEvery: 50, TaintEvery: 40}), 0o644))
	path := filepath.Join(dir, "state.db")
	h, err := New(Config{FleetFile: file, StatePath: path, Clock: ClockConfig{Mode: ClockFixed, Time: testNow}})
	must(t, err)
	ctx := context.Background()
	// The first write stores the decoded inventory (the hub's cache): the
	// database without objects.
	_, err = h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: "first"}}, store.Precondition{})
	must(t, err)
	empty := fileSize(t, h.Store())
	etags := make([]string, placements)
	for i := range placements {
		p, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: fmt.Sprintf("app-%d", i)}, Spec: scaleSpec(i)}, store.Precondition{IfNoneMatch: true})
		must(t, err)
		etags[i] = p.ETag
	}
	var largest, total int
	must(t, h.Store().View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(store.BucketPlacements)).ForEach(func(_, v []byte) error {
			largest, total = max(largest, len(v)), total+len(v)
			return nil
		})
	}))
	applied := fileSize(t, h.Store())
	t.Logf("%d compactions while applying", h.Store().Compactions())
	for i := range placements {
		must(t, h.DeletePlacement(ctx, fmt.Sprintf("app-%d", i), store.Precondition{IfMatch: etags[i]}))
	}
	destroyed := fileSize(t, h.Store())

	t.Logf("placement record: largest %.1f KB, mean %.1f KB", float64(largest)/1024, float64(total)/placements/1024)
	t.Logf("database: empty %.2f MB, after %d placements %.2f MB, after deleting them %.2f MB (%d compactions)",
		float64(empty)/(1<<20), placements, float64(applied)/(1<<20), float64(destroyed)/(1<<20), h.Store().Compactions())
	if largest > maxPlacementRecord {
		t.Errorf("a placement record takes %d bytes, want at most %d", largest, maxPlacementRecord)
	}
	if applied > maxStateAfterApply {
		t.Errorf("the database takes %d bytes after %d placements, want at most %d", applied, placements, maxStateAfterApply)
	}
	if destroyed > max(empty+empty/maxStateShareAfterDestroy, store.CompactFloor+store.GrowStep) {
		t.Errorf("the database takes %d bytes after deleting every placement, was %d empty", destroyed, empty)
	}
}
