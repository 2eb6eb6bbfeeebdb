package armemu

import (
	"errors"
	"net/http"
	"regexp"
	"strings"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// Gates (fleets/gates, api-version 2026-06-01 only) are not stored: the
// run creates a gate when it reaches it (designs/arm.md §7 point 5), so they are
// derived from the runs' gate statuses that are not NotStarted. A gate is
// named armfleet.GateName(fleet, run, position) and carries its run's ETag;
// approving it (PATCH state Completed) is hub.ApproveUpdateRunGate.

// gate is a gates resource with the run position it approves.
type gate struct {
	armfleet.Gate
	run, key string
}

// runGates derives the gates r has reached. The hub approves gates by
// position (update.GateKey), and armfleet names them by position: several
// gates configured at one position are one gates resource, the first.
func (s *Server) runGates(r *hub.UpdateRun) []gate {
	var out []gate
	seen := map[string]bool{}
	add := func(stage, group string, gs []update.GateStatus) {
		for _, g := range gs {
			if g.State == "" || g.State == update.StateNotStarted || seen[g.Key] {
				continue
			}
			seen[g.Key] = true
			name := armfleet.GateName(s.fleet, r.Name, g.Key)
			out = append(out, gate{run: r.Name, key: g.Key, Gate: armfleet.Gate{
				Resource: armfleet.Resource{ID: s.fleet.Child(armfleet.Gates, name), Name: name, Type: armfleet.TypeGate, ETag: r.ETag},
				Properties: armfleet.GateProperties{ProvisioningState: armfleet.ProvisioningSucceeded, DisplayName: g.DisplayName,
					GateType: armfleet.GateTypeApproval, State: g.State,
					Target: armfleet.GateTarget{ID: s.fleet.Child(armfleet.UpdateRuns, r.Name),
						UpdateRunProperties: &armfleet.GateUpdateRunProperties{Name: r.Name, Stage: stage, Group: group, Timing: g.Timing}}},
			}})
		}
	}
	for _, st := range r.Status.Stages {
		add(st.Name, "", st.Gates)
		for _, g := range st.Groups {
			add(st.Name, g.Name, g.Gates)
		}
	}
	return out
}

// gates derives the gates of every run.
func (c *call) gates() ([]gate, error) {
	names, err := listNames(c.ctx, c.hub, armfleet.UpdateRuns)
	if err != nil {
		return nil, err
	}
	var out []gate
	for _, n := range names {
		r, err := c.hub.GetUpdateRun(c.ctx, n)
		switch {
		case errors.Is(err, hub.ErrNotFound): // deleted meanwhile
		case err != nil:
			return nil, err
		default:
			out = append(out, c.s.runGates(r)...)
		}
	}
	return out, nil
}

// findGate answers 404 (and false) when there is no gate name.
func (c *call) findGate(name string) (gate, bool) {
	gs, err := c.gates()
	if err != nil {
		c.hubError(armfleet.TypeGate, name, err)
		return gate{}, false
	}
	for _, g := range gs {
		if strings.EqualFold(g.Name, name) {
			return g, true
		}
	}
	c.notFound(armfleet.TypeGate, name)
	return gate{}, false
}

// stateFilter is the one $filter the gates LIST takes, as the CLI sends
// it: "state eq Pending" (designs/arm.md §2; quotes and the properties/ prefix
// accepted).
var stateFilter = regexp.MustCompile(`(?i)^\s*(?:properties/)?state\s+eq\s+'?([a-z]+)'?\s*$`)

// listGates serves GET …/gates[?$filter=state eq <state>].
func (s *Server) listGates(c *call) {
	want := ""
	if f := c.r.URL.Query().Get("$filter"); f != "" {
		m := stateFilter.FindStringSubmatch(f)
		if m == nil {
			c.invalid("$filter", "The $filter %q is not supported; use \"state eq <state>\".", f)
			return
		}
		want = m[1]
	}
	all, err := c.gates()
	if err != nil {
		c.hubError(armfleet.TypeGate, "", err)
		return
	}
	var gs []armfleet.Gate
	for _, g := range all {
		if want == "" || strings.EqualFold(g.Properties.State, want) {
			gs = append(gs, g.Gate)
		}
	}
	from, to, next, ok := c.page(len(gs))
	if !ok {
		return
	}
	c.reply(http.StatusOK, armfleet.List[armfleet.Gate]{Value: append([]armfleet.Gate{}, gs[from:to]...), NextLink: next}, "")
}

// getGate serves GET …/gates/{name}.
func (s *Server) getGate(c *call) {
	if g, ok := c.findGate(c.params["name"]); ok {
		c.reply(http.StatusOK, g.Gate, g.ETag)
	}
}

// patchGate serves PATCH …/gates/{name} {"properties":{"state":"Completed"}}:
// it approves the gate and answers 200 with it.
func (s *Server) patchGate(c *call) {
	name := c.params["name"]
	var body armfleet.GatePatch
	if !c.decode(&body) {
		return
	}
	if body.Properties.State != armfleet.GateCompleted {
		c.invalid("properties.state", "A gate's state can only be set to %s, not %q.", armfleet.GateCompleted, body.Properties.State)
		return
	}
	g, ok := c.findGate(name)
	if !ok {
		return
	}
	pre, _ := c.precondition()
	r, err := c.hub.ApproveUpdateRunGate(c.ctx, g.run, g.key, pre)
	if err != nil {
		c.hubError(armfleet.TypeGate, name, err)
		return
	}
	for _, ng := range s.runGates(r) {
		if ng.key == g.key {
			c.reply(http.StatusOK, ng.Gate, ng.ETag)
			return
		}
	}
	c.notFound(armfleet.TypeGate, name)
}
