package selector

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// WarnPropertyNotInFleet is the id of the warning about a property that no
// cluster of the fleet reports (designs/placement.md §8): an expression on it is
// false for every cluster, a sorter on it adds nothing. The placement resource
// and the member clusters data source share it.
const WarnPropertyNotInFleet = "property_not_in_fleet"

// KnownProperties answers which property names at least one cluster of a
// fleet reports: its properties, and resources.kubernetes-fleet.io/<capacity>-<resource>
// for every resource of its usage. A name is looked up by scanning the
// clusters until one reports it — almost always the first — so checking the
// few names a policy uses costs nothing at fleet scale; the full set of
// names, for suggestions, is collected only when a name is missing.
type KnownProperties struct {
	f   *fleet.Fleet
	all map[string]bool // every name, collected on the first miss
}

// FleetProperties looks up the property names the clusters of f report.
func FleetProperties(f *fleet.Fleet) *KnownProperties { return &KnownProperties{f: f} }

// Has reports whether some cluster reports the property.
func (k *KnownProperties) Has(name string) bool {
	if k.all != nil {
		return k.all[name]
	}
	if k.f == nil {
		return false
	}
	capacity, res, isResource := "", "", false
	if rest, ok := strings.CutPrefix(name, fleet.ResourcePropertyPrefix); ok {
		for _, c := range []string{fleet.CapacityTotal, fleet.CapacityAllocatable, fleet.CapacityAvailable} {
			if r, ok := strings.CutPrefix(rest, c+"-"); ok {
				capacity, res, isResource = c, r, true
				break
			}
		}
	}
	for i := range k.f.Clusters {
		cl := &k.f.Clusters[i]
		if _, ok := cl.Properties[name]; ok {
			return true
		}
		if isResource {
			if _, ok := cl.Usage.ByCapacity(capacity)[res]; ok {
				return true
			}
		}
	}
	return false
}

// names collects every property name of the fleet (once).
func (k *KnownProperties) names() map[string]bool {
	if k.all != nil {
		return k.all
	}
	k.all = map[string]bool{}
	if k.f == nil {
		return k.all
	}
	for i := range k.f.Clusters {
		cl := &k.f.Clusters[i]
		for n := range cl.Properties {
			k.all[n] = true
		}
		for _, capacity := range []string{fleet.CapacityTotal, fleet.CapacityAllocatable, fleet.CapacityAvailable} {
			for res := range cl.Usage.ByCapacity(capacity) {
				k.all[fleet.ResourcePropertyPrefix+capacity+"-"+res] = true
			}
		}
	}
	return k.all
}

// NotInFleet returns the warning for a property that no cluster reports,
// with up to three similar names that exist, e.g. `kubernetes.azure.com/node-count`
// → `kubernetes-fleet.io/node-count` (the slip in Fleet Manager's own
// documentation). consequence says what that means where the name is used.
// ok is false when some cluster has the property.
func (k *KnownProperties) NotInFleet(p field.Path, name, consequence string) (w field.Warning, ok bool) {
	if name == "" || k.Has(name) {
		return field.Warning{}, false
	}
	msg := fmt.Sprintf("no cluster of the fleet has property %q, so %s", name, consequence)
	if fleet.IsResourceProperty(name) && strings.ToLower(name) != name {
		msg += " (Kubernetes resource names are lower case, and Fleet compares them exactly)"
	}
	if similar := k.similar(name); len(similar) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", quoteJoin(similar))
	}
	return field.Warning{Path: p, ID: WarnPropertyNotInFleet, Message: msg}, true
}

// Warnings flags the expressions of s on a property no cluster reports
// (paths relative to the selector): each is false for every cluster.
func (s PropertySelector) Warnings(known *KnownProperties, consequence string) []field.Warning {
	var ws []field.Warning
	for i, e := range s.MatchExpressions {
		if w, ok := known.NotInFleet(field.Root("match_expressions").Index(i).Child("name"), e.Name, consequence); ok {
			ws = append(ws, w)
		}
	}
	return ws
}

// similar suggests up to three known names close to name: the same name in
// other letter case, the same last path segment, or a small edit distance.
func (k *KnownProperties) similar(name string) []string {
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	base := lastSegment(name)
	limit := max(2, len(name)/3)
	for known := range k.names() {
		d := editDistance(name, known)
		switch {
		case strings.EqualFold(known, name):
			d = 0
		case lastSegment(known) == base:
			d = min(d, 1)
		}
		if d <= limit {
			cs = append(cs, cand{known, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].dist != cs[j].dist {
			return cs[i].dist < cs[j].dist
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

func lastSegment(s string) string { return s[strings.LastIndexByte(s, '/')+1:] }

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func quoteJoin(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, " or ")
}
