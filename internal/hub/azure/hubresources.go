package azure

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/yaml"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// EnvelopeAnnotation marks a ConfigMap whose data are objects Fleet copies
// to the member clusters in its place.
const EnvelopeAnnotation = "kubernetes-fleet.io/envelope-configmap"

// HubResources reads from the hub cluster what the selectors may select
// (designs/placement.md §9): the kinds it serves (discovery, each group in
// its preferred version, once per provider process) and, for each selector
// of a cluster-scoped kind it serves, the objects of that kind — the one
// named, or those its label selector matches, or all — and for the selected
// Namespaces every listable object of every namespaced kind in them, one
// LIST per kind. Each object is read once; more than hub.MaxHubObjects is
// an error.
func (h *Hub) HubResources(ctx context.Context, selectors []placement.ResourceSelector) (fleet.HubResources, error) {
	kc, err := h.clusters.hubCluster(ctx)
	if err != nil {
		return fleet.HubResources{}, err
	}
	lists, err := kc.disc.ServerPreferredResources()
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) { // a group that fails is a group not served
		return fleet.HubResources{}, kc.fail("discovering the hub cluster's kinds", err)
	}
	var out fleet.HubResources
	gvrs := map[fleet.APIResource]schema.GroupVersionResource{}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !slices.Contains(r.Verbs, "list") {
				continue // a subresource, or nothing to list
			}
			api := fleet.APIResource{Group: gv.Group, Version: gv.Version, Kind: r.Kind, Namespaced: r.Namespaced}
			out.APIs = append(out.APIs, api)
			gvrs[api] = gv.WithResource(r.Name)
		}
	}
	seen := map[fleet.ResourceID]bool{}
	namespaces := map[string]bool{} // the selected namespaces whose objects come with them
	add := func(items []unstructured.Unstructured) error {
		for i := range items {
			o := hubObjectFrom(&items[i])
			if seen[o.ResourceID] {
				continue
			}
			if len(out.Objects) >= hub.MaxHubObjects {
				return fmt.Errorf("the placement's selectors reach more than %d objects on the hub cluster", hub.MaxHubObjects)
			}
			seen[o.ResourceID] = true
			out.Objects = append(out.Objects, o)
		}
		return nil
	}
	for _, rs := range selectors {
		api := fleet.APIResource{Group: rs.Group, Version: rs.Version, Kind: rs.Kind}
		gvr, ok := gvrs[api]
		if !ok {
			continue // not served, or namespace-scoped: the selection says why
		}
		opts := metav1.ListOptions{}
		switch {
		case rs.Name != "":
			opts.FieldSelector = "metadata.name=" + rs.Name
		case rs.LabelSelector != nil:
			sel, err := rs.LabelSelector.Compile()
			if err != nil {
				continue // the selection reports it
			}
			opts.LabelSelector = sel.String()
		}
		items, err := listPages(ctx, kc, gvr, "", opts)
		if err != nil {
			return fleet.HubResources{}, err
		}
		if err := add(items); err != nil {
			return fleet.HubResources{}, err
		}
		if rs.Group != "" || rs.Kind != "Namespace" {
			continue
		}
		for _, ns := range items {
			if ns.GetDeletionTimestamp() != nil || placement.ReservedNamespace(ns.GetName()) {
				continue // brings nothing, or refused whatever it holds
			}
			namespaces[ns.GetName()] = true
		}
	}
	if len(namespaces) == 0 {
		return out, nil
	}
	// One LIST per namespaced kind: in the namespace when there is one, else
	// across namespaces, keeping the objects in the selected ones.
	in := ""
	if len(namespaces) == 1 {
		for ns := range namespaces {
			in = ns
		}
	}
	for _, api := range out.APIs {
		if !api.Namespaced {
			continue
		}
		objs, err := listPages(ctx, kc, gvrs[api], in, metav1.ListOptions{})
		if err != nil {
			return fleet.HubResources{}, err
		}
		objs = slices.DeleteFunc(objs, func(o unstructured.Unstructured) bool { return !namespaces[o.GetNamespace()] })
		if err := add(objs); err != nil {
			return fleet.HubResources{}, err
		}
	}
	return out, nil
}

// listPages lists a resource (in namespace, "" for all or cluster-scoped) every page.
func listPages(ctx context.Context, kc *kubeCluster, gvr schema.GroupVersionResource, namespace string, opts metav1.ListOptions) ([]unstructured.Unstructured, error) {
	var out []unstructured.Unstructured
	opts.Limit = memberClusterPage
	for {
		list, err := kc.dyn.Resource(gvr).Namespace(namespace).List(ctx, opts)
		if err != nil {
			what := "listing " + gvr.Resource
			if namespace != "" {
				what += " in " + namespace
			}
			if opts.LabelSelector != "" {
				what += " " + opts.LabelSelector
			}
			return nil, kc.fail(what, err)
		}
		out = append(out, list.Items...)
		if opts.Continue = list.GetContinue(); opts.Continue == "" {
			return out, nil
		}
	}
}

// hubObjectFrom is what the selection reads of a hub-cluster object: its
// identity and labels, whether it is being deleted or owned, a Secret's
// type, and whether it is a ConfigMap envelope with the objects it carries.
func hubObjectFrom(u *unstructured.Unstructured) fleet.HubObject {
	gv, _ := schema.ParseGroupVersion(u.GetAPIVersion())
	o := fleet.HubObject{
		ResourceID: fleet.ResourceID{Group: gv.Group, Version: gv.Version, Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName()},
		Labels:     u.GetLabels(),
		Deleting:   u.GetDeletionTimestamp() != nil,
		Owned:      len(u.GetOwnerReferences()) > 0,
	}
	if gv.Group == "" && u.GetKind() == "Secret" {
		o.SecretType, _, _ = unstructured.NestedString(u.Object, "type")
	}
	if gv.Group == "" && u.GetKind() == "ConfigMap" {
		if _, ok := u.GetAnnotations()[EnvelopeAnnotation]; ok {
			o.Envelope = true
			data, _, _ := unstructured.NestedStringMap(u.Object, "data")
			keys := make([]string, 0, len(data))
			for k := range data {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				var c unstructured.Unstructured
				if err := yaml.Unmarshal([]byte(data[k]), &c.Object); err != nil || c.GetKind() == "" {
					continue // not an object: Fleet fails it at apply, the preview lists what it can
				}
				cgv, _ := schema.ParseGroupVersion(c.GetAPIVersion())
				o.Contents = append(o.Contents, fleet.ResourceID{Group: cgv.Group, Version: cgv.Version, Kind: c.GetKind(),
					Namespace: c.GetNamespace(), Name: c.GetName()})
			}
		}
	}
	return o
}
