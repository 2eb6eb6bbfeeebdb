package placement

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// exampleHub: Namespaces web (app=web), kube-system and other; in web a
// Deployment, its ReplicaSet (owned), a ConfigMap, an Opaque Secret, a
// service account token, kube-root-ca.crt, the default ServiceAccount, a
// Pod and an Event; a ClusterRole labelled app=web and one not.
func exampleHub() fleet.HubResources {
	ns := func(name string, l map[string]string) fleet.HubObject {
		return fleet.HubObject{ResourceID: ResourceID{Version: "v1", Kind: "Namespace", Name: name}, Labels: l}
	}
	in := func(group, kind, name string, edit ...func(*fleet.HubObject)) fleet.HubObject {
		o := fleet.HubObject{ResourceID: ResourceID{Group: group, Version: "v1", Kind: kind, Namespace: "web", Name: name}}
		for _, e := range edit {
			e(&o)
		}
		return o
	}
	return fleet.HubResources{
		APIs: []fleet.APIResource{
			{Version: "v1", Kind: "Namespace"}, {Version: "v1", Kind: "ConfigMap", Namespaced: true},
			{Version: "v1", Kind: "Secret", Namespaced: true}, {Version: "v1", Kind: "Pod", Namespaced: true},
			{Group: "apps", Version: "v1", Kind: "Deployment", Namespaced: true},
			{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"},
			{Group: "example.com", Version: "v1", Kind: "Widget"}, {Version: "v1", Kind: "Service", Namespaced: true},
			{Version: "v1", Kind: "Endpoints", Namespaced: true}, {Group: "example.com", Version: "v1", Kind: "Gadget", Namespaced: true},
		},
		Objects: []fleet.HubObject{
			ns("web", map[string]string{"app": "web"}), ns("kube-system", nil), ns("other", map[string]string{"app": "other"}),
			in("apps", "Deployment", "api"),
			in("apps", "ReplicaSet", "api-7d9f", func(o *fleet.HubObject) { o.Owned = true }),
			in("", "ConfigMap", "settings"),
			in("", "ConfigMap", "bundle", func(o *fleet.HubObject) {
				o.Envelope, o.Contents = true, []ResourceID{{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfiguration", Name: "guard"}}
			}),
			in("", "Secret", "creds", func(o *fleet.HubObject) { o.SecretType = "Opaque" }),
			in("", "Secret", "sa-token", func(o *fleet.HubObject) { o.SecretType = "kubernetes.io/service-account-token" }),
			in("", "ConfigMap", "kube-root-ca.crt"),
			in("", "ServiceAccount", "default"),
			in("", "Pod", "api-7d9f-x2"),
			in("", "Event", "api.17a"),
			in("", "ConfigMap", "leaving", func(o *fleet.HubObject) { o.Deleting = true }),
			in("", "Service", "api"),
			in("", "Endpoints", "api"),    // the Service's: not copied
			in("", "Endpoints", "ext-db"), // no Service of its name: copied, an unranked kind
			in("example.com", "Gadget", "g"),
			{ResourceID: ResourceID{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole", Name: "web-reader"}, Labels: map[string]string{"app": "web"}},
			{ResourceID: ResourceID{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole", Name: "admin"}},
			{ResourceID: ResourceID{Group: "example.com", Version: "v1", Kind: "Widget", Name: "w"}},
		},
	}
}

// TestSelectResources: Fleet's placement controller (pkg/controllers/placement
// resource_selector.go, pkg/utils ShouldPropagateObj, sortResources): a
// Namespace brings the objects in it that Fleet propagates — not
// kube-root-ca.crt, the default ServiceAccount, service account tokens,
// owned ReplicaSets, objects being deleted, pods or events — and the
// result is sorted by Fleet's kind order (Namespace, Secret, ConfigMap,
// ClusterRole, Deployment), unranked kinds last.
func TestSelectResources(t *testing.T) {
	sels := []ResourceSelector{
		{Version: "v1", Kind: "Namespace", Name: "web"},
		{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole", LabelSelector: matchLabels("app", "web")},
		{Group: "example.com", Version: "v1", Kind: "Widget"},
	}
	s := SelectResources(sels, exampleHub())
	if s.Error != nil {
		t.Fatal(s.Error)
	}
	var got []string
	for _, r := range s.Resources {
		got = append(got, r.String())
	}
	// Unranked kinds last, by apimachinery's GroupVersionKind.String():
	// "/v1, Kind=Endpoints" before "example.com/v1, Kind=…".
	want := []string{"v1 Namespace web", "v1 Secret web/creds", "v1 ConfigMap web/bundle", "v1 ConfigMap web/settings",
		"rbac.authorization.k8s.io/v1 ClusterRole web-reader", "v1 Service web/api", "apps/v1 Deployment web/api",
		"v1 Endpoints web/ext-db", "example.com/v1 Gadget web/g", "example.com/v1 Widget w"}
	if !slices.Equal(got, want) {
		t.Errorf("selected:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(s.PerSelector, []int{8, 1, 1}) || s.Envelopes != 1 {
		t.Errorf("per selector %v, envelopes %d", s.PerSelector, s.Envelopes)
	}
}

// TestSelectResourcesRefused: what Fleet refuses — its webhook (a kind the
// hub does not serve, a namespace-scoped kind) and its controller (a
// reserved namespace, the same object selected twice, reason
// InvalidResourceSelectors) — and what selects nothing without an error.
func TestSelectResourcesRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		sels []ResourceSelector
		want string // "" : no error
		per  []int
	}{
		{"unknown kind", []ResourceSelector{{Version: "v1", Kind: "namespace", Name: "web"}}, `serves no kind "namespace" in version "v1"`, nil},
		{"group core", []ResourceSelector{{Group: "core", Version: "v1", Kind: "Namespace", Name: "web"}}, `Leave group out: the core group`, nil},
		{"a reserved namespace by name", []ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "kube-system"}}, "Fleet never places it: remove this selector", nil},
		{"namespaced kind", []ResourceSelector{{Version: "v1", Kind: "ConfigMap", Name: "settings"}}, "ConfigMap is namespace-scoped", nil},
		{"every namespace: kube-system is reserved", []ResourceSelector{{Version: "v1", Kind: "Namespace"}}, "namespace kube-system is not allowed to propagate", nil},
		{"twice", []ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "web"}, {Version: "v1", Kind: "Namespace", LabelSelector: matchLabels("app", "web")}},
			"selects v1 Namespace web, which resource_selectors[0] selects too", nil},
		{"a name that does not exist selects nothing", []ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "nope"}}, "", []int{0}},
		{"a disabled kind selects nothing", []ResourceSelector{{Version: "v1", Kind: "Namespace", Name: "other"}, {Version: "v1", Kind: "Pod"}}, "namespace-scoped", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := SelectResources(c.sels, exampleHub())
			switch {
			case c.want == "" && s.Error != nil:
				t.Fatalf("error %v", s.Error)
			case c.want != "" && (s.Error == nil || !strings.Contains(s.Error.Error(), c.want)):
				t.Fatalf("error %v, want %q", s.Error, c.want)
			case c.per != nil && !slices.Equal(s.PerSelector, c.per):
				t.Errorf("per selector %v, want %v", s.PerSelector, c.per)
			}
		})
	}
}
