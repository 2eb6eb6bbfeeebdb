package fleet

import (
	"fmt"
	"regexp"

	"k8s.io/apimachinery/pkg/api/resource"
)

// ResourcePropertyPrefix starts the names of properties read from resource usage.
const ResourcePropertyPrefix = "resources.kubernetes-fleet.io/"

var resourcePropertyName = regexp.MustCompile(`^resources\.kubernetes-fleet\.io/(total|allocatable|available)-([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$`)

// ParseResourceProperty splits `resources.kubernetes-fleet.io/<capacity>-<resource>`.
// ok is false when name is not a well-formed resource property name.
func ParseResourceProperty(name string) (capacity, res string, ok bool) {
	m := resourcePropertyName.FindStringSubmatch(name)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// IsResourceProperty reports whether name is in the resource property domain.
func IsResourceProperty(name string) bool {
	return len(name) >= len(ResourcePropertyPrefix) && name[:len(ResourcePropertyPrefix)] == ResourcePropertyPrefix
}

// Property looks up a property of the cluster as a quantity (designs/placement.md §4).
// Resource properties read resource usage (`total` is the capacity); other
// names read the reported properties. found is false when the cluster does not
// have the property; err is set when the reported value is not a quantity.
func (c *Cluster) Property(name string) (q resource.Quantity, found bool, err error) {
	if capacity, res, ok := ParseResourceProperty(name); ok {
		var m map[string]resource.Quantity
		switch capacity {
		case "total":
			m = c.Usage.Capacity
		case "allocatable":
			m = c.Usage.Allocatable
		case "available":
			m = c.Usage.Available
		}
		q, found = m[res]
		return q, found, nil
	}
	v, found := c.Properties[name]
	if !found {
		return resource.Quantity{}, false, nil
	}
	q, err = resource.ParseQuantity(v)
	if err != nil {
		return resource.Quantity{}, true, fmt.Errorf("cluster %q: property %q has value %q, which is not a quantity", c.Name, name, v)
	}
	return q, true, nil
}

// HasProperty reports whether the cluster reports the property at all.
func (c *Cluster) HasProperty(name string) bool {
	_, found, _ := c.Property(name)
	return found
}
