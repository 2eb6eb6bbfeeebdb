package update

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

const armStrategyID = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-fleet/providers/Microsoft.ContainerService/fleets/fleet-1/updateStrategies/canary-first"

// okStrategy is a valid strategy that uses every attribute: gates with and
// without a type, a wait, integer and percentage concurrency.
func okStrategy() Strategy {
	return Strategy{Stages: []Stage{
		{
			Name:                    "canary",
			Groups:                  []Group{{Name: "canary", MaxConcurrency: "1", BeforeGates: []Gate{{Type: GateTypeApproval, DisplayName: "Ready to start?"}}}},
			AfterStageWaitInSeconds: WaitSeconds(3600),
			AfterGates:              []Gate{{DisplayName: "Canary looks good"}},
		},
		{
			Name:           "prod",
			MaxConcurrency: "10",
			Groups:         []Group{{Name: "prod-eu", MaxConcurrency: "25%"}, {Name: "prod-us"}},
		},
	}}
}

// okRun is a valid run with inline stages.
func okRun() RunSpec {
	s := okStrategy()
	return RunSpec{Strategy: &s, ManagedClusterUpdate: ManagedClusterUpdate{
		Upgrade:            Upgrade{Type: UpgradeFull, KubernetesVersion: "1.31.2"},
		NodeImageSelection: NodeImageSelection{Type: NodeImageConsistent},
	}}
}

// okProfile is a valid profile that uses every attribute.
func okProfile() ProfileSpec {
	return ProfileSpec{Channel: ChannelTargetKubernetesVersion, UpdateStrategyID: armStrategyID, NodeImageSelectionType: NodeImageConsistent,
		TargetKubernetesVersion: "1.30", LongTermSupport: true}
}

// ruleCase is a change that breaks one rule: the error expected at path,
// with rule id and a part of its message.
type ruleCase[T any] struct {
	name     string
	mutate   func(*T)
	path, id string
	contains string
}

// validCase is a change that keeps the spec valid.
type validCase[T any] struct {
	name   string
	mutate func(*T)
}

func stages(ss ...Stage) Strategy { return Strategy{Stages: ss} }

func groupsNamed(n int) []Group {
	gs := make([]Group, n)
	for i := range gs {
		gs[i] = Group{Name: "g" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + string(rune('a'+i/26))}
	}
	return gs
}

