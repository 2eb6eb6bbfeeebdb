package placement

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

var rollT0 = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// boundOn is n clusters c1…cn bound on snapshot index, applied long ago.
func boundOn(n, index int) []Binding {
	var out []Binding
	for i := 1; i <= n; i++ {
		out = append(out, Binding{Cluster: fmt.Sprintf("c%d", i), Index: index, AppliedAt: rollT0.Add(-time.Hour)})
	}
	return out
}

func batchLines(p RolloutPlan) []string {
	var out []string
	for _, b := range p.Batches {
		line := fmt.Sprintf("+%s %s", b.At.Sub(rollT0), strings.Join(b.Clusters, ","))
		if len(b.Failed) > 0 {
			line += " failed " + strings.Join(b.Failed, ",")
		}
		out = append(out, line)
	}
	return out
}

func rollingSpec(maxUnavailable string) Spec {
	s := spec(Policy{})
	s.Strategy = Strategy{Type: RollingUpdateStrategy, RollingUpdate: &RollingUpdate{MaxUnavailable: &maxUnavailable}}
	return s
}

// TestPlanRollout is Fleet's rollout controller (pickBindingsToRoll,
// calculateMaxToRemove, calculateMaxToAdd, isBindingReady): 8 clusters on
// snapshot 0, a new snapshot, max_unavailable 25% (2 of 8, rounded up).
func TestPlanRollout(t *testing.T) {
	for _, c := range []struct {
		name      string
		in        RolloutInput
		want      []string
		blocked   []string
		doneAfter time.Duration // when the last batch applies; -1: never
	}{
		{"tracked resources: each batch as soon as the last is available",
			RolloutInput{Spec: rollingSpec("25%"), Latest: 1, Bindings: boundOn(8, 0)},
			[]string{"+0s c1,c2", "+0s c3,c4", "+0s c5,c6", "+0s c7,c8"}, nil, 0},
		{"untracked: each cluster available unavailable_period_seconds (60) after it applied",
			RolloutInput{Spec: rollingSpec("25%"), Latest: 1, Bindings: boundOn(8, 0), Untracked: true},
			[]string{"+0s c1,c2", "+1m0s c3,c4", "+2m0s c5,c6", "+3m0s c7,c8"}, nil, 3 * time.Minute},
		{"a failed cluster keeps one of the two unavailable: one at a time after it",
			RolloutInput{Spec: rollingSpec("25%"), Latest: 1, Bindings: boundOn(8, 0), Untracked: true, Failing: map[string]string{"c2": "quota"}},
			[]string{"+0s c1,c2 failed c2", "+1m0s c3", "+2m0s c4", "+3m0s c5", "+4m0s c6", "+5m0s c7", "+6m0s c8"}, nil, -1},
		{"two failed clusters stop the rollout",
			RolloutInput{Spec: rollingSpec("25%"), Latest: 1, Bindings: boundOn(8, 0), Untracked: true, Failing: map[string]string{"c1": "quota", "c2": "quota"}},
			[]string{"+0s c1,c2 failed c1,c2"}, []string{"c3", "c4", "c5", "c6", "c7", "c8"}, -1},
		{"a new placement binds every cluster at once (max_surge on top of the target)",
			RolloutInput{Spec: rollingSpec("25%"), Latest: 0, Bindings: []Binding{{Cluster: "a", Index: -1}, {Cluster: "b", Index: -1}, {Cluster: "c", Index: -1}}},
			[]string{"+0s a,b,c"}, nil, 0},
		{"max_unavailable 1 of 3: one by one",
			RolloutInput{Spec: rollingSpec("1"), Latest: 2, Bindings: boundOn(3, 1), Untracked: true},
			[]string{"+0s c1", "+1m0s c2", "+2m0s c3"}, nil, 2 * time.Minute},
		{"a cluster on the latest snapshot already is not rolled again",
			RolloutInput{Spec: rollingSpec("50%"), Latest: 1, Bindings: append(boundOn(3, 0), Binding{Cluster: "c4", Index: 1, AppliedAt: rollT0.Add(-time.Hour)})},
			[]string{"+0s c1,c2", "+0s c3"}, nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.in.Now = rollT0
			p := PlanRollout(c.in)
			if got := batchLines(p); !slices.Equal(got, c.want) {
				t.Errorf("batches\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if !slices.Equal(p.Blocked, c.blocked) {
				t.Errorf("blocked %v, want %v", p.Blocked, c.blocked)
			}
			switch {
			case c.doneAfter < 0 && !p.Done.IsZero():
				t.Errorf("done at %s, want no end", p.Done)
			case c.doneAfter >= 0 && !p.Done.Equal(rollT0.Add(c.doneAfter)):
				t.Errorf("done at %s, want +%s", p.Done, c.doneAfter)
			}
		})
	}
}

