package inventory

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
	"gopkg.in/yaml.v3"
)

// inventorySeeds are documents for the inventory fuzz targets: the sample
// fleet, a generated one (JSON), the usual shapes of YAML (block and flow
// collections, indentless sequences, quoted keys and values, comments) and
// its rarer ones (anchors, tags, block scalars, nulls, multi-line scalars
// and flows, escapes, tabs, document markers).
func inventorySeeds(f *testing.F) {
	f.Add(Sample)
	f.Add(fleetgen.Generate(fleetgen.Options{Clusters: 3, Seed: 1, StaleEvery: 2, TaintEvery: 2, NAPNodes: 1}))
	for _, s := range []string{
		"", "# only a comment\n", "clusters: []", "regions: [{name: eastus}]\nclusters: [{name: a, region: eastus}]",
		"clusters: [{name: a, region: nowhere}]", "clusters:\n  - name: a\n    region: eastus\n    resource_usage: { capacity: { cpu: twelve } }",
		"clusters: [{name: a, agent: {heartbeat_age: -5m}}]", "clusters: [{name: a, nap_nodes: [{name: n, age: 1e400h}]}]",
		"clusters: [{name: a, maintenance_window: {schedule: {weekly: {}}, start_time: '25:99', duration_hours: 3}}]",
		"clusters: {a: 1}", "- [", "regions: [{name: x, kubernetes_versions: [{version: '1', released_at: yesterday}]}]",
		"&a [*a, *a, *a]", "clusters: [{name: a, labels: {'': ''}}]",
		// block style, indentless sequences, comments, quoting
		"regions:\n- name: r # the region\n  kubernetes_versions:\n  - version: v1.31.2\n    released_at: 2026-01-02T03:04:05Z\n    preview: True\nclusters:\n- name: a\n  region: r\n  labels:\n    env: prod\n    \"quoted key\": 'it''s'\n",
		"regions: [ { name: r } ]\nclusters:\n  -   name: a\n      region: r\n      agent:\n        present: false\n        joined: TRUE\n        healthy: unknown\n        unhealthy_for: 3m\n",
		"regions: [{name: r}]\nclusters:\n  -\n    name: a\n    region: r\n    node_pools: [{name: p, node_count: -0}, {name: q, node_count: 012}]\n",
		"regions: [{name: r}]\nclusters:\n  - name: a\n    region: r\n    maintenance_window:\n      schedule: {relative_monthly: {interval_months: 1, week_index: Last, day_of_week: Friday}}\n      start_time: 03:00\n      duration_hours: 4\n      not_allowed_dates: [{start: 2026-12-24, end: 2026-12-26}]\n",
		"regions: [{name: r}]\nclusters:\n  - name: a\n    region: r\n    failures: {upgrade: timeout}\n    taints: [{key: k, value: v}]\n    nap_nodes:\n      - name: n\n        nodepool: default\n        created_at: \"2026-11-20T00:00:00Z\"\n        ready: false\n        marked_for_deletion: yes\n",
		// the rarer shapes
		"regions: [{name: r}]\nclusters:\n  - name: a\n    region: r\n    labels: {env: ~}\n", "regions: [{name: r}]\nclusters:\n  - name: a\n    region:\n",
		"regions: [{name: r}]\nclusters:\n  - name: a\n    region: r\n    group: one\n      two\n", "regions: [{name: r}]\nclusters:\n  - name: a\n    region: !!str r\n",
		"regions: [{name: r}]\nclusters:\n  - name: a\n    region: |\n      r\n", "regions: [{name: r}]\nclusters:\n  - {name: a,\n     region: r}\n",
		"regions: [{name: r}]\nclusters:\n  - name: \"a\\u0062\"\n    region: r\n", "regions: [{name: r}]\nclusters:\n\t- name: a\n",
		"---\nregions: [{name: r}]\n...\n", "regions: &r [{name: r}]\nclusters: [{name: a, region: r, <<: {group: g}}]\n",
		"regions: [{name: r}]\nregions: [{name: s}]\n", "regions: [{name: r}]\nclusters: [{name: a, region: r, name: b}]\n",
		"regions: [{name: r}]\nclusters: [{name: a, region: r, node_pools: [{name: p, node_count: 1_000}]}]\n",
		"regions: [{name: r}]\nclusters: [{name: a, region: r, labels: {a: 1, \"a\": 2}}]\n",
		"regions: [{name: r}]\r\nclusters: [{name: a, region: r}]\r\n", "\ufeffregions: []\n",
	} {
		f.Add([]byte(s))
	}
}