var strategyRuleCases = []ruleCase[Strategy]{
	{"no stages", func(s *Strategy) { s.Stages = nil }, "stages", RuleStagesRequired, "at least one stage is required. Add a stage"},
	{"empty stages", func(s *Strategy) { s.Stages = []Stage{} }, "stages", RuleStagesRequired, "at least one stage is required"},
	{"stage name Stage_1", func(s *Strategy) { s.Stages[0].Name = "Stage_1" }, "stages[0].name", RuleName,
		`stage name "Stage_1" may contain only lower-case letters, digits and '-'`},
	{"stage name missing", func(s *Strategy) { s.Stages[1].Name = "" }, "stages[1].name", RuleName, `stage name "" is required. Use 1 to 50`},
	{"stage name too long", func(s *Strategy) { s.Stages[0].Name = strings.Repeat("a", 51) }, "stages[0].name", RuleName, "is 51 characters long; at most 50"},
	{"stage name ends with a dash", func(s *Strategy) { s.Stages[0].Name = "canary-" }, "stages[0].name", RuleName, `stage name "canary-" must start and end with a lower-case letter or a digit`},
	{"stage names repeat", func(s *Strategy) { s.Stages[1].Name = "canary" }, "stages[1].name", RuleStageNameUnique,
		`stage name "canary" is already used by stages[0]: stage names must be unique. Give each stage its own name`},
	{"stage without groups", func(s *Strategy) { s.Stages[0].Groups = nil }, "stages[0].groups", RuleGroupsPerStage,
		`stage "canary" has no groups: a stage needs 1 to 50. Add at least one group`},
	{"stage with 51 groups", func(s *Strategy) { s.Stages = []Stage{{Name: "big", Groups: groupsNamed(51)}} }, "stages[0].groups", RuleGroupsPerStage,
		`stage "big" has 51 groups: at most 50 are allowed. Split the groups`},
	{"group name Prod_EU", func(s *Strategy) { s.Stages[1].Groups[0].Name = "Prod_EU" }, "stages[1].groups[0].name", RuleName, `group name "Prod_EU" may contain only`},
	{"group in two stages", func(s *Strategy) { s.Stages[1].Groups[1].Name = "canary" }, "stages[1].groups[1].name", RuleGroupOnce,
		`group "canary" is already in stage "canary" (stages[0].groups[0]) and appears again in stage "prod": a group may appear in only one stage. Keep the group in one stage only`},
	{"group twice in a stage", func(s *Strategy) { s.Stages[1].Groups[1].Name = "prod-eu" }, "stages[1].groups[1].name", RuleGroupOnce,
		`group "prod-eu" appears twice in stage "prod" (groups[0] and groups[1])`},
	{"stage max_concurrency 0", func(s *Strategy) { s.Stages[1].MaxConcurrency = "0" }, "stages[1].max_concurrency", RuleMaxConcurrency,
		`"0" is not a max_concurrency: it must be a whole number from 1, or a percentage from 1% to 100%. Use a whole number`},
	{"group max_concurrency 0", func(s *Strategy) { s.Stages[1].Groups[0].MaxConcurrency = "0" }, "stages[1].groups[0].max_concurrency", RuleMaxConcurrency, `"0" is not a max_concurrency`},
	{"max_concurrency 0%", func(s *Strategy) { s.Stages[1].MaxConcurrency = "0%" }, "stages[1].max_concurrency", RuleMaxConcurrency, `"0%" is not`},
	{"max_concurrency 101%", func(s *Strategy) { s.Stages[1].MaxConcurrency = "101%" }, "stages[1].max_concurrency", RuleMaxConcurrency, `"101%" is not`},
	{"max_concurrency with a leading zero", func(s *Strategy) { s.Stages[1].Groups[0].MaxConcurrency = "05" }, "stages[1].groups[0].max_concurrency", RuleMaxConcurrency, `"05" is not`},
	{"max_concurrency negative", func(s *Strategy) { s.Stages[1].MaxConcurrency = "-1" }, "stages[1].max_concurrency", RuleMaxConcurrency, `"-1" is not`},
	{"max_concurrency fraction", func(s *Strategy) { s.Stages[1].Groups[0].MaxConcurrency = "1.5" }, "stages[1].groups[0].max_concurrency", RuleMaxConcurrency, `"1.5" is not`},
	{"stage max_concurrency 51", func(s *Strategy) { s.Stages[1].MaxConcurrency = "51" }, "stages[1].max_concurrency", RuleStageMaxConcurrency,
		"a stage's max_concurrency cannot exceed the system limit of 50, got 51. Use at most 50"},
	{"stage max_concurrency overflowing", func(s *Strategy) { s.Stages[1].MaxConcurrency = "99999999999999999999999" }, "stages[1].max_concurrency", RuleStageMaxConcurrency, "system limit of 50"},
	{"group above its stage", func(s *Strategy) { s.Stages[1].Groups[1].MaxConcurrency = "11" }, "stages[1].groups[1].max_concurrency", RuleGroupMaxConcurrency,
		`a group's max_concurrency cannot exceed its stage's: got 11, the stage's is "10". Use at most 10, or raise the stage's max_concurrency`},
	{"group above the default stage value", func(s *Strategy) {
		s.Stages[1].MaxConcurrency = ""
		s.Stages[1].Groups[1].MaxConcurrency = "51"
	}, "stages[1].groups[1].max_concurrency", RuleGroupMaxConcurrency, "cannot exceed its stage's, which is at most 50, got 51"},
	{"group above 50 in a percentage stage", func(s *Strategy) {
		s.Stages[1].MaxConcurrency = "50%"
		s.Stages[1].Groups[1].MaxConcurrency = "60"
	}, "stages[1].groups[1].max_concurrency", RuleGroupMaxConcurrency, "which is at most 50, got 60"},
	{"negative wait", func(s *Strategy) { s.Stages[1].AfterStageWaitInSeconds = WaitSeconds(-1) }, "stages[1].after_stage_wait_in_seconds", RuleAfterStageWait,
		"after_stage_wait_in_seconds must be from 0 to 2147483647, got -1. Give a number of seconds"},
	{"wait beyond int32", func(s *Strategy) { s.Stages[0].AfterStageWaitInSeconds = WaitSeconds(math.MaxInt32 + 1) }, "stages[0].after_stage_wait_in_seconds", RuleAfterStageWait, "got 2147483648"},
	{"gate type Manual", func(s *Strategy) { s.Stages[0].Groups[0].BeforeGates[0].Type = "Manual" }, "stages[0].groups[0].before_gates[0].type", RuleGateType,
		`"Manual" is not a gate type: the only gate type is Approval. Use type Approval, or omit type`},
	{"gate type ScheduledStart", func(s *Strategy) { s.Stages[1].BeforeGates = []Gate{{Type: "ScheduledStart"}} }, "stages[1].before_gates[0].type", RuleGateType,
		"gate type ScheduledStart exists only in preview API versions"},
	{"gate display name of 101 characters", func(s *Strategy) { s.Stages[0].AfterGates[0].DisplayName = strings.Repeat("é", 101) }, "stages[0].after_gates[0].display_name", RuleGateDisplayName,
		"display_name is 101 characters long: at most 100 are allowed. Shorten the display name"},
	{"group gate display name too long", func(s *Strategy) {
		s.Stages[1].Groups[1].AfterGates = []Gate{{DisplayName: strings.Repeat("x", 150)}}
	}, "stages[1].groups[1].after_gates[0].display_name", RuleGateDisplayName, "display_name is 150 characters long"},
}

