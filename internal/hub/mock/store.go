package mock

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Store is the mock hub's persistent state: a bbolt database file.
//
// bbolt gives crash safety (copy-on-write pages, fsync on commit: a process
// killed in the middle of a write leaves the last committed state) but allows
// one writer process at a time through a file lock. Terraform runs several
// provider processes (plan, apply, refresh, tests in parallel), so the store
// opens the file for each operation and closes it right after, waiting for
// the lock up to LockTimeout; every read-modify-write happens inside one
// transaction, so concurrent writers never lose each other's changes.
type Store struct {
	path string
	// LockTimeout bounds how long an operation waits for another process.
	LockTimeout time.Duration
	mu          sync.Mutex // serialises this process's own operations
}

// Errors are the hub's, so that callers see the same errors from every hub.
var (
	ErrNotFound           = hub.ErrNotFound
	ErrPreconditionFailed = hub.ErrPreconditionFailed
)

// OpenStore prepares the database at path, creating it and its folder if
// needed, and checks its record format, migrating a database of an earlier
// release (format.go).
func OpenStore(path string) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("mock hub state: %w", err)
		}
	}
	s := &Store{path: path, LockTimeout: 2 * time.Minute}
	if err := s.Update(func(tx *bolt.Tx) error { return checkFormat(tx, path) }); err != nil {
		return nil, err
	}
	return s, nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

func (s *Store) open(readOnly bool) (*bolt.DB, error) {
	db, err := bolt.Open(s.path, 0o600, &bolt.Options{Timeout: s.LockTimeout, ReadOnly: readOnly})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("mock hub state %s: another process held the lock for more than %s", s.path, s.LockTimeout)
		}
		return nil, fmt.Errorf("mock hub state %s: %w", s.path, err)
	}
	return db, nil
}

// Update runs fn in one read-write transaction; it commits only if fn succeeds.
func (s *Store) Update(fn func(tx *bolt.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	db, err := s.open(false)
	if err != nil {
		return err
	}
	err = db.Update(fn)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// View runs fn in one read-only transaction (a shared lock: readers run together).
func (s *Store) View(fn func(tx *bolt.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	db, err := s.open(true)
	if err != nil {
		return err
	}
	err = db.View(fn)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
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
	b := tx.Bucket([]byte(bucket))
	if b == nil {
		return rec, ErrNotFound
	}
	v := b.Get([]byte(key))
	if v == nil {
		return rec, ErrNotFound
	}
	if err := json.Unmarshal(v, &rec); err != nil {
		return rec, fmt.Errorf("mock hub state: %s/%s is corrupt: %w", bucket, key, err)
	}
	return rec, nil
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
	if err := checkPrecondition(pre, old, exists); err != nil {
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

// checkPrecondition checks pre against the stored record cur (exists false
// when there is none). Writes check it before anything else, as HTTP
// evaluates preconditions before the request: a stale ETag is reported as
// such even when the write would also be refused for another reason.
func checkPrecondition(pre Precondition, cur Record, exists bool) error {
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
	if err := checkPrecondition(pre, old, true); err != nil {
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
