package provider

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

var (
	_ datasource.DataSourceWithConfigure      = (*kubernetesVersionsDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*kubernetesVersionsDataSource)(nil)
)

func newKubernetesVersionsDataSource() datasource.DataSource { return &kubernetesVersionsDataSource{} }

// kubernetesVersionsDataSource lists the release catalog of the fleet's
// regions and what each auto-upgrade channel resolves to now, fleet-wide and
// region by region. Every resolution is update.ResolveProfile's.
type kubernetesVersionsDataSource struct {
	hubClient
}

// kubernetesVersionsModel is the data source's whole state.
type kubernetesVersionsModel struct {
	Regions                 []string                `json:"regions"`
	TargetKubernetesVersion string                  `json:"target_kubernetes_version"`
	LongTermSupport         bool                    `json:"long_term_support"`
	EvaluatedAt             string                  `json:"evaluated_at"`
	NewestMinor             string                  `json:"newest_minor"`
	SupportedMinors         []string                `json:"supported_minors"`
	Channels                map[string]channelModel `json:"channels"`
	Catalogs                []regionCatalogModel    `json:"catalogs"`
}

func (kubernetesVersionsDataSource) model() any { return &kubernetesVersionsModel{} }

// channelModel is what one auto-upgrade channel resolves to.
type channelModel struct {
	KubernetesVersion string            `json:"kubernetes_version"`
	NodeImages        map[string]string `json:"node_images"`
	Note              string            `json:"note"`
}

// regionCatalogModel is one region's release catalog and its channels.
type regionCatalogModel struct {
	Name               string                   `json:"name"`
	KubernetesVersions []kubernetesReleaseModel `json:"kubernetes_versions"`
	NodeImages         []nodeImageReleaseModel  `json:"node_images"`
	Channels           map[string]channelModel  `json:"channels"`
}

type kubernetesReleaseModel struct {
	Version    string `json:"version"`
	Preview    bool   `json:"preview"`
	LTS        bool   `json:"lts"`
	ReleasedAt string `json:"released_at"`
	Released   bool   `json:"released"`
}

type nodeImageReleaseModel struct {
	Family     string `json:"family"`
	Version    string `json:"version"`
	ReleasedAt string `json:"released_at"`
	Released   bool   `json:"released"`
}

func (d *kubernetesVersionsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_kubernetes_versions"
}

func (d *kubernetesVersionsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

// channelsAttr is the map of channel resolutions, fleet-wide or of one region.
func channelsAttr(desc string) dschema.MapNestedAttribute {
	return dschema.MapNestedAttribute{Computed: true, MarkdownDescription: desc,
		NestedObject: dschema.NestedAttributeObject{Attributes: map[string]dschema.Attribute{
			"kubernetes_version": dschema.StringAttribute{Computed: true, MarkdownDescription: "The Kubernetes version " +
				"(major.minor.patch) the channel takes members to now; null for `NodeImage` and when the channel resolves to nothing."},
			"node_images": dschema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "For " +
				"`NodeImage`: the newest node image version released of each image family, keyed by family; null for the other " +
				"channels and when nothing is released."},
			"note": dschema.StringAttribute{Computed: true, MarkdownDescription: "Why the channel resolves to nothing now " +
				"(no auto-upgrade run would be generated), e.g. a target minor outside the supported minors; null when it resolves."},
		}},
	}
}

