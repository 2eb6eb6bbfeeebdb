package mock

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The store tests run this test binary again as separate processes (the
// helper modes below), because the guarantees are about processes: several
// provider processes writing at once, and a process killed mid-write.
const helperEnv = "AKS_MOCK_STORE_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "counter":
		os.Exit(runCounterHelper())
	}
}

// runCounterHelper increments a shared counter and writes one record per
// iteration, read-modify-write in one transaction each time.
func runCounterHelper() int {
	s, err := OpenStore(os.Getenv("AKS_STORE_PATH"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	n, _ := strconv.Atoi(os.Getenv("AKS_ITERATIONS")) // 0 means until killed
	id := os.Getenv("AKS_WRITER")
	payload := make([]byte, 64<<10) // large writes make a kill mid-write likely
	for i := 0; n == 0 || i < n; i++ {
		err := s.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("counter"))
			if err != nil {
				return err
			}
			c, _ := strconv.Atoi(string(b.Get([]byte("n"))))
			if err := b.Put([]byte("n"), []byte(strconv.Itoa(c+1))); err != nil {
				return err
			}
			_, err = putTx(tx, "records", fmt.Sprintf("%s-%05d", id, i), map[string]any{"i": i, "pad": payload}, Precondition{}, time.Now(), true)
			return err
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i == 0 {
			fmt.Println("started")
		}
	}
	return 0
}

func helper(t *testing.T, path, writer string, iterations int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=counter", "AKS_STORE_PATH="+path, "AKS_WRITER="+writer, "AKS_ITERATIONS="+strconv.Itoa(iterations))
	cmd.Stderr = os.Stderr
	return cmd
}

func TestTwoProcessesWritingAtOnceLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	const perWriter = 150
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs[w] = helper(t, path, strconv.Itoa(w), perWriter).Run()
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	var counter string
	if err := s.View(func(tx *bolt.Tx) error { counter = string(tx.Bucket([]byte("counter")).Get([]byte("n"))); return nil }); err != nil {
		t.Fatal(err)
	}
	keys, err := s.Keys("records")
	if err != nil {
		t.Fatal(err)
	}
	if counter != strconv.Itoa(2*perWriter) || len(keys) != 2*perWriter {
		t.Fatalf("lost writes: counter=%s records=%d, want %d", counter, len(keys), 2*perWriter)
	}
}

func TestKilledWriterLeavesReadableState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	for round := 0; round < 3; round++ {
		cmd := helper(t, path, "k"+strconv.Itoa(round), 0)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 8)
		if _, err := out.Read(buf); err != nil { // wait for the first commit
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+round*15) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()

		s, err := OpenStore(path)
		if err != nil {
			t.Fatalf("round %d: state unreadable after kill: %v", round, err)
		}
		var counter int
		var records int
		err = s.View(func(tx *bolt.Tx) error {
			counter, _ = strconv.Atoi(string(tx.Bucket([]byte("counter")).Get([]byte("n"))))
			return tx.Bucket([]byte("records")).ForEach(func(k, v []byte) error {
				records++
				_, err := getRecord(tx, "records", string(k))
				return err
			})
		})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if counter != records || counter == 0 {
			t.Fatalf("round %d: counter %d but %d records: a transaction was torn", round, counter, records)
		}
		if err := s.View(func(tx *bolt.Tx) error { return checkDB(tx) }); err != nil {
			t.Fatalf("round %d: consistency check: %v", round, err)
		}
	}
}

func checkDB(tx *bolt.Tx) error {
	for err := range tx.Check() {
		return err
	}
	return nil
}

func TestPreconditions(t *testing.T) {
	s, err := OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	var first Record
	put := func(pre Precondition) (Record, error) {
		var rec Record
		err := s.Update(func(tx *bolt.Tx) error {
			var err error
			rec, err = putTx(tx, "b", "k", "v", pre, testNow, true)
			return err
		})
		return rec, err
	}
	if first, err = put(Precondition{IfNoneMatch: true}); err != nil || first.Generation != 1 {
		t.Fatalf("create: %v %+v", err, first)
	}
	if _, err := put(Precondition{IfNoneMatch: true}); !errors.Is(err, ErrPreconditionFailed) {
		t.Fatalf("If-None-Match on existing: %v", err)
	}
	second, err := put(Precondition{IfMatch: first.ETag})
	if err != nil || second.Generation != 2 || second.ETag == first.ETag || !second.CreatedAt.Equal(first.CreatedAt) {
		t.Fatalf("update: %v %+v", err, second)
	}
	if _, err := put(Precondition{IfMatch: first.ETag}); !errors.Is(err, ErrPreconditionFailed) {
		t.Fatalf("stale If-Match: %v", err)
	}
	if err := s.Update(func(tx *bolt.Tx) error { return DeleteTx(tx, "b", "k", Precondition{IfMatch: first.ETag}) }); !errors.Is(err, ErrPreconditionFailed) {
		t.Fatalf("stale delete: %v", err)
	}
	if err := s.Update(func(tx *bolt.Tx) error { return DeleteTx(tx, "b", "k", Precondition{}) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("b", "k"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
}

func TestScaledClockPersistsAcrossProcesses(t *testing.T) {
	s, err := OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	real := testNow
	cfg := ClockConfig{Mode: ClockScaled, Time: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), Scale: 60}
	c1, err := NewClock(cfg, s, func() time.Time { return real })
	if err != nil {
		t.Fatal(err)
	}
	real = real.Add(time.Minute)
	c2, _ := NewClock(cfg, s, func() time.Time { return real }) // a later process
	if want := cfg.Time.Add(time.Hour); !c1.Now().Equal(want) || !c2.Now().Equal(want) {
		t.Fatalf("got %v and %v, want %v", c1.Now(), c2.Now(), want)
	}
	fixed, _ := NewClock(ClockConfig{Mode: ClockFixed, Time: cfg.Time}, s, time.Now)
	if !fixed.Now().Equal(cfg.Time) {
		t.Fatal("fixed clock moved")
	}
	for _, bad := range []ClockConfig{{Mode: "warp"}, {Mode: ClockFixed}, {Mode: ClockScaled, Time: cfg.Time}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
