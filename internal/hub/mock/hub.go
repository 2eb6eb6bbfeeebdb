// Package mock is the embedded mock hub: a simulated fleet described by an
// inventory file (YAML, or JSON in a *.json file), with persistent state in
// an embedded database and its own clock. It needs no credentials and no
// network. Reads are reads: one step (advanceTx) brings the simulated world
// to now, in the transaction of every write (designs/hub.md §2).
package mock

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/inventory"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// DefaultStatePath is where state goes when no state_path is configured,
// relative to Terraform's working directory.
var DefaultStatePath = filepath.Join(".aks-mock", "state.db")

// bucketInventoryCache holds the decoded inventory (snapshot.go).
const bucketInventoryCache = "inventory-cache"

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
	store *store.Store
	clock *Clock

	// doc is the decoded inventory (set under mu, read by advanceTx, which
	// runs inside the store's transactions and so never takes mu: Fleet
	// holds mu while it reads the store).
	doc atomic.Pointer[inventoryDoc]
	// pending is the decoded inventory no write stored yet (advanceTx).
	pending atomic.Pointer[pendingSnapshot]
	// written: a write fired triggers since fleet was resolved.
	written atomic.Bool

	mu      sync.Mutex
	rawMod  time.Time    // modification time of FleetFile when doc was decoded
	fleet   *fleet.Fleet // doc resolved at fleetAt
	fleetAt time.Time
	fleetFP string // fingerprint of fleet (see placement.FleetFingerprint), computed on first use
	// triggersDue: fleet is the world where auto-upgrade triggers due at
	// fleetAt fired, which no write stored yet.
	triggersDue bool
}

// inventoryDoc is a decoded inventory document.
type inventoryDoc struct {
	name  string              // how it is named in messages
	raw   *inventory.Document // the document, which passed the syntax checks
	epoch time.Time           // when it took effect (node ages count from it; loadInventory)
	// facts are the facts of its members a fleet fingerprint covers
	// (placement.FleetMemberFacts), set under the hub's mu on first use:
	// the fleets built from the document at any instant have the same,
	// since they differ only in times and in what upgrades change
	// (Kubernetes versions and node images, which scheduling does not read).
	facts *placement.MemberFacts
}

var _ hub.Hub = (*Hub)(nil)

