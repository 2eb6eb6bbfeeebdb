package update

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// Validation rules (designs/updates.md §2 and §5). Every error of
// ValidateStrategy, ValidateRun, ValidateProfile and their Update forms
// carries one of these as its field.Error ID, for field.Errors.Has.
const (
	RuleName                    = "name"                         // names of stages and groups (ValidateName for resources)
	RuleStagesRequired          = "stages_required"              // a strategy has at least one stage
	RuleStageNameUnique         = "stage_name_unique"            // stage names are unique
	RuleGroupsPerStage          = "groups_per_stage"             // a stage has 1 to 50 groups
	RuleGroupOnce               = "group_once"                   // a group appears once across all stages
	RuleMaxConcurrency          = "max_concurrency"              // the integer-or-percentage pattern
	RuleStageMaxConcurrency     = "stage_max_concurrency"        // a stage's integer value is at most 50
	RuleGroupMaxConcurrency     = "group_max_concurrency"        // a group's integer value is at most its stage's
	RuleAfterStageWait          = "after_stage_wait"             // 0 to 2147483647 seconds
	RuleGateType                = "gate_type"                    // Approval
	RuleGateDisplayName         = "gate_display_name"            // at most 100 characters
	RuleStrategyIDOrStages      = "strategy_id_or_stages"        // a run references a strategy or has stages, not both
	RuleStrategyID              = "update_strategy_id"           // a strategy name or its ARM id
	RuleStrategyIDImmutable     = "update_strategy_id_immutable" // a profile's strategy is set at creation
	RuleUpgradeType             = "upgrade_type"                 // Full, ControlPlaneOnly or NodeImageOnly
	RuleKubernetesVersion       = "kubernetes_version"           // required / forbidden by type, and its form
	RuleNodeImageSelectionType  = "node_image_selection_type"    // Latest, Consistent, Custom (profiles: not Custom)
	RuleCustomNodeImageVersions = "custom_node_image_versions"   // required with Custom, forbidden otherwise
	RuleNodeImageVersion        = "node_image_version"           // <family>-<version>
	RuleNodeImageFamilyOnce     = "node_image_family_once"       // at most one version per image family
	RuleChannel                 = "channel"                      // Stable, Rapid, NodeImage, TargetKubernetesVersion
	RuleTargetKubernetesVersion = "target_kubernetes_version"    // major.minor, exactly with TargetKubernetesVersion
	RuleLongTermSupport         = "long_term_support"            // only with TargetKubernetesVersion
)

// Limits of the ARM API (designs/updates.md §2).
const (
	// MaxNameLength bounds the names of strategies, runs, profiles, stages
	// and groups.
	MaxNameLength = 50
	// MaxFleetNameLength bounds a fleet's name (in an update strategy id).
	MaxFleetNameLength = 63
	// MaxGroupsPerStage is the service's limit of update groups in a stage.
	MaxGroupsPerStage = 50
	// MaxStageConcurrency is the system limit of a stage's max_concurrency,
	// and so of a group's too (a group's is at most its stage's).
	MaxStageConcurrency = 50
	// MaxGateDisplayNameLength bounds a gate's display name, in characters.
	MaxGateDisplayNameLength = 100
	// MaxAfterStageWaitInSeconds is the largest wait: the API documents no
	// bound, but the attribute is an int32.
	MaxAfterStageWaitInSeconds = math.MaxInt32
)

// GateTypeApproval is the one gate type: an approval that holds its stage or
// group until someone approves it. (ScheduledStart exists only in preview
// API versions.)
const GateTypeApproval = "Approval"

var (
	namePattern = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	// concurrencyPattern is the API's pattern of maxConcurrency: a positive
	// integer without leading zeros, or a percentage from 1% to 100%.
	concurrencyPattern       = regexp.MustCompile(`^(?:([1-9]\d*)|([1-9]\d?|100)%)$`)
	kubernetesVersionPattern = regexp.MustCompile(`^[vV]?\d+\.\d+(\.\d+)?$`)
	targetMinorPattern       = regexp.MustCompile(`^\d+\.\d+$`)
	nodeImageFamilyPattern   = regexp.MustCompile(`^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$`)
	nodeImageVersionPattern  = regexp.MustCompile(`^\d+(\.\d+)+$`)
)