var strategyValidCases = []validCase[Strategy]{
	{"as written", func(*Strategy) {}},
	{"one stage of one group", func(s *Strategy) { *s = stages(Stage{Name: "all", Groups: []Group{{Name: "all"}}}) }},
	{"50 groups", func(s *Strategy) { *s = stages(Stage{Name: "big", Groups: groupsNamed(50)}) }},
	{"a percentage group in an integer stage", func(s *Strategy) { s.Stages[1].Groups[1].MaxConcurrency = "100%" }},
	{"an integer group in a percentage stage", func(s *Strategy) {
		s.Stages[1].MaxConcurrency = "5%"
		s.Stages[1].Groups[1].MaxConcurrency = "50"
	}},
	{"a group at its stage's value", func(s *Strategy) { s.Stages[1].Groups[1].MaxConcurrency = "10" }},
	{"a group of 50 in a default stage", func(s *Strategy) {
		s.Stages[1].MaxConcurrency = ""
		s.Stages[1].Groups[1].MaxConcurrency = "50"
	}},
	{"stage max_concurrency 50", func(s *Strategy) { s.Stages[1].MaxConcurrency = "50" }},
	{"the longest wait", func(s *Strategy) { s.Stages[1].AfterStageWaitInSeconds = WaitSeconds(math.MaxInt32) }},
	{"a display name of 100 characters", func(s *Strategy) { s.Stages[0].AfterGates[0].DisplayName = strings.Repeat("é", 100) }},
	{"names of 50 characters", func(s *Strategy) { s.Stages[0].Name = strings.Repeat("a", 49) + "1" }},
	{"empty lists", func(s *Strategy) {
		s.Stages[1].BeforeGates, s.Stages[1].AfterGates = []Gate{}, []Gate{}
		s.Stages[1].Groups[1].BeforeGates = []Gate{}
	}},
}

