// Package update is the domain of fleet update orchestration: update
// strategies (stages of groups), update runs (one rollout) and auto-upgrade
// profiles (channels that generate runs), as modelled by the Azure Fleet
// Manager ARM resources fleets/updateStrategies, fleets/updateRuns and
// fleets/autoUpgradeProfiles.
package update

import "time"

// States at every level of a run (run, stage, group, member, gate).
const (
	StateNotStarted = "NotStarted"
	StateRunning    = "Running"
	StatePending    = "Pending"
	StateSkipped    = "Skipped"
	StateStopping   = "Stopping"
	StateStopped    = "Stopped"
	StateFailed     = "Failed"
	StateCompleted  = "Completed"
)

// Upgrade types of a managed-cluster update.
const (
	UpgradeFull             = "Full"
	UpgradeControlPlaneOnly = "ControlPlaneOnly"
	UpgradeNodeImageOnly    = "NodeImageOnly"
)

// Node image selection types.
const (
	NodeImageLatest     = "Latest"
	NodeImageConsistent = "Consistent"
	NodeImageCustom     = "Custom"
)

// Auto-upgrade channels.
const (
	ChannelStable                  = "Stable"
	ChannelRapid                   = "Rapid"
	ChannelNodeImage               = "NodeImage"
	ChannelTargetKubernetesVersion = "TargetKubernetesVersion"
)

// Skip target types.
const (
	TargetMember         = "Member"
	TargetGroup          = "Group"
	TargetStage          = "Stage"
	TargetAfterStageWait = "AfterStageWait"
)

// Strategy is an ordered list of stages; it holds no versions.
type Strategy struct {
	Stages []Stage
}

// Stage is a set of groups updated in parallel; stages run one after another.
type Stage struct {
	Name                    string
	Groups                  []Group
	AfterStageWaitInSeconds int
	// MaxConcurrency is an integer or a percentage; empty means the default (50).
	MaxConcurrency string
	BeforeGates    []Gate
	AfterGates     []Gate
}

// Group is a named set of members (by their group) updated sequentially or up to MaxConcurrency at a time.
type Group struct {
	Name           string
	MaxConcurrency string // empty means the default (1)
	BeforeGates    []Gate
	AfterGates     []Gate
}

// Gate is an approval gate before or after a stage or group.
type Gate struct {
	Type        string // Approval
	DisplayName string
}

// ManagedClusterUpdate is what an update run applies.
type ManagedClusterUpdate struct {
	Upgrade            Upgrade
	NodeImageSelection NodeImageSelection
}

// Upgrade is the kind of upgrade and, except for NodeImageOnly, its Kubernetes version.
type Upgrade struct {
	Type              string
	KubernetesVersion string
}

// NodeImageSelection chooses node image versions.
type NodeImageSelection struct {
	Type                    string
	CustomNodeImageVersions []string
}

// RunSpec is an update run: what, and in which order (an inline strategy, a
// referenced strategy copied at creation, or neither: every member one by one).
type RunSpec struct {
	UpdateStrategyID     string
	Strategy             *Strategy
	ManagedClusterUpdate ManagedClusterUpdate
}

// SkipTarget names what a skip action skips.
type SkipTarget struct {
	Type string // Member, Group, Stage or AfterStageWait
	Name string
}

// RunStatus is the observed progress of a run.
type RunStatus struct {
	State   string
	Message string
	Stages  []StageStatus
	// SelectedNodeImageVersions are the versions chosen for a Consistent selection, per image family.
	SelectedNodeImageVersions map[string]string
	StartTime, EndTime        time.Time
}

// StageStatus is the progress of one stage.
type StageStatus struct {
	Name    string
	State   string
	Message string
	Groups  []GroupStatus
	// AfterStageWait is the state of the wait after the stage.
	AfterStageWait     string
	StartTime, EndTime time.Time
}

// GroupStatus is the progress of one group.
type GroupStatus struct {
	Name               string
	State              string
	Message            string
	Members            []MemberStatus
	StartTime, EndTime time.Time
}

// MemberStatus is the progress of one member.
type MemberStatus struct {
	Name               string
	State              string
	Message            string
	FromVersion        string
	ToVersion          string
	StartTime, EndTime time.Time
}

// ProfileSpec is an auto-upgrade profile.
type ProfileSpec struct {
	Channel                 string
	UpdateStrategyID        string
	NodeImageSelectionType  string
	Disabled                bool
	TargetKubernetesVersion string
	LongTermSupport         bool
}

// ProfileStatus records the profile's last trigger.
type ProfileStatus struct {
	LastTriggeredAt            time.Time
	LastTriggerStatus          string
	LastTriggerError           string
	LastTriggerUpgradeVersions []string
	// LastRun is the update run the last trigger generated.
	LastRun string
}
