package placement

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Resource selection: which hub-cluster objects a placement's resource
// selectors select, as Fleet's placement controller resolves them
// (designs/placement.md §9).

// ResourceID identifies a selected resource.
type ResourceID = fleet.ResourceID

// Selection is what a placement's resource selectors select.
type Selection struct {
	// Resources are the selected resources in the order Fleet's
	// status.selectedResources lists them.
	Resources []ResourceID
	// PerSelector is how many resources each selector selected (for a
	// Namespace, with the objects in it).
	PerSelector []int
	// Envelopes is how many of the resources are envelopes; Contents are
	// the objects each carries, which Fleet copies in its place.
	Envelopes int
	Contents  map[ResourceID][]ResourceID
	// Digest identifies what the selected resources say (identity, labels
	// and content, envelopes with what they carry): Fleet takes a new
	// resource snapshot — and rolls it out — when it changes.
	Digest string
	// Error is why Fleet refuses the selectors (its condition
	// ClusterResourcePlacementScheduled False with reason
	// InvalidResourceSelectors); nil when it does not.
	Error *field.Error
}

// Kinds Fleet never propagates (its default block list: the fleet's own
// API groups, events, leases, metrics, pods and nodes).
var disabledGroups = []string{"cluster.kubernetes-fleet.io", "placement.kubernetes-fleet.io", "events.k8s.io",
	"coordination.k8s.io", "metrics.k8s.io", "networking.fleet.azure.com"}

func disabled(group, kind string) bool {
	return slices.Contains(disabledGroups, group) || group == "" && (kind == "Pod" || kind == "Node" || kind == "Event")
}

// propagates reports whether Fleet copies a selected object at all
// (ShouldPropagateObj): not an object being deleted, the namespace's
// kube-root-ca.crt ConfigMap, its default ServiceAccount, a service account
// token, or an object another one owns (a Deployment's ReplicaSet, a
// StatefulSet's ControllerRevision).
func propagates(o fleet.HubObject) bool {
	switch {
	case o.Deleting:
		return false
	case o.Group == "" && o.Kind == "ConfigMap" && o.Name == "kube-root-ca.crt":
		return false
	case o.Group == "" && o.Kind == "ServiceAccount" && o.Name == "default":
		return false
	case o.Group == "" && o.Kind == "Secret" && o.SecretType == "kubernetes.io/service-account-token":
		return false
	case o.Group == "apps" && (o.Kind == "ReplicaSet" || o.Kind == "ControllerRevision") && o.Owned:
		return false
	case o.Group == "discovery.k8s.io" && o.Kind == "EndpointSlice" && o.Labels["endpointslice.kubernetes.io/managed-by"] != "":
		return false
	}
	return true
}

// ReservedNamespace reports whether Fleet refuses to propagate a namespace:
// one prefixed fleet- or kube-, or default.
func ReservedNamespace(name string) bool {
	return strings.HasPrefix(name, "fleet-") || strings.HasPrefix(name, "kube-") || name == "default"
}

