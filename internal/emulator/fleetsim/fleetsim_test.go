package fleetsim_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/fleetsim"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/inventory"
)

var env *kubetest.Env

func TestMain(m *testing.M) {
	var err error
	if env, err = kubetest.Start(kubetest.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	env.Close()
	os.Exit(code)
}

// waitTimeout bounds every wait for the scheduler.
const waitTimeout = 30 * time.Second

// t0 is the mock hub's fixed clock at the first step; each step runs a
// minute later, as successive Terraform commands would.
var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// backend is the mock hub of a test: a copy of the built-in sample fleet,
// reopened with a later fixed clock at each step (as each Terraform
// command opens the state anew). The Sim's backend is the current one.
type backend struct {
	t     *testing.T
	file  string
	state string

	mu  sync.Mutex
	cur *mock.Hub
}

func newBackend(t *testing.T) *backend {
	dir := t.TempDir()
	b := &backend{t: t, file: filepath.Join(dir, "fleet.yaml"), state: filepath.Join(dir, "state.db")}
	if err := os.WriteFile(b.file, inventory.Sample, 0o644); err != nil {
		t.Fatal(err)
	}
	b.at(t0)
	return b
}

// at reopens the mock hub with its clock fixed at now, and returns it.
func (b *backend) at(now time.Time) *mock.Hub {
	h, err := mock.New(mock.Config{FleetFile: b.file, StatePath: b.state, Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: now}})
	if err != nil {
		b.t.Fatal(err)
	}
	b.mu.Lock()
	b.cur = h
	b.mu.Unlock()
	return h
}

func (b *backend) hub(context.Context) (hub.Hub, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cur, nil
}

