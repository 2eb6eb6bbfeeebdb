package fleetsim

import (
	"context"
	"fmt"
	"slices"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"

	"github.com/fleetform/terraform-provider-aks/internal/emulator/kubetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// HubObjectLabel marks the hub-cluster objects the Sim writes from the
// fleet's hub resources (the mock's inventory section hub_cluster).
const HubObjectLabel = "fleetsim.fleetform.dev/hub-object"

// envelopeAnnotation marks a ConfigMap envelope (Fleet's
// kubernetes-fleet.io/envelope-configmap).
const envelopeAnnotation = "kubernetes-fleet.io/envelope-configmap"

// syncHubObjects writes the fleet's hub-cluster objects into the hub
// cluster, as the objects a platform team keeps there: each with its
// labels, the smallest body its kind admits (a Deployment runs one
// container, a Service serves port 80, a ConfigMap envelope carries its
// objects as YAML), a kind the API server does not serve by a CRD of its
// own that keeps any field. An object already there gets the inventory's
// labels; one the Sim wrote that the inventory no longer lists is deleted
// (a Namespace is not: without a namespace controller it would never go).
func (s *Sim) syncHubObjects(ctx context.Context, c *kubetest.Cluster, hr fleet.HubResources) error {
	disc, err := discovery.NewDiscoveryClientForConfig(c.Config)
	if err != nil {
		return err
	}
	served := map[schema.GroupKind]bool{}
	lists, err := disc.ServerPreferredResources()
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		return fmt.Errorf("fleetsim: discovering the hub cluster: %w", err)
	}
	for _, l := range lists {
		gv, _ := schema.ParseGroupVersion(l.GroupVersion)
		for _, r := range l.APIResources {
			served[schema.GroupKind{Group: gv.Group, Kind: r.Kind}] = true
		}
	}
	var crds []*apiextv1.CustomResourceDefinition
	for _, api := range hr.APIs {
		if !served[schema.GroupKind{Group: api.Group, Kind: api.Kind}] && api.Group != "" {
			crds = append(crds, crdFor(api))
		}
	}
	if len(crds) > 0 {
		if err := c.InstallCRDs(crds...); err != nil {
			return err
		}
	}
	if !s.hubObjectsCleared {
		// Objects another Sim wrote on this cluster (from another inventory).
		if err := clearHubObjects(ctx, c, lists); err != nil {
			return err
		}
		s.hubObjectsCleared = true
	}
	groups, err := restmapper.GetAPIGroupResources(disc)
	if err != nil {
		return fmt.Errorf("fleetsim: discovering the hub cluster: %w", err)
	}
	mapper := restmapper.NewDiscoveryRESTMapper(groups)
	want := map[fleet.ResourceID]bool{}
	for _, o := range hr.Objects {
		want[o.ResourceID] = true
		m, err := mapper.RESTMapping(schema.GroupKind{Group: o.Group, Kind: o.Kind}, o.Version)
		if err != nil {
			return fmt.Errorf("fleetsim: the hub cluster serves no %s: %w", o.ResourceID, err)
		}
		client := c.Dynamic.Resource(m.Resource).Namespace(o.Namespace)
		cur, err := client.Get(ctx, o.Name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			obj, err := hubObjectBody(o)
			if err != nil {
				return err
			}
			if _, err := client.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
				return fmt.Errorf("fleetsim: creating %s on the hub cluster: %w", o.ResourceID, err)
			}
		case err != nil:
			return err
		default:
			labels := withHubLabel(o.Labels)
			if !sameJSON(cur.GetLabels(), labels) {
				cur.SetLabels(labels)
				if _, err := client.Update(ctx, cur, metav1.UpdateOptions{}); err != nil {
					return fmt.Errorf("fleetsim: updating %s on the hub cluster: %w", o.ResourceID, err)
				}
			}
		}
	}
	for id, gvr := range s.hubObjects {
		if want[id] || id.Kind == "Namespace" && id.Group == "" {
			continue
		}
		if err := c.Dynamic.Resource(gvr).Namespace(id.Namespace).Delete(ctx, id.Name, deleteNow); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		delete(s.hubObjects, id)
	}
	for _, o := range hr.Objects {
		if m, err := mapper.RESTMapping(schema.GroupKind{Group: o.Group, Kind: o.Kind}, o.Version); err == nil {
			s.hubObjects[o.ResourceID] = m.Resource
		}
	}
	return nil
}

// deleteNow deletes an object in the background: the API server's default
// for some kinds (batch/v1 Jobs) orphans their dependents, which holds the
// object with the orphan finalizer until a garbage collector — which these
// API servers do not run — removes it.
var deleteNow = metav1.DeleteOptions{PropagationPolicy: ptrTo(metav1.DeletePropagationBackground)}

func ptrTo[T any](v T) *T { return &v }

// crdFor is a CRD serving a kind with any fields.
func crdFor(api fleet.APIResource) *apiextv1.CustomResourceDefinition {
	plural := strings.ToLower(api.Kind) + "s"
	scope := apiextv1.ClusterScoped
	if api.Namespaced {
		scope = apiextv1.NamespaceScoped
	}
	preserve := true
	return &apiextv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + api.Group},
		Spec: apiextv1.CustomResourceDefinitionSpec{
			Group: api.Group, Scope: scope,
			Names: apiextv1.CustomResourceDefinitionNames{Plural: plural, Singular: strings.ToLower(api.Kind), Kind: api.Kind, ListKind: api.Kind + "List"},
			Versions: []apiextv1.CustomResourceDefinitionVersion{{Name: api.Version, Served: true, Storage: true,
				Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: &preserve}}}},
		},
	}
}

func withHubLabel(l map[string]string) map[string]string {
	out := map[string]string{HubObjectLabel: "true"}
	for k, v := range l {
		out[k] = v
	}
	return out
}

