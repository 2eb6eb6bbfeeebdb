package armfleet

import (
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// The conversions between the hub's objects and the wire. Whatever the ARM
// API carries survives a round trip (hub → wire → hub) unchanged; what it
// does not carry is listed in designs/hub.md §9 with how the azure hub
// derives it.

// StrategyToWire converts a strategy's stages.
func StrategyToWire(s update.Strategy) RunStrategy {
	out := RunStrategy{Stages: make([]Stage, 0, len(s.Stages))}
	for _, st := range s.Stages {
		ws := Stage{Name: st.Name, AfterStageWaitInSeconds: st.AfterStageWaitInSeconds, MaxConcurrency: st.MaxConcurrency,
			BeforeGates: gatesToWire(st.BeforeGates), AfterGates: gatesToWire(st.AfterGates)}
		for _, g := range st.Groups {
			ws.Groups = append(ws.Groups, Group{Name: g.Name, MaxConcurrency: g.MaxConcurrency,
				BeforeGates: gatesToWire(g.BeforeGates), AfterGates: gatesToWire(g.AfterGates)})
		}
		out.Stages = append(out.Stages, ws)
	}
	return out
}

// StrategyFromWire converts a wire strategy.
func StrategyFromWire(s RunStrategy) update.Strategy {
	var out update.Strategy
	for _, ws := range s.Stages {
		st := update.Stage{Name: ws.Name, AfterStageWaitInSeconds: ws.AfterStageWaitInSeconds, MaxConcurrency: ws.MaxConcurrency,
			BeforeGates: gatesFromWire(ws.BeforeGates), AfterGates: gatesFromWire(ws.AfterGates)}
		for _, g := range ws.Groups {
			st.Groups = append(st.Groups, update.Group{Name: g.Name, MaxConcurrency: g.MaxConcurrency,
				BeforeGates: gatesFromWire(g.BeforeGates), AfterGates: gatesFromWire(g.AfterGates)})
		}
		out.Stages = append(out.Stages, st)
	}
	return out
}

// UsesGates tells whether a strategy needs API version 2026-06-01 (gates or
// maxConcurrency).
func UsesGates(s *RunStrategy) bool {
	if s == nil {
		return false
	}
	for _, st := range s.Stages {
		if st.MaxConcurrency != "" || len(st.BeforeGates)+len(st.AfterGates) > 0 {
			return true
		}
		for _, g := range st.Groups {
			if g.MaxConcurrency != "" || len(g.BeforeGates)+len(g.AfterGates) > 0 {
				return true
			}
		}
	}
	return false
}

func gatesToWire(gs []update.Gate) []GateConfiguration {
	var out []GateConfiguration
	for _, g := range gs {
		out = append(out, GateConfiguration{Type: g.Type, DisplayName: g.DisplayName})
	}
	return out
}

func gatesFromWire(gs []GateConfiguration) []update.Gate {
	var out []update.Gate
	for _, g := range gs {
		out = append(out, update.Gate{Type: g.Type, DisplayName: g.DisplayName})
	}
	return out
}

// resource fills the common resource fields from a hub object.
func resource(f FleetID, collection, typ string, m hub.Meta) Resource {
	r := Resource{ID: f.Child(collection, m.Name), Name: m.Name, Type: typ, ETag: m.ETag}
	if !m.CreatedAt.IsZero() || !m.UpdatedAt.IsZero() {
		r.SystemData = &SystemData{CreatedAt: timePtr(m.CreatedAt), LastModifiedAt: timePtr(m.UpdatedAt)}
	}
	return r
}

// Meta is the hub metadata a wire resource carries.
func (r Resource) Meta() hub.Meta {
	m := hub.Meta{Name: r.Name, ETag: r.ETag}
	if r.SystemData != nil {
		m.CreatedAt, m.UpdatedAt = timeOf(r.SystemData.CreatedAt), timeOf(r.SystemData.LastModifiedAt)
	}
	return m
}

// UpdateStrategyToWire converts a strategy resource of fleet f.
func UpdateStrategyToWire(f FleetID, s hub.UpdateStrategy) UpdateStrategy {
	return UpdateStrategy{Resource: resource(f, UpdateStrategies, TypeUpdateStrategy, s.Meta),
		Properties: UpdateStrategyProperties{ProvisioningState: ProvisioningSucceeded, Strategy: StrategyToWire(s.Spec)}}
}

// UpdateStrategyFromWire converts a wire strategy resource. Resource
// Manager returns the properties it was sent, so the spec read is also the
// written form (hub.UpdateStrategy.Written; the same holds for runs and
// profiles).
func UpdateStrategyFromWire(s UpdateStrategy) hub.UpdateStrategy {
	spec := StrategyFromWire(s.Properties.Strategy)
	return hub.UpdateStrategy{Meta: s.Resource.Meta(), Spec: spec, Written: &spec}
}

// StrategyRef is the ARM id of an update strategy referenced by name or id.
func StrategyRef(f FleetID, nameOrID string) string {
	if nameOrID == "" || strings.Contains(nameOrID, "/") {
		return nameOrID
	}
	return f.Child(UpdateStrategies, nameOrID)
}

// RunSpecToWire converts what a client sends for a run.
func RunSpecToWire(f FleetID, spec update.RunSpec) UpdateRunProperties {
	p := UpdateRunProperties{UpdateStrategyID: StrategyRef(f, spec.UpdateStrategyID),
		ManagedClusterUpdate: ManagedClusterUpdate{Upgrade: UpgradeSpec{Type: spec.ManagedClusterUpdate.Upgrade.Type,
			KubernetesVersion: spec.ManagedClusterUpdate.Upgrade.KubernetesVersion}}}
	if spec.Strategy != nil {
		s := StrategyToWire(*spec.Strategy)
		p.Strategy = &s
	}
	if sel := spec.ManagedClusterUpdate.NodeImageSelection; sel.Type != "" || len(sel.CustomNodeImageVersions) > 0 {
		p.ManagedClusterUpdate.NodeImageSelection = &NodeImageSelection{Type: sel.Type}
		for _, v := range sel.CustomNodeImageVersions {
			p.ManagedClusterUpdate.NodeImageSelection.CustomNodeImageVersions = append(
				p.ManagedClusterUpdate.NodeImageSelection.CustomNodeImageVersions, NodeImageVersion{Version: v})
		}
	}
	return p
}

// RunSpecFromWire converts a run's properties back into the run's
// specification and the strategy it holds. A run created from a strategy id
// holds a snapshot of that strategy in "strategy" (run.tsp): it is the
// resolved strategy, not part of what was asked.
func RunSpecFromWire(p UpdateRunProperties) (spec update.RunSpec, resolved *update.Strategy) {
	spec.UpdateStrategyID = p.UpdateStrategyID
	spec.ManagedClusterUpdate.Upgrade = update.Upgrade{Type: p.ManagedClusterUpdate.Upgrade.Type,
		KubernetesVersion: p.ManagedClusterUpdate.Upgrade.KubernetesVersion}
	if sel := p.ManagedClusterUpdate.NodeImageSelection; sel != nil {
		spec.ManagedClusterUpdate.NodeImageSelection.Type = sel.Type
		for _, v := range sel.CustomNodeImageVersions {
			spec.ManagedClusterUpdate.NodeImageSelection.CustomNodeImageVersions = append(
				spec.ManagedClusterUpdate.NodeImageSelection.CustomNodeImageVersions, v.Version)
		}
	}
	if p.Strategy != nil {
		s := StrategyFromWire(*p.Strategy)
		resolved = &s
		if p.UpdateStrategyID == "" {
			spec.Strategy = &s
		}
	}
	return spec, resolved
}

// UpdateRunToWire converts a run of fleet f with its status. clusterIDs maps
// member names to their managed clusters' ARM ids (for the members' status).
func UpdateRunToWire(f FleetID, r hub.UpdateRun, clusterIDs map[string]string) UpdateRun {
	p := RunSpecToWire(f, r.Spec)
	p.ProvisioningState = ProvisioningSucceeded
	if r.ResolvedStrategy != nil {
		s := StrategyToWire(*r.ResolvedStrategy)
		p.Strategy = &s
	}
	if r.AutoUpgrade != nil {
		p.AutoUpgradeProfileID = f.Child(AutoUpgradeProfiles, r.AutoUpgrade.Profile)
	}
	p.Status = RunStatusToWire(f, r.Name, r.Status, r.ResolvedStrategy, clusterIDs)
	return UpdateRun{Resource: resource(f, UpdateRuns, TypeUpdateRun, r.Meta), Properties: p}
}

// UpdateRunFromWire converts a wire run. The profile rules of a generated
// run (hub.UpdateRun.AutoUpgrade) are not on the wire: the caller fills
// LongTermSupport from the profile it names.
func UpdateRunFromWire(r UpdateRun) hub.UpdateRun {
	spec, resolved := RunSpecFromWire(r.Properties)
	written := spec
	out := hub.UpdateRun{Meta: r.Resource.Meta(), Spec: spec, Written: &written, ResolvedStrategy: resolved}
	if id := r.Properties.AutoUpgradeProfileID; id != "" {
		name, _ := ChildName(AutoUpgradeProfiles, id)
		out.AutoUpgrade = &update.AutoUpgrade{Profile: name}
	}
	if r.Properties.Status != nil {
		out.Status = RunStatusFromWire(*r.Properties.Status)
	}
	return out
}

// RunStatusToWire converts a run's status. The after-stage wait's duration
// comes from the run's strategy.
func RunStatusToWire(f FleetID, run string, st update.RunStatus, strategy *update.Strategy, clusterIDs map[string]string) *UpdateRunStatus {
	if st.State == "" {
		st.State = update.StateNotStarted
	}
	out := &UpdateRunStatus{Status: statusToWire(st.State, st.Message, st.StartTime, st.EndTime)}
	for i, ss := range st.Stages {
		ws := StageStatus{Name: ss.Name, Status: statusToWire(ss.State, ss.Message, ss.StartTime, ss.EndTime)}
		wait := 0
		if strategy != nil && i < len(strategy.Stages) && strategy.Stages[i].AfterStageWaitInSeconds != nil {
			wait = *strategy.Stages[i].AfterStageWaitInSeconds
		}
		if ss.AfterStageWait != "" {
			ws.AfterStageWaitStatus = &WaitStatus{Status: UpdateStatus{State: ss.AfterStageWait}, WaitDurationInSeconds: wait}
		}
		ws.BeforeGates, ws.AfterGates = gateStatusToWire(f, run, ss.Gates)
		for _, gs := range ss.Groups {
			wg := GroupStatus{Name: gs.Name, Status: statusToWire(gs.State, gs.Message, gs.StartTime, gs.EndTime)}
			wg.BeforeGates, wg.AfterGates = gateStatusToWire(f, run, gs.Gates)
			for _, m := range gs.Members {
				wg.Members = append(wg.Members, MemberStatus{Name: m.Name, ClusterResourceID: clusterIDs[m.Name], Message: m.Message,
					Status: statusToWire(m.State, "", m.StartTime, m.EndTime)})
			}
			ws.Groups = append(ws.Groups, wg)
		}
		out.Stages = append(out.Stages, ws)
	}
	if len(st.SelectedNodeImageVersions) > 0 {
		out.NodeImageSelection = &NodeImageSelectionStatus{}
		for _, family := range sortedKeys(st.SelectedNodeImageVersions) {
			out.NodeImageSelection.SelectedNodeImageVersions = append(out.NodeImageSelection.SelectedNodeImageVersions,
				NodeImageVersion{Version: NodeImageName(family, st.SelectedNodeImageVersions[family])})
		}
	}
	return out
}

// RunStatusFromWire converts a wire run status.
func RunStatusFromWire(w UpdateRunStatus) update.RunStatus {
	out := update.RunStatus{State: w.Status.State, Message: errMessage(w.Status.Error),
		StartTime: timeOf(w.Status.StartTime), EndTime: timeOf(w.Status.CompletedTime)}
	for _, ws := range w.Stages {
		ss := update.StageStatus{Name: ws.Name, State: ws.Status.State, Message: errMessage(ws.Status.Error),
			StartTime: timeOf(ws.Status.StartTime), EndTime: timeOf(ws.Status.CompletedTime),
			Gates: gateStatusFromWire(ws.Name, "", ws.BeforeGates, ws.AfterGates)}
		if ws.AfterStageWaitStatus != nil {
			ss.AfterStageWait = ws.AfterStageWaitStatus.Status.State
		}
		for _, wg := range ws.Groups {
			gs := update.GroupStatus{Name: wg.Name, State: wg.Status.State, Message: errMessage(wg.Status.Error),
				StartTime: timeOf(wg.Status.StartTime), EndTime: timeOf(wg.Status.CompletedTime),
				Gates: gateStatusFromWire(ws.Name, wg.Name, wg.BeforeGates, wg.AfterGates)}
			for _, m := range wg.Members {
				msg := m.Message
				if msg == "" {
					msg = errMessage(m.Status.Error)
				}
				gs.Members = append(gs.Members, update.MemberStatus{Name: m.Name, State: m.Status.State, Message: msg,
					StartTime: timeOf(m.Status.StartTime), EndTime: timeOf(m.Status.CompletedTime)})
			}
			ss.Groups = append(ss.Groups, gs)
		}
		out.Stages = append(out.Stages, ss)
	}
	if w.NodeImageSelection != nil {
		for _, v := range w.NodeImageSelection.SelectedNodeImageVersions {
			family, version := SplitNodeImage(v.Version)
			if out.SelectedNodeImageVersions == nil {
				out.SelectedNodeImageVersions = map[string]string{}
			}
			out.SelectedNodeImageVersions[family] = version
		}
	}
	return out
}

// NodeImageName is the API's name of a node image version: "<family>-<version>".
func NodeImageName(family, version string) string { return family + "-" + version }

// SplitNodeImage splits "<family>-<version>"; the version (e.g. 202611.10.0)
// has no dash.
func SplitNodeImage(name string) (family, version string) {
	i := strings.LastIndex(name, "-")
	if i < 0 {
		return "", name
	}
	return name[:i], name[i+1:]
}

// ErrorCodeUpdateFailed is the code of the error a failed level of a run reports.
const ErrorCodeUpdateFailed = "UpdateFailed"

// statusToWire converts a level's state; a message of a level other than a
// member travels as the level's error (ARM has no message there), a member's
// in its own message field.
func statusToWire(state, msg string, start, end time.Time) UpdateStatus {
	s := UpdateStatus{State: state, StartTime: timePtr(start), CompletedTime: timePtr(end)}
	if msg != "" {
		s.Error = &ErrorDetail{Code: ErrorCodeUpdateFailed, Message: msg}
	}
	return s
}

func errMessage(e *ErrorDetail) string {
	if e == nil {
		return ""
	}
	return e.Message
}

// GateName is the name (a GUID, as ARM names gates) of the gates resource
// of run at one gate position: derived from the run and the position, so
// that every reader names the same gate without storing it.
func GateName(f FleetID, run, key string) string {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte(strings.ToLower(f.Child(UpdateRuns, run))+"#"+key)).String()
}

