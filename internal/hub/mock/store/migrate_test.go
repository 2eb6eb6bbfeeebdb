package store

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/inventory"
)

// Objects as releases before format 1 stored them: the whole hub object,
// keyed by Go field names, metadata included. They are written out by hand,
// so that they keep describing that format whatever the Go types become.
// Map keys that look like field names ("Kind", "Name") are labels: data.
const (
	oldMeta      = `"ETag":"\"2\"","Generation":1,"CreatedAt":"2026-11-21T12:00:00Z","UpdatedAt":"2026-11-21T12:00:00Z"`
	oldEnvelope  = `{"etag":"\"2\"","generation":1,"created_at":"2026-11-21T12:00:00Z","updated_at":"2026-11-21T12:00:00Z","body":%s}`
	oldPlacement = `{"Name":"web",` + oldMeta + `,
		"Spec":{"Name":"","ResourceSelectors":[{"Group":"","Version":"v1","Kind":"Namespace","Name":"web","LabelSelector":null}],
			"Policy":{"PlacementType":"PickN","ClusterNames":null,"NumberOfClusters":2,
				"Affinity":{"Required":[{"LabelSelector":{"MatchLabels":{"Kind":"prod"},"MatchExpressions":[{"Key":"tier","Operator":"In","Values":["web"]}]},"PropertySelector":null,"PropertySorter":null}],"Preferred":null},
				"TopologySpreadConstraints":[{"MaxSkew":1,"TopologyKey":"region","WhenUnsatisfiable":"DoNotSchedule"}],"Tolerations":null},
			"Strategy":{"Type":"RollingUpdate","RollingUpdate":{"MaxUnavailable":"25%","MaxSurge":null,"UnavailablePeriodSeconds":60}},"RevisionHistoryLimit":null},
		"Status":{"ObservedGeneration":1,"Selected":["a"],"Decisions":[{"ClusterName":"a","Selected":true,"AffinityScore":0,"TopologySpreadScore":0,"Reason":"picked by scheduling policy"}],
			"Requested":2,"Fulfilled":false,"Message":"found 1 cluster(s) instead",
			"Policy":{"PlacementType":"PickN","ClusterNames":null,"NumberOfClusters":2,"Affinity":null,"TopologySpreadConstraints":null,"Tolerations":null},
			"Conditions":[{"Type":"ClusterResourcePlacementScheduled","Status":"False","Reason":"SchedulingPolicyUnfulfilled","Message":"found 1","LastTransitionTime":"2026-11-21T12:00:00Z"}],
			"ObservedFleet":"fp"}}`
	oldStrategy = `{"Name":"safe",` + oldMeta + `,"Spec":{"Stages":[{"Name":"canary","Groups":[{"Name":"canary","MaxConcurrency":"","BeforeGates":null,"AfterGates":null}],
		"AfterStageWaitInSeconds":60,"MaxConcurrency":"","BeforeGates":[{"Type":"Approval","DisplayName":"ok?"}],"AfterGates":null}]}}`
	oldRun = `{"Name":"r1",` + oldMeta + `,
		"Spec":{"UpdateStrategyID":"safe","Strategy":null,"ManagedClusterUpdate":{"Upgrade":{"Type":"Full","KubernetesVersion":"1.33.2"},"NodeImageSelection":{"Type":"Latest","CustomNodeImageVersions":null}}},
		"ResolvedStrategy":{"Stages":[{"Name":"canary","Groups":[{"Name":"canary"}]}]},
		"Status":{"State":"Running","Message":"","Stages":null,"SelectedNodeImageVersions":{"AKSUbuntu":"2026.11.01"},"StartTime":"2026-11-21T12:00:00Z","EndTime":"0001-01-01T00:00:00Z"}}`
	oldEvents = `{"Name":"",` + oldMeta + `,"Events":[{"action":"start","at":"2026-11-21T12:00:00Z"},
		{"action":"skip","at":"2026-11-21T12:00:00Z","targets":[{"Type":"Group","Name":"canary"}]}]}`
	oldProfile = `{"Name":"stable",` + oldMeta + `,
		"Spec":{"Channel":"Stable","UpdateStrategyID":"safe","NodeImageSelectionType":"","Disabled":false,"TargetKubernetesVersion":"","LongTermSupport":false},
		"Status":{"LastTriggeredAt":"2026-11-21T12:00:00Z","LastTriggerStatus":"Succeeded","LastTriggerError":"","LastTriggerUpgradeVersions":["1.32.6"],"LastRun":"stable-1"}}`
	oldNodePool = `{"Name":"general",` + oldMeta + `,"Cluster":"a",
		"Spec":{"Weight":10,"Limits":{"cpu":"100"},
			"Template":{"Labels":{"Name":"x"},"Annotations":null,"NodeClassRef":{"Group":"karpenter.azure.com","Kind":"AKSNodeClass","Name":"default"},
				"Requirements":[{"Key":"karpenter.sh/capacity-type","Operator":"In","Values":["spot"],"MinValues":1}],
				"Taints":[{"Key":"example.com/a","Value":"","Effect":"NoSchedule"},{"Key":"example.com/b","Value":"x","Effect":"NoSchedule"}],"StartupTaints":null,"ExpireAfter":"720h","TerminationGracePeriod":null},
			"Disruption":{"ConsolidationPolicy":"WhenEmpty","ConsolidateAfter":"5m","Budgets":[{"Nodes":"10%","Schedule":null,"Duration":null,"Reasons":["Drifted"]}]}},
		"Status":{"Nodes":[{"Name":"n1","NodePool":"general","Labels":null,"CreatedAt":"2026-11-21T12:00:00Z","Ready":true,"MarkedForDeletion":false,"DoNotDisrupt":false}],"Total":1,"Disrupting":0}}`
)

