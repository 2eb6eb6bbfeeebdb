package armemu

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// testTime is the mock hub's fixed clock in the tests.
var testTime = time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)

var testFleet = armfleet.FleetID{SubscriptionID: "00000000-0000-0000-0000-000000000000", ResourceGroup: "rg", Fleet: "fleet"}

// env is an emulator of a fresh mock hub, served over TLS.
type env struct {
	t       *testing.T
	srv     *Server
	run     *Running
	backend atomic.Pointer[mock.Hub]
	state   string // the mock hub's state database
}

// newEnv serves a mock hub of the sample fleet at testTime; opts may change
// the options (Fleet and Hub are set).
func newEnv(t *testing.T, opts ...func(*Options)) *env {
	t.Helper()
	e := &env{t: t, state: filepath.Join(t.TempDir(), "state.db")}
	e.backend.Store(e.mockAt(testTime))
	o := Options{Fleet: testFleet, Hub: func(context.Context) (hub.Hub, error) { return e.backend.Load(), nil }}
	for _, f := range opts {
		f(&o)
	}
	e.srv = New(o)
	run, err := Listen("127.0.0.1:0", e.srv)
	if err != nil {
		t.Fatal(err)
	}
	e.run = run
	t.Cleanup(func() {
		if err := run.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return e
}

// mockAt opens the env's state with a clock fixed at at.
func (e *env) mockAt(at time.Time) *mock.Hub {
	e.t.Helper()
	h, err := mock.New(mock.Config{StatePath: e.state, Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: at}})
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

// response is an answer of the emulator.
type response struct {
	status int
	header http.Header
	body   []byte
}

// decode decodes the body into v.
func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
}

// errorCode is the ARM error code of the body.
func (r response) errorCode(t *testing.T) armfleet.ErrorDetail {
	t.Helper()
	var e armfleet.ErrorResponse
	r.decode(t, &e)
	return e.Error
}

// path is a fleet path (a fleet resource's path relative to the fleet, "" for the fleet) with the api-version.
func path(rel, version string) string {
	p := testFleet.String()
	if rel != "" {
		p += "/" + rel
	}
	return p + "?api-version=" + version
}

// do sends a request to a path or absolute URL, with headers as name, value pairs.
func (e *env) do(method, target string, body any, headers ...string) response {
	e.t.Helper()
	if !strings.HasPrefix(target, "https://") {
		target = e.run.URL + target
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := e.run.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: raw}
}

// expect fails unless r has status want.
func expect(t *testing.T, what string, r response, want int) {
	t.Helper()
	if r.status != want {
		t.Fatalf("%s: status %d, want %d; body %s", what, r.status, want, r.body)
	}
}

// poll polls an Azure-AsyncOperation URL to the end, checking that it
// answers InProgress polls times first; it returns the final document.
func (e *env) poll(url string, polls int) armfleet.OperationStatus {
	e.t.Helper()
	if url == "" {
		e.t.Fatal("no Azure-AsyncOperation header")
	}
	for i := 0; ; i++ {
		r := e.do(http.MethodGet, url, nil)
		expect(e.t, "status poll", r, http.StatusOK)
		var st armfleet.OperationStatus
		r.decode(e.t, &st)
		if st.Status != armfleet.OperationInProgress {
			if i != polls || st.Status != armfleet.OperationSucceeded {
				e.t.Fatalf("operation %s after %d InProgress answers, want Succeeded after %d", st.Status, i, polls)
			}
			return st
		}
		if r.header.Get("Retry-After-Ms") == "" {
			e.t.Error("an InProgress status answer has no Retry-After-Ms")
		}
		if i > polls {
			e.t.Fatalf("still InProgress after %d polls", i)
		}
	}
}

// result polls a Location URL: 202 polls times, then the result.
func (e *env) result(url string, polls int) response {
	e.t.Helper()
	if url == "" {
		e.t.Fatal("no Location header")
	}
	for i := 0; ; i++ {
		r := e.do(http.MethodGet, url, nil)
		if r.status != http.StatusAccepted {
			if i != polls {
				e.t.Fatalf("the result came after %d 202 answers, want %d", i, polls)
			}
			return r
		}
		if i > polls {
			e.t.Fatalf("still 202 after %d polls", i)
		}
	}
}

// list follows a LIST's nextLinks and returns the pages' sizes and the items' names.
func (e *env) list(target string) (pages []int, names []string) {
	e.t.Helper()
	for target != "" {
		r := e.do(http.MethodGet, target, nil)
		expect(e.t, "list "+target, r, http.StatusOK)
		var page armfleet.List[armfleet.Resource]
		r.decode(e.t, &page)
		pages = append(pages, len(page.Value))
		for _, v := range page.Value {
			names = append(names, v.Name)
		}
		if page.NextLink != "" && !strings.HasPrefix(page.NextLink, e.run.URL+"/") {
			e.t.Fatalf("nextLink %q is not an absolute URL of the emulator", page.NextLink)
		}
		target = page.NextLink
	}
	return pages, names
}