var runRuleCases = []ruleCase[RunSpec]{
	{"update_strategy_id and stages", func(r *RunSpec) { r.UpdateStrategyID = "canary-first" }, "update_strategy_id", RuleStrategyIDOrStages,
		"update_strategy_id and stages are both set: a run takes its order from one or the other. Remove update_strategy_id"},
	{"update_strategy_id not a name", func(r *RunSpec) { r.Strategy, r.UpdateStrategyID = nil, "Canary" }, "update_strategy_id", RuleStrategyID,
		`"Canary" is not an update strategy name: a name may contain only lower-case letters, digits and '-'. Give the strategy's name, e.g. "canary-first", or its ARM id /subscriptions/<subscription>/resourceGroups/<resource group>/providers/Microsoft.ContainerService/fleets/<fleet>/updateStrategies/<name>`},
	{"update_strategy_id of a member", func(r *RunSpec) {
		r.Strategy, r.UpdateStrategyID = nil, strings.Replace(armStrategyID, "updateStrategies/canary-first", "members/m1", 1)
	}, "update_strategy_id", RuleStrategyID, `has "members" where updateStrategies belongs`},
	{"update_strategy_id truncated", func(r *RunSpec) { r.Strategy, r.UpdateStrategyID = nil, "/subscriptions/s/resourceGroups/rg" }, "update_strategy_id", RuleStrategyID,
		"is neither an update strategy name nor an update strategy's ARM id"},
	{"update_strategy_id of another provider", func(r *RunSpec) {
		r.Strategy, r.UpdateStrategyID = nil, strings.Replace(armStrategyID, "Microsoft.ContainerService", "Microsoft.Compute", 1)
	}, "update_strategy_id", RuleStrategyID, `has "Microsoft.Compute" where Microsoft.ContainerService belongs`},
	{"update_strategy_id with an invalid strategy name", func(r *RunSpec) { r.Strategy, r.UpdateStrategyID = nil, armStrategyID+"-" }, "update_strategy_id", RuleStrategyID,
		`the strategy name "canary-first-" must start and end with a lower-case letter or a digit`},
	{"update_strategy_id with an invalid fleet name", func(r *RunSpec) {
		r.Strategy, r.UpdateStrategyID = nil, strings.Replace(armStrategyID, "fleet-1", "Fleet_1", 1)
	}, "update_strategy_id", RuleStrategyID, `the fleet name "Fleet_1" may contain only`},
	{"update_strategy_id without a subscription", func(r *RunSpec) {
		r.Strategy, r.UpdateStrategyID = nil, strings.Replace(armStrategyID, "00000000-0000-0000-0000-000000000001", "", 1)
	}, "update_strategy_id", RuleStrategyID, "the subscription is empty"},
	{"update_strategy_id without a resource group", func(r *RunSpec) {
		r.Strategy, r.UpdateStrategyID = nil, strings.Replace(armStrategyID, "rg-fleet", "", 1)
	}, "update_strategy_id", RuleStrategyID, "the resource group is empty"},
	{"inline strategy without stages", func(r *RunSpec) { r.Strategy = &Strategy{} }, "stages", RuleStagesRequired,
		"at least one stage is required. Add a stage with at least one group, or remove stages to update every member one by one"},
	{"inline stage rule", func(r *RunSpec) { r.Strategy.Stages[1].Groups[1].MaxConcurrency = "20" }, "stages[1].groups[1].max_concurrency", RuleGroupMaxConcurrency, "cannot exceed its stage's"},
	{"inline gate rule", func(r *RunSpec) { r.Strategy.Stages[0].Groups[0].BeforeGates[0].Type = "approval" }, "stages[0].groups[0].before_gates[0].type", RuleGateType, `"approval" is not a gate type`},
	{"upgrade type missing", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade.Type = "" }, "upgrade.type", RuleUpgradeType,
		"upgrade.type is required. Set Full (control plane and node images), ControlPlaneOnly or NodeImageOnly"},
	{"upgrade type unknown", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade.Type = "Patch" }, "upgrade.type", RuleUpgradeType,
		`"Patch" is not an upgrade type. Use one of Full, ControlPlaneOnly, NodeImageOnly`},
	{"Full without a version", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade.KubernetesVersion = "" }, "upgrade.kubernetes_version", RuleKubernetesVersion,
		`upgrade type Full needs a kubernetes_version. Set the Kubernetes version to upgrade to, e.g. "1.31.2"`},
	{"ControlPlaneOnly without a version", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade = Upgrade{Type: UpgradeControlPlaneOnly} }, "upgrade.kubernetes_version", RuleKubernetesVersion,
		"upgrade type ControlPlaneOnly needs a kubernetes_version"},
	{"NodeImageOnly with a version", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade.Type = UpgradeNodeImageOnly }, "upgrade.kubernetes_version", RuleKubernetesVersion,
		"upgrade type NodeImageOnly takes no kubernetes_version: it upgrades node images only. Remove kubernetes_version"},
	{"version with a suffix", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade.KubernetesVersion = "1.31.2-beta" }, "upgrade.kubernetes_version", RuleKubernetesVersion,
		`"1.31.2-beta" is not a Kubernetes version. Write major.minor.patch`},
	{"version of one number", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade.KubernetesVersion = "1" }, "upgrade.kubernetes_version", RuleKubernetesVersion, `"1" is not a Kubernetes version`},
	{"node image selection type unknown", func(r *RunSpec) { r.ManagedClusterUpdate.NodeImageSelection.Type = "Newest" }, "node_image_selection.type", RuleNodeImageSelectionType,
		`"Newest" is not a node image selection type. Use one of Latest, Consistent, Custom`},
	{"Custom without versions", func(r *RunSpec) { r.ManagedClusterUpdate.NodeImageSelection.Type = NodeImageCustom }, "node_image_selection.custom_node_image_versions", RuleCustomNodeImageVersions,
		"node image selection type Custom needs custom_node_image_versions. List one node image version per image family"},
	{"Custom with an empty list", func(r *RunSpec) {
		r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{Type: NodeImageCustom, CustomNodeImageVersions: []string{}}
	}, "node_image_selection.custom_node_image_versions", RuleCustomNodeImageVersions, "needs custom_node_image_versions"},
	{"Consistent with versions", func(r *RunSpec) {
		r.ManagedClusterUpdate.NodeImageSelection.CustomNodeImageVersions = []string{"AKSUbuntu-2204gen2containerd-202611.03.0"}
	}, "node_image_selection.custom_node_image_versions", RuleCustomNodeImageVersions,
		"custom_node_image_versions is only for node image selection type Custom, the type is Consistent. Remove custom_node_image_versions, or set type = Custom"},
	{"default type with versions", func(r *RunSpec) {
		r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{CustomNodeImageVersions: []string{"AKSUbuntu-2204gen2containerd-202611.03.0"}}
	}, "node_image_selection.custom_node_image_versions", RuleCustomNodeImageVersions, "the type is Latest (the default)"},
	{"node image version without a family", func(r *RunSpec) {
		r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{Type: NodeImageCustom, CustomNodeImageVersions: []string{"202611.03.0"}}
	}, "node_image_selection.custom_node_image_versions[0]", RuleNodeImageVersion,
		`"202611.03.0" is not a node image version. Write <image family>-<version>, e.g. AKSUbuntu-2204gen2containerd-202611.03.0`},
	{"node image version without a version", func(r *RunSpec) {
		r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{Type: NodeImageCustom, CustomNodeImageVersions: []string{"AKSAzureLinux-V2gen2-202402.26.0", "AKSUbuntu-2204gen2containerd-"}}
	}, "node_image_selection.custom_node_image_versions[1]", RuleNodeImageVersion, `"AKSUbuntu-2204gen2containerd-" is not a node image version`},
	{"node image version of a name", func(r *RunSpec) {
		r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{Type: NodeImageCustom, CustomNodeImageVersions: []string{"AKSUbuntu-latest"}}
	}, "node_image_selection.custom_node_image_versions[0]", RuleNodeImageVersion, `"AKSUbuntu-latest" is not a node image version`},
	{"two versions of a family", func(r *RunSpec) {
		r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{Type: NodeImageCustom, CustomNodeImageVersions: []string{
			"AKSUbuntu-2204gen2containerd-202611.03.0", "AKSAzureLinux-V2gen2-202402.26.0", "AKSUbuntu-2204gen2containerd-202610.27.0"}}
	}, "node_image_selection.custom_node_image_versions[2]", RuleNodeImageFamilyOnce,
		"image family AKSUbuntu-2204gen2containerd already has a version at custom_node_image_versions[0]: at most one version per image family. Keep one version of the family"},
}

