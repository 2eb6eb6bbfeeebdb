package store

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
	case "churn":
		os.Exit(runChurnHelper())
	}
}

// helperSetup opens the store a helper process writes to and reads its
// settings: how many iterations (0: until killed) and its name.
func helperSetup() (s *Store, iterations int, writer string, err error) {
	iterations, _ = strconv.Atoi(os.Getenv("AKS_ITERATIONS"))
	s, err = Open(os.Getenv("AKS_STORE_PATH"))
	return s, iterations, os.Getenv("AKS_WRITER"), err
}

// runCounterHelper increments a shared counter and writes one record per
// iteration, read-modify-write in one transaction each time.
func runCounterHelper() int {
	s, n, id, err := helperSetup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	payload := make([]byte, 64<<10) // large writes make a kill mid-write likely
	for i := 0; n == 0 || i < n; i++ {
		err := s.Update(func(tx *bolt.Tx) error {
			if err := incrementCounter(tx); err != nil {
				return err
			}
			_, err := putTx(tx, "records", fmt.Sprintf("%s-%05d", id, i), map[string]any{"i": i, "pad": payload}, Precondition{}, time.Now(), true)
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
	s, err := Open(path)
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

		s, err := Open(path)
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
	s, err := Open(filepath.Join(t.TempDir(), "s.db"))
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

// runChurnHelper frees space so that its writes compact the database: each
// iteration increments the shared counter and writes one small record with
// a 1 MB pad beside it, in one transaction, then deletes the pad in another,
// which leaves most of the file free. It prints each compaction step as it
// starts it, pauses for good at the step AKS_PAUSE_AT (holding the lock, for
// a test to kill it there), and prints how many compactions it ran.
func runChurnHelper() int {
	pauseAt := os.Getenv("AKS_PAUSE_AT")
	compactionHook = func(step string) {
		fmt.Println(step)
		if step == pauseAt {
			time.Sleep(time.Hour)
		}
	}
	s, n, id, err := helperSetup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	pad := make([]byte, 1<<20)
	for i := 0; n == 0 || i < n; i++ {
		key := fmt.Sprintf("%s-%05d", id, i)
		err := s.Update(func(tx *bolt.Tx) error {
			if err := incrementCounter(tx); err != nil {
				return err
			}
			if _, err := putTx(tx, "records", key, map[string]any{"i": i}, Precondition{}, time.Now(), true); err != nil {
				return err
			}
			_, err := putTx(tx, "pads", key, map[string]any{"pad": pad}, Precondition{}, time.Now(), true)
			return err
		})
		if err == nil {
			err = s.Update(func(tx *bolt.Tx) error { return DeleteTx(tx, "pads", key, Precondition{}) })
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	fmt.Println("compactions", s.compactions)
	return 0
}

func incrementCounter(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists([]byte("counter"))
	if err != nil {
		return err
	}
	c, _ := strconv.Atoi(string(b.Get([]byte("n"))))
	return b.Put([]byte("n"), []byte(strconv.Itoa(c+1)))
}

func churn(path, writer string, iterations int, pauseAt string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=churn", "AKS_STORE_PATH="+path, "AKS_WRITER="+writer,
		"AKS_ITERATIONS="+strconv.Itoa(iterations), "AKS_PAUSE_AT="+pauseAt)
	cmd.Stderr = os.Stderr
	return cmd
}

// checkState opens the store as the next process would and checks that no
// transaction was lost or torn: the counter counts the records, every one
// in wantRecords is there, no pad is left, bbolt's consistency check passes
// and no compacted copy is left beside the database.
func checkState(t *testing.T, path string, wantRecords []string) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("state unreadable: %v", err)
	}
	if _, err := os.Stat(path + compactSuffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a compacted copy is left beside the database: %v", err)
	}
	var counter, records, pads int
	present := map[string]bool{}
	err = s.View(func(tx *bolt.Tx) error {
		if err := checkDB(tx); err != nil {
			return fmt.Errorf("consistency check: %w", err)
		}
		counter, _ = strconv.Atoi(string(tx.Bucket([]byte("counter")).Get([]byte("n"))))
		if b := tx.Bucket([]byte("pads")); b != nil {
			pads = b.Stats().KeyN
		}
		return tx.Bucket([]byte("records")).ForEach(func(k, _ []byte) error {
			records++
			present[string(k)] = true
			_, err := getRecord(tx, "records", string(k))
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if counter != records || counter == 0 {
		t.Errorf("counter %d but %d records: a transaction was lost or torn", counter, records)
	}
	for _, k := range wantRecords {
		if !present[k] {
			t.Errorf("record %s lost", k)
		}
	}
	if pads > 1 { // a process killed between its two transactions leaves one
		t.Errorf("%d pads left", pads)
	}
}

func keys(writer string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%05d", writer, i)
	}
	return out
}

// Deleting frees pages, and the store compacts the file when much of it is
// free: the file shrinks back, the records and every bucket's sequence (the
// ETags) are kept, and nothing is left beside it.
func TestDeletesCompactTheDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := Open(path)
	must(t, err)
	size := func() int64 {
		n, err := s.Size()
		must(t, err)
		return n
	}
	small := size()
	pad := make([]byte, 64<<10)
	var last Record
	for i := range 40 {
		must(t, s.Update(func(tx *bolt.Tx) error {
			last, err = putTx(tx, "records", fmt.Sprintf("r-%02d", i), map[string]any{"pad": pad}, Precondition{}, testNow, true)
			return err
		}))
	}
	full := size()
	for i := range 39 {
		must(t, s.Update(func(tx *bolt.Tx) error { return DeleteTx(tx, "records", fmt.Sprintf("r-%02d", i), Precondition{}) }))
	}
	after := size()
	t.Logf("file: new %d KB, with 40 records of 64 KB %d KB, after deleting 39 %d KB (%d compactions)", small>>10, full>>10, after>>10, s.compactions)
	if s.compactions == 0 || after > full/4 {
		t.Fatalf("the file was not compacted: %d bytes, %d with every record", after, full)
	}
	rec, err := s.Get("records", "r-39")
	if err != nil || rec.ETag != last.ETag {
		t.Fatalf("the record kept reads %+v, %v", rec, err)
	}
	var next Record
	must(t, s.Update(func(tx *bolt.Tx) error {
		next, err = putTx(tx, "records", "r-40", "v", Precondition{}, testNow, true)
		return err
	}))
	if next.ETag != `"41"` {
		t.Fatalf("the ETag sequence restarted after compacting: %s after %s", next.ETag, last.ETag)
	}
	if _, err := os.Stat(path + compactSuffix); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a compacted copy is left beside the database: %v", err)
	}
	must(t, s.View(checkDB))
}

// Two processes write and delete at once, each delete leaving most of the
// file free, so that the database is compacted — renamed over — again and
// again while the other process waits for it: nothing is lost.
func TestWritersAcrossProcessesDuringCompactionsLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	const perWriter = 25
	var wg sync.WaitGroup
	outs := make([][]byte, 2)
	errs := make([]error, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[w], errs[w] = churn(path, "w"+strconv.Itoa(w), perWriter, "").Output()
		}()
	}
	wg.Wait()
	compactions := 0
	for w, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(outs[w])), "\n")
		n, _ := strconv.Atoi(strings.TrimPrefix(lines[len(lines)-1], "compactions "))
		compactions += n
	}
	t.Logf("%d compactions", compactions)
	if compactions < perWriter {
		t.Fatalf("only %d compactions: the test does not test compaction", compactions)
	}
	checkState(t, path, append(keys("w0", perWriter), keys("w1", perWriter)...))
}

