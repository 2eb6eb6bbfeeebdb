package armclient

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// reply is one scripted response of the fake ARM server.
type reply struct {
	status int
	header map[string]string // "{base}" in a value is the server's URL
	body   any               // json.RawMessage, string (sent as is) or a value to marshal; nil sends nothing
}

// exchange is one request the fake received.
type exchange struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
}

// String is "METHOD path?api-version=…", for comparing sequences.
func (e exchange) String() string {
	s := e.Method + " " + e.Path
	if v := e.Query.Get("api-version"); v != "" {
		s += "@" + v
	}
	return s
}

// fakeARM is a scripted ARM endpoint over TLS. Replies are queued per
// "METHOD path"; the last one of a queue repeats. Anything unscripted
// answers 404 ResourceNotFound.
type fakeARM struct {
	srv     *httptest.Server
	mu      sync.Mutex
	replies map[string][]reply
	log     []exchange
}

func newFake(t *testing.T) *fakeARM {
	t.Helper()
	f := &fakeARM{replies: map[string][]reply{}}
	f.srv = httptest.NewTLSServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// on queues replies to method on path.
func (f *fakeARM) on(method, path string, rs ...reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replies[method+" "+path] = append(f.replies[method+" "+path], rs...)
}

func (f *fakeARM) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	key := r.Method + " " + r.URL.Path
	f.mu.Lock()
	f.log = append(f.log, exchange{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body})
	rep := reply{status: http.StatusNotFound, body: armError("ResourceNotFound", "nothing scripted for "+key)}
	if rs := f.replies[key]; len(rs) > 0 {
		rep = rs[0]
		if len(rs) > 1 {
			f.replies[key] = rs[1:]
		}
	}
	f.mu.Unlock()
	for k, v := range rep.header {
		w.Header().Set(k, strings.ReplaceAll(v, "{base}", f.srv.URL))
	}
	var payload []byte
	switch b := rep.body.(type) {
	case nil:
	case string:
		payload = []byte(b)
	case json.RawMessage:
		payload = b
	default:
		payload, _ = json.Marshal(b)
	}
	if payload != nil && w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(rep.status)
	_, _ = w.Write(payload)
}

// requests returns what the fake received so far.
func (f *fakeARM) requests() []exchange {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]exchange(nil), f.log...)
}

// sequence is requests() as "METHOD path@api-version" strings.
func (f *fakeARM) sequence() []string {
	var out []string
	for _, e := range f.requests() {
		out = append(out, e.String())
	}
	return out
}

func armError(code, message string) map[string]any {
	return map[string]any{"error": map[string]any{"code": code, "message": message}}
}

func opStatus(status string) map[string]any {
	return map[string]any{"id": "/providers/Microsoft.ContainerService/locations/eastus/operationStatuses/op1", "name": "op1", "status": status}
}

// client is a Client of fleet that talks to the fake, with fast retries
// and polls.
func (f *fakeARM) client(t *testing.T, fleet armfleet.FleetID) *Client {
	t.Helper()
	c, err := New(fleet, Options{
		Credential: &azfake.TokenCredential{},
		Cloud: cloud.Configuration{Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
			cloud.ResourceManager: {Endpoint: f.srv.URL, Audience: "https://management.core.windows.net/"},
		}},
		Transport:             f.srv.Client(),
		Retry:                 &policy.RetryOptions{RetryDelay: time.Millisecond, MaxRetryDelay: 20 * time.Millisecond},
		PollFrequency:         5 * time.Millisecond,
		DisableRPRegistration: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testFleet is the fleet of most published examples.
var testFleet = armfleet.FleetID{SubscriptionID: "00000000-0000-0000-0000-000000000000", ResourceGroup: "rg1", Fleet: "fleet1"}

// fixture is a request recorded from a published example (testdata/).
type fixture struct {
	Example    string            `json:"example"`
	Note       string            `json:"note"`
	Method     string            `json:"method"`
	Path       string            `json:"path"`
	APIVersion string            `json:"apiVersion"`
	Query      map[string]string `json:"query"`
	Headers    map[string]string `json:"headers"`
	Body       json.RawMessage   `json:"body"`
	Response   json.RawMessage   `json:"response"`
}

func loadFixture(t *testing.T, name string) fixture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx fixture
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return fx
}

// fleet is the fleet the fixture's path is in.
func (fx fixture) fleet(t *testing.T) armfleet.FleetID {
	t.Helper()
	p := strings.Split(strings.Trim(fx.Path, "/"), "/")
	if len(p) < 8 {
		t.Fatalf("fixture path %q is not below a fleet", fx.Path)
	}
	return armfleet.FleetID{SubscriptionID: p[1], ResourceGroup: p[3], Fleet: p[7]}
}

// resourcePath is the fixture's path without a trailing action.
func (fx fixture) resourcePath() string {
	for _, action := range []string{"/start", "/stop", "/skip", "/generateUpdateRun", "/listCredentials"} {
		if p, ok := strings.CutSuffix(fx.Path, action); ok {
			return p
		}
	}
	return fx.Path
}

// conditionalHeaders are the headers a fixture pins: absent from its
// "headers" means absent from the request.
var conditionalHeaders = []string{"If-Match", "If-None-Match", "Content-Type"}

// check asserts that e is the request the fixture recorded.
func (fx fixture) check(t *testing.T, e exchange) {
	t.Helper()
	if e.Method != fx.Method || e.Path != fx.Path {
		t.Errorf("request %s %s, want %s %s", e.Method, e.Path, fx.Method, fx.Path)
	}
	if got := e.Query.Get("api-version"); got != fx.APIVersion {
		t.Errorf("api-version %q, want %q", got, fx.APIVersion)
	}
	for k, v := range fx.Query {
		if got := e.Query.Get(k); got != v {
			t.Errorf("query %s = %q, want %q", k, got, v)
		}
	}
	for _, h := range conditionalHeaders {
		if got := e.Header.Get(h); got != fx.Headers[h] {
			t.Errorf("header %s = %q, want %q", h, got, fx.Headers[h])
		}
	}
	if got := e.Header.Get("Authorization"); got != "Bearer fake_token" {
		t.Errorf("Authorization = %q, want the credential's bearer token", got)
	}
	switch {
	case len(fx.Body) == 0 && len(e.Body) != 0:
		t.Errorf("request body %s, want none", e.Body)
	case len(fx.Body) != 0 && !jsonEqual(fx.Body, e.Body):
		t.Errorf("request body\n%s\nwant\n%s", e.Body, compact(fx.Body))
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}