// strategyIDForm is the form of an update strategy's ARM id, for messages.
const strategyIDForm = "/subscriptions/<subscription>/resourceGroups/<resource group>/providers/Microsoft.ContainerService/fleets/<fleet>/updateStrategies/<name>"

// The values of each enumerated field a spec accepts, in the order
// messages list them: the engine's messages and the provider's schema are
// built from these. A profile takes every node image selection type but
// Custom (ProfileNodeImageSelectionTypes).
var (
	UpgradeTypes                   = []string{UpgradeFull, UpgradeControlPlaneOnly, UpgradeNodeImageOnly}
	NodeImageSelectionTypes        = []string{NodeImageLatest, NodeImageConsistent, NodeImageCustom}
	ProfileNodeImageSelectionTypes = []string{NodeImageLatest, NodeImageConsistent}
	Channels                       = []string{ChannelStable, ChannelRapid, ChannelNodeImage, ChannelTargetKubernetesVersion}
	GateTypes                      = []string{GateTypeApproval}
	SkipTargetTypes                = []string{TargetMember, TargetGroup, TargetStage, TargetAfterStageWait}
)

// addError appends the violation of rule id at p: what is wrong (format,
// args) and how to fix it.
func addError(es *field.Errors, p field.Path, id, fix, format string, args ...any) {
	e := field.Errorf(p, fix, format, args...)
	e.ID = id
	*es = append(*es, e)
}

// nameProblem says what is wrong with an ARM name of at most limit
// characters, or "" when it is valid.
func nameProblem(name string, limit int) string {
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return "is required"
	case n > limit:
		return fmt.Sprintf("is %d characters long; at most %d are allowed", n, limit)
	case strings.Trim(name, "-abcdefghijklmnopqrstuvwxyz0123456789") != "":
		return "may contain only lower-case letters, digits and '-'"
	case !namePattern.MatchString(name):
		return "must start and end with a lower-case letter or a digit"
	}
	return ""
}

func nameFix(limit int) string {
	return fmt.Sprintf(`Use 1 to %d lower-case letters, digits and '-', starting and ending with a letter or a digit, e.g. "canary-1"`, limit)
}

// ValidateName checks the name of a resource of the given kind (e.g.
// "update strategy", "update run", "auto-upgrade profile") against the ARM
// name rule of designs/updates.md §2: `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, 1
// to 50 characters. The error is a field.Error at the root path, so that the
// provider can place it at its name attribute; nil when the name is valid.
func ValidateName(kind, name string) error {
	if why := nameProblem(name, MaxNameLength); why != "" {
		e := field.Errorf(field.Path{}, nameFix(MaxNameLength), "%s name %q %s", kind, name, why)
		e.ID = RuleName
		return e
	}
	return nil
}

// checkName adds a RuleName error at p when name (of what, e.g. "stage
// name") is not a valid ARM name.
func checkName(es *field.Errors, p field.Path, what, name string) bool {
	if why := nameProblem(name, MaxNameLength); why != "" {
		addError(es, p, RuleName, nameFix(MaxNameLength), "%s %q %s", what, name, why)
		return false
	}
	return true
}

// parseConcurrency reads a max_concurrency value: n is the integer or the
// percentage, pct whether it is a percentage. ok is false for "" and for
// anything that breaks the pattern. An integer too large for int reads as
// math.MaxInt.
func parseConcurrency(v string) (n int, pct, ok bool) {
	if !concurrencyPattern.MatchString(v) {
		return 0, false, false
	}
	digits, pct := strings.CutSuffix(v, "%")
	n, err := strconv.Atoi(digits)
	if err != nil {
		n = math.MaxInt // the pattern admits only digits: the value overflows
	}
	return n, pct, true
}

// ResolveConcurrency resolves a max_concurrency value ("" = the default
// given) against a member count: integers as-is, percentages of the count
// rounded down, at least 1 (designs/updates.md §2). A value that breaks the
// pattern resolves as the default.
func ResolveConcurrency(v string, members int, def int) int {
	n, pct, ok := parseConcurrency(v)
	switch {
	case !ok:
		n = def
	case pct:
		n = max(members, 0) * n / 100
	}
	return max(n, 1)
}