// TestPlanRolloutExternal: with the External strategy Fleet's rollout
// controller moves nothing.
func TestPlanRolloutExternal(t *testing.T) {
	s := spec(Policy{})
	s.Strategy = Strategy{Type: ExternalStrategy}
	p := PlanRollout(RolloutInput{Spec: s, Latest: 1, Bindings: boundOn(4, 0), Now: rollT0})
	if !p.External || len(p.Batches) != 0 {
		t.Errorf("external: %+v", p)
	}
}

// describeExample is the placement of the placement document's
// `kubectl describe crp crp-1`: PickN 2, the namespace test with the
// ConfigMap test-1, on aks-member-1 and aks-member-2.
func describeExample() (Spec, Selection, []Decision) {
	s := spec(pickN(2))
	s.Name = "crp-1"
	s.ResourceSelectors = []ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "test"}}
	hub := fleet.HubResources{APIs: []fleet.APIResource{{Version: "v1", Kind: "Namespace"}, {Version: "v1", Kind: "ConfigMap", Namespaced: true}},
		Objects: []fleet.HubObject{{ResourceID: ResourceID{Version: "v1", Kind: "Namespace", Name: "test"}},
			{ResourceID: ResourceID{Version: "v1", Kind: "ConfigMap", Namespace: "test", Name: "test-1"}}}}
	decisions := []Decision{{ClusterName: "aks-member-1", Selected: true, Reason: "picked by scheduling policy"},
		{ClusterName: "aks-member-2", Selected: true, Reason: "picked by scheduling policy"}}
	return s, SelectResources(s.ResourceSelectors, hub), decisions
}

// TestRolloutStatusDescribeExample reproduces the document's `kubectl
// describe crp crp-1` in the v1 API's conditions: both clusters scheduled
// with their scores, the resources applied and available, the placement's
// conditions all True, and the selected resources Namespace test and
// ConfigMap test/test-1.
func TestRolloutStatusDescribeExample(t *testing.T) {
	s, sel, decisions := describeExample()
	in := RolloutInput{Spec: s, Latest: 0, Now: rollT0,
		Bindings: []Binding{{Cluster: "aks-member-1", Index: 0, AppliedAt: rollT0}, {Cluster: "aks-member-2", Index: 0, AppliedAt: rollT0}}}
	st := RolloutStatus("crp-1", in, PlanRollout(in), decisions, sel)
	var got []string
	for _, r := range sel.Resources {
		got = append(got, r.String())
	}
	if want := []string{"v1 Namespace test", "v1 ConfigMap test/test-1"}; !slices.Equal(got, want) {
		t.Errorf("selected resources %v, want %v", got, want)
	}
	if len(st.Clusters) != 2 {
		t.Fatalf("clusters %+v", st.Clusters)
	}
	c1 := st.Clusters[0]
	if c1.Cluster != "aks-member-1" || c1.Conditions[0].Message != "Successfully scheduled resources for placement in aks-member-1 (affinity score: 0, topology spread score: 0): picked by scheduling policy" {
		t.Errorf("aks-member-1 scheduled: %+v", c1.Conditions[0])
	}
	var types []string
	for _, c := range c1.Conditions {
		types = append(types, c.Type+"="+c.Status+"/"+c.Reason)
	}
	if want := []string{"Scheduled=True/Scheduled", "RolloutStarted=True/RolloutStarted", "Overridden=True/NoOverrideSpecified",
		"WorkSynchronized=True/AllWorkSynced", "Applied=True/AllWorkHaveBeenApplied", "Available=True/AllWorkAreAvailable"}; !slices.Equal(types, want) {
		t.Errorf("cluster conditions %v, want %v", types, want)
	}
	var placementLevel []string
	for _, c := range st.Conditions {
		placementLevel = append(placementLevel, c.Type+"="+c.Status+"/"+c.Reason+": "+c.Message)
	}
	want := []string{
		"ClusterResourcePlacementRolloutStarted=True/RolloutStarted: All 2 cluster(s) start rolling out the latest resource",
		"ClusterResourcePlacementOverridden=True/NoOverrideSpecified: No override rules are configured for the selected resources",
		"ClusterResourcePlacementWorkSynchronized=True/WorkSynchronized: Works(s) are succcesfully created or updated in 2 target cluster(s)' namespaces",
		"ClusterResourcePlacementApplied=True/ApplySucceeded: The selected resources are successfully applied to 2 cluster(s)",
		"ClusterResourcePlacementAvailable=True/ResourceAvailable: The selected resources in 2 cluster(s) are available now",
	}
	if !slices.Equal(placementLevel, want) {
		t.Errorf("placement conditions\n%s\nwant\n%s", strings.Join(placementLevel, "\n"), strings.Join(want, "\n"))
	}
}