func gateStatusToWire(f FleetID, run string, gs []update.GateStatus) (before, after []GateStatusResult) {
	for _, g := range gs {
		w := GateStatusResult{DisplayName: g.DisplayName, Status: UpdateStatus{State: g.State}}
		if g.State != update.StateNotStarted && g.State != "" {
			w.GateID = f.Child(Gates, GateName(f, run, g.Key))
		}
		if g.Timing == update.TimingAfter {
			after = append(after, w)
		} else {
			before = append(before, w)
		}
	}
	return before, after
}

func gateStatusFromWire(stage, group string, before, after []GateStatusResult) []update.GateStatus {
	var out []update.GateStatus
	add := func(timing string, ws []GateStatusResult) {
		for _, w := range ws {
			out = append(out, update.GateStatus{Key: update.GateKey(stage, group, timing), DisplayName: w.DisplayName, Timing: timing, State: w.Status.State})
		}
	}
	add(update.TimingBefore, before)
	add(update.TimingAfter, after)
	return out
}

// ProfileToWire converts an auto-upgrade profile of fleet f.
func ProfileToWire(f FleetID, p hub.AutoUpgradeProfile) AutoUpgradeProfile {
	props := ProfileSpecToWire(f, p.Spec)
	props.ProvisioningState = ProvisioningSucceeded
	props.AutoUpgradeProfileStatus = ProfileStatusToWire(p.Status)
	return AutoUpgradeProfile{Resource: resource(f, AutoUpgradeProfiles, TypeAutoUpgradeProfile, p.Meta), Properties: props}
}