// ValidateStrategy applies the rules of designs/updates.md §2 to an update
// strategy: at least one stage; stage names valid and unique; 1 to 50 groups
// a stage, each group named once across all stages; max_concurrency of a
// stage (at most 50) and of a group (at most its stage's); the after-stage
// wait; gates. Paths are the provider's: `stages[0].groups[1].max_concurrency`.
// Whether a group names the group of some member needs the fleet: it is a
// warning (StrategyWarnings).
func ValidateStrategy(s Strategy) field.Errors {
	var es field.Errors
	validateStages(&es, field.Root("stages"), s.Stages,
		"Add a stage with at least one group")
	return es
}

// ValidateStrategyUpdate is ValidateStrategy(new): a strategy may change in
// every part, and the change affects no existing run, each of which copied
// the strategy when it was created (designs/updates.md §2).
func ValidateStrategyUpdate(old, new Strategy) field.Errors {
	return ValidateStrategy(new)
}

// groupAt is where a group name was first seen.
type groupAt struct{ stage, group int }

// validateStages applies the strategy rules to stages at p; noStagesFix is
// the fix for an empty list.
func validateStages(es *field.Errors, p field.Path, stages []Stage, noStagesFix string) {
	if len(stages) == 0 {
		addError(es, p, RuleStagesRequired, noStagesFix, "at least one stage is required")
		return
	}
	stageAt := map[string]int{}
	groups := map[string]groupAt{}
	for i, s := range stages {
		sp := p.Index(i)
		if checkName(es, sp.Child("name"), "stage name", s.Name) {
			if j, dup := stageAt[s.Name]; dup {
				addError(es, sp.Child("name"), RuleStageNameUnique, "Give each stage its own name",
					"stage name %q is already used by stages[%d]: stage names must be unique", s.Name, j)
			} else {
				stageAt[s.Name] = i
			}
		}
		switch n := len(s.Groups); {
		case n == 0:
			addError(es, sp.Child("groups"), RuleGroupsPerStage, "Add at least one group, or remove the stage",
				"stage %q has no groups: a stage needs 1 to %d", s.Name, MaxGroupsPerStage)
		case n > MaxGroupsPerStage:
			addError(es, sp.Child("groups"), RuleGroupsPerStage, "Split the groups over several stages",
				"stage %q has %d groups: at most %d are allowed", s.Name, n, MaxGroupsPerStage)
		}
		// stageInt is the stage's integer max_concurrency once defaulted, 0
		// when it is a percentage or invalid.
		stageInt := 0
		if n, pct, ok := parseConcurrency(cmp.Or(s.MaxConcurrency, DefaultStageMaxConcurrency)); ok && !pct {
			stageInt = n
		}
		validateStageConcurrency(es, sp.Child("max_concurrency"), s.MaxConcurrency)
		if w := s.AfterStageWait(); w < 0 || w > MaxAfterStageWaitInSeconds {
			addError(es, sp.Child("after_stage_wait_in_seconds"), RuleAfterStageWait,
				fmt.Sprintf("Give a number of seconds from 0 to %d (0, the default, for no wait)", MaxAfterStageWaitInSeconds),
				"after_stage_wait_in_seconds must be from 0 to %d, got %d", MaxAfterStageWaitInSeconds, w)
		}
		validateGates(es, sp.Child("before_gates"), s.BeforeGates)
		validateGates(es, sp.Child("after_gates"), s.AfterGates)
		for j, g := range s.Groups {
			gp := sp.Child("groups").Index(j)
			if checkName(es, gp.Child("name"), "group name", g.Name) {
				if at, dup := groups[g.Name]; dup {
					if at.stage == i {
						addError(es, gp.Child("name"), RuleGroupOnce, "Remove one of the two",
							"group %q appears twice in stage %q (groups[%d] and groups[%d]): a group may appear only once", g.Name, s.Name, at.group, j)
					} else {
						addError(es, gp.Child("name"), RuleGroupOnce,
							"Keep the group in one stage only; to upgrade some of its members in another stage, give them another group",
							"group %q is already in stage %q (stages[%d].groups[%d]) and appears again in stage %q: a group may appear in only one stage",
							g.Name, stages[at.stage].Name, at.stage, at.group, s.Name)
					}
				} else {
					groups[g.Name] = groupAt{i, j}
				}
			}
			validateGroupConcurrency(es, gp.Child("max_concurrency"), g.MaxConcurrency, s.MaxConcurrency, stageInt)
			validateGates(es, gp.Child("before_gates"), g.BeforeGates)
			validateGates(es, gp.Child("after_gates"), g.AfterGates)
		}
	}
}

