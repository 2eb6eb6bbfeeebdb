package mock

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

func TestScaledClockPersistsAcrossProcesses(t *testing.T) {
	s, err := store.Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	opened, _ := s.TxID()
	real := testNow
	cfg := ClockConfig{Mode: ClockScaled, Time: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), Scale: 60}
	c1, err := NewClock(cfg, s, func() time.Time { return real })
	if err != nil {
		t.Fatal(err)
	}
	// Its start is stored once, and not again by the next process.
	stored, _ := s.TxID()
	if stored != opened+1 {
		t.Fatalf("the scaled clock's start: transactions %d, then %d; want one write", opened, stored)
	}
	real = real.Add(time.Minute)
	c2, _ := NewClock(cfg, s, func() time.Time { return real }) // a later process
	if id, _ := s.TxID(); id != stored {
		t.Fatalf("a later process stored the clock again: transaction %d", id)
	}
	if want := cfg.Time.Add(time.Hour); !c1.Now().Equal(want) || !c2.Now().Equal(want) {
		t.Fatalf("got %v and %v, want %v", c1.Now(), c2.Now(), want)
	}
	fixed, _ := NewClock(ClockConfig{Mode: ClockFixed, Time: cfg.Time}, s, time.Now)
	if !fixed.Now().Equal(cfg.Time) {
		t.Fatal("fixed clock moved")
	}
	for _, bad := range []ClockConfig{{Mode: "warp"}, {Mode: ClockFixed}, {Mode: ClockScaled, Time: cfg.Time}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
