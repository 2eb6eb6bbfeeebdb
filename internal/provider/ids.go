package provider

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// Ids a configuration or an import gives for the hub's objects are checked
// against the hub (designs/hub.md §5): an ARM id names its subscription,
// resource group and fleet, and must name the provider's; a NodePool's
// <cluster>/<name> must name a member.

// inFleet returns the name an id gives to a child of the hub's fleet: a
// bare name, or the ARM id of the child, which must be in the hub's fleet —
// an id of another fleet would otherwise adopt this fleet's object of the
// same name. collection is the ARM child collection (armfleet.UpdateRuns…).
func inFleet(h hub.Hub, collection, id string) (string, error) {
	if !strings.Contains(id, "/") {
		return id, nil
	}
	got, name, err := armfleet.ParseChild(collection, id)
	if err != nil {
		return "", err
	}
	if h == nil {
		return name, nil
	}
	want := h.Identity()
	differs := func(part, got, wantPart string) error {
		return fmt.Errorf("%q names %s %q, but the provider manages fleet %s, in %s %q: give an id of that fleet (or the bare name %q), "+
			"or configure the provider for the fleet the id names", id, part, got, want.ID(), part, wantPart, name)
	}
	switch {
	case !strings.EqualFold(got.SubscriptionID, want.SubscriptionID):
		return "", differs("subscription", got.SubscriptionID, want.SubscriptionID)
	case !strings.EqualFold(got.ResourceGroup, want.ResourceGroup):
		return "", differs("resource group", got.ResourceGroup, want.ResourceGroup)
	case !strings.EqualFold(got.Fleet, want.Name):
		return "", fmt.Errorf("%q names fleet %q, but the provider manages fleet %q (%s): give an id of that fleet (or the bare name %q), "+
			"or configure the provider for the fleet the id names", id, got.Fleet, want.Name, want.ID(), name)
	}
	return name, nil
}

// memberOf checks that cluster is a member of fleet f, naming the members
// closest to it when it is not.
func memberOf(f *fleet.Fleet, cluster string) error {
	if _, ok := f.Cluster(cluster); ok {
		return nil
	}
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	limit := max(2, len(cluster)/3)
	for _, c := range f.Clusters {
		if d := fleet.EditDistance(strings.ToLower(cluster), strings.ToLower(c.Name)); d <= limit {
			cs = append(cs, cand{c.Name, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	msg := fmt.Sprintf("%q is not a member cluster of the fleet", cluster)
	if len(cs) > 0 {
		names := make([]string, 0, 3)
		for i := 0; i < len(cs) && i < 3; i++ {
			names = append(names, fmt.Sprintf("%q", cs[i].name))
		}
		return fmt.Errorf("%s; did you mean %s?", msg, strings.Join(names, " or "))
	}
	return fmt.Errorf("%s (%d members; the aks_fleet_member_clusters data source lists them)", msg, len(f.Clusters))
}

// strategyInFleet refuses at plan an update_strategy_id that is the ARM id
// of another fleet's strategy (inFleet): the run or profile would follow
// this fleet's strategy of the same name. It reports whether the id may be used.
func strategyInFleet(h hub.Hub, id string, unknown unknownPaths, diags *diag.Diagnostics) bool {
	if id == "" || unknown.covers(field.Root("update_strategy_id")) {
		return true
	}
	if _, err := inFleet(h, armfleet.UpdateStrategies, id); err != nil {
		diags.AddAttributeError(path.Root("update_strategy_id"), "Invalid update strategy id", "update_strategy_id: "+err.Error()+".")
		return false
	}
	return true
}
