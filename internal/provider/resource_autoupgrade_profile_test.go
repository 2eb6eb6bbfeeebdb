package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// profilesFleet: N = 1.33 at the test clock (1.34.0 is a preview), so
// Rapid is 1.33.2 and Stable 1.32.6. p-old is two minors behind Rapid,
// p-ancient outside the supported minors 1.31–1.33. extra is appended to
// the region's Kubernetes releases.
func profilesFleet(extra string) string {
	return `
regions:
  - name: eastus
    kubernetes_versions:
      - { version: 1.30.14, released_at: "2026-05-12T00:00:00Z" }
      - { version: 1.31.10, released_at: "2026-07-08T00:00:00Z" }
      - { version: 1.32.6, released_at: "2026-08-19T00:00:00Z" }
      - { version: 1.33.2, released_at: "2026-10-14T00:00:00Z" }
      - { version: 1.34.0, released_at: "2026-11-10T00:00:00Z", preview: true }
` + extra + `clusters:
  - { name: p-canary, region: eastus, group: canary, kubernetes_version: 1.32.6 }
  - { name: p-prod, region: eastus, group: prod, kubernetes_version: 1.32.6 }
  - { name: p-old, region: eastus, group: prod, kubernetes_version: 1.31.10 }
  - { name: p-ancient, region: eastus, group: prod, kubernetes_version: 1.30.14 }
`
}

const profilesStrategy = `
resource "aks_fleet_update_strategy" "s" {
  name   = "canary-first"
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
  }
  stages {
    name = "prod"
    groups {
      name = "prod"
    }
  }
}
`

func profilesConfig(provider, offExtra, runBlock string) string {
	return provider + profilesStrategy + fmt.Sprintf(`
resource "aks_fleet_autoupgrade_profile" "rapid" {
  name               = "rapid"
  channel            = "Rapid"
  update_strategy_id = aks_fleet_update_strategy.s.id
}

resource "aks_fleet_autoupgrade_profile" "off" {
  name     = "off"
  channel  = "Rapid"
  disabled = true
%s
}
%s
data "aks_fleet_member_clusters" "all" {
  depends_on = [aks_fleet_autoupgrade_profile.rapid]
}
`, offExtra, runBlock)
}

// profileObj names a profile in its preview's summary.
func profileObj(name string) string { return autoUpgradeProfileType + " " + name }

