package fleet

// The hub cluster's resources that placements select (designs/placement.md §9).

// HubResources are the hub cluster's kinds and objects that placements select.
type HubResources struct {
	// APIs are the kinds the hub serves, each group in the version it prefers.
	APIs []APIResource
	// Objects are the objects of those kinds.
	Objects []HubObject
}

// APIResource is a kind the hub cluster serves: its group, version, kind
// and scope.
type APIResource struct {
	Group      string
	Version    string
	Kind       string
	Namespaced bool
}

// HubObject is an object on the hub cluster that a placement may select.
type HubObject struct {
	ResourceID
	Labels map[string]string
	// Deleting is true when the object has a deletionTimestamp.
	Deleting bool
	// Owned is true when the object has ownerReferences.
	Owned bool
	// Content stands for what the object says beyond its identity and
	// labels (its data or spec): a change of it is a change of the
	// resource Fleet rolls out.
	Content string
	// SecretType is a Secret's type ("" for other kinds).
	SecretType string
	// Envelope is true for a ConfigMap that carries other objects (the
	// annotation kubernetes-fleet.io/envelope-configmap); Contents are the
	// objects it carries.
	Envelope bool
	Contents []ResourceID
}

// ResourceID identifies a hub-cluster object: its group, version, kind,
// namespace ("" for a cluster-scoped object) and name.
type ResourceID struct {
	Group     string `json:"group"`
	Version   string `json:"version"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

// GroupVersion is "group/version", or the version alone for the core group.
func (r ResourceID) GroupVersion() string { return GroupVersion(r.Group, r.Version) }

// GroupVersion is "group/version", or the version alone for the core group
// (an apiVersion).
func GroupVersion(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

// String is the resource as kubectl names it, e.g. "apps/v1 Deployment web/api"
// or "v1 Namespace web".
func (r ResourceID) String() string {
	name := r.Name
	if r.Namespace != "" {
		name = r.Namespace + "/" + r.Name
	}
	return r.GroupVersion() + " " + r.Kind + " " + name
}
