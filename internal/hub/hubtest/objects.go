package hubtest

import (
	"context"
	"errors"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// kind drives one kind of object through the object contract, reduced to
// its metadata and its specification (normalised, see typed).
type kind struct {
	name string
	get  func(ctx context.Context, name string) (hub.Meta, any, error)
	// put writes variant 0 or 1 of the kind's specification (two different ones).
	put  func(ctx context.Context, name string, variant int, pre hub.Precondition) (hub.Meta, any, error)
	del  func(ctx context.Context, name string, pre hub.Precondition) error
	want func(variant int) any
}

// seen is what a kind's get and put compare: the specification, normalised,
// and the written form (hub.Placement.Written and its like) as the values
// written — the specification sent, with nothing the hub filled in.
type seen struct {
	Spec    any
	Written any
}

// typed builds a kind from typed operations: view takes an object apart
// (its metadata, spec and written form), normalise fills in the engine's
// defaults (identity for types without any).
func typed[O, S any](name string, written bool, specs [2]S, normalise func(S) S, view func(*O) (hub.Meta, S, *S),
	get func(context.Context, string) (*O, error),
	put func(context.Context, string, S, hub.Precondition) (*O, error),
	del func(context.Context, string, hub.Precondition) error,
) kind {
	reduce := func(o *O, err error) (hub.Meta, any, error) {
		if err != nil {
			return hub.Meta{}, nil, err
		}
		m, s, w := view(o)
		if !written && w != nil {
			return m, seen{normalise(s), "a written form from a hub without one"}, nil
		}
		return m, seen{normalise(s), writtenValues(w)}, nil
	}
	want := func(v int) any {
		if !written {
			return seen{normalise(specs[v]), nil}
		}
		return seen{normalise(specs[v]), writtenValues(&specs[v])}
	}
	return kind{
		name: name,
		get:  func(ctx context.Context, n string) (hub.Meta, any, error) { return reduce(get(ctx, n)) },
		put: func(ctx context.Context, n string, v int, pre hub.Precondition) (hub.Meta, any, error) {
			return reduce(put(ctx, n, specs[v], pre))
		},
		del:  del,
		want: want,
	}
}

// kinds are the hub's object kinds; NodePools go to the fleet's first member.
func kinds(h hub.Hub, f *fleet.Fleet, written bool) []kind {
	cluster, group := f.Clusters[0].Name, memberGroup(f)
	return []kind{
		// A placement's spec names the placement, as the provider writes it
		// (a ClusterResourcePlacement has only the object's name): the
		// comparison leaves the name to the round trip's check.
		typed("placement", written, placementVariants(f), func(s placement.Spec) placement.Spec { s = placement.WithDefaults(s); s.Name = ""; return s },
			func(p *hub.Placement) (hub.Meta, placement.Spec, *placement.Spec) {
				if p.Written == nil {
					return p.Meta, p.Spec, nil
				}
				w := *p.Written
				w.Name = "" // as the spec's: left to the round trip
				return p.Meta, p.Spec, &w
			},
			h.GetPlacement,
			func(ctx context.Context, name string, s placement.Spec, pre hub.Precondition) (*hub.Placement, error) {
				s.Name = name
				return h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: name}, Spec: s}, pre)
			},
			h.DeletePlacement),
		typed("node pool", written, nodePoolVariants(), nodepool.WithDefaults,
			func(np *hub.NodePool) (hub.Meta, nodepool.NodePool, *nodepool.NodePool) {
				return np.Meta, np.Spec, np.Written
			},
			func(ctx context.Context, name string) (*hub.NodePool, error) {
				return h.GetNodePool(ctx, cluster, name)
			},
			func(ctx context.Context, name string, s nodepool.NodePool, pre hub.Precondition) (*hub.NodePool, error) {
				return h.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: name}, Cluster: cluster, Spec: s}, pre)
			},
			func(ctx context.Context, name string, pre hub.Precondition) error {
				return h.DeleteNodePool(ctx, cluster, name, pre)
			}),
		typed("update strategy", written, [2]update.Strategy{strategy(group, ""), strategy(group, "50%")}, update.StrategyWithDefaults,
			func(s *hub.UpdateStrategy) (hub.Meta, update.Strategy, *update.Strategy) {
				return s.Meta, s.Spec, s.Written
			},
			h.GetUpdateStrategy,
			func(ctx context.Context, name string, s update.Strategy, pre hub.Precondition) (*hub.UpdateStrategy, error) {
				return h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: name}, Spec: s}, pre)
			},
			h.DeleteUpdateStrategy),
		typed("update run", written, [2]update.RunSpec{runSpec(group, update.NodeImageLatest), runSpec(group, update.NodeImageConsistent)}, update.RunWithDefaults,
			func(r *hub.UpdateRun) (hub.Meta, update.RunSpec, *update.RunSpec) { return r.Meta, r.Spec, r.Written },
			h.GetUpdateRun,
			func(ctx context.Context, name string, s update.RunSpec, pre hub.Precondition) (*hub.UpdateRun, error) {
				return h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: s}, pre)
			},
			h.DeleteUpdateRun),
		typed("auto-upgrade profile", written, [2]update.ProfileSpec{{Channel: update.ChannelStable}, {Channel: update.ChannelRapid, Disabled: true}}, update.ProfileWithDefaults,
			func(p *hub.AutoUpgradeProfile) (hub.Meta, update.ProfileSpec, *update.ProfileSpec) {
				return p.Meta, p.Spec, p.Written
			},
			h.GetAutoUpgradeProfile,
			func(ctx context.Context, name string, s update.ProfileSpec, pre hub.Precondition) (*hub.AutoUpgradeProfile, error) {
				return h.PutAutoUpgradeProfile(ctx, hub.AutoUpgradeProfile{Meta: hub.Meta{Name: name}, Spec: s}, pre)
			},
			h.DeleteAutoUpgradeProfile),
	}
}

