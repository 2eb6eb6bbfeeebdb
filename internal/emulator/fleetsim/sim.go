// Package fleetsim is a test fixture that makes real Kubernetes API servers
// (package kubetest) hold what a backend hub's simulated fleet holds, and
// plays the controllers that would write to them on a real fleet:
//
//   - on the fleet hub cluster, Fleet's hub agent: one MemberCluster per
//     member (kube.MemberCluster), and Fleet's scheduler, which watches
//     ClusterResourcePlacements and answers each new generation with
//     ClusterResourceBindings, a ClusterSchedulingPolicySnapshot and the
//     placement's status, deciding with the project's own scheduling engine
//     (placement.Schedule) exactly as the mock hub decides (scheduler.go),
//     on the backend's fleet at the time (as the mock does), whatever the
//     MemberClusters were last synced from;
//   - on each member cluster, Karpenter's bookkeeping: a NodeClaim and a
//     Node for each of the member's Node Auto Provisioning nodes (nodes.go).
//
// The backend is usually the mock hub (internal/hub/mock): its Fleet is the
// fleet the servers are synced from, and its Now the clock of every decision
// and condition. The ARM emulator answers a fleet's listCredentials and a
// managed cluster's listClusterUserCredential with Sim.Kubeconfig, so that
// the azure hub reads and writes real API servers end to end.
//
// The clusters are named in the kubetest.Env "hub" (the fleet hub cluster)
// and "member-<name>": two Sims on one Env share them, so a test binary
// runs one Sim at a time on the clusters it uses.
//
// It is part of the wire twin (internal/emulator): nothing that ships
// imports it (TestImportBoundaries).
package fleetsim

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The names of the Sim's clusters in its kubetest.Env.
const (
	HubClusterName      = "hub"
	MemberClusterPrefix = "member-"
)

// Sim is the fixture. Its methods are safe for concurrent use.
type Sim struct {
	// Log, when set, receives what the scheduler could not do (an error of
	// the API server, a placement the engine refuses). Set it before the
	// first call; a *testing.T must Close the Sim before the test ends.
	Log kubetest.Logger

	env     *kubetest.Env
	backend func(ctx context.Context) (hub.Hub, error)

	hubMu    sync.Mutex        // serializes the hub cluster's start and syncs
	hub      *kubetest.Cluster // nil until started
	syncedFP string            // the fleet's fingerprint at the last hub sync that rescheduled

	memberMu sync.Mutex          // serializes member starts and syncs
	members  map[string]struct{} // the members synced at least once

	sched *scheduler // nil until the hub cluster is started
	// hubObjects are the hub-cluster objects the Sim wrote (syncHubObjects).
	hubObjects map[fleet.ResourceID]schema.GroupVersionResource
	// hubObjectsCleared: the objects another Sim left were deleted.
	hubObjectsCleared bool

	closeMu sync.Mutex
	closed  bool
}

// New returns a Sim of the fleet backend returns; it starts nothing itself:
// each cluster's API server is started in env on its first use.
func New(env *kubetest.Env, backend func(ctx context.Context) (hub.Hub, error)) *Sim {
	return &Sim{env: env, backend: backend, members: map[string]struct{}{}, hubObjects: map[fleet.ResourceID]schema.GroupVersionResource{}}
}

// Kubeconfig returns the kubeconfig of the fleet hub cluster (cluster "")
// or of the member cluster named, starting its API server on first use, and
// first syncs it from the backend's current fleet:
//
//   - the hub cluster: one MemberCluster per member of the fleet (spec,
//     labels and status written; a leaving member's object deleted and held
//     by Fleet's finalizer; the objects of members no longer in the fleet
//     removed); then, when what scheduling depends on changed since the last
//     sync, every placement scheduled on another state of the fleet is
//     scheduled again, as Fleet's scheduler reacts to member changes (the
//     mock hub does it when the placement is next read);
//   - a member cluster: a NodeClaim and a Node for each of the member's NAP
//     nodes (kube.NodeObjects), the claim created at the node's CreatedAt,
//     one MarkedForDeletion deleted and held by a finalizer, and the objects
//     of nodes no longer listed removed.
//
// A member not in the fleet is an error wrapping hub.ErrNotFound.
func (s *Sim) Kubeconfig(ctx context.Context, cluster string) ([]byte, error) {
	var c *kubetest.Cluster
	var err error
	if cluster == "" {
		c, err = s.syncHub(ctx, true)
	} else {
		c, err = s.syncMember(ctx, cluster, true)
	}
	if err != nil {
		return nil, err
	}
	return c.Kubeconfig, nil
}

