package armemu

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

const v1, v2 = armfleet.APIVersion, armfleet.APIVersionGates

// strategyBody is a strategy of the sample fleet's groups.
func strategyBody(stages ...armfleet.Stage) armfleet.UpdateStrategy {
	if len(stages) == 0 {
		stages = []armfleet.Stage{{Name: "first", Groups: []armfleet.Group{{Name: "canary"}}}, {Name: "second", Groups: []armfleet.Group{{Name: "wave-1"}}}}
	}
	return armfleet.UpdateStrategy{Properties: armfleet.UpdateStrategyProperties{Strategy: armfleet.RunStrategy{Stages: stages}}}
}

// A strategy's life: PUT answers 201 Creating with a status URL that
// answers InProgress before Succeeded, after which the strategy reads
// Succeeded; the ETag guards writes; LIST pages; DELETE is a 202 whose
// Location ends in 204.
func TestStrategyLifecycle(t *testing.T) {
	e := newEnv(t)
	p := path("updateStrategies/s1", v1)

	r := e.do(http.MethodPut, p, strategyBody(), "If-None-Match", "*")
	expect(t, "create", r, http.StatusCreated)
	var created armfleet.UpdateStrategy
	r.decode(t, &created)
	if created.Properties.ProvisioningState != armfleet.ProvisioningCreating {
		t.Errorf("create answers provisioningState %q, want Creating", created.Properties.ProvisioningState)
	}
	if created.ETag == "" || r.header.Get("ETag") != created.ETag || !strings.HasPrefix(created.ETag, `"`) {
		t.Errorf("create: eTag %q, ETag header %q: want one quoted ETag", created.ETag, r.header.Get("ETag"))
	}
	if created.ID != testFleet.Child(armfleet.UpdateStrategies, "s1") || created.Type != armfleet.TypeUpdateStrategy {
		t.Errorf("create: id %q type %q", created.ID, created.Type)
	}
	if r.header.Get("Retry-After-Ms") == "" || r.header.Get("Location") != "" {
		t.Errorf("create: Retry-After-Ms %q, Location %q: want a delay and no Location", r.header.Get("Retry-After-Ms"), r.header.Get("Location"))
	}

	var got armfleet.UpdateStrategy
	e.do(http.MethodGet, p, nil).decode(t, &got)
	if got.Properties.ProvisioningState != armfleet.ProvisioningCreating {
		t.Errorf("GET while the PUT is in flight: %q, want Creating", got.Properties.ProvisioningState)
	}
	st := e.poll(r.header.Get("Azure-AsyncOperation"), DefaultPolls)
	if !strings.Contains(st.ID, "/providers/Microsoft.ContainerService/locations/eastus/operations/"+st.Name) {
		t.Errorf("status document id %q, name %q", st.ID, st.Name)
	}
	r = e.do(http.MethodGet, p, nil)
	expect(t, "get", r, http.StatusOK)
	r.decode(t, &got)
	if got.Properties.ProvisioningState != armfleet.ProvisioningSucceeded || got.ETag != created.ETag || r.header.Get("ETag") != got.ETag {
		t.Errorf("after the operation: %q with eTag %q (header %q), want Succeeded with %q", got.Properties.ProvisioningState, got.ETag, r.header.Get("ETag"), created.ETag)
	}
	if len(got.Properties.Strategy.Stages) != 2 || got.Properties.Strategy.Stages[1].Groups[0].Name != "wave-1" {
		t.Errorf("stored strategy %+v", got.Properties.Strategy)
	}

	expect(t, "create again with If-None-Match: *", e.do(http.MethodPut, p, strategyBody(), "If-None-Match", "*"), http.StatusPreconditionFailed)
	r = e.do(http.MethodPut, p, strategyBody(), "If-Match", `"stale"`)
	expect(t, "update with a stale If-Match", r, http.StatusPreconditionFailed)
	if code := r.errorCode(t).Code; code != "PreconditionFailed" {
		t.Errorf("stale If-Match: code %q", code)
	}
	expect(t, "If-Match: * of a missing strategy", e.do(http.MethodPut, path("updateStrategies/nope", v1), strategyBody(), "If-Match", "*"), http.StatusPreconditionFailed)
	r = e.do(http.MethodPut, p, strategyBody(armfleet.Stage{Name: "only", Groups: []armfleet.Group{{Name: "canary"}}}), "If-Match", got.ETag)
	expect(t, "update with the current If-Match", r, http.StatusOK)
	var updated armfleet.UpdateStrategy
	r.decode(t, &updated)
	if updated.Properties.ProvisioningState != armfleet.ProvisioningUpdating || updated.ETag == got.ETag {
		t.Errorf("update answers %q with eTag %q, want Updating with a new eTag", updated.Properties.ProvisioningState, updated.ETag)
	}
	e.poll(r.header.Get("Azure-AsyncOperation"), DefaultPolls)

	for _, n := range []string{"s2", "s3", "s4"} {
		expect(t, "create "+n, e.do(http.MethodPut, path("updateStrategies/"+n, v1), strategyBody()), http.StatusCreated)
	}
	pages, names := e.list(path("updateStrategies", v1))
	if !slices.Equal(pages, []int{2, 2}) || !slices.Equal(names, []string{"s1", "s2", "s3", "s4"}) {
		t.Errorf("LIST pages %v of %v, want [2 2] of s1…s4", pages, names)
	}

	expect(t, "delete with a stale If-Match", e.do(http.MethodDelete, p, nil, "If-Match", `"stale"`), http.StatusPreconditionFailed)
	r = e.do(http.MethodDelete, p, nil, "If-Match", updated.ETag)
	expect(t, "delete", r, http.StatusAccepted)
	if r.header.Get("Azure-AsyncOperation") == "" {
		t.Error("delete has no Azure-AsyncOperation")
	}
	expect(t, "the delete's result", e.result(r.header.Get("Location"), DefaultPolls), http.StatusNoContent)
	expect(t, "get after delete", e.do(http.MethodGet, p, nil), http.StatusNotFound)
	expect(t, "delete of a deleted strategy", e.do(http.MethodDelete, p, nil), http.StatusNoContent)
	expect(t, "delete of a deleted strategy with If-Match", e.do(http.MethodDelete, p, nil, "If-Match", updated.ETag), http.StatusNotFound)
}

