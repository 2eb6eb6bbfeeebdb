package mock

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// eightClusters is a fleet of c1…c8 and a hub cluster whose namespace web
// holds a ConfigMap (data: version) and a Job, a kind whose availability
// Fleet does not track: each cluster counts as available
// unavailable_period_seconds (60) after it applied.
func eightClusters(version, failing string) string {
	var b strings.Builder
	b.WriteString("regions: [{ name: r }]\nclusters:\n")
	for i := 1; i <= 8; i++ {
		name := fmt.Sprintf("c%d", i)
		fails := ""
		if strings.Contains(","+failing+",", ","+name+",") {
			fails = `, failures: { placement: "admission webhook denied the request" }`
		}
		fmt.Fprintf(&b, "  - { name: %s, region: r%s }\n", name, fails)
	}
	fmt.Fprintf(&b, `hub_cluster:
  namespaces:
    - name: web
      objects:
        - { kind: ConfigMap, name: settings, data: { version: "%s" } }
        - { group: batch, kind: Job, name: migrate }
`, version)
	return b.String()
}

// rolloutState is each cluster's RolloutStarted/Applied state in a line.
func rolloutState(p *hub.Placement) string {
	var out []string
	for _, c := range p.Status.Clusters {
		last := c.Conditions[len(c.Conditions)-1]
		out = append(out, c.Cluster+"="+last.Type+"/"+last.Status)
	}
	return strings.Join(out, " ")
}

// TestPlacementRollsOutInBatches: a placement over 8 clusters with
// max_unavailable 25% rolls a resource change out two clusters at a time,
// each pair unavailable_period_seconds after the last, on the hub's clock
// with no daemon; a cluster whose apply fails holds one of the two.
func TestPlacementRollsOutInBatches(t *testing.T) {
	h, file := newTestHub(t, eightClusters("1", ""))
	now := testNow
	h.clock = &Clock{cfg: ClockConfig{Mode: ClockScaled, Time: testNow, Scale: 1}, anchor: testNow, real: func() time.Time { return now }}
	ctx := context.Background()
	quarter := "25%"
	p := hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
		Strategy:          placement.Strategy{Type: placement.RollingUpdateStrategy, RollingUpdate: &placement.RollingUpdate{MaxUnavailable: &quarter}},
	}}
	got, err := h.ApplyPlacement(ctx, p, hub.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Clusters) != 8 || !strings.Contains(rolloutState(got), "c8=Available/True") || got.Status.Rollout != "" {
		t.Fatalf("a new placement is on every cluster at once: %s (%s)", rolloutState(got), got.Status.Rollout)
	}
	if want := []string{"v1 Namespace web", "v1 ConfigMap web/settings", "batch/v1 Job web/migrate"}; !slices.Equal(resourceNames(got), want) {
		t.Errorf("selected resources %v, want %v", resourceNames(got), want)
	}
	// Changed 5 minutes later, when every cluster has been available for
	// long: the new resources go to c1 and c2 at once, c3 and c4 when c1 and
	// c2 count as available again, and so on.
	rewrite(t, h, file, eightClusters("2", ""))
	var updated []int
	for _, after := range []time.Duration{0, 30 * time.Second, time.Minute, 2 * time.Minute, 3 * time.Minute, 4 * time.Minute} {
		now = testNow.Add(5*time.Minute + after)
		got, err = h.GetPlacement(ctx, "web")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, b := range got.Status.Bindings {
			if b.Index == 1 {
				n++
			}
		}
		updated = append(updated, n)
	}
	if !slices.Equal(updated, []int{2, 2, 4, 6, 8, 8}) {
		t.Errorf("clusters on the new resources at +0, +30s, +1m, +2m, +3m, +4m: %v, want [2 2 4 6 8 8]", updated)
	}
	if c := got.Status.Conditions[len(got.Status.Conditions)-1]; c.Type != placement.CondAvailable || c.Status != "True" {
		t.Errorf("after the rollout: %+v", got.Status.Conditions)
	}

	// A failing cluster: the next change stops at it.
	rewrite(t, h, file, eightClusters("3", "c1,c2"))
	now = testNow.Add(10 * time.Minute)
	if got, err = h.GetPlacement(ctx, "web"); err != nil {
		t.Fatal(err)
	}
	now = testNow.Add(20 * time.Minute)
	if got, err = h.GetPlacement(ctx, "web"); err != nil {
		t.Fatal(err)
	}
	if s := rolloutState(got); !strings.HasPrefix(s, "c1=Applied/False c2=Applied/False c3=RolloutStarted/False") {
		t.Errorf("two failed clusters stop the rollout: %s", s)
	}
	if !strings.HasPrefix(got.Status.Rollout, "blocked: 6 cluster(s)") || len(got.Status.Clusters[0].FailedPlacements) != 3 {
		t.Errorf("rollout %q, failed placements %+v", got.Status.Rollout, got.Status.Clusters[0].FailedPlacements)
	}
	// The failure cleared: c1 and c2 apply again and, a minute later, count
	// as available: the rollout resumes.
	rewrite(t, h, file, eightClusters("3", ""))
	now = testNow.Add(30 * time.Minute)
	if got, err = h.GetPlacement(ctx, "web"); err != nil {
		t.Fatal(err)
	}
	now = testNow.Add(31 * time.Minute)
	if got, err = h.GetPlacement(ctx, "web"); err != nil {
		t.Fatal(err)
	}
	if s := rolloutState(got); !strings.HasPrefix(s, "c1=Available/True c2=Available/True c3=Available/True c4=Available/True c5=RolloutStarted/False") {
		t.Errorf("after the failure cleared: %s", s)
	}
}

func resourceNames(p *hub.Placement) []string {
	var out []string
	for _, r := range p.Status.SelectedResources {
		out = append(out, r.String())
	}
	return out
}
