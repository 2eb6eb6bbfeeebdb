package provider

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

var (
	_ datasource.DataSourceWithConfigure      = (*memberClustersDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*memberClustersDataSource)(nil)
)

func newMemberClustersDataSource() datasource.DataSource { return &memberClustersDataSource{} }

type memberClustersDataSource struct {
	hubClient
}

// memberClustersModel is the data source's whole state.
type memberClustersModel struct {
	LabelSelector    *selector.LabelSelector    `json:"label_selector"`
	PropertySelector *selector.PropertySelector `json:"property_selector"`
	EligibleOnly     bool                       `json:"eligible_only"`
	Names            []string                   `json:"names"`
	Clusters         []clusterModel             `json:"clusters"`
}

func (memberClustersDataSource) model() any { return &memberClustersModel{} }

type clusterModel struct {
	Name              string                  `json:"name"`
	Region            string                  `json:"region"`
	ResourceGroup     string                  `json:"resource_group"`
	SubscriptionID    string                  `json:"subscription_id"`
	ResourceID        string                  `json:"resource_id"`
	Group             *string                 `json:"group"`
	Labels            map[string]string       `json:"labels"`
	Taints            []taintModel            `json:"taints"`
	Eligible          bool                    `json:"eligible"`
	IneligibleReason  *string                 `json:"ineligible_reason"`
	Agent             agentModel              `json:"agent"`
	Properties        map[string]string       `json:"properties"`
	ResourceUsage     resourceUsageModel      `json:"resource_usage"`
	KubernetesVersion string                  `json:"kubernetes_version"`
	NodePools         []clusterNodePoolModel  `json:"node_pools"`
	MaintenanceWindow *maintenanceWindowModel `json:"maintenance_window"`
	NAPNodes          []napNodeModel          `json:"nap_nodes"`
}

type taintModel struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Effect string `json:"effect"`
}

type agentModel struct {
	Present       bool    `json:"present"`
	Joined        bool    `json:"joined"`
	Healthy       string  `json:"healthy"`
	HealthSince   *string `json:"health_since"`
	LastHeartbeat *string `json:"last_heartbeat"`
	Leaving       bool    `json:"leaving"`
}

type resourceUsageModel struct {
	Capacity    map[string]string `json:"capacity"`
	Allocatable map[string]string `json:"allocatable"`
	Available   map[string]string `json:"available"`
}

type clusterNodePoolModel struct {
	Name             string `json:"name"`
	VMSize           string `json:"vm_size"`
	NodeCount        int64  `json:"node_count"`
	NodeImageFamily  string `json:"node_image_family"`
	NodeImageVersion string `json:"node_image_version"`
}

type maintenanceWindowModel struct {
	Schedule        scheduleModel   `json:"schedule"`
	StartTime       string          `json:"start_time"`
	UTCOffset       string          `json:"utc_offset"`
	DurationHours   int64           `json:"duration_hours"`
	StartDate       *string         `json:"start_date"`
	NotAllowedDates []dateSpanModel `json:"not_allowed_dates"`
}

type scheduleModel struct {
	Type           string  `json:"type"`
	IntervalDays   *int64  `json:"interval_days"`
	IntervalWeeks  *int64  `json:"interval_weeks"`
	IntervalMonths *int64  `json:"interval_months"`
	DayOfWeek      *string `json:"day_of_week"`
	DayOfMonth     *int64  `json:"day_of_month"`
	WeekIndex      *string `json:"week_index"`
}

type dateSpanModel struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

type napNodeModel struct {
	Name              string            `json:"name"`
	NodePool          string            `json:"nodepool"`
	Labels            map[string]string `json:"labels"`
	CreatedAt         string            `json:"created_at"`
	Ready             bool              `json:"ready"`
	MarkedForDeletion bool              `json:"marked_for_deletion"`
	DoNotDisrupt      bool              `json:"do_not_disrupt"`
	Initialized       bool              `json:"initialized"`
	Terminating       bool              `json:"instance_terminating"`
	ExpireAfter       string            `json:"expire_after"`
}

func (d *memberClustersDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_member_clusters"
}

