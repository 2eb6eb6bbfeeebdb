package armclient

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// Bodies built from the models, to be compared with the examples' JSON.
var (
	wait3600 = 3600

	exampleStrategy = armfleet.RunStrategy{Stages: []armfleet.Stage{{
		Name: "stage1", Groups: []armfleet.Group{{Name: "group-a"}}, AfterStageWaitInSeconds: &wait3600,
	}}}

	gatedStrategy = armfleet.RunStrategy{Stages: []armfleet.Stage{{
		Name: "stage1", MaxConcurrency: "20%",
		Groups: []armfleet.Group{{
			Name: "group-a", MaxConcurrency: "5",
			BeforeGates: approval("gate before group-a"), AfterGates: approval("gate after group-a"),
		}},
		BeforeGates: approval("gate before stage1"), AfterGates: approval("gate after stage1"),
		AfterStageWaitInSeconds: &wait3600,
	}}}

	exampleRun = armfleet.UpdateRun{Properties: armfleet.UpdateRunProperties{
		UpdateStrategyID: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1/providers/Microsoft.ContainerService/fleets/myFleet/updateStrategies/strategy1",
		Strategy:         &exampleStrategy,
		ManagedClusterUpdate: armfleet.ManagedClusterUpdate{
			Upgrade:            armfleet.UpgradeSpec{Type: "Full", KubernetesVersion: "1.26.1"},
			NodeImageSelection: &armfleet.NodeImageSelection{Type: "Latest"},
		},
	}}

	exampleSkip = armfleet.SkipProperties{Targets: []armfleet.SkipTarget{
		{Type: "Member", Name: "member-one"}, {Type: "AfterStageWait", Name: "stage1"},
	}}

	etag = hub.Precondition{IfMatch: `"EtagValue"`}
)

const gateName = "12345678-910a-bcde-f000-000000000000"

func approval(name string) []armfleet.GateConfiguration {
	return []armfleet.GateConfiguration{{DisplayName: name, Type: armfleet.GateTypeApproval}}
}

func runState(r *armfleet.UpdateRun, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return r.Name + " " + r.Properties.Status.Status.State, nil
}

func names[T interface{ Meta() hub.Meta }](list []T, err error) (string, error) {
	var out []string
	for _, v := range list {
		out = append(out, v.Meta().Name)
	}
	return strings.Join(out, ","), err
}