// runBody is a node-image run of stages.
func runBody(stages ...armfleet.Stage) armfleet.UpdateRun {
	return armfleet.UpdateRun{Properties: armfleet.UpdateRunProperties{Strategy: &armfleet.RunStrategy{Stages: stages},
		ManagedClusterUpdate: armfleet.ManagedClusterUpdate{Upgrade: armfleet.UpgradeSpec{Type: update.UpgradeNodeImageOnly},
			NodeImageSelection: &armfleet.NodeImageSelection{Type: update.NodeImageLatest}}}}
}

// create PUTs a resource and waits for its operation.
func (e *env) create(p string, body any) response {
	e.t.Helper()
	r := e.do(http.MethodPut, p, body)
	expect(e.t, "create "+p, r, http.StatusCreated)
	e.poll(r.header.Get("Azure-AsyncOperation"), DefaultPolls)
	return r
}

// action POSTs a run action: 202 with both operation URLs; it returns the
// run the Location URL ends with.
func (e *env) action(p string, body any, headers ...string) armfleet.UpdateRun {
	e.t.Helper()
	r := e.do(http.MethodPost, p, body, headers...)
	expect(e.t, "POST "+p, r, http.StatusAccepted)
	e.poll(r.header.Get("Azure-AsyncOperation"), DefaultPolls)
	res := e.result(r.header.Get("Location"), 0) // the status polls ran the operation down
	expect(e.t, "result of "+p, res, http.StatusOK)
	var run armfleet.UpdateRun
	res.decode(e.t, &run)
	return run
}

