// Package kubetest starts real Kubernetes API servers in-process for tests:
// one embedded etcd shared by any number of kube-apiservers (the full
// kube-apiserver, so core objects such as Nodes are served as well as
// CustomResourceDefinitions), each on loopback ports chosen at run time and
// each with its own etcd prefix, so that the clusters do not see each other's
// objects. Everything is stopped and removed by [Env.Close].
//
// A package's tests usually share one [Env] for the whole test binary,
// started in TestMain:
//
//	var env *kubetest.Env
//
//	func TestMain(m *testing.M) {
//		var err error
//		env, err = kubetest.Start(kubetest.Stderr)
//		if err != nil {
//			fmt.Fprintln(os.Stderr, err)
//			os.Exit(1)
//		}
//		code := m.Run()
//		env.Close()
//		os.Exit(code)
//	}
//
// and each test asks for the clusters it needs with [Env.Cluster]: the first
// call for a name starts that cluster, later calls return it.
//
// The servers log a lot; their logs (klog, the etcd server's) are discarded
// unless the environment variable KUBETEST_VERBOSE is 1, in which case they
// are written to the Logger given to [Start].
//
// It is part of the wire twin (internal/emulator): nothing that ships
// imports it (TestImportBoundaries).
package kubetest

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"k8s.io/klog/v2"
)

// VerboseEnv is the environment variable that, set to 1, sends the logs of
// etcd and of the API servers to the Logger given to [Start].
const VerboseEnv = "KUBETEST_VERBOSE"

// Logger is what the servers log to: a *testing.T or *testing.B, or [Stderr]
// in a TestMain. Only the package's own failures and the servers' errors are
// logged unless KUBETEST_VERBOSE=1.
type Logger interface {
	Logf(format string, args ...any)
}

// Stderr is a Logger that writes each line to standard error, for an Env
// started in TestMain, where there is no *testing.T.
var Stderr Logger = stderrLogger{}

type stderrLogger struct{}

func (stderrLogger) Logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

// etcdStartTimeout bounds how long Start waits for etcd to be ready.
const etcdStartTimeout = time.Minute

// etcdPortAttempts is how often Start tries new ports when one it picked was
// taken by another process before etcd could listen on it.
const etcdPortAttempts = 5

// Env is one embedded etcd and the API servers started on it.
type Env struct {
	verbose bool
	dir     string // removed by Close

	etcd       *embed.Etcd
	clientURL  url.URL
	peerURL    url.URL
	etcdClient *clientv3.Client

	// logMu guards out: Close sets it to nil under the write lock, so that
	// nothing logs to a *testing.T that may be finished by then.
	logMu sync.RWMutex
	out   Logger

	mu       sync.Mutex
	clusters map[string]*clusterSlot
	started  int // clusters started or starting, for their etcd prefixes
	closed   bool

	// startMu serializes API server start-ups (the test server sets
	// process-wide state such as feature gates while it starts) and Close.
	startMu sync.Mutex

	closeOnce sync.Once
}

// clusterSlot is the entry of a cluster name: ready is closed once the start
// has finished, with cluster or err set.
type clusterSlot struct {
	ready   chan struct{}
	cluster *Cluster
	err     error
}

// Start starts etcd in a new temporary directory on free loopback ports
// (picking others if a port is taken before etcd listens on it). The caller
// must call Close.
func Start(log Logger) (*Env, error) {
	return start(log, freeLoopbackURL)
}