func envelope(body string) string { return strings.Replace(oldEnvelope, "%s", body, 1) }

func TestMigrateUnversioned(t *testing.T) {
	policy := placement.Policy{PlacementType: placement.PickN, NumberOfClusters: new(2)}
	canary := update.Strategy{Stages: []update.Stage{{Name: "canary", Groups: []update.Group{{Name: "canary"}}}}}
	cases := []struct {
		bucket, key, old string
		want             any
	}{
		{BucketPlacements, "web", oldPlacement, &Placement{
			Spec: placement.Spec{
				ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
				Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: new(2),
					Affinity: &placement.Affinity{Required: []placement.ClusterSelectorTerm{{LabelSelector: &selector.LabelSelector{
						MatchLabels:      map[string]string{"Kind": "prod"},
						MatchExpressions: []selector.LabelExpression{{Key: "tier", Operator: selector.OpIn, Values: []string{"web"}}},
					}}}},
					TopologySpreadConstraints: []placement.TopologySpreadConstraint{{MaxSkew: new(1), TopologyKey: "region", WhenUnsatisfiable: placement.DoNotSchedule}},
				},
				Strategy: placement.Strategy{Type: placement.RollingUpdateStrategy, RollingUpdate: &placement.RollingUpdate{MaxUnavailable: new("25%"), UnavailablePeriodSeconds: new(60)}},
			},
			Status: PlacementStatus{ObservedGeneration: 1, Selected: []string{"a"},
				Decisions: []placement.Decision{{ClusterName: "a", Selected: true, Reason: placement.ReasonPicked}},
				Requested: 2, Message: "found 1 cluster(s) instead", Policy: policy, ObservedFleet: "fp",
				Conditions: []Condition{{Type: placement.CondScheduled, Status: placement.StatusFalse, Reason: placement.ReasonUnfulfilled, Message: "found 1", LastTransitionTime: testNow}},
			},
		}},
		{BucketStrategies, "safe", oldStrategy, &Strategy{Spec: update.Strategy{Stages: []update.Stage{{
			Name: "canary", Groups: []update.Group{{Name: "canary"}}, AfterStageWaitInSeconds: update.WaitSeconds(60),
			BeforeGates: []update.Gate{{Type: "Approval", DisplayName: "ok?"}},
		}}}}},
		{BucketRuns, "r1", oldRun, &Run{
			Spec: update.RunSpec{UpdateStrategyID: "safe", ManagedClusterUpdate: update.ManagedClusterUpdate{
				Upgrade:            update.Upgrade{Type: update.UpgradeFull, KubernetesVersion: "1.33.2"},
				NodeImageSelection: update.NodeImageSelection{Type: update.NodeImageLatest},
			}},
			ResolvedStrategy: &canary, // its status is not kept (format 6: every read computes it)
		}},
		{BucketRunEvents, "r1", oldEvents, &RunEvents{Events: []RunEvent{
			{Action: "start", At: testNow},
			{Action: "skip", At: testNow, Targets: []update.SkipTarget{{Type: update.TargetGroup, Name: "canary"}}},
		}}},
		{BucketProfiles, "stable", oldProfile, &Profile{
			Spec: update.ProfileSpec{Channel: update.ChannelStable, UpdateStrategyID: "safe"},
			Status: update.ProfileStatus{LastTriggeredAt: testNow, LastTriggerStatus: "Succeeded",
				LastTriggerUpgradeVersions: []string{"1.32.6"}, LastRun: "stable-1"},
		}},
		{BucketNodePools, "a/general", oldNodePool, &NodePool{Spec: nodepool.NodePool{
			Weight: new(int32(10)), Limits: map[string]string{"cpu": "100"},
			Template: nodepool.Template{Labels: map[string]string{"Name": "x"},
				NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"},
				Requirements: []nodepool.Requirement{{Key: "karpenter.sh/capacity-type", Operator: nodepool.OperatorIn, Values: []string{"spot"}, MinValues: new(1)}},
				// An empty value was an omitted one (format 2 keeps them apart).
				Taints: []nodepool.Taint{{Key: "example.com/a", Effect: nodepool.TaintEffectNoSchedule},
					{Key: "example.com/b", Value: new("x"), Effect: nodepool.TaintEffectNoSchedule}},
				ExpireAfter: new("720h")},
			Disruption: &nodepool.Disruption{ConsolidationPolicy: new(nodepool.ConsolidationPolicyWhenEmpty), ConsolidateAfter: new("5m"),
				Budgets: []nodepool.Budget{{Nodes: new("10%"), Reasons: []string{"Drifted"}}}},
		}}},
	}
	buckets := map[string]map[string]string{BucketMeta: {"clock": clockValue}}
	for _, c := range cases {
		if buckets[c.bucket] == nil {
			buckets[c.bucket] = map[string]string{}
		}
		buckets[c.bucket][c.key] = envelope(c.old)
	}
	path := rawDB(t, buckets)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v := rawValue(t, path, BucketMeta, FormatKey); v != strconv.Itoa(FormatVersion) {
		t.Fatalf("format %q after migration", v)
	}
	for _, c := range cases {
		t.Run(c.bucket, func(t *testing.T) {
			rec, err := s.Get(c.bucket, c.key)
			if err != nil {
				t.Fatal(err)
			}
			if rec.ETag != `"2"` || rec.Generation != 1 || !rec.CreatedAt.Equal(testNow) || !rec.UpdatedAt.Equal(testNow) {
				t.Fatalf("envelope changed: %+v", rec)
			}
			dec := json.NewDecoder(bytes.NewReader(rec.Body))
			dec.DisallowUnknownFields()
			got := reflect.New(recordTypes[c.bucket]).Interface()
			if err := dec.Decode(got); err != nil {
				t.Fatalf("%v in %s", err, rec.Body)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("migrated\n got  %s\n want %s", rec.Body, mustJSON(t, c.want))
			}
		})
	}
	if _, err := Open(path); err != nil { // the next command opens the current format as it is
		t.Fatal(err)
	}
}

