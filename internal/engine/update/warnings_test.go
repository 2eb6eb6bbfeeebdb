package update

import (
	"reflect"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// warnFleet is the fleet the warning cases are evaluated on: every member in
// a group of okStrategy, and a Kubernetes catalog of 1.30 and 1.31 (1.32 in
// preview only, 1.33 GA but dated in the future).
func warnFleet() *fleet.Fleet {
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	rel := func(v string, preview bool, at time.Time) fleet.KubernetesRelease {
		return fleet.KubernetesRelease{Version: v, Preview: preview, ReleasedAt: at}
	}
	f := &fleet.Fleet{
		Regions: []fleet.Region{
			{Name: "eastus", KubernetesVersions: []fleet.KubernetesRelease{rel("1.30.6", false, day), rel("1.33.0", false, day.AddDate(5, 0, 0))}},
			{Name: "westeurope", KubernetesVersions: []fleet.KubernetesRelease{rel("1.30.5", false, day), rel("1.31.2", false, day), rel("1.32.0", true, day)}},
		},
		Clusters: []fleet.Cluster{
			{Name: "canary-1", Group: "canary"},
			{Name: "eu-1", Group: "prod-eu"},
			{Name: "eu-2", Group: "prod-eu"},
			{Name: "eu-3", Group: "prod-eu"},
			{Name: "us-1", Group: "prod-us"},
		},
	}
	f.Sort()
	return f
}

// strategyWarningCases are changes of okStrategy and the warnings they get on
// warnFleet. RunWarnings gives the same for a run with these stages.
var strategyWarningCases = []struct {
	name   string
	mutate func(*Strategy)
	want   []enginetest.WantWarning // in the order the warnings come
}{
	{"nothing to warn about", func(*Strategy) {}, nil},
	{"group prodd", func(s *Strategy) { s.Stages[1].Groups = append(s.Stages[1].Groups, Group{Name: "prodd"}) }, []enginetest.WantWarning{
		{ID: WarnGroupWithoutMembers, Path: "stages[1].groups[2].name",
			Contains: `no member of the fleet is in update group "prodd", so the service rejects a run that uses it; the fleet's groups are canary, prod-eu, prod-us. Set the group`},
	}},
	{"concurrency above the members of a group", func(s *Strategy) { s.Stages[1].Groups[0].MaxConcurrency = "4" }, []enginetest.WantWarning{
		{ID: WarnGroupConcurrencyAboveMembers, Path: "stages[1].groups[0].max_concurrency",
			Contains: `max_concurrency 4 exceeds the 3 member(s) of group "prod-eu", and the service rejects a group's max_concurrency above its member count; use at most 3`},
	}},
	{"concurrency at the members of a group", func(s *Strategy) { s.Stages[1].Groups[0].MaxConcurrency = "3" }, nil},
	{"members in no stage", func(s *Strategy) { s.Stages = s.Stages[:1] }, []enginetest.WantWarning{
		{ID: WarnMembersNotInStrategy, Path: "stages",
			Contains: `4 member(s) of the fleet are in no group of these stages and are never upgraded by it: eu-1 (group "prod-eu"), eu-2 (group "prod-eu"), eu-3 (group "prod-eu"), us-1 (group "prod-us"). Add their groups`},
	}},
	{"every warning", func(s *Strategy) {
		s.Stages[0].Groups[0].MaxConcurrency = "2"
		s.Stages[1].Groups[1].Name = "prod-usa"
	}, []enginetest.WantWarning{
		{ID: WarnGroupConcurrencyAboveMembers, Path: "stages[0].groups[0].max_concurrency", Contains: `max_concurrency 2 exceeds the 1 member(s) of group "canary"`},
		{ID: WarnGroupWithoutMembers, Path: "stages[1].groups[1].name", Contains: `update group "prod-usa"`},
		{ID: WarnMembersNotInStrategy, Path: "stages", Contains: `1 member(s) of the fleet are in no group of these stages and are never upgraded by it: us-1 (group "prod-us")`},
	}},
}

func TestStrategyWarnings(t *testing.T) {
	f := warnFleet()
	for _, tc := range strategyWarningCases {
		t.Run(tc.name, func(t *testing.T) {
			s := okStrategy()
			tc.mutate(&s)
			if errs := ValidateStrategy(s); len(errs) > 0 {
				t.Fatalf("the case must be valid: %v", errs)
			}
			enginetest.CheckWarnings(t, StrategyWarnings(s, f), tc.want)

			r := okRun()
			r.Strategy = &s
			enginetest.CheckWarnings(t, RunWarnings(r, f), tc.want)

			if ws := StrategyWarnings(s, nil); len(ws) > 0 {
				t.Errorf("no fleet, no warnings: %v", ws)
			}
		})
	}
}

func TestStrategyWarningsListFiveMembers(t *testing.T) {
	f := &fleet.Fleet{}
	for _, n := range []string{"m1", "m2", "m3", "m4", "m5", "m6", "m7"} {
		f.Clusters = append(f.Clusters, fleet.Cluster{Name: n})
	}
	enginetest.CheckWarnings(t, StrategyWarnings(stages(Stage{Name: "all", Groups: []Group{{Name: "all"}}}), f), []enginetest.WantWarning{
		{ID: WarnGroupWithoutMembers, Path: "stages[0].groups[0].name", Contains: `update group "all", so the service rejects a run that uses it; no member of the fleet has a group`},
		{ID: WarnMembersNotInStrategy, Path: "stages", Contains: "7 member(s) of the fleet are in no group of these stages and are never upgraded by it: " +
			"m1 (no group), m2 (no group), m3 (no group), m4 (no group), m5 (no group) and 2 more."},
	})
}

func TestRunWarningsWithoutStages(t *testing.T) {
	f := warnFleet()
	for name, r := range map[string]RunSpec{
		"one by one":            {ManagedClusterUpdate: ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeNodeImageOnly}}},
		"a referenced strategy": {UpdateStrategyID: "prodd", ManagedClusterUpdate: ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeNodeImageOnly}}},
	} {
		if ws := RunWarnings(r, f); len(ws) > 0 {
			t.Errorf("%s: %v", name, ws)
		}
	}
}

