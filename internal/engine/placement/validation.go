package placement

import (
	"cmp"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/selector"
)

// intOrPercent is Fleet's pattern for maxUnavailable / maxSurge.
var intOrPercent = regexp.MustCompile(`^((100|[0-9]{1,2})%|[0-9]+)$`)

// Validate applies every admission rule of designs/placement.md §2 that does not need
// the previous spec (see ValidateUpdate for those). Paths use the provider's
// attribute names, e.g. `policy.affinity.required[0].label_selector.match_expressions[1].operator`.
func Validate(spec Spec) field.Errors {
	s := WithDefaults(spec)
	var errs field.Errors
	errs = append(errs, validateName(spec.Name)...)
	errs = append(errs, validateResourceSelectors(spec.ResourceSelectors)...)
	errs = append(errs, validatePolicy(s.Policy)...)
	errs = append(errs, validateStrategy(spec.Strategy)...)
	if l := *s.RevisionHistoryLimit; l < MinRevisionHistory || l > MaxRevisionHistory {
		errs = append(errs, field.Errorf(field.Root("revision_history_limit"), "", "must be between %d and %d, got %d", MinRevisionHistory, MaxRevisionHistory, l))
	}
	return errs
}

// ValidatePolicy applies the rules of designs/placement.md §2 to a scheduling policy and a rollout
// strategy alone, for a what-if preview that places nothing.
func ValidatePolicy(policy Policy, strategy Strategy) field.Errors {
	s := WithDefaults(Spec{Policy: policy, Strategy: strategy})
	return append(validatePolicy(s.Policy), validateStrategy(strategy)...)
}

// ValidateUpdate validates new and the change from old: on top of Validate,
// the placement type is immutable (changing it means replacing the
// placement) and tolerations may only be added. It includes Validate(new),
// as every engine's ValidateUpdate does, so that a caller checking an update
// makes one call and reports each error once.
func ValidateUpdate(old, new Spec) field.Errors {
	o, n := defaultPolicy(old.Policy), defaultPolicy(new.Policy)
	errs := Validate(new)
	if o.PlacementType != n.PlacementType {
		errs = append(errs, field.Errorf(field.Root("policy").Child("placement_type"),
			"The placement must be replaced to change its type.",
			"placement_type is immutable: cannot change from %s to %s", o.PlacementType, n.PlacementType))
	}
	present := make(map[Toleration]bool, len(n.Tolerations))
	for _, t := range n.Tolerations {
		present[t] = true
	}
	tp := field.Root("policy").Child("tolerations")
	for i, t := range o.Tolerations {
		if present[t] {
			continue
		}
		p, verb := tp, "removed"
		if i < len(n.Tolerations) {
			p, verb = tp.Index(i), "changed"
		}
		errs = append(errs, field.Errorf(p, "Keep the existing toleration and add a new one instead; removing a toleration requires replacing the placement.",
			"toleration %s was %s: tolerations may only be added", t.String(), verb))
	}
	return errs
}

func validateName(name string) field.Errors {
	p := field.Root("name")
	if name == "" {
		return field.Errors{field.Errorf(p, "", "name is required")}
	}
	if msgs := validation.IsDNS1035Label(name); len(msgs) > 0 {
		return field.Errors{field.Errorf(p, "Use lower-case letters, digits and '-', starting with a letter, at most 63 characters.", "%q is not a DNS-1035 label: %s", name, strings.Join(msgs, "; "))}
	}
	return nil
}

func validateResourceSelectors(rs []ResourceSelector) field.Errors {
	p := field.Root("resource_selectors")
	var errs field.Errors
	if len(rs) == 0 || len(rs) > MaxResourceSelectors {
		errs = append(errs, field.Errorf(p, "", "between 1 and %d resource selectors are required, got %d", MaxResourceSelectors, len(rs)))
	}
	for i, r := range rs {
		rp := p.Index(i)
		if r.Version == "" {
			errs = append(errs, field.Errorf(rp.Child("version"), "", "version is required"))
		}
		if r.Kind == "" {
			errs = append(errs, field.Errorf(rp.Child("kind"), "", "kind is required"))
		}
		if r.LabelSelector != nil {
			if r.Name != "" {
				errs = append(errs, field.Errorf(rp.Child("label_selector"), "Select one object by name, or many by label selector.", "name and label_selector are mutually exclusive"))
			}
			errs = append(errs, r.LabelSelector.Validate().Prefix(rp.Child("label_selector"))...)
		}
	}
	return errs
}

