package armclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// Fleet and members.

// GetFleet reads the fleet.
func (c *Client) GetFleet(ctx context.Context) (*armfleet.Fleet, error) {
	return call[armfleet.Fleet](ctx, c, c.fleetObject(), request{method: http.MethodGet, path: c.path(), version: armfleet.APIVersion})
}

// ListCredentials returns the hub cluster's kubeconfigs (POST
// …/listCredentials, synchronous 200).
func (c *Client) ListCredentials(ctx context.Context) (*armfleet.FleetCredentialResults, error) {
	return call[armfleet.FleetCredentialResults](ctx, c, "credentials of "+c.fleetObject(),
		request{method: http.MethodPost, path: c.path("listCredentials"), version: armfleet.APIVersion})
}

func (c *Client) fleetObject() string { return fmt.Sprintf("fleet %q", c.fleet.Fleet) }

// ListMembers lists the fleet's members, every page.
func (c *Client) ListMembers(ctx context.Context) ([]armfleet.Member, error) {
	return list(ctx, c, members, nil)
}

// GetMember reads one member.
func (c *Client) GetMember(ctx context.Context, name string) (*armfleet.Member, error) {
	return get(ctx, c, members, name)
}

// Update strategies.

// GetUpdateStrategy reads a strategy (with API version 2026-06-01).
func (c *Client) GetUpdateStrategy(ctx context.Context, name string) (*armfleet.UpdateStrategy, error) {
	return get(ctx, c, strategies, name)
}

// ListUpdateStrategies lists the fleet's strategies, every page.
func (c *Client) ListUpdateStrategies(ctx context.Context) ([]armfleet.UpdateStrategy, error) {
	return list(ctx, c, strategies, nil)
}

// PutUpdateStrategy creates or replaces a strategy and returns it as read
// back once the operation completed.
func (c *Client) PutUpdateStrategy(ctx context.Context, name string, body armfleet.UpdateStrategy, pre hub.Precondition) (*armfleet.UpdateStrategy, error) {
	return put(ctx, c, strategies, name, body, pre)
}

// DeleteUpdateStrategy deletes a strategy.
func (c *Client) DeleteUpdateStrategy(ctx context.Context, name string, pre hub.Precondition) error {
	return del(ctx, c, strategies, name, pre)
}

// Update runs.

// GetUpdateRun reads a run (with API version 2026-06-01).
func (c *Client) GetUpdateRun(ctx context.Context, name string) (*armfleet.UpdateRun, error) {
	return get(ctx, c, runs, name)
}

// ListUpdateRuns lists the fleet's runs, every page.
func (c *Client) ListUpdateRuns(ctx context.Context) ([]armfleet.UpdateRun, error) {
	return list(ctx, c, runs, nil)
}

// PutUpdateRun creates a run (not started) or changes one that is still
// NotStarted, and returns it as read back once the operation completed.
func (c *Client) PutUpdateRun(ctx context.Context, name string, body armfleet.UpdateRun, pre hub.Precondition) (*armfleet.UpdateRun, error) {
	return put(ctx, c, runs, name, body, pre)
}

// DeleteUpdateRun deletes a run.
func (c *Client) DeleteUpdateRun(ctx context.Context, name string, pre hub.Precondition) error {
	return del(ctx, c, runs, name, pre)
}

// StartUpdateRun starts a run and returns it once the service accepted.
func (c *Client) StartUpdateRun(ctx context.Context, name string, pre hub.Precondition) (*armfleet.UpdateRun, error) {
	return action(ctx, c, runs, name, "start", nil, pre)
}

// StopUpdateRun stops a run.
func (c *Client) StopUpdateRun(ctx context.Context, name string, pre hub.Precondition) (*armfleet.UpdateRun, error) {
	return action(ctx, c, runs, name, "stop", nil, pre)
}

// SkipUpdateRun skips members, groups, stages or after-stage waits of a run.
func (c *Client) SkipUpdateRun(ctx context.Context, name string, body armfleet.SkipProperties, pre hub.Precondition) (*armfleet.UpdateRun, error) {
	return action(ctx, c, runs, name, "skip", body, pre)
}

// Auto-upgrade profiles.

