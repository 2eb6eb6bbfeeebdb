package mock_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/hubtest"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// The mock hub passes the contract every hub must pass, on its built-in
// sample fleet, as the provider uses it by default.
func TestContract(t *testing.T) {
	hubtest.Run(t, newMock)
}

// The suite holds for a hub that fills in defaults as a real API server
// does (the suite compares specs with the engine's defaults on both sides).
func TestContractWithDefaults(t *testing.T) {
	hubtest.Run(t, func(t *testing.T) hub.Hub { return hubtest.Defaulting(newMock(t)) }, hubtest.WrittenForm)
}

func newMock(t *testing.T) hub.Hub {
	h, err := mock.New(mock.Config{
		StatePath: filepath.Join(t.TempDir(), "state.db"),
		Clock:     mock.ClockConfig{Mode: mock.ClockFixed, Time: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}