func (d *memberClustersDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

func (d *memberClustersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	strMap := func(desc string) schema.MapAttribute {
		return schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
	}
	i64 := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	boolean := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
	}
	obj := func(desc string, attrs map[string]schema.Attribute) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: desc, Attributes: attrs}
	}
	list := func(desc string, attrs map[string]schema.Attribute) schema.ListNestedAttribute {
		return schema.ListNestedAttribute{Computed: true, MarkdownDescription: desc, NestedObject: schema.NestedAttributeObject{Attributes: attrs}}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the fleet's member clusters with every fact the hub knows about them — labels, taints, " +
			"properties, resource usage, versions, node pools, maintenance window, NAP nodes and scheduling eligibility — " +
			"optionally filtered the way a placement's required affinity would filter them. Sorted by name.",
		Attributes: map[string]schema.Attribute{
			"eligible_only": schema.BoolAttribute{Optional: true, MarkdownDescription: "Only clusters the Fleet scheduler considers " +
				"eligible (joined, healthy, heartbeat within 5 minutes, not leaving). Default `false`."},
			"names": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Names of the matching clusters, sorted."},
			"clusters": list("The matching clusters, sorted by name.", map[string]schema.Attribute{
				"name":            str("Member cluster name."),
				"region":          str("Azure region (location) of the managed cluster."),
				"resource_group":  str("Resource group of the managed cluster."),
				"subscription_id": str("Subscription of the managed cluster."),
				"resource_id":     str("ARM id of the managed cluster."),
				"group":           str("Update group of the member; null when it has none."),
				"labels":          strMap("Member labels, including the automatic `fleet.azure.com/*` labels."),
				"taints": list("Member cluster taints; a placement must tolerate all of them.", map[string]schema.Attribute{
					"key": str("Taint key."), "value": str("Taint value."), "effect": str("Taint effect (`NoSchedule`)."),
				}),
				"eligible":          boolean("Whether the Fleet scheduler may place on this cluster now."),
				"ineligible_reason": str("Why the cluster is not eligible, e.g. `not eligible: heartbeat older than 5m`; null when eligible."),
				"agent": obj("What the Fleet member agent reports.", map[string]schema.Attribute{
					"present":        boolean("Whether the member agent has reported at all."),
					"joined":         boolean("Whether the member has joined the fleet."),
					"healthy":        str("Health condition: `True`, `False` or `Unknown`."),
					"health_since":   str("When the health condition last changed (RFC 3339); null when unknown."),
					"last_heartbeat": str("Last agent heartbeat (RFC 3339); null when never."),
					"leaving":        boolean("Whether the member is leaving the fleet."),
				}),
				"properties": strMap("Reported cluster properties, e.g. `kubernetes-fleet.io/node-count`, `kubernetes.azure.com/per-cpu-core-cost`."),
				"resource_usage": obj("Resource usage as Kubernetes quantities, keyed by resource (`cpu`, `memory`); readable by property selectors as `resources.kubernetes-fleet.io/{total|allocatable|available}-<resource>`.", map[string]schema.Attribute{
					"capacity":    strMap("Total capacity (`total-*` properties)."),
					"allocatable": strMap("Allocatable resources."),
					"available":   strMap("Resources still available."),
				}),
				"kubernetes_version": str("Control-plane Kubernetes version."),
				"node_pools": list("AKS node pools.", map[string]schema.Attribute{
					"name": str("Node pool name."), "vm_size": str("VM size."), "node_count": i64("Number of nodes."),
					"node_image_family": str("Node image family."), "node_image_version": str("Node image version."),
				}),
				"maintenance_window": obj("AKS planned-maintenance window for auto-upgrades; null when none.", map[string]schema.Attribute{
					"schedule": obj("Recurrence.", map[string]schema.Attribute{
						"type":            str("`Daily`, `Weekly`, `AbsoluteMonthly` or `RelativeMonthly`."),
						"interval_days":   i64("Daily: every n days."),
						"interval_weeks":  i64("Weekly: every n weeks."),
						"interval_months": i64("Monthly: every n months."),
						"day_of_week":     str("Weekly and RelativeMonthly: the weekday."),
						"day_of_month":    i64("AbsoluteMonthly: the day of the month."),
						"week_index":      str("RelativeMonthly: `First` … `Fourth` or `Last`."),
					}),
					"start_time":     str("Start time of day, `HH:mm`, in `utc_offset`."),
					"utc_offset":     str("UTC offset of `start_time`, `±hh:mm`."),
					"duration_hours": i64("Window length in hours (at least 4)."),
					"start_date":     str("First date the schedule applies (YYYY-MM-DD); null when not set."),
					"not_allowed_dates": list("Date ranges on which no maintenance happens.", map[string]schema.Attribute{
						"start": str("First date (YYYY-MM-DD)."), "end": str("Last date (YYYY-MM-DD)."),
					}),
				}),
				"nap_nodes": list("Nodes created by Node Auto Provisioning, as the mock hub's inventory describes them. The azure hub "+
					"lists none here (it would read every member's NodeClaims): a pool's nodes show in `aks_nap_nodepool`'s preview and status.",
					map[string]schema.Attribute{
						"name": str("Node name."), "nodepool": str("Karpenter NodePool that owns the node."),
						"labels":              strMap("Node labels (instance type, capacity type, zone, …)."),
						"created_at":          str("Creation time (RFC 3339)."),
						"ready":               boolean("Whether the node is Ready."),
						"marked_for_deletion": boolean("Whether the node is being deleted."),
						"do_not_disrupt":      boolean("Whether the node carries `karpenter.sh/do-not-disrupt: \"true\"`."),
						"initialized": boolean("Whether Karpenter has initialized the node (label `karpenter.sh/initialized: \"true\"`). " +
							"Disruption budgets count only initialized nodes."),
						"instance_terminating": boolean("Whether the node's instance is being deleted (its NodeClaim's `InstanceTerminating` " +
							"condition). Disruption budgets do not count it."),
						"expire_after": str("The node's own `expireAfter` (its NodeClaim's), copied from its pool when it was launched: " +
							"the node expires this long after its creation, whatever the pool says now."),
					}),
			}),
		},
		Blocks: map[string]schema.Block{
			"label_selector":    dataSourceBlock(blockOf(labelSelectorAttr("Only clusters whose labels match."))),
			"property_selector": dataSourceBlock(blockOf(propertySelectorAttr("Only clusters whose properties match."))),
		},
	}
}