// FuzzParseInventory feeds the inventory decoder what a person might write
// (and worse). Whatever the input, it never panics, and every failure is an
// Error or Errors (file, line, field, message) — the only
// errors the provider knows how to show on mock.fleet_file. A fleet it
// accepts is usable: every cluster has a name and a region the inventory
// declares. The seed corpus runs in `make test`; `make fuzz` runs it longer.
func FuzzParseInventory(f *testing.F) {
	inventorySeeds(f)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		fl, err := Parse("fleet.yaml", data, now)
		if err != nil {
			var one Error
			var many Errors
			if !errors.As(err, &one) && !errors.As(err, &many) {
				t.Fatalf("error %T is not an inventory error: %v", err, err)
			}
			return
		}
		regions := map[string]bool{}
		for _, r := range fl.Regions {
			regions[r.Name] = true
		}
		for _, c := range fl.Clusters {
			if c.Name == "" || !regions[c.Region] {
				t.Fatalf("accepted a cluster without a name or a declared region: %+v", c)
			}
		}
	})
}

// FuzzInventoryDecoders is the differential test of the JSON decoder: JSON
// is YAML, so a document it accepts, yaml.v3 accepts too, with exactly the
// same decoded inventory (nil and empty collections, explicit false and
// all); a document it refuses is refused with inventory errors.
func FuzzInventoryDecoders(f *testing.F) {
	inventorySeeds(f)
	f.Add([]byte(`{"regions":[{"name":"r"}],"clusters":[{"name":"a","region":"r","agent":{"joined":false}}]}`))
	f.Add([]byte(`{"regions":[{"name":"r"}],"clusters":[{"Name":"a","region":"r"}]}`))
	f.Add([]byte(`{"regions":[{"name":"r","name":"s"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkJSONDecoder(t, data)
	})
}

// mustBeInventoryError fails unless err is one or several inventory errors.
func mustBeInventoryError(t *testing.T, err error) {
	t.Helper()
	var one Error
	var many Errors
	if !errors.As(err, &one) && !errors.As(err, &many) {
		t.Fatalf("error %T is not an inventory error: %v", err, err)
	}
}

func checkJSONDecoder(t *testing.T, data []byte) {
	t.Helper()
	fromJSON, err := decodeJSON("fleet.json", data)
	if err != nil {
		mustBeInventoryError(t, err)
		return
	}
	if len(bytes.Trim(data, " \t\r\n")) == 0 {
		return // white space: an empty fleet (yaml.v3 refuses a tab there)
	}
	fromYAML, err := decodeYAML("fleet.yaml", data)
	if err != nil {
		t.Fatalf("the JSON decoder accepted a document yaml.v3 rejects: %v\n%q", err, data)
	}
	if !reflect.DeepEqual(fromJSON, fromYAML) {
		t.Fatalf("the decoders disagree on %q:\nJSON    %+v\nyaml.v3 %+v", data, fromJSON, fromYAML)
	}
}

// Cluster names are DNS labels, as the pattern says (Kubernetes versions are
// update.ParseFullVersion's, fuzzed there).
var (
	clusterNameRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
)

func FuzzInventorySyntax(f *testing.F) {
	for _, s := range []string{"", "v", "1.2.3", "v1.31.10", "1.2", "1.2.3.4", "v1..3", "１.2.3", "a", "a-", "-a", "a-b", "member-00001", "A", "a_b",
		"a123456789012345678901234567890123456789012345678901234567890bc", "a1234567890123456789012345678901234567890123456789012345678901bc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validClusterName(s), clusterNameRE.MatchString(s); got != want {
			t.Fatalf("validClusterName(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}

// FuzzInventoryStyles writes random inventories in the styles people use —
// block and flow collections, indentless sequences, plain and quoted keys
// and values, comments, blank lines, extra spaces — and the same documents
// as JSON: what yaml.v3 reads, the JSON decoder reads the same, or refuses
// with inventory errors (a YAML scalar such as 1.30 is a number in JSON).
func FuzzInventoryStyles(f *testing.F) {
	for seed := range uint64(16) {
		f.Add(seed, uint8(seed*37))
	}
	f.Fuzz(func(t *testing.T, seed uint64, clusters uint8) {
		g := &styleGen{r: rand.New(rand.NewPCG(seed, uint64(clusters)))}
		data := []byte(g.document(int(clusters % 8)))
		fromYAML, err := decodeYAML("fleet.yaml", data)
		if err != nil {
			t.Fatalf("yaml.v3: %v\n%s", err, data)
		}
		var root yaml.Node
		if err := yaml.Unmarshal(data, &root); err != nil {
			t.Fatal(err)
		}
		doc, ok := jsonValue(&root)
		if !ok {
			return // an alias or a merge key: no JSON of the same meaning
		}
		js, err := json.Marshal(doc)
		if err != nil {
			return // .inf, .nan: no JSON
		}
		checkJSONDecoder(t, js)
		if fromJSON, err := decodeJSON("fleet.json", js); err == nil && !reflect.DeepEqual(fromJSON, fromYAML) {
			t.Fatalf("the document as YAML and as JSON decode differently:\n%s\n%s\nYAML %+v\nJSON %+v", data, js, fromYAML, fromJSON)
		}
	})
}

// jsonValue is the YAML document n as JSON values, its timestamps as the
// strings they are written as (what a string field reads from them).
func jsonValue(n *yaml.Node) (any, bool) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, true
		}
		return jsonValue(n.Content[0])
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				return nil, false
			}
			v, ok := jsonValue(n.Content[i+1])
			if !ok {
				return nil, false
			}
			m[k.Value] = v
		}
		return m, true
	case yaml.SequenceNode:
		l := []any{}
		for _, c := range n.Content {
			v, ok := jsonValue(c)
			if !ok {
				return nil, false
			}
			l = append(l, v)
		}
		return l, true
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!str", "!!timestamp":
			return n.Value, true
		case "!!null":
			return nil, true
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, false
		}
		return v, true
	}
	return nil, false
}

// gnode is a document tree for styleGen: a mapping (keys, vals), a sequence
// (vals) or a scalar.
type gnode struct {
	keys   []string
	vals   []*gnode
	seq    bool
	scalar *string
	typed  bool // an int or a bool: always plain
}

type styleGen struct {
	r *rand.Rand
	b strings.Builder
}

var styleStrings = []string{
	"a", "eastus", "member-00001", "a b", "a  b", "a:b", "a#b", "-5m", "30s", "1.30", "v1.31.2", "012", "0x1F", "1e3",
	"1_000", ".inf", "true", "yes", "no", "on", "Off", "y", "~x", "null x", "2026-01-02", "2026-11-21T12:00:00Z", "<<",
	"it's", "x,y", "[x]", "{x}", "x]", "ä", "日本", "🙂", "\"dq\"", "", "~", "null", "NULL", "a'b", "#x", "&x", "*x", "!x",
	"%x", "@x", "`x", "|x", ">x", "?x", ":x", "- x", "-", "? x", "a: b", "a #b", "a ", " a", "---", "...", "x?y", "k=v",
	"Standard_D8s_v5", "64Gi", "3500m", "kubernetes-fleet.io/node-count", "Monday", "02:00", "-05:00",
}

// scalarText renders s as a scalar, plain when YAML reads it as the same
// string there.
func (g *styleGen) scalarText(s string, flow bool) string {
	plain := s != "" && s[0] != ' ' && s[len(s)-1] != ' ' && !strings.Contains(s, ": ") && !strings.Contains(s, " #") &&
		!strings.HasSuffix(s, ":") && !strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") &&
		s != "~" && s != "null" && s != "Null" && s != "NULL" && s != "<<" && !strings.HasPrefix(s, "---") && !strings.HasPrefix(s, "...")
	if flow {
		plain = plain && !strings.ContainsAny(s, ",[]{}?:")
	}
	if (s == "-5m" || s == "-05:00") && (!flow || !strings.Contains(s, ":")) {
		plain = true // a '-' followed by a non-space starts a plain scalar
	}
	switch {
	case plain && g.r.IntN(3) > 0:
		return s
	case !strings.ContainsAny(s, "\"\\") && g.r.IntN(2) == 0:
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func (g *styleGen) str() *gnode {
	s := styleStrings[g.r.IntN(len(styleStrings))]
	return &gnode{scalar: &s}
}

func (g *styleGen) integer() *gnode {
	s := strconv.Itoa(g.r.IntN(2000) - 100)
	return &gnode{scalar: &s, typed: true}
}

func (g *styleGen) boolean() *gnode {
	s := []string{"true", "false", "True", "False", "TRUE", "FALSE"}[g.r.IntN(6)]
	return &gnode{scalar: &s, typed: true}
}

// object builds a mapping with a random subset of fields, in random order.
func (g *styleGen) object(fields map[string]func() *gnode) *gnode {
	n := &gnode{}
	for _, k := range g.r.Perm(len(fields)) {
		name := slices.Sorted(maps.Keys(fields))[k]
		if g.r.IntN(3) > 0 {
			n.keys = append(n.keys, name)
			n.vals = append(n.vals, fields[name]())
		}
	}
	return n
}

func (g *styleGen) list(item func() *gnode) func() *gnode {
	return func() *gnode {
		n := &gnode{seq: true}
		for range g.r.IntN(4) {
			n.vals = append(n.vals, item())
		}
		return n
	}
}

func (g *styleGen) strMap() *gnode {
	n := &gnode{}
	seen := map[string]bool{}
	for range g.r.IntN(4) {
		k := styleStrings[g.r.IntN(len(styleStrings))]
		if seen[k] || k == "" || k == "~" || k == "null" || k == "Null" || k == "NULL" || k == "<<" || strings.HasPrefix(k, "-") {
			continue
		}
		seen[k] = true
		n.keys = append(n.keys, k)
		n.vals = append(n.vals, g.str())
	}
	return n
}

func (g *styleGen) tree(clusters int) *gnode {
	str, integer, boolean, strMap := g.str, g.integer, g.boolean, g.strMap
	obj := func(fields map[string]func() *gnode) func() *gnode { return func() *gnode { return g.object(fields) } }
	schedule := func() *gnode {
		kinds := []map[string]func() *gnode{
			{"daily": obj(map[string]func() *gnode{"interval_days": integer})},
			{"weekly": obj(map[string]func() *gnode{"interval_weeks": integer, "day_of_week": str})},
			{"absolute_monthly": obj(map[string]func() *gnode{"interval_months": integer, "day_of_month": integer})},
			{"relative_monthly": obj(map[string]func() *gnode{"interval_months": integer, "week_index": str, "day_of_week": str})},
		}
		return g.object(kinds[g.r.IntN(len(kinds))])
	}
	cluster := obj(map[string]func() *gnode{
		"name": str, "region": str, "resource_group": str, "subscription_id": str, "group": str, "labels": strMap,
		"taints":             g.list(obj(map[string]func() *gnode{"key": str, "value": str, "effect": str})),
		"agent":              obj(map[string]func() *gnode{"present": boolean, "joined": boolean, "healthy": str, "unhealthy_for": str, "heartbeat_age": str, "last_heartbeat": str, "leaving": boolean}),
		"properties":         strMap,
		"resource_usage":     obj(map[string]func() *gnode{"capacity": strMap, "allocatable": strMap, "available": strMap}),
		"kubernetes_version": str,
		"node_pools":         g.list(obj(map[string]func() *gnode{"name": str, "vm_size": str, "node_count": integer, "node_image_family": str, "node_image_version": str})),
		"maintenance_window": obj(map[string]func() *gnode{"schedule": schedule, "start_time": str, "utc_offset": str, "duration_hours": integer, "start_date": str,
			"not_allowed_dates": g.list(obj(map[string]func() *gnode{"start": str, "end": str}))}),
		"nap_nodes": g.list(obj(map[string]func() *gnode{"name": str, "nodepool": str, "labels": strMap, "age": str, "created_at": str, "ready": boolean, "marked_for_deletion": boolean, "do_not_disrupt": boolean})),
		"failures":  obj(map[string]func() *gnode{"upgrade": str}),
	})
	region := obj(map[string]func() *gnode{
		"name":                str,
		"kubernetes_versions": g.list(obj(map[string]func() *gnode{"version": str, "preview": boolean, "released_at": str})),
		"node_images":         g.list(obj(map[string]func() *gnode{"family": str, "version": str, "released_at": str})),
	})
	root := &gnode{keys: []string{"regions", "clusters"}, vals: []*gnode{g.list(region)(), {seq: true}}}
	for range clusters {
		root.vals[1].vals = append(root.vals[1].vals, cluster())
	}
	return root
}

func (g *styleGen) document(clusters int) string {
	if g.r.IntN(2) == 0 {
		g.b.WriteString("# an inventory\n\n")
	}
	g.blockMapping(g.tree(clusters), 0, false)
	return g.b.String()
}

func (g *styleGen) key(k string) string {
	if g.r.IntN(8) == 0 || strings.ContainsAny(k, ",[]{}:#?") || k != strings.TrimSpace(k) || strings.ContainsAny(k[:1], "-!&*|>'\"%@`") {
		return g.scalarText(k, true) // flow-safe plain, or quoted
	}
	return k
}

func (g *styleGen) comment() {
	switch g.r.IntN(6) {
	case 0:
		g.b.WriteString(" # note")
	case 1:
		g.b.WriteString("   #")
	}
}

func (g *styleGen) blankOrComment(indent int) {
	switch g.r.IntN(10) {
	case 0:
		g.b.WriteString("\n")
	case 1:
		g.b.WriteString(strings.Repeat(" ", g.r.IntN(indent+3)) + "# a comment line\n")
	}
}

// blockMapping writes n's entries at indent; inline means the first key
// follows a "- " already written.
func (g *styleGen) blockMapping(n *gnode, indent int, inline bool) {
	for i, k := range n.keys {
		if i > 0 || !inline {
			g.blankOrComment(indent)
			g.b.WriteString(strings.Repeat(" ", indent))
		}
		g.b.WriteString(g.key(k) + ":")
		g.value(n.vals[i], indent)
	}
}

// value writes v after "key:" in a block mapping at indent.
func (g *styleGen) value(v *gnode, indent int) {
	switch {
	case v.scalar != nil:
		g.b.WriteString(strings.Repeat(" ", 1+g.r.IntN(2)))
		if v.typed {
			g.b.WriteString(*v.scalar)
		} else {
			g.b.WriteString(g.scalarText(*v.scalar, false))
		}
		g.comment()
		g.b.WriteString("\n")
	case g.r.IntN(3) == 0 || (!v.seq && len(v.keys) == 0) || (v.seq && len(v.vals) == 0):
		g.b.WriteString(" ")
		g.flow(v)
		g.comment()
		g.b.WriteString("\n")
	case v.seq:
		g.comment()
		g.b.WriteString("\n")
		g.blockSequence(v, indent+2*g.r.IntN(2)) // indentless or indented
	default:
		g.comment()
		g.b.WriteString("\n")
		g.blockMapping(v, indent+1+g.r.IntN(4), false)
	}
}

func (g *styleGen) blockSequence(v *gnode, indent int) {
	for _, item := range v.vals {
		g.blankOrComment(indent)
		g.b.WriteString(strings.Repeat(" ", indent) + "-")
		switch {
		case g.r.IntN(4) == 0 || len(item.keys) == 0:
			g.b.WriteString(" ")
			g.flow(item)
			g.comment()
			g.b.WriteString("\n")
		case g.r.IntN(5) == 0:
			g.comment()
			g.b.WriteString("\n")
			g.blockMapping(item, indent+1+g.r.IntN(3), false)
		default:
			pad := 1 + g.r.IntN(3)
			g.b.WriteString(strings.Repeat(" ", pad))
			g.blockMapping(item, indent+1+pad, true)
		}
	}
}

func (g *styleGen) flow(v *gnode) {
	switch {
	case v.scalar != nil:
		if v.typed {
			g.b.WriteString(*v.scalar)
		} else {
			g.b.WriteString(g.scalarText(*v.scalar, true))
		}
	case v.seq:
		g.flowList("[", "]", len(v.vals), func(i int) { g.flow(v.vals[i]) })
	default:
		g.flowList("{", "}", len(v.keys), func(i int) {
			g.b.WriteString(g.key(v.keys[i]) + ": ")
			g.flow(v.vals[i])
		})
	}
}

// flowList writes n items between open and close, with or without spaces.
func (g *styleGen) flowList(open, close string, n int, item func(i int)) {
	sp := func() {
		if g.r.IntN(2) == 0 {
			g.b.WriteString(" ")
		}
	}
	g.b.WriteString(open)
	sp()
	for i := range n {
		if i > 0 {
			g.b.WriteString(",")
			sp()
		}
		item(i)
	}
	sp()
	g.b.WriteString(close)
}