var runValidCases = []validCase[RunSpec]{
	{"inline stages", func(*RunSpec) {}},
	{"one by one", func(r *RunSpec) { r.Strategy = nil }},
	{"a strategy by name", func(r *RunSpec) { r.Strategy, r.UpdateStrategyID = nil, "canary-first" }},
	{"a strategy by ARM id", func(r *RunSpec) { r.Strategy, r.UpdateStrategyID = nil, armStrategyID }},
	{"a strategy by ARM id in other cases", func(r *RunSpec) {
		r.Strategy = nil
		r.UpdateStrategyID = "/SUBSCRIPTIONS/s/RESOURCEGROUPS/RG/Providers/microsoft.containerservice/FLEETS/fleet-1/UPDATESTRATEGIES/canary-first"
	}},
	{"version with a v", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade.KubernetesVersion = "v1.31.2" }},
	{"version with a V and no patch", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade.KubernetesVersion = "V1.31" }},
	{"ControlPlaneOnly", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade.Type = UpgradeControlPlaneOnly }},
	{"NodeImageOnly", func(r *RunSpec) { r.ManagedClusterUpdate.Upgrade = Upgrade{Type: UpgradeNodeImageOnly} }},
	{"default selection", func(r *RunSpec) { r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{} }},
	{"Latest with an empty list", func(r *RunSpec) {
		r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{Type: NodeImageLatest, CustomNodeImageVersions: []string{}}
	}},
	{"Custom, one version per family", func(r *RunSpec) {
		r.ManagedClusterUpdate.NodeImageSelection = NodeImageSelection{Type: NodeImageCustom, CustomNodeImageVersions: []string{
			"AKSUbuntu-2204gen2containerd-202611.03.0", "AKSAzureLinux-V2gen2-202402.26.0", "AKSWindows-2022-containerd-20348.2113.231115"}}
	}},
}