// validatePolicy validates a defaulted policy.
func validatePolicy(pol Policy) field.Errors {
	p := field.Root("policy")
	var errs field.Errors
	notAllowed := func(attr string) {
		errs = append(errs, field.Errorf(p.Child(attr), "Remove it.", "%s cannot be set for placement_type %s", attr, pol.PlacementType))
	}
	switch pol.PlacementType {
	case PickFixed:
		errs = append(errs, validateClusterNames(p.Child("cluster_names"), pol.ClusterNames)...)
		if pol.Affinity != nil {
			notAllowed("affinity")
		}
		if pol.NumberOfClusters != nil {
			notAllowed("number_of_clusters")
		}
		if len(pol.TopologySpreadConstraints) > 0 {
			notAllowed("topology_spread_constraints")
		}
		if len(pol.Tolerations) > 0 {
			notAllowed("tolerations")
		}
		return errs
	case PickAll:
		if len(pol.ClusterNames) > 0 {
			notAllowed("cluster_names")
		}
		if pol.NumberOfClusters != nil {
			notAllowed("number_of_clusters")
		}
		if len(pol.TopologySpreadConstraints) > 0 {
			notAllowed("topology_spread_constraints")
		}
		if pol.Affinity != nil && len(pol.Affinity.Preferred) > 0 {
			errs = append(errs, field.Errorf(p.Child("affinity").Child("preferred"), "Use placement_type PickN to rank clusters, or remove the preferred terms.", "preferred affinity is ignored for PickAll"))
		}
	case PickN:
		if len(pol.ClusterNames) > 0 {
			notAllowed("cluster_names")
		}
		switch {
		case pol.NumberOfClusters == nil:
			errs = append(errs, field.Errorf(p.Child("number_of_clusters"), "Set how many clusters to pick (0 places nowhere).", "number_of_clusters is required for PickN"))
		case *pol.NumberOfClusters < 0 || *pol.NumberOfClusters > MaxInt32:
			errs = append(errs, field.Errorf(p.Child("number_of_clusters"), fmt.Sprintf("Use a whole number from 0 to %d (0 places nowhere).", MaxInt32),
				"number_of_clusters must be between 0 and %d (numberOfClusters is a 32-bit integer in Fleet's API), got %d", MaxInt32, *pol.NumberOfClusters))
		}
		for i, c := range pol.TopologySpreadConstraints {
			errs = append(errs, validateTopologySpread(p.Child("topology_spread_constraints").Index(i), c)...)
		}
	default:
		return append(errs, field.Errorf(p.Child("placement_type"), "Use "+field.Or(PlacementTypes)+".", "%q is not a placement type", pol.PlacementType))
	}
	if pol.Affinity != nil {
		errs = append(errs, validateAffinity(p.Child("affinity"), pol.Affinity, pol.PlacementType == PickN)...)
	}
	errs = append(errs, validateTolerations(p.Child("tolerations"), pol.Tolerations)...)
	return errs
}

// validateClusterNames checks PickFixed's cluster_names. An empty list is
// admitted (Fleet places nowhere: a warning says so). A name must be a
// DNS-1123 label: Fleet's webhook admits any DNS subdomain, but its scheduler
// names each binding <placement>-<cluster>-<suffix> as a DNS label
// (uniquename.NewBindingName), so a dotted name fails every scheduling cycle
// that binds the cluster.
func validateClusterNames(p field.Path, names []string) field.Errors {
	var errs field.Errors
	if len(names) > MaxClusterNames {
		errs = append(errs, field.Errorf(p, "List at most 100 member clusters, or use PickAll or PickN with a label selector.", "PickFixed takes at most %d cluster names, got %d", MaxClusterNames, len(names)))
	}
	seen := make(map[string]int, len(names))
	for i, n := range names {
		switch msgs := validation.IsDNS1123Label(n); {
		case len(msgs) == 0:
		case strings.Contains(n, ".") && len(validation.IsDNS1123Subdomain(n)) == 0:
			errs = append(errs, field.Errorf(p.Index(i), "Use the member cluster's name: lower-case letters, digits and '-', at most 63 characters.",
				"%q is not a valid cluster name: Fleet admits a dotted name, but its scheduler names the cluster's binding after it as a DNS label, "+
					"so every scheduling cycle that places on this cluster fails", n))
		default:
			errs = append(errs, field.Errorf(p.Index(i), "Use the member cluster's name: lower-case letters, digits and '-', at most 63 characters.",
				"%q is not a valid cluster name: %s", n, strings.Join(msgs, "; ")))
		}
		if j, dup := seen[n]; dup {
			errs = append(errs, field.Errorf(p.Index(i), "Remove the duplicate.", "cluster %q is already listed at index %d", n, j))
			continue
		}
		seen[n] = i
	}
	return errs
}

