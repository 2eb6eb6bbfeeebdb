// Package armfleet is the wire format of the Azure Kubernetes Fleet Manager
// ARM API (Microsoft.ContainerService/fleets, API versions 2025-03-01 and
// 2026-06-01), typed by hand because the Fleet SDK is not on the module
// proxy: the JSON models, ARM resource ids, and the conversions between them
// and the hub's objects. The azure hub's client and the ARM wire emulator
// both speak through these types, so the two cannot drift apart.
//
// Field names, optionality and read-only markers follow the API's TypeSpec
// (designs/hub.md §9 lists the sources); fields the hub does not use are
// omitted, and unknown fields of a response are ignored.
package armfleet

import "time"

// API versions. Gates and maxConcurrency are GA from 2026-06-01; everything
// else this provider uses is in 2025-03-01.
const (
	APIVersion      = "2025-03-01"
	APIVersionGates = "2026-06-01"
)

// Resource types, as ARM reports them in "type".
const (
	TypeFleet              = "Microsoft.ContainerService/fleets"
	TypeMember             = "Microsoft.ContainerService/fleets/members"
	TypeUpdateStrategy     = "Microsoft.ContainerService/fleets/updateStrategies"
	TypeUpdateRun          = "Microsoft.ContainerService/fleets/updateRuns"
	TypeAutoUpgradeProfile = "Microsoft.ContainerService/fleets/autoUpgradeProfiles"
	TypeGate               = "Microsoft.ContainerService/fleets/gates"
)

// Provisioning states of a resource (properties.provisioningState).
const (
	ProvisioningSucceeded = "Succeeded"
	ProvisioningFailed    = "Failed"
	ProvisioningCanceled  = "Canceled"
	ProvisioningAccepted  = "Accepted"
	ProvisioningCreating  = "Creating"
	ProvisioningUpdating  = "Updating"
	ProvisioningDeleting  = "Deleting"
)

// SystemData is ARM's read-only creation and modification record.
type SystemData struct {
	CreatedAt      *time.Time `json:"createdAt,omitempty"`
	LastModifiedAt *time.Time `json:"lastModifiedAt,omitempty"`
}

// Resource is what every Fleet resource carries besides its properties.
type Resource struct {
	ID         string      `json:"id,omitempty"`
	Name       string      `json:"name,omitempty"`
	Type       string      `json:"type,omitempty"`
	ETag       string      `json:"eTag,omitempty"`
	SystemData *SystemData `json:"systemData,omitempty"`
}

// ErrorDetail is ARM's error shape, inside {"error": …}.
type ErrorDetail struct {
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Target  string        `json:"target,omitempty"`
	Details []ErrorDetail `json:"details,omitempty"`
}

// ErrorResponse is the body of every ARM error response.
type ErrorResponse struct {
	Error ErrorDetail `json:"error"`
}

// Operation-status values (the Azure-AsyncOperation document's "status").
const (
	OperationInProgress = "InProgress"
	OperationSucceeded  = "Succeeded"
	OperationFailed     = "Failed"
	OperationCanceled   = "Canceled"
)

// OperationStatus is the document an Azure-AsyncOperation URL returns. For
// generateUpdateRun its id is the generated run's ARM id (GenerateResponse).
type OperationStatus struct {
	ID        string       `json:"id"`
	Name      string       `json:"name"`
	Status    string       `json:"status"`
	StartTime *time.Time   `json:"startTime,omitempty"`
	EndTime   *time.Time   `json:"endTime,omitempty"`
	Error     *ErrorDetail `json:"error,omitempty"`
}

// List is one page of a LIST operation.
type List[T any] struct {
	Value    []T    `json:"value"`
	NextLink string `json:"nextLink,omitempty"`
}

// Fleet is a fleets resource (only what the hub reads).
type Fleet struct {
	Resource
	Location   string          `json:"location,omitempty"`
	Properties FleetProperties `json:"properties"`
}

// FleetProperties are a fleet's properties.
type FleetProperties struct {
	ProvisioningState string           `json:"provisioningState,omitempty"`
	HubProfile        *FleetHubProfile `json:"hubProfile,omitempty"`
}

// FleetHubProfile describes the fleet's hub cluster; absent for a hubless fleet.
type FleetHubProfile struct {
	Fqdn              string `json:"fqdn,omitempty"`
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
	PortalFqdn        string `json:"portalFqdn,omitempty"`
}

// FleetCredentialResults is the body of POST …/listCredentials.
type FleetCredentialResults struct {
	Kubeconfigs []FleetCredentialResult `json:"kubeconfigs"`
}

// FleetCredentialResult is one kubeconfig, base64 in JSON ([]byte).
type FleetCredentialResult struct {
	Name  string `json:"name"`
	Value []byte `json:"value"`
}

// Member is a fleets/members resource.
type Member struct {
	Resource
	Properties MemberProperties `json:"properties"`
}