// A profile is previewed at plan (the channel's target, the rollout in its
// strategy's order, the members it leaves behind and how to bring them
// back); a release added to the catalog later makes it trigger a run that
// completes and upgrades the clusters for good; a disabled profile triggers
// nothing; a run is generated on demand once per trigger value (an
// aks_fleet_update_run starting it: TestAccAutoUpgradeProfile_generatedRunStarted); plan stays empty
// throughout (time passing, releases appearing, runs completing); import
// round-trips.
func TestAccAutoUpgradeProfile_previewTriggerGenerate(t *testing.T) {
	t.Setenv(EnvUpgradeDuration, "0s")
	fleetFile := writeFleet(t, profilesFleet(""))
	state := filepath.Join(t.TempDir(), "state.db")
	at := func(clock string) string { return providerConfigAt(state, fleetFile, clock) }
	const later = "2026-11-23T12:00:00Z"
	rapid, off := "aks_fleet_autoupgrade_profile.rapid", "aks_fleet_autoupgrade_profile.off"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				// The strategy first: a profile that references a strategy
				// created by the same apply is previewed at apply.
				Config: at(testClock) + profilesStrategy,
			},
			{
				Config: profilesConfig(at(testClock), "", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(profileObj("rapid"), "— channel Rapid: Kubernetes 1.33.2; 4 members: 2 to upgrade, 2 skipped, 0 pending; estimated duration 0s",
						"supported minors: 1.33, 1.32, 1.31"),
					expectSection(profileObj("rapid"), "members left behind",
						"p-ancient not upgraded: 1.30 is outside the supported minors (1.33, 1.32, 1.31) and "+
							"auto-upgrade leaves it as it is; bring it back with a manual update run to 1.31.10, then to 1.32.6, and the profile then takes it to 1.33.2",
						"p-old not upgraded: 1.31.10 is more than one minor behind the target 1.33.2 and "+
							"auto-upgrade never skips a minor; bring it back with a manual update run to 1.32.6, and the profile then takes it to 1.33.2"),
					expectPreviewLine(profileObj("rapid"), keyLine("1. canary/canary/p-canary", "Upgrade 1.32.6 → 1.33.2, 2026-11-21 12:00 – 2026-11-21 12:00")),
					expectPreview(profileObj("off"), "channel Rapid: Kubernetes 1.33.2"),
					plancheck.ExpectKnownValue(off, attrPath("generated_run_id"), knownvalue.Null()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rapid, attrPath("status", "runs"), knownvalue.ListExact(nil)),
					statecheck.ExpectKnownValue(rapid, attrPath("status", "last_run"), knownvalue.Null()),
				},
			},
			{
				// 1.33.5 is released an hour after the profile was created;
				// the next command runs two days later. Nothing in the
				// configuration changed: the plan is empty, and the refresh
				// shows the run the release triggered, completed.
				PreConfig: func() {
					if err := os.WriteFile(fleetFile, []byte(strings.TrimLeft(profilesFleet(
						"      - { version: 1.33.5, released_at: \"2026-11-21T13:00:00Z\" }\n"), "\n")), 0o644); err != nil {
						t.Fatal(err)
					}
					now := time.Now().Add(time.Minute)
					_ = os.Chtimes(fleetFile, now, now)
				},
				Config:           profilesConfig(at(later), "", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rapid, attrPath("status", "last_run"), knownvalue.StringExact("rapid-20261121-130000")),
					statecheck.ExpectKnownValue(rapid, attrPath("status", "last_triggered_at"), knownvalue.StringExact("2026-11-21T13:00:00Z")),
					statecheck.ExpectKnownValue(rapid, attrPath("status", "last_trigger_status"), knownvalue.StringExact("Succeeded")),
					statecheck.ExpectKnownValue(rapid, attrPath("status", "last_trigger_upgrade_versions"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("1.33.5")})),
					// The same release enters the disabled profile's channel: nothing.
					statecheck.ExpectKnownValue(off, attrPath("status", "runs"), knownvalue.ListExact(nil)),
					statecheck.ExpectKnownValue(off, attrPath("status", "last_triggered_at"), knownvalue.Null()),
					// The run completed: p-canary and p-prod are on 1.33.5 for good, p-old and p-ancient left as they were.
					statecheck.ExpectKnownValue("data.aks_fleet_member_clusters.all", attrPath("clusters"), knownvalue.ListPartial(map[int]knownvalue.Check{
						0: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("p-ancient"), "kubernetes_version": knownvalue.StringExact("1.30.14")}),
						1: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("p-canary"), "kubernetes_version": knownvalue.StringExact("1.33.5")}),
						2: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("p-old"), "kubernetes_version": knownvalue.StringExact("1.31.10")}),
						3: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("p-prod"), "kubernetes_version": knownvalue.StringExact("1.33.5")}),
					})),
				},
			},
			{
				// Generate a run on demand from the disabled profile: created, not started.
				Config: profilesConfig(at(later), `  generate_run_trigger = "1"`, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(off, attrPath("generated_run_id")),
					plancheck.ExpectResourceAction(off, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(off, attrPath("generated_run_id"), knownvalue.StringExact("off-20261123-120000")),
					statecheck.ExpectKnownValue(off, attrPath("status", "runs"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("off-20261123-120000")})),
				},
			},
			{
				// Re-applying the same trigger generates nothing.
				Config:           profilesConfig(at(later), `  generate_run_trigger = "1"`, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(off, attrPath("status", "runs"), knownvalue.ListSizeExact(1)),
				},
			},
			{
				// Removing the trigger generates nothing and keeps the last run's id.
				Config: profilesConfig(at(later), "", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(off, attrPath("generated_run_id"), knownvalue.StringExact("off-20261123-120000")),
					statecheck.ExpectKnownValue(off, attrPath("status", "runs"), knownvalue.ListSizeExact(1)),
				},
			},
			{
				ResourceName:            rapid,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"status"},
			},
			{
				ResourceName:            rapid,
				ImportState:             true,
				ImportStateId:           testFleet().ID() + "/autoUpgradeProfiles/rapid",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"status"},
			},
		},
	})
}