// SelectResources resolves resource selectors on the hub's resources as
// Fleet's placement controller does (designs/placement.md §9): each
// selector on its own — by name, by label selector, or every object of its
// kind — a Namespace with the objects in it, every result filtered by what
// Fleet propagates, then all of them sorted in Fleet's order. A selector of
// a kind the hub does not serve, or of a namespaced kind, a Namespace Fleet
// reserves, or an object selected twice make Fleet refuse the selectors
// (Selection.Error).
func SelectResources(selectors []ResourceSelector, hub fleet.HubResources) Selection {
	s := Selection{PerSelector: make([]int, len(selectors))}
	seen := map[ResourceID]int{} // by the selector that selected it
	says := map[ResourceID]string{}
	services := map[[2]string]bool{}
	for _, o := range hub.Objects {
		if o.Group == "" && o.Kind == "Service" {
			services[[2]string{o.Namespace, o.Name}] = true
		}
	}
	copied := func(o fleet.HubObject) bool {
		// Endpoints a Service of the same name manages are not copied either.
		return propagates(o) && !(o.Group == "" && o.Kind == "Endpoints" && services[[2]string{o.Namespace, o.Name}])
	}
	for i, rs := range selectors {
		p := field.Root("resource_selectors").Index(i)
		api, ok := findAPI(hub.APIs, rs)
		if !ok {
			fix := "Name a group, version and kind the hub cluster serves (kubectl api-resources)."
			if strings.EqualFold(rs.Group, "core") {
				fix = "Leave group out: the core group (Namespace, ConfigMap, …) is \"\"."
			}
			return refused(len(selectors), field.Error{Path: p.Child("kind"), Rule: fmt.Sprintf("the hub cluster serves no kind %q in version %q",
				rs.Kind, fleet.GroupVersion(rs.Group, rs.Version)), Fix: fix})
		}
		if api.Namespaced {
			return refused(len(selectors), field.Error{Path: p.Child("kind"), Rule: fmt.Sprintf("%s is namespace-scoped: a cluster resource placement selects "+
				"cluster-scoped resources only", rs.Kind), Fix: "Select the Namespace that holds the objects."})
		}
		if disabled(rs.Group, rs.Kind) {
			continue
		}
		var sel labels.Selector
		if rs.LabelSelector != nil {
			var err error
			if sel, err = rs.LabelSelector.Compile(); err != nil {
				return refused(len(selectors), field.Error{Path: p.Child("label_selector"), Rule: err.Error()})
			}
		}
		var reserved []string
		for _, o := range hub.Objects {
			if o.Group != rs.Group || o.Version != rs.Version || o.Kind != rs.Kind || o.Namespace != "" {
				continue
			}
			switch {
			case rs.Name != "" && o.Name != rs.Name:
				continue
			case rs.Name == "" && sel != nil && !sel.Matches(labels.Set(o.Labels)):
				continue
			}
			var picked []fleet.HubObject
			switch {
			case rs.Group == "" && rs.Kind == "Namespace":
				if o.Deleting {
					continue
				}
				if ReservedNamespace(o.Name) {
					reserved = append(reserved, o.Name)
					continue
				}
				picked = append(picked, o)
				for _, n := range hub.Objects {
					if n.Namespace == o.Name && !disabled(n.Group, n.Kind) && copied(n) {
						picked = append(picked, n)
					}
				}
			case copied(o):
				picked = append(picked, o)
			}
			for _, n := range picked {
				id := n.ResourceID
				if first, dup := seen[id]; dup {
					return refused(len(selectors), field.Error{Path: p, Rule: fmt.Sprintf("selects %s, which resource_selectors[%d] selects too", id, first),
						Fix: "Select each resource once."})
				}
				seen[id] = i
				says[id] = objectDigest(n)
				s.Resources = append(s.Resources, id)
				s.PerSelector[i]++
				if n.Envelope {
					s.Envelopes++
					if s.Contents == nil {
						s.Contents = map[ResourceID][]ResourceID{}
					}
					s.Contents[id] = n.Contents
				}
			}
		}
		if len(reserved) > 0 {
			slices.Sort(reserved)
			fix := "Add a label selector that leaves them out, or select namespaces by name."
			if rs.Name != "" {
				fix = "Fleet never places it: remove this selector."
			}
			what := "namespace " + reserved[0] + " is"
			if len(reserved) > 1 {
				what = "namespaces " + strings.Join(reserved, ", ") + " are"
			}
			return refused(len(selectors), field.Error{Path: p, Rule: what + " not allowed to propagate: Fleet reserves " +
				"default and the namespaces prefixed kube- and fleet-", Fix: fix})
		}
	}
	slices.SortFunc(s.Resources, compareResources)
	h := sha256.New()
	for _, id := range s.Resources {
		fmt.Fprintf(h, "%s\x00%s\x00", id, says[id])
	}
	s.Digest = hex.EncodeToString(h.Sum(nil)[:12])
	return s
}