// TestRolloutStatusFailedAndBlocked: a cluster whose apply fails reports
// Applied False with the resources that failed (Fleet lists them in
// failedPlacements), the placement's Applied is False and no Available
// follows; clusters the strategy holds back report RolloutNotStartedYet,
// and then the placement's RolloutStarted is False and nothing follows it.
func TestRolloutStatusFailedAndBlocked(t *testing.T) {
	s, sel, decisions := describeExample()
	in := RolloutInput{Spec: s, Latest: 1, Now: rollT0, Failing: map[string]string{"aks-member-1": "admission webhook denied the request"},
		Bindings: []Binding{{Cluster: "aks-member-1", Index: 1, AppliedAt: rollT0, Failed: true}, {Cluster: "aks-member-2", Index: 1, AppliedAt: rollT0}}}
	st := RolloutStatus("crp-1", in, PlanRollout(in), decisions, sel)
	c1 := st.Clusters[0]
	last := c1.Conditions[len(c1.Conditions)-1]
	if last.Type != ClusterApplied || last.Status != StatusFalse || last.Message != "Work object crp-1-work is not applied" {
		t.Errorf("failed cluster's last condition %+v", last)
	}
	if len(c1.FailedPlacements) != 2 || c1.FailedPlacements[1].Name != "test-1" || c1.FailedPlacements[1].Condition.Message != "admission webhook denied the request" {
		t.Errorf("failed placements %+v", c1.FailedPlacements)
	}
	if n := len(st.Conditions); n != 4 || st.Conditions[3].Reason != "ApplyFailed" ||
		st.Conditions[3].Message != "Failed to apply resources to 1 cluster(s), please check the `failedPlacements` status" {
		t.Errorf("placement conditions %+v", st.Conditions)
	}

	in = RolloutInput{Spec: s, Latest: 1, Now: rollT0, Bindings: []Binding{{Cluster: "aks-member-1", Index: 1, AppliedAt: rollT0}, {Cluster: "aks-member-2", Index: 0, AppliedAt: rollT0}}}
	st = RolloutStatus("crp-1", in, PlanRollout(in), decisions, sel)
	if c := st.Clusters[1].Conditions[1]; c.Reason != "RolloutNotStartedYet" || len(st.Clusters[1].Conditions) != 2 {
		t.Errorf("held back cluster %+v", st.Clusters[1].Conditions)
	}
	if len(st.Conditions) != 1 || st.Conditions[0].Message != "The rollout is being blocked by the rollout strategy in 1 cluster(s)" {
		t.Errorf("placement conditions %+v", st.Conditions)
	}
}