const concurrencyFix = `Use a whole number of members such as "3", or a percentage from 1% to 100% such as "25%"`

// checkConcurrencyPattern adds a RuleMaxConcurrency error when a set value
// breaks the pattern, and reports whether the value is usable.
func checkConcurrencyPattern(es *field.Errors, p field.Path, v string) bool {
	if v == "" {
		return false
	}
	if !concurrencyPattern.MatchString(v) {
		addError(es, p, RuleMaxConcurrency, concurrencyFix,
			"%q is not a max_concurrency: it must be a whole number from 1, or a percentage from 1%% to 100%%", v)
		return false
	}
	return true
}

// validateStageConcurrency enforces RuleMaxConcurrency and
// RuleStageMaxConcurrency on a stage's max_concurrency.
func validateStageConcurrency(es *field.Errors, p field.Path, v string) {
	if !checkConcurrencyPattern(es, p, v) {
		return
	}
	if n, pct, _ := parseConcurrency(v); !pct && n > MaxStageConcurrency {
		addError(es, p, RuleStageMaxConcurrency,
			fmt.Sprintf("Use at most %d, or a percentage", MaxStageConcurrency),
			"a stage's max_concurrency cannot exceed the system limit of %d, got %s", MaxStageConcurrency, v)
	}
}

// validateGroupConcurrency enforces RuleMaxConcurrency and
// RuleGroupMaxConcurrency on a group's max_concurrency v, in a stage whose
// value is stageValue as written, stageInt once defaulted (0 when that is a
// percentage or invalid). An integer group value is compared with an integer
// stage value; against a percentage the comparison needs the member count,
// so only the system limit applies (a group's value is at most its stage's,
// which is at most 50). A percentage group value cannot be compared
// statically and is accepted. The default group value, 1, is within every
// stage value.
func validateGroupConcurrency(es *field.Errors, p field.Path, v, stageValue string, stageInt int) {
	if !checkConcurrencyPattern(es, p, v) {
		return
	}
	n, pct, _ := parseConcurrency(v)
	switch {
	case pct:
	case n > MaxStageConcurrency:
		addError(es, p, RuleGroupMaxConcurrency,
			fmt.Sprintf("Use at most %d, or a percentage", MaxStageConcurrency),
			"a group's max_concurrency cannot exceed its stage's, which is at most %d, got %s", MaxStageConcurrency, v)
	case stageInt > 0 && n > stageInt:
		stage := fmt.Sprintf("%q", stageValue)
		if stageValue == "" {
			stage = fmt.Sprintf("%s (the default)", DefaultStageMaxConcurrency)
		}
		addError(es, p, RuleGroupMaxConcurrency,
			fmt.Sprintf("Use at most %d, or raise the stage's max_concurrency", stageInt),
			"a group's max_concurrency cannot exceed its stage's: got %s, the stage's is %s", v, stage)
	}
}

// validateGates enforces RuleGateType and RuleGateDisplayName on the gates
// at p. A gate's type may be omitted: the provider's schema defaults it to
// Approval (StrategyWithDefaults).
//
// Gates need a strategy: the service refuses approvals on a one-by-one run
// (no strategy). The model cannot express that case — gates are part of a
// stage or a group, and a run without update_strategy_id and without stages
// has none — so there is nothing to check.
func validateGates(es *field.Errors, p field.Path, gates []Gate) {
	for i, g := range gates {
		gp := p.Index(i)
		switch g.Type {
		case "", GateTypeApproval:
		case "ScheduledStart":
			addError(es, gp.Child("type"), RuleGateType, "Use type "+field.Or(GateTypes),
				"gate type ScheduledStart exists only in preview API versions, which the provider does not use")
		default:
			addError(es, gp.Child("type"), RuleGateType, "Use type "+field.Or(GateTypes)+", or omit type",
				"%q is not a gate type: the only gate type is Approval", g.Type)
		}
		if n := utf8.RuneCountInString(g.DisplayName); n > MaxGateDisplayNameLength {
			addError(es, gp.Child("display_name"), RuleGateDisplayName,
				fmt.Sprintf("Shorten the display name to at most %d characters, or omit it", MaxGateDisplayNameLength),
				"display_name is %d characters long: at most %d are allowed", n, MaxGateDisplayNameLength)
		}
	}
}