// shapeCases call every operation once against the reply of its example.
var shapeCases = []struct {
	fixture string
	status  int // of the reply to the operation; 0 is 200
	do      func(context.Context, *Client) (string, error)
	want    string   // summary of the result
	seq     []string // the whole exchange, when more than the operation
}{
	{fixture: "Fleets_Get", want: "fleet-1 dnsprefix1-abcd1234.flt.eastus.azmk8s.io", do: func(ctx context.Context, c *Client) (string, error) {
		f, err := c.GetFleet(ctx)
		if err != nil {
			return "", err
		}
		return f.Name + " " + f.Properties.HubProfile.Fqdn, nil
	}},
	{fixture: "Fleets_ListCredentials", want: "credentialName1 credentialValue1", do: func(ctx context.Context, c *Client) (string, error) {
		r, err := c.ListCredentials(ctx)
		if err != nil {
			return "", err
		}
		return r.Kubeconfigs[0].Name + " " + string(r.Kubeconfigs[0].Value), nil
	}},
	{fixture: "FleetMembers_ListByFleet", want: "member-1", do: func(ctx context.Context, c *Client) (string, error) {
		return names(c.ListMembers(ctx))
	}},
	{fixture: "FleetMembers_Get", want: "member-1 /subscriptions/subid1/resourcegroups/rg1/providers/Microsoft.ContainerService/managedClusters/cluster-1", do: func(ctx context.Context, c *Client) (string, error) {
		m, err := c.GetMember(ctx, "member-1")
		if err != nil {
			return "", err
		}
		return m.Name + " " + m.Properties.ClusterResourceID, nil
	}},
	{fixture: "FleetUpdateStrategies_Get", want: "strategy1 20% gate before group-a", do: func(ctx context.Context, c *Client) (string, error) {
		s, err := c.GetUpdateStrategy(ctx, "strategy1")
		if err != nil {
			return "", err
		}
		st := s.Properties.Strategy.Stages[0]
		return s.Name + " " + st.MaxConcurrency + " " + st.Groups[0].BeforeGates[0].DisplayName, nil
	}},
	{fixture: "FleetUpdateStrategies_ListByFleet", want: "strategy1", do: func(ctx context.Context, c *Client) (string, error) {
		return names(c.ListUpdateStrategies(ctx))
	}},
	{
		fixture: "FleetUpdateStrategies_CreateOrUpdate", want: "strartegy1",
		// Written with 2025-03-01 (no gates), read back with 2026-06-01.
		seq: []string{"PUT ~/updateStrategies/strartegy1@2026-06-01"},
		do: func(ctx context.Context, c *Client) (string, error) {
			s, err := c.PutUpdateStrategy(ctx, "strartegy1", armfleet.UpdateStrategy{Properties: armfleet.UpdateStrategyProperties{Strategy: exampleStrategy}}, etag)
			if err != nil {
				return "", err
			}
			return s.Name, nil
		},
	},
	{
		fixture: "FleetUpdateStrategies_CreateOrUpdate_Gates", want: "strategy1 20%",
		seq: []string{"PUT ~/updateStrategies/strategy1@2026-06-01"},
		do: func(ctx context.Context, c *Client) (string, error) {
			s, err := c.PutUpdateStrategy(ctx, "strategy1", armfleet.UpdateStrategy{Properties: armfleet.UpdateStrategyProperties{Strategy: gatedStrategy}}, hub.Precondition{})
			if err != nil {
				return "", err
			}
			return s.Name + " " + s.Properties.Strategy.Stages[0].MaxConcurrency, nil
		},
	},
	{fixture: "FleetUpdateStrategies_Delete", do: func(ctx context.Context, c *Client) (string, error) {
		return "", c.DeleteUpdateStrategy(ctx, "strategy1", hub.Precondition{})
	}},
	{fixture: "UpdateRuns_Get", want: "run1 NotStarted", do: func(ctx context.Context, c *Client) (string, error) {
		return runState(c.GetUpdateRun(ctx, "run1"))
	}},
	{fixture: "UpdateRuns_ListByFleet", want: "run1", do: func(ctx context.Context, c *Client) (string, error) {
		return names(c.ListUpdateRuns(ctx))
	}},
	{
		fixture: "UpdateRuns_CreateOrUpdate", want: "run1 NotStarted",
		seq: []string{"PUT ~/updateRuns/run1@2026-06-01"},
		do: func(ctx context.Context, c *Client) (string, error) {
			return runState(c.PutUpdateRun(ctx, "run1", exampleRun, hub.Precondition{IfNoneMatch: true}))
		},
	},
	{fixture: "UpdateRuns_Delete", do: func(ctx context.Context, c *Client) (string, error) {
		return "", c.DeleteUpdateRun(ctx, "run1", etag)
	}},
	{
		fixture: "UpdateRuns_Start", want: "run1 Running",
		seq: []string{"POST ~/updateRuns/run1/start@2026-06-01"},
		do: func(ctx context.Context, c *Client) (string, error) {
			return runState(c.StartUpdateRun(ctx, "run1", etag))
		},
	},
	{
		fixture: "UpdateRuns_Stop", want: "run1 Stopping",
		seq: []string{"POST ~/updateRuns/run1/stop@2026-06-01"},
		do: func(ctx context.Context, c *Client) (string, error) {
			return runState(c.StopUpdateRun(ctx, "run1", hub.Precondition{}))
		},
	},
	{
		fixture: "UpdateRuns_Skip", want: "run1 Running",
		seq: []string{"POST ~/updateRuns/run1/skip@2026-06-01"},
		do: func(ctx context.Context, c *Client) (string, error) {
			return runState(c.SkipUpdateRun(ctx, "run1", exampleSkip, etag))
		},
	},
	{fixture: "AutoUpgradeProfiles_Get", want: "autoupgradeprofile1 Stable", do: func(ctx context.Context, c *Client) (string, error) {
		p, err := c.GetAutoUpgradeProfile(ctx, "autoupgradeprofile1")
		if err != nil {
			return "", err
		}
		return p.Name + " " + p.Properties.Channel, nil
	}},
	{fixture: "AutoUpgradeProfiles_ListByFleet", want: "autoupgradeprofile1", do: func(ctx context.Context, c *Client) (string, error) {
		return names(c.ListAutoUpgradeProfiles(ctx))
	}},
	{
		fixture: "AutoUpgradeProfiles_CreateOrUpdate", want: "autoupgradeprofile1 Stable",
		// Same version for write and read: the PUT's own result is final.
		seq: []string{"PUT ~/autoUpgradeProfiles/autoupgradeprofile1@2026-06-01"},
		do: func(ctx context.Context, c *Client) (string, error) {
			body := armfleet.AutoUpgradeProfile{Properties: armfleet.AutoUpgradeProfileProperties{Channel: "Stable"}}
			p, err := c.PutAutoUpgradeProfile(ctx, "autoupgradeprofile1", body, hub.Precondition{IfNoneMatch: true})
			if err != nil {
				return "", err
			}
			return p.Name + " " + p.Properties.Channel, nil
		},
	},
	{fixture: "AutoUpgradeProfiles_Delete", status: http.StatusNoContent, do: func(ctx context.Context, c *Client) (string, error) {
		return "", c.DeleteAutoUpgradeProfile(ctx, "autoupgradeprofile1", etag)
	}},
	{
		fixture: "AutoUpgradeProfileOperations_GenerateUpdateRun",
		want:    "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rgfleets/providers/Microsoft.ContainerService/fleets/fleet1/updateRuns/aup1-20260701",
		do: func(ctx context.Context, c *Client) (string, error) {
			return c.GenerateUpdateRun(ctx, "aup1")
		},
	},
	{fixture: "Gates_ListByFleet", want: gateName, do: func(ctx context.Context, c *Client) (string, error) {
		return names(c.ListGates(ctx, armfleet.GatePending))
	}},
	{fixture: "Gates_Get", want: gateName + " Pending run1/stage1/group1/After", do: func(ctx context.Context, c *Client) (string, error) {
		g, err := c.GetGate(ctx, gateName)
		if err != nil {
			return "", err
		}
		t := g.Properties.Target.UpdateRunProperties
		return g.Name + " " + g.Properties.State + " " + t.Name + "/" + t.Stage + "/" + t.Group + "/" + t.Timing, nil
	}},
	{
		fixture: "Gates_Update", want: gateName + " Completed",
		seq: []string{"PATCH ~/gates/" + gateName + "@2026-06-01"},
		do: func(ctx context.Context, c *Client) (string, error) {
			g, err := c.ApproveGate(ctx, gateName, hub.Precondition{IfMatch: "kd30rkdfo49="})
			if err != nil {
				return "", err
			}
			return g.Name + " " + g.Properties.State, nil
		},
	},
}

