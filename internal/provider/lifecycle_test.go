package provider

import (
	"context"
	"errors"
	"fmt"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/hubtest"
)

// Tests of the shared resource lifecycle (lifecycle.go) against hubs that
// behave as real servers do where the mock does not.

// providersWith runs the provider with its configured hub wrapped.
func providersWith(wrap func(hub.Hub) hub.Hub) map[string]func() (tfprotov6.ProviderServer, error) {
	p := &aksProvider{version: "test", newHub: func(ctx context.Context, cfg providerModel) (hub.Hub, diag.Diagnostics) {
		h, diags := newHub(ctx, cfg)
		if h != nil {
			h = wrap(h)
		}
		return h, diags
	}}
	return map[string]func() (tfprotov6.ProviderServer, error){"aks": providerserver.NewProtocol6WithError(p)}
}

// Against a hub that fills in defaults, the plan after apply stays empty
// (plugin-testing fails a step whose refresh-plan is not empty), and a
// change still plans as the practitioner wrote it.
func TestAccLifecycle_defaultingHubKeepsThePlanEmpty(t *testing.T) {
	cfg := providerConfig(t, "")
	updates := func(group string, disabled bool) string {
		return `
resource "aks_fleet_update_strategy" "s" {
  name   = "s"
  stages {
    name = "one"
    groups {
      name = "` + group + `"
    }
  }
}
resource "aks_fleet_autoupgrade_profile" "p" {
  name               = "p"
  channel            = "Stable"
  update_strategy_id = aks_fleet_update_strategy.s.id
  disabled           = ` + fmt.Sprint(disabled) + `
}
resource "aks_fleet_update_run" "r" {
  name                 = "r"
  update_strategy_id   = aks_fleet_update_strategy.s.id
  upgrade {
    type = "ControlPlaneOnly"
    kubernetes_version = "1.33.2"
  }
  start                = true
}
`
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: providersWith(hubtest.Defaulting), Steps: []resource.TestStep{
		{Config: cfg + simplePlacement("", `policy {
  placement_type = "PickN"
  number_of_clusters = 2
  topology_spread_constraints {
    topology_key = "region"
  }
}`) +
			nodePoolConfig(`team = "web"`, `{ nodes = "20%" }`) + updates("canary", false)},
		{Config: cfg + simplePlacement("", `policy {
  placement_type = "PickN"
  number_of_clusters = 3
  topology_spread_constraints {
    topology_key = "region"
  }
}`) +
			nodePoolConfig(`team = "api"`, `{ nodes = "20%" }`) + updates("wave-1", false),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(plAddr, plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction(npAddr, plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("aks_fleet_update_strategy.s", plancheck.ResourceActionUpdate),
				// The hub's node_image_selection = Latest is the default left
				// out, and an edit of the strategy is no change of the profile.
				plancheck.ExpectResourceAction("aks_fleet_autoupgrade_profile.p", plancheck.ResourceActionNoop),
				// A run keeps the copy of the strategy it made: an edit of
				// the strategy is no change of the run.
				plancheck.ExpectResourceAction("aks_fleet_update_run.r", plancheck.ResourceActionNoop),
			}},
		},
		{
			// Only the profile changes: planned as written, node_image_selection still unset.
			Config: cfg + simplePlacement("", `policy {
  placement_type = "PickN"
  number_of_clusters = 3
  topology_spread_constraints {
    topology_key = "region"
  }
}`) +
				nodePoolConfig(`team = "api"`, `{ nodes = "20%" }`) + updates("wave-1", true),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("aks_fleet_autoupgrade_profile.p", plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue("aks_fleet_autoupgrade_profile.p", tfjsonpath.New("node_image_selection"), knownvalue.Null()),
			}},
		},
	}})
}

// racingHub makes another writer change an object just before the
// provider's first conditional write (If-Match) reaches the hub: the object
// changed between plan and apply.
type racingHub struct {
	hub.Hub
	once *sync.Once
}

func (h racingHub) ApplyPlacement(ctx context.Context, p hub.Placement, pre hub.Precondition) (*hub.Placement, error) {
	if pre.IfMatch != "" {
		h.once.Do(func() {
			other := p
			limit := 3
			other.Spec.RevisionHistoryLimit = &limit
			if _, err := h.Hub.ApplyPlacement(ctx, other, hub.Precondition{}); err != nil {
				panic(err) // test setup: the mock accepts an unconditional write
			}
		})
	}
	return h.Hub.ApplyPlacement(ctx, p, pre)
}