// StrategyNameFromID is the strategy name an update_strategy_id names: the
// id itself when it is a bare name, its last segment when it is an ARM id.
func StrategyNameFromID(id string) string { return id[strings.LastIndex(id, "/")+1:] }

// strategyIDProblem says what is wrong with an update_strategy_id, or "" when
// it is a valid strategy name or the ARM id of an update strategy:
// /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/fleets/<fleet>/updateStrategies/<name>,
// its fixed segments in any case (ARM ids are case-insensitive).
func strategyIDProblem(id string) string {
	if !strings.Contains(id, "/") {
		if why := nameProblem(id, MaxNameLength); why != "" {
			return fmt.Sprintf("%q is not an update strategy name: a name %s", id, why)
		}
		return ""
	}
	segs := strings.Split(id, "/")
	if len(segs) != 11 || segs[0] != "" {
		return fmt.Sprintf("%q is neither an update strategy name nor an update strategy's ARM id", id)
	}
	for _, f := range []struct {
		i    int
		want string
	}{{1, "subscriptions"}, {3, "resourceGroups"}, {5, "providers"}, {6, "Microsoft.ContainerService"}, {7, "fleets"}, {9, "updateStrategies"}} {
		if !strings.EqualFold(segs[f.i], f.want) {
			return fmt.Sprintf("%q is not an update strategy's ARM id: it has %q where %s belongs", id, segs[f.i], f.want)
		}
	}
	switch {
	case segs[2] == "":
		return fmt.Sprintf("%q is not an update strategy's ARM id: the subscription is empty", id)
	case segs[4] == "":
		return fmt.Sprintf("%q is not an update strategy's ARM id: the resource group is empty", id)
	}
	if why := nameProblem(segs[8], MaxFleetNameLength); why != "" {
		return fmt.Sprintf("%q is not an update strategy's ARM id: the fleet name %q %s", id, segs[8], why)
	}
	if why := nameProblem(segs[10], MaxNameLength); why != "" {
		return fmt.Sprintf("%q is not an update strategy's ARM id: the strategy name %q %s", id, segs[10], why)
	}
	return ""
}

// checkStrategyID enforces RuleStrategyID on a set update_strategy_id.
func checkStrategyID(es *field.Errors, p field.Path, id string) {
	if id == "" {
		return
	}
	if why := strategyIDProblem(id); why != "" {
		addError(es, p, RuleStrategyID,
			`Give the strategy's name, e.g. "canary-first", or its ARM id `+strategyIDForm+
				" (the id of an aks_fleet_update_strategy)", "%s", why)
	}
}

// ValidateRun applies the rules of designs/updates.md §2 to an update run, at
// the provider's flattened paths: update_strategy_id or inline stages (not
// both; the stages under `stages[...]` as in a strategy), the upgrade type
// and its Kubernetes version (`upgrade.type`, `upgrade.kubernetes_version`),
// and the node image selection (`node_image_selection.type`,
// `node_image_selection.custom_node_image_versions[0]`). A run with neither a
// strategy id nor stages updates every member one by one.
//
// It validates the practitioner's spec: a run read back from the service
// carries the referenced strategy's copy in its strategy as well as the id,
// which the provider keeps apart (designs/updates.md §2).
func ValidateRun(r RunSpec) field.Errors {
	var es field.Errors
	idPath := field.Root("update_strategy_id")
	checkStrategyID(&es, idPath, r.UpdateStrategyID)
	if r.Strategy != nil {
		if r.UpdateStrategyID != "" {
			addError(&es, idPath, RuleStrategyIDOrStages,
				"Remove update_strategy_id to use the stages, or remove the stages to use the referenced strategy",
				"update_strategy_id and stages are both set: a run takes its order from one or the other")
		}
		validateStages(&es, field.Root("stages"), r.Strategy.Stages,
			"Add a stage with at least one group, or remove stages to update every member one by one")
	}
	validateUpgrade(&es, field.Root("upgrade"), r.ManagedClusterUpdate.Upgrade)
	validateNodeImageSelection(&es, field.Root("node_image_selection"), r.ManagedClusterUpdate.NodeImageSelection)
	return es
}