// A profile's strategy is set when it is created: a strategy replaced (its
// id unknown until apply) replaces the profile too. Created with its
// strategy, or replaced with it, the profile is previewed at plan all the
// same — what the channel resolves to and who is left behind depend on the
// channel alone — and only the rollout waits for apply.
func TestAccAutoUpgradeProfile_newStrategyReplaces(t *testing.T) {
	p := providerConfig(t, writeFleet(t, profilesFleet("")))
	config := func(strategy string) string {
		return p + fmt.Sprintf(`
resource "aks_fleet_update_strategy" "s" {
  name   = %q
  stages {
    name = "canary"
    groups {
      name = "canary"
    }
  }
}

resource "aks_fleet_autoupgrade_profile" "p" {
  name               = "p"
  channel            = "Stable"
  update_strategy_id = aks_fleet_update_strategy.s.id
}
`, strategy)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: config("first"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectPreview(profileObj("p"), "— channel Stable: Kubernetes 1.32.6\n", "supported minors: 1.33, 1.32, 1.31",
						"the rollout is previewed at apply, once the strategy it follows exists"),
					expectPreviewLacks(profileObj("p"), "members in rollout order"),
				}},
			},
			{
				Config: config("second"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("aks_fleet_autoupgrade_profile.p", plancheck.ResourceActionDestroyBeforeCreate),
					expectPreview(profileObj("p"), "the rollout is previewed at apply, once the strategy it follows exists"),
				}},
			},
		},
	})
}

