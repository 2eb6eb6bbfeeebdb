// Package hub defines the system that owns the fleet, behind one interface
// with two implementations: mock (an embedded simulated fleet, the default)
// and azure (Azure Resource Manager and the fleet hub cluster). Its folder
// holds what ships — the interface, the contract suite (hubtest), the two
// hubs and the Kubernetes converters (kube); the wire twin the azure hub is
// tested against is internal/emulator.
//
// Hubs store and execute; they never decide policy. Every rule lives in
// internal/engine, and a hub calls the engine where the real system runs the
// same logic (the mock hub runs the Fleet scheduler when a placement is
// applied, as the real hub's scheduler does).
//
// The interface follows the real APIs: every object has an ETag and writes
// take a Precondition (If-Match / If-None-Match), objects not found return
// ErrNotFound, and a write that the service would refuse because of the
// object's state returns a *ConflictError, and one it refuses for what it
// asks (a missing reference) an *InvalidError.
package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

// Hub is what the provider applies against.
type Hub interface {
	Inventory
	Placements
	UpdateStrategies
	UpdateRuns
	AutoUpgradeProfiles
	NodePools
}

// Inventory is the read side of the fleet: its members and release catalogs.
type Inventory interface {
	// Now is the hub's clock. The mock hub may run a fixed or scaled clock;
	// every time-dependent evaluation uses it, never the local clock.
	Now() time.Time
	// Fleet returns the current fleet: every member cluster with all its
	// facts, and the regions' release catalogs. Callers must not modify it.
	Fleet(ctx context.Context) (*fleet.Fleet, error)
	// Identity is the fleet's place in Azure Resource Manager: what the ARM
	// id of any of its resources names.
	Identity() FleetRef
}

// FleetRef is a fleet's subscription, resource group and name.
type FleetRef struct {
	SubscriptionID string
	ResourceGroup  string
	Name           string
}

// ID is the fleet's ARM id.
func (f FleetRef) ID() string {
	return "/subscriptions/" + f.SubscriptionID + "/resourceGroups/" + f.ResourceGroup + "/providers/Microsoft.ContainerService/fleets/" + f.Name
}

// Placements is the ClusterResourcePlacement API of the fleet hub cluster.
type Placements interface {
	// GetPlacement reads a placement. A hub may serve the reads of one
	// process from one listing of the hub cluster (the azure hub does); a
	// caller that waits for the placement to change asks for what the hub
	// holds now with FreshReads.
	GetPlacement(ctx context.Context, name string) (*Placement, error)
	// ApplyPlacement creates or updates a placement; the hub's scheduler then
	// makes its decisions, which the returned status reports.
	ApplyPlacement(ctx context.Context, p Placement, pre Precondition) (*Placement, error)
	DeletePlacement(ctx context.Context, name string, pre Precondition) error
	// HubResources returns what the hub cluster holds that selectors may
	// select (designs/placement.md §9): the kinds it serves, each group in
	// its preferred version, and the objects of the cluster-scoped kinds
	// the selectors name — a Namespace with every object in it. More than
	// MaxHubObjects objects is an error.
	HubResources(ctx context.Context, selectors []placement.ResourceSelector) (fleet.HubResources, error)
}

// MaxHubObjects bounds the hub-cluster objects HubResources reads for one
// placement's selectors.
const MaxHubObjects = 10_000

// UpdateStrategies is the fleets/updateStrategies API.
type UpdateStrategies interface {
	GetUpdateStrategy(ctx context.Context, name string) (*UpdateStrategy, error)
	PutUpdateStrategy(ctx context.Context, s UpdateStrategy, pre Precondition) (*UpdateStrategy, error)
	DeleteUpdateStrategy(ctx context.Context, name string, pre Precondition) error
}

