package store

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
)

// BenchmarkLoadPlacement1k reads a stored placement holding 1,000 clusters
// (their decisions and bindings, about 270 KB): cold, as a provider
// process's first read of it decodes it, and warm, as a wait that polls its
// rollout reads it again (LoadPlacement keeps what it decoded).
func BenchmarkLoadPlacement1k(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "s.db"))
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	p := Placement{Spec: placement.Spec{Name: "web", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}}},
		Status: PlacementStatus{Rollout: &placement.RolloutState{Index: 1, Digest: "d", IndexAt: now, At: now}}}
	for i := range 1000 {
		name := fmt.Sprintf("member-%04d", i)
		p.Status.Selected = append(p.Status.Selected, name)
		p.Status.Decisions = append(p.Status.Decisions, placement.Decision{ClusterName: name, Selected: true, Reason: placement.ReasonPicked})
		p.Status.Rollout.Bindings = append(p.Status.Rollout.Bindings, placement.Binding{Cluster: name, Index: i % 2, AppliedAt: now.Add(time.Duration(i) * time.Second), Since: now})
	}
	if _, err := Save(s, BucketPlacements, "web", &p, Precondition{}, now); err != nil {
		b.Fatal(err)
	}
	for _, warm := range []bool{false, true} {
		b.Run(map[bool]string{false: "cold", true: "warm"}[warm], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !warm {
					s.ForgetReads()
				}
				if got, _, err := LoadPlacement(s, "web"); err != nil || len(got.Status.Rollout.Bindings) != 1000 {
					b.Fatal(err)
				}
			}
		})
	}
}