// MemberProperties are a member's properties.
type MemberProperties struct {
	ClusterResourceID string            `json:"clusterResourceId"`
	Group             string            `json:"group,omitempty"`
	Labels            map[string]string `json:"labels,omitempty"`
	ProvisioningState string            `json:"provisioningState,omitempty"`
}

// UpdateStrategy is a fleets/updateStrategies resource.
type UpdateStrategy struct {
	Resource
	Properties UpdateStrategyProperties `json:"properties"`
}

// UpdateStrategyProperties are a strategy's properties.
type UpdateStrategyProperties struct {
	ProvisioningState string      `json:"provisioningState,omitempty"`
	Strategy          RunStrategy `json:"strategy"`
}

// RunStrategy is the stages of a strategy or run (UpdateRunStrategy).
type RunStrategy struct {
	Stages []Stage `json:"stages"`
}

// Stage is an UpdateStage.
type Stage struct {
	Name                    string              `json:"name"`
	Groups                  []Group             `json:"groups,omitempty"`
	AfterStageWaitInSeconds *int                `json:"afterStageWaitInSeconds,omitempty"`
	MaxConcurrency          string              `json:"maxConcurrency,omitempty"`
	BeforeGates             []GateConfiguration `json:"beforeGates,omitempty"`
	AfterGates              []GateConfiguration `json:"afterGates,omitempty"`
}

// Group is an UpdateGroup.
type Group struct {
	Name           string              `json:"name"`
	MaxConcurrency string              `json:"maxConcurrency,omitempty"`
	BeforeGates    []GateConfiguration `json:"beforeGates,omitempty"`
	AfterGates     []GateConfiguration `json:"afterGates,omitempty"`
}

// Gate types.
const GateTypeApproval = "Approval"

// GateConfiguration declares a gate before or after a stage or group.
type GateConfiguration struct {
	DisplayName string `json:"displayName,omitempty"`
	Type        string `json:"type"`
}

// UpdateRun is a fleets/updateRuns resource.
type UpdateRun struct {
	Resource
	Properties UpdateRunProperties `json:"properties"`
}

// UpdateRunProperties are a run's properties.
type UpdateRunProperties struct {
	ProvisioningState    string               `json:"provisioningState,omitempty"`
	UpdateStrategyID     string               `json:"updateStrategyId,omitempty"`
	Strategy             *RunStrategy         `json:"strategy,omitempty"`
	ManagedClusterUpdate ManagedClusterUpdate `json:"managedClusterUpdate"`
	Status               *UpdateRunStatus     `json:"status,omitempty"`
	AutoUpgradeProfileID string               `json:"autoUpgradeProfileId,omitempty"`
}

// ManagedClusterUpdate is what a run does to each member.
type ManagedClusterUpdate struct {
	Upgrade            UpgradeSpec         `json:"upgrade"`
	NodeImageSelection *NodeImageSelection `json:"nodeImageSelection,omitempty"`
}

// UpgradeSpec is ManagedClusterUpgradeSpec.
type UpgradeSpec struct {
	Type              string `json:"type"`
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
}

// NodeImageSelection chooses node images (Latest, Consistent, Custom).
type NodeImageSelection struct {
	Type                    string             `json:"type"`
	CustomNodeImageVersions []NodeImageVersion `json:"customNodeImageVersions,omitempty"`
}

// NodeImageVersion is "<family>-<version>", e.g.
// AKSUbuntu-2204gen2containerd-202611.10.0. The API marks it read-only, yet
// it is the input of a Custom selection: it is always sent.
type NodeImageVersion struct {
	Version string `json:"version"`
}

// UpdateRunStatus is a run's read-only status.
type UpdateRunStatus struct {
	Status             UpdateStatus              `json:"status"`
	Stages             []StageStatus             `json:"stages,omitempty"`
	NodeImageSelection *NodeImageSelectionStatus `json:"nodeImageSelection,omitempty"`
}

// NodeImageSelectionStatus lists the versions a Consistent selection chose.
type NodeImageSelectionStatus struct {
	SelectedNodeImageVersions []NodeImageVersion `json:"selectedNodeImageVersions,omitempty"`
}

// UpdateStatus is the state of one level of a run.
type UpdateStatus struct {
	StartTime     *time.Time   `json:"startTime,omitempty"`
	CompletedTime *time.Time   `json:"completedTime,omitempty"`
	State         string       `json:"state"`
	Error         *ErrorDetail `json:"error,omitempty"`
}

// StageStatus is UpdateStageStatus.
type StageStatus struct {
	Name                 string             `json:"name"`
	Status               UpdateStatus       `json:"status"`
	Groups               []GroupStatus      `json:"groups,omitempty"`
	AfterStageWaitStatus *WaitStatus        `json:"afterStageWaitStatus,omitempty"`
	BeforeGates          []GateStatusResult `json:"beforeGates,omitempty"`
	AfterGates           []GateStatusResult `json:"afterGates,omitempty"`
}

