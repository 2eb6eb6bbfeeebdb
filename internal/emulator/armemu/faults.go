package armemu

import (
	"net/http"
	"strings"
	"sync"
)

// Faults are failures the emulator injects into the requests it serves, to
// test a client's retries and polling (designs/arm.md §7 point 6). Each counter is
// a number of requests still to fail; a request meets at most one fault,
// the first in field order.
type Faults struct {
	// Throttle: the next N requests get 429 with Retry-After-Ms: 5 and
	// Retry-After: 1.
	Throttle int
	// ServerErrors: the next N requests get 500, then 503, alternately,
	// with an ARM error body.
	ServerErrors int
	// DropConnections: the next N requests have their connection closed
	// in the middle of the response headers.
	DropConnections int
	// Match restricts the faults to requests whose "METHOD path" contains
	// it; empty matches every request.
	Match string
	// OperationErrors: the next N polls of an operation URL get 500.
	OperationErrors int
}

// faultState is the faults still due.
type faultState struct {
	mu     sync.Mutex
	f      Faults
	errors int // server errors answered, for the 500/503 alternation
}

// SetFaults replaces the faults due. It is safe to call while serving.
func (s *Server) SetFaults(f Faults) {
	s.faults.mu.Lock()
	s.faults.f = f
	s.faults.mu.Unlock()
}

// fault kinds.
const (
	noFault = iota
	dropFault
	throttleFault
	serverFault
	serviceUnavailableFault
	operationFault
)

// take consumes the fault due for r, if any.
func (fs *faultState) take(r *http.Request, poll bool) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f := &fs.f
	if f.Match != "" && !strings.Contains(r.Method+" "+r.URL.Path, f.Match) {
		return noFault
	}
	switch {
	case f.DropConnections > 0:
		f.DropConnections--
		return dropFault
	case f.Throttle > 0:
		f.Throttle--
		return throttleFault
	case f.ServerErrors > 0:
		f.ServerErrors--
		fs.errors++
		if fs.errors%2 == 0 {
			return serviceUnavailableFault
		}
		return serverFault
	case poll && f.OperationErrors > 0:
		f.OperationErrors--
		return operationFault
	}
	return noFault
}

// answerFault answers an injected error.
func (c *call) answerFault(kind int) {
	switch kind {
	case throttleFault:
		c.w.Header().Set("Retry-After-Ms", "5")
		c.w.Header().Set("Retry-After", "1")
		c.fail(http.StatusTooManyRequests, "TooManyRequests", "The request is throttled (an injected fault); retry after 5 ms.", "")
	case serviceUnavailableFault:
		c.fail(http.StatusServiceUnavailable, "ServiceUnavailable", "The service is unavailable (an injected fault).", "")
	default:
		c.fail(http.StatusInternalServerError, codeInternal, "An internal error occurred (an injected fault).", "")
	}
}

// drop writes the start of a response's headers and closes the connection.
func drop(w http.ResponseWriter) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil { // HTTP/2 cannot hijack: reset the stream instead
		panic(http.ErrAbortHandler)
	}
	_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: applica")
	_ = buf.Flush()
	_ = conn.Close()
}
