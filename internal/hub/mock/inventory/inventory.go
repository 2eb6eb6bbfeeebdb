// Package inventory reads the mock hub's inventory: the file that describes
// the simulated fleet (regions, member clusters with their agents, labels,
// taints, properties, node pools, maintenance windows and NAP nodes, and the
// hub cluster's resources). A document is YAML, or JSON in a file named
// *.json; both decode strictly (keys match exactly, unknown and duplicate
// fields are errors), and every error names the file, the line and the
// field. Decode parses a document once; Build turns it into the engine's
// fleet at an instant (relative ages resolved then), so one decoded document
// serves every command until the file changes. It reads no state and keeps
// none: the mock hub (package mock) stores what it decoded.
package inventory

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	k8sjson "sigs.k8s.io/json"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
)

// Sample is the built-in inventory used when no fleet file is configured.
//
//go:embed sample_fleet.yaml
var Sample []byte

// SampleName is how the built-in inventory is named in messages.
const SampleName = "<built-in sample fleet>"

// DefaultSubscriptionID is used for clusters that do not name a subscription.
const DefaultSubscriptionID = "00000000-0000-0000-0000-000000000000"

// The inventory file format, in YAML or JSON (a file named *.json). Every
// field is snake_case; unknown fields are errors.
type Document struct {
	Regions    []rawRegion   `yaml:"regions" json:"regions"`
	Clusters   []rawCluster  `yaml:"clusters" json:"clusters"`
	HubCluster rawHubCluster `yaml:"hub_cluster" json:"hub_cluster"`

	// clusters are the parts of every cluster that do not depend on the
	// instant, resolved once (shared): a hub builds the fleet again at every
	// instant its clock reaches, and parsing quantities and building label
	// maps were most of that. The fleets built share them read-only, as
	// they share each cluster's properties.
	clustersOnce sync.Once
	clusters     []sharedCluster
	// hub is the hub cluster's section resolved once (hubOf): it does not
	// depend on the instant either.
	hubOnce sync.Once
	hub     fleet.HubResources
}

// sharedCluster is what the fleets built from one document share of a
// cluster, resolved by the first build's worker that builds it
// (toCluster).
type sharedCluster struct {
	once  sync.Once
	parts clusterParts
}

// shared is cluster i's shared part. Only for a document that passed
// validation.
func (raw *Document) shared(i int) *sharedCluster {
	raw.clustersOnce.Do(func() { raw.clusters = make([]sharedCluster, len(raw.Clusters)) })
	return &raw.clusters[i]
}

// clusterParts are the parts of a cluster that do not depend on the
// instant: its resource id, its labels (the automatic ones and its own)
// and its resource usage.
type clusterParts struct {
	resourceID string
	labels     map[string]string
	usage      fleet.ResourceUsage
}

// parts resolves c's parts (c holds its name, region, resource group and
// subscription); p is c's path, for the errors of its resource usage.
func (rc *rawCluster) parts(c *fleet.Cluster, p func() field.Path) (clusterParts, field.Errors) {
	out := clusterParts{resourceID: fleet.ManagedClusterID(c.SubscriptionID, c.ResourceGroup, c.Name), labels: clusterLabels(c, rc.Labels)}
	usage := func(name string) func() field.Path {
		return func() field.Path { return p().Child("resource_usage").Child(name) }
	}
	var errs, uerrs field.Errors
	out.usage.Capacity, uerrs = quantities(usage("capacity"), rc.ResourceUsage.Capacity)
	errs = append(errs, uerrs...)
	out.usage.Allocatable, uerrs = quantities(usage("allocatable"), rc.ResourceUsage.Allocatable)
	errs = append(errs, uerrs...)
	out.usage.Available, uerrs = quantities(usage("available"), rc.ResourceUsage.Available)
	return out, append(errs, uerrs...)
}

// clusterLabels are a cluster's labels: the automatic ones (c's name,
// region, resource group and subscription), then its own.
func clusterLabels(c *fleet.Cluster, own map[string]string) map[string]string {
	auto := fleet.AutomaticLabels(c)
	if len(own) == 0 {
		return auto
	}
	labels := make(map[string]string, len(auto)+len(own))
	maps.Copy(labels, auto)
	maps.Copy(labels, own)
	return labels
}

// hubOf is the hub cluster's resources, resolved once per document that
// passed validation.
func (raw *Document) hubOf() fleet.HubResources {
	raw.hubOnce.Do(func() { raw.hub, _ = raw.HubCluster.toHub(field.Root("hub_cluster")) })
	return raw.hub
}