// A run's life: created NotStarted; started through a 202 whose Location
// gives the running run; a PUT on it is then a conflict; skip and stop
// act on it; a run of a strategy id holds the strategy's snapshot.
func TestRunLifecycle(t *testing.T) {
	e := newEnv(t)
	p := path("updateRuns/r1", v1)
	created := e.create(p, runBody(armfleet.Stage{Name: "first", Groups: []armfleet.Group{{Name: "canary"}}},
		armfleet.Stage{Name: "second", Groups: []armfleet.Group{{Name: "wave-1"}}}))
	var run armfleet.UpdateRun
	created.decode(t, &run)
	if run.Properties.Status == nil || run.Properties.Status.Status.State != update.StateNotStarted {
		t.Fatalf("a created run: status %+v, want NotStarted", run.Properties.Status)
	}

	expect(t, "start with a stale If-Match", e.do(http.MethodPost, path("updateRuns/r1/start", v1), nil, "If-Match", `"stale"`), http.StatusPreconditionFailed)
	run = e.action(path("updateRuns/r1/start", v1), nil, "If-Match", run.ETag)
	if st := run.Properties.Status.Status.State; st != update.StateRunning {
		t.Fatalf("a started run is %s, want Running", st)
	}
	members := 0
	for _, g := range run.Properties.Status.Stages[0].Groups {
		for _, m := range g.Members {
			members++
			if !strings.Contains(m.ClusterResourceID, "/managedClusters/"+m.Name) {
				t.Errorf("member %s has cluster id %q", m.Name, m.ClusterResourceID)
			}
		}
	}
	if members == 0 {
		t.Error("the started run's first stage has no members")
	}

	r := e.do(http.MethodPut, p, runBody(armfleet.Stage{Name: "first", Groups: []armfleet.Group{{Name: "canary"}}}))
	expect(t, "PUT on a started run", r, http.StatusConflict)
	if code := r.errorCode(t).Code; code != "Conflict" {
		t.Errorf("PUT on a started run: code %q", code)
	}

	run = e.action(path("updateRuns/r1/skip", v1), armfleet.SkipProperties{Targets: []armfleet.SkipTarget{{Type: update.TargetStage, Name: "second"}}})
	if st := run.Properties.Status.Stages[1].Status.State; st != update.StateSkipped {
		t.Errorf("the skipped stage is %s", st)
	}
	r = e.do(http.MethodPost, path("updateRuns/r1/skip", v1), armfleet.SkipProperties{Targets: []armfleet.SkipTarget{{Type: update.TargetGroup, Name: "nope"}}})
	expect(t, "skip of a group the run does not have", r, http.StatusBadRequest)

	run = e.action(path("updateRuns/r1/stop", v1), nil)
	if st := run.Properties.Status.Status.State; st != update.StateStopping && st != update.StateStopped {
		t.Errorf("a stopped run is %s", st)
	}
	expect(t, "stop of a stopped run", e.do(http.MethodPost, path("updateRuns/r1/stop", v1), nil), http.StatusConflict)
	expect(t, "start of a missing run", e.do(http.MethodPost, path("updateRuns/nope/start", v1), nil), http.StatusNotFound)

	// A run of a strategy id: the strategy's copy comes back beside the id.
	e.create(path("updateStrategies/s", v1), strategyBody())
	sid := testFleet.Child(armfleet.UpdateStrategies, "s")
	body := runBody()
	body.Properties.Strategy, body.Properties.UpdateStrategyID = nil, sid
	e.create(path("updateRuns/r2", v1), body)
	e.do(http.MethodGet, path("updateRuns/r2", v1), nil).decode(t, &run)
	if run.Properties.UpdateStrategyID != sid || run.Properties.Strategy == nil || len(run.Properties.Strategy.Stages) != 2 {
		t.Errorf("a run of strategy %s reads %q with strategy %+v", sid, run.Properties.UpdateStrategyID, run.Properties.Strategy)
	}
	body.Properties.Strategy = &armfleet.RunStrategy{Stages: []armfleet.Stage{{Name: "x", Groups: []armfleet.Group{{Name: "canary"}}}}}
	expect(t, "a run with both a strategy id and stages", e.do(http.MethodPut, path("updateRuns/r3", v1), body), http.StatusBadRequest)
	body.Properties.Strategy, body.Properties.UpdateStrategyID = nil, "/subscriptions/x/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/other/updateStrategies/s"
	expect(t, "a run of another fleet's strategy", e.do(http.MethodPut, path("updateRuns/r3", v1), body), http.StatusBadRequest)

	_, names := e.list(path("updateRuns", v1))
	if !slices.Equal(names, []string{"r1", "r2"}) {
		t.Errorf("runs %v", names)
	}
	r = e.do(http.MethodDelete, path("updateRuns/r2", v1), nil)
	expect(t, "delete a run", r, http.StatusAccepted)
	expect(t, "the run's deletion", e.result(r.header.Get("Location"), DefaultPolls), http.StatusNoContent)
}

