// Package mock is the embedded mock hub: a simulated fleet described by an
// inventory file, with persistent state in an embedded database and its own
// clock. It needs no credentials and no network.
package mock

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
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
		data, err := os.ReadFile(h.cfg.FleetFile)
		if err != nil {
			return nil, fmt.Errorf("fleet inventory: %w", err)
		}
		f, err := h.loadInventory(h.cfg.FleetFile, data)
		if err != nil {
			return nil, err
		}
		h.fleet, h.fleetMod, h.fleetRead = f, st.ModTime(), true
	}
	return h.fleet, nil
}

// loadInventory decodes an inventory file. Decoding YAML is by far the
// slowest step (about a second for 5,000 clusters), and Terraform starts a
// new provider process for every command, so the decoded document is kept in
// the state database under the file's SHA-256 and reused until the file
// changes. Validation and relative times are still evaluated on every load.
func (h *Hub) loadInventory(name string, data []byte) (*fleet.Fleet, error) {
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:])
	raw, ok := h.cachedInventory(key)
	if !ok {
		var err error
		if raw, err = decodeInventory(name, data); err != nil {
			return nil, err
		}
	}
	f, err := buildFleet(name, data, raw, h.Now(), ok)
	if err != nil || ok {
		return f, err
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(raw) == nil {
		// Best effort: a failure to cache only costs the next command a re-parse.
		_ = h.store.Update(func(tx *bolt.Tx) error {
			_ = tx.DeleteBucket([]byte(bucketInventoryCache))
			b, err := tx.CreateBucket([]byte(bucketInventoryCache))
			if err != nil {
				return err
			}
			return b.Put([]byte(key), buf.Bytes())
		})
	}
	return f, nil
}

func (h *Hub) cachedInventory(key string) (*rawInventory, bool) {
	var raw *rawInventory
	_ = h.store.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketInventoryCache))
		if b == nil {
			return nil
		}
		if v := b.Get([]byte(key)); v != nil {
			var r rawInventory
			if gob.NewDecoder(bytes.NewReader(v)).Decode(&r) == nil {
				raw = &r
			}
		}
		return nil
	})
	return raw, raw != nil
}