type rawRegion struct {
	Name               string          `yaml:"name" json:"name"`
	KubernetesVersions []rawK8sRelease `yaml:"kubernetes_versions" json:"kubernetes_versions"`
	NodeImages         []rawNodeImage  `yaml:"node_images" json:"node_images"`
}

type rawK8sRelease struct {
	Version    string `yaml:"version" json:"version"`
	Preview    bool   `yaml:"preview" json:"preview"`
	LTS        bool   `yaml:"lts" json:"lts"`
	ReleasedAt string `yaml:"released_at" json:"released_at"`
}

type rawNodeImage struct {
	Family     string `yaml:"family" json:"family"`
	Version    string `yaml:"version" json:"version"`
	ReleasedAt string `yaml:"released_at" json:"released_at"`
}

type rawCluster struct {
	Name              string            `yaml:"name" json:"name"`
	Region            string            `yaml:"region" json:"region"`
	ResourceGroup     string            `yaml:"resource_group" json:"resource_group"`
	SubscriptionID    string            `yaml:"subscription_id" json:"subscription_id"`
	Group             string            `yaml:"group" json:"group"`
	Labels            map[string]string `yaml:"labels" json:"labels"`
	Taints            []rawTaint        `yaml:"taints" json:"taints"`
	Agent             rawAgent          `yaml:"agent" json:"agent"`
	Properties        map[string]string `yaml:"properties" json:"properties"`
	ResourceUsage     rawUsage          `yaml:"resource_usage" json:"resource_usage"`
	KubernetesVersion string            `yaml:"kubernetes_version" json:"kubernetes_version"`
	NodePools         []rawNodePool     `yaml:"node_pools" json:"node_pools"`
	MaintenanceWindow *rawWindow        `yaml:"maintenance_window" json:"maintenance_window"`
	NAPNodes          []rawNAPNode      `yaml:"nap_nodes" json:"nap_nodes"`
	Failures          rawFailures       `yaml:"failures" json:"failures"`
}

type rawTaint struct {
	Key    string `yaml:"key" json:"key"`
	Value  string `yaml:"value" json:"value"`
	Effect string `yaml:"effect" json:"effect"`
}

// rawAgent describes the member agent. The last heartbeat is given as an age
// (`heartbeat_age: 10m`, as old at any time: a live agent keeps reporting) or
// as an RFC 3339 instant.
type rawAgent struct {
	Present       optBool `yaml:"present" json:"present"`
	Joined        optBool `yaml:"joined" json:"joined"`
	Healthy       string  `yaml:"healthy" json:"healthy"`
	UnhealthyFor  string  `yaml:"unhealthy_for" json:"unhealthy_for"`
	HeartbeatAge  string  `yaml:"heartbeat_age" json:"heartbeat_age"`
	LastHeartbeat string  `yaml:"last_heartbeat" json:"last_heartbeat"`
	Leaving       bool    `yaml:"leaving" json:"leaving"`
}

type rawUsage struct {
	Capacity    map[string]string `yaml:"capacity" json:"capacity"`
	Allocatable map[string]string `yaml:"allocatable" json:"allocatable"`
	Available   map[string]string `yaml:"available" json:"available"`
}

type rawNodePool struct {
	Name             string `yaml:"name" json:"name"`
	VMSize           string `yaml:"vm_size" json:"vm_size"`
	NodeCount        int    `yaml:"node_count" json:"node_count"`
	NodeImageFamily  string `yaml:"node_image_family" json:"node_image_family"`
	NodeImageVersion string `yaml:"node_image_version" json:"node_image_version"`
}

type rawWindow struct {
	Schedule        rawSchedule   `yaml:"schedule" json:"schedule"`
	StartTime       string        `yaml:"start_time" json:"start_time"`
	UTCOffset       string        `yaml:"utc_offset" json:"utc_offset"`
	DurationHours   int           `yaml:"duration_hours" json:"duration_hours"`
	StartDate       string        `yaml:"start_date" json:"start_date"`
	NotAllowedDates []rawDateSpan `yaml:"not_allowed_dates" json:"not_allowed_dates"`
}

type rawSchedule struct {
	Daily           *rawDaily           `yaml:"daily" json:"daily"`
	Weekly          *rawWeekly          `yaml:"weekly" json:"weekly"`
	AbsoluteMonthly *rawAbsoluteMonthly `yaml:"absolute_monthly" json:"absolute_monthly"`
	RelativeMonthly *rawRelativeMonthly `yaml:"relative_monthly" json:"relative_monthly"`
}

