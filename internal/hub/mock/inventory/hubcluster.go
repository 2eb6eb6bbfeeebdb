package inventory

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// The hub cluster's resources in the inventory (designs/placement.md §9):
//
//	hub_cluster:
//	  namespaces:
//	    - name: web
//	      labels: { app: web }
//	      objects:
//	        - { kind: ConfigMap, name: settings, data: { color: blue } }
//	        - { group: apps, kind: Deployment, name: api }
//	        - { kind: ConfigMap, name: bundle, envelope: [{ group: admissionregistration.k8s.io, kind: ValidatingWebhookConfiguration, name: guard }] }
//	  objects:
//	    - { group: rbac.authorization.k8s.io, kind: ClusterRole, name: web-reader, labels: { app: web } }
//
// An object's version defaults to v1. The hub serves the kinds of a
// Kubernetes API server (hubKinds) and every other kind the inventory uses:
// namespaced when its objects are in a namespace, cluster-scoped otherwise.

type rawHubCluster struct {
	Namespaces []rawHubNamespace `yaml:"namespaces" json:"namespaces"`
	Objects    []rawHubObject    `yaml:"objects" json:"objects"`
}

type rawHubNamespace struct {
	Name    string            `yaml:"name" json:"name"`
	Labels  map[string]string `yaml:"labels" json:"labels"`
	Objects []rawHubObject    `yaml:"objects" json:"objects"`
}

type rawHubObject struct {
	Group   string            `yaml:"group" json:"group"`
	Version string            `yaml:"version" json:"version"`
	Kind    string            `yaml:"kind" json:"kind"`
	Name    string            `yaml:"name" json:"name"`
	Labels  map[string]string `yaml:"labels" json:"labels"`
	// Data stands for what the object says (a ConfigMap's data, a
	// Deployment's spec): change it to model an edit that Fleet rolls out.
	Data map[string]string `yaml:"data" json:"data"`
	// Envelope lists the objects a ConfigMap envelope carries.
	Envelope []rawHubObjectRef `yaml:"envelope" json:"envelope"`
}

type rawHubObjectRef struct {
	Group     string `yaml:"group" json:"group"`
	Version   string `yaml:"version" json:"version"`
	Kind      string `yaml:"kind" json:"kind"`
	Namespace string `yaml:"namespace" json:"namespace"`
	Name      string `yaml:"name" json:"name"`
}

// contentOf is an object's data as one string (sorted keys).
func contentOf(data map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(data)) {
		fmt.Fprintf(&b, "%s=%q;", k, data[k])
	}
	return b.String()
}

