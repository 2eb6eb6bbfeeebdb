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
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// DefaultStatePath is where state goes when no state_path is configured,
// relative to Terraform's working directory.
var DefaultStatePath = filepath.Join(".aks-mock", "state.db")

// Buckets of the state database.
const (
	bucketMeta           = "meta"
	bucketInventoryCache = "inventory-cache"
)

// Config configures the mock hub.
type Config struct {
	// FleetFile is the inventory YAML; empty means the built-in sample fleet.
	FleetFile string
	// StatePath is the state database; empty means DefaultStatePath.
	StatePath string
	Clock     ClockConfig
	// UpgradeDuration is how long one member's upgrade takes on the mock's
	// clock; nil means DefaultUpgradeDuration.
	UpgradeDuration *time.Duration
}

// Hub is the mock hub.
type Hub struct {
	cfg   Config
	store *Store
	clock *Clock

	mu      sync.Mutex
	raw     *rawInventory // the decoded inventory document
	epoch   time.Time     // when the hub first loaded this document (node ages count from it)
	trusted bool          // raw already passed the syntax checks
	rawMod  time.Time     // modification time of FleetFile when raw was decoded
	fleet   *fleet.Fleet  // raw resolved at fleetAt
	fleetAt time.Time
	fleetFP string // fingerprint of fleet (see placement.FleetFingerprint), computed on first use
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

// Identity is the mock fleet's place in Azure Resource Manager
// (MockFleetID): ARM ids given to the provider (imports, update_strategy_id)
// must name it, as on a real fleet.
func (h *Hub) Identity() hub.FleetRef { return MockFleet }

// Store exposes the state database (for tests and tools).
func (h *Hub) Store() *Store { return h.store }

// Fleet returns the simulated fleet at the hub's current time. The inventory
// document is decoded once per process and again whenever the file changes,
// so edits take effect on the next Terraform command; relative times in it
// (heartbeat and node ages) are resolved against the clock on every call.
func (h *Hub) Fleet(ctx context.Context) (*fleet.Fleet, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	name, data := SampleFleetName, SampleFleet
	if h.cfg.FleetFile != "" {
		st, err := os.Stat(h.cfg.FleetFile)
		if err != nil {
			return nil, fmt.Errorf("fleet inventory: %w", err)
		}
		if h.raw != nil && st.ModTime().Equal(h.rawMod) {
			return h.resolve(name, nil)
		}
		if data, err = os.ReadFile(h.cfg.FleetFile); err != nil {
			return nil, fmt.Errorf("fleet inventory: %w", err)
		}
		name, h.rawMod, h.raw = h.cfg.FleetFile, st.ModTime(), nil
	}
	if h.raw == nil {
		if err := h.loadInventory(name, data); err != nil {
			return nil, err
		}
	}
	return h.resolve(name, data)
}

// resolveGranularity is how far the hub clock may move before relative times
// are resolved again: eligibility is decided on minutes, and one resolution
// serves every call of a Terraform operation.
const resolveGranularity = time.Second

// resolve builds the fleet from the decoded document at the current time,
// reusing the last result while the clock has moved less than resolveGranularity.
func (h *Hub) resolve(name string, data []byte) (*fleet.Fleet, error) {
	now := h.Now()
	if d := now.Sub(h.fleetAt); h.fleet != nil && d >= 0 && d < resolveGranularity {
		return h.fleet, nil
	}
	build := func(at time.Time) (*fleet.Fleet, error) {
		f, err := buildFleet(name, data, h.raw, at, h.epoch, h.trusted)
		if err != nil {
			return nil, err
		}
		return f, h.applyUpgrades(f, at)
	}
	f, err := build(now)
	if err != nil {
		return nil, err
	}
	// Profiles whose channel moved since they last looked start runs, which
	// may already have upgraded clusters by now (designs/updates.md §5).
	if fired, err := h.triggerProfiles(f, now, build); err != nil {
		return nil, err
	} else if fired {
		if f, err = build(now); err != nil {
			return nil, err
		}
	}
	f.Share() // every resource reads this snapshot: derived values are computed once (designs/hub.md §8)
	h.fleet, h.fleetAt, h.trusted, h.fleetFP = f, now, true, ""
	return f, nil
}

// invalidateFleet drops the resolved fleet: a run action may have changed
// which upgrades are complete at this very instant.
func (h *Hub) invalidateFleet() {
	h.mu.Lock()
	h.fleet = nil
	h.mu.Unlock()
}

// scheduledFleet returns the fleet with the fingerprint of what scheduling
// depends on, computed once per resolved fleet however many placements read it.
func (h *Hub) scheduledFleet(ctx context.Context) (*fleet.Fleet, string, error) {
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, "", err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fleet != f { // resolved again meanwhile: fingerprint this one
		return f, placement.FleetFingerprint(f, h.Now()), nil
	}
	if h.fleetFP == "" {
		h.fleetFP = placement.FleetFingerprint(f, h.fleetAt)
	}
	return f, h.fleetFP, nil
}

// loadInventory decodes an inventory document into h.raw. Decoding is the
// slowest step of loading (about 60 ms for 5,000 clusters with the fast
// decoder of inventory_fast.go), and Terraform starts a new provider process
// for every command, so the decoded
// document is kept in the state database (snapshot.go) and reused until the
// file changes, with the time it was first loaded (the epoch node ages count
// from). Only documents that passed validation are kept.
func (h *Hub) loadInventory(name string, data []byte) error {
	key := snapshotKey(data)
	if snap, ok := h.cachedInventory(key); ok {
		h.raw, h.epoch, h.trusted, h.fleet = snap.Raw, snap.Epoch, true, nil
		return nil
	}
	raw, err := decodeInventory(name, data)
	if err != nil {
		return err
	}
	epoch := h.Now()
	if _, err := buildFleet(name, data, raw, epoch, epoch, false); err != nil {
		return err
	}
	h.raw, h.epoch, h.trusted, h.fleet = raw, epoch, true, nil
	h.cacheInventory(key, inventorySnapshot{Raw: raw, Epoch: epoch})
	return nil
}
