package azure_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armclient"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// The tests of this file put the azure hub through the failures Azure
// Resource Manager and the network really produce, with the wire emulator's
// faults (armemu.Faults) and with failures of the client side's own
// transport (a lost answer, a provider process that dies), and check that
// the fleet ends up as asked: every object once, every run started once.

// rigClock is the mock hub's fixed clock in these tests.
var rigClock = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// rig is the wire emulator in front of a mock hub, as newEmulated builds
// it, with what these tests need besides: the emulator's options, other
// provider processes (connect), their transports, and the backend read
// directly.
type rig struct {
	srv *armemu.Server
	run *armemu.Running
	cfg mock.Config
	// shared is the one backend serving every request (rigOptions.Shared);
	// nil when each request opens the mock hub, as a new process would.
	shared *mock.Hub
}

// rigOptions shape a rig.
type rigOptions struct {
	// PageSize and Polls are the emulator's (armemu.Options); 0 is its default.
	PageSize, Polls int
	// FleetFile is the mock hub's inventory; empty is the sample fleet.
	FleetFile string
	// Shared serves every request with one mock hub (benchmarks), instead
	// of opening the mock hub for each request (newEmulated's way).
	Shared bool
}

func newRig(tb testing.TB, o rigOptions) *rig {
	tb.Helper()
	r := &rig{cfg: mock.Config{FleetFile: o.FleetFile, StatePath: filepath.Join(tb.TempDir(), "state.db"),
		Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: rigClock}}}
	backend := func(context.Context) (hub.Hub, error) { return mock.New(r.cfg) }
	if o.Shared {
		m, err := mock.New(r.cfg)
		if err != nil {
			tb.Fatal(err)
		}
		r.shared = m
		backend = func(context.Context) (hub.Hub, error) { return m, nil }
	}
	r.srv = armemu.New(armemu.Options{Fleet: fleetID, Hub: backend, PageSize: o.PageSize, Polls: o.Polls})
	run, err := armemu.Listen("127.0.0.1:0", r.srv)
	if err != nil {
		tb.Fatal(err)
	}
	r.run = run
	tb.Cleanup(func() { _ = run.Close() })
	return r
}

// connect starts a provider process: a new azure hub on the emulator (New
// reads the fleet). wrap, when not nil, wraps its HTTP transport;
// concurrency 0 is the hub's default.
func (r *rig) connect(ctx context.Context, wrap func(policy.Transporter) policy.Transporter, concurrency int) (*azure.Hub, error) {
	var tr policy.Transporter = r.run.Client()
	if wrap != nil {
		tr = wrap(tr)
	}
	return azure.New(ctx, azure.Config{Fleet: fleetID, Concurrency: concurrency, Client: armclient.Options{
		Credential: &azfake.TokenCredential{},
		Cloud: cloud.Configuration{Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
			cloud.ResourceManager: {Endpoint: r.run.URL, Audience: r.run.URL}}},
		Transport:             tr,
		DisableRPRegistration: true,
		PollFrequency:         time.Millisecond,
		Retry:                 &policy.RetryOptions{RetryDelay: time.Millisecond, MaxRetryDelay: 10 * time.Millisecond},
	}})
}