// A profile changed outside Terraform is adopted with the preview of what
// the hub holds (not the preview of what Terraform last wrote); a trigger
// change whose run cannot be generated fails at plan, and the same trigger
// generates once the configuration allows it.
func TestAccAutoUpgradeProfile_driftAndRefusedTrigger(t *testing.T) {
	fleetFile := writeFleet(t, profilesFleet(""))
	state := filepath.Join(t.TempDir(), "state.db")
	p := providerConfigAt(state, fleetFile, testClock)
	config := func(trigger, channel string) string {
		return p + fmt.Sprintf(`
resource "aks_fleet_autoupgrade_profile" "p" {
  name                 = "p"
  generate_run_trigger = %q
  %s
}
`, trigger, channel)
	}
	addr := "aks_fleet_autoupgrade_profile.p"
	h := func() *mock.Hub {
		at, _ := time.Parse(time.RFC3339, testClock)
		hh, err := mock.New(mock.Config{FleetFile: fleetFile, StatePath: state, Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: at}})
		if err != nil {
			t.Fatal(err)
		}
		return hh
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: config("1", `channel = "Rapid"`)},
			{
				// The profile is switched to Stable behind Terraform's back: the
				// refresh adopts it, with Stable's preview, so the plan that brings
				// it back to Rapid shows what Rapid would do.
				PreConfig: func() {
					if _, err := h().PutAutoUpgradeProfile(context.Background(), hub.AutoUpgradeProfile{Meta: hub.Meta{Name: "p"},
						Spec: update.ProfileSpec{Channel: update.ChannelStable}}, hub.Precondition{}); err != nil {
						t.Fatal(err)
					}
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true, // the configuration still says Rapid: the plan brings it back
				Check:              resource.TestCheckResourceAttr(addr, "channel", "Stable"),
			},
			{
				Config:      config("2", "channel = \"TargetKubernetesVersion\"\n  target_kubernetes_version = \"1.27\""),
				ExpectError: expectError("generate_run_trigger: channel TargetKubernetesVersion resolves to nothing now"),
			},
			{
				// Trigger "2" with a channel that has a target: generated.
				Config: config("2", `channel = "Rapid"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("generated_run_id"), knownvalue.StringExact("p-20261121-120000-2")),
				},
			},
		},
	})
}

// Every rule of designs/updates.md §5 fails at plan with its attribute path.
func TestAccAutoUpgradeProfile_validation(t *testing.T) {
	p := providerConfig(t, "")
	cases := []struct{ body, want string }{
		{`channel = "Weekly"`, `channel: "Weekly" is not an auto-upgrade channel`},
		{"channel = \"NodeImage\"\n  node_image_selection = \"Latest\"", `node_image_selection: channel NodeImage takes no node image selection`},
		{"channel = \"Rapid\"\n  node_image_selection = \"Custom\"", `node_image_selection: node image selection type Custom is not available for auto-upgrade profiles`},
		{`channel = "TargetKubernetesVersion"`, `target_kubernetes_version: channel TargetKubernetesVersion needs target_kubernetes_version`},
		{"channel = \"TargetKubernetesVersion\"\n  target_kubernetes_version = \"1.30.2\"", `target_kubernetes_version: "1.30.2" is not a major.minor version`},
		{"channel = \"Stable\"\n  target_kubernetes_version = \"1.30\"", `target_kubernetes_version: target_kubernetes_version is only for channel TargetKubernetesVersion`},
		{"channel = \"Stable\"\n  long_term_support = true", `long_term_support: long_term_support is only for channel TargetKubernetesVersion`},
		{"channel = \"Stable\"\n  update_strategy_id = \"/subscriptions/x/updateStrategies/\"", `update_strategy_id:`},
		// Checkable at plan, not only at apply: the hub cannot generate a run from a channel with no target.
		{"channel = \"TargetKubernetesVersion\"\n  target_kubernetes_version = \"1.27\"\n  generate_run_trigger = \"1\"",
			`generate_run_trigger: channel TargetKubernetesVersion resolves to nothing now (no generally available version of 1.27 in the catalog)`},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviders,
				Steps: []resource.TestStep{{
					Config:      p + "resource \"aks_fleet_autoupgrade_profile\" \"p\" {\n  name = \"p\"\n  " + c.body + "\n}\n",
					PlanOnly:    true,
					ExpectError: expectError(c.want),
				}},
			})
		})
	}
}

// A run generated on demand is not started; an aks_fleet_update_run that
// imports it with an import block (Terraform 1.5+, OpenTofu) and says what it
// holds starts it, and plan is empty afterwards. Driven with the real CLI:
// terraform-plugin-testing's OpenTofu support does not resolve the provider
// of an import block.
func TestAccAutoUpgradeProfile_generatedRunStarted(t *testing.T) {
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		t.Skip("set TF_ACC and TF_ACC_TERRAFORM_PATH to run with the real CLI")
	}
	t.Setenv(EnvUpgradeDuration, "0s")
	dir := t.TempDir()
	profile := `
terraform {
  required_providers {
    aks = { source = "fleetform/aks" }
  }
}
` + providerConfigAt(filepath.Join(dir, "state.db"), writeFleet(t, profilesFleet("")), testClock) + `
resource "aks_fleet_autoupgrade_profile" "review" {
  name                 = "review"
  channel              = "Stable"
  disabled             = true
  generate_run_trigger = "1"
}

output "generated" {
  value = aks_fleet_autoupgrade_profile.review.generated_run_id
}
`
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(profile)
	run := realCLI(t, tf, dir)
	run("init", "-input=false", "-no-color")
	run("apply", "-input=false", "-no-color", "-auto-approve")
	generated := strings.Trim(strings.TrimSpace(run("output", "-raw", "generated")), `"`)
	if generated != "review-20261121-120000" {
		t.Fatalf("generated run %q", generated)
	}
	write(profile + fmt.Sprintf(`
import {
  to = aks_fleet_update_run.generated
  id = %q
}

resource "aks_fleet_update_run" "generated" {
  name                 = %q
  upgrade {
    type = "Full"
    kubernetes_version = "1.32.6"
  }
  node_image_selection {
    type = "Latest"
  }
  start                = true
}

output "state" {
  value = aks_fleet_update_run.generated.status.state
}
`, generated, generated))
	plan := run("plan", "-input=false", "-no-color")
	// The imported run is previewed with its profile's rules, as the hub runs
	// it: p-ancient (1.30, outside the supported minors) is left as it is,
	// where a manual run to 1.32.6 would fail on it.
	if !regexp.MustCompile(`p-ancient\s+Skipped 1\.30\.14 → 1\.32\.6 \(not upgraded: 1\.30 is outside the supported minors`).MatchString(plan) {
		t.Errorf("p-ancient in the generated run's preview:\n%s", plan)
	}
	for _, want := range []string{`(imported from "review-20261121-120000")`, `~ start`, "Plan: 1 to import, 0 to add, 1 to change, 0 to destroy."} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan does not show %q:\n%s", want, plan)
		}
	}
	if !strings.Contains(plan, `state                = "NotStarted"`) && !strings.Contains(plan, `"NotStarted"`) {
		t.Errorf("the imported run is not NotStarted in the plan:\n%s", plan)
	}
	run("apply", "-input=false", "-no-color", "-auto-approve")
	if state := strings.TrimSpace(run("output", "-raw", "state")); state != "Completed" {
		t.Errorf("the started run is %s, want Completed (upgrade duration 0s)", state)
	}
	if out := run("plan", "-input=false", "-no-color", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Errorf("plan after apply is not empty:\n%s", out)
	}
}