type rawDaily struct {
	IntervalDays int `yaml:"interval_days" json:"interval_days"`
}

type rawWeekly struct {
	IntervalWeeks int    `yaml:"interval_weeks" json:"interval_weeks"`
	DayOfWeek     string `yaml:"day_of_week" json:"day_of_week"`
}

type rawAbsoluteMonthly struct {
	IntervalMonths int `yaml:"interval_months" json:"interval_months"`
	DayOfMonth     int `yaml:"day_of_month" json:"day_of_month"`
}

type rawRelativeMonthly struct {
	IntervalMonths int    `yaml:"interval_months" json:"interval_months"`
	WeekIndex      string `yaml:"week_index" json:"week_index"`
	DayOfWeek      string `yaml:"day_of_week" json:"day_of_week"`
}

type rawDateSpan struct {
	Start string `yaml:"start" json:"start"`
	End   string `yaml:"end" json:"end"`
}

// rawNAPNode is a node of Node Auto Provisioning. Its creation is given as an
// age when the inventory took effect (`age: 30h`; it then ages with the
// clock; the mock hub's loadInventory) or as an RFC 3339 instant.
type rawNAPNode struct {
	Name              string            `yaml:"name" json:"name"`
	NodePool          string            `yaml:"nodepool" json:"nodepool"`
	Labels            map[string]string `yaml:"labels" json:"labels"`
	Age               string            `yaml:"age" json:"age"`
	CreatedAt         string            `yaml:"created_at" json:"created_at"`
	Ready             optBool           `yaml:"ready" json:"ready"`
	MarkedForDeletion bool              `yaml:"marked_for_deletion" json:"marked_for_deletion"`
	DoNotDisrupt      bool              `yaml:"do_not_disrupt" json:"do_not_disrupt"`
	// Initialized is false for a node Karpenter has not initialized yet
	// (default true); InstanceTerminating for one whose instance is being
	// deleted; ExpireAfter is its claim's own expireAfter (default 720h, as
	// the NodeClaim CRD defaults it).
	Initialized         optBool `yaml:"initialized" json:"initialized"`
	InstanceTerminating bool    `yaml:"instance_terminating" json:"instance_terminating"`
	ExpireAfter         string  `yaml:"expire_after" json:"expire_after"`
}

// optBool is a boolean that may be left out. It is a small integer rather
// than a *bool so that the gob snapshot of the document keeps an explicit
// false (gob drops zero values, and a pointer to false with them).
type optBool uint8

const (
	boolUnset optBool = iota
	boolTrue
	boolFalse
)

// UnmarshalYAML reads a YAML boolean.
func (b *optBool) UnmarshalYAML(n *yaml.Node) error {
	var v bool
	if err := n.Decode(&v); err != nil {
		return err
	}
	*b = boolFalse
	if v {
		*b = boolTrue
	}
	return nil
}

// UnmarshalJSON reads a JSON boolean.
func (b *optBool) UnmarshalJSON(data []byte) error {
	var v bool
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*b = boolFalse
	if v {
		*b = boolTrue
	}
	return nil
}

func (b optBool) or(def bool) bool {
	if b == boolUnset {
		return def
	}
	return b == boolTrue
}

type rawFailures struct {
	Upgrade   string `yaml:"upgrade" json:"upgrade"`
	Placement string `yaml:"placement" json:"placement"`
}

// Error is a problem in an inventory file, located by file, line and field.
type Error struct {
	File  string
	Line  int // 0 when unknown
	Field string
	Msg   string
}

func (e Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += fmt.Sprintf(":%d", e.Line)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", loc, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// Errors are all the problems found in one inventory file.
type Errors []Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// LoadFile reads and parses an inventory file. Relative times are resolved against now.
func LoadFile(path string, now time.Time) (*fleet.Fleet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading fleet inventory: %w", err)
	}
	return Parse(path, data, now)
}

var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// Parse parses an inventory named name (used in messages): JSON
// when the name ends in .json, else YAML.
func Parse(name string, data []byte, now time.Time) (*fleet.Fleet, error) {
	raw, err := Decode(name, data)
	if err != nil {
		return nil, err
	}
	return Build(name, data, raw, now, now, false)
}