// mustConnect is connect, failing the test on an error.
func (r *rig) mustConnect(tb testing.TB, wrap func(policy.Transporter) policy.Transporter) *azure.Hub {
	tb.Helper()
	h, err := r.connect(context.Background(), wrap, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// mock opens the backend directly: what someone else changing the fleet
// behind the provider's back (the portal, az, another pipeline) writes to.
func (r *rig) mock(tb testing.TB) *mock.Hub {
	tb.Helper()
	if r.shared != nil {
		return r.shared
	}
	m, err := mock.New(r.cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// keys lists the objects the backend stores in an ARM collection
// (armfleet.UpdateStrategies, UpdateRuns: the mock's buckets are named so).
func (r *rig) keys(tb testing.TB, collection string) []string {
	tb.Helper()
	keys, err := r.mock(tb).Store().Keys(collection)
	if err != nil {
		tb.Fatal(err)
	}
	return keys
}

// starts counts the start actions the backend recorded on run name: the
// mock keeps a run's actions as events (bucket updateRunEvents), from
// which it computes the run's progress.
func (r *rig) starts(tb testing.TB, name string) int {
	tb.Helper()
	rec, err := r.mock(tb).Store().Get("updateRunEvents", name)
	if errors.Is(err, hub.ErrNotFound) {
		return 0
	}
	if err != nil {
		tb.Fatal(err)
	}
	var body struct {
		Events []update.Event `json:"events"`
	}
	if err := json.Unmarshal(rec.Body, &body); err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, e := range body.Events {
		if e.Action == update.ActionStart {
			n++
		}
	}
	return n
}

// served are the requests the emulator served whose "METHOD path" contains
// match, as "METHOD status" lines in order.
func (r *rig) served(match string) []string {
	var out []string
	for _, q := range r.srv.Requests() {
		if strings.Contains(q.Method+" "+q.Path, match) {
			out = append(out, fmt.Sprintf("%s %d", q.Method, q.Status))
		}
	}
	return out
}

// count is how many of lines are line.
func count(lines []string, line string) int {
	n := 0
	for _, l := range lines {
		if l == line {
			n++
		}
	}
	return n
}

// transportFunc is a policy.Transporter made of a function.
type transportFunc func(*http.Request) (*http.Response, error)

func (f transportFunc) Do(req *http.Request) (*http.Response, error) { return f(req) }

// isPoll tells a poll of a long-running operation's status URL.
func isPoll(req *http.Request) bool {
	return req.Method == http.MethodGet && strings.Contains(req.URL.Path, "/operations/")
}

// Objects of the sample fleet (its update groups are canary, wave-1, wave-2).

func sampleStrategy(maxConcurrency string) update.Strategy {
	return update.Strategy{Stages: []update.Stage{
		{Name: "canary", Groups: []update.Group{{Name: "canary"}}, AfterStageWaitInSeconds: update.WaitSeconds(60)},
		{Name: "waves", Groups: []update.Group{{Name: "wave-1", MaxConcurrency: maxConcurrency}, {Name: "wave-2"}}},
	}}
}

// strategyRun is a node-image run following the stored strategy named strategy.
func strategyRun(strategy string) update.RunSpec {
	return update.RunSpec{UpdateStrategyID: fleetID.Child(armfleet.UpdateStrategies, strategy),
		ManagedClusterUpdate: update.ManagedClusterUpdate{Upgrade: update.Upgrade{Type: update.UpgradeNodeImageOnly},
			NodeImageSelection: update.NodeImageSelection{Type: update.NodeImageLatest}}}
}

// inlineRun is a node-image run of the canary group with its own strategy;
// selection tells two versions apart (Latest, Consistent).
func inlineRun(selection string) update.RunSpec {
	s := update.Strategy{Stages: []update.Stage{{Name: "only", Groups: []update.Group{{Name: "canary"}}}}}
	return update.RunSpec{Strategy: &s, ManagedClusterUpdate: update.ManagedClusterUpdate{
		Upgrade: update.Upgrade{Type: update.UpgradeNodeImageOnly}, NodeImageSelection: update.NodeImageSelection{Type: selection}}}
}

func sameStrategy(a, b update.Strategy) bool {
	return reflect.DeepEqual(update.StrategyWithDefaults(a), update.StrategyWithDefaults(b))
}

func sameRun(a, b update.RunSpec) bool {
	return reflect.DeepEqual(update.RunWithDefaults(a), update.RunWithDefaults(b))
}

// startedStates are the states of a run that has been started.
var startedStates = []string{update.StateRunning, update.StatePending}

// checkStartedOnce checks that run name is started, once, and is the only
// run of the fleet.
func (r *rig) checkStartedOnce(t *testing.T, h hub.Hub, name string) {
	t.Helper()
	run, err := h.GetUpdateRun(context.Background(), name)
	if err != nil {
		t.Fatalf("reading the run: %v", err)
	}
	if !slices.Contains(startedStates, run.Status.State) || !run.Status.StartTime.Equal(rigClock) {
		t.Errorf("the run is %s, started at %v; want Running or Pending, started at %v", run.Status.State, run.Status.StartTime, rigClock)
	}
	if n := r.starts(t, name); n != 1 {
		t.Errorf("the backend recorded %d starts of the run, want 1", n)
	}
	if got := r.keys(t, armfleet.UpdateRuns); !slices.Equal(got, []string{name}) {
		t.Errorf("the fleet's runs are %v, want only %q", got, name)
	}
}

// faultPlan is the faults one call of the hub meets: some on its first
// requests, and some armed when it first polls its operation's status.
type faultPlan struct {
	request armemu.Faults
	// poll is armed when the call first polls an operation (GET
	// …/locations/…/operations/{id}); its Match is set to "/operations/".
	poll armemu.Faults
}

// injected is how many requests the plan fails.
func (p faultPlan) injected() int {
	n := 0
	for _, f := range []armemu.Faults{p.request, p.poll} {
		n += f.Throttle + f.ServerErrors + f.DropConnections + f.OperationErrors
	}
	return n
}

// a. Throttling and server errors at any point of a write: Resource
// Manager answers 429 when a subscription's or tenant's request budget is
// spent (many Terraform workspaces applying at once, or a big fleet's
// inventory read), including to the polls of operations already accepted,
// and 500/503 while a long-running operation is polled (the Fleet RP's
// operation-status backend failing over). azcore retries every one of them
// (429, 5xx, up to three times, after Retry-After-Ms): every call of a
// strategy's and a run's life still succeeds, and the fleet ends with each
// object once and the run started once.
func TestFaultsDuringLongRunningOperations(t *testing.T) {
	for _, tc := range []struct {
		name string
		plan faultPlan
	}{
		{"429 storm on the request", faultPlan{request: armemu.Faults{Throttle: 3}}},
		{"429 storm while polling", faultPlan{poll: armemu.Faults{Throttle: 3}}},
		{"500 on every try of a status poll", faultPlan{poll: armemu.Faults{OperationErrors: 3}}},
		{"500 and 503 from the status URL", faultPlan{poll: armemu.Faults{ServerErrors: 3}}},
		{"429 storm, then throttled and failing polls", faultPlan{request: armemu.Faults{Throttle: 3},
			poll: armemu.Faults{Throttle: 1, ServerErrors: 1, OperationErrors: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // mostly waiting for retries
			r := newRig(t, rigOptions{})
			var armed atomic.Pointer[armemu.Faults]
			h := r.mustConnect(t, func(next policy.Transporter) policy.Transporter {
				return transportFunc(func(req *http.Request) (*http.Response, error) {
					if isPoll(req) {
						if f := armed.Swap(nil); f != nil {
							r.srv.SetFaults(*f)
						}
					}
					return next.Do(req)
				})
			})
			ctx := context.Background()
			const strategyName, runName = "fault-strategy", "fault-run"
			var runETag string
			for _, step := range []struct {
				name string
				call func() error
			}{
				{"create the strategy", func() error {
					_, err := h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: strategyName}, Spec: sampleStrategy("")},
						hub.Precondition{IfNoneMatch: true})
					return err
				}},
				{"create the run", func() error {
					run, err := h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: runName}, Spec: strategyRun(strategyName)},
						hub.Precondition{IfNoneMatch: true})
					if err == nil {
						runETag = run.ETag
					}
					return err
				}},
				{"start the run", func() error {
					run, err := h.StartUpdateRun(ctx, runName, hub.Precondition{IfMatch: runETag})
					if err == nil {
						runETag = run.ETag
					}
					return err
				}},
				{"check", func() error {
					// No request: each object once, the run started once.
					if got := r.keys(t, armfleet.UpdateStrategies); !slices.Equal(got, []string{strategyName}) {
						return fmt.Errorf("strategies %v, want only %q", got, strategyName)
					}
					r.checkStartedOnce(t, h, runName)
					return nil
				}},
				{"delete the run", func() error { return h.DeleteUpdateRun(ctx, runName, hub.Precondition{IfMatch: runETag}) }},
				{"delete the strategy", func() error { return h.DeleteUpdateStrategy(ctx, strategyName, hub.Precondition{}) }},
			} {
				plan := tc.plan
				if step.name == "check" {
					plan = faultPlan{}
				}
				r.srv.ResetRequests()
				r.srv.SetFaults(plan.request)
				if plan.poll != (armemu.Faults{}) {
					poll := plan.poll
					poll.Match = "/operations/"
					armed.Store(&poll)
				}
				err := step.call()
				armed.Store(nil)
				r.srv.SetFaults(armemu.Faults{})
				if err != nil {
					t.Fatalf("%s: %v", step.name, err)
				}
				// Every fault planned was met (and retried past).
				failed := 0
				for _, q := range r.srv.Requests() {
					if q.Status == http.StatusTooManyRequests || q.Status >= 500 {
						failed++
					}
				}
				if failed != plan.injected() {
					t.Fatalf("%s: %d requests failed, want the %d faults planned: %v", step.name, failed, plan.injected(), r.srv.Requests())
				}
				// Each write reached the backend once: one PUT, POST or
				// DELETE answered with success.
				if step.name != "check" {
					applied := 0
					for _, q := range r.srv.Requests() {
						if q.Method != http.MethodGet && q.Status >= 200 && q.Status < 300 {
							applied++
						}
					}
					if applied != 1 {
						t.Fatalf("%s: %d writes succeeded, want 1: %v", step.name, applied, r.srv.Requests())
					}
				}
			}
			if got := r.keys(t, armfleet.UpdateRuns); len(got) != 0 {
				t.Errorf("runs left after the delete: %v", got)
			}
			if got := r.keys(t, armfleet.UpdateStrategies); len(got) != 0 {
				t.Errorf("strategies left after the delete: %v", got)
			}
		})
	}
}