// ValidateRunUpdate is ValidateRun(new) and nothing more. The service's rule
// of the change — a run's strategy and managed-cluster update change only
// while the run is NotStarted; afterwards a change means a new run — is a
// rule of the run's state, not of its spec: the hub enforces it (a conflict),
// and the provider replaces a run whose spec changes once started
// (designs/updates.md §2, §4). (The API also marks node_image_selection as
// settable at creation only; replacement covers that as well.)
func ValidateRunUpdate(old, new RunSpec) field.Errors {
	return ValidateRun(new)
}

// validateUpgrade enforces RuleUpgradeType and RuleKubernetesVersion.
func validateUpgrade(es *field.Errors, p field.Path, u Upgrade) {
	vp := p.Child("kubernetes_version")
	switch u.Type {
	case "":
		addError(es, p.Child("type"), RuleUpgradeType,
			"Set Full (control plane and node images), ControlPlaneOnly or NodeImageOnly",
			"upgrade.type is required")
	case UpgradeFull, UpgradeControlPlaneOnly:
		if u.KubernetesVersion == "" {
			addError(es, vp, RuleKubernetesVersion, `Set the Kubernetes version to upgrade to, e.g. "1.31.2"`,
				"upgrade type %s needs a kubernetes_version", u.Type)
			return
		}
	case UpgradeNodeImageOnly:
		if u.KubernetesVersion != "" {
			addError(es, vp, RuleKubernetesVersion,
				"Remove kubernetes_version, or use type Full to upgrade Kubernetes and node images",
				"upgrade type NodeImageOnly takes no kubernetes_version: it upgrades node images only")
		}
		return
	default:
		addError(es, p.Child("type"), RuleUpgradeType, "Use one of "+strings.Join(UpgradeTypes, ", "),
			"%q is not an upgrade type", u.Type)
	}
	if u.KubernetesVersion != "" && !kubernetesVersionPattern.MatchString(u.KubernetesVersion) {
		addError(es, vp, RuleKubernetesVersion, `Write major.minor.patch, e.g. "1.31.2" (a leading v is allowed)`,
			"%q is not a Kubernetes version", u.KubernetesVersion)
	}
}

// SplitNodeImageVersion splits a node image version such as
// AKSUbuntu-2204gen2containerd-202611.03.0 into its image family (everything
// before the last '-') and its version; ok is false when v does not have
// that form.
func SplitNodeImageVersion(v string) (family, version string, ok bool) {
	i := strings.LastIndex(v, "-")
	if i < 0 {
		return "", "", false
	}
	family, version = v[:i], v[i+1:]
	if !nodeImageFamilyPattern.MatchString(family) || !nodeImageVersionPattern.MatchString(version) {
		return "", "", false
	}
	return family, version, true
}

// validateNodeImageSelection enforces RuleNodeImageSelectionType,
// RuleCustomNodeImageVersions, RuleNodeImageVersion and
// RuleNodeImageFamilyOnce. An empty type is Latest (RunWithDefaults).
func validateNodeImageSelection(es *field.Errors, p field.Path, s NodeImageSelection) {
	lp := p.Child("custom_node_image_versions")
	switch s.Type {
	case "", NodeImageLatest, NodeImageConsistent:
		if len(s.CustomNodeImageVersions) > 0 {
			addError(es, lp, RuleCustomNodeImageVersions, "Remove custom_node_image_versions, or set type = Custom",
				"custom_node_image_versions is only for node image selection type Custom, the type is %s", orLatest(s.Type))
		}
	case NodeImageCustom:
		if len(s.CustomNodeImageVersions) == 0 {
			addError(es, lp, RuleCustomNodeImageVersions,
				"List one node image version per image family, e.g. AKSUbuntu-2204gen2containerd-202611.03.0, or use type Latest or Consistent",
				"node image selection type Custom needs custom_node_image_versions")
			return
		}
		families := map[string]int{}
		for i, v := range s.CustomNodeImageVersions {
			family, _, ok := SplitNodeImageVersion(v)
			if !ok {
				addError(es, lp.Index(i), RuleNodeImageVersion,
					"Write <image family>-<version>, e.g. AKSUbuntu-2204gen2containerd-202611.03.0",
					"%q is not a node image version", v)
				continue
			}
			if j, dup := families[family]; dup {
				addError(es, lp.Index(i), RuleNodeImageFamilyOnce, "Keep one version of the family",
					"image family %s already has a version at custom_node_image_versions[%d]: at most one version per image family", family, j)
				continue
			}
			families[family] = i
		}
	default:
		addError(es, p.Child("type"), RuleNodeImageSelectionType, "Use one of "+strings.Join(NodeImageSelectionTypes, ", "),
			"%q is not a node image selection type", s.Type)
	}
}

