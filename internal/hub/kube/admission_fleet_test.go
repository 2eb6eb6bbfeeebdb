//go:build admission

// Fleet's objects as the converters write them, sent to the shared API
// server (admission_test.go) under Fleet's ClusterResourcePlacement and
// ClusterResourceBinding CRDs and our ClusterSchedulingPolicySnapshot CRD:
// every object must be admitted, and what the server stores, with its
// defaults, must read back as what was written with the CRD's defaults.

package kube

import (
	"cmp"
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// placementCases are placements the engine accepts, together setting every
// field of the model, for every placement type, with unset, empty and
// explicit default values.
func placementCases() []placement.Spec {
	ns := []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}}
	full := fullPlacement()
	cases := []placement.Spec{
		full,
		{Name: "minimal", ResourceSelectors: ns},
		{Name: "pick-all-property", ResourceSelectors: ns, Policy: placement.Policy{PlacementType: placement.PickAll, Affinity: &placement.Affinity{
			Required: []placement.ClusterSelectorTerm{{PropertySelector: &selector.PropertySelector{MatchExpressions: []selector.PropertyExpression{
				{Name: "kubernetes-fleet.io/node-count", Operator: "Ge", Values: []string{"5"}},
				{Name: "resources.kubernetes-fleet.io/available-cpu", Operator: "Gt", Values: []string{"8"}},
			}}}},
		}, Tolerations: []placement.Toleration{{Key: "dedicated", Value: "gpu", Effect: placement.TaintEffectNoSchedule}}}},
		{Name: "pick-all-empty-lists", ResourceSelectors: ns, Policy: placement.Policy{PlacementType: placement.PickAll,
			ClusterNames: []string{}, TopologySpreadConstraints: []placement.TopologySpreadConstraint{}, Tolerations: []placement.Toleration{},
			Affinity: &placement.Affinity{Required: []placement.ClusterSelectorTerm{}}}},
		{Name: "pick-all-empty-affinity", ResourceSelectors: ns, Policy: placement.Policy{Affinity: &placement.Affinity{}}},
		{Name: "pick-fixed", ResourceSelectors: ns, Policy: placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{"member-2", "member-1"}}},
		{Name: "pick-fixed-no-names", ResourceSelectors: ns, Policy: placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{}}},
		{Name: "pick-n-zero", ResourceSelectors: ns, Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: ptr(0)},
			Strategy: placement.Strategy{Type: placement.ExternalStrategy}},
		{Name: "pick-n-sorter", ResourceSelectors: ns, Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: ptr(3), Affinity: &placement.Affinity{
			Preferred: []placement.PreferredTerm{{Weight: 100, Preference: placement.ClusterSelectorTerm{
				PropertySorter: &placement.PropertySorter{Name: "kubernetes.azure.com/per-cpu-core-cost", SortOrder: placement.Ascending}}}},
		}}, Strategy: placement.Strategy{RollingUpdate: &placement.RollingUpdate{MaxSurge: ptr("0")}}},
		{Name: "explicit-defaults", ResourceSelectors: ns, Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: ptr(2),
			TopologySpreadConstraints: []placement.TopologySpreadConstraint{{MaxSkew: ptr(1), TopologyKey: "region", WhenUnsatisfiable: placement.DoNotSchedule}},
			Tolerations:               []placement.Toleration{{Key: "k", Operator: placement.TolerationOpEqual, Value: "v"}}},
			Strategy: placement.Strategy{Type: placement.RollingUpdateStrategy, RollingUpdate: &placement.RollingUpdate{
				MaxUnavailable: ptr("25%"), MaxSurge: ptr("25%"), UnavailablePeriodSeconds: ptr(60)}},
			RevisionHistoryLimit: ptr(10)},
		{Name: "integer-rollout", ResourceSelectors: ns, Strategy: placement.Strategy{RollingUpdate: &placement.RollingUpdate{
			MaxUnavailable: ptr("3"), MaxSurge: ptr("100%"), UnavailablePeriodSeconds: ptr(0)}}, RevisionHistoryLimit: ptr(1000)},
	}
	slices.SortFunc(cases, func(a, b placement.Spec) int { return strings.Compare(a.Name, b.Name) })
	return cases
}

