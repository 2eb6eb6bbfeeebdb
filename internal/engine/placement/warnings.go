package placement

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Kinds of warnings returned by Warnings: the ID of each field.Warning.
const (
	// WarnClusterNotMember: a PickFixed cluster name that is not a member of
	// the fleet gets nothing.
	WarnClusterNotMember = "cluster_not_member"
	// WarnClusterNotEligible: a PickFixed cluster that is a member but not
	// eligible (left, unhealthy, stale heartbeat) gets nothing until it is.
	WarnClusterNotEligible = "cluster_not_eligible"
	// WarnPropertyNotInFleet: a required property selector or a preferred
	// sorter reads a property no cluster reports, so the expression is false
	// everywhere or the sorter adds nothing.
	WarnPropertyNotInFleet = "property_not_in_fleet"
	// WarnRequiredMatchesNone: no cluster matches any required affinity term,
	// so the placement selects no cluster.
	WarnRequiredMatchesNone = "required_affinity_matches_none"
	// WarnPickNUnfulfilled: PickN asks for more clusters than it can pick.
	WarnPickNUnfulfilled = "pick_n_unfulfilled"
)

// Warnings returns the plan warnings of designs/placement.md §8 for spec on fleet f:
// a property that no cluster of the fleet has (with similar names that do
// exist), an unfulfillable PickN, PickFixed names that are not members or not
// eligible, and required affinity that matches no cluster. It assumes spec
// validates; parts it cannot evaluate are skipped. r is the scheduling result
// the warnings accompany (the one the plan previews).
func Warnings(spec Spec, f *fleet.Fleet, r Result, now time.Time) []field.Warning {
	s := WithDefaults(spec)
	pol := s.Policy
	pp := field.Root("policy")
	var ws []field.Warning
	clusters := sortedClusters(f)

	switch pol.PlacementType {
	case PickFixed:
		c := &cycle{policy: pol, now: now, clusters: clusters}
		for i, n := range pol.ClusterNames {
			p := pp.Child("cluster_names").Index(i)
			j, ok := c.index(n)
			switch {
			case !ok:
				ws = append(ws, field.Warning{Path: p, ID: WarnClusterNotMember,
					Message: fmt.Sprintf("cluster %q is not a member of the fleet; nothing is placed on it", n)})
			case c.filterEligibility(j) != "":
				ws = append(ws, field.Warning{Path: p, ID: WarnClusterNotEligible,
					Message: fmt.Sprintf("cluster %q is %s; nothing is placed on it until it is eligible", n, c.filterEligibility(j))})
			}
		}
		return ws
	case PickAll, PickN:
	default:
		return nil
	}

	ws = append(ws, propertyWarnings(pol, clusters)...)

	if pol.Affinity != nil && len(pol.Affinity.Required) > 0 {
		if terms, err := compileRequired(pol.Affinity.Required); err == nil {
			matched := false
			for _, cl := range clusters {
				if ok, err := matchesRequired(terms, cl); err == nil && ok {
					matched = true
					break
				}
			}
			if !matched {
				ws = append(ws, field.Warning{Path: pp.Child("affinity").Child("required"), ID: WarnRequiredMatchesNone,
					Message: "no cluster of the fleet matches any required affinity term; the placement selects no cluster"})
			}
		}
	}

	if pol.PlacementType == PickN && !r.Fulfilled {
		ws = append(ws, field.Warning{Path: pp.Child("number_of_clusters"), ID: WarnPickNUnfulfilled,
			Message: fmt.Sprintf("%d cluster(s) requested but only %d can be picked: %s", r.Requested, len(r.Selected), r.UnfulfilledMessage)})
	}
	return ws
}

// propertyWarnings flags properties read by required property selectors or
// preferred sorters that no cluster of the fleet reports.
func propertyWarnings(pol Policy, clusters []*fleet.Cluster) []field.Warning {
	if pol.Affinity == nil {
		return nil
	}
	known := fleetProperties(clusters)
	var ws []field.Warning
	check := func(p field.Path, name, effect string) {
		if name == "" || known[name] {
			return
		}
		msg := fmt.Sprintf("no cluster of the fleet has property %q, so %s", name, effect)
		if similar := similarNames(name, known); len(similar) > 0 {
			msg += fmt.Sprintf("; did you mean %s?", quoteJoin(similar))
		}
		ws = append(ws, field.Warning{Path: p, ID: WarnPropertyNotInFleet, Message: msg})
	}
	ap := field.Root("policy").Child("affinity")
	for i, t := range pol.Affinity.Required {
		if t.PropertySelector == nil {
			continue
		}
		for j, e := range t.PropertySelector.MatchExpressions {
			check(ap.Child("required").Index(i).Child("property_selector").Child("match_expressions").Index(j).Child("name"), e.Name,
				"this expression is false for every cluster and the term matches none")
		}
	}
	for i, t := range pol.Affinity.Preferred {
		if s := t.Preference.PropertySorter; s != nil {
			check(ap.Child("preferred").Index(i).Child("preference").Child("property_sorter").Child("name"), s.Name,
				"this sorter adds 0 to every cluster's score")
		}
	}
	return ws
}

// fleetProperties is the set of property names at least one cluster has.
func fleetProperties(clusters []*fleet.Cluster) map[string]bool {
	known := map[string]bool{}
	for _, cl := range clusters {
		for k := range cl.Properties {
			known[k] = true
		}
		for _, u := range []struct {
			capacity string
			m        map[string]resource.Quantity
		}{{"total", cl.Usage.Capacity}, {"allocatable", cl.Usage.Allocatable}, {"available", cl.Usage.Available}} {
			for res := range u.m {
				known[fleet.ResourcePropertyPrefix+u.capacity+"-"+res] = true
			}
		}
	}
	return known
}

// similarNames suggests up to three known names close to name: the same last
// path segment (kubernetes.azure.com/node-count → kubernetes-fleet.io/node-count)
// or a small edit distance.
func similarNames(name string, known map[string]bool) []string {
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	base := lastSegment(name)
	limit := max(2, len(name)/3)
	for k := range known {
		d := editDistance(name, k)
		if lastSegment(k) == base {
			d = min(d, 1)
		}
		if d <= limit {
			cs = append(cs, cand{k, d})
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