// b. A concurrent modification: someone changes an object (the portal, az,
// another Terraform workspace, a second provider process) between the
// provider's read and its write. The write carries the ETag read (If-Match),
// so Resource Manager answers 412 and nothing is overwritten: the hub
// reports hub.ErrPreconditionFailed naming the object, and the other
// writer's change stays.
func TestStaleETag(t *testing.T) {
	for _, writer := range []struct {
		name string
		// other returns the hub that changes objects behind the provider's back.
		other func(t *testing.T, r *rig) hub.Hub
	}{
		{"the backend directly", func(t *testing.T, r *rig) hub.Hub { return r.mock(t) }},
		{"a second azure hub", func(t *testing.T, r *rig) hub.Hub { return r.mustConnect(t, nil) }},
	} {
		t.Run("update strategy changed by "+writer.name, func(t *testing.T) {
			r := newRig(t, rigOptions{})
			h, ctx := r.mustConnect(t, nil), context.Background()
			const name = "stale-strategy"
			if _, err := h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: name}, Spec: sampleStrategy("")}, hub.Precondition{IfNoneMatch: true}); err != nil {
				t.Fatal(err)
			}
			read, err := h.GetUpdateStrategy(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			theirs := sampleStrategy("2")
			if _, err := writer.other(t, r).PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: name}, Spec: theirs}, hub.Precondition{}); err != nil {
				t.Fatal(err)
			}
			_, err = h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: name}, Spec: sampleStrategy("50%")}, hub.Precondition{IfMatch: read.ETag})
			if !errors.Is(err, hub.ErrPreconditionFailed) {
				t.Fatalf("put with a stale ETag: %v, want ErrPreconditionFailed", err)
			}
			if want := fmt.Sprintf("update strategy %q", name); !strings.Contains(err.Error(), want) {
				t.Errorf("the error %q does not name the object (%s)", err, want)
			}
			now, err := h.GetUpdateStrategy(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if !sameStrategy(now.Spec, theirs) {
				t.Errorf("the strategy is %+v, want the other writer's %+v", now.Spec, theirs)
			}
		})
		t.Run("update run changed by "+writer.name+", then started", func(t *testing.T) {
			r := newRig(t, rigOptions{})
			h, ctx := r.mustConnect(t, nil), context.Background()
			const name = "stale-run"
			if _, err := h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: inlineRun(update.NodeImageLatest)}, hub.Precondition{IfNoneMatch: true}); err != nil {
				t.Fatal(err)
			}
			read, err := h.GetUpdateRun(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			theirs := inlineRun(update.NodeImageConsistent)
			if _, err := writer.other(t, r).PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: theirs}, hub.Precondition{}); err != nil {
				t.Fatal(err)
			}
			_, err = h.StartUpdateRun(ctx, name, hub.Precondition{IfMatch: read.ETag})
			if !errors.Is(err, hub.ErrPreconditionFailed) {
				t.Fatalf("start with a stale ETag: %v, want ErrPreconditionFailed", err)
			}
			if want := fmt.Sprintf("update run %q", name); !strings.Contains(err.Error(), want) {
				t.Errorf("the error %q does not name the object (%s)", err, want)
			}
			now, err := h.GetUpdateRun(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if now.Status.State != update.StateNotStarted || r.starts(t, name) != 0 {
				t.Errorf("the run is %s with %d starts, want NotStarted, never started", now.Status.State, r.starts(t, name))
			}
			if !sameRun(now.Spec, theirs) {
				t.Errorf("the run is %+v, want the other writer's %+v", now.Spec, theirs)
			}
		})
	}
}

