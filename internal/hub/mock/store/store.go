// Package store is the mock hub's state database: bbolt, opened per
// operation under a lock file so that the provider processes Terraform runs
// side by side take turns; versioned records in an envelope (ETag,
// generation, times) with conditional writes; the record format's version
// and the migrations of databases earlier releases wrote (format.go,
// migrate.go); the records' stored forms (wire.go); compaction. It stores,
// converts and checks preconditions; what the objects mean and do is the
// mock hub's (package mock).
package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	bolt "go.etcd.io/bbolt"
	"k8s.io/utils/lru"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Store is the mock hub's persistent state: a bbolt database file.
//
// bbolt gives crash safety (copy-on-write pages, fsync on commit: a process
// killed in the middle of a write leaves the last committed state) but allows
// one writer process at a time. Terraform runs several provider processes
// (plan, apply, refresh, tests in parallel), so the store opens the file for
// each operation and closes it right after; every read-modify-write happens
// inside one transaction, so concurrent writers never lose each other's
// changes.
//
// Processes take turns through a lock file beside the database (path +
// ".lock"), never renamed nor removed: an operation takes it — shared to
// read, exclusive to write — before it opens the database, and releases it
// after closing it, waiting up to LockTimeout for another process. That is
// what lets the store compact: bbolt never shrinks its file, so when a write
// leaves much of the file free the store copies the live data into a new file
// and renames it over the database (compactLocked), still holding the
// exclusive lock. No process has the database open then, and every process
// waiting opens it only after taking the lock, so it opens the new file. (A
// lock on the database file itself, bbolt's own, would not do: a process
// waiting on it holds the old file open and would write to it after the
// rename, into a file nobody reads again.)
type Store struct {
	path string
	// LockTimeout bounds how long an operation waits for another process.
	LockTimeout time.Duration
	mu          sync.Mutex // serialises this process's own operations
	// advance, when set (by the Hub), runs first in every write transaction:
	// the simulated world is brought to now before anything is written on
	// it, and only then (reads are reads).
	advance     func(tx *bolt.Tx) error // SetAdvance
	compactions int                     // how many compactions this Store ran (for tests)
	// placements are the stored forms of the placements read last
	// (LoadPlacement), by name.
	placements *lru.Cache
}

// readPlacements bounds how many placements' stored forms a Store keeps
// (LoadPlacement): each is its record's bytes and their decoded form, about
// twice the record, 270 KB for a placement of 1,000 clusters.
const readPlacements = 32

const (
	lockSuffix    = ".lock"
	compactSuffix = ".compact" // the compacted copy until it replaces the database
	// CompactFloor and compactFreeShare: a write that leaves free pages
	// of at least 1/compactFreeShare of a file of at least CompactFloor
	// compacts it. (Half free, the obvious choice, would rarely trigger: the
	// inventory snapshot of a large fleet outweighs every object stored
	// beside it, so deleting them all frees less than half of the file.)
	// A compaction copies the live data, at most compactFreeShare-1 bytes
	// per byte it gives back, and happens only after that much was freed
	// again: deletes, a new inventory snapshot, a migration; for records of
	// the hub's sizes, the pages a write frees by copy-on-write are reused
	// by the next writes.
	CompactFloor     = 1 << 20
	compactFreeShare = 8
	// GrowStep is how much bbolt adds to the file when it needs room (its
	// default, 16 MB, and its power-of-two sizes below that, would make a
	// small state several times larger than its data).
	GrowStep = 256 << 10
	// compactTxSize bounds the transactions that copy data into the compacted file.
	compactTxSize = 16 << 20
	lockRetry     = 10 * time.Millisecond
)

// compactionHook, when set (by the store tests' helper processes), is called
// at each step of a compaction.
var compactionHook func(step string)

// Errors are the hub's, so that callers see the same errors from every hub.
var (
	ErrNotFound           = hub.ErrNotFound
	ErrPreconditionFailed = hub.ErrPreconditionFailed
)