// edit rewrites the inventory with edit applied, as a user editing the file
// between commands.
func (b *backend) edit(edit func(string) string) {
	b.t.Helper()
	data, err := os.ReadFile(b.file)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(b.file, []byte(edit(string(data))), 0o644); err != nil {
		b.t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(b.file, later, later); err != nil {
		b.t.Fatal(err)
	}
}

// afterLine returns an edit that inserts text after the first line holding
// anchor, failing the test when there is none.
func afterLine(t *testing.T, anchor, text string) func(string) string {
	return func(doc string) string {
		i := strings.Index(doc, anchor)
		if i < 0 {
			t.Fatalf("the inventory has no %q", anchor)
		}
		end := i + strings.Index(doc[i:], "\n") + 1
		return doc[:end] + text + doc[end:]
	}
}

// replace returns an edit that replaces old (which must be there) with new.
func replace(t *testing.T, old, new string) func(string) string {
	return func(doc string) string {
		if !strings.Contains(doc, old) {
			t.Fatalf("the inventory has no %q", old)
		}
		return strings.Replace(doc, old, new, 1)
	}
}

func newSim(t *testing.T, b *backend) *fleetsim.Sim {
	s := fleetsim.New(env, b.hub)
	s.Log = t
	t.Cleanup(s.Close)
	return s
}

// view is what a placement's scheduling shows, read the same way from the
// mock hub and from the API server.
type view struct {
	Selected    []string
	Decisions   []placement.Decision
	Recorded    map[string]placement.Score
	Requested   int
	Fulfilled   bool
	Message     string
	Conditions  []string
	Unscheduled int
}

func conditionString(typ, status, reason, message string, at time.Time) string {
	return fmt.Sprintf("%s=%s %s %q since %s", typ, status, reason, message, at.UTC().Format(time.RFC3339))
}

func mockView(p *hub.Placement) view {
	st := p.Status
	v := view{Selected: st.Selected, Decisions: st.Decisions, Recorded: placement.RecordedScores(st.Decisions),
		Requested: st.Requested, Fulfilled: st.Fulfilled, Message: st.Message}
	for _, c := range st.Conditions {
		v.Conditions = append(v.Conditions, conditionString(c.Type, c.Status, c.Reason, c.Message, c.LastTransitionTime))
	}
	if !st.Fulfilled && st.Requested > len(st.Selected) {
		v.Unscheduled = st.Requested - len(st.Selected)
	}
	return v
}

// simView reads a placement's scheduling from the hub cluster as the azure
// hub does (the bindings hold the clusters and the scores they were picked
// with, the latest policy snapshot the cycle's decisions, the placement's
// Scheduled condition the outcome), checking on the way that the
// placement's status, bindings and snapshot agree.
func simView(t *testing.T, dyn dynamic.Interface, obj *unstructured.Unstructured) view {
	t.Helper()
	name := obj.GetName()
	st, err := kube.PlacementStatusFrom(obj)
	if err != nil {
		t.Fatal(err)
	}
	if st.ObservedGeneration != obj.GetGeneration() {
		t.Fatalf("%s: the Scheduled condition observes generation %d, not %d", name, st.ObservedGeneration, obj.GetGeneration())
	}
	if !slices.Contains(obj.GetFinalizers(), fleetsim.PlacementFinalizer) {
		t.Errorf("%s: finalizers %v, want %s", name, obj.GetFinalizers(), fleetsim.PlacementFinalizer)
	}
	var v view
	for _, c := range st.Conditions {
		v.Conditions = append(v.Conditions, conditionString(c.Type, c.Status, c.Reason, c.Message, c.LastTransitionTime))
		if c.Type == kube.ConditionScheduled {
			v.Fulfilled = c.Status == kube.ConditionStatusTrue
			if !v.Fulfilled {
				v.Message = c.Message
			}
		}
	}
	v.Unscheduled = st.Unscheduled

	parent := labels.Set{kube.ParentPlacementLabel: name}
	bound := map[string]placement.Decision{}
	var boundDecisions []placement.Decision
	for _, b := range list(t, dyn, kube.BindingGVR, parent) {
		d, state, err := kube.DecisionFromBinding(&b)
		if err != nil {
			t.Fatal(err)
		}
		if want := kube.BindingName(name, d.ClusterName); b.GetName() != want {
			t.Errorf("binding %s of %s to %s: want the name %s", b.GetName(), name, d.ClusterName, want)
		}
		if state != kube.BindingStateUnscheduled {
			bound[d.ClusterName] = d
			boundDecisions = append(boundDecisions, d)
			v.Selected = append(v.Selected, d.ClusterName)
		}
	}
	slices.Sort(v.Selected)
	if v.Selected == nil {
		v.Selected = []string{}
	}
	if !slices.Equal(st.Clusters, v.Selected) {
		t.Errorf("%s: placementStatuses list %v, the bindings %v", name, st.Clusters, v.Selected)
	}
	v.Recorded = placement.RecordedScores(boundDecisions)

	snaps := list(t, dyn, kube.PolicySnapshotGVR, labels.Set{kube.ParentPlacementLabel: name, kube.IsLatestSnapshotLabel: "true"})
	if len(snaps) != 1 || snaps[0].GetName() != kube.PolicySnapshotName(name, 0) {
		t.Fatalf("%s: latest policy snapshots %v, want %s", name, names(snaps), kube.PolicySnapshotName(name, 0))
	}
	snap, err := kube.PolicySnapshotFrom(&snaps[0])
	if err != nil {
		t.Fatal(err)
	}
	if snap.CRPGeneration != obj.GetGeneration() || snap.ObservedCRPGeneration != obj.GetGeneration() {
		t.Errorf("%s: the snapshot is of generation %d (observed %d), not %d", name, snap.CRPGeneration, snap.ObservedCRPGeneration, obj.GetGeneration())
	}
	v.Requested = snap.Requested
	v.Decisions = []placement.Decision{}
	for _, d := range snap.Decisions {
		if b, ok := bound[d.ClusterName]; ok {
			if b != d {
				t.Errorf("%s: the binding of %s decides %+v, the snapshot %+v", name, d.ClusterName, b, d)
			}
			d = b
		}
		v.Decisions = append(v.Decisions, d)
	}
	return v
}

func list(t *testing.T, dyn dynamic.Interface, gvr schema.GroupVersionResource, sel labels.Set) []unstructured.Unstructured {
	t.Helper()
	l, err := dyn.Resource(gvr).List(context.Background(), metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

func names(objs []unstructured.Unstructured) []string {
	out := []string{}
	for _, o := range objs {
		out = append(out, o.GetName())
	}
	return out
}

// apply writes the placement to the hub cluster (a create, or an update of
// its spec) and waits until the scheduler has scheduled the generation
// written.
func apply(t *testing.T, dyn dynamic.Interface, p hub.Placement) *unstructured.Unstructured {
	t.Helper()
	ctx := context.Background()
	client := dyn.Resource(kube.PlacementGVR)
	want := kube.PlacementObject(p.Name, p.Spec)
	obj, err := client.Get(ctx, p.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		obj, err = client.Create(ctx, want, metav1.CreateOptions{})
	case err == nil:
		obj.Object["spec"] = want.Object["spec"]
		obj, err = client.Update(ctx, obj, metav1.UpdateOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
	return awaitScheduled(t, dyn, p.Name, obj.GetGeneration())
}

func awaitScheduled(t *testing.T, dyn dynamic.Interface, name string, generation int64) *unstructured.Unstructured {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		obj, err := dyn.Resource(kube.PlacementGVR).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		st, err := kube.PlacementStatusFrom(obj)
		if err != nil {
			t.Fatal(err)
		}
		if st.ObservedGeneration >= generation {
			return obj
		}
		if time.Now().After(deadline) {
			t.Fatalf("placement %s: generation %d not scheduled after %s", name, generation, waitTimeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func read(t *testing.T, dyn dynamic.Interface, name string) *unstructured.Unstructured {
	t.Helper()
	obj, err := dyn.Resource(kube.PlacementGVR).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func sameView(t *testing.T, step string, got, want view) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the API server's scheduling differs from the mock's:\n got %+v\nwant %+v", step, got, want)
	}
}

func spec(policy placement.Policy) placement.Spec {
	return placement.Spec{
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app"}},
		Policy:            policy,
	}
}

func pickN(n int) placement.Policy {
	return placement.Policy{
		PlacementType:    placement.PickN,
		NumberOfClusters: &n,
		Affinity: &placement.Affinity{
			Required: []placement.ClusterSelectorTerm{{LabelSelector: &selector.LabelSelector{
				MatchExpressions: []selector.LabelExpression{{Key: "env", Operator: "In", Values: []string{"prod", "staging"}}}}}},
			Preferred: []placement.PreferredTerm{
				{Weight: 40, Preference: placement.ClusterSelectorTerm{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}}}},
				{Weight: 20, Preference: placement.ClusterSelectorTerm{PropertySorter: &placement.PropertySorter{
					Name: "kubernetes.azure.com/per-cpu-core-cost", SortOrder: placement.Ascending}}},
			},
		},
		TopologySpreadConstraints: []placement.TopologySpreadConstraint{{TopologyKey: "region"}},
	}
}

// TestSchedulingMatchesTheMock applies one sequence of placements to the
// mock hub and, through the API server, to the Sim's scheduler, and
// compares what each decided after every step.
func TestSchedulingMatchesTheMock(t *testing.T) {
	ctx := context.Background()
	b := newBackend(t)
	sim := newSim(t, b)
	start := time.Now()
	kubeconfig, err := sim.Kubeconfig(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hub cluster started and synced in %s", time.Since(start).Round(time.Millisecond))
	c, err := sim.Hub(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dyn := c.Dynamic
	checkMemberClusters(t, kubeconfig, b)

	// Fleet's API keeps a placement's type: PickAll and PickFixed are
	// placements of their own.
	prodOnly := pickN(3)
	prodOnly.Affinity.Required[0].LabelSelector.MatchExpressions[0].Values = []string{"prod"}
	steps := []struct {
		step, name string
		policy     placement.Policy // none: the fleet changes instead
	}{
		{"create PickN 4", "web", pickN(4)},
		{"scale in to 3", "web", pickN(3)},
		{"a held cluster leaves, another is relabelled, one is removed", "web", placement.Policy{}},
		{"PickN 3 of prod only (a policy change)", "web", prodOnly},
		{"PickAll prod", "all", placement.Policy{PlacementType: placement.PickAll, Affinity: &placement.Affinity{
			Required: []placement.ClusterSelectorTerm{{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}}}}}},
		{"PickFixed with a missing name and a leaving one", "fixed", placement.Policy{PlacementType: placement.PickFixed,
			ClusterNames: []string{"aks-east-prod-02", "aks-weu-prod-01", "aks-nowhere-01", "aks-east-prod-01"}}},
		{"PickFixed with a missing name, another held", "fixed", placement.Policy{PlacementType: placement.PickFixed,
			ClusterNames: []string{"aks-east-prod-02", "aks-sea-prod-01", "aks-nowhere-01"}}},
		{"PickFixed fulfilled", "fixed", placement.Policy{PlacementType: placement.PickFixed,
			ClusterNames: []string{"aks-east-prod-02", "aks-sea-prod-01"}}},
		{"PickFixed without names (Fleet skips the cycle)", "fixed", placement.Policy{PlacementType: placement.PickFixed}},
	}
	last := map[string]view{}
	for i, st := range steps {
		at := t0.Add(time.Duration(i) * time.Minute)
		start := time.Now()
		var want *hub.Placement
		var obj *unstructured.Unstructured
		if st.policy.PlacementType == "" { // the fleet changes
			const leaving = "aks-east-prod-01"
			if !slices.Contains(last[st.name].Selected, leaving) {
				t.Fatalf("%s: %s is not held: %v", st.step, leaving, last[st.name].Selected)
			}
			b.edit(afterLine(t, "- name: "+leaving, "    agent: { leaving: true }\n"))
			b.edit(replace(t, "labels: { env: staging, region: asia,", "labels: { env: prod, region: asia,"))
			b.edit(replace(t, "  - name: aks-sea-edge-01\n", "  - name: aks-sea-edge-01-gone\n"))
			h := b.at(at)
			if _, err := sim.Kubeconfig(ctx, ""); err != nil {
				t.Fatal(err)
			}
			if want, err = h.GetPlacement(ctx, st.name); err != nil {
				t.Fatal(err)
			}
			obj = read(t, dyn, st.name)
			if got := simView(t, dyn, obj); slices.Contains(got.Selected, leaving) {
				t.Errorf("%s: %s left the fleet and is still selected", st.step, leaving)
			}
			checkMemberClusters(t, kubeconfig, b)
			mc, err := dyn.Resource(kube.MemberClusterGVR).Get(ctx, leaving, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if mc.GetDeletionTimestamp() == nil {
				t.Errorf("the MemberCluster of %s, which is leaving, is not being deleted", leaving)
			}
		} else {
			h := b.at(at)
			p := hub.Placement{Meta: hub.Meta{Name: st.name}, Spec: spec(st.policy)}
			if want, err = h.ApplyPlacement(ctx, p, hub.Precondition{}); err != nil {
				t.Fatal(err)
			}
			obj = apply(t, dyn, p)
		}
		got := simView(t, dyn, obj)
		sameView(t, st.step, got, mockView(want))
		t.Logf("%s: %d selected %v, fulfilled %v, %s (%s)", st.step, len(got.Selected), got.Selected, got.Fulfilled, got.Conditions, time.Since(start).Round(time.Millisecond))
		last[st.name] = got
	}
	if v := last["fixed"]; !v.Fulfilled || !strings.Contains(v.Conditions[0], t0.Add(7*time.Minute).Format(time.RFC3339)) {
		t.Errorf("the PickFixed fulfilled at last: %+v", v)
	}

	// Deleting a placement deletes its bindings and snapshot, then the object.
	start = time.Now()
	for _, n := range []string{"web", "all", "fixed"} {
		if err := b.cur.DeletePlacement(ctx, n, hub.Precondition{}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.cur.GetPlacement(ctx, n); !errors.Is(err, hub.ErrNotFound) {
			t.Fatalf("the mock still has %s: %v", n, err)
		}
		if err := dyn.Resource(kube.PlacementGVR).Delete(ctx, n, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		awaitGone(t, dyn, n)
		parent := labels.Set{kube.ParentPlacementLabel: n}
		if l := list(t, dyn, kube.BindingGVR, parent); len(l) > 0 {
			t.Errorf("%s deleted, its bindings remain: %v", n, names(l))
		}
		if l := list(t, dyn, kube.PolicySnapshotGVR, parent); len(l) > 0 {
			t.Errorf("%s deleted, its policy snapshots remain: %v", n, names(l))
		}
	}
	t.Logf("placements deleted in %s", time.Since(start).Round(time.Millisecond))
}

func awaitGone(t *testing.T, dyn dynamic.Interface, name string) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		obj, err := dyn.Resource(kube.PlacementGVR).Get(context.Background(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("placement %s still there after %s, finalizers %v", name, waitTimeout, obj.GetFinalizers())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkMemberClusters reads the MemberClusters through the kubeconfig the
// Sim returned and compares their facts with the backend's fleet.
func checkMemberClusters(t *testing.T, kubeconfig []byte, b *backend) {
	t.Helper()
	cfg, err := clientcmd.RESTConfigFromKubeConfig(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f, err := b.cur.Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	objs := list(t, dyn, kube.MemberClusterGVR, nil)
	if len(objs) != len(f.Clusters) {
		t.Errorf("%d MemberClusters %v for %d members", len(objs), names(objs), len(f.Clusters))
	}
	for i := range objs {
		facts, err := kube.MemberFactsFrom(&objs[i])
		if err != nil {
			t.Fatal(err)
		}
		c, ok := f.Cluster(objs[i].GetName())
		if !ok {
			t.Errorf("MemberCluster %s: not a member", objs[i].GetName())
			continue
		}
		if !reflect.DeepEqual(facts.Labels, c.Labels) || !reflect.DeepEqual(facts.Taints, c.Taints) ||
			!reflect.DeepEqual(facts.Properties, c.Properties) || facts.Agent.Leaving != c.Agent.Leaving {
			t.Errorf("MemberCluster %s: facts %+v, the member %+v", c.Name, facts, c)
		}
	}
}

// TestMemberNodes: a member's NAP nodes are NodeClaims and Nodes that read
// back (kube.PairNodes) as the mock hub lists them, created when the nodes
// were, and follow the fleet.
func TestMemberNodes(t *testing.T) {
	ctx := context.Background()
	b := newBackend(t)
	sim := newSim(t, b)
	const member = "aks-east-prod-01"
	if _, err := sim.Kubeconfig(ctx, "aks-no-such-member"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a member not in the fleet: %v, want ErrNotFound", err)
	}

	start := time.Now()
	kubeconfig, err := sim.Kubeconfig(ctx, member)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("member cluster started and synced in %s", time.Since(start).Round(time.Millisecond))
	c, err := sim.Member(ctx, member)
	if err != nil {
		t.Fatal(err)
	}
	if string(kubeconfig) != string(c.Kubeconfig) {
		t.Error("Kubeconfig is not the member cluster's")
	}
	checkNodes(t, "initial", b, c.Dynamic, member)

	b.edit(replace(t, "- { name: aks-default-7xk2p, nodepool: default, age: 30h,", "- { name: aks-default-7xk2p, nodepool: default, age: 30h, marked_for_deletion: true,"))
	b.edit(replace(t, "- { name: aks-default-9qw4m, nodepool: default, age: 200h,", "- { name: aks-default-9qw4m, nodepool: default, age: 200h, do_not_disrupt: true, ready: false,"))
	b.edit(replace(t, "      - { name: aks-batch-c5t1v,", "      - { name: aks-batch-n3w00, nodepool: batch, created_at: \"2026-11-20T08:30:00Z\", labels: { karpenter.sh/capacity-type: spot } }\n      - { name: aks-batch-c5t1v-gone,"))
	b.edit(replace(t, "- { name: aks-default-b3n8r, nodepool: default, age: 700h, labels: { node.kubernetes.io/instance-type: Standard_E4s_v5,",
		"- { name: aks-default-b3n8r, nodepool: default, age: 700h, labels: { node.kubernetes.io/instance-type: Standard_E8s_v5,"))
	b.at(t0.Add(time.Hour))
	start = time.Now()
	if _, err := sim.Kubeconfig(ctx, member); err != nil {
		t.Fatal(err)
	}
	t.Logf("nodes changed in %s", time.Since(start).Round(time.Millisecond))
	nodes := checkNodes(t, "changed", b, c.Dynamic, member)
	claim, err := c.Dynamic.Resource(kube.NodeClaimGVR).Get(ctx, "aks-default-7xk2p", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if claim.GetDeletionTimestamp() == nil || !slices.Equal(claim.GetFinalizers(), []string{fleetsim.TerminationFinalizer}) {
		t.Errorf("the claim of a node marked for deletion: deletionTimestamp %v, finalizers %v", claim.GetDeletionTimestamp(), claim.GetFinalizers())
	}
	if _, err := c.Dynamic.Resource(kube.NodeClaimGVR).Get(ctx, "aks-batch-c5t1v", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the claim of a node no longer listed: %v", err)
	}
	if i := slices.IndexFunc(nodes, func(n nodepool.Node) bool { return n.Name == "aks-batch-n3w00" }); i < 0 ||
		!nodes[i].CreatedAt.Equal(time.Date(2026, 11, 20, 8, 30, 0, 0, time.UTC)) {
		t.Errorf("the new node: %+v", nodes)
	}

	// A node no longer marked for deletion gets a new claim, created when the node was.
	b.edit(replace(t, "age: 30h, marked_for_deletion: true,", "age: 30h,"))
	b.at(t0.Add(2 * time.Hour))
	if _, err := sim.Kubeconfig(ctx, member); err != nil {
		t.Fatal(err)
	}
	checkNodes(t, "unmarked", b, c.Dynamic, member)
}

// checkNodes compares the member's NodeClaims and Nodes, listed and paired
// as the azure hub reads a pool's (by the label karpenter.sh/nodepool), with
// the nodes the mock hub lists for each pool, creation times included.
func checkNodes(t *testing.T, step string, b *backend, dyn dynamic.Interface, member string) []nodepool.Node {
	t.Helper()
	ctx := context.Background()
	f, err := b.cur.Fleet(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := f.Cluster(member)
	pools := map[string]bool{}
	for _, n := range m.NAPNodes {
		pools[n.NodePool] = true
	}
	if claims := list(t, dyn, kube.NodeClaimGVR, nil); len(claims) != len(m.NAPNodes) {
		t.Errorf("%s: %d NodeClaims %v for %d NAP nodes", step, len(claims), names(claims), len(m.NAPNodes))
	}
	var all []nodepool.Node
	for pool := range pools {
		sel := labels.Set{nodepool.LabelNodePool: pool}
		got, err := kube.PairNodes(list(t, dyn, kube.NodeClaimGVR, sel), list(t, dyn, kube.NodeGVR, sel))
		if err != nil {
			t.Fatal(err)
		}
		want, err := b.cur.NodePoolNodes(ctx, member, pool)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(want.Nodes, func(a, b nodepool.Node) int { return strings.Compare(a.Name, b.Name) })
		if !reflect.DeepEqual(nodeStrings(got), nodeStrings(want.Nodes)) {
			t.Errorf("%s: pool %s:\n got %v\nwant %v", step, pool, nodeStrings(got), nodeStrings(want.Nodes))
		}
		if total, disrupting := nodepool.CountNodes(got); total != want.Total || disrupting != want.Disrupting {
			t.Errorf("%s: pool %s counts %d nodes, %d disrupting; the mock %d, %d", step, pool, total, disrupting, want.Total, want.Disrupting)
		}
		all = append(all, got...)
	}
	return all
}

func nodeStrings(nodes []nodepool.Node) []string {
	var out []string
	for _, n := range nodes {
		created := n.CreatedAt
		n.CreatedAt = time.Time{}
		if len(n.Labels) == 0 {
			n.Labels = nil
		}
		out = append(out, fmt.Sprintf("%+v created %s", n, created.UTC().Format(time.RFC3339)))
	}
	return out
}