// loseAnswer is a transport that, once armed, sends the next request
// matching match (its "METHOD path" contains it) to the service, which
// executes it, and then loses the answer: the connection breaks as the
// response comes back (a NAT or proxy dropping an idle connection, a load
// balancer's reset, a laptop changing networks), so the client sees a
// transport error and never learns that the write was applied.
func loseAnswer(match string, armed *atomic.Bool) func(policy.Transporter) policy.Transporter {
	return func(next policy.Transporter) policy.Transporter {
		return transportFunc(func(req *http.Request) (*http.Response, error) {
			if !strings.Contains(req.Method+" "+req.URL.Path, match) {
				return next.Do(req)
			}
			lose := armed.Swap(false)
			resp, err := next.Do(req)
			if !lose || err != nil {
				return resp, err
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			return nil, &url.Error{Op: req.Method, URL: req.URL.String(), Err: io.ErrUnexpectedEOF}
		})
	}
}

// c. A connection that breaks during a PUT. azcore retries a request that
// got no answer, PUTs included, with the same body and preconditions. When
// the connection broke before the service read the request (the
// emulator's DropConnections fault), the retry is the only attempt and
// succeeds. When it broke after the service applied it (the answer lost),
// the retry meets the first attempt's effect: a create (If-None-Match: *)
// finds the object and an update (If-Match) finds a newer ETag, and both
// get 412. The hub then reads the object (the refusal answered a retry:
// armclient.ErrRetried) and, as it holds exactly the spec sent, takes the
// write as done: every case succeeds, and the fleet holds one object with
// the intended spec.
func TestDroppedConnectionDuringPut(t *testing.T) {
	const name = "dropped"
	strategies := fleetID.Collection(armfleet.UpdateStrategies) + "/" + name
	runs := fleetID.Collection(armfleet.UpdateRuns) + "/" + name
	putStrategy := func(h hub.Hub, s update.Strategy, pre hub.Precondition) error {
		_, err := h.PutUpdateStrategy(context.Background(), hub.UpdateStrategy{Meta: hub.Meta{Name: name}, Spec: s}, pre)
		return err
	}
	putRun := func(h hub.Hub, s update.RunSpec, pre hub.Precondition) error {
		_, err := h.PutUpdateRun(context.Background(), hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: s}, pre)
		return err
	}
	for _, tc := range []struct {
		name string
		// update: the object exists (first version) and the PUT changes it
		// with If-Match; otherwise the PUT creates it with If-None-Match.
		update bool
		run    bool // an update run rather than a strategy
		// lost: the answer is lost after the service applied the PUT;
		// otherwise the emulator drops the connection before serving it.
		lost bool
		// served are the PUTs the emulator served, "METHOD status" (0: dropped).
		served []string
	}{
		{name: "create, dropped before it was applied", served: []string{"PUT 0", "PUT 201"}},
		{name: "update, dropped before it was applied", update: true, served: []string{"PUT 0", "PUT 200"}},
		{name: "create of a run, dropped before it was applied", run: true, served: []string{"PUT 0", "PUT 201"}},
		{name: "create, answer lost after it was applied", lost: true, served: []string{"PUT 201", "PUT 412"}},
		{name: "update, answer lost after it was applied", update: true, lost: true, served: []string{"PUT 200", "PUT 412"}},
		{name: "create of a run, answer lost after it was applied", run: true, lost: true, served: []string{"PUT 201", "PUT 412"}},
		{name: "update of a run, answer lost after it was applied", run: true, update: true, lost: true, served: []string{"PUT 200", "PUT 412"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{})
			path := strategies
			if tc.run {
				path = runs
			}
			var wrap func(policy.Transporter) policy.Transporter
			var armed atomic.Bool
			if tc.lost {
				wrap = loseAnswer("PUT "+path, &armed)
			}
			h := r.mustConnect(t, wrap)
			// put writes version v (0 or 1) of the object.
			put := func(v int, pre hub.Precondition) error {
				if tc.run {
					return putRun(h, inlineRun([]string{update.NodeImageLatest, update.NodeImageConsistent}[v]), pre)
				}
				return putStrategy(h, sampleStrategy([]string{"", "50%"}[v]), pre)
			}
			pre, want := hub.Precondition{IfNoneMatch: true}, 0
			if tc.update {
				if err := put(0, hub.Precondition{IfNoneMatch: true}); err != nil {
					t.Fatal(err)
				}
				etag, err := r.etag(h, tc.run, name)
				if err != nil {
					t.Fatal(err)
				}
				pre, want = hub.Precondition{IfMatch: etag}, 1
			}
			r.srv.ResetRequests()
			if tc.lost {
				armed.Store(true)
			} else {
				r.srv.SetFaults(armemu.Faults{DropConnections: 1, Match: "PUT " + path})
			}
			err := put(want, pre)
			r.srv.SetFaults(armemu.Faults{})

			if got := r.served("PUT " + path); !slices.Equal(got, tc.served) {
				t.Errorf("the emulator served %v, want %v", got, tc.served)
			}
			if err != nil {
				t.Errorf("put: %v, want success after azcore's retry", err)
			}
			// Either way the fleet holds one object, with the spec asked for.
			collection := armfleet.UpdateStrategies
			if tc.run {
				collection = armfleet.UpdateRuns
			}
			if got := r.keys(t, collection); !slices.Equal(got, []string{name}) {
				t.Fatalf("%s %v, want only %q", collection, got, name)
			}
			converged, err := r.hasVersion(h, tc.run, name, want)
			if err != nil {
				t.Fatal(err)
			}
			if !converged {
				t.Errorf("the object does not hold version %d of its spec", want)
			}
		})
	}
}