// Decode decodes the document strictly: unknown fields and wrong
// types are reported with their line. A file named *.json is decoded with
// sigs.k8s.io/json (encoding/json's decoder, as the Kubernetes API server
// uses it: keys matched exactly, unknown and duplicate fields refused),
// which reads a large fleet several times faster than YAML; a document it
// refuses is decoded again as YAML (JSON is YAML), whose errors have lines.
func Decode(name string, data []byte) (*Document, error) {
	if strings.EqualFold(filepath.Ext(name), ".json") {
		return decodeJSON(name, data)
	}
	return decodeYAML(name, data)
}

// decodeJSON decodes a JSON inventory.
func decodeJSON(name string, data []byte) (*Document, error) {
	var raw Document
	if len(bytes.Trim(data, " \t\r\n")) == 0 { // an empty file (JSON white space only) is an empty fleet
		return &raw, nil
	}
	strict, err := k8sjson.UnmarshalStrict(data, &raw)
	if err == nil && len(strict) == 0 {
		return &raw, nil
	}
	if syntax, offset := k8sjson.SyntaxErrorOffset(err); syntax {
		line := 1 + bytes.Count(data[:min(int(offset), len(data))], []byte("\n"))
		return nil, Error{File: name, Line: line, Msg: "not valid JSON: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	if yraw, yerr := decodeYAML(name, data); yerr != nil {
		return yraw, yerr
	}
	// What YAML reads and JSON does not: a key that differs in case only, a
	// duplicate key, a number where a string is due.
	var out Errors
	if err != nil {
		out = append(out, Error{File: name, Msg: strings.TrimPrefix(err.Error(), "json: ")})
	}
	for _, e := range strict {
		out = append(out, Error{File: name, Msg: e.Error()})
		var fe k8sjson.FieldError
		if errors.As(e, &fe) {
			out[len(out)-1] = Error{File: name, Field: fe.FieldPath(), Msg: strings.TrimSuffix(strings.TrimSuffix(e.Error(), strconv.Quote(fe.FieldPath())), " ")}
		}
	}
	return nil, out
}

// decodeYAML decodes the YAML with yaml.v3, whose panics are
// errors of the document: yaml.v3 panics on a merge key beside a key that is
// itself a mapping (`{<<, {}}`).
func decodeYAML(name string, data []byte) (_ *Document, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = Error{File: name, Msg: fmt.Sprintf("cannot be decoded (yaml.v3 fails on it: %v)", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var raw Document
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) { // an empty file is an empty fleet
			return &raw, nil
		}
		var te *yaml.TypeError
		if errors.As(err, &te) {
			var out Errors
			for _, msg := range te.Errors {
				ie := Error{File: name, Msg: msg}
				if m := yamlLine.FindStringSubmatch(msg); m != nil {
					ie.Line, _ = strconv.Atoi(m[1])
					ie.Msg = m[2]
				}
				out = append(out, ie)
			}
			return nil, out
		}
		return nil, Error{File: name, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	return &raw, nil
}

// Build validates the decoded inventory and resolves its relative times:
// heartbeat ages against now (a live agent keeps reporting), node ages against
// epoch, when this inventory took effect (nodes then age with the clock;
// the fleet changed then: Fleet.ChangedAt). trusted skips the syntax checks
// (names, label keys and values) for a document that already passed them:
// they do not depend on time.
func Build(name string, data []byte, raw *Document, now, epoch time.Time, trusted bool) (*fleet.Fleet, error) {
	f, errs := raw.toFleet(now, epoch, trusted)
	if len(errs) > 0 {
		return nil, locate(name, data, errs)
	}
	if !epoch.After(now) {
		f.ChangedAt = epoch
	}
	return f, nil
}

// locate turns field errors into file:line errors by walking the YAML node tree.
// The tree is parsed only on this error path, so valid inventories parse once.
func locate(name string, data []byte, errs field.Errors) Errors {
	var doc yaml.Node
	_ = yaml.Unmarshal(data, &doc)
	out := make(Errors, len(errs))
	for i, e := range errs {
		msg := e.Rule
		if e.Fix != "" {
			msg += ". " + e.Fix
		}
		out[i] = Error{File: name, Line: lineOf(&doc, e.Path), Field: e.Path.String(), Msg: msg}
	}
	return out
}

// lineOf returns the line of the deepest node along p that exists.
func lineOf(doc *yaml.Node, p field.Path) int {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, s := range p.Steps() {
		var next *yaml.Node
		switch {
		case n.Kind == yaml.SequenceNode && s.Name == "" && !s.IsKey && s.Index >= 0 && s.Index < len(n.Content):
			next = n.Content[s.Index]
			line = next.Line
		case n.Kind == yaml.MappingNode:
			key := s.Name
			if s.IsKey {
				key = s.Key
			}
			for j := 0; j+1 < len(n.Content); j += 2 {
				if n.Content[j].Value == key {
					line = n.Content[j].Line
					next = n.Content[j+1]
					break
				}
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return line
}

// toFleet converts and validates the raw inventory.
func (raw *Document) toFleet(now, epoch time.Time, trusted bool) (*fleet.Fleet, field.Errors) {
	var errs field.Errors
	f := &fleet.Fleet{}
	regions := map[string]bool{}
	for i, r := range raw.Regions {
		p := field.Root("regions").Index(i)
		if r.Name == "" {
			errs = append(errs, field.Errorf(p.Child("name"), "", "a region needs a name"))
		} else if regions[r.Name] {
			errs = append(errs, field.Errorf(p.Child("name"), "Declare each region once.", "duplicate region %q", r.Name))
		}
		regions[r.Name] = true
		region := fleet.Region{Name: r.Name}
		for j, k := range r.KubernetesVersions {
			kp := p.Child("kubernetes_versions").Index(j)
			if !validKubernetesVersion(k.Version) {
				errs = append(errs, field.Errorf(kp.Child("version"), "Write it as major.minor.patch, e.g. 1.31.2.", "%q is not a Kubernetes version", k.Version))
			}
			t, err := instant(k.ReleasedAt)
			if err != nil {
				errs = append(errs, field.Errorf(kp.Child("released_at"), timeFix, "%v", err))
			}
			region.KubernetesVersions = append(region.KubernetesVersions, fleet.KubernetesRelease{Version: strings.TrimPrefix(k.Version, "v"), Preview: k.Preview, LTS: k.LTS, ReleasedAt: t})
		}
		for j, ni := range r.NodeImages {
			np := p.Child("node_images").Index(j)
			if ni.Family == "" || ni.Version == "" {
				errs = append(errs, field.Errorf(np, "", "a node image needs a family and a version"))
			}
			t, err := instant(ni.ReleasedAt)
			if err != nil {
				errs = append(errs, field.Errorf(np.Child("released_at"), timeFix, "%v", err))
			}
			region.NodeImages = append(region.NodeImages, fleet.NodeImageRelease{Family: ni.Family, Version: ni.Version, ReleasedAt: t})
		}
		f.Regions = append(f.Regions, region)
	}
	clusters, cerrs := raw.convertClusters(regions, now, epoch, trusted)
	errs = append(errs, cerrs...)
	f.Clusters = clusters[:0] // in place: a duplicate is dropped
	seen := make(map[string]int, len(clusters))
	for i, c := range clusters {
		if prev, dup := seen[c.Name]; dup && c.Name != "" {
			errs = append(errs, field.Errorf(field.Root("clusters").Index(i).Child("name"), "Cluster names must be unique in a fleet.", "duplicate cluster %q (first declared as clusters[%d])", c.Name, prev))
			continue
		}
		seen[c.Name] = i
		f.Clusters = append(f.Clusters, c)
	}
	if trusted {
		f.Hub = raw.hubOf()
	} else {
		var herrs field.Errors
		f.Hub, herrs = raw.HubCluster.toHub(field.Root("hub_cluster"))
		errs = append(errs, herrs...)
	}
	f.Sort()
	return f, errs
}

// validKubernetesVersion tells whether s is a Kubernetes version
// major.minor.patch (update.ParseFullVersion).
func validKubernetesVersion(s string) bool {
	_, err := update.ParseFullVersion(s)
	return err == nil
}

// validClusterName tells whether s is a DNS label (RFC 1123), as Fleet
// names member clusters.
func validClusterName(s string) bool { return len(validation.IsDNS1123Label(s)) == 0 }

// syntaxCache remembers the label keys and values found valid, which repeat
// across the clusters of a fleet. One converting goroutine owns it.
type syntaxCache struct {
	keys, values map[string]bool
}

func newSyntaxCache() *syntaxCache {
	return &syntaxCache{keys: map[string]bool{}, values: map[string]bool{}}
}

func (sc *syntaxCache) validKey(k string) bool {
	return remember(sc.keys, k, func() bool { return len(validation.IsQualifiedName(k)) == 0 })
}

func (sc *syntaxCache) validValue(v string) bool {
	return remember(sc.values, v, func() bool { return len(validation.IsValidLabelValue(v)) == 0 })
}

// remember answers valid(s) once for each s found valid.
func remember(seen map[string]bool, s string, valid func() bool) bool {
	if seen[s] {
		return true
	}
	if !valid() {
		return false
	}
	seen[s] = true
	return true
}

const timeFix = "Use an RFC 3339 instant (2026-11-01T00:00:00Z)"

// instant parses an RFC 3339 instant; empty means "long ago" (the zero time).
func instant(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not an RFC 3339 time", s)
	}
	return t.UTC(), nil
}

// ago resolves an age (a Go duration before now) or an absolute instant.
func ago(age, at string, now time.Time, p func() field.Path, ageName, atName string) (time.Time, field.Errors) {
	switch {
	case age != "" && at != "":
		return time.Time{}, field.Errors{field.Errorf(p().Child(ageName), "Give either "+ageName+" or "+atName+".", "%s and %s are both set", ageName, atName)}
	case age != "":
		d, err := time.ParseDuration(age)
		if err != nil || d < 0 {
			return time.Time{}, field.Errors{field.Errorf(p().Child(ageName), "Use a Go duration such as 30s, 10m or 36h.", "%q is not a duration", age)}
		}
		return now.Add(-d), nil
	case at != "":
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			return time.Time{}, field.Errors{field.Errorf(p().Child(atName), timeFix+".", "%q is not an RFC 3339 time", at)}
		}
		return t.UTC(), nil
	}
	return now, nil
}

// convertClusters converts every cluster, in parallel chunks on large
// inventories (each cluster converts independently), keeping their order.
func (raw *Document) convertClusters(regions map[string]bool, now, epoch time.Time, trusted bool) ([]fleet.Cluster, field.Errors) {
	n := len(raw.Clusters)
	out := make([]fleet.Cluster, n)
	workers := runtime.GOMAXPROCS(0)
	if n < 512 || workers < 2 {
		workers = 1
	}
	chunkErrs := make([]field.Errors, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			sc := newSyntaxCache()
			for i := w * n / workers; i < (w+1)*n/workers; i++ {
				var errs field.Errors
				var shared *sharedCluster
				if trusted {
					shared = raw.shared(i)
				}
				out[i], errs = raw.Clusters[i].toCluster(i, regions, now, epoch, trusted, sc, shared)
				chunkErrs[w] = append(chunkErrs[w], errs...)
			}
		}(w)
	}
	wg.Wait()
	var errs field.Errors
	for _, e := range chunkErrs {
		errs = append(errs, e...)
	}
	return out, errs
}

func (rc *rawCluster) toCluster(index int, regions map[string]bool, now, epoch time.Time, trusted bool, sc *syntaxCache, shared *sharedCluster) (fleet.Cluster, field.Errors) {
	var errs field.Errors
	// Paths are built only for errors: most clusters have none.
	p := func() field.Path { return field.Root("clusters").Index(index) }
	c := fleet.Cluster{
		Name:              rc.Name,
		Region:            rc.Region,
		ResourceGroup:     rc.ResourceGroup,
		SubscriptionID:    rc.SubscriptionID,
		Group:             rc.Group,
		Properties:        rc.Properties,
		KubernetesVersion: strings.TrimPrefix(rc.KubernetesVersion, "v"),
		Failures:          fleet.Failures{Upgrade: rc.Failures.Upgrade, Placement: rc.Failures.Placement},
	}
	if !trusted && !validClusterName(rc.Name) {
		errs = append(errs, field.Errorf(p().Child("name"), "Use lower-case letters, digits and '-', at most 63 characters.", "%q is not a valid member name", rc.Name))
	}
	switch {
	case rc.Region == "":
		errs = append(errs, field.Errorf(p().Child("region"), "Set region to one of the regions declared under regions.", "a cluster needs a region"))
	case !regions[rc.Region]:
		errs = append(errs, field.Errorf(p().Child("region"), "Declare it under regions, or use one of: "+strings.Join(slices.Sorted(maps.Keys(regions)), ", ")+".", "unknown region %q", rc.Region))
	}
	if c.ResourceGroup == "" {
		c.ResourceGroup = "rg-" + rc.Region
	}
	if c.SubscriptionID == "" {
		c.SubscriptionID = DefaultSubscriptionID
	}
	if !trusted && rc.KubernetesVersion != "" && !validKubernetesVersion(rc.KubernetesVersion) {
		errs = append(errs, field.Errorf(p().Child("kubernetes_version"), "Write it as major.minor.patch, e.g. 1.31.2.", "%q is not a Kubernetes version", rc.KubernetesVersion))
	}

	if !trusted {
		valid := true
		for k, v := range rc.Labels {
			valid = valid && sc.validKey(k) && sc.validValue(v)
		}
		if !valid { // report in key order
			for _, k := range slices.Sorted(maps.Keys(rc.Labels)) {
				if msgs := validation.IsQualifiedName(k); len(msgs) > 0 {
					errs = append(errs, field.Errorf(p().Child("labels").Key(k), "", "%q is not a valid label key: %s", k, strings.Join(msgs, "; ")))
				}
				if msgs := validation.IsValidLabelValue(rc.Labels[k]); len(msgs) > 0 {
					errs = append(errs, field.Errorf(p().Child("labels").Key(k), "", "%q is not a valid label value: %s", rc.Labels[k], strings.Join(msgs, "; ")))
				}
			}
		}
	}
	for j, t := range rc.Taints {
		tp := func() field.Path { return p().Child("taints").Index(j) }
		if !trusted && !sc.validKey(t.Key) {
			msgs := validation.IsQualifiedName(t.Key)
			errs = append(errs, field.Errorf(tp().Child("key"), "", "%q is not a valid taint key: %s", t.Key, strings.Join(msgs, "; ")))
		}
		if t.Effect == "" {
			t.Effect = fleet.TaintEffectNoSchedule
		}
		if t.Effect != fleet.TaintEffectNoSchedule {
			errs = append(errs, field.Errorf(tp().Child("effect"), "Member cluster taints only support NoSchedule.", "unsupported taint effect %q", t.Effect))
		}
		c.Taints = append(c.Taints, fleet.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
	}

	var aerrs field.Errors
	c.Agent, aerrs = rc.Agent.toStatus(func() field.Path { return p().Child("agent") }, now)
	errs = append(errs, aerrs...)

	var parts clusterParts
	if shared != nil {
		shared.once.Do(func() { shared.parts, _ = rc.parts(&c, p) })
		parts = shared.parts
	} else {
		var perrs field.Errors
		parts, perrs = rc.parts(&c, p)
		errs = append(errs, perrs...)
	}
	c.ResourceID, c.Labels, c.Usage = parts.resourceID, parts.labels, parts.usage

	for j, np := range rc.NodePools {
		if np.Name == "" {
			errs = append(errs, field.Errorf(p().Child("node_pools").Index(j).Child("name"), "", "a node pool needs a name"))
		}
		if np.NodeCount < 0 {
			errs = append(errs, field.Errorf(p().Child("node_pools").Index(j).Child("node_count"), "", "must not be negative"))
		}
		c.NodePools = append(c.NodePools, fleet.NodePool(np))
	}

	if w := rc.MaintenanceWindow; w != nil {
		mw, werrs := w.toWindow(!trusted)
		if len(werrs) > 0 {
			errs = append(errs, werrs.Prefix(p().Child("maintenance_window"))...)
		}
		c.MaintenanceWindow = mw
	}

	for j, n := range rc.NAPNodes {
		np := func() field.Path { return p().Child("nap_nodes").Index(j) }
		created, nerrs := ago(n.Age, n.CreatedAt, epoch, np, "age", "created_at")
		errs = append(errs, nerrs...)
		if n.Name == "" || n.NodePool == "" {
			errs = append(errs, field.Errorf(np(), "", "a NAP node needs a name and a nodepool"))
		}
		if n.ExpireAfter != "" {
			errs = append(errs, nodepool.ValidateExpireAfter(np().Child("expire_after"), n.ExpireAfter)...)
		}
		c.NAPNodes = append(c.NAPNodes, fleet.NAPNode{
			Name: n.Name, NodePool: n.NodePool, Labels: n.Labels, CreatedAt: created,
			Ready: n.Ready.or(true), MarkedForDeletion: n.MarkedForDeletion, DoNotDisrupt: n.DoNotDisrupt,
			Uninitialized: !n.Initialized.or(true), InstanceTerminating: n.InstanceTerminating,
			// A NodeClaim always has one: the CRD defaults it to 720h.
			ExpireAfter: cmp.Or(n.ExpireAfter, nodepool.DefaultExpireAfter),
		})
	}
	return c, errs
}

// toStatus resolves the agent's times; at is the agent's path, for errors.
func (a rawAgent) toStatus(at func() field.Path, now time.Time) (fleet.AgentStatus, field.Errors) {
	var errs field.Errors
	s := fleet.AgentStatus{Present: a.Present.or(true), Joined: a.Joined.or(true), Leaving: a.Leaving}
	switch strings.ToLower(a.Healthy) {
	case "", "true":
		s.Healthy = fleet.ConditionTrue
	case "false":
		s.Healthy = fleet.ConditionFalse
	case "unknown":
		s.Healthy = fleet.ConditionUnknown
	default:
		errs = append(errs, field.Errorf(at().Child("healthy"), "Use true, false or unknown.", "%q is not a health state", a.Healthy))
	}
	var herrs field.Errors
	s.LastHeartbeat, herrs = ago(a.HeartbeatAge, a.LastHeartbeat, now, at, "heartbeat_age", "last_heartbeat")
	errs = append(errs, herrs...)
	s.HealthSince = time.Time{}
	if a.UnhealthyFor != "" {
		d, err := time.ParseDuration(a.UnhealthyFor)
		if err != nil || d < 0 {
			errs = append(errs, field.Errorf(at().Child("unhealthy_for"), "Use a Go duration such as 2m.", "%q is not a duration", a.UnhealthyFor))
		}
		if s.Healthy == fleet.ConditionTrue {
			errs = append(errs, field.Errorf(at().Child("unhealthy_for"), "Set healthy: false or unknown as well.", "unhealthy_for only applies to a cluster whose health is false or unknown"))
		}
		s.HealthSince = now.Add(-d)
	}
	return s, errs
}

// quantities parses a map of quantities; at is its path, for errors, which
// come in key order.
func quantities(at func() field.Path, in map[string]string) (map[string]resource.Quantity, field.Errors) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]resource.Quantity, len(in))
	bad := false
	for k, v := range in {
		q, ok := fleet.ParseQuantity(v)
		if !ok {
			bad = true
			continue
		}
		out[k] = q
	}
	if !bad {
		return out, nil
	}
	var errs field.Errors
	for _, k := range slices.Sorted(maps.Keys(in)) {
		if _, ok := out[k]; !ok {
			errs = append(errs, field.Errorf(at().Key(k), "Use a Kubernetes quantity such as 16, 3500m or 64Gi.", "%q is not a quantity", in[k]))
		}
	}
	return out, errs
}

func (w *rawWindow) toWindow(validate bool) (*fleet.MaintenanceWindow, field.Errors) {
	mw := &fleet.MaintenanceWindow{StartTime: w.StartTime, UTCOffset: w.UTCOffset, DurationHours: w.DurationHours, StartDate: w.StartDate}
	for _, d := range w.NotAllowedDates {
		mw.NotAllowed = append(mw.NotAllowed, fleet.DateSpan(d))
	}
	s := w.Schedule
	n := 0
	if s.Daily != nil {
		n++
		mw.Schedule = fleet.MaintenanceSchedule{Type: fleet.ScheduleDaily, IntervalDays: s.Daily.IntervalDays}
	}
	if s.Weekly != nil {
		n++
		mw.Schedule = fleet.MaintenanceSchedule{Type: fleet.ScheduleWeekly, IntervalWeeks: s.Weekly.IntervalWeeks, DayOfWeek: s.Weekly.DayOfWeek}
	}
	if s.AbsoluteMonthly != nil {
		n++
		mw.Schedule = fleet.MaintenanceSchedule{Type: fleet.ScheduleAbsoluteMonthly, IntervalMonths: s.AbsoluteMonthly.IntervalMonths, DayOfMonth: s.AbsoluteMonthly.DayOfMonth}
	}
	if s.RelativeMonthly != nil {
		n++
		mw.Schedule = fleet.MaintenanceSchedule{Type: fleet.ScheduleRelativeMonthly, IntervalMonths: s.RelativeMonthly.IntervalMonths, WeekIndex: s.RelativeMonthly.WeekIndex, DayOfWeek: s.RelativeMonthly.DayOfWeek}
	}
	if !validate { // a document that passed validation
		return mw, nil
	}
	if n > 1 {
		return mw, field.Errors{field.Errorf(field.Root("schedule"), "Keep exactly one of daily, weekly, absolute_monthly or relative_monthly.", "a schedule has %d types", n)}
	}
	return mw, mw.Validate()
}
