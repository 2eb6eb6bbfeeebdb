package mock

import (
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// written is a stored spec as the object's written form: the mock fills in
// no defaults, so the two are the same (designs/hub.md §5). Since format 6
// a spec is read back from its upstream wire form, where, as on Fleet's and
// Resource Manager's APIs, an empty list reads as absent; the provider
// compares specs with the two equal.
func written[S any](spec S) *S { return &spec }

// placementObject is the hub object of a stored placement.
func placementObject(r *store.Placement, m hub.Meta) *hub.Placement {
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

// strategyObject is the hub object of a stored update strategy.
func strategyObject(r *store.Strategy, m hub.Meta) *hub.UpdateStrategy {
	return &hub.UpdateStrategy{Meta: m, Spec: r.Spec, Written: written(r.Spec)}
}

// runObject is the hub object of a stored update run.
func runObject(r *store.Run, m hub.Meta) *hub.UpdateRun {
	return &hub.UpdateRun{Meta: m, Spec: r.Spec, Written: written(r.Spec), ResolvedStrategy: r.ResolvedStrategy, Status: r.Status, AutoUpgrade: r.AutoUpgrade}
}

// profileObject is the hub object of a stored auto-upgrade profile.
func profileObject(r *store.Profile, m hub.Meta) *hub.AutoUpgradeProfile {
	return &hub.AutoUpgradeProfile{Meta: m, Spec: r.Spec, Written: written(r.Spec), Status: r.Status}
}

// nodePoolObject is the hub object of a stored NodePool with its live status.
func nodePoolObject(r *store.NodePool, m hub.Meta, cluster string, status hub.NodePoolStatus) *hub.NodePool {
	return &hub.NodePool{Meta: m, Cluster: cluster, Spec: r.Spec, Written: written(r.Spec), Status: status}
}