// Gates appear when a run reaches them, Pending; the $filter finds them;
// PATCH Completed approves one (with its run's ETag as If-Match).
func TestGates(t *testing.T) {
	e := newEnv(t)
	gated := armfleet.Stage{Name: "first", Groups: []armfleet.Group{{Name: "canary"}},
		BeforeGates: []armfleet.GateConfiguration{{Type: armfleet.GateTypeApproval, DisplayName: "go ahead"}}}
	e.create(path("updateRuns/gated", v2), runBody(gated))
	_, names := e.list(path("gates", v2))
	if len(names) != 0 {
		t.Fatalf("gates of a run not started: %v", names)
	}
	run := e.action(path("updateRuns/gated/start", v2), nil)

	key := update.GateKey("first", "", update.TimingBefore)
	want := armfleet.GateName(testFleet, "gated", key)
	_, names = e.list(path("gates", v2) + "&$filter=" + "state%20eq%20Pending")
	if !slices.Equal(names, []string{want}) {
		t.Fatalf("pending gates %v, want [%s]", names, want)
	}
	if gs := run.Properties.Status.Stages[0].BeforeGates; len(gs) != 1 || !strings.HasSuffix(gs[0].GateID, "/gates/"+want) {
		t.Errorf("the run's gate status %+v does not name gate %s", gs, want)
	}
	gp := path("gates/"+want, v2)
	var g armfleet.Gate
	r := e.do(http.MethodGet, gp, nil)
	expect(t, "get the gate", r, http.StatusOK)
	r.decode(t, &g)
	tp := g.Properties.Target.UpdateRunProperties
	if g.Properties.State != armfleet.GatePending || g.Properties.DisplayName != "go ahead" || tp == nil ||
		*tp != (armfleet.GateUpdateRunProperties{Name: "gated", Stage: "first", Timing: armfleet.GateBefore}) ||
		g.Properties.Target.ID != testFleet.Child(armfleet.UpdateRuns, "gated") || g.ETag != run.ETag {
		t.Errorf("gate %+v (target %+v)", g, tp)
	}

	approve := armfleet.GatePatch{Properties: armfleet.GatePatchProperties{State: armfleet.GateCompleted}}
	expect(t, "approve with a stale If-Match", e.do(http.MethodPatch, gp, approve, "If-Match", `"stale"`), http.StatusPreconditionFailed)
	expect(t, "set a gate Pending", e.do(http.MethodPatch, gp, armfleet.GatePatch{Properties: armfleet.GatePatchProperties{State: armfleet.GatePending}}), http.StatusBadRequest)
	r = e.do(http.MethodPatch, gp, approve, "If-Match", g.ETag)
	expect(t, "approve", r, http.StatusOK)
	r.decode(t, &g)
	if g.Properties.State != armfleet.GateCompleted || r.header.Get("ETag") != g.ETag {
		t.Errorf("the approved gate is %s, ETag header %q, eTag %q", g.Properties.State, r.header.Get("ETag"), g.ETag)
	}
	expect(t, "approve again", e.do(http.MethodPatch, gp, approve), http.StatusConflict)
	if _, names = e.list(path("gates", v2) + "&$filter=" + "state%20eq%20%27Pending%27"); len(names) != 0 {
		t.Errorf("pending gates after the approval: %v", names)
	}
	if _, names = e.list(path("gates", v2) + "&$filter=" + "state%20eq%20Completed"); !slices.Equal(names, []string{want}) {
		t.Errorf("completed gates %v", names)
	}
	expect(t, "an unsupported $filter", e.do(http.MethodGet, path("gates", v2)+"&$filter=name%20eq%20x", nil), http.StatusBadRequest)
	expect(t, "a missing gate", e.do(http.MethodGet, path("gates/00000000-0000-0000-0000-000000000000", v2), nil), http.StatusNotFound)
}