// UpdateRuns is the fleets/updateRuns API with its actions.
type UpdateRuns interface {
	GetUpdateRun(ctx context.Context, name string) (*UpdateRun, error)
	// PutUpdateRun creates a run (not started) or changes one that is still
	// NotStarted; otherwise it returns a *ConflictError.
	PutUpdateRun(ctx context.Context, r UpdateRun, pre Precondition) (*UpdateRun, error)
	DeleteUpdateRun(ctx context.Context, name string, pre Precondition) error
	// StartUpdateRun starts a run that is NotStarted, Stopped, Failed or Completed.
	StartUpdateRun(ctx context.Context, name string, pre Precondition) (*UpdateRun, error)
	// StopUpdateRun stops a running run: nothing new starts.
	StopUpdateRun(ctx context.Context, name string, pre Precondition) (*UpdateRun, error)
	// SkipUpdateRun skips members, groups, stages or after-stage waits.
	SkipUpdateRun(ctx context.Context, name string, targets []update.SkipTarget, pre Precondition) (*UpdateRun, error)
	// ApproveUpdateRunGate completes the approval gates at one position of a
	// run (update.GateKey, e.g. "prod/canary:before"); they must be Pending:
	// reached by the run and not yet approved (the ARM API's gates PATCH).
	ApproveUpdateRunGate(ctx context.Context, name, gate string, pre Precondition) (*UpdateRun, error)
	// UpgradeDuration is the nominal time one member's upgrade takes, which
	// previews use to estimate a rollout's timeline.
	UpgradeDuration() time.Duration
}

// AutoUpgradeProfiles is the fleets/autoUpgradeProfiles API.
type AutoUpgradeProfiles interface {
	GetAutoUpgradeProfile(ctx context.Context, name string) (*AutoUpgradeProfile, error)
	PutAutoUpgradeProfile(ctx context.Context, p AutoUpgradeProfile, pre Precondition) (*AutoUpgradeProfile, error)
	DeleteAutoUpgradeProfile(ctx context.Context, name string, pre Precondition) error
	// GenerateUpdateRun creates (without starting) the run the profile would
	// trigger now, and returns its name.
	GenerateUpdateRun(ctx context.Context, profile string) (string, error)
}

// NodePools is the karpenter.sh/v1 NodePool API of member clusters.
type NodePools interface {
	GetNodePool(ctx context.Context, cluster, name string) (*NodePool, error)
	ApplyNodePool(ctx context.Context, np NodePool, pre Precondition) (*NodePool, error)
	DeleteNodePool(ctx context.Context, cluster, name string, pre Precondition) error
	// NodePoolNodes lists a pool's live nodes (those labelled
	// karpenter.sh/nodepool=<name>), whether or not the NodePool is managed here.
	NodePoolNodes(ctx context.Context, cluster, name string) (NodePoolStatus, error)
}

