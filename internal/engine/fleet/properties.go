package fleet

import (
	"errors"
	"fmt"
	"strconv"
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
	q, ok := ParseQuantity(v)
	if !ok {
		return resource.Quantity{}, true, fmt.Errorf("cluster %q: property %q has value %q, which is not a quantity", c.Name, name, v)
	}
	return q, true, nil
}

// Bounds of the quantities the engines read: a decimal exponent (the n of
// 1en) within ±MaxQuantityExponent, and at most MaxQuantityLength
// characters.
const (
	MaxQuantityExponent = 1000
	MaxQuantityLength   = 1000
)

// ParseQuantity reads a quantity as Kubernetes does (resource.ParseQuantity),
// within the bounds above. apimachinery reads 1e-999999999 for seconds, and
// reads 1e999999999 (or 1e9999999999, whose exponent it wraps to 32 bits) at
// once but then compares it with another quantity by computing a power of
// ten with that many digits: a plan would hang, as would Fleet's scheduler.
// No cluster property comes near the bounds.
func ParseQuantity(s string) (resource.Quantity, bool) {
	if len(s) > MaxQuantityLength || exponentBeyondBounds(s) {
		return resource.Quantity{}, false
	}
	q, err := resource.ParseQuantity(s)
	return q, err == nil
}

// exponentBeyondBounds finds the decimal exponent of s as apimachinery does
// (the suffix after the sign, the digits and a fraction; "e" or "E" and an
// integer) and tells whether it is beyond ±MaxQuantityExponent.
func exponentBeyondBounds(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	rest := strings.TrimLeft(s, "0123456789")
	if r, ok := strings.CutPrefix(rest, "."); ok {
		rest = strings.TrimLeft(r, "0123456789")
	}
	if len(rest) < 2 || (rest[0] != 'e' && rest[0] != 'E') {
		return false
	}
	n, err := strconv.ParseInt(rest[1:], 10, 64)
	return err == nil && (n > MaxQuantityExponent || n < -MaxQuantityExponent)
}

// FormatQuantity writes q as Kubernetes does (q.String()), except where
// apimachinery's String loses the magnitude: it drops the suffix of values
// beyond the largest one (1000E prints as "1", kubernetes/kubernetes#141249).
// Those are written with a decimal exponent, which reads back the same.
func FormatQuantity(q resource.Quantity) string {
	e := q.DeepCopy() // before String, which caches its result in q
	s := q.String()
	if back, err := resource.ParseQuantity(s); err == nil && back.Cmp(q) == 0 {
		return s
	}
	e.Format = resource.DecimalExponent
	return e.String()
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
