// Package hub defines the system that owns the fleet, behind one interface
// with two implementations: mock (an embedded simulated fleet, the default)
// and azure (Azure Resource Manager and the fleet hub cluster).
//
// Hubs store and execute; they never decide policy. Every rule lives in
// internal/engine, and a hub calls the engine where the real system would
// run the same logic (the mock hub runs the Fleet scheduler on apply, as the
// real hub's scheduler does).
package hub

import (
	"context"
	"errors"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Hub is what the provider applies against.
type Hub interface {
	Inventory
}

// Inventory is the read side of the fleet: its members and release catalogs.
type Inventory interface {
	// Now is the hub's clock. The mock hub may run a fixed or scaled clock;
	// every time-dependent evaluation uses this, never the local clock.
	Now() time.Time
	// Fleet returns the current fleet: every member cluster with all its
	// facts, and the regions' release catalogs.
	Fleet(ctx context.Context) (*fleet.Fleet, error)
}

// ErrNotFound is returned by a hub for an object that does not exist.
var ErrNotFound = errors.New("not found")

// ErrPreconditionFailed is returned when an ETag precondition does not hold.
var ErrPreconditionFailed = errors.New("precondition failed: the object was changed by someone else")