// start is Start, with the function that picks etcd's URLs.
func start(log Logger, pickURL func() (url.URL, error)) (*Env, error) {
	dir, err := os.MkdirTemp("", "kubetest-")
	if err != nil {
		return nil, fmt.Errorf("kubetest: %w", err)
	}
	e := &Env{
		verbose:  os.Getenv(VerboseEnv) == "1",
		dir:      dir,
		out:      log,
		clusters: map[string]*clusterSlot{},
	}
	e.routeKlog()
	if err := e.startEtcd(pickURL); err != nil {
		e.Close()
		return nil, err
	}
	e.etcdClient, err = clientv3.New(clientv3.Config{
		Endpoints:   []string{e.clientURL.String()},
		DialTimeout: 10 * time.Second,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		e.Close()
		return nil, fmt.Errorf("kubetest: etcd client: %w", err)
	}
	return e, nil
}

// logf writes to the Logger given to Start, unless Close has returned.
func (e *Env) logf(format string, args ...any) {
	e.logMu.RLock()
	defer e.logMu.RUnlock()
	if e.out != nil {
		e.out.Logf(format, args...)
	}
}

// verbosef is logf when KUBETEST_VERBOSE=1, nothing otherwise.
func (e *Env) verbosef(format string, args ...any) {
	if e.verbose {
		e.logf(format, args...)
	}
}

// routeKlog sends klog's global output (what the API servers log outside of
// their per-server context) to the Logger when verbose, nowhere otherwise.
func (e *Env) routeKlog() {
	if !e.verbose {
		klog.SetLogger(logr.Discard())
		return
	}
	klog.SetLogger(funcr.New(func(prefix, args string) {
		e.logf("klog: %s %s", prefix, args)
	}, funcr.Options{Verbosity: 10, LogTimestamp: true, TimestampFormat: "15:04:05.000000"}))
}

// zapLogger is the etcd server's logger: into the Logger at warning level
// and above when verbose, nowhere otherwise.
func (e *Env) zapLogger() *zap.Logger {
	if !e.verbose {
		return zap.NewNop()
	}
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	sink := zapcore.AddSync(writerFunc(func(p []byte) (int, error) {
		e.logf("etcd: %s", trimNewline(p))
		return len(p), nil
	}))
	return zap.New(zapcore.NewCore(enc, sink, zapcore.WarnLevel))
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func trimNewline(p []byte) string {
	s := string(p)
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

func (e *Env) startEtcd(pickURL func() (url.URL, error)) error {
	var lastErr error
	for attempt := 1; attempt <= etcdPortAttempts; attempt++ {
		client, err := pickURL()
		if err != nil {
			return err
		}
		peer, err := pickURL()
		if err != nil {
			return err
		}
		cfg := embed.NewConfig()
		cfg.Name = "kubetest"
		cfg.Dir = filepath.Join(e.dir, "etcd-"+strconv.Itoa(attempt))
		cfg.ListenClientUrls = []url.URL{client}
		cfg.AdvertiseClientUrls = []url.URL{client}
		cfg.ListenPeerUrls = []url.URL{peer}
		cfg.AdvertisePeerUrls = []url.URL{peer}
		cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
		cfg.UnsafeNoFsync = true // test data: no need to survive a crash
		cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(e.zapLogger())
		etcd, err := embed.StartEtcd(cfg)
		if err != nil {
			lastErr = err
			if errors.Is(err, syscall.EADDRINUSE) || strings.Contains(err.Error(), "address already in use") {
				continue
			}
			return fmt.Errorf("kubetest: starting etcd: %w", err)
		}
		e.etcd = etcd
		select {
		case <-etcd.Server.ReadyNotify():
		case err := <-etcd.Err():
			return fmt.Errorf("kubetest: etcd failed while starting: %w", err)
		case <-time.After(etcdStartTimeout):
			return fmt.Errorf("kubetest: etcd not ready after %s", etcdStartTimeout)
		}
		e.clientURL, e.peerURL = client, peer
		e.verbosef("kubetest: etcd serving on %s", client.String())
		return nil
	}
	return fmt.Errorf("kubetest: starting etcd: no free ports after %d attempts: %w", etcdPortAttempts, lastErr)
}

// freeLoopbackURL returns http://127.0.0.1:<port> for a port that is free now.
func freeLoopbackURL() (url.URL, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return url.URL{}, fmt.Errorf("kubetest: finding a free port: %w", err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		return url.URL{}, fmt.Errorf("kubetest: finding a free port: %w", err)
	}
	return url.URL{Scheme: "http", Host: addr}, nil
}

// Close stops every API server, then etcd, and removes the temporary
// directories. It waits for API servers still starting. Calling it again does
// nothing.
func (e *Env) Close() {
	e.closeOnce.Do(func() {
		e.mu.Lock()
		e.closed = true
		e.mu.Unlock()

		e.startMu.Lock() // wait for a start in progress
		defer e.startMu.Unlock()

		e.mu.Lock()
		var clusters []*Cluster
		for _, slot := range e.clusters {
			if slot.cluster != nil {
				clusters = append(clusters, slot.cluster)
			}
		}
		e.mu.Unlock()
		// Each server takes about a second to stop (its HTTP/2 connections
		// get that long to close after a GOAWAY): stop them together.
		var wg sync.WaitGroup
		for _, c := range clusters {
			wg.Go(func() {
				start := time.Now()
				c.stop()
				e.verbosef("kubetest: cluster %q stopped in %s", c.Name, time.Since(start).Round(time.Millisecond))
			})
		}
		wg.Wait()
		if e.etcdClient != nil {
			_ = e.etcdClient.Close()
		}
		if e.etcd != nil {
			start := time.Now()
			e.etcd.Close()
			e.verbosef("kubetest: etcd stopped in %s", time.Since(start).Round(time.Millisecond))
		}
		if err := os.RemoveAll(e.dir); err != nil {
			e.logf("kubetest: removing %s: %v", e.dir, err)
		}
		// Late log lines of stopped servers must not reach a finished test.
		if e.verbose {
			klog.SetLogger(logr.Discard())
		}
		e.logMu.Lock()
		e.out = nil
		e.logMu.Unlock()
	})
}
