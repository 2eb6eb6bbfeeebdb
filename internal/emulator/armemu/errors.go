package armemu

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// ARM error codes the emulator answers. The Fleet RP publishes no codes of
// its own (designs/arm.md §5): these are the generic ARM ones.
const (
	codeInternal           = "InternalServerError"
	codeNotFound           = "ResourceNotFound"
	codePreconditionFailed = "PreconditionFailed"
	codeConflict           = "Conflict"
	codeInvalidParameter   = "InvalidParameter"
	codeInvalidAPIVersion  = "InvalidApiVersionParameter"
	codeMissingAPIVersion  = "MissingApiVersionParameter"
)

// fail answers an ARM error: {"error":{"code","message","target"}}.
func (c *call) fail(status int, code, message, target string) {
	c.reply(status, armfleet.ErrorResponse{Error: armfleet.ErrorDetail{Code: code, Message: message, Target: target}}, "")
}

// notFound answers 404 for a resource of type typ.
func (c *call) notFound(typ, name string) {
	c.fail(http.StatusNotFound, codeNotFound, fmt.Sprintf("The Resource '%s/%s' under resource group '%s' was not found.",
		typ, name, c.s.fleet.ResourceGroup), "")
}

// invalid answers 400 InvalidParameter about target.
func (c *call) invalid(target, format string, args ...any) {
	c.fail(http.StatusBadRequest, codeInvalidParameter, fmt.Sprintf(format, args...), target)
}

// errAnswered is the error of a step that has answered the request itself
// (a 400 about the request body): hubError has nothing more to say.
var errAnswered = errors.New("armemu: the request is answered")

// hubError answers a backend error of the resource typ/name as ARM does:
// a missing object 404, a stale ETag 412, the object's state 409, the
// request 400, anything else 500.
func (c *call) hubError(typ, name string, err error) {
	var conflict *hub.ConflictError
	var invalid *hub.InvalidError
	switch {
	case errors.Is(err, errAnswered):
	case errors.Is(err, hub.ErrNotFound):
		c.notFound(typ, name)
	case errors.Is(err, hub.ErrPreconditionFailed):
		c.fail(http.StatusPreconditionFailed, codePreconditionFailed,
			"The condition of the If-Match or If-None-Match header does not hold for "+typ+"/"+name+".", "")
	case errors.As(err, &conflict):
		c.fail(http.StatusConflict, codeConflict, conflict.Reason, "")
	case errors.As(err, &invalid):
		c.fail(http.StatusBadRequest, codeInvalidParameter, invalid.Reason, "")
	default:
		c.fail(http.StatusInternalServerError, codeInternal, err.Error(), "")
	}
}

// API versions the routes accept.
var (
	// fleetVersions serve every fleet resource; gates and maxConcurrency
	// need the newer one (designs/arm.md §1).
	fleetVersions = []string{armfleet.APIVersion, armfleet.APIVersionGates}
	gateVersions  = []string{armfleet.APIVersionGates}
	// aksVersions serve the managedClusters and locations routes: the
	// version of armcontainerservice/v6.
	aksVersions = []string{"2025-02-01"}
)

// checkAPIVersion requires an api-version query parameter among versions
// and records it; false (and the 400 answered) otherwise.
func (c *call) checkAPIVersion(versions []string) bool {
	v := c.r.URL.Query().Get("api-version")
	switch {
	case v == "":
		c.fail(http.StatusBadRequest, codeMissingAPIVersion, "The api-version query parameter (?api-version=) is required for all requests.", "")
		return false
	case !slices.Contains(versions, v):
		c.fail(http.StatusBadRequest, codeInvalidAPIVersion, fmt.Sprintf("The resource type does not support the api-version '%s'. The supported api-versions are '%s'.",
			v, strings.Join(versions, ", ")), "")
		return false
	}
	c.version = v
	return true
}

// checkStrategyVersion refuses a strategy that uses gates or maxConcurrency
// under an api-version older than armfleet.APIVersionGates, naming the
// first such property (prefix is the strategy's path in the body).
func (c *call) checkStrategyVersion(prefix string, s *armfleet.RunStrategy) bool {
	if c.version == armfleet.APIVersionGates || !armfleet.UsesGates(s) {
		return true
	}
	p := newerProperty(prefix, s)
	c.invalid(p, "The property '%s' needs api-version %s or later; the request uses %s.", p, armfleet.APIVersionGates, c.version)
	return false
}

// checkProfileVersion refuses what 2025-03-01 does not know of a profile:
// the TargetKubernetesVersion channel, targetKubernetesVersion and
// longTermSupport came with 2025-04-01-preview (designs/arm.md §1).
func (c *call) checkProfileVersion(p *armfleet.AutoUpgradeProfileProperties) bool {
	if c.version == armfleet.APIVersionGates {
		return true
	}
	prop := ""
	switch {
	case p.Channel == "TargetKubernetesVersion":
		prop = "properties.channel"
	case p.TargetKubernetesVersion != "":
		prop = "properties.targetKubernetesVersion"
	case p.LongTermSupport:
		prop = "properties.longTermSupport"
	default:
		return true
	}
	c.invalid(prop, "The property '%s' needs api-version %s or later; the request uses %s.", prop, armfleet.APIVersionGates, c.version)
	return false
}

// newerProperty is the path of the first gate or maxConcurrency of s.
func newerProperty(prefix string, s *armfleet.RunStrategy) string {
	first := func(at string, mc string, before, after []armfleet.GateConfiguration) string {
		switch {
		case mc != "":
			return at + ".maxConcurrency"
		case len(before) > 0:
			return at + ".beforeGates"
		case len(after) > 0:
			return at + ".afterGates"
		}
		return ""
	}
	for i, st := range s.Stages {
		at := fmt.Sprintf("%s.stages[%d]", prefix, i)
		if p := first(at, st.MaxConcurrency, st.BeforeGates, st.AfterGates); p != "" {
			return p
		}
		for j, g := range st.Groups {
			if p := first(fmt.Sprintf("%s.groups[%d]", at, j), g.MaxConcurrency, g.BeforeGates, g.AfterGates); p != "" {
				return p
			}
		}
	}
	return prefix
}