// ProfileStatusToWire is a profile's autoUpgradeProfileStatus: nil until
// it triggered. The runs it generated (LastRun, Runs) are not on the wire.
func ProfileStatusToWire(st update.ProfileStatus) *AutoUpgradeProfileStatus {
	if st.LastTriggeredAt.IsZero() && st.LastTriggerStatus == "" && st.LastTriggerError == "" && len(st.LastTriggerUpgradeVersions) == 0 {
		return nil
	}
	out := &AutoUpgradeProfileStatus{LastTriggeredAt: timePtr(st.LastTriggeredAt),
		LastTriggerStatus: st.LastTriggerStatus, LastTriggerUpgradeVersions: st.LastTriggerUpgradeVersions}
	if st.LastTriggerError != "" {
		out.LastTriggerError = &ErrorDetail{Code: ErrorCodeTriggerFailed, Message: st.LastTriggerError}
	}
	return out
}

// ProfileStatusFromWire is the status autoUpgradeProfileStatus reports.
func ProfileStatusFromWire(st *AutoUpgradeProfileStatus) update.ProfileStatus {
	if st == nil {
		return update.ProfileStatus{}
	}
	return update.ProfileStatus{LastTriggeredAt: timeOf(st.LastTriggeredAt), LastTriggerStatus: st.LastTriggerStatus,
		LastTriggerError: errMessage(st.LastTriggerError), LastTriggerUpgradeVersions: st.LastTriggerUpgradeVersions}
}

