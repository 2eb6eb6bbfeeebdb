package mock

import (
	"reflect"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// The record format of the state database (format version 4, see format.go).
//
// Every object is stored as an envelope (Record: ETag, generation, times)
// whose body is one of the record types below. They belong to the mock, not
// to the hub package: they hold what the mock keeps beside the hub's view of
// an object (the policy and fleet a placement was scheduled for) and leave out
// what is not stored (the name, which is the key, and a NodePool's live
// status). Every stored field, down through the engine types, carries a json
// tag, so renaming a Go field changes nothing on disk
// (TestStoredFieldsAreTagged); changing a tag or the meaning of a stored
// value needs a new format version and a migration.

// recordTypes maps each bucket of hub objects to the type of its bodies. The
// typed accessors refuse any other type, so everything stored is listed here,
// and the tag test and the migration of unversioned databases use this list.
var recordTypes = map[string]reflect.Type{
	bucketPlacements: reflect.TypeFor[placementRecord](),
	bucketStrategies: reflect.TypeFor[strategyRecord](),
	bucketRuns:       reflect.TypeFor[runRecord](),
	bucketRunEvents:  reflect.TypeFor[runEventsRecord](),
	bucketProfiles:   reflect.TypeFor[profileRecord](),
	bucketNodePools:  reflect.TypeFor[nodePoolRecord](),
	bucketUpgrades:   reflect.TypeFor[upgradesRecord](),
}

// placementRecord is a stored ClusterResourcePlacement.
type placementRecord struct {
	Spec   placement.Spec        `json:"spec"`
	Status placementStatusRecord `json:"status"`
}

// placementStatusRecord is hub.PlacementStatus with what the mock's
// scheduler needs to schedule again.
type placementStatusRecord struct {
	ObservedGeneration int64    `json:"observed_generation"`
	Selected           []string `json:"selected"`
	// Decisions are the last cycle's, in the order Fleet's status lists
	// them, bounded as Fleet bounds its status (placement.StoredDecisions): every
	// selected cluster's and at most 20 left out, those a preview lists. The
	// scores of the selected ones are the scores recorded when each cluster
	// was picked, as Fleet keeps them on its bindings: the next scale-in
	// ranks by them (placement.RecordedScores). A record written before the
	// engine recorded scores holds the scores of the cycle that wrote it,
	// which serve as recorded ones.
	Decisions []placement.Decision `json:"decisions"`
	// Scheduled are the selected clusters whose bindings are not bound yet
	// (placement.BindingStates); absent in a record written before, whose
	// bindings were all bound.
	Scheduled  []string          `json:"scheduled,omitempty"`
	Requested  int               `json:"requested"`
	Fulfilled  bool              `json:"fulfilled"`
	Message    string            `json:"message"`
	Conditions []conditionRecord `json:"conditions"`
	// Policy is the scheduling policy the decisions were made for: sticky
	// re-scheduling compares the next policy against it.
	Policy placement.Policy `json:"policy"`
	// ObservedFleet identifies the state of the fleet the decisions were
	// made on (placement.FleetFingerprint); the scheduler runs again only when it changes.
	ObservedFleet string `json:"observed_fleet"`
	// Rollout is the rollout of the selected resources (rollout.go); absent
	// in a record written before, whose clusters all carried its resources.
	Rollout *placement.RolloutState `json:"rollout,omitempty"`
	// SelectedResources and RolloutNote are the status of the rollout at
	// the last write (placement.RolloutStatus). Clusters, each cluster's
	// status, follows from the rollout state: every read sets it, none
	// stores it (a thousand clusters' conditions would be most of the record).
	SelectedResources []fleet.ResourceID        `json:"selected_resources,omitempty"`
	RolloutNote       string                    `json:"rollout_note,omitempty"`
	Clusters          []placement.ClusterStatus `json:"-"`
}

// conditionRecord is a stored hub.Condition.
type conditionRecord struct {
	Type               string    `json:"type"`
	Status             string    `json:"status"`
	Reason             string    `json:"reason"`
	Message            string    `json:"message"`
	LastTransitionTime time.Time `json:"last_transition_time"`
}

// strategyRecord is a stored update strategy.
type strategyRecord struct {
	Spec update.Strategy `json:"spec"`
}

// runRecord is a stored update run.
type runRecord struct {
	Spec             update.RunSpec   `json:"spec"`
	ResolvedStrategy *update.Strategy `json:"resolved_strategy"`
	Status           update.RunStatus `json:"status"`
	// AutoUpgrade is set on a run an auto-upgrade profile generated (format 4).
	AutoUpgrade *update.AutoUpgrade `json:"auto_upgrade"`
}

// runEventsRecord is the history of actions on a run, stored beside it.
type runEventsRecord struct {
	Events []runEvent `json:"events"`
}

// runEvent is one action on a run (start with the members it saw, stop,
// skip, approve). A run's progress is a function of its events and the clock
// (update.Execution), so it advances between commands without a daemon.
type runEvent = update.Event

// upgradesRecord is what completed upgrades did to one cluster, kept when
// the run that did them is deleted: upgrades change clusters for good
// (designs/hub.md §2). Those of runs that still exist are read from the runs.
type upgradesRecord struct {
	Upgrades []appliedUpgrade `json:"upgrades"`
}

// appliedUpgrade is one member upgrade a run completed.
type appliedUpgrade struct {
	At                time.Time         `json:"at"`
	Run               string            `json:"run"`
	KubernetesVersion string            `json:"kubernetes_version,omitempty"`
	NodeImages        map[string]string `json:"node_images,omitempty"`
}

// profileRecord is a stored auto-upgrade profile.
type profileRecord struct {
	Spec   update.ProfileSpec   `json:"spec"`
	Status update.ProfileStatus `json:"status"`
	// Trigger is what the profile's channel last resolved to, and when
	// (update.ProfileTriggers; format 4). Nil in a format-3 record: the
	// profile starts from what its channel resolved to when it was last written.
	Trigger *profileTrigger `json:"trigger"`
}

// profileTrigger is a profile channel's last resolution key and its instant.
type profileTrigger struct {
	Key string    `json:"key"`
	At  time.Time `json:"at"`
}

// nodePoolRecord is a stored NodePool; its status is read live from the
// member cluster, never stored.
type nodePoolRecord struct {
	Spec nodepool.NodePool `json:"spec"`
}

// written is a stored spec as the object's written form: the mock stores
// what it was sent and fills in no defaults, so the two are the same
// (designs/hub.md §5).
func written[S any](spec S) *S { return &spec }

// meta is the metadata of the object stored in rec under name.
func (rec Record) meta(name string) hub.Meta {
	return hub.Meta{Name: name, ETag: rec.ETag, Generation: rec.Generation, CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt}
}

func (r *placementRecord) object(m hub.Meta) *hub.Placement {
	s := r.Status
	out := &hub.Placement{Meta: m, Spec: r.Spec, Written: written(r.Spec), Status: hub.PlacementStatus{
		ObservedGeneration: s.ObservedGeneration, Selected: s.Selected, Decisions: s.Decisions, Scheduled: s.Scheduled,
		Requested: s.Requested, Fulfilled: s.Fulfilled, Message: s.Message,
		SelectedResources: s.SelectedResources, Clusters: s.Clusters, Rollout: s.RolloutNote,
	}}
	if r := s.Rollout; r != nil {
		out.Status.ResourceIndex, out.Status.ResourceDigest, out.Status.Bindings = r.Index, r.Digest, r.Bindings
	}
	for _, c := range s.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, hub.Condition(c))
	}
	return out
}

func (r *strategyRecord) object(m hub.Meta) *hub.UpdateStrategy {
	return &hub.UpdateStrategy{Meta: m, Spec: r.Spec, Written: written(r.Spec)}
}

func (r *runRecord) object(m hub.Meta) *hub.UpdateRun {
	return &hub.UpdateRun{Meta: m, Spec: r.Spec, Written: written(r.Spec), ResolvedStrategy: r.ResolvedStrategy, Status: r.Status, AutoUpgrade: r.AutoUpgrade}
}

func (r *profileRecord) object(m hub.Meta) *hub.AutoUpgradeProfile {
	return &hub.AutoUpgradeProfile{Meta: m, Spec: r.Spec, Written: written(r.Spec), Status: r.Status}
}

func (r *nodePoolRecord) object(m hub.Meta, cluster string, status hub.NodePoolStatus) *hub.NodePool {
	return &hub.NodePool{Meta: m, Cluster: cluster, Spec: r.Spec, Written: written(r.Spec), Status: status}
}