// objectDigest is what an object says besides its identity.
func objectDigest(o fleet.HubObject) string {
	keys := slices.Sorted(maps.Keys(o.Labels))
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s,", k, o.Labels[k])
	}
	fmt.Fprintf(&b, "|%s|", o.Content)
	for _, c := range o.Contents {
		fmt.Fprintf(&b, "%s;", c)
	}
	return b.String()
}

// refused is the selection Fleet refuses: the error alone (Fleet leaves
// the placement's selected resources as they were).
func refused(selectors int, e field.Error) Selection {
	return Selection{PerSelector: make([]int, selectors), Error: &e}
}

// findAPI is the kind a selector names, matched exactly (case-sensitive).
func findAPI(apis []fleet.APIResource, rs ResourceSelector) (fleet.APIResource, bool) {
	i := slices.IndexFunc(apis, func(a fleet.APIResource) bool {
		return a.Group == rs.Group && a.Version == rs.Version && a.Kind == rs.Kind
	})
	if i < 0 {
		return fleet.APIResource{}, false
	}
	return apis[i], true
}

// applyOrder ranks kinds as Fleet sorts selected resources (by kind name
// alone): the kinds others depend on first.
var applyOrder = []string{"PriorityClass", "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodDisruptionBudget",
	"ServiceAccount", "Secret", "ConfigMap", "StorageClass", "PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition",
	"ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "Service", "DaemonSet", "Pod", "ReplicationController", "ReplicaSet",
	"Deployment", "HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob", "IngressClass", "Ingress", "APIService",
	"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}

// compareResources is Fleet's order of selected resources: a known kind by
// its rank, then group/version, then namespace/name; kinds it does not rank
// after, by "group/version, Kind=K", then namespace/name.
func compareResources(a, b ResourceID) int {
	ra, rb := slices.Index(applyOrder, a.Kind), slices.Index(applyOrder, b.Kind)
	switch {
	case ra >= 0 && rb >= 0:
		if c := cmp.Compare(ra, rb); c != 0 {
			return c
		}
		if c := cmp.Compare(a.GroupVersion(), b.GroupVersion()); c != 0 {
			return c
		}
	case ra >= 0:
		return -1
	case rb >= 0:
		return 1
	default:
		if c := cmp.Compare(gvkString(a), gvkString(b)); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
}

// gvkString is Fleet's sort key of a kind it does not rank: apimachinery's
// GroupVersionKind.String(), "group/version, Kind=K" ("/v1, Kind=K" for the core group).
func gvkString(r ResourceID) string {
	return r.Group + "/" + r.Version + ", Kind=" + r.Kind
}

// WarnSelectsNothing: a resource selector selects nothing on the hub
// cluster. Fleet admits it and places nothing for it.
const WarnSelectsNothing = "selects_nothing"

// SelectionWarnings are the warnings of a selection: each selector that
// selects nothing, saying what it looked for.
func SelectionWarnings(selectors []ResourceSelector, s Selection) []field.Warning {
	if s.Error != nil {
		return nil
	}
	var out []field.Warning
	for i, rs := range selectors {
		if i >= len(s.PerSelector) || s.PerSelector[i] > 0 {
			continue
		}
		what := "no " + fleet.GroupVersion(rs.Group, rs.Version) + " " + rs.Kind
		switch {
		case rs.Name != "":
			what += " named " + rs.Name
		case rs.LabelSelector != nil:
			what += " matching its label selector"
		}
		if disabled(rs.Group, rs.Kind) {
			what = "Fleet never propagates a " + rs.Kind
		}
		out = append(out, field.Warning{Path: field.Root("resource_selectors").Index(i), ID: WarnSelectsNothing,
			Message: "selects nothing on the hub cluster (" + what + "): Fleet admits it and places nothing for it."})
	}
	return out
}
