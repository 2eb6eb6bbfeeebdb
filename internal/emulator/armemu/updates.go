package armemu

import (
	"net/http"

	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// strategies are fleets/updateStrategies.
var strategies = kind[armfleet.UpdateStrategy]{
	collection: armfleet.UpdateStrategies, typ: armfleet.TypeUpdateStrategy, what: "update strategy",
	get: func(c *call, name string) (armfleet.UpdateStrategy, error) {
		s, err := c.hub.GetUpdateStrategy(c.ctx, name)
		if err != nil {
			return armfleet.UpdateStrategy{}, err
		}
		return armfleet.UpdateStrategyToWire(c.s.fleet, *s), nil
	},
	put: func(c *call, name string, body *armfleet.UpdateStrategy, pre hub.Precondition) (armfleet.UpdateStrategy, error) {
		if !c.checkStrategyVersion("properties.strategy", &body.Properties.Strategy) {
			return armfleet.UpdateStrategy{}, errAnswered
		}
		in := armfleet.UpdateStrategyFromWire(*body)
		s, err := c.hub.PutUpdateStrategy(c.ctx, hub.UpdateStrategy{Meta: hub.Meta{Name: name}, Spec: in.Spec}, pre)
		if err != nil {
			return armfleet.UpdateStrategy{}, err
		}
		return armfleet.UpdateStrategyToWire(c.s.fleet, *s), nil
	},
	del: func(c *call, name string, pre hub.Precondition) error {
		return c.hub.DeleteUpdateStrategy(c.ctx, name, pre)
	},
	state: func(s *armfleet.UpdateStrategy) *string { return &s.Properties.ProvisioningState },
}

// runs are fleets/updateRuns (their actions: runAction).
var runs = kind[armfleet.UpdateRun]{
	collection: armfleet.UpdateRuns, typ: armfleet.TypeUpdateRun, what: "update run",
	get: func(c *call, name string) (armfleet.UpdateRun, error) {
		r, err := c.hub.GetUpdateRun(c.ctx, name)
		if err != nil {
			return armfleet.UpdateRun{}, err
		}
		return c.runToWire(r)
	},
	put: func(c *call, name string, body *armfleet.UpdateRun, pre hub.Precondition) (armfleet.UpdateRun, error) {
		p := body.Properties
		if !c.checkStrategyVersion("properties.strategy", p.Strategy) || !c.checkStrategyRef(p.UpdateStrategyID) {
			return armfleet.UpdateRun{}, errAnswered
		}
		r, err := c.hub.PutUpdateRun(c.ctx, hub.UpdateRun{Meta: hub.Meta{Name: name}, Spec: runSpecOfPut(p)}, pre)
		if err != nil {
			return armfleet.UpdateRun{}, err
		}
		return c.runToWire(r)
	},
	del: func(c *call, name string, pre hub.Precondition) error {
		return c.hub.DeleteUpdateRun(c.ctx, name, pre)
	},
	state: func(r *armfleet.UpdateRun) *string { return &r.Properties.ProvisioningState },
}

// profiles are fleets/autoUpgradeProfiles (generateUpdateRun: generateUpdateRun).
var profiles = kind[armfleet.AutoUpgradeProfile]{
	collection: armfleet.AutoUpgradeProfiles, typ: armfleet.TypeAutoUpgradeProfile, what: "auto-upgrade profile",
	get: func(c *call, name string) (armfleet.AutoUpgradeProfile, error) {
		p, err := c.hub.GetAutoUpgradeProfile(c.ctx, name)
		if err != nil {
			return armfleet.AutoUpgradeProfile{}, err
		}
		return armfleet.ProfileToWire(c.s.fleet, *p), nil
	},
	put: func(c *call, name string, body *armfleet.AutoUpgradeProfile, pre hub.Precondition) (armfleet.AutoUpgradeProfile, error) {
		if !c.checkStrategyRef(body.Properties.UpdateStrategyID) || !c.checkProfileVersion(&body.Properties) {
			return armfleet.AutoUpgradeProfile{}, errAnswered
		}
		in := armfleet.ProfileFromWire(armfleet.AutoUpgradeProfile{Properties: body.Properties})
		p, err := c.hub.PutAutoUpgradeProfile(c.ctx, hub.AutoUpgradeProfile{Meta: hub.Meta{Name: name}, Spec: in.Spec}, pre)
		if err != nil {
			return armfleet.AutoUpgradeProfile{}, err
		}
		return armfleet.ProfileToWire(c.s.fleet, *p), nil
	},
	del: func(c *call, name string, pre hub.Precondition) error {
		return c.hub.DeleteAutoUpgradeProfile(c.ctx, name, pre)
	},
	state: func(p *armfleet.AutoUpgradeProfile) *string { return &p.Properties.ProvisioningState },
}

// runToWire converts a run, with its members' managed cluster ids.
func (c *call) runToWire(r *hub.UpdateRun) (armfleet.UpdateRun, error) {
	ids, err := c.memberClusterIDs()
	if err != nil {
		return armfleet.UpdateRun{}, err
	}
	return armfleet.UpdateRunToWire(c.s.fleet, *r, ids), nil
}

// runSpecOfPut is the run a PUT asks for. armfleet.RunSpecFromWire reads a
// run as the service returns it, where a strategy beside an
// updateStrategyId is the referenced strategy's snapshot, and drops it; in
// a request both are the client's, which the service refuses ("Setting
// both \"updateStrategyId\" and \"strategy\" is invalid", designs/arm.md §2):
// the backend is given both to refuse.
func runSpecOfPut(p armfleet.UpdateRunProperties) update.RunSpec {
	spec, resolved := armfleet.RunSpecFromWire(p)
	if spec.UpdateStrategyID != "" && resolved != nil {
		spec.Strategy = resolved
	}
	return spec
}

// checkStrategyRef refuses an updateStrategyId that is not the id of an
// update strategy of this fleet; false when it answered the 400.
func (c *call) checkStrategyRef(id string) bool {
	if id == "" {
		return true
	}
	f, _, err := armfleet.ParseChild(armfleet.UpdateStrategies, id)
	switch {
	case err != nil:
		c.invalid("properties.updateStrategyId", "%s", err.Error())
	case !f.SameFleet(c.s.fleet):
		c.invalid("properties.updateStrategyId", "The update strategy %q is not in fleet %s.", id, c.s.fleet)
	default:
		return true
	}
	return false
}

// A runActionFunc executes an action on a run.
type runActionFunc func(c *call, name string, pre hub.Precondition) error

func startRun(c *call, name string, pre hub.Precondition) error {
	_, err := c.hub.StartUpdateRun(c.ctx, name, pre)
	return err
}

func stopRun(c *call, name string, pre hub.Precondition) error {
	_, err := c.hub.StopUpdateRun(c.ctx, name, pre)
	return err
}

// skipRun reads the body's targets ({"targets":[{"type","name"}]}).
func skipRun(c *call, name string, pre hub.Precondition) error {
	var body armfleet.SkipProperties
	if !c.decode(&body) {
		return errAnswered
	}
	_, err := c.hub.SkipUpdateRun(c.ctx, name, armfleet.SkipFromWire(body), pre)
	return err
}

// runAction serves POST …/updateRuns/{name}/start, stop or skip: 202 with
// the status and result URLs; the result is the run (designs/arm.md §3).
func (s *Server) runAction(act runActionFunc) func(*call) {
	return func(c *call) {
		name := c.params["name"]
		pre, _ := c.precondition()
		if err := act(c, name, pre); err != nil {
			c.hubError(armfleet.TypeUpdateRun, name, err)
			return
		}
		c.accept(lro{code: http.StatusAccepted, result: func(c *call) { runs.write(c, name) }})
	}
}

// generateUpdateRun serves POST …/autoUpgradeProfiles/{name}/generateUpdateRun:
// 202 with the status and result URLs. The final status document's id is
// the generated run's ARM id, which azcore returns as the result
// (designs/arm.md §3 point 2); the Location result is the GenerateResponse.
func (s *Server) generateUpdateRun(c *call) {
	profile := c.params["name"]
	name, err := c.hub.GenerateUpdateRun(c.ctx, profile)
	if err != nil {
		c.hubError(armfleet.TypeAutoUpgradeProfile, profile, err)
		return
	}
	id := s.fleet.Child(armfleet.UpdateRuns, name)
	c.accept(lro{code: http.StatusAccepted, statusID: id, result: func(c *call) {
		c.reply(http.StatusOK, armfleet.GenerateResponse{ID: id}, "")
	}})
}
