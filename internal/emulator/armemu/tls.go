package armemu

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"sync"
	"time"
)

// Running is an emulator serving HTTPS.
type Running struct {
	// URL is the emulator's base URL, e.g. https://127.0.0.1:43121: the
	// resource manager endpoint to give clients.
	URL string
	// CertPEM is the server's self-signed certificate, for clients to trust.
	CertPEM []byte

	srv      *http.Server
	client   *http.Client
	done     chan error // the result of Serve
	once     sync.Once
	serveErr error
}

// Listen serves s over TLS on addr (e.g. "127.0.0.1:0") with a self-signed
// ECDSA certificate for 127.0.0.1, ::1 and localhost generated now. It
// speaks HTTP/1.1 only, so that dropped connections (Faults) can be
// emulated.
func Listen(addr string, s *Server) (*Running, error) {
	cert, certPEM, err := selfSigned()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s.caPEM = certPEM
	pool := x509.NewCertPool()
	pool.AddCert(cert.Leaf)
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	r := &Running{URL: "https://" + ln.Addr().String(), CertPEM: certPEM, srv: srv, done: make(chan error, 1),
		client: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}}
	tln := tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}, MinVersion: tls.VersionTLS12})
	go func() { r.done <- srv.Serve(tln) }()
	return r, nil
}

// Client is an HTTP client that trusts the emulator's certificate.
func (r *Running) Client() *http.Client { return r.client }

// Close stops serving and closes every connection.
func (r *Running) Close() error {
	r.client.CloseIdleConnections()
	return r.stopped(r.srv.Close())
}

// Shutdown stops serving once the requests in progress are answered (or ctx ends).
func (r *Running) Shutdown(ctx context.Context) error {
	r.client.CloseIdleConnections()
	return r.stopped(r.srv.Shutdown(ctx))
}

// stopped waits for the server to stop serving, and returns err or else
// the error serving stopped with.
func (r *Running) stopped(err error) error {
	r.once.Do(func() {
		if serr := <-r.done; !errors.Is(serr, http.ErrServerClosed) {
			r.serveErr = serr
		}
	})
	if err == nil {
		err = r.serveErr
	}
	return err
}

// selfSigned makes a P-256 certificate for the loopback addresses, valid
// for a year (real time: TLS checks validity against the real clock).
func selfSigned() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "fleet emulator", Organization: []string{"terraform-provider-aks fleet emulator"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("emulator certificate: %w", err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf},
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}
