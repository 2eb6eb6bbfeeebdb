package provider

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// An auto-upgrade profile's preview (designs/previews.md §3): what its
// channel resolves to now, the run a release would trigger and the members
// it leaves behind — one function (previewProfile) for the resource's plan
// diagnostic and for the aks_fleet_autoupgrade_preview data source.

// previewProfile previews profile spec (named name) following strategy, now.
func previewProfile(ctx context.Context, h hub.Hub, name string, spec update.ProfileSpec, strategy *update.Strategy, diags *diag.Diagnostics) (update.ProfilePreview, bool) {
	f, ok := runFleet(ctx, h, diags)
	if !ok {
		return update.ProfilePreview{}, false
	}
	reportWarnings(diags, "Auto-upgrade profile", update.ProfileWarnings(spec, f))
	return update.PreviewProfile(name, spec, strategy, update.Members(f), f.Regions, h.UpgradeDuration(), h.Now()), true
}

// profileReviewSpec is the digest of what a profile's review covers: what
// its channel resolves to depends on the channel, the target minor, long-term
// support and the image selection, not on its strategy or whether it is
// enabled (designs/previews.md §5).
func profileReviewSpec(spec update.ProfileSpec) string {
	return specDigest(update.ProfileResolvesFrom(spec), update.ProfileWithDefaults)
}

// profileReport is the plan diagnostic of a profile's preview; run names
// the run previewed.
func profileReport(pp update.ProfilePreview, run string) preview {
	res := pp.Resolution
	out := preview{Headline: pp.Summary(), At: res.At, Basis: "on the release catalogs and members as the hub reports them"}
	if len(res.SupportedMinors) > 0 {
		out.add("", "supported minors: "+strings.Join(res.SupportedMinors, ", "))
	}
	var behind [][2]string
	for _, n := range sortedKeys(pp.LeftBehind) {
		behind = append(behind, [2]string{n, pp.LeftBehind[n].Message})
	}
	out.add("members left behind", bounded(columns(behind), maxRunPreviewMembers, "")...)
	if pp.Rollout == nil && res.Err == "" {
		out.add("", "the rollout is previewed at apply, once the strategy it follows exists")
	}
	if pp.Rollout != nil {
		// A member left behind is listed once, above.
		rollout := *pp.Rollout
		rollout.Stages = slices.Clone(rollout.Stages)
		for i, s := range rollout.Stages {
			s.Groups = slices.Clone(s.Groups)
			for j, g := range s.Groups {
				g.Members = slices.Clone(g.Members)
				for k, m := range g.Members {
					if _, behind := pp.LeftBehind[m.Name]; behind {
						g.Members[k].Message = "left behind, above"
					}
				}
				s.Groups[j] = g
			}
			rollout.Stages[i] = s
		}
		r := runReport(rollout, "")
		for _, s := range r.Sections {
			if s.Title == "members in rollout order" {
				s.Title = run + ", members in rollout order"
			}
			out.Sections = append(out.Sections, s)
		}
	}
	return out
}

// profilePreviewDoc is the data source's preview of a profile.
type profilePreviewDoc struct {
	EvaluatedAt       string             `json:"evaluated_at"`
	Summary           string             `json:"summary"`
	KubernetesVersion string             `json:"kubernetes_version"`
	NodeImages        map[string]string  `json:"node_images"`
	SupportedMinors   []string           `json:"supported_minors"`
	Note              string             `json:"note"`
	LeftBehind        map[string]string  `json:"left_behind"`
	Rollout           *rolloutPreviewDoc `json:"rollout"`
}

func newProfilePreviewDoc(pp update.ProfilePreview) profilePreviewDoc {
	res := pp.Resolution
	d := profilePreviewDoc{EvaluatedAt: rfc3339(res.At), Summary: pp.Summary(), KubernetesVersion: res.Target,
		NodeImages: res.NodeImages, SupportedMinors: append([]string{}, res.SupportedMinors...), Note: res.Err, LeftBehind: map[string]string{}}
	if pp.Rollout != nil {
		rd := newRolloutPreviewDoc(*pp.Rollout)
		d.Rollout = &rd
		for name, m := range pp.LeftBehind {
			d.LeftBehind[name] = m.Message
		}
	}
	return d
}

var (
	_ datasource.DataSourceWithConfigure      = (*autoUpgradePreviewDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*autoUpgradePreviewDataSource)(nil)
)

func newAutoUpgradePreviewDataSource() datasource.DataSource { return &autoUpgradePreviewDataSource{} }

// autoUpgradePreviewDataSource previews an auto-upgrade profile without
// writing it: the what-if of aks_fleet_autoupgrade_profile.
type autoUpgradePreviewDataSource struct {
	hubClient
}