// New opens the mock hub's state and checks the inventory.
func New(cfg Config) (*Hub, error) {
	if cfg.StatePath == "" {
		cfg.StatePath = DefaultStatePath
	}
	db, err := store.Open(cfg.StatePath)
	if err != nil {
		return nil, err
	}
	clock, err := NewClock(cfg.Clock, db, time.Now)
	if err != nil {
		return nil, err
	}
	h := &Hub{cfg: cfg, store: db, clock: clock}
	db.SetAdvance(h.advanceTx)
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

// MockFleet is where the mock fleet is in Azure Resource Manager:
// /subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-fleet/providers/Microsoft.ContainerService/fleets/fleet.
var MockFleet = hub.FleetRef{SubscriptionID: inventory.DefaultSubscriptionID, ResourceGroup: "rg-fleet", Name: "fleet"}

// Store exposes the state database (for tests and tools).
func (h *Hub) Store() *store.Store { return h.store }

// Fleet returns the simulated fleet at the hub's current time. The inventory
// document is decoded once per process and again whenever the file changes,
// so edits take effect on the next Terraform command; relative times in it
// (heartbeat and node ages) are resolved against the clock on every call.
//
// The fleet is the simulated world advanced to now (advanceTx: upgrades
// complete, due auto-upgrade triggers start their runs), read without
// writing it: what advancing would store is stored by the next write.
func (h *Hub) Fleet(ctx context.Context) (*fleet.Fleet, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	name, data := inventory.SampleName, inventory.Sample
	if h.cfg.FleetFile != "" {
		st, err := os.Stat(h.cfg.FleetFile)
		if err != nil {
			return nil, fmt.Errorf("fleet inventory: %w", err)
		}
		if h.doc.Load() != nil && st.ModTime().Equal(h.rawMod) {
			return h.resolve()
		}
		if data, err = os.ReadFile(h.cfg.FleetFile); err != nil {
			return nil, fmt.Errorf("fleet inventory: %w", err)
		}
		name, h.rawMod = h.cfg.FleetFile, st.ModTime()
		h.doc.Store(nil)
	}
	if h.doc.Load() == nil {
		if err := h.loadInventory(name, data, h.rawMod); err != nil {
			return nil, err
		}
	}
	return h.resolve()
}

// resolveGranularity is how far the hub clock may move before relative times
// are resolved again: eligibility is decided on minutes, and one resolution
// serves every call of a Terraform operation.
const resolveGranularity = time.Second

// resolve builds the fleet from the decoded document at the current time,
// reusing the last result while the clock has moved less than
// resolveGranularity. When an auto-upgrade trigger is due, the fleet is
// built in a simulated transaction where the triggers fired (their runs may
// already have upgraded clusters by now, designs/updates.md §5).
func (h *Hub) resolve() (*fleet.Fleet, error) {
	now := h.Now()
	if h.written.Swap(false) {
		h.fleet = nil
	}
	if d := now.Sub(h.fleetAt); h.fleet != nil && d >= 0 && d < resolveGranularity {
		return h.fleet, nil
	}
	doc := h.doc.Load()
	var f *fleet.Fleet
	due := false
	err := h.store.View(func(tx *bolt.Tx) error {
		var err error
		if f, err = buildTx(tx, doc, now, h.UpgradeDuration()); err != nil {
			return err
		}
		_, _, due, err = nextTriggerTx(tx, f, now)
		return err
	})
	if err == nil && due {
		err = h.store.Simulate(func(tx *bolt.Tx) error {
			var err error
			f, err = advancedFleetTx(tx, doc, f, now, h.UpgradeDuration())
			return err
		})
	}
	if err != nil {
		return nil, err
	}
	f.Share() // every resource reads this snapshot: derived values are computed once (designs/hub.md §8)
	h.fleet, h.fleetAt, h.fleetFP, h.triggersDue = f, now, "", due
	return f, nil
}

// buildTx builds the fleet at instant at from the decoded document, with
// the upgrades completed by then (designs/hub.md §2), runs' members taking
// upgrade each.
func buildTx(tx *bolt.Tx, doc *inventoryDoc, at time.Time, upgrade time.Duration) (*fleet.Fleet, error) {
	f, err := inventory.Build(doc.name, nil, doc.raw, at, doc.epoch, true)
	if err != nil {
		return nil, err
	}
	return f, applyUpgradesTx(tx, f, at, upgrade)
}

// advancedFleetTx fires the triggers due at now over f (the fleet built at
// now) inside tx, and returns the fleet built again when any fired.
func advancedFleetTx(tx *bolt.Tx, doc *inventoryDoc, f *fleet.Fleet, now time.Time, upgrade time.Duration) (*fleet.Fleet, error) {
	fired, err := fireTriggersTx(tx, doc, f, now, upgrade)
	if err != nil || !fired {
		return f, err
	}
	return buildTx(tx, doc, now, upgrade)
}

// advanceTx is the one step that brings the simulated world to now in the
// state database. Every write runs it first, in its own transaction (the
// store.Store's advance hook); reads compute the same without storing it
// (resolve, readTx). It stores what the hub only kept in memory since the
// last write — the decoded inventory with the instant it took effect — and
// fires the auto-upgrade triggers due by now.
func (h *Hub) advanceTx(tx *bolt.Tx) error {
	if p := h.pending.Load(); p != nil {
		if err := putSnapshotTx(tx, p.key, p.snap); err != nil {
			return err
		}
		h.pending.CompareAndSwap(p, nil)
	}
	doc := h.doc.Load()
	if doc == nil || !profilesStoredTx(tx) {
		return nil
	}
	now := h.Now()
	f, err := buildTx(tx, doc, now, h.UpgradeDuration())
	if err != nil {
		return err
	}
	fired, err := fireTriggersTx(tx, doc, f, now, h.UpgradeDuration())
	if fired {
		h.written.Store(true) // the next Fleet resolves again from what is now stored
	}
	return err
}

// readTx runs fn over the state as advanced to now, without storing the
// advance: in a read-only transaction when no trigger is due (the usual
// read), else in a simulated one where the due triggers fired.
func (h *Hub) readTx(ctx context.Context, fn func(tx *bolt.Tx, f *fleet.Fleet) error) error {
	f, err := h.Fleet(ctx)
	if err != nil {
		return err
	}
	h.mu.Lock()
	due := h.triggersDue && h.fleet == f
	h.mu.Unlock()
	if !due {
		return h.store.View(func(tx *bolt.Tx) error { return fn(tx, f) })
	}
	doc := h.doc.Load()
	return h.store.Simulate(func(tx *bolt.Tx) error {
		_, err := fireTriggersTx(tx, doc, f, h.Now(), h.UpgradeDuration())
		if err != nil {
			return err
		}
		return fn(tx, f)
	})
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
		doc := h.doc.Load() // f's: a new document drops the resolved fleet (loadInventory)
		var facts *placement.MemberFacts
		if doc != nil {
			if doc.facts == nil {
				doc.facts = placement.FleetMemberFacts(f)
			}
			facts = doc.facts
		}
		h.fleetFP = placement.FleetFingerprintWith(facts, f, h.fleetAt)
	}
	return f, h.fleetFP, nil
}