// ErrorCodeTriggerFailed is the code of a failed trigger's error.
const ErrorCodeTriggerFailed = "TriggerFailed"

// ProfileSpecToWire converts what a client sends for a profile.
func ProfileSpecToWire(f FleetID, s update.ProfileSpec) AutoUpgradeProfileProperties {
	p := AutoUpgradeProfileProperties{UpdateStrategyID: StrategyRef(f, s.UpdateStrategyID), Channel: s.Channel, Disabled: s.Disabled,
		TargetKubernetesVersion: s.TargetKubernetesVersion, LongTermSupport: s.LongTermSupport}
	if s.NodeImageSelectionType != "" {
		p.NodeImageSelection = &AutoUpgradeNodeImageSelection{Type: s.NodeImageSelectionType}
	}
	return p
}

// ProfileFromWire converts a wire profile. The runs a profile generated
// (ProfileStatus.LastRun, Runs) are not on the wire: the azure hub finds
// them among the runs by their autoUpgradeProfileId.
func ProfileFromWire(w AutoUpgradeProfile) hub.AutoUpgradeProfile {
	out := hub.AutoUpgradeProfile{Meta: w.Resource.Meta(), Spec: ProfileSpecFromWire(w.Properties),
		Status: ProfileStatusFromWire(w.Properties.AutoUpgradeProfileStatus)}
	written := out.Spec
	out.Written = &written
	return out
}

// ProfileSpecFromWire is the spec a profile's properties hold.
func ProfileSpecFromWire(p AutoUpgradeProfileProperties) update.ProfileSpec {
	s := update.ProfileSpec{Channel: p.Channel, UpdateStrategyID: p.UpdateStrategyID,
		Disabled: p.Disabled, TargetKubernetesVersion: p.TargetKubernetesVersion, LongTermSupport: p.LongTermSupport}
	if p.NodeImageSelection != nil {
		s.NodeImageSelectionType = p.NodeImageSelection.Type
	}
	return s
}

// SkipToWire converts skip targets.
func SkipToWire(ts []update.SkipTarget) SkipProperties {
	out := SkipProperties{Targets: []SkipTarget{}}
	for _, t := range ts {
		out.Targets = append(out.Targets, SkipTarget{Type: t.Type, Name: t.Name})
	}
	return out
}

// SkipFromWire converts a skip request body.
func SkipFromWire(s SkipProperties) []update.SkipTarget {
	var out []update.SkipTarget
	for _, t := range s.Targets {
		out = append(out, update.SkipTarget{Type: t.Type, Name: t.Name})
	}
	return out
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func timeOf(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