// profileWarningCases are profiles and the warnings they get on warnFleet.
var profileWarningCases = []struct {
	name    string
	profile ProfileSpec
	want    []enginetest.WantWarning
}{
	{"Stable without a strategy", ProfileSpec{Channel: ChannelStable}, nil},
	{"target version GA", ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.31"}, nil},
	// Warnings read no clock: a GA release dated in the future counts.
	{"target version GA later", ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.33"}, nil},
	{"disabled", ProfileSpec{Channel: ChannelRapid, Disabled: true}, []enginetest.WantWarning{
		{ID: WarnProfileDisabled, Path: "disabled", Contains: "the profile is disabled: it never triggers an update run when a new version enters its channel"},
	}},
	{"target version not in the catalog", ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.29"}, []enginetest.WantWarning{
		{ID: WarnTargetVersionNotInCatalog, Path: "target_kubernetes_version",
			Contains: "no region of the fleet has a generally available Kubernetes 1.29 release (generally available minors: 1.33, 1.31, 1.30), so the profile has nothing to upgrade to and triggers no update run until one is released"},
	}},
	{"target version in preview only", ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.32", Disabled: true}, []enginetest.WantWarning{
		{ID: WarnProfileDisabled, Path: "disabled", Contains: "never triggers"},
		{ID: WarnTargetVersionNotInCatalog, Path: "target_kubernetes_version", Contains: "Kubernetes 1.32 release"},
	}},
}

func TestProfileWarnings(t *testing.T) {
	f := warnFleet()
	for _, tc := range profileWarningCases {
		t.Run(tc.name, func(t *testing.T) {
			if errs := ValidateProfile(tc.profile); len(errs) > 0 {
				t.Fatalf("the case must be valid: %v", errs)
			}
			enginetest.CheckWarnings(t, ProfileWarnings(tc.profile, f), tc.want)
			// Without the fleet, only the warnings that do not need it.
			var without []enginetest.WantWarning
			for _, w := range tc.want {
				if w.ID == WarnProfileDisabled {
					without = append(without, w)
				}
			}
			enginetest.CheckWarnings(t, ProfileWarnings(tc.profile, nil), without)
		})
	}
	// A fleet without a Kubernetes catalog says nothing about versions.
	noCatalog := &fleet.Fleet{Regions: []fleet.Region{{Name: "eastus"}}}
	if ws := ProfileWarnings(ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.29"}, noCatalog); len(ws) > 0 {
		t.Errorf("no catalog: %v", ws)
	}
	// A catalog of previews only.
	previews := &fleet.Fleet{Regions: []fleet.Region{{Name: "eastus", KubernetesVersions: []fleet.KubernetesRelease{{Version: "1.34.0", Preview: true}}}}}
	enginetest.CheckWarnings(t, ProfileWarnings(ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.34"}, previews), []enginetest.WantWarning{
		{ID: WarnTargetVersionNotInCatalog, Path: "target_kubernetes_version", Contains: "(the catalog has no generally available version)"},
	})
}

// TestWarningsDoNotModifyTheFleet: the engines never mutate the fleet.
func TestWarningsDoNotModifyTheFleet(t *testing.T) {
	f := warnFleet()
	before := enginetest.DeepCopy(*f)
	s := okStrategy()
	s.Stages = s.Stages[:1]
	_ = StrategyWarnings(s, f)
	_ = ProfileWarnings(ProfileSpec{Channel: ChannelTargetKubernetesVersion, TargetKubernetesVersion: "1.29"}, f)
	if !reflect.DeepEqual(before, *f) {
		t.Error("warnings modified the fleet")
	}
}

// A run's kubernetes_version: a leading v is read, and flagged; a version
// no region has released (not even in preview) is flagged with the newest
// release; a minor that some region has, or a released patch, is not.
func TestRunUpgradeWarnings(t *testing.T) {
	f := warnFleet()
	run := func(v string) RunSpec {
		return RunSpec{ManagedClusterUpdate: ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeFull, KubernetesVersion: v}}}
	}
	enginetest.CheckWarnings(t, RunWarnings(run("v1.31.2"), f), []enginetest.WantWarning{
		{ID: WarnVersionLeadingV, Path: "upgrade.kubernetes_version", Contains: `write "1.31.2"`}})
	enginetest.CheckWarnings(t, RunWarnings(run("1.35.0"), f), []enginetest.WantWarning{
		{ID: WarnVersionNotReleased, Path: "upgrade.kubernetes_version", Contains: "Kubernetes 1.35.0, not even in preview (the newest release is 1.33.0)"}})
	enginetest.CheckWarnings(t, RunWarnings(run("V1.36"), f), []enginetest.WantWarning{
		{ID: WarnVersionLeadingV, Path: "upgrade.kubernetes_version"},
		{ID: WarnVersionNotReleased, Path: "upgrade.kubernetes_version", Contains: "Kubernetes 1.36"}})
	for _, v := range []string{"1.31.2", "1.32.0", "1.33", "1.30"} { // released; in preview; a minor some region has
		enginetest.CheckWarnings(t, RunWarnings(run(v), f), nil)
	}
	enginetest.CheckWarnings(t, RunWarnings(run("1.35.0"), &fleet.Fleet{Regions: []fleet.Region{{Name: "eastus"}}}), nil) // no catalog: nothing to say
}
