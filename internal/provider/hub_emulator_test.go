package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/armemu"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// The hub acceptance tests run against. AKS_TEST_HUB=azure runs them through
// the azure block against the ARM wire emulator of a mock hub with the same
// state, inventory and clock that the mock block would use, so that one suite
// checks both paths give identical results (make acc-azure).
const envTestHub = "AKS_TEST_HUB"

func testHubIsAzure() bool { return os.Getenv(envTestHub) == "azure" }

// The emulated fleet's identity and the service principal the tests sign in
// with (the emulator's identity endpoint accepts it).
var (
	emulatedFleet = armfleet.FleetID{SubscriptionID: "00000000-0000-0000-0000-0000000f1ee7", ResourceGroup: "rg-fleet", Fleet: "fleet"}
	testTenant    = "00000000-0000-0000-0000-00000000a11d"
	testClientID  = "00000000-0000-0000-0000-0000000c11e7"
	// testClientSecret is what the secrets test looks for in state, plan and logs.
	testClientSecret = "s3cr3t-value-that-must-never-leak"
)

// emulators are the running wire emulators, one per (state, inventory,
// clock), started on first use and closed when the tests end.
var emulators struct {
	sync.Mutex
	dir  string
	byID map[string]*emulator
}

type emulator struct {
	run      *armemu.Running
	server   *armemu.Server
	certPath string
}

// emulatorFor starts (once) the emulator serving the mock hub of state,
// fleetFile and a fixed clock. Every request opens that hub afresh, as every
// Terraform command opens the mock hub afresh.
func emulatorFor(state, fleetFile, clock string) (*emulator, error) {
	emulators.Lock()
	defer emulators.Unlock()
	key := state + "\x00" + fleetFile + "\x00" + clock
	if e, ok := emulators.byID[key]; ok {
		return e, nil
	}
	if emulators.byID == nil {
		dir, err := os.MkdirTemp("", "aks-emulators-")
		if err != nil {
			return nil, err
		}
		emulators.dir, emulators.byID = dir, map[string]*emulator{}
	}
	at, err := time.Parse(time.RFC3339, clock)
	if err != nil {
		return nil, err
	}
	cfg := mock.Config{FleetFile: fleetFile, StatePath: state, Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: at}}
	srv := armemu.New(armemu.Options{Fleet: emulatedFleet, Hub: func(context.Context) (hub.Hub, error) {
		c := cfg // the upgrade duration a test sets for the mock block (EnvUpgradeDuration) holds for the emulated mock
		if d, err := time.ParseDuration(os.Getenv(EnvUpgradeDuration)); err == nil {
			c.UpgradeDuration = &d
		}
		return mock.New(c)
	}})
	run, err := armemu.Listen("127.0.0.1:0", srv)
	if err != nil {
		return nil, err
	}
	certPath := filepath.Join(emulators.dir, fmt.Sprintf("ca-%d.pem", len(emulators.byID)))
	if err := os.WriteFile(certPath, run.CertPEM, 0o600); err != nil {
		return nil, err
	}
	e := &emulator{run: run, server: srv, certPath: certPath}
	emulators.byID[key] = e
	return e, nil
}

// closeEmulators stops every emulator and removes their certificates.
func closeEmulators() {
	emulators.Lock()
	defer emulators.Unlock()
	for _, e := range emulators.byID {
		_ = e.run.Close()
	}
	if emulators.dir != "" {
		_ = os.RemoveAll(emulators.dir)
	}
	emulators.byID = nil
}

// azureProviderConfig is providerConfigAt's azure block: the fleet behind
// the emulator, signed in with a client secret at the emulator's identity
// endpoint.
func azureProviderConfig(state, fleetFile, clock string) string {
	e, err := emulatorFor(state, fleetFile, clock)
	if err != nil {
		panic(fmt.Sprintf("starting the ARM wire emulator: %v", err))
	}
	return fmt.Sprintf(`
provider "aks" {
  azure {
    subscription_id           = %q
    resource_group_name       = %q
    fleet_name                = %q
    tenant_id                 = %q
    client_id                 = %q
    client_secret             = %q
    resource_manager_endpoint = %q
    authority_host            = %q
    ca_certificate_path       = %q
    upgrade_duration          = %q # the mock's, as a test set it (EnvUpgradeDuration)
  }
}
`, emulatedFleet.SubscriptionID, emulatedFleet.ResourceGroup, emulatedFleet.Fleet, testTenant, testClientID, testClientSecret,
		e.run.URL, e.run.URL, e.certPath, os.Getenv(EnvUpgradeDuration))
}

func TestMain(m *testing.M) {
	code := m.Run()
	closeEmulators()
	os.Exit(code)
}