// withCRDDefaults is s with the defaults Fleet's CRD applies to what
// PlacementObject writes: the placement type (the policy is always
// written), a topology spread constraint's maxSkew and whenUnsatisfiable, a
// toleration's operator, the strategy type when a strategy is written, the
// rolling update's fields when it is written, and revisionHistoryLimit.
// Unlike the engine's WithDefaults, it adds no rolling update to a strategy
// without one: the CRD defaults no object.
func withCRDDefaults(s placement.Spec) placement.Spec {
	s.Policy.PlacementType = cmp.Or(s.Policy.PlacementType, placement.PickAll)
	s.Policy.TopologySpreadConstraints = mapSlice(s.Policy.TopologySpreadConstraints, func(c placement.TopologySpreadConstraint) placement.TopologySpreadConstraint {
		c.MaxSkew = cmp.Or(c.MaxSkew, ptr(placement.DefaultMaxSkew))
		c.WhenUnsatisfiable = cmp.Or(c.WhenUnsatisfiable, placement.DoNotSchedule)
		return c
	})
	s.Policy.Tolerations = mapSlice(s.Policy.Tolerations, func(t placement.Toleration) placement.Toleration {
		t.Operator = cmp.Or(t.Operator, placement.TolerationOpEqual)
		return t
	})
	if st := &s.Strategy; st.Type != "" || st.RollingUpdate != nil {
		st.Type = cmp.Or(st.Type, placement.RollingUpdateStrategy)
		if ru := st.RollingUpdate; ru != nil {
			st.RollingUpdate = &placement.RollingUpdate{
				MaxUnavailable:           cmp.Or(ru.MaxUnavailable, ptr(placement.DefaultMaxUnavailable)),
				MaxSurge:                 cmp.Or(ru.MaxSurge, ptr(placement.DefaultMaxSurge)),
				UnavailablePeriodSeconds: cmp.Or(ru.UnavailablePeriodSeconds, ptr(placement.DefaultUnavailablePeriodSeconds)),
			}
		}
	}
	s.RevisionHistoryLimit = cmp.Or(s.RevisionHistoryLimit, ptr(placement.DefaultRevisionHistoryLimit))
	return s
}