// precondition is which precondition a step sends.
type precondition int

const (
	unconditional precondition = iota
	ifAbsent                   // If-None-Match: *
	ifCurrent                  // If-Match with the object's current ETag
	ifStale                    // If-Match with an ETag the object had before
)

// absent is the stored variant of an object that does not exist.
const absent = -1

// objectSteps is the life of one object under the contract: each step, what
// it must return, and which variant the hub must hold afterwards.
var objectSteps = []struct {
	name    string
	op      string // get, put or delete
	variant int
	pre     precondition
	want    error
	stored  int
}{
	{"get of a missing object", "get", 0, unconditional, hub.ErrNotFound, absent},
	{"delete of a missing object", "delete", 0, unconditional, hub.ErrNotFound, absent},
	{"create if absent", "put", 0, ifAbsent, nil, 0},
	{"create if absent when it exists", "put", 1, ifAbsent, hub.ErrPreconditionFailed, 0},
	{"update with the current ETag", "put", 1, ifCurrent, nil, 1},
	{"update with a stale ETag", "put", 0, ifStale, hub.ErrPreconditionFailed, 1},
	{"delete with a stale ETag", "delete", 0, ifStale, hub.ErrPreconditionFailed, 1},
	{"delete with the current ETag", "delete", 0, ifCurrent, nil, absent},
	{"delete of a deleted object", "delete", 0, unconditional, hub.ErrNotFound, absent},
}

func testObjects(t *testing.T, newHub func(t *testing.T) hub.Hub, has func(Feature) bool) {
	h := newHub(t)
	for _, k := range kinds(h, fleetOf(t, h), has(WrittenForm)) {
		if !has(Feature(k.name)) {
			continue
		}
		t.Run(k.name, func(t *testing.T) { testObject(t, k) })
	}
}

// testObject runs objectSteps on one kind, checking after every step what
// the hub holds.
func testObject(t *testing.T, k kind) {
	ctx := context.Background()
	const name = "hubtest-object"
	var current, stale string // ETags
	for _, step := range objectSteps {
		var pre hub.Precondition
		switch step.pre {
		case ifAbsent:
			pre.IfNoneMatch = true
		case ifCurrent:
			pre.IfMatch = current
		case ifStale:
			pre.IfMatch = stale
		}
		var err error
		switch step.op {
		case "get":
			_, _, err = k.get(ctx, name)
		case "delete":
			err = k.del(ctx, name, pre)
		case "put":
			var m hub.Meta
			var spec any
			m, spec, err = k.put(ctx, name, step.variant, pre)
			if err == nil {
				if m.Name != name || m.ETag == "" || m.ETag == current {
					t.Fatalf("%s: %s returned name %q and ETag %q (was %q): want its name and a new ETag", step.name, k.name, m.Name, m.ETag, current)
				}
				equal(t, step.name+": the returned specification", spec, k.want(step.variant))
				stale, current = current, m.ETag
			}
		}
		if !errors.Is(err, step.want) {
			t.Fatalf("%s: %s returned %v, want %v", step.name, k.name, err, step.want)
		}
		if step.op == "delete" && err == nil {
			current = ""
		}
		checkStored(t, k, name, step.name, step.stored, current)
	}
}

// checkStored checks that the hub holds variant stored of the object (or
// nothing) with ETag etag.
func checkStored(t *testing.T, k kind, name, after string, stored int, etag string) {
	t.Helper()
	m, spec, err := k.get(context.Background(), name)
	switch {
	case stored == absent:
		if !errors.Is(err, hub.ErrNotFound) {
			t.Fatalf("after %s: get of the %s returned %v, want ErrNotFound", after, k.name, err)
		}
	case err != nil:
		t.Fatalf("after %s: get of the %s: %v", after, k.name, err)
	default:
		if m.ETag != etag {
			t.Fatalf("after %s: the %s has ETag %q, want %q", after, k.name, m.ETag, etag)
		}
		equal(t, "after "+after+": the stored specification", spec, k.want(stored))
	}
}