// WaitStatus is the after-stage wait's status.
type WaitStatus struct {
	Status                UpdateStatus `json:"status"`
	WaitDurationInSeconds int          `json:"waitDurationInSeconds"`
}

// GroupStatus is UpdateGroupStatus.
type GroupStatus struct {
	Name        string             `json:"name"`
	Status      UpdateStatus       `json:"status"`
	Members     []MemberStatus     `json:"members,omitempty"`
	BeforeGates []GateStatusResult `json:"beforeGates,omitempty"`
	AfterGates  []GateStatusResult `json:"afterGates,omitempty"`
}

// MemberStatus is MemberUpdateStatus.
type MemberStatus struct {
	Name              string       `json:"name"`
	ClusterResourceID string       `json:"clusterResourceId,omitempty"`
	OperationID       string       `json:"operationId,omitempty"`
	Message           string       `json:"message,omitempty"`
	Status            UpdateStatus `json:"status"`
}

// GateStatusResult is UpdateRunGateStatus: a gate of the run, with the id
// of the gates resource once the run has reached it.
type GateStatusResult struct {
	DisplayName string       `json:"displayName,omitempty"`
	GateID      string       `json:"gateId,omitempty"`
	Status      UpdateStatus `json:"status"`
}

// SkipProperties is the body of POST …/updateRuns/{r}/skip.
type SkipProperties struct {
	Targets []SkipTarget `json:"targets"`
}

// SkipTarget is one thing to skip.
type SkipTarget struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// AutoUpgradeProfile is a fleets/autoUpgradeProfiles resource.
type AutoUpgradeProfile struct {
	Resource
	Properties AutoUpgradeProfileProperties `json:"properties"`
}

// AutoUpgradeProfileProperties are a profile's properties.
type AutoUpgradeProfileProperties struct {
	ProvisioningState        string                         `json:"provisioningState,omitempty"`
	UpdateStrategyID         string                         `json:"updateStrategyId,omitempty"`
	Channel                  string                         `json:"channel"`
	NodeImageSelection       *AutoUpgradeNodeImageSelection `json:"nodeImageSelection,omitempty"`
	Disabled                 bool                           `json:"disabled,omitempty"`
	TargetKubernetesVersion  string                         `json:"targetKubernetesVersion,omitempty"`
	LongTermSupport          bool                           `json:"longTermSupport,omitempty"`
	AutoUpgradeProfileStatus *AutoUpgradeProfileStatus      `json:"autoUpgradeProfileStatus,omitempty"`
}

// AutoUpgradeNodeImageSelection is Latest or Consistent.
type AutoUpgradeNodeImageSelection struct {
	Type string `json:"type"`
}

// AutoUpgradeProfileStatus is the profile's last trigger.
type AutoUpgradeProfileStatus struct {
	LastTriggeredAt            *time.Time   `json:"lastTriggeredAt,omitempty"`
	LastTriggerStatus          string       `json:"lastTriggerStatus,omitempty"`
	LastTriggerError           *ErrorDetail `json:"lastTriggerError,omitempty"`
	LastTriggerUpgradeVersions []string     `json:"lastTriggerUpgradeVersions,omitempty"`
}

// GenerateResponse is the result of POST …/generateUpdateRun.
type GenerateResponse struct {
	ID string `json:"id"`
}

// Gate states.
const (
	GatePending   = "Pending"
	GateSkipped   = "Skipped"
	GateCompleted = "Completed"
)

// Gate timings.
const (
	GateBefore = "Before"
	GateAfter  = "After"
)

// Gate is a fleets/gates resource, created by a run when it reaches the gate.
type Gate struct {
	Resource
	Properties GateProperties `json:"properties"`
}

// GateProperties are a gate's properties.
type GateProperties struct {
	ProvisioningState string     `json:"provisioningState,omitempty"`
	DisplayName       string     `json:"displayName,omitempty"`
	GateType          string     `json:"gateType"`
	Target            GateTarget `json:"target"`
	State             string     `json:"state"`
}

// GateTarget is the run position a gate guards.
type GateTarget struct {
	ID                  string                   `json:"id"`
	UpdateRunProperties *GateUpdateRunProperties `json:"updateRunProperties,omitempty"`
}

// GateUpdateRunProperties locate the gate in its run.
type GateUpdateRunProperties struct {
	Name   string `json:"name"`
	Stage  string `json:"stage,omitempty"`
	Group  string `json:"group,omitempty"`
	Timing string `json:"timing"`
}

// GatePatch is the body of PATCH …/gates/{g}: approving sets Completed.
type GatePatch struct {
	Properties GatePatchProperties `json:"properties"`
}

// GatePatchProperties hold the new state.
type GatePatchProperties struct {
	State string `json:"state"`
}