// hubObjectBody is the object the Sim writes for o: the smallest body its
// kind admits.
func hubObjectBody(o fleet.HubObject) (*unstructured.Unstructured, error) {
	obj := &unstructured.Unstructured{Object: map[string]any{}}
	obj.SetAPIVersion(o.GroupVersion())
	obj.SetKind(o.Kind)
	obj.SetName(o.Name)
	obj.SetNamespace(o.Namespace)
	obj.SetLabels(withHubLabel(o.Labels))
	app := map[string]any{"app": o.Name}
	container := []any{map[string]any{"name": "app", "image": "mcr.microsoft.com/oss/nginx/nginx:1.25"}}
	podTemplate := func(restart string) map[string]any {
		spec := map[string]any{"containers": container}
		if restart != "" {
			spec["restartPolicy"] = restart
		}
		return map[string]any{"metadata": map[string]any{"labels": app}, "spec": spec}
	}
	workload := map[string]any{"selector": map[string]any{"matchLabels": app}, "template": podTemplate("")}
	switch o.Group + "/" + o.Kind {
	case "/ConfigMap":
		if o.Envelope {
			obj.SetAnnotations(map[string]string{envelopeAnnotation: "true"})
			data := map[string]any{}
			for _, c := range o.Contents {
				doc := map[string]any{"apiVersion": c.GroupVersion(), "kind": c.Kind, "metadata": map[string]any{"name": c.Name}}
				if c.Namespace != "" {
					doc["metadata"].(map[string]any)["namespace"] = c.Namespace
				}
				b, err := yaml.Marshal(doc)
				if err != nil {
					return nil, err
				}
				data[strings.ToLower(c.Kind)+"-"+c.Name+".yaml"] = string(b)
			}
			obj.Object["data"] = data
		}
	case "/Secret":
		obj.Object["type"] = "Opaque"
	case "/Service":
		obj.Object["spec"] = map[string]any{"ports": []any{map[string]any{"port": int64(80)}}}
	case "/Pod":
		obj.Object["spec"] = map[string]any{"containers": container}
	case "apps/Deployment", "apps/DaemonSet", "apps/ReplicaSet":
		obj.Object["spec"] = workload
	case "apps/StatefulSet":
		workload["serviceName"] = o.Name
		obj.Object["spec"] = workload
	case "batch/Job":
		obj.Object["spec"] = map[string]any{"template": podTemplate("Never")}
	case "batch/CronJob":
		obj.Object["spec"] = map[string]any{"schedule": "0 0 * * *", "jobTemplate": map[string]any{"spec": map[string]any{"template": podTemplate("Never")}}}
	case "rbac.authorization.k8s.io/ClusterRoleBinding", "rbac.authorization.k8s.io/RoleBinding":
		obj.Object["roleRef"] = map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"}
	case "scheduling.k8s.io/PriorityClass":
		obj.Object["value"] = int64(1000)
	case "storage.k8s.io/StorageClass":
		obj.Object["provisioner"] = "disk.csi.azure.com"
	case "networking.k8s.io/NetworkPolicy":
		obj.Object["spec"] = map[string]any{"podSelector": map[string]any{}}
	case "policy/PodDisruptionBudget":
		obj.Object["spec"] = map[string]any{"minAvailable": int64(1), "selector": map[string]any{"matchLabels": app}}
	case "/PersistentVolumeClaim":
		obj.Object["spec"] = map[string]any{"accessModes": []any{"ReadWriteOnce"},
			"resources": map[string]any{"requests": map[string]any{"storage": "1Gi"}}}
	case "autoscaling/HorizontalPodAutoscaler":
		obj.Object["spec"] = map[string]any{"maxReplicas": int64(3),
			"scaleTargetRef": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": o.Name}}
	case "/Namespace", "/ServiceAccount", "/Endpoints", "/ResourceQuota", "rbac.authorization.k8s.io/ClusterRole",
		"rbac.authorization.k8s.io/Role", "networking.k8s.io/IngressClass", "admissionregistration.k8s.io/MutatingWebhookConfiguration",
		"admissionregistration.k8s.io/ValidatingWebhookConfiguration":
	default:
		if o.Group == "" || strings.HasSuffix(o.Group, ".k8s.io") || !strings.Contains(o.Group, ".") {
			return nil, fmt.Errorf("fleetsim: the emulator cannot write a %s on the hub cluster (a kind it has no body for)", o.ResourceID)
		}
	}
	return obj, nil
}

// clearHubObjects deletes every object labelled HubObjectLabel, of every
// listable kind the cluster serves (lists: its preferred resources), but
// the namespaces: without a namespace controller one would never go (an
// empty namespace another Sim left stays, labelled as it was).
func clearHubObjects(ctx context.Context, c *kubetest.Cluster, lists []*metav1.APIResourceList) error {
	sel := metav1.ListOptions{LabelSelector: HubObjectLabel + "=true"}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !slices.Contains(r.Verbs, "list") || !slices.Contains(r.Verbs, "delete") ||
				gv.Group == "" && r.Kind == "Namespace" {
				continue
			}
			client := c.Dynamic.Resource(gv.WithResource(r.Name))
			items, err := client.List(ctx, sel)
			if err != nil {
				continue // a kind that cannot be listed holds nothing of ours
			}
			for _, o := range items.Items {
				if err := client.Namespace(o.GetNamespace()).Delete(ctx, o.GetName(), deleteNow); err != nil && !apierrors.IsNotFound(err) {
					return fmt.Errorf("fleetsim: deleting %s %s/%s: %w", r.Kind, o.GetNamespace(), o.GetName(), err)
				}
			}
		}
	}
	return nil
}