// hubKinds are the kinds a Kubernetes API server serves that placements
// select, each group in its preferred version.
var hubKinds = []fleet.APIResource{
	{Version: "v1", Kind: "Namespace"}, {Version: "v1", Kind: "ConfigMap", Namespaced: true},
	{Version: "v1", Kind: "Secret", Namespaced: true}, {Version: "v1", Kind: "ServiceAccount", Namespaced: true},
	{Version: "v1", Kind: "Service", Namespaced: true}, {Version: "v1", Kind: "Endpoints", Namespaced: true},
	{Version: "v1", Kind: "PersistentVolumeClaim", Namespaced: true}, {Version: "v1", Kind: "PersistentVolume"},
	{Version: "v1", Kind: "ResourceQuota", Namespaced: true}, {Version: "v1", Kind: "LimitRange", Namespaced: true},
	{Version: "v1", Kind: "Pod", Namespaced: true}, {Version: "v1", Kind: "Event", Namespaced: true}, {Version: "v1", Kind: "Node"},
	{Group: "apps", Version: "v1", Kind: "Deployment", Namespaced: true}, {Group: "apps", Version: "v1", Kind: "StatefulSet", Namespaced: true},
	{Group: "apps", Version: "v1", Kind: "DaemonSet", Namespaced: true}, {Group: "apps", Version: "v1", Kind: "ReplicaSet", Namespaced: true},
	{Group: "apps", Version: "v1", Kind: "ControllerRevision", Namespaced: true},
	{Group: "batch", Version: "v1", Kind: "Job", Namespaced: true}, {Group: "batch", Version: "v1", Kind: "CronJob", Namespaced: true},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}, {Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role", Namespaced: true},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBinding", Namespaced: true},
	{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"},
	{Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy", Namespaced: true},
	{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress", Namespaced: true}, {Group: "networking.k8s.io", Version: "v1", Kind: "IngressClass"},
	{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget", Namespaced: true},
	{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass"},
	{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler", Namespaced: true},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfiguration"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfiguration"},
	// Fleet's own, which it never places.
	{Group: "placement.kubernetes-fleet.io", Version: "v1", Kind: "ClusterResourcePlacement"},
	{Group: "cluster.kubernetes-fleet.io", Version: "v1", Kind: "MemberCluster"},
}

// systemNamespaces are the namespaces every Kubernetes API server has.
var systemNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system"}

// toHub resolves the hub cluster's section; at is its path, for errors.
func (raw rawHubCluster) toHub(at field.Path) (fleet.HubResources, field.Errors) {
	var errs field.Errors
	hub := fleet.HubResources{APIs: slices.Clone(hubKinds)}
	scope := func(o fleet.ResourceID, p field.Path) {
		i := slices.IndexFunc(hub.APIs, func(a fleet.APIResource) bool { return a.Group == o.Group && a.Kind == o.Kind })
		switch {
		case i < 0:
			hub.APIs = append(hub.APIs, fleet.APIResource{Group: o.Group, Version: o.Version, Kind: o.Kind, Namespaced: o.Namespace != ""})
		case hub.APIs[i].Version != o.Version:
			errs = append(errs, field.Errorf(p.Child("version"), fmt.Sprintf("Write version %s, or leave it out when it is v1.", hub.APIs[i].Version),
				"the hub serves %s in version %s", o.Kind, hub.APIs[i].Version))
		case hub.APIs[i].Namespaced != (o.Namespace != ""):
			where := "under hub_cluster.objects"
			if hub.APIs[i].Namespaced {
				where = "under a namespace's objects"
			}
			errs = append(errs, field.Errorf(p, "Put it "+where+".", "%s is %s", o.Kind, map[bool]string{true: "namespace-scoped", false: "cluster-scoped"}[hub.APIs[i].Namespaced]))
		}
	}
	seen := map[fleet.ResourceID]bool{}
	add := func(o rawHubObject, ns string, p field.Path) {
		id := fleet.ResourceID{Group: o.Group, Version: o.Version, Kind: o.Kind, Namespace: ns, Name: o.Name}
		if id.Version == "" {
			id.Version = "v1"
		}
		switch {
		case o.Kind == "":
			errs = append(errs, field.Errorf(p.Child("kind"), "Give its kind, e.g. ConfigMap.", "a hub object needs a kind"))
			return
		case o.Name == "":
			errs = append(errs, field.Errorf(p.Child("name"), "", "a hub object needs a name"))
			return
		case o.Kind[0] < 'A' || o.Kind[0] > 'Z':
			errs = append(errs, field.Errorf(p.Child("kind"), "Write a kind as the API names it, e.g. Service, not service.", "%q is not a kind", o.Kind))
			return
		}
		msgs := validation.IsDNS1123Subdomain(o.Name)
		if o.Kind == "Namespace" && o.Group == "" {
			msgs = validation.IsDNS1123Label(o.Name)
		}
		if len(msgs) > 0 {
			errs = append(errs, field.Errorf(p.Child("name"), "Use lower-case letters, digits, '-' and '.'.", "%q is not a valid name: %s", o.Name, strings.Join(msgs, "; ")))
			return
		}
		for k, v := range o.Labels {
			if msgs := append(validation.IsQualifiedName(k), validation.IsValidLabelValue(v)...); len(msgs) > 0 {
				errs = append(errs, field.Errorf(p.Child("labels").Key(k), "", "label %s=%q: %s", k, v, strings.Join(msgs, "; ")))
			}
		}
		if seen[id] {
			errs = append(errs, field.Errorf(p.Child("name"), "Declare each object once.", "duplicate %s", id))
			return
		}
		seen[id] = true
		scope(id, p)
		obj := fleet.HubObject{ResourceID: id, Labels: o.Labels, SecretType: secretType(id), Content: contentOf(o.Data)}
		if id.Group == "" && id.Kind == "Namespace" {
			obj.Labels = namespaceLabels(id.Name, o.Labels)
		}
		if o.Envelope != nil && len(o.Envelope) == 0 {
			errs = append(errs, field.Errorf(p.Child("envelope"), "List the objects it carries, or leave envelope out.", "an envelope carries no object"))
		}
		if len(o.Envelope) > 0 {
			if id.Group != "" || id.Kind != "ConfigMap" {
				errs = append(errs, field.Errorf(p.Child("envelope"), "Put the objects in a ConfigMap envelope.", "only a ConfigMap is an envelope, not a %s", id.Kind))
			}
			obj.Envelope = true
			for j, c := range o.Envelope {
				ref := fleet.ResourceID{Group: c.Group, Version: c.Version, Kind: c.Kind, Namespace: c.Namespace, Name: c.Name}
				if ref.Version == "" {
					ref.Version = "v1"
				}
				if ref.Kind == "" || ref.Name == "" {
					errs = append(errs, field.Errorf(p.Child("envelope").Index(j), "", "an enveloped object needs a kind and a name"))
				}
				obj.Contents = append(obj.Contents, ref)
			}
		}
		hub.Objects = append(hub.Objects, obj)
	}
	for i, n := range raw.Namespaces {
		p := at.Child("namespaces").Index(i)
		if slices.Contains(systemNamespaces, n.Name) {
			errs = append(errs, field.Errorf(p.Child("name"), "Leave it out: every hub cluster has it.", "namespace %s is the API server's own", n.Name))
			continue
		}
		add(rawHubObject{Kind: "Namespace", Name: n.Name, Labels: n.Labels}, "", p)
		for j, o := range n.Objects {
			add(o, n.Name, p.Child("objects").Index(j))
		}
	}
	for i, o := range raw.Objects {
		add(o, "", at.Child("objects").Index(i))
	}
	for _, name := range systemNamespaces {
		hub.Objects = append(hub.Objects, fleet.HubObject{ResourceID: fleet.ResourceID{Version: "v1", Kind: "Namespace", Name: name},
			Labels: namespaceLabels(name, nil)})
	}
	return hub, errs
}

// namespaceLabels are a namespace's labels as the API server keeps them:
// with kubernetes.io/metadata.name, its name.
func namespaceLabels(name string, l map[string]string) map[string]string {
	out := map[string]string{"kubernetes.io/metadata.name": name}
	for k, v := range l {
		out[k] = v
	}
	return out
}

// secretType is an inventory Secret's type: Opaque.
func secretType(id fleet.ResourceID) string {
	if id.Group == "" && id.Kind == "Secret" {
		return "Opaque"
	}
	return ""
}
