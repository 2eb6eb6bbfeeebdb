package selector

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// WarnPropertyNotInFleet is the id of the warning about a property that no
// cluster of the fleet reports (designs/placement.md §8): an expression on it is
// false for every cluster, a sorter on it adds nothing. The placement resource
// and the member clusters data source share it.
const WarnPropertyNotInFleet = "property_not_in_fleet"

// WarnQuantityUnit: a resource property compared with a quantity whose unit
// is almost certainly not the one meant — memory without a unit (bytes:
// `"64"` is 64 bytes, not 64 GiB), or CPU with a byte suffix (`"4Gi"` is
// four billion cores). Fleet accepts both and compares them exactly
// (designs/placement.md §8).
const WarnQuantityUnit = "quantity_unit"

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
// (paths relative to the selector): each is false for every cluster; and
// the values whose unit is almost certainly wrong (WarnQuantityUnit).
func (s PropertySelector) Warnings(known *KnownProperties, consequence string) []field.Warning {
	var ws []field.Warning
	for i, e := range s.MatchExpressions {
		p := field.Root("match_expressions").Index(i)
		if w, ok := known.NotInFleet(p.Child("name"), e.Name, consequence); ok {
			ws = append(ws, w)
		}
		for j, v := range e.Values {
			if msg, ok := quantityUnitSlip(e.Name, v); ok {
				ws = append(ws, field.Warning{Path: p.Child("values").Index(j), ID: WarnQuantityUnit, Message: msg})
			}
		}
	}
	return ws
}

// quantityUnitSlip says what a quantity means when its unit is almost
// certainly not the one meant for the resource property name.
func quantityUnitSlip(name, value string) (string, bool) {
	_, res, err := fleet.SplitResourceProperty(name)
	if err != nil {
		return "", false
	}
	q, err := resource.ParseQuantity(value)
	if err != nil {
		return "", false
	}
	unit := strings.TrimLeft(value, "+-0123456789.")
	switch res {
	case "memory", "storage":
		if unit == "" && q.CmpInt64(1<<20) < 0 {
			return fmt.Sprintf("%q has no unit, so it is %s bytes of %s: Fleet compares it exactly as written. Write the unit, e.g. %q",
				value, value, res, value+"Gi"), true
		}
	case "cpu":
		switch unit {
		case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
			return fmt.Sprintf("%q is %s cores (a byte suffix on CPU): write cores, e.g. %q, or millicores, e.g. %q",
				value, q.AsDec().String(), strings.TrimSuffix(value, unit), strings.TrimSuffix(value, unit)+"00m"), true
		}
	}
	return "", false
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
		d := fleet.EditDistance(name, known)
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

func quoteJoin(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, " or ")
}
