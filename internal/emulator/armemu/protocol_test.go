package armemu

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// Members are the fleet's clusters, paged; labels from 2026-06-01 only.
func TestMembers(t *testing.T) {
	e := newEnv(t)
	f, err := e.backend.Load().Fleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pages, names := e.list(path("members", v1))
	if len(names) != len(f.Clusters) || len(pages) != (len(f.Clusters)+1)/2 || pages[0] != 2 {
		t.Fatalf("%d members in pages %v, want the %d clusters in pages of 2", len(names), pages, len(f.Clusters))
	}
	for i, c := range f.Clusters {
		if names[i] != c.Name {
			t.Fatalf("member %d is %s, want %s", i, names[i], c.Name)
		}
	}
	c := f.Clusters[0]
	for _, version := range []string{v1, v2} {
		var m armfleet.Member
		r := e.do(http.MethodGet, path("members/"+c.Name, version), nil)
		expect(t, "get member", r, http.StatusOK)
		r.decode(t, &m)
		p := m.Properties
		if p.ClusterResourceID != c.ResourceID || p.Group != c.Group || p.ProvisioningState != armfleet.ProvisioningSucceeded ||
			m.ETag == "" || r.header.Get("ETag") != m.ETag || m.ID != testFleet.Child(armfleet.Members, c.Name) {
			t.Errorf("member %s at %s: %+v", c.Name, version, m)
		}
		if want := map[string]string(nil); version == v2 && !maps.Equal(p.Labels, c.Labels) || version == v1 && p.Labels != nil {
			if version == v2 {
				want = c.Labels
			}
			t.Errorf("member labels at %s: %v, want %v", version, p.Labels, want)
		}
	}
	expect(t, "a missing member", e.do(http.MethodGet, path("members/nope", v1), nil), http.StatusNotFound)
	expect(t, "a bad $skipToken", e.do(http.MethodGet, path("members", v1)+"&$skipToken=x", nil), http.StatusBadRequest)
}

// The fleet has a hub profile, and listCredentials a (fake) kubeconfig.
func TestFleet(t *testing.T) {
	e := newEnv(t)
	var f armfleet.Fleet
	r := e.do(http.MethodGet, path("", v1), nil)
	expect(t, "get fleet", r, http.StatusOK)
	r.decode(t, &f)
	if f.ID != testFleet.String() || f.Location != DefaultLocation || f.Properties.HubProfile == nil ||
		f.Properties.HubProfile.KubernetesVersion != "1.33.2" || f.ETag == "" {
		t.Errorf("fleet %+v, hub profile %+v", f, f.Properties.HubProfile)
	}
	var creds armfleet.FleetCredentialResults
	r = e.do(http.MethodPost, path("listCredentials", v1), nil)
	expect(t, "listCredentials", r, http.StatusOK)
	r.decode(t, &creds)
	if len(creds.Kubeconfigs) != 1 || !strings.Contains(string(creds.Kubeconfigs[0].Value), "server: "+e.run.URL) ||
		!strings.Contains(string(creds.Kubeconfigs[0].Value), "token: "+HubClusterToken) {
		t.Errorf("credentials %+v", creds)
	}
}

// api-version: required, one of the route's; gates and maxConcurrency
// need 2026-06-01.
func TestAPIVersions(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		what, target, code string
		body               any
	}{
		{"no api-version", testFleet.String() + "/updateStrategies", codeMissingAPIVersion, nil},
		{"an unknown api-version", path("updateStrategies", "2024-04-01"), codeInvalidAPIVersion, nil},
		{"gates at 2025-03-01", path("gates", v1), codeInvalidAPIVersion, nil},
		{"an AKS api-version on a fleet route", path("members", "2025-02-01"), codeInvalidAPIVersion, nil},
	} {
		r := e.do(http.MethodGet, c.target, c.body)
		expect(t, c.what, r, http.StatusBadRequest)
		if code := r.errorCode(t).Code; code != c.code {
			t.Errorf("%s: code %q, want %q", c.what, code, c.code)
		}
	}
	gated := strategyBody(armfleet.Stage{Name: "first", Groups: []armfleet.Group{{Name: "canary", MaxConcurrency: "2"}}})
	r := e.do(http.MethodPut, path("updateStrategies/s", v1), gated)
	expect(t, "maxConcurrency at 2025-03-01", r, http.StatusBadRequest)
	if target := r.errorCode(t).Target; target != "properties.strategy.stages[0].groups[0].maxConcurrency" {
		t.Errorf("the error names %q", target)
	}
	run := runBody(armfleet.Stage{Name: "first", Groups: []armfleet.Group{{Name: "canary"}}, AfterGates: []armfleet.GateConfiguration{{Type: armfleet.GateTypeApproval}}})
	r = e.do(http.MethodPut, path("updateRuns/r", v1), run)
	expect(t, "a gate at 2025-03-01", r, http.StatusBadRequest)
	if target := r.errorCode(t).Target; target != "properties.strategy.stages[0].afterGates" {
		t.Errorf("the error names %q", target)
	}
	e.create(path("updateStrategies/s", v2), gated)
	e.create(path("updateRuns/r", v2), run)
}