func validateAffinity(p field.Path, a *Affinity, allowPreferred bool) field.Errors {
	var errs field.Errors
	rp := p.Child("required")
	if len(a.Required) > MaxRequiredTerms {
		errs = append(errs, field.Errorf(rp, "", "at most %d required terms are allowed, got %d", MaxRequiredTerms, len(a.Required)))
	}
	for i, t := range a.Required {
		tp := rp.Index(i)
		errs = append(errs, validateSelectors(tp, t)...)
		if t.PropertySorter != nil {
			errs = append(errs, field.Errorf(tp.Child("property_sorter"), "Move the sorter to a preferred term.", "a required term cannot have a property_sorter"))
		}
	}
	if !allowPreferred {
		return errs
	}
	for i, t := range a.Preferred {
		tp := p.Child("preferred").Index(i)
		if t.Weight < MinWeight || t.Weight > MaxWeight {
			errs = append(errs, field.Errorf(tp.Child("weight"), "", "weight must be between %d and %d, got %d", MinWeight, MaxWeight, t.Weight))
		}
		pp := tp.Child("preference")
		if t.Preference.PropertySelector != nil {
			errs = append(errs, field.Errorf(pp.Child("property_selector"), "Use a property_sorter to rank clusters, or move the selector to a required term.", "a preferred term cannot have a property_selector"))
		}
		errs = append(errs, validateSelectors(pp, ClusterSelectorTerm{LabelSelector: t.Preference.LabelSelector})...)
		if s := t.Preference.PropertySorter; s != nil {
			sp := pp.Child("property_sorter")
			errs = append(errs, selector.ValidatePropertyName(sp.Child("name"), s.Name)...)
			if s.SortOrder != Ascending && s.SortOrder != Descending {
				errs = append(errs, field.Errorf(sp.Child("sort_order"), "Use "+field.Or(SortOrders)+".", "%q is not a sort order", s.SortOrder))
			}
		}
	}
	return errs
}

func validateSelectors(p field.Path, t ClusterSelectorTerm) field.Errors {
	var errs field.Errors
	if t.LabelSelector != nil {
		errs = append(errs, t.LabelSelector.Validate().Prefix(p.Child("label_selector"))...)
	}
	if t.PropertySelector != nil {
		errs = append(errs, t.PropertySelector.Validate().Prefix(p.Child("property_selector"))...)
	}
	return errs
}