// Meta is what every hub object carries.
type Meta struct {
	Name       string
	ETag       string
	Generation int64
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Precondition guards a write.
type Precondition struct {
	// IfMatch requires the object's current ETag.
	IfMatch string
	// IfNoneMatch requires that the object does not exist yet.
	IfNoneMatch bool
}

// Condition is a Kubernetes-style status condition.
type Condition struct {
	Type               string
	Status             string
	Reason             string
	Message            string
	LastTransitionTime time.Time
}

// Placement is a ClusterResourcePlacement.
type Placement struct {
	Meta
	Spec placement.Spec
	// Written is the spec as its writer sent it, before the server filled in
	// its defaults, when the hub knows it; nil when it does not. An import
	// records it (designs/hub.md §5, the written form).
	Written *placement.Spec
	Status  PlacementStatus
}

// PlacementStatus is what the hub's scheduler decided, as every hub reports it.
type PlacementStatus struct {
	// ObservedGeneration is the generation of the specification the decisions were made for.
	ObservedGeneration int64
	// Selected are the clusters the placement holds, sorted.
	Selected []string
	// Decisions are the scheduler's decisions of the last scheduling cycle,
	// in the order Fleet's status lists them. A selected cluster's decision
	// carries the score recorded when the cluster was picked (Fleet keeps it
	// on the cluster's binding): placement.RecordedScores reads them back for
	// the next cycle, whose scale-in ranks by them.
	Decisions []placement.Decision
	// Scheduled are the selected clusters whose bindings are not bound yet
	// (Fleet's Scheduled state; placement.BindingStates), sorted: the next
	// scale-in removes them first.
	Scheduled []string
	// Requested is how many clusters the policy asks for: numberOfClusters for
	// PickN, the number of cluster names for PickFixed, -1 for PickAll.
	Requested int
	// Fulfilled tells whether the scheduler found every cluster requested.
	Fulfilled bool
	// Message explains an unfulfilled policy; empty when fulfilled.
	Message string
	// Conditions are the placement's: ClusterResourcePlacementScheduled,
	// then the resource conditions of its rollout (designs/placement.md §11).
	Conditions []Condition
	// SelectedResources are the resources the placement selected, in the
	// order Fleet's status lists them.
	SelectedResources []fleet.ResourceID
	// Clusters are the selected clusters' placement statuses, by name.
	Clusters []placement.ClusterStatus
	// Rollout is where the rollout of the latest resources stands
	// (placement.RolloutNote); empty when it is done or unknown.
	Rollout string
	// ResourceIndex is the latest resource snapshot's index and
	// ResourceDigest what its resources say (placement.Selection.Digest);
	// Bindings are the bindings as the rollout controller sees them. The
	// preview of a change plans its rollout from them; nil when the hub
	// cannot say, and the preview takes every selected cluster as
	// available on the latest snapshot.
	ResourceIndex  int
	ResourceDigest string
	Bindings       []placement.Binding
}

// UpdateStrategy is a fleets/updateStrategies resource.
type UpdateStrategy struct {
	Meta
	Spec update.Strategy
	// Written is the spec as its writer sent it, before the server filled in
	// its defaults, when the hub knows it; nil when it does not. An import
	// records it (designs/hub.md §5, the written form).
	Written *update.Strategy
}

// UpdateRun is a fleets/updateRuns resource.
type UpdateRun struct {
	Meta
	Spec update.RunSpec
	// Written is the spec as its writer sent it, before the server filled in
	// its defaults, when the hub knows it; nil when it does not. An import
	// records it (designs/hub.md §5, the written form).
	Written *update.RunSpec
	// ResolvedStrategy is the strategy copied into the run when it was created.
	ResolvedStrategy *update.Strategy
	Status           update.RunStatus
	// AutoUpgrade names the auto-upgrade profile that generated the run
	// (ARM's read-only autoUpgradeProfileId) and carries the profile's
	// rules that apply to it; nil for a run created directly.
	AutoUpgrade *update.AutoUpgrade
}

// AutoUpgradeProfile is a fleets/autoUpgradeProfiles resource.
type AutoUpgradeProfile struct {
	Meta
	Spec update.ProfileSpec
	// Written is the spec as its writer sent it, before the server filled in
	// its defaults, when the hub knows it; nil when it does not. An import
	// records it (designs/hub.md §5, the written form).
	Written *update.ProfileSpec
	Status  update.ProfileStatus
}

// NodePool is a Karpenter NodePool on a member cluster.
type NodePool struct {
	Meta
	Cluster string
	Spec    nodepool.NodePool
	// Written is the spec as its writer sent it, before the server filled in
	// its defaults, when the hub knows it; nil when it does not. An import
	// records it (designs/hub.md §5, the written form).
	Written *nodepool.NodePool
	Status  NodePoolStatus
}

// NodePoolStatus is the pool's live state.
type NodePoolStatus struct {
	Nodes      []nodepool.Node
	Total      int
	Disrupting int
}

// ErrNotFound is returned for an object that does not exist.
var ErrNotFound = errors.New("not found")

// ErrPreconditionFailed is returned when an ETag precondition does not hold.
var ErrPreconditionFailed = errors.New("precondition failed: the object was changed by someone else")

// ConflictError is a write the service refuses because of the object's state.
type ConflictError struct {
	Object string
	Reason string
}

func (e *ConflictError) Error() string { return fmt.Sprintf("conflict: %s: %s", e.Object, e.Reason) }

// InvalidError is a request the service refuses for what it asks, whatever
// the object's state: a reference to something that does not exist, a
// target the object does not have (ARM's 400 and 404 on a reference).
type InvalidError struct {
	Object string
	Reason string
}

func (e *InvalidError) Error() string { return fmt.Sprintf("invalid: %s: %s", e.Object, e.Reason) }

// ClusterError is a cluster that cannot serve a request: the fleet hub
// cluster or a member cluster that cannot be reached, refuses the
// credential, or does not serve the API asked for.
type ClusterError struct {
	// Cluster names it: "the fleet hub cluster", "member cluster \"x\"".
	Cluster string
	// Problem says what is wrong; Fix what to check or do.
	Problem string
	Fix     string
}

func (e *ClusterError) Error() string { return e.Cluster + ": " + e.Problem + ": " + e.Fix }

// ObjectMeta gives generic code access to an object's metadata.
func (m *Meta) ObjectMeta() *Meta { return m }

type freshReadsKey struct{}

// FreshReads is ctx for reads that must see what the hub holds now, not
// what it listed earlier in the process: a wait polling for a change.
func FreshReads(ctx context.Context) context.Context {
	return context.WithValue(ctx, freshReadsKey{}, true)
}

// FreshReadsOf tells whether ctx asks for fresh reads (FreshReads).
func FreshReadsOf(ctx context.Context) bool {
	fresh, _ := ctx.Value(freshReadsKey{}).(bool)
	return fresh
}