// Routing: fixed segments are case-insensitive; another fleet is 404;
// unknown paths 404, other methods 405; every answer carries a request id
// and the hub's clock in Date; errors are ARM documents.
func TestRouting(t *testing.T) {
	e := newEnv(t)
	odd := "/SUBSCRIPTIONS/" + testFleet.SubscriptionID + "/resourcegroups/RG/Providers/microsoft.containerservice/FLEETS/Fleet/UpdateStrategies?api-version=" + v1
	r := e.do(http.MethodGet, odd, nil)
	expect(t, "a path in other cases", r, http.StatusOK)
	if r.header.Get("x-ms-request-id") == "" {
		t.Error("no x-ms-request-id")
	}
	if d, err := http.ParseTime(r.header.Get("Date")); err != nil || !d.Equal(testTime) {
		t.Errorf("Date %q, want the hub's clock %v", r.header.Get("Date"), testTime)
	}
	other := strings.Replace(path("updateStrategies", v1), "/fleets/fleet/", "/fleets/other/", 1)
	r = e.do(http.MethodGet, other, nil)
	expect(t, "another fleet", r, http.StatusNotFound)
	if code := r.errorCode(t).Code; code != "ResourceNotFound" || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Errorf("another fleet: code %q, content type %q", code, r.header.Get("Content-Type"))
	}
	expect(t, "an unknown path", e.do(http.MethodGet, path("nothing", v1), nil), http.StatusNotFound)
	expect(t, "POST on a strategy", e.do(http.MethodPost, path("updateStrategies/s", v1), nil), http.StatusMethodNotAllowed)
	expect(t, "an unknown operation", e.do(http.MethodGet, "/subscriptions/x/providers/Microsoft.ContainerService/locations/eastus/operations/nope?api-version="+v1, nil), http.StatusNotFound)
	expect(t, "a body that is not JSON", e.do(http.MethodPut, path("updateStrategies/s", v1), "{"), http.StatusBadRequest)
	expect(t, "an invalid name", e.do(http.MethodPut, path("updateStrategies/Not_Valid", v1), strategyBody()), http.StatusBadRequest)
}

// The backend is asked for on every request: a hub whose clock moved is
// seen at once (Date), with the same state.
func TestBackendPerRequest(t *testing.T) {
	e := newEnv(t)
	e.create(path("updateStrategies/s", v1), strategyBody())
	later := testTime.Add(36 * time.Hour)
	e.backend.Store(e.mockAt(later))
	r := e.do(http.MethodGet, path("updateStrategies/s", v1), nil)
	expect(t, "get from the new backend", r, http.StatusOK)
	if d, _ := http.ParseTime(r.header.Get("Date")); !d.Equal(later) {
		t.Errorf("Date %q, want %v", r.header.Get("Date"), later)
	}
}

// Options: the page size and the number of InProgress answers.
func TestOptions(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.PageSize, o.Polls = 5, 3 })
	r := e.do(http.MethodPut, path("updateStrategies/s", v1), strategyBody())
	expect(t, "create", r, http.StatusCreated)
	e.poll(r.header.Get("Azure-AsyncOperation"), 3)
	if pages, _ := e.list(path("members", v1)); pages[0] != 5 {
		t.Errorf("pages %v, want pages of 5", pages)
	}
	e = newEnv(t, func(o *Options) { o.Polls = -1 })
	r = e.do(http.MethodPut, path("updateStrategies/s", v1), strategyBody())
	e.poll(r.header.Get("Azure-AsyncOperation"), 0)
}