func (h racingHub) PutAutoUpgradeProfile(ctx context.Context, p hub.AutoUpgradeProfile, pre hub.Precondition) (*hub.AutoUpgradeProfile, error) {
	if pre.IfMatch != "" {
		h.once.Do(func() {
			other := p
			other.Spec.Channel = update.ChannelRapid
			if _, err := h.Hub.PutAutoUpgradeProfile(ctx, other, hub.Precondition{}); err != nil {
				panic(err)
			}
		})
	}
	return h.Hub.PutAutoUpgradeProfile(ctx, p, pre)
}

func (h racingHub) DeleteNodePool(ctx context.Context, cluster, name string, pre hub.Precondition) error {
	if pre.IfMatch != "" {
		h.once.Do(func() {
			np, err := h.Hub.GetNodePool(ctx, cluster, name)
			if err == nil {
				np.Spec.Template.Labels = map[string]string{"changed": "elsewhere"}
				_, err = h.Hub.ApplyNodePool(ctx, *np, hub.Precondition{})
			}
			if err != nil {
				panic(err)
			}
		})
	}
	return h.Hub.DeleteNodePool(ctx, cluster, name, pre)
}

// storedIn checks what the hub of state holds, at the test clock: the mock
// hub, or through the azure block what the emulator and the clusters hold.
func storedIn(t *testing.T, state string) func(check func(h hub.Hub) error) func() {
	return func(check func(h hub.Hub) error) func() {
		return func() {
			if err := check(hubOf(t, state, "", testClock)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// An object changed in the hub between plan and apply gets the conflict
// diagnostic, and the provider's write changes nothing: the other writer's
// version stays, and the next plan shows it.
func TestAccLifecycle_concurrentModificationIsAConflict(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	cfg := providerConfigAt(state, "", testClock)
	stored := storedIn(t, state)
	var placementRace, nodePoolRace sync.Once
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: providersWith(func(h hub.Hub) hub.Hub { return racingHub{h, &placementRace} }), Steps: []resource.TestStep{
		{Config: cfg + simplePlacement("", "")},
		{
			Config:      cfg + simplePlacement("", "revision_history_limit = 5"),
			ExpectError: expectError(`aks_fleet_placement web was changed outside Terraform since it was read — refresh and apply again`),
		},
		{
			// The failed apply wrote nothing: the hub holds the other writer's
			// version, and the refreshed plan shows it against the configuration.
			PreConfig: stored(func(h hub.Hub) error {
				p, err := h.GetPlacement(context.Background(), "web")
				if err != nil {
					return err
				}
				if p.Spec.RevisionHistoryLimit == nil || *p.Spec.RevisionHistoryLimit != 3 {
					return fmt.Errorf("the hub holds %v, want the other writer's 3", p.Spec.RevisionHistoryLimit)
				}
				return nil
			}),
			Config:             cfg + simplePlacement("", "revision_history_limit = 5"),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
		{Config: cfg + simplePlacement("", "revision_history_limit = 5")},
	}})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: providersWith(func(h hub.Hub) hub.Hub { return racingHub{h, &nodePoolRace} }), Steps: []resource.TestStep{
		{Config: cfg + nodePoolConfig(`team = "web"`, `{ nodes = "20%" }`)},
		{
			Config:      cfg,
			ExpectError: expectError(`aks_nap_nodepool aks-east-prod-01/default was changed outside Terraform since it was read`),
		},
		{
			PreConfig: stored(func(h hub.Hub) error {
				np, err := h.GetNodePool(context.Background(), "aks-east-prod-01", "default")
				if err == nil && np.Spec.Template.Labels["changed"] != "elsewhere" {
					err = fmt.Errorf("the hub holds labels %v, want the other writer's", np.Spec.Template.Labels)
				}
				return err // still there, as the other writer left it
			}),
			Config: cfg,
		},
	}})
}

// An object changed outside Terraform before the plan that destroys it is
// destroyed: the plan read the change. Terraform 1.11 plans the destroy of
// a resource removed from the configuration from its state as it was
// before the refresh, so the provider records at plan the version it
// destroys (planDestroy); with the version the refresh had recorded, the
// apply failed as "changed outside Terraform" however often it ran.
func TestAccLifecycle_destroyAfterAChangeOutsideTerraform(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	cfg := providerConfigAt(state, "", testClock)
	stored := storedIn(t, state)
	all := cfg + simplePlacement("", "") + nodePoolConfig(`team = "web"`, `{ nodes = "20%" }`) + `
resource "aks_fleet_update_strategy" "s" {
  name = "s"
  stages {
    name = "one"
    groups {
      name = "g"
    }
  }
}
resource "aks_fleet_autoupgrade_profile" "p" {
  name    = "p"
  channel = "Stable"
}
`
	changeAll := func(h hub.Hub) error {
		ctx, limit := context.Background(), 3
		p, err := h.GetPlacement(ctx, "web")
		if err != nil {
			return err
		}
		p.Spec.RevisionHistoryLimit = &limit
		if _, err := h.ApplyPlacement(ctx, hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: p.Spec}, hub.Precondition{}); err != nil {
			return err
		}
		np, err := h.GetNodePool(ctx, "aks-east-prod-01", "default")
		if err != nil {
			return err
		}
		np.Spec.Template.Labels = map[string]string{"changed": "elsewhere"}
		if _, err := h.ApplyNodePool(ctx, *np, hub.Precondition{}); err != nil {
			return err
		}
		s, err := h.GetUpdateStrategy(ctx, "s")
		if err != nil {
			return err
		}
		s.Spec.Stages[0].Groups[0].Name = "elsewhere"
		if _, err := h.PutUpdateStrategy(ctx, *s, hub.Precondition{}); err != nil {
			return err
		}
		pr, err := h.GetAutoUpgradeProfile(ctx, "p")
		if err != nil {
			return err
		}
		pr.Spec.Channel = update.ChannelRapid
		_, err = h.PutAutoUpgradeProfile(ctx, *pr, hub.Precondition{})
		return err
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{Config: all},
		{PreConfig: stored(changeAll), Config: cfg},
		{
			PreConfig: stored(func(h hub.Hub) error {
				ctx := context.Background()
				var left []string
				if _, err := h.GetPlacement(ctx, "web"); !errors.Is(err, hub.ErrNotFound) {
					left = append(left, fmt.Sprintf("placement (%v)", err))
				}
				if _, err := h.GetNodePool(ctx, "aks-east-prod-01", "default"); !errors.Is(err, hub.ErrNotFound) {
					left = append(left, fmt.Sprintf("NodePool (%v)", err))
				}
				if _, err := h.GetUpdateStrategy(ctx, "s"); !errors.Is(err, hub.ErrNotFound) {
					left = append(left, fmt.Sprintf("update strategy (%v)", err))
				}
				if _, err := h.GetAutoUpgradeProfile(ctx, "p"); !errors.Is(err, hub.ErrNotFound) {
					left = append(left, fmt.Sprintf("auto-upgrade profile (%v)", err))
				}
				if len(left) > 0 {
					return fmt.Errorf("still on the hub: %v", left)
				}
				return nil
			}),
			Config: cfg,
		},
	}})
}

