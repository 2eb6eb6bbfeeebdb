package armfleet

import (
	"fmt"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
)

// Child resource collections of a fleet, as they appear in ARM paths.
const (
	Members             = "members"
	UpdateStrategies    = "updateStrategies"
	UpdateRuns          = "updateRuns"
	AutoUpgradeProfiles = "autoUpgradeProfiles"
	Gates               = "gates"
)

// FleetID names a fleet.
type FleetID struct {
	SubscriptionID string
	ResourceGroup  string
	Fleet          string
}

// String is the fleet's ARM id.
func (f FleetID) String() string {
	return "/subscriptions/" + f.SubscriptionID + "/resourceGroups/" + f.ResourceGroup +
		"/providers/Microsoft.ContainerService/fleets/" + f.Fleet
}

// Child is the ARM id of a child resource, e.g. Child(UpdateRuns, "run-1").
func (f FleetID) Child(collection, name string) string {
	return f.String() + "/" + collection + "/" + name
}

// Collection is the ARM path of a child collection.
func (f FleetID) Collection(collection string) string { return f.String() + "/" + collection }

// ChildName returns the name of a child resource of collection from its ARM
// id, or the string itself when it is a bare name. It checks that an id
// names this kind of resource (case-insensitively, as ARM compares ids), not
// that it is in this fleet: ParseChild does that.
func ChildName(collection, idOrName string) (string, error) {
	if !strings.Contains(idOrName, "/") {
		return idOrName, nil
	}
	_, name, err := ParseChild(collection, idOrName)
	return name, err
}

// ParseChild parses …/fleets/{fleet}/{collection}/{name} with azcore's
// arm.ParseResourceID (ARM compares the keywords and types case-insensitively).
func ParseChild(collection, id string) (FleetID, string, error) {
	rid, err := arm.ParseResourceID("/" + strings.Trim(id, "/"))
	if err != nil || rid.Parent == nil || rid.Parent.Parent == nil || rid.Name == "" || rid.Parent.Name == "" ||
		rid.SubscriptionID == "" || rid.ResourceGroupName == "" ||
		!strings.EqualFold(rid.ResourceType.Namespace, "Microsoft.ContainerService") || len(rid.ResourceType.Types) != 2 ||
		!strings.EqualFold(rid.ResourceType.Types[0], "fleets") || !strings.EqualFold(rid.ResourceType.Types[1], collection) ||
		!strings.EqualFold(rid.Parent.Parent.ResourceType.String(), "Microsoft.Resources/resourceGroups") {
		return FleetID{}, "", fmt.Errorf("%q is not the ARM id of a fleet's %s (/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.ContainerService/fleets/<fleet>/%s/<name>)",
			id, collection, collection)
	}
	return FleetID{SubscriptionID: rid.SubscriptionID, ResourceGroup: rid.ResourceGroupName, Fleet: rid.Parent.Name}, rid.Name, nil
}

// SameFleet compares fleet ids as ARM does: case-insensitively.
func (f FleetID) SameFleet(o FleetID) bool { return strings.EqualFold(f.String(), o.String()) }