// TestPlacementAdmission: every placement of placementCases is admitted by
// Fleet's CRD, reads back as written with the CRD's defaults (and as the
// engine's defaults of what was written), is admitted again on an update,
// and takes the status SetPlacementStatus writes.
func TestPlacementAdmission(t *testing.T) {
	placements := apiServer(t).Resource(PlacementGVR)
	ctx := context.Background()
	for _, spec := range placementCases() {
		t.Run(spec.Name, func(t *testing.T) {
			if errs := placement.Validate(spec); len(errs) > 0 {
				t.Fatalf("the engine rejects the case: %v", errs)
			}
			// What the model reads back of what it wrote (empty lists as nil).
			_, sent, err := PlacementFromObject(PlacementObject(spec.Name, spec))
			if err != nil {
				t.Fatal(err)
			}
			created, err := placements.Create(ctx, PlacementObject(spec.Name, spec), metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("the API server rejects it: %v", err)
			}
			t.Cleanup(func() { deleteObject(t, placements, spec.Name) })
			checkPlacement(t, "created", created, withCRDDefaults(sent))

			got, err := placements.Get(ctx, spec.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkPlacement(t, "read", got, withCRDDefaults(sent))

			// An update of the spec passes the CRD's transition rules.
			spec.RevisionHistoryLimit = ptr(7)
			sent.RevisionHistoryLimit = ptr(7)
			update := PlacementObject(spec.Name, spec)
			update.SetResourceVersion(got.GetResourceVersion())
			updated, err := placements.Update(ctx, update, metav1.UpdateOptions{})
			if err != nil {
				t.Fatalf("the API server rejects an update: %v", err)
			}
			checkPlacement(t, "updated", updated, withCRDDefaults(sent))

			// The status a fixture playing Fleet writes.
			at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
			st := PlacementStatus{ObservedGeneration: updated.GetGeneration(), Conditions: []Condition{
				{Type: ConditionScheduled, Status: ConditionStatusFalse, Reason: ReasonUnfulfilled, Message: "could not find all clusters needed", LastTransitionTime: at},
				{Type: "ClusterResourcePlacementRolloutStarted", Status: ConditionStatusUnknown, Reason: "RolloutStartedUnknown", LastTransitionTime: at.Add(time.Minute)},
			}, Clusters: []string{"member-2", "member-1"}, Unscheduled: 1, ResourceIndex: 1,
				SelectedResources: []fleet.ResourceID{{Version: "v1", Kind: "Namespace", Name: "web"}, {Version: "v1", Kind: "ConfigMap", Namespace: "web", Name: "bundle"}},
				ClusterStatuses: []placement.ClusterStatus{
					{Cluster: "member-2", Conditions: []placement.Condition{
						{Type: "Scheduled", Status: "True", Reason: "Scheduled", Message: "picked by scheduling policy", LastTransitionTime: at},
						{Type: "RolloutStarted", Status: "False", Reason: "RolloutNotStartedYet", Message: "The rollout is being blocked by the rollout strategy", LastTransitionTime: at}}},
					{Cluster: "member-1", Conditions: []placement.Condition{
						{Type: "Scheduled", Status: "True", Reason: "Scheduled", Message: "picked by scheduling policy", LastTransitionTime: at},
						{Type: "Applied", Status: "False", Reason: "NotAllWorkHaveBeenApplied", Message: "Work object web-work is not applied", LastTransitionTime: at}},
						FailedPlacements: []placement.FailedPlacement{{ResourceID: fleet.ResourceID{Group: "batch", Version: "v1", Kind: "Job", Namespace: "web", Name: "migrate"},
							Envelope: "web/bundle", Condition: placement.Condition{Type: "Applied", Status: "False", Reason: "FailedToApply", Message: "denied", LastTransitionTime: at}}}}},
				ClusterIndexes: []int{0, 1}}
			SetPlacementStatus(updated, st)
			withStatus, err := placements.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
			if err != nil {
				t.Fatalf("the API server rejects the status: %v", err)
			}
			if got, err := PlacementStatusFrom(withStatus); err != nil || !reflect.DeepEqual(got, st) {
				t.Errorf("status read back:\n got %#v %v\nwant %#v", got, err, st)
			}
			checkPlacement(t, "with status", withStatus, withCRDDefaults(sent))
		})
	}
}

// checkPlacement reads a stored placement: it must read (a converter bug
// otherwise), as want, and with the engine's defaults as the engine's
// defaults of want.
func checkPlacement(t *testing.T, what string, obj *unstructured.Unstructured, want placement.Spec) {
	t.Helper()
	name, got, err := PlacementFromObject(obj)
	if err != nil {
		t.Fatalf("%s: the stored object does not read back: %v", what, err)
	}
	if name != want.Name || !reflect.DeepEqual(got, want) {
		t.Errorf("%s: read back as\n  %#v\nwant (with the CRD's defaults)\n  %#v", what, got, want)
	}
	if !reflect.DeepEqual(placement.WithDefaults(got), placement.WithDefaults(want)) {
		t.Errorf("%s: the engine's defaults differ", what)
	}
}

// TestBindingAdmission: bindings of every state and kind of decision, with
// the longest names, are admitted and read back as written.
func TestBindingAdmission(t *testing.T) {
	bindings := apiServer(t).Resource(BindingGVR)
	ctx := context.Background()
	long := strings.Repeat("c", 63)
	for _, c := range []struct {
		placement string
		d         placement.Decision
		state     string
	}{
		{"web", placement.Decision{ClusterName: "member-1", Selected: true, AffinityScore: 120, TopologySpreadScore: -2, Reason: placement.ReasonPicked}, BindingStateScheduled},
		{"web", placement.Decision{ClusterName: "member-2", Selected: true, Reason: placement.ReasonPicked}, BindingStateBound},
		{"web", placement.Decision{ClusterName: "member-3", AffinityScore: 10, Reason: placement.ReasonScaledIn}, BindingStateUnscheduled},
		{"web", placement.Decision{ClusterName: "member-4", Reason: placement.ReasonNoRequiredMatch}, BindingStateUnscheduled},
		{strings.Repeat("p", 63), placement.Decision{ClusterName: long, Selected: true}, BindingStateBound},
	} {
		name := BindingName(c.placement, c.d.ClusterName)
		t.Run(name, func(t *testing.T) {
			created, err := bindings.Create(ctx, BindingObject(name, c.placement, c.d, c.state, PolicySnapshotName(c.placement, 0)), metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("the API server rejects it: %v", err)
			}
			t.Cleanup(func() { deleteObject(t, bindings, name) })
			got, err := bindings.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for what, obj := range map[string]*unstructured.Unstructured{"created": created, "read": got} {
				d, state, err := DecisionFromBinding(obj)
				if err != nil || !reflect.DeepEqual(d, c.d) || state != c.state {
					t.Errorf("%s: read back as %#v %q %v, want %#v %q", what, d, state, err, c.d, c.state)
				}
				if obj.GetLabels()[ParentPlacementLabel] != c.placement {
					t.Errorf("%s: labels %v", what, obj.GetLabels())
				}
			}
		})
	}
}

// TestPolicySnapshotAdmission: snapshots of every placement type are
// admitted by our CRD, take their status, and read back as written.
func TestPolicySnapshotAdmission(t *testing.T) {
	snapshots := apiServer(t).Resource(PolicySnapshotGVR)
	ctx := context.Background()
	for _, c := range []struct {
		placement string
		index     int
		policy    placement.Policy
		requested int
		decisions []placement.Decision
	}{
		{"web", 0, fullPlacement().Policy, 3, snapshotDecisions()},
		{"web", 1, placement.Policy{PlacementType: placement.PickAll}, -1, snapshotDecisions()[:1]},
		{"web", 2, placement.Policy{}, -1, nil},
		{"fixed", 0, placement.Policy{PlacementType: placement.PickFixed, ClusterNames: []string{"a", "x"}}, 2,
			[]placement.Decision{{ClusterName: "a", Selected: true, Reason: placement.ReasonPicked}, {ClusterName: "x", Reason: placement.ReasonNotFound}}},
	} {
		name := PolicySnapshotName(c.placement, c.index)
		t.Run(name, func(t *testing.T) {
			obj := PolicySnapshotObject(name, c.placement, c.policy, 5, c.requested, c.decisions)
			created, err := snapshots.Create(ctx, obj, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("the API server rejects it: %v", err)
			}
			t.Cleanup(func() { deleteObject(t, snapshots, name) })
			if _, ok := created.Object["status"]; ok {
				t.Errorf("the status is taken on create: %v", created.Object["status"])
			}
			created.Object["status"] = obj.Object["status"]
			withStatus, err := snapshots.UpdateStatus(ctx, created, metav1.UpdateOptions{})
			if err != nil {
				t.Fatalf("the API server rejects the status: %v", err)
			}
			got, err := snapshots.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := PolicySnapshotFrom(obj)
			if err != nil {
				t.Fatal(err)
			}
			for what, obj := range map[string]*unstructured.Unstructured{"status updated": withStatus, "read": got} {
				if ps, err := PolicySnapshotFrom(obj); err != nil || !reflect.DeepEqual(ps, want) {
					t.Errorf("%s: read back as\n  %#v %v\nwant\n  %#v", what, ps, err, want)
				}
			}
		})
	}
}

// deleteObject deletes the cluster-scoped object name.
func deleteObject(t *testing.T, r dynamic.NamespaceableResourceInterface, name string) {
	t.Helper()
	if err := r.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Errorf("deleting %s: %v", name, err)
	}
}