// etag reads the current ETag of the strategy or run name.
func (r *rig) etag(h hub.Hub, run bool, name string) (string, error) {
	if run {
		x, err := h.GetUpdateRun(context.Background(), name)
		if err != nil {
			return "", err
		}
		return x.ETag, nil
	}
	x, err := h.GetUpdateStrategy(context.Background(), name)
	if err != nil {
		return "", err
	}
	return x.ETag, nil
}

// hasVersion tells whether the strategy or run name holds version v of
// the specs of TestDroppedConnectionDuringPut: the check the hub should
// make after a retried PUT's 412.
func (r *rig) hasVersion(h hub.Hub, run bool, name string, v int) (bool, error) {
	ctx := context.Background()
	if run {
		x, err := h.GetUpdateRun(ctx, name)
		if err != nil {
			return false, err
		}
		return sameRun(x.Spec, inlineRun([]string{update.NodeImageLatest, update.NodeImageConsistent}[v])), nil
	}
	x, err := h.GetUpdateStrategy(ctx, name)
	if err != nil {
		return false, err
	}
	return sameStrategy(x.Spec, sampleStrategy([]string{"", "50%"}[v])), nil
}

// The same lost answer on a start: the service started the run, and
// azcore's retry of the POST meets a started run. With If-Match (the ETag
// the provider read), the start changed the ETag: 412; without, the run is
// Running: 409. The hub reads the run after such a refused retry and
// accepts a run started at or after the call began: the start succeeds,
// and the run started once.
func TestLostAnswerToStart(t *testing.T) {
	const name = "lost-start"
	for _, tc := range []struct {
		name    string
		ifMatch bool
		served  []string
	}{
		{"with If-Match", true, []string{"POST 202", "POST 412"}},
		{"without a precondition", false, []string{"POST 202", "POST 409"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{})
			var armed atomic.Bool
			h := r.mustConnect(t, loseAnswer("/updateRuns/"+name+"/start", &armed))
			ctx := context.Background()
			run, err := h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: inlineRun(update.NodeImageLatest)}, hub.Precondition{IfNoneMatch: true})
			if err != nil {
				t.Fatal(err)
			}
			pre := hub.Precondition{}
			if tc.ifMatch {
				pre.IfMatch = run.ETag
			}
			armed.Store(true)
			_, err = h.StartUpdateRun(ctx, name, pre)
			if err != nil {
				t.Errorf("start: %v, want success: the lost first attempt started the run", err)
			}
			if got := r.served("POST "); !slices.Equal(got, tc.served) {
				t.Errorf("the emulator served %v, want %v", got, tc.served)
			}
			r.checkStartedOnce(t, h, name)
		})
	}
}

