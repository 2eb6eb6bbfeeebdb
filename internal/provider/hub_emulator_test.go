package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/armemu"
	"github.com/fleetform/terraform-provider-aks/internal/hub/armemu/entraid"
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
	// deniedClientID is a client the emulator's identity endpoint refuses.
	deniedClientID = "00000000-0000-0000-0000-0000000de1ed"
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
	srv := armemu.New(armemu.Options{Fleet: emulatedFleet, SignIn: refuseDenied, Hub: func(context.Context) (hub.Hub, error) {
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

// refuseDenied is the emulator's identity endpoint's rule: every client but deniedClientID.
func refuseDenied(g entraid.Grant) error {
	if g.ClientID == deniedClientID {
		return fmt.Errorf("invalid client secret provided for client %s", g.ClientID)
	}
	return nil
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
	return e.config(nil)
}

// config is the azure block for the emulator, with attributes replaced or
// removed ("" removes) by edits.
func (e *emulator) config(edits map[string]string) string {
	attrs := [][2]string{
		{"subscription_id", emulatedFleet.SubscriptionID}, {"resource_group_name", emulatedFleet.ResourceGroup},
		{"fleet_name", emulatedFleet.Fleet}, {"tenant_id", testTenant}, {"client_id", testClientID}, {"client_secret", testClientSecret},
		{"resource_manager_endpoint", e.run.URL}, {"authority_host", e.run.URL}, {"ca_certificate_path", e.certPath},
		{"upgrade_duration", os.Getenv(EnvUpgradeDuration)}, // the mock's, as a test set it
	}
	var b strings.Builder
	b.WriteString("\nprovider \"aks\" {\n  azure {\n")
	for _, a := range attrs {
		v, edited := edits[a[0]]
		if !edited {
			v = a[1]
		}
		if v != "" {
			fmt.Fprintf(&b, "    %s = %q\n", a[0], v)
		}
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

func TestMain(m *testing.M) {
	code := m.Run()
	closeEmulators()
	os.Exit(code)
}