var profileRuleCases = []ruleCase[ProfileSpec]{
	{"channel missing", func(p *ProfileSpec) { p.Channel, p.TargetKubernetesVersion, p.LongTermSupport = "", "", false }, "channel", RuleChannel,
		"channel is required. Set one of Stable, Rapid, NodeImage, TargetKubernetesVersion"},
	{"channel unknown", func(p *ProfileSpec) { p.Channel, p.TargetKubernetesVersion, p.LongTermSupport = "Weekly", "", false }, "channel", RuleChannel,
		`"Weekly" is not an auto-upgrade channel. Use one of Stable, Rapid, NodeImage, TargetKubernetesVersion`},
	{"update_strategy_id invalid", func(p *ProfileSpec) { p.UpdateStrategyID = "canary first" }, "update_strategy_id", RuleStrategyID,
		`"canary first" is not an update strategy name`},
	{"NodeImage with a selection", func(p *ProfileSpec) {
		*p = ProfileSpec{Channel: ChannelNodeImage, NodeImageSelectionType: NodeImageLatest}
	}, "node_image_selection", RuleNodeImageSelectionType,
		"channel NodeImage takes no node image selection (it installs the newest images of each family). Remove the node image selection, or use another channel"},
	{"Custom selection", func(p *ProfileSpec) { p.NodeImageSelectionType = NodeImageCustom }, "node_image_selection", RuleNodeImageSelectionType,
		"node image selection type Custom is not available for auto-upgrade profiles. Use Latest or Consistent"},
	{"unknown selection", func(p *ProfileSpec) { p.NodeImageSelectionType = "Newest" }, "node_image_selection", RuleNodeImageSelectionType,
		`"Newest" is not a node image selection type. Use Latest or Consistent`},
	{"TargetKubernetesVersion without a version", func(p *ProfileSpec) { p.TargetKubernetesVersion = "" }, "target_kubernetes_version", RuleTargetKubernetesVersion,
		`channel TargetKubernetesVersion needs target_kubernetes_version. Set the minor version to follow, e.g. "1.30"`},
	{"target with a patch", func(p *ProfileSpec) { p.TargetKubernetesVersion = "1.30.2" }, "target_kubernetes_version", RuleTargetKubernetesVersion,
		`"1.30.2" is not a major.minor version. Write major.minor without a patch or a leading v`},
	{"target with a v", func(p *ProfileSpec) { p.TargetKubernetesVersion = "v1.30" }, "target_kubernetes_version", RuleTargetKubernetesVersion, `"v1.30" is not a major.minor version`},
	{"target with another channel", func(p *ProfileSpec) { p.Channel, p.LongTermSupport = ChannelStable, false }, "target_kubernetes_version", RuleTargetKubernetesVersion,
		`target_kubernetes_version is only for channel TargetKubernetesVersion, the channel is "Stable". Remove target_kubernetes_version`},
	{"long term support with another channel", func(p *ProfileSpec) { p.Channel, p.TargetKubernetesVersion = ChannelRapid, "" }, "long_term_support", RuleLongTermSupport,
		`long_term_support is only for channel TargetKubernetesVersion, the channel is "Rapid". Remove long_term_support`},
}

var profileValidCases = []validCase[ProfileSpec]{
	{"target version", func(*ProfileSpec) {}},
	{"Stable, one by one", func(p *ProfileSpec) { *p = ProfileSpec{Channel: ChannelStable} }},
	{"Rapid, Consistent, by name", func(p *ProfileSpec) {
		*p = ProfileSpec{Channel: ChannelRapid, NodeImageSelectionType: NodeImageConsistent, UpdateStrategyID: "canary-first"}
	}},
	{"NodeImage", func(p *ProfileSpec) { *p = ProfileSpec{Channel: ChannelNodeImage, UpdateStrategyID: armStrategyID} }},
	{"disabled", func(p *ProfileSpec) { p.Disabled = true }},
	{"target version without long term support", func(p *ProfileSpec) { p.LongTermSupport, p.NodeImageSelectionType = false, "" }},
}

// checkRuleCases runs each case on a fresh valid spec: exactly one error,
// with the case's path, id and message.
func checkRuleCases[T any](t *testing.T, fresh func() T, validate func(T) field.Errors, cases []ruleCase[T]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := fresh()
			tc.mutate(&spec)
			errs := validate(spec)
			if len(errs) != 1 {
				t.Fatalf("got %d errors, want 1: %v", len(errs), errs)
			}
			e := errs[0]
			if e.Path.String() != tc.path || e.ID != tc.id || !strings.Contains(e.Error(), tc.contains) {
				t.Errorf("got %s (%s)\nwant at %s (%s) containing %q", e.Error(), e.ID, tc.path, tc.id, tc.contains)
			}
			if e.Fix == "" {
				t.Errorf("%s: no fix", e.Error())
			}
		})
	}
}

func checkValidCases[T any](t *testing.T, fresh func() T, validate func(T) field.Errors, cases []validCase[T]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := fresh()
			tc.mutate(&spec)
			if errs := validate(spec); len(errs) > 0 {
				t.Errorf("valid spec rejected: %v", errs)
			}
		})
	}
}

func TestValidateStrategy(t *testing.T) {
	checkRuleCases(t, okStrategy, ValidateStrategy, strategyRuleCases)
	checkValidCases(t, okStrategy, ValidateStrategy, strategyValidCases)
}

func TestValidateRun(t *testing.T) {
	checkRuleCases(t, okRun, ValidateRun, runRuleCases)
	checkValidCases(t, okRun, ValidateRun, runValidCases)
}

func TestValidateProfile(t *testing.T) {
	checkRuleCases(t, okProfile, ValidateProfile, profileRuleCases)
	checkValidCases(t, okProfile, ValidateProfile, profileValidCases)
}