func (d *kubernetesVersionsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) dschema.StringAttribute {
		return dschema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	boolean := func(desc string) dschema.BoolAttribute {
		return dschema.BoolAttribute{Computed: true, MarkdownDescription: desc}
	}
	list := func(desc string, attrs map[string]dschema.Attribute) dschema.ListNestedAttribute {
		return dschema.ListNestedAttribute{Computed: true, MarkdownDescription: desc, NestedObject: dschema.NestedAttributeObject{Attributes: attrs}}
	}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "The Kubernetes release catalog of the fleet's regions and what each auto-upgrade channel " +
			"(`Stable`, `Rapid`, `NodeImage` and, with `target_kubernetes_version`, `TargetKubernetesVersion`) resolves to now, " +
			"at the hub's clock: fleet-wide, over every selected region's catalog together (what an auto-upgrade profile " +
			"targets), and region by region. Preview releases and releases dated after now never count.",
		Attributes: map[string]dschema.Attribute{
			"regions": dschema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Only these " +
				"regions of the fleet, for the catalogs and the fleet-wide resolution. Default: every region of the fleet."},
			"target_kubernetes_version": dschema.StringAttribute{Optional: true, MarkdownDescription: "A minor version " +
				"`major.minor` (e.g. `\"1.30\"`): also resolve channel `TargetKubernetesVersion` to the newest patch of this minor, " +
				"as an auto-upgrade profile with this target would."},
			"long_term_support": dschema.BoolAttribute{Optional: true, MarkdownDescription: "With `target_kubernetes_version`: " +
				"resolve it as a profile with `long_term_support = true`, for which the long-term-support minors are supported " +
				"too. Default `false`."},
			"evaluated_at": str("The instant of the resolution, the hub's current time (RFC 3339)."),
			"newest_minor": str("The newest generally available minor (N) released in any selected region; null when none is."),
			"supported_minors": dschema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The " +
				"minors auto-upgrade moves members within, newest first: N, N−1 and N−2 and, with `long_term_support`, the " +
				"long-term-support minors; over every selected region together."},
			"channels": channelsAttr("What each channel resolves to now, over the catalogs of every selected region together, " +
				"keyed by channel name: `Stable`, `Rapid`, `NodeImage`, and `TargetKubernetesVersion` when " +
				"`target_kubernetes_version` is set."),
			"catalogs": list("The selected regions' release catalogs, sorted by region name.", map[string]dschema.Attribute{
				"name": str("Azure region name."),
				"kubernetes_versions": list("The region's Kubernetes releases, newest version first.", map[string]dschema.Attribute{
					"version":     str("Kubernetes version (major.minor.patch)."),
					"preview":     boolean("Whether the release is a preview; previews never count for a channel."),
					"lts":         boolean("Whether the release is of a long-term-support minor."),
					"released_at": str("When the release is (or will be) available in the region (RFC 3339); null when unknown."),
					"released":    boolean("Whether it is released at or before `evaluated_at`; a release that is not does not count yet."),
				}),
				"node_images": list("The region's node image releases, by family, newest version first.", map[string]dschema.Attribute{
					"family":      str("Node image family, e.g. `AKSUbuntu-2204gen2containerd`."),
					"version":     str("Node image version, e.g. `202611.10.0`."),
					"released_at": str("When the image is (or will be) available in the region (RFC 3339); null when unknown."),
					"released":    boolean("Whether it is released at or before `evaluated_at`; an image that is not does not count yet."),
				}),
				"channels": channelsAttr("What each channel would resolve to against this region's catalog alone, keyed by channel name."),
			}),
		},
	}
}

// input decodes and validates the configuration; ok is false when it is not
// known yet or invalid.
func (d *kubernetesVersionsDataSource) input(raw tftypes.Value, diags *diag.Diagnostics) (kubernetesVersionsModel, bool) {
	var m kubernetesVersionsModel
	unknown, ok := readValue(raw, &m, diags)
	if !ok {
		return m, false
	}
	if m.Regions != nil && len(m.Regions) == 0 {
		reportErrors(diags, "Invalid regions", field.Errors{field.Errorf(field.Root("regions"),
			"Remove regions to see every region of the fleet, or name at least one", "an empty list selects no region")}, unknown)
	}
	switch {
	case m.LongTermSupport && m.TargetKubernetesVersion == "" && !unknown.covers(field.Root("target_kubernetes_version")):
		// This data source's own input: long_term_support qualifies the target it resolves.
		reportErrors(diags, "Invalid long_term_support", field.Errors{field.Errorf(field.Root("long_term_support"),
			`Set target_kubernetes_version too (e.g. "1.28"), or remove long_term_support`,
			"long_term_support widens the minors target_kubernetes_version may name, and no target_kubernetes_version is set")}, unknown)
	case m.TargetKubernetesVersion != "":
		reportErrors(diags, "Invalid target Kubernetes version", update.ValidateProfile(m.targetProfile()), unknown)
	}
	return m, len(unknown) == 0 && !diags.HasError()
}

// targetProfile is the profile whose channel TargetKubernetesVersion the data source resolves.
func (m *kubernetesVersionsModel) targetProfile() update.ProfileSpec {
	return update.ProfileSpec{Channel: update.ChannelTargetKubernetesVersion, TargetKubernetesVersion: m.TargetKubernetesVersion,
		LongTermSupport: m.LongTermSupport}
}

// profiles are the profiles resolved: one per channel, TargetKubernetesVersion when a target is set.
func (m *kubernetesVersionsModel) profiles() []update.ProfileSpec {
	var out []update.ProfileSpec
	for _, c := range update.Channels {
		switch {
		case c != update.ChannelTargetKubernetesVersion:
			out = append(out, update.ProfileSpec{Channel: c})
		case m.TargetKubernetesVersion != "":
			out = append(out, m.targetProfile())
		}
	}
	return out
}

func (d *kubernetesVersionsDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	d.input(req.Config.Raw, &resp.Diagnostics)
}