// A destroy planned without a refresh, of an object deleted and created
// again elsewhere under its name, is the conflict: the plan did not read
// the new object, and apply does not delete it (planDestroy records only
// the version of the object last read). Once refreshed, it is destroyed.
func TestAccLifecycle_destroyWithoutRefreshSparesAnObjectCreatedAgain(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	cfg := providerConfigAt(state, "", testClock)
	recreate := func() {
		ctx := context.Background()
		h := hubOf(t, state, "", "2026-11-21T13:00:00Z") // an hour after the first was created
		np, err := h.GetNodePool(ctx, "aks-east-prod-01", "default")
		if err == nil {
			// A hub tells an object from one created again under its name by
			// when it was created, to the second on a Kubernetes API server
			// (creationTimestamp): created again within the same second, it
			// would be taken for the same object.
			if d := time.Until(np.CreatedAt.Add(time.Second)); d > 0 {
				time.Sleep(d)
			}
			err = h.DeleteNodePool(ctx, "aks-east-prod-01", "default", hub.Precondition{})
		}
		if err == nil {
			np.Spec.Template.Labels = map[string]string{"created": "again"}
			_, err = h.ApplyNodePool(ctx, *np, hub.Precondition{})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders,
		AdditionalCLIOptions: &resource.AdditionalCLIOptions{Plan: resource.PlanOptions{NoRefresh: true}}, Steps: []resource.TestStep{
			{Config: cfg + nodePoolConfig(`team = "web"`, `{ nodes = "20%" }`)},
			{
				PreConfig:   recreate,
				Config:      cfg,
				ExpectError: expectError(`aks_nap_nodepool aks-east-prod-01/default was changed outside Terraform since it was read`),
			},
			{RefreshState: true, ExpectNonEmptyPlan: true},
			{Config: cfg},
		}})
}