// TestValidateReportsEveryError: a spec that breaks several rules gets one
// error for each, in the order of the spec.
func TestValidateReportsEveryError(t *testing.T) {
	s := Strategy{Stages: []Stage{
		{Name: "Stage_1", MaxConcurrency: "0", Groups: []Group{{Name: "a", MaxConcurrency: "2"}}},
		{Name: "two", MaxConcurrency: "1", Groups: []Group{{Name: "a"}, {Name: "b", MaxConcurrency: "2"}}, AfterStageWaitInSeconds: WaitSeconds(-5)},
	}}
	var got []string
	for _, e := range ValidateStrategy(s) {
		got = append(got, e.Path.String()+" "+e.ID)
	}
	want := []string{
		"stages[0].name name",
		"stages[0].max_concurrency max_concurrency",
		"stages[1].after_stage_wait_in_seconds after_stage_wait",
		"stages[1].groups[0].name group_once",
		"stages[1].groups[1].max_concurrency group_max_concurrency",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestDesignExamples runs the rejected examples of designs/updates.md §2's table.
func TestDesignExamples(t *testing.T) {
	strategyIs := func(name string, s Strategy, path, id string) {
		t.Helper()
		if errs := ValidateStrategy(s).At(path); !errs.Has(id) {
			t.Errorf("%s: want %s at %s, got %v", name, id, path, ValidateStrategy(s))
		}
	}
	strategyIs("Stage_1", stages(Stage{Name: "Stage_1", Groups: []Group{{Name: "a"}}}), "stages[0].name", RuleName)
	strategyIs("a stage without groups", stages(Stage{Name: "s"}), "stages[0].groups", RuleGroupsPerStage)
	strategyIs("group canary in two stages", stages(Stage{Name: "a", Groups: []Group{{Name: "canary"}}}, Stage{Name: "b", Groups: []Group{{Name: "canary"}}}),
		"stages[1].groups[0].name", RuleGroupOnce)
	strategyIs(`maxConcurrency = "0"`, stages(Stage{Name: "a", Groups: []Group{{Name: "g", MaxConcurrency: "0"}}}), "stages[0].groups[0].max_concurrency", RuleMaxConcurrency)
	// Group prodd (no member has it) is a warning: TestStrategyWarnings.
	// A gate on a one-by-one run cannot be written: gates belong to stages
	// and groups, and a one-by-one run has neither (validateGates).

	runIs := func(name string, r RunSpec, path, id string) {
		t.Helper()
		if errs := ValidateRun(r).At(path); !errs.Has(id) {
			t.Errorf("%s: want %s at %s, got %v", name, id, path, ValidateRun(r))
		}
	}
	full := ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeFull, KubernetesVersion: "1.31.2"}}
	inline := okStrategy()
	runIs("both", RunSpec{UpdateStrategyID: "canary-first", Strategy: &inline, ManagedClusterUpdate: full}, "update_strategy_id", RuleStrategyIDOrStages)
	runIs("NodeImageOnly with a version", RunSpec{ManagedClusterUpdate: ManagedClusterUpdate{Upgrade: Upgrade{Type: UpgradeNodeImageOnly, KubernetesVersion: "1.31.2"}}},
		"upgrade.kubernetes_version", RuleKubernetesVersion)
	runIs("Custom without versions", RunSpec{ManagedClusterUpdate: ManagedClusterUpdate{Upgrade: full.Upgrade, NodeImageSelection: NodeImageSelection{Type: NodeImageCustom}}},
		"node_image_selection.custom_node_image_versions", RuleCustomNodeImageVersions)

	// Editing a started run is a rule of the run's state, which the hub
	// enforces and the provider answers with a replacement: the spec's
	// change itself is valid.
	edited := okRun()
	edited.ManagedClusterUpdate.Upgrade.KubernetesVersion = "1.32.0"
	if errs := ValidateRunUpdate(okRun(), edited); len(errs) > 0 {
		t.Errorf("editing a run: %v", errs)
	}
}