// A process killed while it compacts — while it copies, with the copy
// complete, or right after renaming it — leaves a readable, consistent
// state with every committed write (its partial copy is removed by the next
// process); a process that was waiting meanwhile writes into the database
// the next process reads.
func TestKilledCompactionLeavesReadableState(t *testing.T) {
	// "" kills the process as soon as it starts copying, without pausing it.
	for _, step := range []string{"", "copying", "copied", "renamed"} {
		t.Run("at "+cmp.Or(step, "copying, unpaused"), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.db")
			compactor := churn(path, "c", 0, step)
			out, err := compactor.StdoutPipe()
			must(t, err)
			must(t, compactor.Start())
			lines := bufio.NewScanner(out)
			for want := cmp.Or(step, "copying"); ; {
				if !lines.Scan() {
					t.Fatalf("the helper ended before compacting: %v", lines.Err())
				}
				if lines.Text() == want {
					break
				}
			}
			if step == "" {
				must(t, compactor.Process.Signal(syscall.SIGKILL))
			} else if _, err := os.Stat(path + compactSuffix); (err == nil) != (step != "renamed") {
				t.Fatalf("at %s: compacted copy: %v", step, err)
			}
			// A writer that starts meanwhile waits for the lock.
			const writes = 10
			writer := helper(t, path, "waiting", writes)
			started := make(chan struct{})
			wout, err := writer.StdoutPipe()
			must(t, err)
			must(t, writer.Start())
			go func() {
				if _, err := wout.Read(make([]byte, 8)); err == nil {
					close(started)
				}
				_, _ = io.Copy(io.Discard, wout)
			}()
			if step != "" {
				select {
				case <-started:
					t.Fatal("a writer committed while a compaction held the lock")
				case <-time.After(300 * time.Millisecond):
				}
				must(t, compactor.Process.Signal(syscall.SIGKILL))
			}
			_ = compactor.Wait()
			must(t, writer.Wait())
			checkState(t, path, keys("waiting", writes))
		})
	}
}
