package kubetest

import (
	"fmt"
	"os"
	"sync"
)

// serverTB is the ktesting.TB that an API server is started with. The test
// server ties its lifetime to TB.Cleanup; here the cleanups run when the
// cluster is stopped (by Env.Close), not when the test that asked for the
// cluster ends, so that a cluster started for one test serves the next ones.
// Its log goes to the Env's Logger only when verbose; errors always do.
// Fatal and Skip, which the test server calls only on start-up failures,
// abort the start (see fatalError) instead of ending a test's goroutine.
type serverTB struct {
	env  *Env
	name string

	mu       sync.Mutex
	cleanups []func()
	failed   bool
	skipped  bool
}

// fatalError is the panic value of serverTB's Fatal, FailNow and Skip: the
// start-up that called it is aborted and the message becomes its error.
type fatalError struct{ msg string }

func (f fatalError) Error() string { return f.msg }

func newServerTB(env *Env, name string) *serverTB {
	return &serverTB{env: env, name: name}
}

func (tb *serverTB) prefix() string { return "kubetest[" + tb.name + "]: " }

// runCleanups runs the registered cleanups, last registered first.
func (tb *serverTB) runCleanups() {
	for {
		tb.mu.Lock()
		n := len(tb.cleanups)
		if n == 0 {
			tb.mu.Unlock()
			return
		}
		f := tb.cleanups[n-1]
		tb.cleanups = tb.cleanups[:n-1]
		tb.mu.Unlock()
		f()
	}
}

func (tb *serverTB) Cleanup(f func()) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.cleanups = append(tb.cleanups, f)
}

func (tb *serverTB) Log(args ...any) { tb.env.verbosef("%s%s", tb.prefix(), fmt.Sprint(args...)) }

func (tb *serverTB) Logf(format string, args ...any) {
	tb.env.verbosef("%s%s", tb.prefix(), fmt.Sprintf(format, args...))
}

func (tb *serverTB) Error(args ...any) {
	tb.Fail()
	tb.env.logf("%sERROR: %s", tb.prefix(), fmt.Sprint(args...))
}

func (tb *serverTB) Errorf(format string, args ...any) {
	tb.Fail()
	tb.env.logf("%sERROR: %s", tb.prefix(), fmt.Sprintf(format, args...))
}

func (tb *serverTB) Fail() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.failed = true
}

func (tb *serverTB) Failed() bool {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.failed
}

func (tb *serverTB) FailNow() {
	tb.Fail()
	panic(fatalError{msg: tb.prefix() + "FailNow"})
}

func (tb *serverTB) Fatal(args ...any) {
	tb.Fail()
	panic(fatalError{msg: tb.prefix() + fmt.Sprint(args...)})
}

func (tb *serverTB) Fatalf(format string, args ...any) {
	tb.Fail()
	panic(fatalError{msg: tb.prefix() + fmt.Sprintf(format, args...)})
}

func (tb *serverTB) SkipNow() {
	tb.mu.Lock()
	tb.skipped = true
	tb.mu.Unlock()
	panic(fatalError{msg: tb.prefix() + "skipped"})
}

func (tb *serverTB) Skip(args ...any) {
	tb.mu.Lock()
	tb.skipped = true
	tb.mu.Unlock()
	panic(fatalError{msg: tb.prefix() + "skipped: " + fmt.Sprint(args...)})
}

func (tb *serverTB) Skipf(format string, args ...any) {
	tb.Skip(fmt.Sprintf(format, args...))
}

func (tb *serverTB) Skipped() bool {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.skipped
}

func (tb *serverTB) Helper() {}

func (tb *serverTB) Name() string { return "kubetest/" + tb.name }

func (tb *serverTB) Attr(key, value string) { tb.Logf("attr %s=%s", key, value) }

// TempDir returns a new directory under the Env's, removed by Env.Close.
func (tb *serverTB) TempDir() string {
	dir, err := os.MkdirTemp(tb.env.dir, "tb-")
	if err != nil {
		tb.Fatalf("TempDir: %v", err)
	}
	return dir
}

// Setenv sets an environment variable until the cluster is stopped.
func (tb *serverTB) Setenv(key, value string) {
	old, had := os.LookupEnv(key)
	if err := os.Setenv(key, value); err != nil {
		tb.Fatalf("Setenv: %v", err)
	}
	tb.Cleanup(func() {
		if had {
			_ = os.Setenv(key, old)
		} else {
			_ = os.Unsetenv(key)
		}
	})
}

// Chdir changes the working directory until the cluster is stopped.
func (tb *serverTB) Chdir(dir string) {
	old, err := os.Getwd()
	if err != nil {
		tb.Fatalf("Chdir: %v", err)
	}
	if err := os.Chdir(dir); err != nil {
		tb.Fatalf("Chdir: %v", err)
	}
	tb.Cleanup(func() { _ = os.Chdir(old) })
}
