package fleet

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// ResourcePropertyPrefix starts the names of properties read from resource usage.
const ResourcePropertyPrefix = "resources.kubernetes-fleet.io/"

// Capacity types of resource properties: `resources.kubernetes-fleet.io/<capacity>-<resource>`.
const (
	CapacityTotal       = "total" // reads ResourceUsage.Capacity
	CapacityAllocatable = "allocatable"
	CapacityAvailable   = "available"
)

// ErrUnreadableResourceProperty marks the error of a resource property name
// that Fleet's scheduler cannot split (SplitResourceProperty).
var ErrUnreadableResourceProperty = errors.New("unreadable resource property name")

// IsCapacityType reports whether s is one of the three capacity types.
func IsCapacityType(s string) bool {
	return s == CapacityTotal || s == CapacityAllocatable || s == CapacityAvailable
}

// IsResourceProperty reports whether name is in the resource property domain.
func IsResourceProperty(name string) bool { return strings.HasPrefix(name, ResourcePropertyPrefix) }

// SplitResourceProperty reads a resource property name the way Fleet's
// scheduler does (designs/placement.md §4): the part after the prefix is split
// at every '-' and must give exactly a capacity type and a resource name. So
// `resources.kubernetes-fleet.io/total-ephemeral-storage`, which Fleet's
// webhook admits (it splits at the first '-' only), cannot be read: the error
// fails every scheduling cycle that reads it.
func SplitResourceProperty(name string) (capacity, res string, err error) {
	rest, ok := strings.CutPrefix(name, ResourcePropertyPrefix)
	segs := strings.Split(rest, "-")
	if !ok || len(segs) != 2 || segs[0] == "" || segs[1] == "" || !IsCapacityType(segs[0]) {
		return "", "", &unreadableError{name}
	}
	return segs[0], segs[1], nil
}

type unreadableError struct{ name string }

func (e *unreadableError) Error() string {
	return fmt.Sprintf("property %q cannot be read by Fleet's scheduler: it splits the name after %s at every '-' "+
		"and needs exactly <total|allocatable|available>-<resource>, so a resource name containing '-' fails every scheduling cycle that reads it",
		e.name, ResourcePropertyPrefix)
}

func (e *unreadableError) Unwrap() error { return ErrUnreadableResourceProperty }

// Property looks up a property of the cluster as a quantity (designs/placement.md §4).
// Resource properties read resource usage (`total` is the capacity); other
// names read the reported properties. found is false when the cluster does not
// have the property; err is set when the reported value is not a quantity, or
// when Fleet's scheduler cannot read the resource property name at all
// (SplitResourceProperty).
func (c *Cluster) Property(name string) (q resource.Quantity, found bool, err error) {
	if IsResourceProperty(name) {
		capacity, res, err := SplitResourceProperty(name)
		if err != nil {
			return resource.Quantity{}, false, err
		}
		q, found = c.Usage.ByCapacity(capacity)[res]
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

// ByCapacity returns the usage map of a capacity type (nil for an unknown one).
func (u ResourceUsage) ByCapacity(capacity string) map[string]resource.Quantity {
	switch capacity {
	case CapacityTotal:
		return u.Capacity
	case CapacityAllocatable:
		return u.Allocatable
	case CapacityAvailable:
		return u.Available
	}
	return nil
}

// HasProperty reports whether the cluster reports the property at all.
func (c *Cluster) HasProperty(name string) bool {
	_, found, _ := c.Property(name)
	return found
}