// Hub returns the fleet hub cluster, started and synced on first use (later
// calls do not sync it again: a test may edit its objects out of band).
func (s *Sim) Hub(ctx context.Context) (*kubetest.Cluster, error) {
	return s.syncHub(ctx, false)
}

// Member returns the cluster of the member named, started and synced on
// first use (later calls do not sync it again).
func (s *Sim) Member(ctx context.Context, name string) (*kubetest.Cluster, error) {
	return s.syncMember(ctx, name, false)
}

// Close stops the scheduler and waits for it. The clusters keep running
// until the Env is closed. The Sim cannot be used after Close.
func (s *Sim) Close() {
	s.closeMu.Lock()
	s.closed = true
	s.closeMu.Unlock()
	s.hubMu.Lock()
	sched := s.sched
	s.hubMu.Unlock()
	if sched != nil {
		sched.stop()
	}
}

var errClosed = errors.New("fleetsim: the Sim is closed")

func (s *Sim) isClosed() bool {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	return s.closed
}

// syncHub starts the hub cluster and its scheduler on first use, and syncs
// it then, and on every call when always.
func (s *Sim) syncHub(ctx context.Context, always bool) (*kubetest.Cluster, error) {
	if s.isClosed() {
		return nil, errClosed
	}
	s.hubMu.Lock()
	defer s.hubMu.Unlock()
	first := s.hub == nil
	if first {
		c, err := s.env.Cluster(HubClusterName, kubetest.HubCRDs()...)
		if err != nil {
			return nil, err
		}
		// Placements (and their bindings and snapshots) another Sim left.
		if err := clear(ctx, c.Dynamic, kube.PlacementGVR, kube.BindingGVR, kube.PolicySnapshotGVR); err != nil {
			return nil, err
		}
		s.hub = c
	}
	if first || always {
		if err := s.syncMemberClusters(ctx, s.hub); err != nil {
			return nil, err
		}
		_, f, err := s.fleet(ctx)
		if err != nil {
			return nil, err
		}
		if err := s.syncHubObjects(ctx, s.hub, f.Hub); err != nil {
			return nil, err
		}
	}
	if s.sched == nil && !s.isClosed() {
		s.sched = startScheduler(s, s.hub)
	} else if always {
		if err := s.rollOutAll(ctx); err != nil {
			return nil, err
		}
	}
	return s.hub, nil
}

// syncMember starts the member's cluster on first use, and syncs its nodes
// then, and on every call when always.
func (s *Sim) syncMember(ctx context.Context, name string, always bool) (*kubetest.Cluster, error) {
	if s.isClosed() {
		return nil, errClosed
	}
	_, f, err := s.fleet(ctx)
	if err != nil {
		return nil, err
	}
	m, ok := f.Cluster(name)
	if !ok {
		return nil, fmt.Errorf("fleetsim: member cluster %q: %w in the fleet", name, hub.ErrNotFound)
	}
	s.memberMu.Lock()
	defer s.memberMu.Unlock()
	c, err := s.env.Cluster(MemberClusterPrefix+name, kubetest.MemberCRDs()...)
	if err != nil {
		return nil, err
	}
	_, synced := s.members[name]
	if synced && !always {
		return c, nil
	}
	if !synced { // NodePools another Sim left (its nodes are synced below)
		if err := clear(ctx, c.Dynamic, kube.NodePoolGVR); err != nil {
			return nil, err
		}
	}
	if err := syncNodes(ctx, c, m.NAPNodes); err != nil {
		return nil, err
	}
	s.members[name] = struct{}{}
	return c, nil
}

func (s *Sim) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log.Logf(format, args...)
	}
}