// loadInventory decodes an inventory document into h.doc. Decoding is the
// slowest step of loading, and Terraform starts a new provider process for
// every command, so the decoded document is kept in the state database
// (snapshot.go) and reused until the file changes, with the instant it took
// effect (its epoch): the file's modification time (modified; zero for the
// built-in sample) on the hub's clock, and not later than now. Every process
// that decodes the same file so finds the same epoch, with no write: node
// ages count from it, and the fleet changed then (fleet.Fleet.ChangedAt).
// Only documents that passed validation are kept, and only by a write
// (advanceTx).
func (h *Hub) loadInventory(name string, data []byte, modified time.Time) error {
	key := snapshotKey(data)
	h.fleet = nil
	if snap, ok := h.cachedInventory(key); ok {
		h.doc.Store(&inventoryDoc{name: name, raw: snap.Raw, epoch: snap.Epoch})
		h.pending.Store(nil)
		return nil
	}
	raw, err := decodedOnce(key, name, data)
	if err != nil {
		return err
	}
	epoch := h.Now()
	if at := h.clock.At(modified); !modified.IsZero() && at.Before(epoch) {
		epoch = at
	}
	if _, err := inventory.Build(name, data, raw, epoch, epoch, false); err != nil {
		return err
	}
	h.doc.Store(&inventoryDoc{name: name, raw: raw, epoch: epoch})
	h.pending.Store(&pendingSnapshot{key: key, snap: inventorySnapshot{Raw: raw, Epoch: epoch}})
	return nil
}

// decoded are the documents this process decoded, by snapshot key: a pure
// cache of the parse (the instant a document took effect is still the
// loading hub's), for the processes that open many hubs before any write
// stores the snapshot (the wire emulator opens one per request). At most
// maxDecoded are kept.
var decoded struct {
	sync.Mutex
	docs map[string]*inventory.Document
}

const maxDecoded = 4

// decodedOnce decodes data (named name) unless this process already did.
func decodedOnce(key, name string, data []byte) (*inventory.Document, error) {
	decoded.Lock()
	raw, ok := decoded.docs[key]
	decoded.Unlock()
	if ok {
		return raw, nil
	}
	raw, err := inventory.Decode(name, data)
	if err != nil {
		return nil, err
	}
	decoded.Lock()
	if len(decoded.docs) >= maxDecoded || decoded.docs == nil {
		decoded.docs = map[string]*inventory.Document{}
	}
	decoded.docs[key] = raw
	decoded.Unlock()
	return raw, nil
}