// validateTolerations validates defaulted tolerations.
func validateTolerations(p field.Path, ts []Toleration) field.Errors {
	var errs field.Errors
	if len(ts) > MaxTolerations {
		errs = append(errs, field.Errorf(p, "", "at most %d tolerations are allowed, got %d", MaxTolerations, len(ts)))
	}
	seen := make(map[Toleration]int, len(ts))
	for i, t := range ts {
		tp := p.Index(i)
		if t.Key != "" {
			if msgs := validation.IsQualifiedName(t.Key); len(msgs) > 0 {
				errs = append(errs, field.Errorf(tp.Child("key"), "", "%q is not a valid taint key: %s", t.Key, strings.Join(msgs, "; ")))
			}
		}
		switch t.Operator {
		case TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, field.Errorf(tp.Child("value"), "Remove the value, or use operator Equal.", "operator Exists takes no value"))
			}
		case TolerationOpEqual:
			if t.Key == "" {
				errs = append(errs, field.Errorf(tp.Child("key"), "Set a key, or use operator Exists to tolerate every taint.", "operator Equal needs a key"))
			}
			if msgs := validation.IsValidLabelValue(t.Value); len(msgs) > 0 {
				errs = append(errs, field.Errorf(tp.Child("value"), "", "%q is not a valid taint value: %s", t.Value, strings.Join(msgs, "; ")))
			}
		default:
			errs = append(errs, field.Errorf(tp.Child("operator"), "Use "+field.Or(TolerationOperators)+".", "%q is not a toleration operator", t.Operator))
		}
		if t.Effect != "" && t.Effect != TaintEffectNoSchedule {
			errs = append(errs, field.Errorf(tp.Child("effect"), "Leave it empty or use "+field.Or(TolerationEffects)+".", "%q is not a taint effect", t.Effect))
		}
		if j, dup := seen[t]; dup {
			errs = append(errs, field.Errorf(tp, "Remove the duplicate.", "toleration %s is already listed at index %d", t.String(), j))
			continue
		}
		seen[t] = i
	}
	return errs
}

// validateTopologySpread validates a defaulted constraint.
func validateTopologySpread(p field.Path, c TopologySpreadConstraint) field.Errors {
	var errs field.Errors
	if *c.MaxSkew < 1 || *c.MaxSkew > MaxInt32 {
		errs = append(errs, field.Errorf(p.Child("max_skew"), fmt.Sprintf("Use a whole number from 1 to %d.", MaxInt32),
			"max_skew must be between 1 and %d (maxSkew is a 32-bit integer in Fleet's API), got %d", MaxInt32, *c.MaxSkew))
	}
	if c.TopologyKey == "" {
		errs = append(errs, field.Errorf(p.Child("topology_key"), "Use a cluster label key such as fleet.azure.com/location.", "topology_key is required"))
	} else if msgs := validation.IsQualifiedName(c.TopologyKey); len(msgs) > 0 {
		errs = append(errs, field.Errorf(p.Child("topology_key"), "", "%q is not a valid label key: %s", c.TopologyKey, strings.Join(msgs, "; ")))
	}
	if c.WhenUnsatisfiable != DoNotSchedule && c.WhenUnsatisfiable != ScheduleAnyway {
		errs = append(errs, field.Errorf(p.Child("when_unsatisfiable"), "Use "+field.Or(WhenUnsatisfiableValues)+".", "%q is not a whenUnsatisfiable value", c.WhenUnsatisfiable))
	}
	return errs
}

// validateStrategy validates the strategy as written (not defaulted), so that
// a rolling_update block next to type External is caught.
func validateStrategy(s Strategy) field.Errors {
	p := field.Root("strategy")
	var errs field.Errors
	switch cmp.Or(s.Type, RollingUpdateStrategy) {
	case RollingUpdateStrategy:
	case ExternalStrategy:
		if s.RollingUpdate != nil {
			errs = append(errs, field.Errorf(p.Child("rolling_update"), "Remove rolling_update, or use type RollingUpdate.", "rolling_update cannot be set with type External"))
		}
		return errs
	default:
		return append(errs, field.Errorf(p.Child("type"), "Use "+field.Or(StrategyTypes)+".", "%q is not a rollout strategy type", s.Type))
	}
	ru := s.RollingUpdate
	if ru == nil {
		return errs
	}
	rp := p.Child("rolling_update")
	check := func(attr string, v *string) {
		if v != nil && !intOrPercent.MatchString(*v) {
			errs = append(errs, field.Errorf(rp.Child(attr), "Use a number of clusters such as 1, or a percentage from 0% to 100% such as 25%.", "%q is not an integer or a percentage", *v))
		}
	}
	check("max_unavailable", ru.MaxUnavailable)
	check("max_surge", ru.MaxSurge)
	if ru.UnavailablePeriodSeconds != nil && *ru.UnavailablePeriodSeconds < 0 {
		errs = append(errs, field.Errorf(rp.Child("unavailable_period_seconds"), "", "must be at least 0, got %d", *ru.UnavailablePeriodSeconds))
	}
	return errs
}
