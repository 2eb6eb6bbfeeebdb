package azure

import "net/http"

// SetKubeTransportWrapper wraps the transport of the Kubernetes clients
// hubs make from now on (nil: none), for benchmarks that count requests.
func SetKubeTransportWrapper(w func(http.RoundTripper) http.RoundTripper) { wrapKubeTransport = w }
