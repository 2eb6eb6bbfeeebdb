package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// The command serves the mock hub's fleet until its context ends, with the
// certificate it wrote and the URL it printed.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	certPath := filepath.Join(dir, "cert.pem")
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-state", filepath.Join(dir, "state.db"), "-listen", "127.0.0.1:0", "-cert-out", certPath,
			"-subscription", "sub", "-resource-group", "group", "-name", "demo", "-clock", "fixed", "-clock-time", "2026-11-23T08:00:00Z"}, w)
		w.Close()
	}()
	lines := bufio.NewScanner(out)
	var url, cert string
	for (url == "" || cert == "") && lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "serving fleet "); ok {
			url = rest[strings.LastIndex(rest, " ")+1:]
		}
		if rest, ok := strings.CutPrefix(lines.Text(), "certificate: "); ok {
			cert = rest
		}
	}
	if url == "" || cert != certPath {
		t.Fatalf("printed URL %q and certificate %q", url, cert)
	}
	go io.Copy(io.Discard, out)

	pem, err := os.ReadFile(certPath)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("the certificate file holds no certificate")
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	fleet := armfleet.FleetID{SubscriptionID: "sub", ResourceGroup: "group", Fleet: "demo"}
	resp, err := client.Get(url + fleet.String() + "?api-version=" + armfleet.APIVersion)
	if err != nil {
		t.Fatal(err)
	}
	var f armfleet.Fleet
	err = json.NewDecoder(resp.Body).Decode(&f)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || f.ID != fleet.String() {
		t.Fatalf("GET fleet: %d %+v %v", resp.StatusCode, f, err)
	}
	if d, _ := http.ParseTime(resp.Header.Get("Date")); !d.Equal(time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("Date %q is not the fixed clock", resp.Header.Get("Date"))
	}
	client.CloseIdleConnections()

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after its context ended")
	}
}

// Bad flags are errors, not a server.
func TestRunFlags(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"extra"}, {"-clock-time", "tomorrow"}, {"-clock", "sideways", "-state", filepath.Join(t.TempDir(), "s.db")}} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("run %q: no error", args)
		}
	}
}
