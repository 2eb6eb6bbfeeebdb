package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu/entraid"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/fleetsim"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armclient"
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
	cfg := mock.Config{FleetFile: fleetFile, StatePath: state, Clock: mock.ClockConfig{Mode: mock.ClockReal}}
	switch clock {
	case clockReal: // the real clock, as Resource Manager's
	case clockFromEnv: // fixed, at the instant EnvClockTime says when the request arrives
	case clockScaled:
		at, _ := time.Parse(time.RFC3339, scaledFrom)
		cfg.Clock = mock.ClockConfig{Mode: mock.ClockScaled, Time: at, Scale: scaledRate}
	default:
		at, err := time.Parse(time.RFC3339, clock)
		if err != nil {
			return nil, err
		}
		cfg.Clock = mock.ClockConfig{Mode: mock.ClockFixed, Time: at}
	}
	backend := func(context.Context) (hub.Hub, error) {
		c := cfg // the upgrade duration a test sets for the mock block (EnvUpgradeDuration) holds for the emulated mock
		if d, err := time.ParseDuration(os.Getenv(EnvUpgradeDuration)); err == nil {
			c.UpgradeDuration = &d
		}
		if clock == clockFromEnv {
			at, err := time.Parse(time.RFC3339, os.Getenv(EnvClockTime))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", EnvClockTime, err)
			}
			c.Clock = mock.ClockConfig{Mode: mock.ClockFixed, Time: at}
		}
		return mock.New(c)
	}
	srv := armemu.New(armemu.Options{Fleet: emulatedFleet, SignIn: refuseDenied, Hub: backend,
		// The hub and member clusters are real API servers in-process, held
		// by the fleet of the mock state as fleetsim plays Fleet and Karpenter.
		Kubeconfig: func(ctx context.Context, cluster string) ([]byte, error) {
			sim, err := simFor(state, backend)
			if err != nil {
				return nil, err
			}
			return sim.Kubeconfig(ctx, cluster)
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

// The Kubernetes API servers of the azure path: one kubetest.Env for the
// test binary, started on first use, with one API server per cluster name
// (the hub cluster, each member used), which the mock state in use holds.
// Tests run one after another, each on its own mock state: the state in use
// has its fleetsim.Sim, which the emulators of that state (one per clock
// and inventory a test moves between) share; a new state closes the
// previous state's Sim, and its own empties the clusters of what the
// previous left (a new mock state holds nothing either).
var kube struct {
	sync.Mutex
	env     *kubetest.Env
	state   string
	sim     *fleetsim.Sim
	backend atomic.Pointer[func(context.Context) (hub.Hub, error)]
}

// simFor is the Sim of state, whose backend is now the mock of the
// emulator that asks (the clock or inventory of the test's current step);
// a nil backend keeps the last one.
func simFor(state string, backend func(context.Context) (hub.Hub, error)) (*fleetsim.Sim, error) {
	kube.Lock()
	defer kube.Unlock()
	if backend != nil {
		kube.backend.Store(&backend)
	}
	if kube.sim != nil && kube.state == state {
		return kube.sim, nil
	}
	if kube.env == nil {
		env, err := kubetest.Start(kubetest.Stderr)
		if err != nil {
			return nil, err
		}
		kube.env = env
	}
	if kube.sim != nil {
		kube.sim.Close()
	}
	kube.state = state
	kube.sim = fleetsim.New(kube.env, func(ctx context.Context) (hub.Hub, error) { return (*kube.backend.Load())(ctx) })
	return kube.sim, nil
}

// closeEmulators stops every emulator and removes their certificates, and
// the Kubernetes API servers.
func closeEmulators() {
	emulators.Lock()
	defer emulators.Unlock()
	for _, e := range emulators.byID {
		_ = e.run.Close()
	}
	kube.Lock()
	if kube.sim != nil {
		kube.sim.Close()
	}
	if kube.env != nil {
		kube.env.Close()
	}
	kube.Unlock()
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

// hubOf is the hub that providerConfigAt(state, fleetFile, clock) configures,
// for a test's checks and out-of-band changes: the mock hub of state, or an
// azure hub through the emulator of state (and so the same clusters).
func hubOf(t *testing.T, state, fleetFile, clock string) hub.Hub {
	t.Helper()
	at, err := time.Parse(time.RFC3339, clock)
	if err != nil {
		t.Fatal(err)
	}
	if !testHubIsAzure() {
		h, err := mock.New(mock.Config{FleetFile: fleetFile, StatePath: state, Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: at}})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	e, err := emulatorFor(state, fleetFile, clock)
	if err != nil {
		t.Fatal(err)
	}
	h, err := azure.New(context.Background(), azure.Config{Fleet: emulatedFleet, Client: armclient.Options{
		Credential: &azfake.TokenCredential{},
		Cloud: cloud.Configuration{Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
			cloud.ResourceManager: {Endpoint: e.run.URL, Audience: e.run.URL}}},
		Transport:             e.run.Client(),
		DisableRPRegistration: true,
		PollFrequency:         time.Millisecond,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}