func (d *kubernetesVersionsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m, ok := d.input(req.Config.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	f, err := d.hub.Fleet(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the fleet", err.Error())
		return
	}
	regions, errs := selectRegions(f, m.Regions)
	if len(errs) > 0 {
		addFieldErrors(&resp.Diagnostics, path.Empty(), "Unknown region", errs)
		return
	}
	now := d.hub.Now()
	profiles := m.profiles()
	channels, resolutions := resolveChannels(profiles, regions, now)
	// Every resolution carries N and the supported minors; the one of the
	// target profile also counts long_term_support's minors.
	fleetWide := resolutions[0]
	if m.TargetKubernetesVersion != "" {
		fleetWide = resolutions[len(resolutions)-1]
	}
	m.EvaluatedAt = rfc3339(now)
	m.NewestMinor = fleetWide.NewestMinor
	m.SupportedMinors = append([]string{}, fleetWide.SupportedMinors...)
	m.Channels = channels
	m.Catalogs = make([]regionCatalogModel, 0, len(regions))
	for _, r := range regions {
		c := catalogFrom(r, now)
		c.Channels, _ = resolveChannels(profiles, []fleet.Region{r}, now)
		m.Catalogs = append(m.Catalogs, c)
	}
	resp.State.Raw = req.Config.Raw
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("evaluated_at"), m.EvaluatedAt, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("newest_minor"), m.NewestMinor, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("supported_minors"), m.SupportedMinors, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("channels"), m.Channels, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("catalogs"), m.Catalogs, &resp.Diagnostics)
}

// selectRegions are the fleet's regions named (all when names is nil), in
// the fleet's order (by name); a name the fleet lacks is an error on it.
func selectRegions(f *fleet.Fleet, names []string) ([]fleet.Region, field.Errors) {
	if names == nil {
		return f.Regions, nil
	}
	want := map[string]bool{}
	var errs field.Errors
	for i, n := range names {
		if _, ok := f.Region(n); !ok {
			known := make([]string, len(f.Regions))
			for j, r := range f.Regions {
				known[j] = r.Name
			}
			fix := "The fleet has no region"
			if len(known) > 0 {
				fix = "The fleet's regions are " + strings.Join(known, ", ")
			}
			errs = append(errs, field.Errorf(field.Root("regions").Index(i), fix, "%q is not a region of the fleet", n))
		}
		want[n] = true
	}
	var out []fleet.Region
	for _, r := range f.Regions {
		if want[r.Name] {
			out = append(out, r)
		}
	}
	return out, errs
}

// resolveChannels resolves each profile's channel against the regions' catalogs together.
func resolveChannels(profiles []update.ProfileSpec, regions []fleet.Region, now time.Time) (map[string]channelModel, []update.Resolution) {
	out := make(map[string]channelModel, len(profiles))
	res := make([]update.Resolution, 0, len(profiles))
	for _, p := range profiles {
		r := update.ResolveProfile(p, regions, now)
		c := channelModel{KubernetesVersion: r.Target, Note: r.Err}
		if r.Err == "" && len(r.NodeImages) > 0 {
			c.NodeImages = r.NodeImages
		}
		out[p.Channel] = c
		res = append(res, r)
	}
	return out, res
}

// catalogFrom lists a region's releases: Kubernetes versions newest first,
// node images by family and newest first; released says whether each is out at now.
func catalogFrom(r fleet.Region, now time.Time) regionCatalogModel {
	c := regionCatalogModel{Name: r.Name, KubernetesVersions: []kubernetesReleaseModel{}, NodeImages: []nodeImageReleaseModel{}}
	ks := append([]fleet.KubernetesRelease(nil), r.KubernetesVersions...)
	sort.SliceStable(ks, func(i, j int) bool { return kubernetesNewer(ks[i].Version, ks[j].Version) })
	for _, k := range ks {
		c.KubernetesVersions = append(c.KubernetesVersions, kubernetesReleaseModel{Version: k.Version, Preview: k.Preview, LTS: k.LTS,
			ReleasedAt: rfc3339(k.ReleasedAt), Released: !k.ReleasedAt.After(now)})
	}
	ims := append([]fleet.NodeImageRelease(nil), r.NodeImages...)
	sort.SliceStable(ims, func(i, j int) bool {
		if ims[i].Family != ims[j].Family {
			return ims[i].Family < ims[j].Family
		}
		return update.ImageLess(ims[j].Version, ims[i].Version) // newest first
	})
	for _, im := range ims {
		c.NodeImages = append(c.NodeImages, nodeImageReleaseModel{Family: im.Family, Version: im.Version,
			ReleasedAt: rfc3339(im.ReleasedAt), Released: !im.ReleasedAt.After(now)})
	}
	return c
}

// kubernetesNewer orders Kubernetes versions newest first; a version that
// does not parse sorts after those that do.
func kubernetesNewer(a, b string) bool {
	va, ea := update.ParseVersion(a)
	vb, eb := update.ParseVersion(b)
	switch {
	case ea == nil && eb == nil:
		return vb.Less(va)
	case ea == nil || eb == nil:
		return ea == nil
	}
	return a > b
}