// A body that does not fit the record types fails the whole migration with
// a message that says what to do, and leaves the file as it was.
func TestMigrateUnversionedRefusesUnknownFields(t *testing.T) {
	bad := strings.Replace(oldStrategy, `"AfterStageWaitInSeconds"`, `"AfterStageWaitMinutes"`, 1)
	path := rawDB(t, map[string]map[string]string{
		BucketPlacements: {"web": envelope(oldPlacement)},
		BucketStrategies: {"safe": envelope(bad)},
	})
	_, err := Open(path)
	for _, want := range []string{"written by an earlier release and cannot be migrated", `updateStrategies/safe: body.spec.stages[0]: "AfterStageWaitMinutes" is not a field`, "delete the file"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want it to say %q", err, want)
		}
	}
	if rawValue(t, path, BucketMeta, FormatKey) != "" || rawValue(t, path, BucketPlacements, "web") != envelope(oldPlacement) {
		t.Fatal("a failed migration changed the file")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// NodePools as format 1 stored them, written out by hand: a taint's "" value
// was an omitted one, and an omitted disruption block was an object of
// nulls. Format 2 stores both as absent (null).
const (
	v1Template = `"template":{"labels":null,"annotations":null,"node_class_ref":{"group":"karpenter.azure.com","kind":"AKSNodeClass","name":"default"},` +
		`"requirements":null,"taints":[{"key":"example.com/a","value":"","effect":"NoSchedule"},{"key":"example.com/b","value":"x","effect":"NoExecute"}],` +
		`"startup_taints":[{"key":"example.com/c","value":"","effect":"NoSchedule"}],"expire_after":null,"termination_grace_period":null}`
	v1Omitted  = `{"spec":{"weight":null,"limits":null,` + v1Template + `,"disruption":{"consolidation_policy":null,"consolidate_after":null,"budgets":null}}}`
	v1Explicit = `{"spec":{"weight":7,"limits":null,` + v1Template + `,"disruption":{"consolidation_policy":null,"consolidate_after":"30s","budgets":[]}}}`
)

func TestMigrateV1(t *testing.T) {
	tmpl := nodepool.Template{
		NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"},
		Taints: []nodepool.Taint{{Key: "example.com/a", Effect: nodepool.TaintEffectNoSchedule},
			{Key: "example.com/b", Value: new("x"), Effect: nodepool.TaintEffectNoExecute}},
		StartupTaints: []nodepool.Taint{{Key: "example.com/c", Effect: nodepool.TaintEffectNoSchedule}},
	}
	want := map[string]*NodePool{
		"a/omitted":  {Spec: nodepool.NodePool{Template: tmpl}},
		"a/explicit": {Spec: nodepool.NodePool{Weight: new(int32(7)), Template: tmpl, Disruption: &nodepool.Disruption{ConsolidateAfter: new("30s"), Budgets: []nodepool.Budget{}}}},
	}
	path := rawDB(t, map[string]map[string]string{
		BucketMeta:       {FormatKey: "1", "clock": clockValue},
		BucketNodePools:  {"a/omitted": envelope(v1Omitted), "a/explicit": envelope(v1Explicit)},
		BucketStrategies: {"safe": envelope(`{"spec":{"stages":[{"name":"canary","groups":[{"name":"canary"}]}]}}`)},
	})
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v := rawValue(t, path, BucketMeta, FormatKey); v != strconv.Itoa(FormatVersion) {
		t.Fatalf("format %q after migration", v)
	}
	for key, w := range want {
		got, rec, err := Load[NodePool](s, BucketNodePools, key)
		if err != nil {
			t.Fatal(err)
		}
		if rec.ETag != `"2"` || rec.Generation != 1 {
			t.Errorf("%s: envelope changed: %+v", key, rec)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s migrated\n got  %s\n want %s", key, mustJSON(t, got), mustJSON(t, w))
		}
	}
	if _, _, err := Load[Strategy](s, BucketStrategies, "safe"); err != nil {
		t.Errorf("other records must read as they were: %v", err)
	}
}

// Format 2 kept a decision for every cluster of the fleet; format 3 keeps
// what Fleet's status keeps (placement.StoredDecisions). The migration cuts a format-2
// list to what the cycle that wrote it stores now, keeping the selected
// clusters' recorded scores; the rest of the record and other records stay
// as they were.
func TestMigrateV2(t *testing.T) {
	f, err := inventory.Parse("gen.json", fleetgen.Generate(fleetgen.Options{Clusters: 200, Seed: 4, TaintEvery: 9}), testNow)
	must(t, err)
	spec := placement.Spec{ // PickN 7 of 200 clusters, scored by a preferred label
		ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "app-4"}},
		Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: new(7),
			Affinity: &placement.Affinity{Preferred: []placement.PreferredTerm{
				{Weight: 40, Preference: placement.ClusterSelectorTerm{LabelSelector: &selector.LabelSelector{MatchLabels: map[string]string{"tier": "silver"}}}},
			}},
			Tolerations: []placement.Toleration{{Key: "dedicated", Operator: placement.TolerationOpExists}},
		},
	}
	full, err := placement.Schedule(spec, f, nil, testNow, placement.ScheduleOptions{})
	must(t, err)
	v2 := Placement{Spec: spec, Status: PlacementStatus{ObservedGeneration: 1, Selected: full.Selected, Decisions: full.Decisions,
		Requested: full.Requested, Fulfilled: full.Fulfilled, Policy: spec.Policy, ObservedFleet: "fp",
		Conditions: []Condition{{Type: placement.CondScheduled, Status: placement.StatusTrue, Reason: placement.ReasonFulfilled, LastTransitionTime: testNow}}}}
	failed := Placement{Spec: spec, Status: PlacementStatus{Selected: []string{}, Decisions: []placement.Decision{}, Requested: 7}}
	strategy := `{"spec":{"stages":[{"name":"canary","groups":[{"name":"canary"}]}]}}`
	path := rawDB(t, map[string]map[string]string{
		BucketMeta:       {FormatKey: "2", "clock": clockValue},
		BucketPlacements: {"app": envelope(string(mustJSON(t, engineEncoding(v2)))), "none": envelope(string(mustJSON(t, engineEncoding(failed))))},
		BucketStrategies: {"safe": envelope(strategy)},
	})
	s, err := Open(path)
	must(t, err)
	if v := rawValue(t, path, BucketMeta, FormatKey); v != strconv.Itoa(FormatVersion) {
		t.Fatalf("format %q after migration", v)
	}
	got, rec, err := Load[Placement](s, BucketPlacements, "app")
	must(t, err)
	if rec.ETag != `"2"` || rec.Generation != 1 {
		t.Errorf("envelope changed: %+v", rec)
	}
	want := v2
	want.Status.Decisions = placement.StoredDecisions(full.Decisions) // what the cycle that wrote it stores now
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("migrated placement:\n got  %+v\n want %+v", got, &want)
	}
	none, _, err := Load[Placement](s, BucketPlacements, "none")
	must(t, err)
	if !reflect.DeepEqual(none, &failed) {
		t.Errorf("a placement without decisions:\n got  %+v\n want %+v", none, &failed)
	}
	if st, _, err := Load[Strategy](s, BucketStrategies, "safe"); err != nil || len(st.Spec.Stages) != 1 {
		t.Errorf("other records must read as they were: %+v, %v", st, err)
	}
}