// The same for an auto-upgrade profile, on both hubs: through the azure block
// the other writer's change makes Resource Manager answer 412 (make acc-azure).
func TestAccLifecycle_concurrentProfileModificationIsAConflict(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	cfg := providerConfigAt(state, "", testClock)
	stored := storedIn(t, state)
	var profileRace sync.Once
	profile := func(disabled bool) string {
		return cfg + fmt.Sprintf("resource \"aks_fleet_autoupgrade_profile\" \"p\" {\n  name     = \"p\"\n  channel  = \"Stable\"\n  disabled = %v\n}\n", disabled)
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: providersWith(func(h hub.Hub) hub.Hub { return racingHub{h, &profileRace} }), Steps: []resource.TestStep{
		{Config: profile(false)},
		{
			Config:      profile(true),
			ExpectError: expectError(`aks_fleet_autoupgrade_profile p was changed outside Terraform since it was read — refresh and apply again`),
		},
		{
			PreConfig: stored(func(h hub.Hub) error {
				p, err := h.GetAutoUpgradeProfile(context.Background(), "p")
				if err == nil && p.Spec.Channel != update.ChannelRapid {
					err = fmt.Errorf("the hub holds %+v, want the other writer's", p.Spec)
				}
				return err
			}),
			Config: profile(true),
		},
	}})
}

// A rule broken beside a value known only after apply is still reported:
// only the rules about the unknown value's own object wait for apply.
func TestAccLifecycle_errorBesideAnUnknownValue(t *testing.T) {
	cfg := providerConfig(t, "")
	unknown := `resource "terraform_data" "v" { input = "web" }`
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
		{
			Config: cfg + unknown + simplePlacement("", `policy {
  placement_type     = "PickN"
  number_of_clusters = 2
  affinity {
      required {
        label_selector {
          match_labels = { team = terraform_data.v.output }
        }
      }
    }
  topology_spread_constraints {
      topology_key = "region"
      when_unsatisfiable = "Sometimes"
    }
}`),
			ExpectError: expectError(`policy.topology_spread_constraints[0].when_unsatisfiable`),
		},
		{
			Config:      cfg + unknown + nodePoolConfig(`team = terraform_data.v.output`, `{ nodes = "150%" }`),
			ExpectError: expectError(`disruption.budgets[0].nodes`),
		},
	}})
}

// A value known only after apply never causes an error that the known value
// would not: rules that switch on it (the placement type, a toleration's
// operator) or count it (a requirement's values against min_values) wait.
func TestAccLifecycle_noFalseErrorsFromUnknownValues(t *testing.T) {
	cfg := providerConfig(t, "")
	for _, c := range []struct{ input, config string }{
		{`"PickFixed"`, simplePlacement("", `policy {
  placement_type = terraform_data.t.output
  cluster_names = ["aks-east-prod-01"]
}`)},
		{`"Exists"`, simplePlacement("", `policy {
  tolerations {
    operator = terraform_data.t.output
  }
}`)},
		{`["D", "E"]`, strings.Replace(nodePoolConfig(`team = "web"`, `{ nodes = "10%" }`), `values = ["D", "E"]`, "values = terraform_data.t.output\n      min_values = 2", 1)},
	} {
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviders, Steps: []resource.TestStep{
			{Config: cfg + `resource "terraform_data" "t" { input = ` + c.input + ` }` + c.config},
		}})
	}
}

