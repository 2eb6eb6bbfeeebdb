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
	Stages []Stage `json:"stages"`
}

// Stage is a set of groups updated in parallel; stages run one after another.
type Stage struct {
	Name   string  `json:"name"`
	Groups []Group `json:"groups"`
	// AfterStageWaitInSeconds is the wait after the stage; nil means the default (0).
	AfterStageWaitInSeconds *int `json:"after_stage_wait_in_seconds"`
	// MaxConcurrency is an integer or a percentage; empty means the default (50).
	MaxConcurrency string `json:"max_concurrency"`
	BeforeGates    []Gate `json:"before_gates"`
	AfterGates     []Gate `json:"after_gates"`
}

// Group is a named set of members (by their group) updated sequentially or up to MaxConcurrency at a time.
type Group struct {
	Name           string `json:"name"`
	MaxConcurrency string `json:"max_concurrency"` // empty means the default (1)
	BeforeGates    []Gate `json:"before_gates"`
	AfterGates     []Gate `json:"after_gates"`
}

// Gate is an approval gate before or after a stage or group.
type Gate struct {
	Type        string `json:"type"` // Approval
	DisplayName string `json:"display_name"`
}

// ManagedClusterUpdate is what an update run applies.
type ManagedClusterUpdate struct {
	Upgrade            Upgrade            `json:"upgrade"`
	NodeImageSelection NodeImageSelection `json:"node_image_selection"`
}

// Upgrade is the kind of upgrade and, except for NodeImageOnly, its Kubernetes version.
type Upgrade struct {
	Type              string `json:"type"`
	KubernetesVersion string `json:"kubernetes_version"`
}

// NodeImageSelection chooses node image versions.
type NodeImageSelection struct {
	Type                    string   `json:"type"`
	CustomNodeImageVersions []string `json:"custom_node_image_versions"`
}

// RunSpec is an update run: what, and in which order (an inline strategy, a
// referenced strategy copied at creation, or neither: every member one by one).
type RunSpec struct {
	UpdateStrategyID     string               `json:"update_strategy_id"`
	Strategy             *Strategy            `json:"strategy"`
	ManagedClusterUpdate ManagedClusterUpdate `json:"managed_cluster_update"`
}

// SkipTarget names what a skip action skips.
type SkipTarget struct {
	Type string `json:"type"` // Member, Group, Stage or AfterStageWait
	Name string `json:"name"`
}

// RunStatus is the observed progress of a run.
type RunStatus struct {
	State   string        `json:"state"`
	Message string        `json:"message"`
	Stages  []StageStatus `json:"stages"`
	// SelectedNodeImageVersions are the versions chosen for a Consistent selection, per image family.
	SelectedNodeImageVersions map[string]string `json:"selected_node_image_versions"`
	StartTime                 time.Time         `json:"start_time"`
	EndTime                   time.Time         `json:"end_time"`
}

// StageStatus is the progress of one stage.
type StageStatus struct {
	Name    string        `json:"name"`
	State   string        `json:"state"`
	Message string        `json:"message"`
	Groups  []GroupStatus `json:"groups"`
	// AfterStageWait is the state of the wait after the stage.
	AfterStageWait string `json:"after_stage_wait"`
	// Gates are the stage's approval gates, before and after it.
	Gates     []GateStatus `json:"gates,omitempty"`
	StartTime time.Time    `json:"start_time"`
	EndTime   time.Time    `json:"end_time"`
}

// GroupStatus is the progress of one group.
type GroupStatus struct {
	Name      string         `json:"name"`
	State     string         `json:"state"`
	Message   string         `json:"message"`
	Members   []MemberStatus `json:"members"`
	Gates     []GateStatus   `json:"gates,omitempty"`
	StartTime time.Time      `json:"start_time"`
	EndTime   time.Time      `json:"end_time"`
}

// MemberStatus is the progress of one member.
type MemberStatus struct {
	Name        string    `json:"name"`
	State       string    `json:"state"`
	Message     string    `json:"message"`
	FromVersion string    `json:"from_version"`
	ToVersion   string    `json:"to_version"`
	StartTime   time.Time `json:"start_time"`
	EndTime     time.Time `json:"end_time"`
	// KubernetesVersion and NodeImages (family -> version) are what a
	// completed upgrade installed: the hub applies them to the cluster.
	KubernetesVersion string            `json:"kubernetes_version,omitempty"`
	NodeImages        map[string]string `json:"node_images,omitempty"`
}

// GateStatus is an approval gate of a run: Pending once the run reaches it,
// Completed when approved, Skipped with its stage or group.
type GateStatus struct {
	// Key names the gate's position (GateKey); approving it completes the gate.
	Key         string `json:"key"`
	DisplayName string `json:"display_name"`
	Timing      string `json:"timing"`
	State       string `json:"state"`
}

// ProfileSpec is an auto-upgrade profile.
type ProfileSpec struct {
	Channel                 string `json:"channel"`
	UpdateStrategyID        string `json:"update_strategy_id"`
	NodeImageSelectionType  string `json:"node_image_selection"`
	Disabled                bool   `json:"disabled"`
	TargetKubernetesVersion string `json:"target_kubernetes_version"`
	LongTermSupport         bool   `json:"long_term_support"`
}

// Outcomes of a profile's trigger (ProfileStatus.LastTriggerStatus).
const (
	TriggerSucceeded = "Succeeded"
	TriggerFailed    = "Failed"
)

// ProfileStatus records the profile's last trigger.
type ProfileStatus struct {
	LastTriggeredAt            time.Time `json:"last_triggered_at"`
	LastTriggerStatus          string    `json:"last_trigger_status"`
	LastTriggerError           string    `json:"last_trigger_error"`
	LastTriggerUpgradeVersions []string  `json:"last_trigger_upgrade_versions"`
	// LastRun is the update run the last trigger generated.
	LastRun string `json:"last_run"`
	// Runs are the update runs the profile generated that still exist
	// (triggered or generated on demand), oldest first.
	Runs []string `json:"runs"`
}

// Members lists every member of the run, stage by stage, group by group.
func (rs RunStatus) Members() []MemberStatus {
	var out []MemberStatus
	for _, s := range rs.Stages {
		for _, g := range s.Groups {
			out = append(out, g.Members...)
		}
	}
	return out
}

// Gates lists every approval gate of the run: each stage's, then its groups'.
func (rs RunStatus) Gates() []GateStatus {
	var out []GateStatus
	for _, s := range rs.Stages {
		out = append(out, s.Gates...)
		for _, g := range s.Groups {
			out = append(out, g.Gates...)
		}
	}
	return out
}
