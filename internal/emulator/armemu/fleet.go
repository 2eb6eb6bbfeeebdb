package armemu

import (
	"encoding/json"
	"fmt"
	"github.com/fleetform/terraform-provider-aks/internal/emulator/armemu/kubeapi"
	"hash/fnv"
	"net/http"
	"strings"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// The fleet itself and its members are read-only here: they come from the
// backend's fleet (hub.Inventory).

// etagOf is the ETag of a document the backend keeps no ETag for (the
// fleet, its members): a hash of its content, quoted as the hub's ETags are.
func etagOf(v any) string {
	b, _ := json.Marshal(v)
	h := fnv.New64a()
	_, _ = h.Write(b)
	return fmt.Sprintf(`"%016x"`, h.Sum64())
}

// hubFqdn is the fleet hub cluster's (fake) API server host name; .invalid
// makes sure that nothing resolves it.
func (s *Server) hubFqdn() string {
	return strings.ToLower(s.fleet.Fleet) + "-hub." + s.opts.Location + ".fleet-emulator.invalid"
}

// getFleet serves GET …/fleets/{fleet}: a fleet with a hub cluster, whose
// Kubernetes version is the newest GA one in the fleet's location.
func (s *Server) getFleet(c *call) {
	f := c.fleetOf(armfleet.TypeFleet, s.fleet.Fleet)
	if f == nil {
		return
	}
	regions := f.Regions
	if r, ok := f.Region(s.opts.Location); ok {
		regions = []fleet.Region{*r}
	}
	hp := &armfleet.FleetHubProfile{Fqdn: s.hubFqdn(), PortalFqdn: "portal-" + s.hubFqdn()}
	if ga := update.GAVersions(regions, c.hub.Now()); len(ga) > 0 {
		hp.KubernetesVersion = ga[0].String()
	}
	out := armfleet.Fleet{Resource: armfleet.Resource{ID: s.fleet.String(), Name: s.fleet.Fleet, Type: armfleet.TypeFleet},
		Location: s.opts.Location, Properties: armfleet.FleetProperties{ProvisioningState: armfleet.ProvisioningSucceeded, HubProfile: hp}}
	out.ETag = etagOf(out)
	c.reply(http.StatusOK, out, out.ETag)
}

// listCredentials serves POST …/fleets/{fleet}/listCredentials: the
// kubeconfig of the emulated hub cluster, whose Kubernetes API this server
// also serves (kubeapi), at the address the request came to.
func (s *Server) listCredentials(c *call) {
	kubeconfig := kubeapi.Kubeconfig(c.baseURL(), s.caPEM, HubClusterToken)
	if s.opts.Kubeconfig != nil {
		var err error
		if kubeconfig, err = s.opts.Kubeconfig(c.r.Context(), ""); err != nil {
			c.fail(http.StatusInternalServerError, "InternalServerError", "The fleet hub cluster's API server is not available: "+err.Error(), "")
			return
		}
	}
	c.reply(http.StatusOK, armfleet.FleetCredentialResults{Kubeconfigs: []armfleet.FleetCredentialResult{
		{Name: "clusterUser", Value: kubeconfig}}}, "")
}

// member is the fleets/members resource of a cluster. Labels are in the
// API from 2026-06-01 (designs/arm.md §2): older versions do not show them.
func (s *Server) member(c *call, cl *fleet.Cluster) armfleet.Member {
	m := armfleet.Member{Resource: armfleet.Resource{ID: s.fleet.Child(armfleet.Members, cl.Name), Name: cl.Name, Type: armfleet.TypeMember},
		Properties: armfleet.MemberProperties{ClusterResourceID: cl.ResourceID, Group: cl.Group, ProvisioningState: armfleet.ProvisioningSucceeded}}
	if c.version == armfleet.APIVersionGates {
		m.Properties.Labels = cl.Labels
	}
	if cl.Agent.Leaving {
		m.Properties.ProvisioningState = "Leaving"
	}
	m.ETag = etagOf(m.Properties)
	return m
}

// listMembers serves GET …/members: one member per cluster of the fleet.
func (s *Server) listMembers(c *call) {
	f := c.fleetOf(armfleet.TypeMember, "")
	if f == nil {
		return
	}
	from, to, next, ok := c.page(len(f.Clusters))
	if !ok {
		return
	}
	out := armfleet.List[armfleet.Member]{Value: []armfleet.Member{}, NextLink: next}
	for i := from; i < to; i++ {
		out.Value = append(out.Value, s.member(c, &f.Clusters[i]))
	}
	c.reply(http.StatusOK, out, "")
}

// getMember serves GET …/members/{name}.
func (s *Server) getMember(c *call) {
	name := c.params["name"]
	f := c.fleetOf(armfleet.TypeMember, name)
	if f == nil {
		return
	}
	cl, ok := f.Cluster(name)
	if !ok {
		c.notFound(armfleet.TypeMember, name)
		return
	}
	m := s.member(c, cl)
	c.reply(http.StatusOK, m, m.ETag)
}