// Open prepares the database at path, creating it and its folder if
// needed, and checks its record format, migrating a database of an earlier
// release (format.go).
func Open(path string) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("mock hub state: %w", err)
		}
	}
	s := &Store{path: path, LockTimeout: 2 * time.Minute, placements: lru.New(readPlacements)}
	// A database of this format opens without a write: reads are reads
	// (designs/hub.md §2), also the first of every provider process.
	if _, err := os.Stat(path); err == nil {
		current := false
		if err := s.View(func(tx *bolt.Tx) error { current = formatCurrent(tx); return nil }); err != nil {
			return nil, err
		}
		if current {
			return s, nil
		}
	}
	err := s.Update(func(tx *bolt.Tx) error {
		// A compacted copy left by a process killed while compacting: the
		// database it was copied from is still in place, with every write.
		if err := os.Remove(path + compactSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("mock hub state: %w", err)
		}
		return checkFormat(tx, path)
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// SetAdvance sets the step every write transaction runs first (the mock
// hub's advance of its simulated world to now, designs/hub.md §2).
func (s *Store) SetAdvance(advance func(tx *bolt.Tx) error) { s.advance = advance }

// Compactions is how many compactions this Store ran.
func (s *Store) Compactions() int { return s.compactions }

// Size is the size of the database file.
func (s *Store) Size() (int64, error) {
	fi, err := os.Stat(s.path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// lock takes the store's lock file, shared or exclusive, waiting up to
// LockTimeout; release gives it back.
func (s *Store) lock(exclusive bool) (release func(), err error) {
	f, err := os.OpenFile(s.path+lockSuffix, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil && !exclusive {
		f, err = os.Open(s.path + lockSuffix) // a read-only folder: a shared lock needs no write access
	}
	if err != nil {
		return nil, fmt.Errorf("mock hub state: %w", err)
	}
	deadline := time.Now().Add(s.LockTimeout)
	for {
		ok, err := tryLock(f, exclusive)
		switch {
		case err != nil:
			_ = f.Close()
			return nil, fmt.Errorf("mock hub state %s: cannot lock %s: %w", s.path, f.Name(), err)
		case ok:
			return func() {
				_ = unlock(f)
				_ = f.Close()
			}, nil
		case time.Now().After(deadline):
			_ = f.Close()
			return nil, s.lockTimeout()
		}
		time.Sleep(lockRetry)
	}
}

func (s *Store) lockTimeout() error {
	return fmt.Errorf("mock hub state %s: another process held the lock for more than %s", s.path, s.LockTimeout)
}

// open opens the database; the caller holds the lock file.
func (s *Store) open(readOnly bool) (*bolt.DB, error) {
	// bbolt also locks the file itself; with the lock file held that only
	// waits for a process that does not take the lock file.
	db, err := bolt.Open(s.path, 0o600, &bolt.Options{Timeout: s.LockTimeout, ReadOnly: readOnly})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, s.lockTimeout()
		}
		return nil, fmt.Errorf("mock hub state %s: %w", s.path, err)
	}
	db.AllocSize = GrowStep
	return db, nil
}

// Update runs fn in one read-write transaction; it commits only if fn
// succeeds. A write that leaves much of the file free compacts it.
func (s *Store) Update(fn func(tx *bolt.Tx) error) error {
	return s.locked(true, func() error {
		compact := false
		err := s.withDB(false, func(db *bolt.DB) error {
			if err := db.Update(func(tx *bolt.Tx) error {
				if s.advance != nil {
					if err := s.advance(tx); err != nil {
						return err
					}
				}
				return fn(tx)
			}); err != nil {
				return err
			}
			compact = s.mostlyFree(db)
			return nil
		})
		if err == nil && compact {
			// Best effort: the write is committed whatever happens here, and a
			// compaction that fails leaves the database as it was; the next
			// write tries again.
			_ = s.compactLocked()
		}
		return err
	})
}

// Simulate runs fn in one read-write transaction that is always rolled
// back: a read of the simulated world advanced to now sees what advancing it
// would write (the Hub's advanceTx), and the database stays as it was. It
// takes the exclusive lock, as a write does.
func (s *Store) Simulate(fn func(tx *bolt.Tx) error) error {
	return s.locked(true, func() error {
		return s.withDB(false, func(db *bolt.DB) error {
			tx, err := db.Begin(true)
			if err != nil {
				return err
			}
			defer func() { _ = tx.Rollback() }()
			return fn(tx)
		})
	})
}

// TxID is the id of the last committed transaction: it changes with every
// write and with nothing else (for tests that a read wrote nothing).
func (s *Store) TxID() (int, error) {
	id := 0
	err := s.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil })
	return id, err
}

// View runs fn in one read-only transaction (a shared lock: readers run together).
func (s *Store) View(fn func(tx *bolt.Tx) error) error {
	return s.locked(false, func() error {
		return s.withDB(true, func(db *bolt.DB) error { return db.View(fn) })
	})
}

// locked runs fn holding the lock file, shared or exclusive.
func (s *Store) locked(exclusive bool, fn func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	release, err := s.lock(exclusive)
	if err != nil {
		return err
	}
	defer release()
	return fn()
}

// withDB opens the database, runs fn with it and closes it; the caller holds
// the lock file.
func (s *Store) withDB(readOnly bool, fn func(db *bolt.DB) error) error {
	db, err := s.open(readOnly)
	if err != nil {
		return err
	}
	err = fn(db)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// mostlyFree tells whether compacting would give back enough of the file
// (CompactFloor, compactFreeShare).
func (s *Store) mostlyFree(db *bolt.DB) bool {
	st, err := os.Stat(s.path)
	if err != nil || st.Size() < CompactFloor {
		return false
	}
	return int64(db.Stats().FreeAlloc)*compactFreeShare >= st.Size()
}

// compactLocked copies the database into a new file without its free pages
// (bolt.Compact keeps every bucket's sequence, so ETags keep counting up) and
// renames it over the database. The caller holds the exclusive lock: no
// other process has the database open, and the next to take the lock opens
// the new file. The copy is complete and synced before the rename, which is
// atomic: a process killed at any point leaves either the old file or the
// new one, each with every committed write, and at worst a partial copy,
// which the next compaction or Open removes.
func (s *Store) compactLocked() error {
	tmp := s.path + compactSuffix
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	st, err := os.Stat(s.path)
	if err != nil {
		return err
	}
	src, err := s.open(true)
	if err != nil {
		return err
	}
	dst, err := bolt.Open(tmp, st.Mode().Perm(), &bolt.Options{Timeout: s.LockTimeout})
	if err != nil {
		_ = src.Close()
		return err
	}
	dst.AllocSize = GrowStep
	hook("copying")
	err = bolt.Compact(dst, src, compactTxSize)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if cerr := src.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	hook("copied")
	if err := os.Rename(tmp, s.path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	hook("renamed")
	syncDir(filepath.Dir(s.path))
	s.compactions++
	return nil
}

func hook(step string) {
	if compactionHook != nil {
		compactionHook(step)
	}
}

// syncDir makes a rename in dir durable; best effort (Windows cannot sync a folder).
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// Record is a stored object with its metadata.
type Record struct {
	ETag       string          `json:"etag"`
	Generation int64           `json:"generation"`
	CreatedAt  time.Time       `json:"created_at"`
	UpdatedAt  time.Time       `json:"updated_at"`
	Body       json.RawMessage `json:"body"`
}

// Precondition guards a write: IfMatch requires the current ETag; IfNoneMatch
// requires that the record does not exist yet.
type Precondition = hub.Precondition

// Meta is the metadata of the object stored in rec under name.
func (rec Record) Meta(name string) hub.Meta {
	return hub.Meta{Name: name, ETag: rec.ETag, Generation: rec.Generation, CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt}
}

// Get reads a record from a bucket.
func (s *Store) Get(bucket, key string) (Record, error) {
	var rec Record
	err := s.View(func(tx *bolt.Tx) error {
		var err error
		rec, err = getRecord(tx, bucket, key)
		return err
	})
	return rec, err
}

func getRecord(tx *bolt.Tx, bucket, key string) (Record, error) {
	var rec Record
	v, err := storedEnvelope(tx, bucket, key)
	if err != nil {
		return rec, err
	}
	if err := jsonv2.Unmarshal(v, &rec); err != nil { // one pass, copying the body (designs/hub.md §6)
		return rec, fmt.Errorf("mock hub state: %s/%s is corrupt: %w", bucket, key, err)
	}
	return rec, nil
}

// storedEnvelope is the envelope stored under bucket/key, valid during tx.
func storedEnvelope(tx *bolt.Tx, bucket, key string) ([]byte, error) {
	b := tx.Bucket([]byte(bucket))
	if b == nil {
		return nil, ErrNotFound
	}
	v := b.Get([]byte(key))
	if v == nil {
		return nil, ErrNotFound
	}
	return v, nil
}

// putTx writes body under bucket/key inside tx, checking pre, and returns the
// new record. Every write gets a new ETag; the generation counts writes of the
// specification (status-only writes, specChanged false, keep it, as in Kubernetes).
func putTx(tx *bolt.Tx, bucket, key string, body any, pre Precondition, now time.Time, specChanged bool) (Record, error) {
	b, err := tx.CreateBucketIfNotExists([]byte(bucket))
	if err != nil {
		return Record{}, err
	}
	old, err := getRecord(tx, bucket, key)
	exists := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Record{}, err
	}
	if err := CheckPrecondition(pre, old, exists); err != nil {
		return Record{}, err
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return Record{}, err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return Record{}, err
	}
	rec := Record{ETag: `"` + strconv.FormatUint(seq, 10) + `"`, Generation: old.Generation, CreatedAt: old.CreatedAt, UpdatedAt: now, Body: raw}
	if specChanged || !exists {
		rec.Generation++
	}
	if !exists {
		rec.CreatedAt = now
	}
	enc, err := json.Marshal(rec)
	if err != nil {
		return Record{}, err
	}
	return rec, b.Put([]byte(key), enc)
}

// CheckPrecondition checks pre against the stored record cur (exists false
// when there is none). Writes check it before anything else, as HTTP
// evaluates preconditions before the request: a stale ETag is reported as
// such even when the write would also be refused for another reason.
func CheckPrecondition(pre Precondition, cur Record, exists bool) error {
	if (pre.IfNoneMatch && exists) || (pre.IfMatch != "" && (!exists || cur.ETag != pre.IfMatch)) {
		return ErrPreconditionFailed
	}
	return nil
}

// DeleteTx removes bucket/key inside tx, checking pre.
func DeleteTx(tx *bolt.Tx, bucket, key string, pre Precondition) error {
	old, err := getRecord(tx, bucket, key)
	if err != nil {
		return err
	}
	if err := CheckPrecondition(pre, old, true); err != nil {
		return err
	}
	return tx.Bucket([]byte(bucket)).Delete([]byte(key))
}

// Keys lists the keys of a bucket in order.
func (s *Store) Keys(bucket string) ([]string, error) {
	var keys []string
	err := s.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			keys = append(keys, string(k))
			return nil
		})
	})
	sort.Strings(keys)
	return keys, err
}