// A profile's life, and generateUpdateRun: the final status document's id
// is the generated run's id, and its Location result the GenerateResponse.
func TestProfileLifecycle(t *testing.T) {
	e := newEnv(t)
	p := path("autoUpgradeProfiles/nightly", v1)
	body := armfleet.AutoUpgradeProfile{Properties: armfleet.AutoUpgradeProfileProperties{Channel: update.ChannelNodeImage}}
	e.create(p, body)
	var prof armfleet.AutoUpgradeProfile
	r := e.do(http.MethodGet, p, nil)
	expect(t, "get", r, http.StatusOK)
	r.decode(t, &prof)
	if prof.Properties.Channel != update.ChannelNodeImage || prof.Properties.ProvisioningState != armfleet.ProvisioningSucceeded || prof.ETag == "" {
		t.Errorf("profile %+v", prof)
	}

	r = e.do(http.MethodPost, path("autoUpgradeProfiles/nightly/generateUpdateRun", v1), nil)
	expect(t, "generateUpdateRun", r, http.StatusAccepted)
	st := e.poll(r.header.Get("Azure-AsyncOperation"), DefaultPolls)
	run, err := armfleet.ChildName(armfleet.UpdateRuns, st.ID)
	if err != nil {
		t.Fatalf("the status document's id %q is no run id: %v", st.ID, err)
	}
	var gen armfleet.GenerateResponse
	res := e.result(r.header.Get("Location"), 0)
	expect(t, "generateUpdateRun's result", res, http.StatusOK)
	res.decode(t, &gen)
	if gen.ID != st.ID {
		t.Errorf("the Location result %q, the status id %q", gen.ID, st.ID)
	}
	var generated armfleet.UpdateRun
	r = e.do(http.MethodGet, path("updateRuns/"+run, v1), nil)
	expect(t, "the generated run", r, http.StatusOK)
	r.decode(t, &generated)
	if generated.Properties.AutoUpgradeProfileID != testFleet.Child(armfleet.AutoUpgradeProfiles, "nightly") ||
		generated.Properties.Status.Status.State != update.StateNotStarted {
		t.Errorf("the generated run: profile %q, state %s", generated.Properties.AutoUpgradeProfileID, generated.Properties.Status.Status.State)
	}
	expect(t, "generate from a missing profile", e.do(http.MethodPost, path("autoUpgradeProfiles/nope/generateUpdateRun", v1), nil), http.StatusNotFound)

	r = e.do(http.MethodDelete, p, nil, "If-Match", prof.ETag)
	expect(t, "delete", r, http.StatusAccepted)
	expect(t, "the deletion", e.result(r.header.Get("Location"), DefaultPolls), http.StatusNoContent)
	expect(t, "get after delete", e.do(http.MethodGet, p, nil), http.StatusNotFound)
}