// failingGenerate fails GenerateUpdateRun while *fail is set.
type failingGenerate struct {
	hub.Hub
	fail *bool
}

func (h failingGenerate) GenerateUpdateRun(ctx context.Context, profile string) (string, error) {
	if *h.fail {
		return "", errors.New("the service is unavailable")
	}
	return h.Hub.GenerateUpdateRun(ctx, profile)
}

// A run the hub fails to generate after the profile was written fails the
// apply; the profile is tracked with the trigger it had, so the next apply
// generates the run, and the id of the last generated run is not lost.
func TestAccAutoUpgradeProfile_generateRetried(t *testing.T) {
	fail := false
	p := providerConfig(t, writeFleet(t, profilesFleet("")))
	config := func(trigger string) string {
		return p + fmt.Sprintf(`
resource "aks_fleet_autoupgrade_profile" "p" {
  name                 = "p"
  channel              = "Rapid"
  generate_run_trigger = %q
}
`, trigger)
	}
	addr := "aks_fleet_autoupgrade_profile.p"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providersWith(func(h hub.Hub) hub.Hub { return failingGenerate{Hub: h, fail: &fail} }),
		Steps: []resource.TestStep{
			{
				Config: config("1"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("generated_run_id"), knownvalue.StringExact("p-20261121-120000")),
				},
			},
			{
				PreConfig:   func() { fail = true },
				Config:      config("2"),
				ExpectError: expectError("the service is unavailable"),
			},
			{
				PreConfig: func() { fail = false },
				Config:    config("2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					// Trigger "1" was kept (with its run's id): "2" is a change again.
					plancheck.ExpectUnknownValue(addr, attrPath("generated_run_id")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, attrPath("generated_run_id"), knownvalue.StringExact("p-20261121-120000-2")),
				},
			},
		},
	})
}
