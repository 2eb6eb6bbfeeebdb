package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// hubFactory builds the hub a provider configuration asks for. It is the one
// place that knows the hub implementations; resources see only hub.Hub.
type hubFactory func(ctx context.Context, cfg providerModel) (hub.Hub, diag.Diagnostics)

// newHub is the provider's hub factory. Today there is one hub, the mock;
// the azure block arrives with its own issue.
func newHub(_ context.Context, cfg providerModel) (hub.Hub, diag.Diagnostics) {
	var diags diag.Diagnostics
	m := cfg.Mock
	if m == nil {
		m = &mockModel{}
	}
	mc, ok := mockConfig(*m, &diags)
	if !ok {
		return nil, diags
	}
	h, err := mock.New(mc)
	var inventoryErr mock.InventoryError
	var inventoryErrs mock.InventoryErrors
	switch {
	case errors.As(err, &inventoryErr) || errors.As(err, &inventoryErrs):
		diags.AddAttributeError(path.Root("mock").AtName("fleet_file"), "Invalid fleet inventory", err.Error())
		return nil, diags
	case err != nil:
		diags.AddError("Cannot start the mock hub", err.Error())
		return nil, diags
	}
	return h, diags
}

// mockConfig resolves the mock block against its environment variables: the
// configuration wins over the environment.
func mockConfig(m mockModel, diags *diag.Diagnostics) (mock.Config, bool) {
	mc := mock.Config{
		FleetFile: orEnv(m.FleetFile, EnvFleetFile),
		StatePath: orEnv(m.StatePath, EnvStatePath),
		Clock:     mock.ClockConfig{Mode: orEnv(m.Clock, EnvClock)},
	}
	if ts := orEnv(m.ClockTime, EnvClockTime); ts != "" {
		t, err := time.Parse(time.RFC3339, ts)
		if err != nil {
			diags.AddAttributeError(path.Root("mock").AtName("clock_time"), "Invalid clock time",
				fmt.Sprintf("mock.clock_time (or %s): %q is not an RFC 3339 time such as 2026-11-21T09:00:00Z.", EnvClockTime, ts))
			return mc, false
		}
		mc.Clock.Time = t
	}
	if m.ClockScale != nil {
		mc.Clock.Scale = *m.ClockScale
	} else if s := os.Getenv(EnvClockScale); s != "" {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			diags.AddAttributeError(path.Root("mock").AtName("clock_scale"), "Invalid clock scale", fmt.Sprintf("%s: %q is not a number.", EnvClockScale, s))
			return mc, false
		}
		mc.Clock.Scale = f
	}
	if err := mc.Clock.Validate(); err != nil {
		diags.AddAttributeError(path.Root("mock").AtName("clock"), "Invalid mock hub clock", "mock.clock: "+err.Error()+".")
		return mc, false
	}
	return mc, true
}

func orEnv(v, env string) string {
	if v == "" {
		return os.Getenv(env)
	}
	return v
}
