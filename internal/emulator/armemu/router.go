package armemu

import (
	"net/http"
	"strings"
)

// Path prefixes of the routes. Fixed segments match case-insensitively, as
// ARM compares them; {wildcards} capture a segment.
const (
	fleetPath    = "/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.ContainerService/fleets/{fleet}"
	locationPath = "/subscriptions/{sub}/providers/Microsoft.ContainerService/locations/{location}"
	clustersPath = "/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.ContainerService/managedClusters"
)

// A route is one operation of the API.
type route struct {
	method   string
	segments []string
	// versions are the api-versions it accepts.
	versions []string
	// fleetScoped: the path names a fleet ({sub}, {rg}, {fleet}), which must
	// be the fleet served.
	fleetScoped bool
	// poll: an operation URL the emulator minted (Faults.OperationErrors).
	poll   bool
	handle func(*call)
}

// newRoute makes a route of method on path.
func newRoute(method, path string, versions []string, handle func(*call)) route {
	return route{method: method, segments: strings.Split(strings.Trim(path, "/"), "/"), versions: versions,
		fleetScoped: strings.Contains(path, "{fleet}"), handle: handle}
}

// table is every route of the emulator.
func (s *Server) table() []route {
	rs := []route{
		newRoute(http.MethodGet, fleetPath, fleetVersions, s.getFleet),
		newRoute(http.MethodPost, fleetPath+"/listCredentials", fleetVersions, s.listCredentials),
		newRoute(http.MethodGet, fleetPath+"/members", fleetVersions, s.listMembers),
		newRoute(http.MethodGet, fleetPath+"/members/{name}", fleetVersions, s.getMember),
		newRoute(http.MethodPost, fleetPath+"/updateRuns/{name}/start", fleetVersions, s.runAction(startRun)),
		newRoute(http.MethodPost, fleetPath+"/updateRuns/{name}/stop", fleetVersions, s.runAction(stopRun)),
		newRoute(http.MethodPost, fleetPath+"/updateRuns/{name}/skip", fleetVersions, s.runAction(skipRun)),
		newRoute(http.MethodPost, fleetPath+"/autoUpgradeProfiles/{name}/generateUpdateRun", fleetVersions, s.generateUpdateRun),
		newRoute(http.MethodGet, fleetPath+"/gates", gateVersions, s.listGates),
		newRoute(http.MethodGet, fleetPath+"/gates/{name}", gateVersions, s.getGate),
		newRoute(http.MethodPatch, fleetPath+"/gates/{name}", gateVersions, s.patchGate),
		pollRoute(locationPath+"/operations/{id}", s.operationStatus),
		pollRoute(locationPath+"/operationresults/{id}", s.operationResult),
	}
	rs = append(rs, s.aksRoutes()...)
	rs = append(rs, strategies.routes()...)
	rs = append(rs, runs.routes()...)
	return append(rs, profiles.routes()...)
}

// pollRoute is a GET of an operation URL the emulator minted; it takes the
// api-version the operation was started with.
func pollRoute(path string, handle func(*call)) route {
	r := newRoute(http.MethodGet, path, fleetVersions, handle)
	r.poll = true
	return r
}

// match finds the route of a request and its wildcards. status is 0 on a
// match, 405 when only the method differs, 404 when no path matches.
func (s *Server) match(r *http.Request) (rt *route, params map[string]string, status int) {
	segs := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	status = http.StatusNotFound
	for i := range s.routes {
		p, ok := matchSegments(s.routes[i].segments, segs)
		if !ok {
			continue
		}
		if s.routes[i].method != r.Method {
			status = http.StatusMethodNotAllowed
			continue
		}
		return &s.routes[i], p, 0
	}
	return nil, nil, status
}

// matchSegments matches path segments against a pattern.
func matchSegments(pattern, segs []string) (map[string]string, bool) {
	if len(pattern) != len(segs) {
		return nil, false
	}
	params := map[string]string{}
	for i, p := range pattern {
		switch {
		case strings.HasPrefix(p, "{"):
			if segs[i] == "" {
				return nil, false
			}
			params[strings.Trim(p, "{}")] = segs[i]
		case !strings.EqualFold(p, segs[i]):
			return nil, false
		}
	}
	return params, true
}