// TestUntracked is the work applier's availability tracker: data and the
// workloads it watches are tracked; anything else (a Job, an Ingress, a
// custom resource) is not, also inside an envelope.
func TestUntracked(t *testing.T) {
	ns := ResourceID{Version: "v1", Kind: "Namespace", Name: "web"}
	dep := ResourceID{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "web", Name: "api"}
	job := ResourceID{Group: "batch", Version: "v1", Kind: "Job", Namespace: "web", Name: "migrate"}
	env := ResourceID{Version: "v1", Kind: "ConfigMap", Namespace: "web", Name: "bundle"}
	if Untracked(Selection{Resources: []ResourceID{ns, dep}}) {
		t.Error("a Namespace and a Deployment are tracked")
	}
	if !Untracked(Selection{Resources: []ResourceID{ns, job}}) {
		t.Error("a Job is not tracked")
	}
	if !Untracked(Selection{Resources: []ResourceID{ns, env}, Contents: map[ResourceID][]ResourceID{env: {job}}}) {
		t.Error("a Job in an envelope is not tracked")
	}
}

// TestSelectionDigest: a resource's content or labels change the digest
// (a new resource snapshot), the same resources give the same one.
func TestSelectionDigest(t *testing.T) {
	h := exampleHub()
	sels := []ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}}
	a, b := SelectResources(sels, h), SelectResources(sels, h)
	if a.Digest == "" || a.Digest != b.Digest {
		t.Fatalf("digests %q %q", a.Digest, b.Digest)
	}
	h.Objects = slices.Clone(h.Objects)
	for i := range h.Objects {
		if h.Objects[i].Kind == "ConfigMap" && h.Objects[i].Name == "settings" {
			h.Objects[i].Content = "color=blue"
		}
	}
	if c := SelectResources(sels, h); c.Digest == a.Digest {
		t.Error("a content change keeps the digest")
	}
}

// jobRollout is a placement of the namespace web, max_unavailable 25%, on
// c1…c8, whose snapshot holds a Job (untracked: a cluster counts as
// available a minute after it applied).
func jobRollout() (Spec, *fleet.Fleet, []string) {
	s := rollingSpec("25%")
	s.ResourceSelectors = []ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}}
	hub := fleet.HubResources{APIs: []fleet.APIResource{{Version: "v1", Kind: "Namespace"}, {Group: "batch", Version: "v1", Kind: "Job", Namespaced: true}},
		Objects: []fleet.HubObject{{ResourceID: ResourceID{Version: "v1", Kind: "Namespace", Name: "web"}},
			{ResourceID: ResourceID{Group: "batch", Version: "v1", Kind: "Job", Namespace: "web", Name: "j"}, Content: "1"}}}
	var selected []string
	for _, b := range boundOn(8, 0) {
		selected = append(selected, b.Cluster)
	}
	return s, &fleet.Fleet{Hub: hub}, selected
}

// TestAdvanceRolloutKeepsThePastUnderItsStrategy: a strategy written while
// a rollout runs holds from its write on; the batches due before it ran
// under the old one (the mock replays from the instant it last stored).
func TestAdvanceRolloutKeepsThePastUnderItsStrategy(t *testing.T) {
	s25, f, selected := jobRollout()
	first := AdvanceRollout("web", s25, nil, true, selected, nil, f, rollT0.Add(-time.Hour))
	f.Hub.Objects[1].Content = "2" // a new snapshot at rollT0: c1, c2 go
	step := AdvanceRollout("web", s25, &first.State, false, selected, nil, f, rollT0)
	// 30 s later max_unavailable becomes 75%: the batch at +60s under 25%
	// has not come; the new budget moves more at once from now on.
	s75 := s25
	s75.Strategy = Strategy{Type: RollingUpdateStrategy, RollingUpdate: &RollingUpdate{MaxUnavailable: ptr("75%")}}
	later := AdvanceRollout("web", s75, &step.State, false, selected, nil, f, rollT0.Add(30*time.Second))
	var at0, at30 []string
	for _, b := range later.State.Bindings {
		switch {
		case b.Index == 1 && b.AppliedAt.Equal(rollT0):
			at0 = append(at0, b.Cluster)
		case b.Index == 1 && b.AppliedAt.Equal(rollT0.Add(30*time.Second)):
			at30 = append(at30, b.Cluster)
		}
	}
	if !slices.Equal(at0, []string{"c1", "c2"}) || !slices.Equal(at30, []string{"c3", "c4", "c5", "c6"}) {
		t.Errorf("updated at +0s %v (want c1, c2), at +30s %v (want c3…c6: 6 − (8 − 6) under 75%%)", at0, at30)
	}
}

