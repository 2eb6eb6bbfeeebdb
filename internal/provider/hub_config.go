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
	"github.com/hashicorp/terraform-plugin-framework/provider"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/inventory"
)

// hubFactory builds the hub a provider configuration asks for. It is the one
// place that knows the hub implementations; resources see only hub.Hub.
type hubFactory func(ctx context.Context, cfg providerModel) (hub.Hub, diag.Diagnostics)

// newHub is the provider's hub factory: the azure hub for an azure block,
// otherwise the mock hub.
func newHub(ctx context.Context, cfg providerModel) (hub.Hub, diag.Diagnostics) {
	var diags diag.Diagnostics
	if oneHub(cfg, &diags); diags.HasError() {
		return nil, diags
	}
	if cfg.Azure != nil {
		return azureHub(ctx, *cfg.Azure)
	}
	m := cfg.Mock
	if m == nil {
		m = &mockModel{}
	}
	mc, ok := mockConfig(*m, &diags)
	if !ok {
		return nil, diags
	}
	h, err := mock.New(mc)
	var inventoryErr inventory.Error
	var inventoryErrs inventory.Errors
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

// ValidateConfig checks the provider configuration at validate time, with
// the environment it would be configured with; values known only after
// apply are checked by Configure.
func (p *aksProvider) ValidateConfig(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var cfg providerModel
	unknown, ok := readValue(req.Config.Raw, &cfg, &resp.Diagnostics)
	if !ok || len(unknown) > 0 {
		return
	}
	if oneHub(cfg, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	if cfg.Azure != nil {
		azureLiterals(*cfg.Azure, &resp.Diagnostics)
		return
	}
	m := mockModel{}
	if cfg.Mock != nil {
		m = *cfg.Mock
	}
	mockConfig(m, &resp.Diagnostics)
}

// oneHub checks that the configuration names at most one hub.
func oneHub(cfg providerModel, diags *diag.Diagnostics) {
	if cfg.Mock != nil && cfg.Azure != nil {
		diags.AddAttributeError(path.Root("azure"), "Two hubs configured",
			"The provider uses one hub: keep either the mock block (the embedded simulated fleet) or the azure block (a real fleet), not both.")
	}
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
	if d := orEnv(m.UpgradeDuration, EnvUpgradeDuration); d != "" {
		v, err := time.ParseDuration(d)
		if err != nil || v < 0 {
			diags.AddAttributeError(path.Root("mock").AtName("upgrade_duration"), "Invalid upgrade duration",
				fmt.Sprintf("mock.upgrade_duration (or %s): %q is not a duration of zero or more such as 30m or 0s.", EnvUpgradeDuration, d))
			return mc, false
		}
		mc.UpgradeDuration = &v
	}
	clockAttr := func(name string) path.Path { return path.Root("mock").AtName(name) }
	switch mc.Clock.Mode {
	case mock.ClockFixed, mock.ClockScaled:
		if mc.Clock.Time.IsZero() {
			diags.AddAttributeError(clockAttr("clock_time"), "Missing clock time", fmt.Sprintf("mock.clock = %q needs "+
				"mock.clock_time (or the environment variable %s): the RFC 3339 instant the clock %s, e.g. 2026-11-21T09:00:00Z.",
				mc.Clock.Mode, EnvClockTime, map[string]string{mock.ClockFixed: "stays at", mock.ClockScaled: "starts from"}[mc.Clock.Mode]))
			return mc, false
		}
		if mc.Clock.Mode == mock.ClockScaled && mc.Clock.Scale <= 0 {
			diags.AddAttributeError(clockAttr("clock_scale"), "Missing clock scale", fmt.Sprintf("mock.clock = \"scaled\" needs "+
				"mock.clock_scale (or the environment variable %s): simulated seconds per real second, e.g. 60.", EnvClockScale))
			return mc, false
		}
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