// A format-2 decision with a key format 2 did not have fails the migration,
// as any unknown key does, and leaves the file as it was.
func TestMigrateV2RefusesUnknownFields(t *testing.T) {
	bad := envelope(`{"spec":{"resource_selectors":null,"policy":{"placement_type":"PickAll"},"strategy":{"type":"RollingUpdate","rolling_update":null}},` +
		`"status":{"selected":["a"],"decisions":[{"cluster_name":"a","selected":true,"affinity_score":0,"topology_spread_score":0,"reason":"picked by scheduling policy","score":3}]}}`)
	path := rawDB(t, map[string]map[string]string{BucketMeta: {FormatKey: "2"}, BucketPlacements: {"web": bad}})
	_, err := Open(path)
	for _, want := range []string{"cannot be migrated", `placements/web: body.status.decisions[0]: "score" is not a field of a decision`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want it to say %q", err, want)
		}
	}
	if rawValue(t, path, BucketMeta, FormatKey) != "2" || rawValue(t, path, BucketPlacements, "web") != bad {
		t.Fatal("a failed migration changed the file")
	}
}

// engineEncoding is p in the form formats 1 to 5 stored it.
func engineEncoding(p Placement) v4Placement {
	s := p.Status
	return v4Placement{Spec: p.Spec, Status: v4PlacementStatus{ObservedGeneration: s.ObservedGeneration, Selected: s.Selected,
		Decisions: s.Decisions, Scheduled: s.Scheduled, Requested: s.Requested, Fulfilled: s.Fulfilled, Message: s.Message,
		Conditions: mapSlice(s.Conditions, func(c Condition) v4Condition { return v4Condition(c) }), Policy: s.Policy,
		ObservedFleet: s.ObservedFleet, Rollout: s.Rollout, SelectedResources: s.SelectedResources, RolloutNote: s.RolloutNote}}
}

// Format 5 kept a cluster's completed upgrades with snake_case keys;
// format 6 keeps the mock's own records in camelCase, as the wire forms.
func TestMigrateV5Upgrades(t *testing.T) {
	old := `{"upgrades":[{"at":"2026-11-21T12:00:00Z","run":"r1","kubernetes_version":"1.33.2","node_images":{"AKSUbuntu":"2026.11.01"}}]}`
	path := rawDB(t, map[string]map[string]string{BucketMeta: {FormatKey: "5"}, BucketUpgrades: {"member-a": envelope(old)}})
	s, err := Open(path)
	must(t, err)
	got, _, err := Load[Upgrades](s, BucketUpgrades, "member-a")
	must(t, err)
	want := &Upgrades{Upgrades: []AppliedUpgrade{{At: testNow, Run: "r1", KubernetesVersion: "1.33.2", NodeImages: map[string]string{"AKSUbuntu": "2026.11.01"}}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	rec, err := s.Get(BucketUpgrades, "member-a")
	must(t, err)
	if !strings.Contains(string(rec.Body), `"kubernetesVersion":"1.33.2"`) {
		t.Errorf("stored %s", rec.Body)
	}
}
