package store

import (
	"maps"
	"reflect"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

// The record format of the state database (FormatVersion, see format.go).
//
// Every object is stored as an envelope (Record: ETag, generation, times)
// whose body is one of the record types below. They belong to the mock, not
// to the hub package: they hold what the mock keeps beside the hub's view of
// an object (the policy and fleet a placement was scheduled for) and leave out
// what is not stored (the name, which is the key, a NodePool's live status,
// a run's status). A record's Go fields are the engine's types, which the
// mock computes with; its stored form is an upstream wire form or the
// mock's own, written by its MarshalJSON (wire.go), never the engine's
// encoding. Every stored field carries a json tag, so renaming a Go field
// changes nothing on disk (TestStoredFormsAreTagged); changing a stored key
// or the meaning of a stored value needs a new format version and a
// migration.

// recordTypes maps each bucket of hub objects to the type of its bodies. The
// typed accessors refuse any other type, so everything stored is listed here,
// and the tag test and the migration of unversioned databases use this list.
var recordTypes = map[string]reflect.Type{
	BucketPlacements: reflect.TypeFor[Placement](),
	BucketStrategies: reflect.TypeFor[Strategy](),
	BucketRuns:       reflect.TypeFor[Run](),
	BucketRunEvents:  reflect.TypeFor[RunEvents](),
	BucketProfiles:   reflect.TypeFor[Profile](),
	BucketNodePools:  reflect.TypeFor[NodePool](),
	BucketUpgrades:   reflect.TypeFor[Upgrades](),
}

// v4Types are the types of the bodies of format 4, which the migrations of
// earlier formats produce: a record type whose stored form changed since
// has its format-4 twin here (wire.go).
var v4Types = func() map[string]reflect.Type {
	m := maps.Clone(recordTypes)
	m[BucketNodePools] = reflect.TypeFor[v4NodePool]()
	m[BucketStrategies] = reflect.TypeFor[v4Strategy]()
	m[BucketProfiles] = reflect.TypeFor[v4Profile]()
	m[BucketRuns] = reflect.TypeFor[v4Run]()
	m[BucketRunEvents] = reflect.TypeFor[v4RunEvents]()
	m[BucketPlacements] = reflect.TypeFor[v4Placement]()
	m[BucketUpgrades] = reflect.TypeFor[v4Upgrades]()
	return m
}()

// Placement is a stored ClusterResourcePlacement: its spec as Fleet's API
// holds it, and the mock's own record of its scheduling and rollout
// (wire.go).
type Placement struct {
	Spec   placement.Spec
	Status PlacementStatus
}

// PlacementStatus is hub.PlacementStatus with what the mock's
// scheduler needs to schedule again.
type PlacementStatus struct {
	ObservedGeneration int64
	Selected           []string
	// Decisions are the last cycle's, in the order Fleet's status lists
	// them, bounded as Fleet bounds its status (placement.StoredDecisions): every
	// selected cluster's and at most 20 left out, those a preview lists. The
	// scores of the selected ones are the scores recorded when each cluster
	// was picked, as Fleet keeps them on its bindings: the next scale-in
	// ranks by them (placement.RecordedScores). A record written before the
	// engine recorded scores holds the scores of the cycle that wrote it,
	// which serve as recorded ones.
	Decisions []placement.Decision
	// Scheduled are the selected clusters whose bindings are not bound yet
	// (placement.BindingStates); absent in a record written before, whose
	// bindings were all bound.
	Scheduled  []string
	Requested  int
	Fulfilled  bool
	Message    string
	Conditions []Condition
	// Policy is the scheduling policy the decisions were made for: sticky
	// re-scheduling compares the next policy against it.
	Policy placement.Policy
	// ObservedFleet identifies the state of the fleet the decisions were
	// made on (placement.FleetFingerprint); the scheduler runs again only when it changes.
	ObservedFleet string
	// Rollout is the rollout of the selected resources (the mock hub's
	// rollout.go); absent
	// in a record written before, whose clusters all carried its resources.
	Rollout *placement.RolloutState
	// SelectedResources and RolloutNote are the status of the rollout at
	// the last write (placement.RolloutStatus). Clusters, each cluster's
	// status, follows from the rollout state: every read sets it, none
	// stores it (a thousand clusters' conditions would be most of the record).
	SelectedResources []fleet.ResourceID
	RolloutNote       string
	Clusters          []placement.ClusterStatus `json:"-"`
}

// Condition is a stored hub.Condition.
type Condition struct {
	Type               string
	Status             string
	Reason             string
	Message            string
	LastTransitionTime time.Time
}

// Strategy is a stored update strategy, in Resource Manager's wire form
// (wire.go): the updateStrategy's properties.
type Strategy struct {
	Spec update.Strategy
}

// Run is a stored update run, in Resource Manager's wire form with what
// the mock keeps beside it (wire.go). Its status is not stored: every read
// computes it from the run's events and the clock (update.Execution).
type Run struct {
	Spec             update.RunSpec
	ResolvedStrategy *update.Strategy
	Status           update.RunStatus `json:"-"` // not stored
	// AutoUpgrade is set on a run an auto-upgrade profile generated.
	AutoUpgrade *update.AutoUpgrade
}

// RunEvents is the history of actions on a run, stored beside it in the
// mock's own record form (wire.go): no upstream API holds it.
type RunEvents struct {
	Events []RunEvent
}

// RunEvent is one action on a run (start with the members it saw, stop,
// skip, approve). A run's progress is a function of its events and the clock
// (update.Execution), so it advances between commands without a daemon.
type RunEvent = update.Event

// Upgrades is what completed upgrades did to one cluster, kept when
// the run that did them is deleted: upgrades change clusters for good
// (designs/hub.md §2). Those of runs that still exist are read from the runs.
type Upgrades struct {
	Upgrades []AppliedUpgrade `json:"upgrades"`
}

// AppliedUpgrade is one member upgrade a run completed (the mock's own
// record: its keys are camelCase, as the wire forms', since format 6).
type AppliedUpgrade struct {
	At                time.Time         `json:"at"`
	Run               string            `json:"run"`
	KubernetesVersion string            `json:"kubernetesVersion,omitempty"`
	NodeImages        map[string]string `json:"nodeImages,omitempty"`
}

// Profile is a stored auto-upgrade profile, in Resource Manager's wire
// form with what the mock keeps beside it (wire.go).
type Profile struct {
	Spec   update.ProfileSpec
	Status update.ProfileStatus
	// Trigger is what the profile's channel last resolved to, and when
	// (update.ProfileTriggers; format 4). Nil in a format-3 record: the
	// profile starts from what its channel resolved to when it was last written.
	Trigger *ProfileTrigger `json:"trigger"`
}

// ProfileTrigger is a profile channel's last resolution key and its instant.
type ProfileTrigger struct {
	Key string    `json:"key"`
	At  time.Time `json:"at"`
}

// NodePool is a stored NodePool; its status is read live from the
// member cluster, never stored. It is stored in Karpenter's wire form
// (wire.go): {"spec": <the karpenter.sh/v1 NodePool's spec>}.
type NodePool struct {
	Spec nodepool.NodePool
}

// RecordTypes maps each bucket of hub objects to the type of its bodies.
func RecordTypes() map[string]reflect.Type { return maps.Clone(recordTypes) }