func ptr[T any](v T) *T { return &v }

// TestMaxUnavailableZero: Fleet admits max_unavailable 0, and then a change
// of the resources reaches no cluster that has them: the plan warns, and the
// rollout says why it is blocked — not failed clusters, the budget.
func TestMaxUnavailableZero(t *testing.T) {
	s := rollingSpec("0")
	ws := Warnings(s, newFleet(cluster("a"), cluster("b")), Result{Selected: []string{"a", "b"}}, rollT0)
	if !slices.ContainsFunc(ws, func(w field.Warning) bool { return w.ID == WarnMaxUnavailableZero }) {
		t.Errorf("no %s warning: %v", WarnMaxUnavailableZero, ws)
	}
	p := PlanRollout(RolloutInput{Spec: s, Latest: 1, Bindings: boundOn(2, 0), Now: rollT0})
	if note := RolloutNote(p, rollT0); note != "blocked: 2 cluster(s) cannot be updated: max_unavailable is 0, so Fleet never takes a cluster that has the resources to the new ones" {
		t.Errorf("note %q", note)
	}
}

// A change of the fleet counts from when it changed (Fleet.ChangedAt), not
// from when a reader first sees it: a hub whose reads store nothing replays
// from the same stored state at every read, and finds the rollout where one
// that stored each step would be.
func TestAdvanceRolloutCountsFromTheChange(t *testing.T) {
	s, f, selected := jobRollout()
	stored := AdvanceRollout("web", s, nil, true, selected, nil, f, rollT0.Add(-time.Hour)).State
	changed := *f
	changed.Hub.Objects = slices.Clone(f.Hub.Objects)
	changed.Hub.Objects[1].Content = "2"
	changed.ChangedAt = rollT0 // the resources changed at rollT0, read later
	updated := func(st RolloutState) int {
		n := 0
		for _, b := range st.Bindings {
			if b.Index == 1 {
				n++
			}
		}
		return n
	}
	var got []int
	for _, after := range []time.Duration{0, 30 * time.Second, time.Minute, 2 * time.Minute, 3 * time.Minute} {
		st := AdvanceRollout("web", s, &stored, false, selected, nil, &changed, rollT0.Add(after)).State
		if !st.IndexAt.Equal(rollT0) {
			t.Errorf("read at +%s: the snapshot counts from %s, want the change at %s", after, st.IndexAt, rollT0)
		}
		got = append(got, updated(st))
	}
	if !slices.Equal(got, []int{2, 2, 4, 6, 8}) {
		t.Errorf("clusters on the new snapshot read at +0, +30s, +1m, +2m, +3m from the state before the change: %v, want [2 2 4 6 8]", got)
	}
	// Without ChangedAt (a hub that does not know it) the change counts from the read.
	changed.ChangedAt = time.Time{}
	if st := AdvanceRollout("web", s, &stored, false, selected, nil, &changed, rollT0.Add(3*time.Minute)).State; !st.IndexAt.Equal(rollT0.Add(3*time.Minute)) || updated(st) != 2 {
		t.Errorf("without ChangedAt: snapshot from %s, %d updated", st.IndexAt, updated(st))
	}
}

// A selected cluster's Scheduled message, as Fleet's scheduler words it:
// with the scores for a PickN placement (they may be negative), without for
// the others.
func TestScheduledMessage(t *testing.T) {
	d := Decision{ClusterName: "aks-member-3", Selected: true, AffinityScore: -20, TopologySpreadScore: 1}
	for _, c := range []struct {
		policy Policy
		want   string
	}{
		{Policy{PlacementType: PickN}, "Successfully scheduled resources for placement in aks-member-3 (affinity score: -20, topology spread score: 1): picked by scheduling policy"},
		{Policy{PlacementType: PickAll}, "Successfully scheduled resources for placement in aks-member-3: picked by scheduling policy"},
		{Policy{PlacementType: PickFixed}, "Successfully scheduled resources for placement in aks-member-3: picked by scheduling policy"},
	} {
		if got := ScheduledMessage(c.policy, d); got != c.want {
			t.Errorf("%s: %q, want %q", c.policy.PlacementType, got, c.want)
		}
	}
}