// memberClustersFilterFrom decodes and validates the configured filter; ok
// is false when it is not known yet or invalid (diagnostics say why).
func memberClustersFilterFrom(raw tftypes.Value, diags *diag.Diagnostics) (selector.ClusterFilter, bool) {
	var in memberClustersModel
	unknown, ok := readValue(raw, &in, diags)
	if !ok {
		return selector.ClusterFilter{}, false
	}
	var errs field.Errors
	if in.LabelSelector != nil {
		errs = append(errs, prefixed(field.Root("label_selector"), in.LabelSelector.Validate())...)
	}
	if in.PropertySelector != nil {
		errs = append(errs, prefixed(field.Root("property_selector"), in.PropertySelector.Validate())...)
	}
	reportErrors(diags, "Invalid cluster filter", errs, unknown)
	ok = len(unknown) == 0 && !diags.HasError()
	return selector.ClusterFilter{Labels: in.LabelSelector, Properties: in.PropertySelector, EligibleOnly: in.EligibleOnly}, ok
}

// prefixedWarnings moves warnings reported relative to a selector under its attribute.
func prefixedWarnings(base field.Path, ws []field.Warning) []field.Warning {
	for i := range ws {
		ws[i].Path = base.Concat(ws[i].Path)
	}
	return ws
}

// prefixed moves errors reported relative to a selector under its attribute.
func prefixed(base field.Path, errs field.Errors) field.Errors {
	for i := range errs {
		errs[i].Path = base.Concat(errs[i].Path)
	}
	return errs
}

func (d *memberClustersDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	memberClustersFilterFrom(req.Config.Raw, &resp.Diagnostics)
}

func (d *memberClustersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	filter, ok := memberClustersFilterFrom(req.Config.Raw, &resp.Diagnostics)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	f, err := d.hub.Fleet(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the fleet", err.Error())
		return
	}
	now := d.hub.Now()
	if filter.Properties != nil {
		ws := filter.Properties.Warnings(selector.FleetProperties(f), "this expression is false for every cluster and the data source lists none")
		reportWarnings(&resp.Diagnostics, "Member clusters", prefixedWarnings(field.Root("property_selector"), ws))
	}
	matches, err := filter.Apply(f, now)
	if err != nil {
		at := field.Root("property_selector")
		var ee *selector.ExpressionError
		if errors.As(err, &ee) {
			at = at.Child("match_expressions").Index(ee.Index).Child("name")
		}
		addFieldErrors(&resp.Diagnostics, path.Empty(), "Cannot evaluate the property selector", field.Errors{field.Errorf(at,
			"Select on a property whose values are quantities, or on a resource whose name has no '-' (such as cpu or memory).", "%s", err.Error())})
		return
	}
	names := make([]string, 0, len(matches))
	clusters := make([]clusterModel, 0, len(matches))
	for _, c := range matches {
		names = append(names, c.Cluster.Name)
		clusters = append(clusters, clusterFrom(c.Cluster, c.Eligibility))
	}
	resp.State.Raw = req.Config.Raw
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("names"), names, &resp.Diagnostics)
	setComputed(ctx, &resp.State, resp.State.Schema, path.Root("clusters"), clusters, &resp.Diagnostics)
}