func TestValidateUpdates(t *testing.T) {
	// ValidateStrategyUpdate and ValidateRunUpdate are Validate of the new spec.
	for _, tc := range strategyRuleCases {
		s := okStrategy()
		tc.mutate(&s)
		if got, want := ValidateStrategyUpdate(okStrategy(), s), ValidateStrategy(s); !reflect.DeepEqual(got, want) {
			t.Errorf("strategy %s: got %v, want %v", tc.name, got, want)
		}
	}
	for _, tc := range runRuleCases {
		r := okRun()
		tc.mutate(&r)
		if got, want := ValidateRunUpdate(okRun(), r), ValidateRun(r); !reflect.DeepEqual(got, want) {
			t.Errorf("run %s: got %v, want %v", tc.name, got, want)
		}
	}

	// A profile's update_strategy_id is set at creation.
	profile := func(id string) ProfileSpec { return ProfileSpec{Channel: ChannelStable, UpdateStrategyID: id} }
	for _, tc := range []struct {
		old, new string
		want     bool
	}{
		{"canary-first", "canary-first", false},
		{"canary-first", armStrategyID, false}, // the same strategy, by id
		{armStrategyID, "canary-first", false},
		{"", "", false},
		{"canary-first", "prod-first", true},
		{"", "canary-first", true},
		{armStrategyID, "", true},
	} {
		errs := ValidateProfileUpdate(profile(tc.old), profile(tc.new))
		if got := errs.At("update_strategy_id").Has(RuleStrategyIDImmutable); got != tc.want {
			t.Errorf("%q -> %q: immutable %v, want %v (%v)", tc.old, tc.new, got, tc.want, errs)
		}
		if tc.want && !strings.Contains(errs.Error(), "update_strategy_id can be set only when the profile is created") {
			t.Errorf("%q -> %q: message %v", tc.old, tc.new, errs)
		}
	}
	// It includes ValidateProfile(new).
	bad := ProfileSpec{Channel: "Weekly"}
	if errs := ValidateProfileUpdate(bad, bad); !errs.Has(RuleChannel) || len(errs) != 1 {
		t.Errorf("ValidateProfileUpdate(bad, bad) = %v", errs)
	}
}

func TestValidateName(t *testing.T) {
	for _, ok := range []string{"a", "run-1", "0", strings.Repeat("a", 50), "canary-first"} {
		if err := ValidateName("update run", ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for name, want := range map[string]string{
		"":                      `update run name "" is required`,
		"Run_1":                 `update run name "Run_1" may contain only lower-case letters`,
		"-run":                  "must start and end with a lower-case letter or a digit",
		"run.1":                 "may contain only",
		strings.Repeat("a", 51): "is 51 characters long; at most 50 are allowed",
	} {
		err := ValidateName("update run", name)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "Use 1 to 50 lower-case letters") {
			t.Errorf("%q: got %v, want %q", name, err, want)
		}
		var fe field.Error
		if e, ok := err.(field.Error); ok {
			fe = e
		}
		if fe.ID != RuleName || fe.Path.Len() != 0 {
			t.Errorf("%q: want a field.Error %s at the root, got %#v", name, RuleName, err)
		}
	}
}

func TestResolveConcurrency(t *testing.T) {
	for _, tc := range []struct {
		v             string
		members, def  int
		want          int
		documentation string
	}{
		{"", 10, 1, 1, "the group default"},
		{"", 10, 50, 50, "the stage default"},
		{"3", 10, 1, 3, "an integer as-is"},
		{"30", 10, 1, 30, "an integer as-is, even above the count"},
		{"25%", 10, 1, 2, "rounded down"},
		{"25%", 3, 1, 1, "at least 1"},
		{"100%", 7, 1, 7, "all"},
		{"50%", 0, 1, 1, "no members: at least 1"},
		{"33%", 1000, 1, 330, "a large fleet"},
		{"0", 10, 4, 4, "invalid: the default"},
		{"x", 10, 0, 1, "invalid, a zero default: at least 1"},
		{"99999999999999999999999", 10, 1, math.MaxInt, "overflow"},
	} {
		if got := ResolveConcurrency(tc.v, tc.members, tc.def); got != tc.want {
			t.Errorf("%s: ResolveConcurrency(%q, %d, %d) = %d, want %d", tc.documentation, tc.v, tc.members, tc.def, got, tc.want)
		}
	}
}

func TestSplitNodeImageVersion(t *testing.T) {
	for v, want := range map[string][2]string{
		"AKSUbuntu-2204gen2containerd-202611.03.0":     {"AKSUbuntu-2204gen2containerd", "202611.03.0"},
		"AKSWindows-2022-containerd-20348.2113.231115": {"AKSWindows-2022-containerd", "20348.2113.231115"},
		"AKSAzureLinux-V2gen2-202402.26.0":             {"AKSAzureLinux-V2gen2", "202402.26.0"},
	} {
		f, ver, ok := SplitNodeImageVersion(v)
		if !ok || f != want[0] || ver != want[1] {
			t.Errorf("%s: %q %q %v", v, f, ver, ok)
		}
	}
	for _, bad := range []string{"", "202611.03.0", "AKSUbuntu-", "-202611.03.0", "AKSUbuntu--202611.03.0", "AKSUbuntu-2204-202611", "AKS Ubuntu-202611.03.0"} {
		if _, _, ok := SplitNodeImageVersion(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestStrategyNameFromID(t *testing.T) {
	if got := StrategyNameFromID(armStrategyID); got != "canary-first" {
		t.Errorf("ARM id: %q", got)
	}
	if got := StrategyNameFromID("canary-first"); got != "canary-first" {
		t.Errorf("name: %q", got)
	}
}