// The same lost answer on a stop: the service stopped the run, and the
// retry meets a run already stopping (409). The hub reads the run: stopping
// or stopped, the stop is done.
func TestLostAnswerToStop(t *testing.T) {
	const name = "lost-stop"
	r := newRig(t, rigOptions{})
	var armed atomic.Bool
	h := r.mustConnect(t, loseAnswer("/updateRuns/"+name+"/stop", &armed))
	ctx := context.Background()
	if _, err := h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: inlineRun(update.NodeImageLatest)}, hub.Precondition{IfNoneMatch: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.StartUpdateRun(ctx, name, hub.Precondition{}); err != nil {
		t.Fatal(err)
	}
	armed.Store(true)
	run, err := h.StopUpdateRun(ctx, name, hub.Precondition{})
	if err != nil {
		t.Fatalf("stop: %v, want success: the lost first attempt stopped the run", err)
	}
	if s := run.Status.State; s != update.StateStopping && s != update.StateStopped {
		t.Errorf("run %s, want Stopping or Stopped", s)
	}
	if got, want := r.served("POST "), []string{"POST 202", "POST 202", "POST 409"}; !slices.Equal(got, want) {
		t.Errorf("the emulator served %v, want %v (start, stop, the stop's retry)", got, want)
	}
}

// And on a skip: the retry meets a group already skipped — skipped again on
// a run that completed (a skip on a finished run holds for its next start,
// designs/updates.md §4) — and, every target skipped, the skip is done once.
func TestLostAnswerToSkip(t *testing.T) {
	const name = "lost-skip"
	r := newRig(t, rigOptions{})
	var armed atomic.Bool
	h := r.mustConnect(t, loseAnswer("/updateRuns/"+name+"/skip", &armed))
	ctx := context.Background()
	run, err := h.PutUpdateRun(ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: inlineRun(update.NodeImageLatest)}, hub.Precondition{IfNoneMatch: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.StartUpdateRun(ctx, name, hub.Precondition{}); err != nil {
		t.Fatal(err)
	}
	group := run.ResolvedStrategy.Stages[len(run.ResolvedStrategy.Stages)-1].Groups[0].Name
	armed.Store(true)
	got, err := h.SkipUpdateRun(ctx, name, []update.SkipTarget{{Type: update.TargetGroup, Name: group}}, hub.Precondition{})
	if err != nil {
		t.Fatalf("skip: %v, want success: the lost first attempt skipped the group", err)
	}
	if !slices.ContainsFunc(got.Status.Stages, func(s update.StageStatus) bool {
		return slices.ContainsFunc(s.Groups, func(g update.GroupStatus) bool { return g.Name == group && g.State == update.StateSkipped })
	}) {
		t.Errorf("group %s is not skipped: %+v", group, got.Status)
	}
	if served := r.served("POST "); len(served) != 3 || served[1] != "POST 202" {
		t.Errorf("the emulator served %v, want start, skip, and the skip's retry", served)
	}
}

// d. A provider process killed in the middle of starting a run (Terraform
// interrupted twice, the CI runner's job cancelled, an OOM kill), simulated
// by ending the call's context: right after the service accepted the start
// POST, while polling a start that takes long, or before the POST left.
// A new process (a new azure hub) reads the run and starts it only if it is
// still NotStarted: the run ends up started once, the fleet has no other
// run, and a blind second start would have been refused (409), not doubled.
func TestProcessKilledWhileStarting(t *testing.T) {
	const name = "killed"
	for _, tc := range []struct {
		name string
		// polls is the emulator's InProgress answers per operation.
		polls int
		// kill wraps the dying process's transport; it gets the cancel of
		// the start call's context. nil: the call's deadline kills it.
		kill func(cancel context.CancelFunc) func(policy.Transporter) policy.Transporter
		// appliedBefore: the service started the run before the process died.
		appliedBefore bool
	}{
		{name: "after the start POST was accepted", appliedBefore: true,
			kill: func(cancel context.CancelFunc) func(policy.Transporter) policy.Transporter {
				return func(next policy.Transporter) policy.Transporter {
					return transportFunc(func(req *http.Request) (*http.Response, error) {
						resp, err := next.Do(req)
						if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/start") {
							cancel() // the process dies as the 202's headers arrive
						}
						return resp, err
					})
				}
			}},
		{name: "while polling a slow start", polls: 100000, appliedBefore: true},
		{name: "before the start POST was sent",
			kill: func(cancel context.CancelFunc) func(policy.Transporter) policy.Transporter {
				return func(next policy.Transporter) policy.Transporter {
					return transportFunc(func(req *http.Request) (*http.Response, error) {
						if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/start") {
							cancel()
							return nil, req.Context().Err()
						}
						return next.Do(req)
					})
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{Polls: tc.polls})
			// The run exists, NotStarted, written straight to the backend (a
			// PUT would be as slow as the start when operations are).
			if _, err := r.mock(t).PutUpdateRun(context.Background(), hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: inlineRun(update.NodeImageLatest)},
				hub.Precondition{IfNoneMatch: true}); err != nil {
				t.Fatal(err)
			}

			// The process that dies.
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var wrap func(policy.Transporter) policy.Transporter
			if tc.kill != nil {
				wrap = tc.kill(cancel)
			}
			dying, err := r.connect(context.Background(), wrap, 0)
			if err != nil {
				t.Fatal(err)
			}
			read, err := dying.GetUpdateRun(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if tc.kill == nil {
				var stop context.CancelFunc
				ctx, stop = context.WithTimeout(ctx, 100*time.Millisecond)
				defer stop()
			}
			_, err = dying.StartUpdateRun(ctx, name, hub.Precondition{IfMatch: read.ETag})
			if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("the dying start: %v, want the context's end", err)
			}
			if want := fmt.Sprintf("update run %q", name); !strings.Contains(err.Error(), want) {
				t.Errorf("the error %q does not name the run", err)
			}
			if got, want := r.starts(t, name), map[bool]int{true: 1, false: 0}[tc.appliedBefore]; got != want {
				t.Fatalf("the backend recorded %d starts before the process died, want %d", got, want)
			}

			// The next process: read, and start only what has not started.
			next := r.mustConnect(t, nil)
			cur, err := next.GetUpdateRun(context.Background(), name)
			if err != nil {
				t.Fatal(err)
			}
			r.srv.ResetRequests()
			if cur.Status.State == update.StateNotStarted {
				if tc.appliedBefore {
					t.Fatalf("the run reads NotStarted although the service started it")
				}
				if tc.polls > 0 {
					t.Fatal("a slow emulator cannot start it again in time") // not a case of the table
				}
				if _, err := next.StartUpdateRun(context.Background(), name, hub.Precondition{IfMatch: cur.ETag}); err != nil {
					t.Fatalf("starting it again: %v", err)
				}
			} else if tc.appliedBefore != slices.Contains(startedStates, cur.Status.State) {
				t.Fatalf("the run is %s", cur.Status.State)
			}
			if got, want := count(r.served("/start"), "POST 202"), map[bool]int{true: 0, false: 1}[tc.appliedBefore]; got != want {
				t.Errorf("the next process started the run %d times, want %d", got, want)
			}
			r.checkStartedOnce(t, next, name)

			// A blind start (no read first) is refused, not doubled.
			_, err = next.StartUpdateRun(context.Background(), name, hub.Precondition{})
			var ce *hub.ConflictError
			if !errors.As(err, &ce) {
				t.Errorf("a second start: %v, want a *hub.ConflictError", err)
			}
			r.checkStartedOnce(t, next, name)
		})
	}
}