// autoUpgradePreviewModel is the data source's whole state.
type autoUpgradePreviewModel struct {
	Name string `json:"name"`
	update.ProfileSpec
	profilePreviewDoc
	Warnings []string `json:"warnings"`
	Review   string   `json:"review"`
}

func (autoUpgradePreviewDataSource) model() any { return &autoUpgradePreviewModel{} }

func (d *autoUpgradePreviewDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_autoupgrade_preview"
}

func (d *autoUpgradePreviewDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

func (d *autoUpgradePreviewDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := dataSourceAttrs(profileSpecAttrs())
	attrs["name"] = dschema.StringAttribute{Optional: true, MarkdownDescription: "The profile this previews (its generated " +
		"runs are named after it): `review` names it, and the profile of another name refuses it."}
	for k, v := range dataSourceAttrs(map[string]rschema.Attribute{
		"evaluated_at": computedString("The hub's clock when the preview was made (RFC 3339)."),
		"summary":      computedString("One line: the channel's target and the rollout's totals."),
		"kubernetes_version": computedString("The Kubernetes version the channel resolves to now (null for `NodeImage`, or when it " +
			"resolves to nothing: see `note`)."),
		"node_images":      computedStringMap("For `NodeImage`: the newest image of each family the channel takes node pools to."),
		"supported_minors": computedStringList("The minors the profile moves members within, newest first: N, N−1, N−2, and LTS minors with `long_term_support`."),
		"note":             computedString("Why the channel resolves to nothing now (no run would be generated); null otherwise."),
		"left_behind": computedStringMap("The members the profile does not move — outside the supported minors, or more than one " +
			"minor behind the target — each with the versions a manual update run must take it to first, in order."),
		"rollout": rolloutPreviewAttr("The run the profile would start now: stage → group → member, each with its " +
			"predicted outcome, versions from → to and the reason, and a Mermaid gantt chart."),
	}) {
		attrs[k] = v
	}
	attrs["warnings"] = dschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "What the plan of " +
		"such a profile would warn about (a target no region has released, members left behind)."}
	attrs["review"] = reviewAttr("aks_fleet_autoupgrade_profile")
	resp.Schema = dschema.Schema{
		MarkdownDescription: "What an auto-upgrade profile would do, without writing it: what its channel resolves to now, the " +
			"run a release entering the channel would trigger (in the order of its strategy) and the members it leaves behind " +
			"with the manual upgrades that bring them back. The same preview as `aks_fleet_autoupgrade_profile`'s plan, from " +
			"the same function; read at plan, it is kept in the plan file, and its `review` makes the profile's apply hold to it.",
		Attributes: attrs,
	}
}

func (d *autoUpgradePreviewDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m autoUpgradePreviewModel
	unknown, ok := readValue(req.Config.Raw, &m, &resp.Diagnostics)
	if !ok || unknown.covers(field.Root("channel")) {
		return
	}
	reportErrors(&resp.Diagnostics, "Invalid auto-upgrade profile", update.ValidateProfile(m.ProfileSpec), unknown)
}

func (d *autoUpgradePreviewDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m autoUpgradePreviewModel
	if _, ok := readValue(req.Config.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	addFieldErrors(&resp.Diagnostics, path.Empty(), "Invalid auto-upgrade profile", update.ValidateProfile(m.ProfileSpec))
	if resp.Diagnostics.HasError() {
		return
	}
	strategy, found := previewStrategy(ctx, d.hub, m.UpdateStrategyID, "profile", &resp.Diagnostics)
	if !found {
		resp.Diagnostics.AddAttributeError(path.Root("update_strategy_id"), "Update strategy not found", "update_strategy_id: the "+
			"hub holds no strategy "+m.UpdateStrategyID+" to preview the profile's runs with.")
		return
	}
	var warnings diag.Diagnostics
	pp, ok := previewProfile(ctx, d.hub, m.Name, m.ProfileSpec, strategy, &warnings)
	if !ok {
		resp.Diagnostics.Append(warnings...)
		return
	}
	m.Warnings = []string{}
	for _, w := range warnings.Warnings() {
		m.Warnings = append(m.Warnings, w.Detail())
	}
	for _, w := range update.ProfilePreviewWarnings(pp) {
		m.Warnings = append(m.Warnings, w.String())
	}
	m.profilePreviewDoc = newProfilePreviewDoc(pp)
	// What the channel resolves to does not depend on the hub holding the
	// profile: the same token before and after it is written.
	var err error
	if m.Review, err = reviewToken(reviewProfile, m.Name, profileReviewSpec(m.ProfileSpec), update.ExpectProfile(pp.Resolution)); err != nil {
		resp.Diagnostics.AddError("Cannot record the review", err.Error())
		return
	}
	setState(ctx, &resp.State, m, &resp.Diagnostics)
}