// TestRecordedShapes sends every operation and compares the request with
// the one recorded from the operation's published example (testdata/).
func TestRecordedShapes(t *testing.T) {
	for _, tc := range shapeCases {
		t.Run(tc.fixture, func(t *testing.T) {
			fx := loadFixture(t, tc.fixture)
			f := newFake(t)
			status := tc.status
			if status == 0 {
				status = http.StatusOK
			}
			var resp any
			if len(fx.Response) > 0 && status != http.StatusNoContent {
				resp = fx.Response
			}
			f.on(fx.Method, fx.Path, reply{status: status, body: resp})
			if fx.Method != http.MethodGet {
				f.on(http.MethodGet, fx.resourcePath(), reply{status: http.StatusOK, body: fx.Response})
			}
			got, err := tc.do(t.Context(), f.client(t, fx.fleet(t)))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("result %q, want %q", got, tc.want)
			}
			reqs := f.requests()
			if len(reqs) == 0 {
				t.Fatal("no request")
			}
			fx.check(t, reqs[0])
			want := tc.seq
			if want == nil {
				want = []string{short(reqs[0].String())}
			}
			if seq := f.shortSequence(); !slices.Equal(seq, want) {
				t.Errorf("exchange\n%s\nwant\n%s", strings.Join(seq, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

var fleetPrefix = regexp.MustCompile(`^(\w+ )/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\.ContainerService/fleets/[^/@]+`)

// short writes the fleet's path as "~".
func short(s string) string { return fleetPrefix.ReplaceAllString(s, "$1~") }

func (f *fakeARM) shortSequence() []string {
	var out []string
	for _, s := range f.sequence() {
		out = append(out, short(s))
	}
	return out
}

// withState returns a resource body with another provisioningState.
func withState(t *testing.T, body json.RawMessage, state string) json.RawMessage {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	m["properties"].(map[string]any)["provisioningState"] = state
	b, _ := json.Marshal(m)
	return b
}

// The LRO tests below answer with the headers of the examples (designs/arm.md
// §3) and check which URLs the client polls and what it returns.

func TestPutPollsAzureAsyncOperationThenGetsResource(t *testing.T) {
	fx := loadFixture(t, "UpdateRuns_CreateOrUpdate")
	f := newFake(t)
	f.on(http.MethodPut, fx.Path, reply{
		status: http.StatusCreated,
		header: map[string]string{"Azure-AsyncOperation": "{base}/operations/put1?api-version=2025-03-01", "Retry-After-Ms": "1"},
		body:   withState(t, fx.Response, armfleet.ProvisioningCreating),
	})
	f.on(http.MethodGet, "/operations/put1",
		reply{status: http.StatusOK, header: map[string]string{"Retry-After-Ms": "1"}, body: opStatus(armfleet.OperationInProgress)},
		reply{status: http.StatusOK, body: opStatus(armfleet.OperationSucceeded)})
	f.on(http.MethodGet, fx.Path, reply{status: http.StatusOK, body: fx.Response})

	got, err := runState(f.client(t, testFleet).PutUpdateRun(t.Context(), "run1", exampleRun, hub.Precondition{IfNoneMatch: true}))
	if err != nil {
		t.Fatal(err)
	}
	if got != "run1 NotStarted" {
		t.Errorf("result %q", got)
	}
	want := []string{
		"PUT ~/updateRuns/run1@2026-06-01",
		"GET /operations/put1@2025-03-01",  // the fake mints its status URL with this version
		"GET /operations/put1@2025-03-01",  // the fake mints its status URL with this version
		"GET ~/updateRuns/run1@2026-06-01", // azcore: final state of a PUT is a GET of its URL
	}
	if seq := f.shortSequence(); !slices.Equal(seq, want) {
		t.Errorf("exchange\n%s\nwant\n%s", strings.Join(seq, "\n"), strings.Join(want, "\n"))
	}
}

// The example's own 201: provisioningState already Succeeded, so the
// operation is complete: no status poll, no wait for its Retry-After.
func TestPutCompleteAt201IsNotPolled(t *testing.T) {
	fx := loadFixture(t, "FleetUpdateStrategies_CreateOrUpdate_Gates")
	f := newFake(t)
	f.on(http.MethodPut, fx.Path, reply{
		status: http.StatusCreated,
		header: map[string]string{"Azure-AsyncOperation": "{base}/operations/never", "Retry-After": "60"},
		body:   fx.Response,
	})
	f.on(http.MethodGet, fx.Path, reply{status: http.StatusOK, body: fx.Response})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	body := armfleet.UpdateStrategy{Properties: armfleet.UpdateStrategyProperties{Strategy: gatedStrategy}}
	s, err := f.client(t, testFleet).PutUpdateStrategy(ctx, "strategy1", body, hub.Precondition{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Properties.Strategy.Stages[0].AfterGates) != 1 {
		t.Errorf("strategy %+v", s.Properties.Strategy)
	}
	want := []string{"PUT ~/updateStrategies/strategy1@2026-06-01", "GET ~/updateStrategies/strategy1@2026-06-01"}
	if seq := f.shortSequence(); !slices.Equal(seq, want) {
		t.Errorf("exchange %q, want %q", seq, want)
	}
}

// UpdateRuns_Start's 202 carries both Azure-AsyncOperation and Location:
// the status URL is polled, then the Location URL gives the run.
func TestActionPollsAsyncOperationThenGetsLocation(t *testing.T) {
	fx := loadFixture(t, "UpdateRuns_Start")
	f := newFake(t)
	f.on(http.MethodPost, fx.Path, reply{status: http.StatusAccepted, header: map[string]string{
		"Azure-AsyncOperation": "{base}/operations/start1", "Location": "{base}/operationResults/start1", "Retry-After-Ms": "1",
	}})
	f.on(http.MethodGet, "/operations/start1",
		reply{status: http.StatusOK, body: opStatus(armfleet.OperationInProgress)},
		reply{status: http.StatusOK, body: opStatus(armfleet.OperationSucceeded)})
	f.on(http.MethodGet, "/operationResults/start1", reply{status: http.StatusOK, body: fx.Response})
	f.on(http.MethodGet, fx.resourcePath(), reply{status: http.StatusOK, body: fx.Response})

	got, err := runState(f.client(t, testFleet).StartUpdateRun(t.Context(), "run1", etag))
	if err != nil {
		t.Fatal(err)
	}
	if got != "run1 Running" {
		t.Errorf("result %q", got)
	}
	want := []string{
		"POST ~/updateRuns/run1/start@2026-06-01",
		"GET /operations/start1",
		"GET /operations/start1",
		"GET /operationResults/start1",
	}
	if seq := f.shortSequence(); !slices.Equal(seq, want) {
		t.Errorf("exchange\n%s\nwant\n%s", strings.Join(seq, "\n"), strings.Join(want, "\n"))
	}
}

// A 202 with Location only: Location is polled until it stops answering 202.
func TestActionPollsLocation(t *testing.T) {
	fx := loadFixture(t, "UpdateRuns_Stop")
	f := newFake(t)
	f.on(http.MethodPost, fx.Path, reply{status: http.StatusAccepted, header: map[string]string{"Location": "{base}/operationResults/stop1", "Retry-After-Ms": "1"}})
	f.on(http.MethodGet, "/operationResults/stop1",
		reply{status: http.StatusAccepted, header: map[string]string{"Retry-After-Ms": "1"}},
		reply{status: http.StatusOK, body: fx.Response})
	f.on(http.MethodGet, fx.resourcePath(), reply{status: http.StatusOK, body: fx.Response})

	got, err := runState(f.client(t, testFleet).StopUpdateRun(t.Context(), "run1", hub.Precondition{}))
	if err != nil {
		t.Fatal(err)
	}
	if got != "run1 Stopping" {
		t.Errorf("result %q", got)
	}
	want := []string{"POST ~/updateRuns/run1/stop@2026-06-01", "GET /operationResults/stop1", "GET /operationResults/stop1"}
	if seq := f.shortSequence(); !slices.Equal(seq, want) {
		t.Errorf("exchange %q, want %q", seq, want)
	}
}

func TestDeletePolls(t *testing.T) {
	t.Run("UpdateRuns_Delete: both headers, status URL", func(t *testing.T) {
		fx := loadFixture(t, "UpdateRuns_Delete")
		f := newFake(t)
		f.on(http.MethodDelete, fx.Path, reply{status: http.StatusAccepted, header: map[string]string{
			"Azure-AsyncOperation": "{base}/operations/del1", "Location": "{base}/operationResults/del1",
		}})
		f.on(http.MethodGet, "/operations/del1",
			reply{status: http.StatusOK, body: opStatus(armfleet.OperationInProgress)},
			reply{status: http.StatusOK, body: opStatus(armfleet.OperationSucceeded)})
		if err := f.client(t, fx.fleet(t)).DeleteUpdateRun(t.Context(), "run1", etag); err != nil {
			t.Fatal(err)
		}
		want := []string{"DELETE ~/updateRuns/run1@2026-06-01", "GET /operations/del1", "GET /operations/del1"}
		if seq := f.shortSequence(); !slices.Equal(seq, want) {
			t.Errorf("exchange %q, want %q", seq, want)
		}
	})
	t.Run("AutoUpgradeProfiles_Delete: Location until 204", func(t *testing.T) {
		fx := loadFixture(t, "AutoUpgradeProfiles_Delete")
		f := newFake(t)
		f.on(http.MethodDelete, fx.Path, reply{status: http.StatusAccepted, header: map[string]string{"Location": "{base}/operationResults/del2", "Retry-After-Ms": "1"}})
		f.on(http.MethodGet, "/operationResults/del2",
			reply{status: http.StatusAccepted, header: map[string]string{"Retry-After-Ms": "1"}},
			reply{status: http.StatusNoContent})
		if err := f.client(t, fx.fleet(t)).DeleteAutoUpgradeProfile(t.Context(), "autoupgradeprofile1", etag); err != nil {
			t.Fatal(err)
		}
		want := []string{"DELETE ~/autoUpgradeProfiles/autoupgradeprofile1@2026-06-01", "GET /operationResults/del2", "GET /operationResults/del2"}
		if seq := f.shortSequence(); !slices.Equal(seq, want) {
			t.Errorf("exchange %q, want %q", seq, want)
		}
	})
	t.Run("AutoUpgradeProfiles_Delete: 200 is not a success code", func(t *testing.T) {
		fx := loadFixture(t, "AutoUpgradeProfiles_Delete")
		f := newFake(t)
		f.on(http.MethodDelete, fx.Path, reply{status: http.StatusOK})
		err := f.client(t, fx.fleet(t)).DeleteAutoUpgradeProfile(t.Context(), "autoupgradeprofile1", hub.Precondition{})
		if err == nil || !strings.Contains(err.Error(), `auto-upgrade profile "autoupgradeprofile1": DELETE 200`) {
			t.Errorf("error %v", err)
		}
	})
}

// The example's 202 has only Azure-AsyncOperation; the run id is the "id"
// of the last status document.
func TestGenerateUpdateRunReadsIDFromLastStatus(t *testing.T) {
	fx := loadFixture(t, "AutoUpgradeProfileOperations_GenerateUpdateRun")
	var runID struct{ ID string }
	if err := json.Unmarshal(fx.Response, &runID); err != nil {
		t.Fatal(err)
	}
	f := newFake(t)
	f.on(http.MethodPost, fx.Path, reply{status: http.StatusAccepted, header: map[string]string{"Azure-AsyncOperation": "{base}/operations/gen1", "Retry-After-Ms": "1"}})
	f.on(http.MethodGet, "/operations/gen1",
		reply{status: http.StatusOK, body: opStatus(armfleet.OperationInProgress)},
		reply{status: http.StatusOK, body: map[string]any{"id": runID.ID, "name": "gen1", "status": armfleet.OperationSucceeded}})
	got, err := f.client(t, fx.fleet(t)).GenerateUpdateRun(t.Context(), "aup1")
	if err != nil {
		t.Fatal(err)
	}
	if got != runID.ID {
		t.Errorf("run id %q, want %q", got, runID.ID)
	}
	want := []string{"POST ~/autoUpgradeProfiles/aup1/generateUpdateRun@2026-06-01", "GET /operations/gen1", "GET /operations/gen1"}
	if seq := f.shortSequence(); !slices.Equal(seq, want) {
		t.Errorf("exchange %q, want %q", seq, want)
	}

	// With a Location (the documented 202 has both headers), the result is
	// read there, not from the status document, whose "id" by ARM
	// convention names the operation.
	f = newFake(t)
	f.on(http.MethodPost, fx.Path, reply{status: http.StatusAccepted, header: map[string]string{
		"Azure-AsyncOperation": "{base}/operations/gen2", "Location": "{base}/operationResults/gen2", "Retry-After-Ms": "1"}})
	f.on(http.MethodGet, "/operations/gen2",
		reply{status: http.StatusOK, body: map[string]any{"id": "{base}/operations/gen2", "name": "gen2", "status": armfleet.OperationSucceeded}})
	f.on(http.MethodGet, "/operationResults/gen2", reply{status: http.StatusOK, body: map[string]any{"id": runID.ID}})
	if got, err := f.client(t, fx.fleet(t)).GenerateUpdateRun(t.Context(), "aup1"); err != nil || got != runID.ID {
		t.Errorf("with a Location: run id %q, %v; want %q", got, err, runID.ID)
	}

	// A result whose id is not a run of this fleet (the generated example's
	// placeholder) is refused.
	f = newFake(t)
	f.on(http.MethodPost, fx.Path, reply{status: http.StatusOK, body: map[string]any{"id": "lfte"}})
	if _, err := f.client(t, fx.fleet(t)).GenerateUpdateRun(t.Context(), "aup1"); err == nil || !strings.Contains(err.Error(), `auto-upgrade profile "aup1": generateUpdateRun did not return the generated run`) {
		t.Errorf("error %v", err)
	}
}

func TestApproveGatePolls(t *testing.T) {
	fx := loadFixture(t, "Gates_Update")
	t.Run("Location (the example's 202), then the gate is read", func(t *testing.T) {
		f := newFake(t)
		f.on(http.MethodPatch, fx.Path, reply{status: http.StatusAccepted, header: map[string]string{"Location": "{base}/operations/gate1", "Retry-After-Ms": "1"}})
		f.on(http.MethodGet, "/operations/gate1", reply{status: http.StatusAccepted, header: map[string]string{"Retry-After-Ms": "1"}}, reply{status: http.StatusNoContent})
		f.on(http.MethodGet, fx.Path, reply{status: http.StatusOK, body: fx.Response})
		g, err := f.client(t, testFleet).ApproveGate(t.Context(), gateName, hub.Precondition{})
		if err != nil {
			t.Fatal(err)
		}
		if g.Properties.State != armfleet.GateCompleted {
			t.Errorf("gate %+v", g)
		}
		want := []string{"PATCH ~/gates/" + gateName + "@2026-06-01", "GET /operations/gate1", "GET /operations/gate1", "GET ~/gates/" + gateName + "@2026-06-01"}
		if seq := f.shortSequence(); !slices.Equal(seq, want) {
			t.Errorf("exchange %q, want %q", seq, want)
		}
	})
	t.Run("Azure-AsyncOperation, then azcore's GET of the gate is the result", func(t *testing.T) {
		f := newFake(t)
		f.on(http.MethodPatch, fx.Path, reply{status: http.StatusAccepted, header: map[string]string{"Azure-AsyncOperation": "{base}/operations/gate2"}})
		f.on(http.MethodGet, "/operations/gate2", reply{status: http.StatusOK, body: opStatus(armfleet.OperationSucceeded)})
		f.on(http.MethodGet, fx.Path, reply{status: http.StatusOK, body: fx.Response})
		if _, err := f.client(t, testFleet).ApproveGate(t.Context(), gateName, hub.Precondition{}); err != nil {
			t.Fatal(err)
		}
		want := []string{"PATCH ~/gates/" + gateName + "@2026-06-01", "GET /operations/gate2", "GET ~/gates/" + gateName + "@2026-06-01"}
		if seq := f.shortSequence(); !slices.Equal(seq, want) {
			t.Errorf("exchange %q, want %q", seq, want)
		}
	})
}

func TestListFollowsNextLink(t *testing.T) {
	fx := loadFixture(t, "UpdateRuns_ListByFleet")
	f := newFake(t)
	run := func(name string) map[string]any {
		return map[string]any{"name": name, "properties": map[string]any{"managedClusterUpdate": map[string]any{"upgrade": map[string]any{"type": "NodeImageOnly"}}}}
	}
	page := func(next string, names ...string) map[string]any {
		p := map[string]any{"value": []any{}}
		for _, n := range names {
			p["value"] = append(p["value"].([]any), run(n))
		}
		if next != "" {
			p["nextLink"] = f.srv.URL + next
		}
		return p
	}
	f.on(http.MethodGet, fx.Path,
		reply{status: http.StatusOK, body: page(fx.Path+"?api-version=2026-06-01&%24skipToken=p2", "run-a", "run-b")},
		// A link without api-version gets the list's.
		reply{status: http.StatusOK, body: page(fx.Path+"?%24skipToken=p3", "run-c")},
		reply{status: http.StatusOK, body: page("", "run-d")})
	got, err := names(f.client(t, testFleet).ListUpdateRuns(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	if got != "run-a,run-b,run-c,run-d" {
		t.Errorf("runs %s", got)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, token := range []string{"", "p2", "p3"} {
		if got := reqs[i].Query.Get("$skipToken"); got != token {
			t.Errorf("page %d: $skipToken %q, want %q", i+1, got, token)
		}
		if got := reqs[i].Query.Get("api-version"); got != armfleet.APIVersionGates {
			t.Errorf("page %d: api-version %q", i+1, got)
		}
	}
}

func TestServerTimeFollowsDateHeader(t *testing.T) {
	fx := loadFixture(t, "Fleets_Get")
	f := newFake(t)
	first := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	second := first.Add(90 * time.Minute)
	f.on(http.MethodGet, fx.Path,
		reply{status: http.StatusOK, header: map[string]string{"Date": first.Format(http.TimeFormat)}, body: fx.Response},
		reply{status: http.StatusOK, header: map[string]string{"Date": second.Format(http.TimeFormat)}, body: fx.Response})
	c := f.client(t, testFleet)
	if !c.ServerTime().IsZero() {
		t.Fatalf("ServerTime before any response: %v", c.ServerTime())
	}
	for _, want := range []time.Time{first, second} {
		if _, err := c.GetFleet(t.Context()); err != nil {
			t.Fatal(err)
		}
		if got := c.ServerTime(); !got.Equal(want) {
			t.Errorf("ServerTime %v, want %v", got, want)
		}
	}
}

func TestNewAndOptions(t *testing.T) {
	f := newFake(t)
	c := f.client(t, testFleet)
	if c.Fleet() != testFleet {
		t.Errorf("Fleet %+v", c.Fleet())
	}
	o := c.ClientOptions()
	if o.Transport == nil || o.Retry.RetryDelay != time.Millisecond || !o.DisableRPRegistration || len(o.PerRetryPolicies) != 2 {
		t.Errorf("ClientOptions %+v", o)
	}
	o.PerRetryPolicies = nil // a copy: the client keeps its own
	if len(c.ClientOptions().PerRetryPolicies) != 2 {
		t.Error("ClientOptions shares its policies")
	}
	if _, err := New(armfleet.FleetID{Fleet: "f"}, Options{}); err == nil {
		t.Error("New accepted a fleet without subscription and resource group")
	}
	if _, err := New(testFleet, Options{}); err == nil {
		t.Error("New accepted no credential")
	}
}