// Each fault kind, and Match.
func TestFaults(t *testing.T) {
	e := newEnv(t)
	strategies := path("updateStrategies", v1)

	e.srv.SetFaults(Faults{Throttle: 2, Match: "GET " + testFleet.String() + "/updateStrategies"})
	expect(t, "a request the faults do not match", e.do(http.MethodGet, path("members", v1), nil), http.StatusOK)
	for i := range 2 {
		r := e.do(http.MethodGet, strategies, nil)
		expect(t, "throttled", r, http.StatusTooManyRequests)
		if r.header.Get("Retry-After-Ms") != "5" || r.header.Get("Retry-After") != "1" || r.errorCode(t).Code != "TooManyRequests" {
			t.Errorf("throttle %d: headers %v, body %s", i, r.header, r.body)
		}
	}
	expect(t, "after the throttling", e.do(http.MethodGet, strategies, nil), http.StatusOK)

	e.srv.SetFaults(Faults{ServerErrors: 3})
	for _, want := range []int{http.StatusInternalServerError, http.StatusServiceUnavailable, http.StatusInternalServerError} {
		r := e.do(http.MethodGet, strategies, nil)
		expect(t, "server error", r, want)
		if r.errorCode(t).Code == "" {
			t.Errorf("server error %d without an ARM error", want)
		}
	}
	expect(t, "after the server errors", e.do(http.MethodGet, strategies, nil), http.StatusOK)

	e.srv.SetFaults(Faults{DropConnections: 1})
	e.srv.ResetRequests()
	if resp, err := e.run.Client().Get(e.run.URL + strategies); err == nil {
		resp.Body.Close()
		t.Fatalf("a dropped connection answered %d", resp.StatusCode)
	}
	expect(t, "after the dropped connection", e.do(http.MethodGet, strategies, nil), http.StatusOK)
	if log := e.srv.Requests(); len(log) != 2 || log[0].Status != 0 || log[1].Status != http.StatusOK {
		t.Errorf("request log %+v, want the dropped request (status 0) and the next", log)
	}

	e.srv.SetFaults(Faults{OperationErrors: 1})
	r := e.do(http.MethodPut, path("updateStrategies/s", v1), strategyBody())
	expect(t, "a write while status polls fail", r, http.StatusCreated)
	expect(t, "a failing status poll", e.do(http.MethodGet, r.header.Get("Azure-AsyncOperation"), nil), http.StatusInternalServerError)
	e.poll(r.header.Get("Azure-AsyncOperation"), DefaultPolls)
}

// The request log records what was served; ResetRequests empties it.
func TestRequests(t *testing.T) {
	e := newEnv(t)
	e.do(http.MethodGet, path("members", v1)+"&$skipToken=2", nil)
	e.do(http.MethodGet, path("members/nope", v1), nil)
	want := []Request{
		{Method: http.MethodGet, Path: testFleet.String() + "/members", Query: "api-version=" + v1 + "&$skipToken=2", Status: http.StatusOK},
		{Method: http.MethodGet, Path: testFleet.String() + "/members/nope", Query: "api-version=" + v1, Status: http.StatusNotFound},
	}
	if got := e.srv.Requests(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("requests %+v, want %+v", got, want)
	}
	e.srv.ResetRequests()
	if got := e.srv.Requests(); len(got) != 0 {
		t.Errorf("after ResetRequests: %+v", got)
	}
}

// The certificate is for the loopback address; only a client that trusts
// it connects.
func TestListen(t *testing.T) {
	e := newEnv(t)
	block, _ := pem.Decode(e.run.CertPEM)
	if block == nil {
		t.Fatal("CertPEM holds no PEM block")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if err := cert.VerifyHostname("127.0.0.1"); err != nil {
		t.Error(err)
	}
	if err := cert.VerifyHostname("localhost"); err != nil {
		t.Error(err)
	}
	if resp, err := (&http.Client{}).Get(e.run.URL + path("members", v1)); err == nil {
		resp.Body.Close()
		t.Error("a client that does not trust the certificate connected")
	}
}

// listing is a backend that lists through Lister; wrapped, one that cannot list.
type (
	listing struct {
		hub.Hub
		asked *[]string
	}
	wrapped struct{ hub.Hub }
)

func (l listing) ListNames(_ context.Context, collection string) ([]string, error) {
	*l.asked = append(*l.asked, collection)
	return []string{"s"}, nil
}

// A backend other than the mock hub answers LISTs through Lister; one
// without it cannot (500), and everything else still works.
func TestLister(t *testing.T) {
	var asked []string
	var backend hub.Hub
	e := newEnv(t, func(o *Options) { o.Hub = func(context.Context) (hub.Hub, error) { return backend, nil } })
	backend = listing{Hub: e.backend.Load(), asked: &asked}
	e.create(path("updateStrategies/s", v1), strategyBody())
	if _, names := e.list(path("updateStrategies", v1)); !slices.Equal(names, []string{"s"}) || !slices.Equal(asked, []string{armfleet.UpdateStrategies}) {
		t.Errorf("listed %v, asking for %v", names, asked)
	}
	backend = wrapped{e.backend.Load()}
	expect(t, "a LIST of a backend that cannot list", e.do(http.MethodGet, path("updateStrategies", v1), nil), http.StatusInternalServerError)
	expect(t, "a GET of a backend that cannot list", e.do(http.MethodGet, path("updateStrategies/s", v1), nil), http.StatusOK)
}