// GetAutoUpgradeProfile reads a profile.
func (c *Client) GetAutoUpgradeProfile(ctx context.Context, name string) (*armfleet.AutoUpgradeProfile, error) {
	return get(ctx, c, profiles, name)
}

// ListAutoUpgradeProfiles lists the fleet's profiles, every page.
func (c *Client) ListAutoUpgradeProfiles(ctx context.Context) ([]armfleet.AutoUpgradeProfile, error) {
	return list(ctx, c, profiles, nil)
}

// PutAutoUpgradeProfile creates or replaces a profile and returns it as read
// back once the operation completed.
func (c *Client) PutAutoUpgradeProfile(ctx context.Context, name string, body armfleet.AutoUpgradeProfile, pre hub.Precondition) (*armfleet.AutoUpgradeProfile, error) {
	return put(ctx, c, profiles, name, body, pre)
}

// DeleteAutoUpgradeProfile deletes a profile.
func (c *Client) DeleteAutoUpgradeProfile(ctx context.Context, name string, pre hub.Precondition) error {
	return del(ctx, c, profiles, name, pre)
}

// GenerateUpdateRun creates, without starting it, the run profile would
// trigger now, and returns the run's ARM id. POST …/generateUpdateRun
// answers 200 with a GenerateResponse or 202 with Azure-AsyncOperation and
// Location (designs/arm.md §3, the generateUpdateRun row).
// The result is read from Location when the service gives one (no
// final-state-via: azcore GETs it): by ARM convention the status document's
// own "id" names the operation, not the run (designs/arm.md §8 leaves it
// unverified), so it is used only without a Location; the id is checked.
func (c *Client) GenerateUpdateRun(ctx context.Context, profile string) (string, error) {
	object := profiles.object(profile)
	r := request{method: http.MethodPost, path: c.path(profiles.collection, profile, "generateUpdateRun"), version: profiles.read, notIdempotent: true}
	res, err := lro[armfleet.GenerateResponse](ctx, c, r, []int{http.StatusOK, http.StatusAccepted}, "")
	if err != nil {
		return "", HubError(err, object)
	}
	fleet, _, err := armfleet.ParseChild(armfleet.UpdateRuns, res.ID)
	if err != nil {
		return "", fmt.Errorf("%s: generateUpdateRun did not return the generated run: %w", object, err)
	}
	if !fleet.SameFleet(c.fleet) {
		return "", fmt.Errorf("%s: generateUpdateRun returned run %q of another fleet", object, res.ID)
	}
	return res.ID, nil
}

// Gates.

// ListGates lists the fleet's gates, every page; state "" lists all, else
// only those in that state ($filter=state eq <state>, as the CLI sends it).
func (c *Client) ListGates(ctx context.Context, state string) ([]armfleet.Gate, error) {
	var query url.Values
	if state != "" {
		query = url.Values{"$filter": {"state eq " + state}}
	}
	return list(ctx, c, gates, query)
}

// GetGate reads a gate.
func (c *Client) GetGate(ctx context.Context, name string) (*armfleet.Gate, error) {
	return get(ctx, c, gates, name)
}

// ApproveGate completes a gate: PATCH {"properties":{"state":"Completed"}},
// 200 or 202 (designs/arm.md §3, the gate PATCH row: final state
// via azure-async-operation). azcore ends a PATCH polled through
// Azure-AsyncOperation with a GET of the gate; one polled through Location
// (the example's 202) ends with whatever the Location URL last returned, so
// the gate is then read again.
func (c *Client) ApproveGate(ctx context.Context, name string, pre hub.Precondition) (*armfleet.Gate, error) {
	body := armfleet.GatePatch{Properties: armfleet.GatePatchProperties{State: armfleet.GateCompleted}}
	r := request{method: http.MethodPatch, path: c.path(gates.collection, name), version: armfleet.APIVersionGates, body: body, pre: pre}
	res, err := lro[armfleet.Gate](ctx, c, r, []int{http.StatusOK, http.StatusAccepted}, runtime.FinalStateViaAzureAsyncOp)
	if err != nil {
		return nil, HubError(err, gates.object(name))
	}
	return settle(ctx, c, gates, name, res)
}
