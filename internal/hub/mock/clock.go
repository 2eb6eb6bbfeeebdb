package mock

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
	bolt "go.etcd.io/bbolt"
)

// Clock modes of the mock hub.
const (
	ClockReal   = "real"   // wall-clock time
	ClockFixed  = "fixed"  // always the configured instant
	ClockScaled = "scaled" // starts at the configured instant and runs Scale times faster than real time
)

// ClockConfig configures the mock hub's clock.
type ClockConfig struct {
	Mode  string
	Time  time.Time // the fixed instant, or the start of scaled time
	Scale float64   // scaled mode: simulated seconds per real second
}

// Validate checks the clock settings.
func (c ClockConfig) Validate() error {
	switch c.Mode {
	case "", ClockReal:
	case ClockFixed:
		if c.Time.IsZero() {
			return fmt.Errorf("clock mode %q needs a time", c.Mode)
		}
	case ClockScaled:
		if c.Time.IsZero() {
			return fmt.Errorf("clock mode %q needs a start time", c.Mode)
		}
		if c.Scale <= 0 {
			return fmt.Errorf("clock mode %q needs a scale greater than 0, got %v", c.Mode, c.Scale)
		}
	default:
		return fmt.Errorf("clock mode %q is not one of real, fixed, scaled", c.Mode)
	}
	return nil
}

// Clock tells the mock hub's time.
type Clock struct {
	cfg    ClockConfig
	anchor time.Time // real time at which scaled time was cfg.Time
	real   func() time.Time
}

// Now returns the hub's current time in UTC.
func (c *Clock) Now() time.Time {
	switch c.cfg.Mode {
	case ClockFixed:
		return c.cfg.Time.UTC()
	case ClockScaled:
		elapsed := c.real().Sub(c.anchor)
		return c.cfg.Time.Add(time.Duration(float64(elapsed) * c.cfg.Scale)).UTC()
	}
	return c.real().UTC()
}

// At is the hub's time at the real instant real: when a file written then
// took effect on the hub's clock. A fixed clock has one instant.
func (c *Clock) At(real time.Time) time.Time {
	switch c.cfg.Mode {
	case ClockFixed:
		return c.cfg.Time.UTC()
	case ClockScaled:
		elapsed := real.Sub(c.anchor)
		return c.cfg.Time.Add(time.Duration(float64(elapsed) * c.cfg.Scale)).UTC()
	}
	return real.UTC()
}

type clockAnchor struct {
	Start  time.Time `json:"start"`
	Scale  float64   `json:"scale"`
	Anchor time.Time `json:"anchor"`
}

// NewClock builds the clock. A scaled clock must run on across Terraform
// commands (each a new process), so the real instant at which it started is
// kept in the store and reused while the settings stay the same. Storing it
// is the one write a read may cause: once per setting, the clock's, not the
// simulated world's (designs/hub.md §2) — without it, time would stand still
// for every command until a write.
func NewClock(cfg ClockConfig, db *store.Store, real func() time.Time) (*Clock, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Clock{cfg: cfg, real: real}
	if cfg.Mode != ClockScaled {
		return c, nil
	}
	found := false
	err := db.View(func(tx *bolt.Tx) error {
		if a, ok := anchorTx(tx); ok && a.Start.Equal(cfg.Time) && a.Scale == cfg.Scale {
			c.anchor, found = a.Anchor, true
		}
		return nil
	})
	if err != nil || found {
		return c, err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if a, ok := anchorTx(tx); ok && a.Start.Equal(cfg.Time) && a.Scale == cfg.Scale {
			c.anchor = a.Anchor // another process stored it meanwhile
			return nil
		}
		b, err := tx.CreateBucketIfNotExists([]byte(store.BucketMeta))
		if err != nil {
			return err
		}
		c.anchor = real()
		v, _ := json.Marshal(clockAnchor{Start: cfg.Time, Scale: cfg.Scale, Anchor: c.anchor})
		return b.Put([]byte("clock"), v)
	})
	return c, err
}

func anchorTx(tx *bolt.Tx) (clockAnchor, bool) {
	var a clockAnchor
	b := tx.Bucket([]byte(store.BucketMeta))
	if b == nil {
		return a, false
	}
	v := b.Get([]byte("clock"))
	return a, v != nil && json.Unmarshal(v, &a) == nil
}
