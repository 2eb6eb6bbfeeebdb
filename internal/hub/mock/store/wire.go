package store

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// Records in the upstream wire forms (designs/hub.md §6): a record's Go
// fields are the engine's types, which the mock computes with, and its
// stored form is what Karpenter's, Fleet's or Resource Manager's API holds,
// written and read by the converters the azure hub uses (package kube,
// armfleet). The engine's json tags are Terraform's attribute names; in a
// body stored this way they never reach the database, so renaming an
// attribute needs no migration. NodePools, strategies and profiles are
// stored so since format 5, placements and runs since format 6
// (TestStoredKeysAreNotTerraformNames).
//
// Each record type whose stored form changed to a wire form keeps a twin of
// its earlier form (v4Types; placements and runs kept it through format 5),
// which the migrations of earlier formats decode.

// nodePoolWire is a NodePool's stored form.
type nodePoolWire struct {
	// Spec is the karpenter.sh/v1 NodePool's spec (kube.NodePoolObject).
	Spec map[string]any `json:"spec"`
}

// MarshalJSON stores the NodePool as Karpenter's API holds it.
func (r NodePool) MarshalJSON() ([]byte, error) {
	spec, _ := kube.NodePoolObject("stored", r.Spec).Object["spec"].(map[string]any)
	return json.Marshal(nodePoolWire{Spec: spec})
}

// UnmarshalJSON reads a stored NodePool strictly: a key Karpenter's API
// does not have, or the model cannot hold, is an error.
func (r *NodePool) UnmarshalJSON(data []byte) error {
	var w nodePoolWire
	if err := strictJSON(data, &w); err != nil {
		return err
	}
	obj := &unstructured.Unstructured{Object: map[string]any{"spec": w.Spec}}
	obj.SetGroupVersionKind(kube.NodePoolGVK)
	obj.SetName("stored")
	_, spec, err := kube.NodePoolFromObject(obj)
	if err != nil {
		return err
	}
	*r = NodePool{Spec: spec}
	return nil
}

// strategyWire is an update strategy's stored form: the updateStrategy's
// properties as Resource Manager holds them (armfleet.StrategyToWire).
type strategyWire struct {
	Strategy armfleet.RunStrategy `json:"strategy"`
}

// MarshalJSON stores the strategy as Resource Manager holds it.
func (r Strategy) MarshalJSON() ([]byte, error) {
	return json.Marshal(strategyWire{Strategy: armfleet.StrategyToWire(r.Spec)})
}

// UnmarshalJSON reads a stored strategy strictly.
func (r *Strategy) UnmarshalJSON(data []byte) error {
	var w strategyWire
	if err := strictJSON(data, &w); err != nil {
		return err
	}
	*r = Strategy{Spec: armfleet.StrategyFromWire(w.Strategy)}
	return nil
}

// profileWire is an auto-upgrade profile's stored form: the
// autoUpgradeProfile's properties as Resource Manager holds them, with the
// update strategy id as it was sent (armfleet.ProfileSpecToWire writes a
// name as an ARM id), and what the mock keeps beside them: the runs the
// profile generated (which Resource Manager does not list on the profile)
// and its channel's last resolution.
type profileWire struct {
	Properties armfleet.AutoUpgradeProfileProperties `json:"properties"`
	LastRun    string                                `json:"lastRun,omitempty"`
	Runs       []string                              `json:"runs,omitempty"`
	Trigger    *ProfileTrigger                       `json:"trigger"`
}

// MarshalJSON stores the profile as Resource Manager holds it.
func (r Profile) MarshalJSON() ([]byte, error) {
	p := armfleet.ProfileSpecToWire(armfleet.FleetID{}, r.Spec)
	p.UpdateStrategyID = r.Spec.UpdateStrategyID
	p.AutoUpgradeProfileStatus = armfleet.ProfileStatusToWire(r.Status)
	return json.Marshal(profileWire{Properties: p, LastRun: r.Status.LastRun, Runs: r.Status.Runs, Trigger: r.Trigger})
}