// The same lost answer on a DELETE: the service deleted the object, and
// azcore's retry meets no object. Unconditionally, ARM answers a DELETE of
// nothing 204; with If-Match the retry gets 404, which, answering a retry,
// is the first attempt's effect: both succeed.
func TestLostAnswerToDelete(t *testing.T) {
	const name = "lost-delete"
	for _, tc := range []struct {
		name    string
		ifMatch bool
		served  []string
		want    error
	}{
		{"without a precondition", false, []string{"DELETE 202", "DELETE 204"}, nil},
		{"with If-Match", true, []string{"DELETE 202", "DELETE 404"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{})
			var armed atomic.Bool
			h := r.mustConnect(t, loseAnswer("DELETE ", &armed))
			ctx := context.Background()
			s, err := h.PutUpdateStrategy(ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: name}, Spec: sampleStrategy("")}, hub.Precondition{IfNoneMatch: true})
			if err != nil {
				t.Fatal(err)
			}
			pre := hub.Precondition{}
			if tc.ifMatch {
				pre.IfMatch = s.ETag
			}
			armed.Store(true)
			err = h.DeleteUpdateStrategy(ctx, name, pre)
			if (tc.want == nil && err != nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Errorf("delete: %v, want %v", err, tc.want)
			}
			if got := r.served("DELETE "); !slices.Equal(got, tc.served) {
				t.Errorf("the emulator served %v, want %v", got, tc.served)
			}
			if got := r.keys(t, armfleet.UpdateStrategies); len(got) != 0 {
				t.Errorf("strategies %v after the delete, want none", got)
			}
		})
	}
}

