// Package hubtest is the contract every hub implementation must honour,
// written once as a test suite and run against each of them (the mock hub
// today, the Azure hub when it exists), so that the provider can rely on the
// same behaviour from all: errors.Is(err, hub.ErrNotFound) for a missing
// object, hub.ErrPreconditionFailed for an ETag that does not hold, a
// *hub.ConflictError for a write the object's state refuses, and what is
// applied is what is read back.
//
// The suite uses only the hub.Hub interface. It needs a fleet of at least
// two member clusters and takes their names from the hub, so it holds for
// any fleet. Specifications are compared after the engine's WithDefaults on
// both sides where the engine has one: a hub that fills in defaults, as a
// real API server does, passes. Its written form (hub.Placement.Written and
// its like) must be the specification as it was sent, without them.
package hubtest

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Feature is a part of the contract that a hub may not offer yet.
type Feature string

// Features a hub can be tested without.
const (
	Placements Feature = "placement"
	NodePools  Feature = "node pool"
	// WrittenForm: the hub returns the written form of what it was sent
	// (hub.Placement.Written and its like). A hub without it returns none.
	WrittenForm Feature = "written form"
)

// Run runs the contract suite. newHub is called once per subtest and returns
// a hub whose state holds none of the objects the suite writes (their names
// start with "hubtest-"). The features named in without are left out (a hub
// that does not offer them yet).
func Run(t *testing.T, newHub func(t *testing.T) hub.Hub, without ...Feature) {
	has := func(f Feature) bool { return !slices.Contains(without, f) }
	t.Run("identity", func(t *testing.T) {
		// The ARM ids the provider checks name this fleet (a subscription,
		// a resource group, a name), and it does not change.
		h := newHub(t)
		id := h.Identity()
		if id.SubscriptionID == "" || id.ResourceGroup == "" || id.Name == "" || id != h.Identity() {
			t.Fatalf("the hub names no fleet in Resource Manager: %+v", id)
		}
	})
	t.Run("objects", func(t *testing.T) { testObjects(t, newHub, has) })
	t.Run("update run states", func(t *testing.T) { testRunStates(t, newHub(t)) })
	t.Run("update run gates", func(t *testing.T) { testGates(t, newHub(t)) })
	t.Run("generated update runs", func(t *testing.T) { testGeneratedRuns(t, newHub(t)) })
	t.Run("update runs the service refuses", func(t *testing.T) { testRunRefusals(t, newHub(t)) })
	if has(NodePools) {
		t.Run("node pool round trip", func(t *testing.T) { testNodePoolRoundTrip(t, newHub(t)) })
	}
	if has(Placements) {
		t.Run("placement round trip", func(t *testing.T) { testPlacementRoundTrip(t, newHub(t)) })
		t.Run("placement recorded scores", func(t *testing.T) { testPlacementRecordedScores(t, newHub(t)) })
		t.Run("placement binding states", func(t *testing.T) { testPlacementBindingStates(t, newHub(t)) })
		t.Run("hub resources", func(t *testing.T) { testHubResources(t, newHub(t)) })
		t.Run("placement rollout status", func(t *testing.T) { testPlacementRolloutStatus(t, newHub(t)) })
	}
}

// minMembers is how many member clusters the suite needs.
const minMembers = 2

// fleetOf returns the hub's fleet, failing the test when it is too small.
func fleetOf(t *testing.T, h hub.Hub) *fleet.Fleet {
	t.Helper()
	f, err := h.Fleet(context.Background())
	if err != nil {
		t.Fatalf("Fleet: %v", err)
	}
	if len(f.Clusters) < minMembers {
		t.Fatalf("the contract suite needs a fleet of at least %d member clusters, the hub has %d", minMembers, len(f.Clusters))
	}
	return f
}

// memberGroup is an update group of the fleet: the first member's, or
// "default" when no member names one.
func memberGroup(f *fleet.Fleet) string {
	for _, c := range f.Clusters {
		if c.Group != "" {
			return c.Group
		}
	}
	return "default"
}

// writtenValues is a written form as the values it holds: its JSON without
// nulls, empty strings, lists and objects, which a configuration does not
// write either (nil when the hub knows no written form).
func writtenValues[S any](w *S) any {
	if w == nil {
		return nil
	}
	raw, err := json.Marshal(w)
	if err != nil {
		return err.Error()
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return err.Error()
	}
	var prune func(any) any
	prune = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if e = prune(e); e == nil {
					delete(v, k)
				} else {
					v[k] = e
				}
			}
			if len(v) == 0 {
				return nil
			}
		case []any:
			for i, e := range v {
				v[i] = prune(e)
			}
			if len(v) == 0 {
				return nil
			}
		case string:
			if v == "" {
				return nil
			}
		}
		return v
	}
	return prune(tree)
}

// equal reports a difference between got and want, showing both as JSON.
func equal(t *testing.T, what string, got, want any) bool {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return true
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	t.Errorf("%s differs:\n got  %s\n want %s", what, g, w)
	return false
}