// UnmarshalJSON reads a stored profile strictly.
func (r *Profile) UnmarshalJSON(data []byte) error {
	var w profileWire
	if err := strictJSON(data, &w); err != nil {
		return err
	}
	st := armfleet.ProfileStatusFromWire(w.Properties.AutoUpgradeProfileStatus)
	st.LastRun, st.Runs = w.LastRun, w.Runs
	*r = Profile{Spec: armfleet.ProfileSpecFromWire(w.Properties), Status: st, Trigger: w.Trigger}
	return nil
}

// runWire is an update run's stored form: the updateRun's properties in
// Resource Manager's shape (armfleet.RunSpecToWire), with two ids as the
// mock has them where ARM holds full ARM ids: the update strategy id as it
// was sent, the strategy the run runs (its inline one, or the copy
// of the referenced one: ARM's "strategy"), what it does to each member,
// and the auto-upgrade profile that generated it (by name); beside them,
// whether that profile follows long-term support, which ARM does not say on
// a run.
type runWire struct {
	Properties      armfleet.UpdateRunProperties `json:"properties"`
	LongTermSupport bool                         `json:"longTermSupport,omitempty"`
}

// MarshalJSON stores the run as Resource Manager holds it.
func (r Run) MarshalJSON() ([]byte, error) {
	p := armfleet.RunSpecToWire(armfleet.FleetID{}, r.Spec)
	p.UpdateStrategyID = r.Spec.UpdateStrategyID
	if r.ResolvedStrategy != nil {
		s := armfleet.StrategyToWire(*r.ResolvedStrategy)
		p.Strategy = &s
	}
	w := runWire{Properties: p}
	if a := r.AutoUpgrade; a != nil {
		w.Properties.AutoUpgradeProfileID, w.LongTermSupport = a.Profile, a.LongTermSupport
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a stored run strictly.
func (r *Run) UnmarshalJSON(data []byte) error {
	var w runWire
	if err := strictJSON(data, &w); err != nil {
		return err
	}
	spec, resolved := armfleet.RunSpecFromWire(w.Properties)
	*r = Run{Spec: spec, ResolvedStrategy: resolved}
	if w.Properties.AutoUpgradeProfileID != "" {
		r.AutoUpgrade = &update.AutoUpgrade{Profile: w.Properties.AutoUpgradeProfileID, LongTermSupport: w.LongTermSupport}
	}
	return nil
}

// The mock's own record of a run's history (RunEvents): no upstream API
// holds it, so its keys are the mock's, in the wire forms' camelCase.
type (
	eventsWire struct {
		Events []eventWire `json:"events"`
	}
	eventWire struct {
		Action  string                `json:"action"`
		At      time.Time             `json:"at"`
		Targets []armfleet.SkipTarget `json:"targets,omitempty"` // as a skip action sends them
		Gate    string                `json:"gate,omitempty"`
		Members []memberWire          `json:"members,omitempty"` // what a start saw
	}
	memberWire struct {
		Name              string           `json:"name"`
		Region            string           `json:"region"`
		Group             string           `json:"group"`
		KubernetesVersion string           `json:"kubernetesVersion"`
		NodePools         []memberPoolWire `json:"nodePools"`
		Window            *windowWire      `json:"maintenanceWindow"`
		Failure           string           `json:"failure"`
	}
	memberPoolWire struct {
		Name    string `json:"name"`
		Family  string `json:"family"`
		Version string `json:"version"`
	}
	windowWire struct {
		Schedule      scheduleWire   `json:"schedule"`
		StartTime     string         `json:"startTime"`
		UTCOffset     string         `json:"utcOffset"`
		DurationHours int            `json:"durationHours"`
		StartDate     string         `json:"startDate"`
		NotAllowed    []dateSpanWire `json:"notAllowedDates"`
	}
	scheduleWire struct {
		Type           string `json:"type"`
		IntervalDays   int    `json:"intervalDays"`
		IntervalWeeks  int    `json:"intervalWeeks"`
		IntervalMonths int    `json:"intervalMonths"`
		DayOfWeek      string `json:"dayOfWeek"`
		DayOfMonth     int    `json:"dayOfMonth"`
		WeekIndex      string `json:"weekIndex"`
	}
	dateSpanWire struct {
		Start string `json:"start"`
		End   string `json:"end"`
	}
)

// MarshalJSON stores a run's history in the mock's own form.
func (r RunEvents) MarshalJSON() ([]byte, error) {
	out := eventsWire{Events: make([]eventWire, 0, len(r.Events))}
	for _, e := range r.Events {
		w := eventWire{Action: e.Action, At: e.At, Gate: e.Gate}
		if len(e.Targets) > 0 {
			w.Targets = armfleet.SkipToWire(e.Targets).Targets
		}
		for _, m := range e.Members {
			mw := memberWire{Name: m.Name, Region: m.Region, Group: m.Group, KubernetesVersion: m.KubernetesVersion, Failure: m.Failure}
			for _, p := range m.NodePools {
				mw.NodePools = append(mw.NodePools, memberPoolWire(p))
			}
			if win := m.Window; win != nil {
				ww := windowWire{Schedule: scheduleWire(win.Schedule), StartTime: win.StartTime, UTCOffset: win.UTCOffset,
					DurationHours: win.DurationHours, StartDate: win.StartDate}
				for _, d := range win.NotAllowed {
					ww.NotAllowed = append(ww.NotAllowed, dateSpanWire(d))
				}
				mw.Window = &ww
			}
			w.Members = append(w.Members, mw)
		}
		out.Events = append(out.Events, w)
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a stored run history strictly.
func (r *RunEvents) UnmarshalJSON(data []byte) error {
	var in eventsWire
	if err := strictJSON(data, &in); err != nil {
		return err
	}
	*r = RunEvents{}
	for _, w := range in.Events {
		e := update.Event{Action: w.Action, At: w.At, Gate: w.Gate}
		if len(w.Targets) > 0 {
			e.Targets = armfleet.SkipFromWire(armfleet.SkipProperties{Targets: w.Targets})
		}
		for _, mw := range w.Members {
			m := update.Member{Name: mw.Name, Region: mw.Region, Group: mw.Group, KubernetesVersion: mw.KubernetesVersion, Failure: mw.Failure}
			for _, p := range mw.NodePools {
				m.NodePools = append(m.NodePools, update.MemberNodePool(p))
			}
			if ww := mw.Window; ww != nil {
				win := fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule(ww.Schedule), StartTime: ww.StartTime, UTCOffset: ww.UTCOffset,
					DurationHours: ww.DurationHours, StartDate: ww.StartDate}
				for _, d := range ww.NotAllowed {
					win.NotAllowed = append(win.NotAllowed, fleet.DateSpan(d))
				}
				m.Window = &win
			}
			e.Members = append(e.Members, m)
		}
		r.Events = append(r.Events, e)
	}
	return nil
}

// placementWire is a placement's stored form: the ClusterResourcePlacement's
// spec as Fleet's API holds it (kube.PlacementObject, read back strictly by
// kube.PlacementFromObject), its name as written, and the mock's own record
// of its scheduling and rollout in Fleet's vocabulary: decisions with the
// fields of a policy snapshot's clusterDecision, the policy and strategy as
// the placement's spec holds them, selected resources as
// resourceIdentifiers, conditions with the fields of a Kubernetes condition.
type placementWire struct {
	Name   string              `json:"name,omitempty"`
	Spec   map[string]any      `json:"spec"`
	Status placementStatusWire `json:"status"`
}

type (
	placementStatusWire struct {
		ObservedGeneration int64            `json:"observedGeneration"`
		Selected           []string         `json:"selected"`
		Decisions          []decisionWire   `json:"decisions"`
		Scheduled          []string         `json:"scheduled,omitempty"`
		Requested          int              `json:"requested"`
		Fulfilled          bool             `json:"fulfilled"`
		Message            string           `json:"message"`
		Conditions         []conditionWire  `json:"conditions"`
		Policy             map[string]any   `json:"policy"`
		ObservedFleet      string           `json:"observedFleet"`
		Rollout            *rolloutWire     `json:"rollout,omitempty"`
		SelectedResources  []resourceIDWire `json:"selectedResources,omitempty"`
		RolloutNote        string           `json:"rolloutNote,omitempty"`
	}
	decisionWire struct {
		ClusterName  string    `json:"clusterName"`
		Selected     bool      `json:"selected"`
		ClusterScore scoreWire `json:"clusterScore"`
		Reason       string    `json:"reason"`
	}
	scoreWire struct {
		AffinityScore       int `json:"affinityScore"`
		TopologySpreadScore int `json:"topologySpreadScore"`
	}
	conditionWire struct {
		Type               string    `json:"type"`
		Status             string    `json:"status"`
		Reason             string    `json:"reason"`
		Message            string    `json:"message"`
		LastTransitionTime time.Time `json:"lastTransitionTime"`
	}
	rolloutWire struct {
		ResourceIndex  int            `json:"resourceIndex"`
		ResourceDigest string         `json:"resourceDigest"`
		Untracked      bool           `json:"untracked"`
		Bindings       []bindingWire  `json:"bindings"`
		Policy         map[string]any `json:"policy,omitzero"`
		Strategy       map[string]any `json:"strategy,omitzero"`
		IndexAt        time.Time      `json:"indexAt"`
		At             time.Time      `json:"at"`
	}
	bindingWire struct {
		Cluster   string    `json:"cluster"`
		Index     int       `json:"resourceIndex"`
		AppliedAt time.Time `json:"appliedAt"`
		Failed    bool      `json:"failed,omitempty"`
		Since     time.Time `json:"since,omitzero"`
	}
	resourceIDWire struct {
		Group     string `json:"group"`
		Version   string `json:"version"`
		Kind      string `json:"kind"`
		Namespace string `json:"namespace,omitempty"`
		Name      string `json:"name"`
	}
)

// placementSpecWire is a placement spec as the ClusterResourcePlacement's
// spec holds it.
func placementSpecWire(s placement.Spec) map[string]any {
	spec, _ := kube.PlacementObject(cmp.Or(s.Name, "stored"), s).Object["spec"].(map[string]any)
	return spec
}

// placementSpecFrom reads a stored ClusterResourcePlacement spec strictly.
func placementSpecFrom(name string, spec map[string]any) (placement.Spec, error) {
	obj := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	obj.SetGroupVersionKind(kube.PlacementGVK)
	obj.SetName(cmp.Or(name, "stored"))
	_, s, err := kube.PlacementFromObject(obj)
	s.Name = name
	return s, err
}

// MarshalJSON stores the placement: its spec as Fleet's API holds it.
func (r Placement) MarshalJSON() ([]byte, error) {
	st := r.Status
	w := placementWire{Name: r.Spec.Name, Spec: placementSpecWire(r.Spec), Status: placementStatusWire{
		ObservedGeneration: st.ObservedGeneration, Selected: st.Selected, Scheduled: st.Scheduled, Requested: st.Requested,
		Fulfilled: st.Fulfilled, Message: st.Message, ObservedFleet: st.ObservedFleet, RolloutNote: st.RolloutNote,
	}}
	w.Status.Policy, _ = placementSpecWire(placement.Spec{Policy: st.Policy})["policy"].(map[string]any)
	w.Status.Decisions = mapSlice(st.Decisions, func(d placement.Decision) decisionWire {
		return decisionWire{ClusterName: d.ClusterName, Selected: d.Selected, Reason: d.Reason,
			ClusterScore: scoreWire{AffinityScore: d.AffinityScore, TopologySpreadScore: d.TopologySpreadScore}}
	})
	w.Status.Conditions = mapSlice(st.Conditions, func(c Condition) conditionWire { return conditionWire(c) })
	w.Status.SelectedResources = mapSlice(st.SelectedResources, func(id fleet.ResourceID) resourceIDWire { return resourceIDWire(id) })
	if ro := st.Rollout; ro != nil {
		rw := &rolloutWire{ResourceIndex: ro.Index, ResourceDigest: ro.Digest, Untracked: ro.Untracked, IndexAt: ro.IndexAt, At: ro.At,
			Bindings: mapSlice(ro.Bindings, func(b placement.Binding) bindingWire { return bindingWire(b) })}
		if ro.Policy != nil { // {} for a policy of defaults: present, as the pointer is
			rw.Policy, _ = placementSpecWire(placement.Spec{Policy: *ro.Policy})["policy"].(map[string]any)
			if rw.Policy == nil {
				rw.Policy = map[string]any{}
			}
		}
		if ro.Strategy != nil {
			rw.Strategy, _ = placementSpecWire(placement.Spec{Strategy: *ro.Strategy})["strategy"].(map[string]any)
			if rw.Strategy == nil {
				rw.Strategy = map[string]any{}
			}
		}
		w.Status.Rollout = rw
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a stored placement strictly.
func (r *Placement) UnmarshalJSON(data []byte) error {
	var w placementWire
	if err := strictJSON(data, &w); err != nil {
		return err
	}
	return r.fromWire(w)
}

// UnmarshalJSONFrom reads a stored placement strictly from within its
// envelope, in the pass that reads the envelope (LoadTx): a placement of
// 1,000 clusters is most of its envelope.
func (r *Placement) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var w placementWire
	if err := jsonv2.UnmarshalDecode(dec, &w, strict); err != nil {
		return err
	}
	return r.fromWire(w)
}

// fromWire is the placement w stores.
func (r *Placement) fromWire(w placementWire) error {
	spec, err := placementSpecFrom(w.Name, w.Spec)
	if err != nil {
		return err
	}
	ws := w.Status
	policy, err := placementSpecFrom("", map[string]any{"resourceSelectors": []any{}, "policy": ws.Policy})
	if err != nil {
		return err
	}
	st := PlacementStatus{ObservedGeneration: ws.ObservedGeneration, Selected: slices.Clone(ws.Selected), Scheduled: slices.Clone(ws.Scheduled), Requested: ws.Requested,
		Fulfilled: ws.Fulfilled, Message: ws.Message, ObservedFleet: ws.ObservedFleet, RolloutNote: ws.RolloutNote, Policy: policy.Policy}
	st.Decisions = mapSlice(ws.Decisions, func(d decisionWire) placement.Decision {
		return placement.Decision{ClusterName: d.ClusterName, Selected: d.Selected, Reason: d.Reason,
			AffinityScore: d.ClusterScore.AffinityScore, TopologySpreadScore: d.ClusterScore.TopologySpreadScore}
	})
	st.Conditions = mapSlice(ws.Conditions, func(c conditionWire) Condition { return Condition(c) })
	st.SelectedResources = mapSlice(ws.SelectedResources, func(id resourceIDWire) fleet.ResourceID { return fleet.ResourceID(id) })
	if rw := ws.Rollout; rw != nil {
		ro := &placement.RolloutState{Index: rw.ResourceIndex, Digest: rw.ResourceDigest, Untracked: rw.Untracked, IndexAt: rw.IndexAt, At: rw.At,
			Bindings: mapSlice(rw.Bindings, func(b bindingWire) placement.Binding { return placement.Binding(b) })}
		if rw.Policy != nil {
			s, err := placementSpecFrom("", map[string]any{"resourceSelectors": []any{}, "policy": rw.Policy})
			if err != nil {
				return err
			}
			ro.Policy = &s.Policy
		}
		if rw.Strategy != nil {
			s, err := placementSpecFrom("", map[string]any{"resourceSelectors": []any{}, "strategy": rw.Strategy})
			if err != nil {
				return err
			}
			ro.Strategy = &s.Strategy
		}
		st.Rollout = ro
	}
	*r = Placement{Spec: spec, Status: st}
	return nil
}

// mapSlice maps a slice, nil to nil.
func mapSlice[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// v4Placement is a placement's form in formats 4 and 5 (see v4NodePool):
// the engine's encoding of its spec, decisions, policy and rollout.
type v4Placement struct {
	Spec   placement.Spec    `json:"spec"`
	Status v4PlacementStatus `json:"status"`
}

type v4PlacementStatus struct {
	ObservedGeneration int64                   `json:"observed_generation"`
	Selected           []string                `json:"selected"`
	Decisions          []placement.Decision    `json:"decisions"`
	Scheduled          []string                `json:"scheduled,omitempty"`
	Requested          int                     `json:"requested"`
	Fulfilled          bool                    `json:"fulfilled"`
	Message            string                  `json:"message"`
	Conditions         []v4Condition           `json:"conditions"`
	Policy             placement.Policy        `json:"policy"`
	ObservedFleet      string                  `json:"observed_fleet"`
	Rollout            *placement.RolloutState `json:"rollout,omitempty"`
	SelectedResources  []fleet.ResourceID      `json:"selected_resources,omitempty"`
	RolloutNote        string                  `json:"rollout_note,omitempty"`
}

type v4Condition struct {
	Type               string    `json:"type"`
	Status             string    `json:"status"`
	Reason             string    `json:"reason"`
	Message            string    `json:"message"`
	LastTransitionTime time.Time `json:"last_transition_time"`
}

// record is the placement a format-5 body holds.
func (v v4Placement) record() Placement {
	s := v.Status
	return Placement{Spec: v.Spec, Status: PlacementStatus{ObservedGeneration: s.ObservedGeneration, Selected: s.Selected,
		Decisions: s.Decisions, Scheduled: s.Scheduled, Requested: s.Requested, Fulfilled: s.Fulfilled, Message: s.Message,
		Conditions: mapSlice(s.Conditions, func(c v4Condition) Condition { return Condition(c) }), Policy: s.Policy,
		ObservedFleet: s.ObservedFleet, Rollout: s.Rollout, SelectedResources: s.SelectedResources, RolloutNote: s.RolloutNote}}
}

// v4Upgrades is the form of a cluster's completed upgrades in formats 4 and
// 5, whose keys were snake_case.
type v4Upgrades struct {
	Upgrades []v4AppliedUpgrade `json:"upgrades"`
}

type v4AppliedUpgrade struct {
	At                time.Time         `json:"at"`
	Run               string            `json:"run"`
	KubernetesVersion string            `json:"kubernetes_version,omitempty"`
	NodeImages        map[string]string `json:"node_images,omitempty"`
}

// v4Run and v4RunEvents are the forms of a run and its history in formats 4
// and 5 (see v4NodePool). Those runs stored their status, which no read used.
type v4Run struct {
	Spec             update.RunSpec      `json:"spec"`
	ResolvedStrategy *update.Strategy    `json:"resolved_strategy"`
	Status           update.RunStatus    `json:"status"`
	AutoUpgrade      *update.AutoUpgrade `json:"auto_upgrade"`
}

type v4RunEvents struct {
	Events []update.Event `json:"events"`
}

// v4Strategy and v4Profile are the format-4 forms of a strategy and a
// profile (see v4NodePool).
type v4Strategy struct {
	Spec update.Strategy `json:"spec"`
}

type v4Profile struct {
	Spec    update.ProfileSpec   `json:"spec"`
	Status  update.ProfileStatus `json:"status"`
	Trigger *ProfileTrigger      `json:"trigger"`
}

// v4NodePool is a NodePool's format-4 form: the engine's encoding of its
// spec. It decodes with the engine's json tags as they are; a rename of one
// of them must first give this type a copy of the tags of format 4 (the
// golden format-4 database, testdata/state-v4.db, fails to migrate until it
// does).
type v4NodePool struct {
	Spec nodepool.NodePool `json:"spec"`
}

// strictJSON decodes data into v, refusing unknown keys (and, as
// encoding/json/v2 does, duplicate keys, invalid UTF-8 and anything after
// the value). It decodes with encoding/json/v2 (its mirror,
// github.com/go-json-experiment/json, until Go 1.27 makes it standard),
// which reads a value in one pass where encoding/json's Decoder scans it
// before decoding it: a placement of 1,000 clusters is read in well under
// half the time (BenchmarkPlacementRolloutRead1k500).
func strictJSON(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, strict)
}

// strict refuses unknown keys (strictJSON).
var strict = jsonv2.RejectUnknownMembers(true)
