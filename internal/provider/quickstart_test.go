package provider

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// The quickstart, with the regional-rollout module it calls, applied by the
// real CLI as a user runs it: terraform-plugin-testing does not support
// modules, so this test drives the CLI itself, with the provider served
// in-process (TF_REATTACH_PROVIDERS) under its own address, fleetform/aks.
func TestAccQuickstartWithModule(t *testing.T) {
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		t.Skip("set TF_ACC and TF_ACC_TERRAFORM_PATH to run the quickstart with the real CLI")
	}
	root := t.TempDir()
	at := func(clock string) {
		copyExample(t, "../../examples/quickstart/main.tf", filepath.Join(root, "quickstart", "main.tf"), func(s string) string {
			return emptyProviderBlock.ReplaceAllString(s, providerConfigAt(filepath.Join(root, "state.db"), "", clock))
		})
	}
	at(testClock)
	copyExample(t, "../../examples/modules/regional-rollout/main.tf", filepath.Join(root, "modules", "regional-rollout", "main.tf"), nil)

	run := realCLI(t, tf, filepath.Join(root, "quickstart"))
	run("init", "-input=false", "-no-color")
	plan := run("plan", "-input=false", "-no-color")
	for _, want := range []string{
		`module.rollout.aks_fleet_update_strategy.by_region will be created`,
		`module.rollout.aks_fleet_update_run.this will be created`,
		// The module's rollout is known at plan, from its preview data
		// source: westeurope (the canary region) is a stage.
		`"westeurope/`,
		// The run's own preview shows the rollout previewed, its strategy
		// being created by the same apply; the run is not started.
		`Preview: aks_fleet_update_run quickstart-1-33 — created, not started; the rollout previewed if started: 10 members`,
		// The placement's and the auto-upgrade profile's previews, before it is enabled.
		`Preview: aks_fleet_placement web — PickN: 3 of 3 clusters selected`,
		`aks_fleet_autoupgrade_profile.rapid will be created`,
		`Preview: aks_fleet_autoupgrade_profile rapid — channel Rapid: Kubernetes 1.33.2;`,
		`autoupgrade_rapid       = "1.33.2"`,
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan does not show %q:\n%s", want, plan)
		}
	}
	run("apply", "-input=false", "-no-color", "-auto-approve")
	if out := run("plan", "-input=false", "-no-color", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Errorf("plan after apply is not empty:\n%s", out)
	}
	// Nine days later windows opened: no resource changes. The module's
	// rollout is a preview of the run if it started now (it has not): its
	// outputs say what that is now (designs/previews.md §2).
	at("2026-11-30T08:00:00Z")
	if out := run("plan", "-input=false", "-no-color"); strings.Contains(out, "Plan:") || strings.Contains(out, "will be") {
		t.Errorf("plan after the clock moved changes resources:\n%s", out)
	}
	var outputs map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(run("output", "-json")), &outputs); err != nil {
		t.Fatal(err)
	}
	var summary string
	if err := json.Unmarshal(outputs["rollout_summary"].Value, &summary); err != nil ||
		!regexp.MustCompile(`^\d+ members: \d+ upgrades?, 1 is skipped`).MatchString(summary) {
		t.Errorf("rollout_summary = %s (%v)", outputs["rollout_summary"].Value, err)
	}
	var rapid string
	if err := json.Unmarshal(outputs["autoupgrade_rapid"].Value, &rapid); err != nil || rapid != "1.33.2" {
		t.Errorf("autoupgrade_rapid = %s (%v)", outputs["autoupgrade_rapid"].Value, err)
	}
	run("destroy", "-input=false", "-no-color", "-auto-approve")
}

// serveProvider serves the provider in-process under its own address,
// fleetform/aks, for the lifetime of the test, and returns the value of
// TF_REATTACH_PROVIDERS that points the CLI at it.
func serveProvider(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	reattach, closed := make(chan *plugin.ReattachConfig), make(chan struct{})
	go func() {
		if err := tf6server.Serve("registry.terraform.io/fleetform/aks", providerserver.NewProtocol6(New("test")()),
			tf6server.WithDebug(ctx, reattach, closed), tf6server.WithLoggingSink(t)); err != nil {
			t.Error(err)
		}
	}()
	t.Cleanup(func() { cancel(); <-closed })
	rc := <-reattach
	served := map[string]any{"Protocol": string(rc.Protocol), "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid, "Test": true,
		"Addr": map[string]string{"Network": rc.Addr.Network(), "String": rc.Addr.String()}}
	// Terraform reads fleetform/aks as registry.terraform.io/…, OpenTofu as registry.opentofu.org/….
	env, _ := json.Marshal(map[string]any{"registry.terraform.io/fleetform/aks": served, "registry.opentofu.org/fleetform/aks": served})
	return string(env)
}

// cliRun serves the provider (serveProvider) and returns a function that
// runs the CLI tf in dir and returns its standard output and whether it
// succeeded, with its standard error appended when it did not.
func cliRun(t *testing.T, tf, dir string) func(args ...string) (string, bool) {
	t.Helper()
	env := serveProvider(t)
	return func(args ...string) (string, bool) {
		t.Helper()
		cmd := exec.Command(tf, append([]string{"-chdir=" + dir}, args...)...)
		cmd.Env = append(os.Environ(), "TF_REATTACH_PROVIDERS="+env, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return string(out) + stderr.String(), false
		}
		return string(out), true
	}
}

// realCLI is cliRun whose runner fails the test when the CLI fails.
func realCLI(t *testing.T, tf, dir string) func(args ...string) string {
	t.Helper()
	run := cliRun(t, tf, dir)
	return func(args ...string) string {
		t.Helper()
		out, ok := run(args...)
		if !ok {
			t.Fatalf("%s %s failed:\n%s", filepath.Base(tf), strings.Join(args, " "), out)
		}
		return out
	}
}

// copyExample copies an example file, edited by edit when given.
func copyExample(t *testing.T, from, to string, edit func(string) string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if edit != nil {
		s = edit(s)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
