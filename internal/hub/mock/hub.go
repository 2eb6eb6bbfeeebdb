// Package mock is the embedded mock hub: a simulated fleet described by an
// inventory file, with persistent state in an embedded database and its own
// clock. It needs no credentials and no network.
package mock

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// DefaultStatePath is where state goes when no state_path is configured,
// relative to Terraform's working directory.
var DefaultStatePath = filepath.Join(".aks-mock", "state.db")

// Buckets of the state database.
const (
	bucketMeta = "meta"
)

// Config configures the mock hub.
type Config struct {
	// FleetFile is the inventory YAML; empty means the built-in sample fleet.
	FleetFile string
	// StatePath is the state database; empty means DefaultStatePath.
	StatePath string
	Clock     ClockConfig
}

// Hub is the mock hub.
type Hub struct {
	cfg   Config
	store *Store
	clock *Clock

	mu        sync.Mutex
	fleet     *fleet.Fleet
	fleetMod  time.Time // modification time of FleetFile when fleet was parsed
	fleetRead bool
}

var _ hub.Hub = (*Hub)(nil)

// New opens the mock hub's state and checks the inventory.
func New(cfg Config) (*Hub, error) {
	if cfg.StatePath == "" {
		cfg.StatePath = DefaultStatePath
	}
	store, err := OpenStore(cfg.StatePath)
	if err != nil {
		return nil, err
	}
	clock, err := NewClock(cfg.Clock, store, time.Now)
	if err != nil {
		return nil, err
	}
	h := &Hub{cfg: cfg, store: store, clock: clock}
	if _, err := h.Fleet(context.Background()); err != nil {
		return nil, err
	}
	return h, nil
}

// Now is the hub's clock.
func (h *Hub) Now() time.Time { return h.clock.Now() }

// Store exposes the state database (for tests and tools).
func (h *Hub) Store() *Store { return h.store }

// Fleet returns the simulated fleet. The inventory is parsed once per
// process and again whenever the file changes, so edits take effect on the
// next Terraform command.
func (h *Hub) Fleet(ctx context.Context) (*fleet.Fleet, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cfg.FleetFile == "" {
		if !h.fleetRead {
			f, err := ParseInventory(SampleFleetName, SampleFleet, h.Now())
			if err != nil {
				return nil, fmt.Errorf("built-in sample fleet: %w", err)
			}
			h.fleet, h.fleetRead = f, true
		}
		return h.fleet, nil
	}
	st, err := os.Stat(h.cfg.FleetFile)
	if err != nil {
		return nil, fmt.Errorf("fleet inventory: %w", err)
	}
	if !h.fleetRead || !st.ModTime().Equal(h.fleetMod) {
		f, err := LoadInventoryFile(h.cfg.FleetFile, h.Now())
		if err != nil {
			return nil, err
		}
		h.fleet, h.fleetMod, h.fleetRead = f, st.ModTime(), true
	}
	return h.fleet, nil
}