// generateUpdateRun creates a run each time it is called: a 5xx (which may
// follow the work) is not retried, so no second run appears; a 429 (refused,
// nothing done) is.
func TestGenerateIsNotRepeated(t *testing.T) {
	r := newRig(t, rigOptions{})
	h := r.mustConnect(t, nil)
	ctx := context.Background()
	if _, err := h.PutAutoUpgradeProfile(ctx, hub.AutoUpgradeProfile{Meta: hub.Meta{Name: "gen"},
		Spec: update.ProfileSpec{Channel: update.ChannelStable}}, hub.Precondition{IfNoneMatch: true}); err != nil {
		t.Fatal(err)
	}
	r.srv.SetFaults(armemu.Faults{ServerErrors: 1, Match: "generateUpdateRun"})
	if _, err := h.GenerateUpdateRun(ctx, "gen"); err == nil {
		t.Error("a 500 on generateUpdateRun was retried into success")
	}
	if got := r.served("POST "); len(got) != 1 {
		t.Errorf("served %v, want one POST (no retry)", got)
	}
	r.srv.SetFaults(armemu.Faults{Throttle: 2, Match: "generateUpdateRun"})
	run, err := h.GenerateUpdateRun(ctx, "gen")
	if err != nil {
		t.Fatalf("generate through 429s: %v", err)
	}
	if runs := r.keys(t, armfleet.UpdateRuns); len(runs) != 1 || runs[0] != run {
		t.Errorf("runs %v, want only %q", runs, run)
	}
}