// conditionalWrite retries only when nothing but status moved the ETag:
// the same object (created at the same instant) with the spec last read —
// again when a status write slips in between its read and its write (the
// emulator's fleetsim writes a placement's status twice in a row), at most
// statusRetries times.
func TestConditionalWrite(t *testing.T) {
	created := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	saved := objectVersion{ETag: `"1"`, CreatedAt: created}
	moving := make([]hub.Meta, 8) // status written before every read
	for i := range moving {
		moving[i] = hub.Meta{ETag: fmt.Sprintf(`"%d"`, 10+i), CreatedAt: created}
	}
	cases := []struct {
		name     string
		current  []hub.Meta // what the hub holds from the start, then after each read
		sameSpec bool
		wantErr  error
		wantSent []string // the If-Match of each attempt
	}{
		{"unchanged", []hub.Meta{{ETag: `"1"`, CreatedAt: created}}, true, nil, []string{`"1"`}},
		{"status written since the read", []hub.Meta{{ETag: `"7"`, CreatedAt: created}}, true, nil, []string{`"1"`, `"7"`}},
		{"status written again before the retry", []hub.Meta{{ETag: `"7"`, CreatedAt: created}, {ETag: `"8"`, CreatedAt: created}}, true, nil,
			[]string{`"1"`, `"7"`, `"8"`}},
		{"status never settles", moving, true, hub.ErrPreconditionFailed, []string{`"1"`, `"10"`, `"11"`, `"12"`, `"13"`, `"14"`}},
		{"spec changed since the read", []hub.Meta{{ETag: `"9"`, CreatedAt: created}}, false, hub.ErrPreconditionFailed, []string{`"1"`}},
		{"deleted and created again, same spec", []hub.Meta{{ETag: `"3"`, CreatedAt: created.Add(time.Hour)}}, true, hub.ErrPreconditionFailed, []string{`"1"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sent []string
			ver := 0 // the hub holds c.current[ver]; a status write follows each read, while there is a next one
			write := func(pre hub.Precondition) error {
				sent = append(sent, pre.IfMatch)
				if pre.IfMatch != c.current[ver].ETag {
					return hub.ErrPreconditionFailed
				}
				return nil
			}
			read := func() (hub.Meta, bool, error) {
				m := c.current[ver]
				ver = min(ver+1, len(c.current)-1)
				return m, c.sameSpec, nil
			}
			err := conditionalWrite(saved, read, write)
			if !errors.Is(err, c.wantErr) || (c.wantErr == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, c.wantErr)
			}
			if strings.Join(sent, " ") != strings.Join(c.wantSent, " ") {
				t.Fatalf("sent %v, want %v", sent, c.wantSent)
			}
		})
	}
	// A state from before versions were recorded writes unconditionally, once.
	calls := 0
	err := conditionalWrite(objectVersion{}, func() (hub.Meta, bool, error) { t.Fatal("no read expected"); return hub.Meta{}, false, nil },
		func(pre hub.Precondition) error { calls++; return nil })
	if err != nil || calls != 1 {
		t.Fatalf("unversioned write: %v after %d calls", err, calls)
	}
}

// Import from a hub that fills in defaults records the shortest form (the
// defaults dropped): a configuration that leaves them out plans nothing.
func TestAccLifecycle_importFromADefaultingHubConverges(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	seed := func() {
		h := hubOf(t, state, "", testClock)
		n := 2
		spec := placement.Spec{Name: "web", ResourceSelectors: []placement.ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}},
			Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n}}
		if _, err := hubtest.Defaulting(h).ApplyPlacement(context.Background(), hub.Placement{Meta: hub.Meta{Name: "web"}, Spec: spec}, hub.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: providersWith(hubtest.Defaulting), Steps: []resource.TestStep{{
		PreConfig: seed,
		Config: providerConfigAt(state, "", testClock) + `
import {
  to = aks_fleet_placement.test
  id = "web"
}` + simplePlacement("", `policy {
  placement_type = "PickN"
  number_of_clusters = 2
}`),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(plAddr, plancheck.ResourceActionNoop)}},
		// plugin-testing then requires the refreshed plan to be empty.
	}}})
}

// adoptSpec drops exactly the values that are defaults the practitioner did
// not write.
func TestAdoptSpec(t *testing.T) {
	n, five, ten := 2, 5, 10
	written := placement.Spec{Name: "web", Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &n}, RevisionHistoryLimit: &ten}
	live := placement.WithDefaults(written)
	live.Policy.NumberOfClusters = &five // changed outside Terraform
	got := adoptSpec(live, written, placement.WithDefaults)
	want := placement.Spec{Name: "web", Policy: placement.Policy{PlacementType: placement.PickN, NumberOfClusters: &five}, RevisionHistoryLimit: &ten}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("adopted %+v\nwant %+v", got, want)
	}
	// On import nothing is known of the practitioner's form: the shortest is recorded.
	imported := placement.WithDefaults(placement.Spec{Name: "web", RevisionHistoryLimit: &five})
	if got := adoptSpec(imported, placement.Spec{}, placement.WithDefaults); !reflect.DeepEqual(got, placement.Spec{Name: "web", RevisionHistoryLimit: &five}) {
		t.Fatalf("imported %+v", got)
	}
}

// Specs compare with defaults applied and empty collections equal to absent
// ones, except where the engine marks the difference (empty:"distinct").
func TestSameSpec(t *testing.T) {
	empty := nodepool.NodePool{Template: nodepool.Template{Labels: map[string]string{}, Requirements: []nodepool.Requirement{}}}
	if !sameSpec(empty, nodepool.NodePool{}, nodepool.WithDefaults) {
		t.Error("labels = {} and requirements = [] must equal unset ones")
	}
	unlimited := nodepool.NodePool{Disruption: &nodepool.Disruption{Budgets: []nodepool.Budget{}}}
	if sameSpec(unlimited, nodepool.NodePool{Disruption: &nodepool.Disruption{}}, nodepool.WithDefaults) {
		t.Error("budgets = [] (unlimited) must differ from unset budgets (10%)")
	}
	none := nodepool.NodePool{Disruption: &nodepool.Disruption{Budgets: []nodepool.Budget{{Reasons: []string{}}}}}
	all := nodepool.NodePool{Disruption: &nodepool.Disruption{Budgets: []nodepool.Budget{{}}}}
	if sameSpec(none, all, nodepool.WithDefaults) {
		t.Error("reasons = [] (none) must differ from unset reasons (all)")
	}
	if !sameSpec(placement.Spec{Policy: placement.Policy{Tolerations: []placement.Toleration{}}}, placement.Spec{}, placement.WithDefaults) {
		t.Error("tolerations = [] must equal unset tolerations")
	}
}

// omitEmptyHub returns specs as a Go client with omitempty tags does: empty
// maps and lists come back absent.
type omitEmptyHub struct{ hub.Hub }

func (h omitEmptyHub) GetNodePool(ctx context.Context, cluster, name string) (*hub.NodePool, error) {
	return withoutEmptyLabels(h.Hub.GetNodePool(ctx, cluster, name))
}

func (h omitEmptyHub) ApplyNodePool(ctx context.Context, np hub.NodePool, pre hub.Precondition) (*hub.NodePool, error) {
	return withoutEmptyLabels(h.Hub.ApplyNodePool(ctx, np, pre))
}

func withoutEmptyLabels(np *hub.NodePool, err error) (*hub.NodePool, error) {
	if np != nil && len(np.Spec.Template.Labels) == 0 {
		np.Spec.Template.Labels = nil
	}
	return np, err
}

// `labels = {}` against such a hub plans nothing after apply.
func TestAccLifecycle_emptyCollectionsAgainstAnOmitEmptyHub(t *testing.T) {
	cfg := providerConfig(t, "")
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: providersWith(func(h hub.Hub) hub.Hub { return omitEmptyHub{h} }), Steps: []resource.TestStep{
		{Config: cfg + nodePoolConfig(``, `{ nodes = "20%" }`)},
	}})
}

// A create that finds the name taken at apply (someone created the object
// after the plan) says how to import it, as the plan does when it finds it:
// an import block with the resource type and id, no placeholder address.
func TestHubErrorOfATakenNameAtApply(t *testing.T) {
	var diags diag.Diagnostics
	hubError(&diags, opCreate, objectRef{Kind: "aks_fleet_placement", ID: "web"}, hub.ErrPreconditionFailed)
	if len(diags) != 1 {
		t.Fatalf("%d diagnostics", len(diags))
	}
	got := diags[0].Summary() + ": " + diags[0].Detail()
	for _, want := range []string{"Already exists", "to = aks_fleet_placement.<this resource's name>", `id = "web"`,
		"terraform import aks_fleet_placement.<this resource's name> web"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q does not say %q", got, want)
		}
	}
	if strings.Contains(got, "<address>") {
		t.Errorf("%q names a placeholder address", got)
	}
}