func orLatest(t string) string {
	if t == "" {
		return NodeImageLatest + " (the default)"
	}
	return t
}

// ValidateProfile applies the rules of designs/updates.md §5 to an
// auto-upgrade profile: the channel, the update_strategy_id's form, the node
// image selection type (Latest or Consistent, and none with channel
// NodeImage), target_kubernetes_version (major.minor, exactly with channel
// TargetKubernetesVersion) and long_term_support (only with that channel).
func ValidateProfile(p ProfileSpec) field.Errors {
	var es field.Errors
	tkv := p.Channel == ChannelTargetKubernetesVersion
	switch p.Channel {
	case ChannelStable, ChannelRapid, ChannelNodeImage, ChannelTargetKubernetesVersion:
	case "":
		addError(&es, field.Root("channel"), RuleChannel, "Set one of "+strings.Join(Channels, ", "), "channel is required")
	default:
		addError(&es, field.Root("channel"), RuleChannel, "Use one of "+strings.Join(Channels, ", "),
			"%q is not an auto-upgrade channel", p.Channel)
	}
	checkStrategyID(&es, field.Root("update_strategy_id"), p.UpdateStrategyID)

	np := field.Root("node_image_selection")
	switch p.NodeImageSelectionType {
	case "", NodeImageLatest, NodeImageConsistent:
		if p.NodeImageSelectionType != "" && p.Channel == ChannelNodeImage {
			addError(&es, np, RuleNodeImageSelectionType, "Remove the node image selection, or use another channel",
				"channel NodeImage takes no node image selection (it installs the newest images of each family)")
		}
	case NodeImageCustom:
		addError(&es, np, RuleNodeImageSelectionType, "Use Latest or Consistent; custom node image versions are for update runs",
			"node image selection type Custom is not available for auto-upgrade profiles")
	default:
		addError(&es, np, RuleNodeImageSelectionType, "Use Latest or Consistent",
			"%q is not a node image selection type", p.NodeImageSelectionType)
	}

	tp := field.Root("target_kubernetes_version")
	switch {
	case tkv && p.TargetKubernetesVersion == "":
		addError(&es, tp, RuleTargetKubernetesVersion, `Set the minor version to follow, e.g. "1.30"`,
			"channel TargetKubernetesVersion needs target_kubernetes_version")
	case tkv && !targetMinorPattern.MatchString(p.TargetKubernetesVersion):
		addError(&es, tp, RuleTargetKubernetesVersion, `Write major.minor without a patch or a leading v, e.g. "1.30"`,
			"%q is not a major.minor version", p.TargetKubernetesVersion)
	case !tkv && p.TargetKubernetesVersion != "":
		addError(&es, tp, RuleTargetKubernetesVersion,
			"Remove target_kubernetes_version, or use channel TargetKubernetesVersion",
			"target_kubernetes_version is only for channel TargetKubernetesVersion, the channel is %q", p.Channel)
	}
	if p.LongTermSupport && !tkv {
		addError(&es, field.Root("long_term_support"), RuleLongTermSupport,
			"Remove long_term_support, or use channel TargetKubernetesVersion",
			"long_term_support is only for channel TargetKubernetesVersion, the channel is %q", p.Channel)
	}
	return es
}

// ValidateProfileUpdate is ValidateProfile(new) plus the one rule of the
// change: update_strategy_id is accepted only when the profile is created
// (the ARM API marks it create/read; designs/updates.md §5),
// so using another strategy means replacing the profile. A strategy's name
// and its ARM id name the same strategy: switching between the two forms is
// no change.
func ValidateProfileUpdate(old, new ProfileSpec) field.Errors {
	es := ValidateProfile(new)
	if StrategyNameFromID(old.UpdateStrategyID) != StrategyNameFromID(new.UpdateStrategyID) {
		addError(&es, field.Root("update_strategy_id"), RuleStrategyIDImmutable,
			"Replace the profile to use another strategy, or keep the previous one",
			"update_strategy_id can be set only when the profile is created: cannot change from %q to %q", old.UpdateStrategyID, new.UpdateStrategyID)
	}
	return es
}