func clusterFrom(c *fleet.Cluster, e fleet.Eligibility) clusterModel {
	out := clusterModel{
		Name:              c.Name,
		Region:            c.Region,
		ResourceGroup:     c.ResourceGroup,
		SubscriptionID:    c.SubscriptionID,
		ResourceID:        c.ResourceID,
		Group:             optString(c.Group),
		Labels:            c.Labels,
		Taints:            []taintModel{},
		Eligible:          e.Eligible,
		IneligibleReason:  optString(e.Reason),
		Properties:        nonNilMap(c.Properties),
		KubernetesVersion: c.KubernetesVersion,
		NodePools:         []clusterNodePoolModel{},
		NAPNodes:          []napNodeModel{},
		Agent: agentModel{
			Present: c.Agent.Present, Joined: c.Agent.Joined, Healthy: c.Agent.Healthy, Leaving: c.Agent.Leaving,
			HealthSince: optTime(c.Agent.HealthSince), LastHeartbeat: optTime(c.Agent.LastHeartbeat),
		},
		ResourceUsage: resourceUsageModel{
			Capacity: quantityMap(c.Usage.Capacity), Allocatable: quantityMap(c.Usage.Allocatable), Available: quantityMap(c.Usage.Available),
		},
	}
	if out.Agent.Healthy == "" {
		out.Agent.Healthy = fleet.ConditionUnknown
	}
	for _, t := range c.Taints {
		out.Taints = append(out.Taints, taintModel(t))
	}
	for _, np := range c.NodePools {
		out.NodePools = append(out.NodePools, clusterNodePoolModel{Name: np.Name, VMSize: np.VMSize, NodeCount: int64(np.NodeCount), NodeImageFamily: np.NodeImageFamily, NodeImageVersion: np.NodeImageVersion})
	}
	if w := c.MaintenanceWindow; w != nil {
		mw := &maintenanceWindowModel{StartTime: w.StartTime, UTCOffset: w.UTCOffset, DurationHours: int64(w.DurationHours), StartDate: optString(w.StartDate), NotAllowedDates: []dateSpanModel{}}
		if mw.UTCOffset == "" {
			mw.UTCOffset = "+00:00"
		}
		s := w.Schedule
		mw.Schedule = scheduleModel{Type: s.Type, IntervalDays: optInt(s.IntervalDays), IntervalWeeks: optInt(s.IntervalWeeks),
			IntervalMonths: optInt(s.IntervalMonths), DayOfWeek: optString(s.DayOfWeek), DayOfMonth: optInt(s.DayOfMonth), WeekIndex: optString(s.WeekIndex)}
		for _, d := range w.NotAllowed {
			mw.NotAllowedDates = append(mw.NotAllowedDates, dateSpanModel(d))
		}
		out.MaintenanceWindow = mw
	}
	for _, n := range c.NAPNodes {
		out.NAPNodes = append(out.NAPNodes, napNodeModel{Name: n.Name, NodePool: n.NodePool, Labels: nonNilMap(n.Labels), CreatedAt: n.CreatedAt.Format(time.RFC3339),
			Ready: n.Ready, MarkedForDeletion: n.MarkedForDeletion, DoNotDisrupt: n.DoNotDisrupt,
			Initialized: !n.Uninitialized, Terminating: n.InstanceTerminating, ExpireAfter: n.ExpireAfter})
	}
	return out
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optInt(i int) *int64 {
	if i == 0 {
		return nil
	}
	v := int64(i)
	return &v
}

func optTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

func nonNilMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func quantityMap(m map[string]resource.Quantity) map[string]string {
	out := make(map[string]string, len(m))
	for k, q := range m {
		out[k] = fleet.FormatQuantity(q)
	}
	return out
}
