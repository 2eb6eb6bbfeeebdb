package store

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	bolt "go.etcd.io/bbolt"
)

// Buckets of hub objects.
const (
	BucketPlacements  = "placements"
	BucketStrategies  = "updateStrategies"
	BucketRuns        = "updateRuns"
	BucketRunEvents   = "updateRunEvents"
	BucketProfiles    = "autoUpgradeProfiles"
	BucketNodePools   = "nodePools"
	BucketUpgrades    = "upgrades"
	maxObjectNameSize = 253
)

// checkRecordType refuses to read or write a body of type R in bucket unless
// recordTypes says the bucket holds R: a type missing from recordTypes would
// escape the tag test and the migration.
func checkRecordType[R any](bucket string) error {
	if want, got := recordTypes[bucket], reflect.TypeFor[R](); want != got {
		return fmt.Errorf("mock hub: bucket %s holds %v records, not %v", bucket, want, got)
	}
	return nil
}

// LoadTx reads bucket/key and decodes its body, a record of type R, in
// the pass that reads its envelope: a record type with a stored form of its
// own reads it from there (Placement.UnmarshalJSONFrom) or from its bytes
// (UnmarshalJSON, wire.go). The Record it returns has no Body.
func LoadTx[R any](tx *bolt.Tx, bucket, key string) (*R, Record, error) {
	if err := checkRecordType[R](bucket); err != nil {
		return nil, Record{}, err
	}
	v, err := storedEnvelope(tx, bucket, key)
	if err != nil {
		return nil, Record{}, err
	}
	return decodeEnvelope[R](bucket, key, v)
}

// decodeEnvelope decodes v, the envelope stored under bucket/key, with its
// body as an R.
func decodeEnvelope[R any](bucket, key string, v []byte) (*R, Record, error) {
	var env envelopeOf[R]
	if err := jsonv2.Unmarshal(v, &env); err != nil || env.Body == nil {
		if err == nil {
			err = errors.New("no body")
		}
		return nil, Record{}, fmt.Errorf("mock hub state: %s/%s is corrupt: %w", bucket, key, err)
	}
	return env.Body, Record{ETag: env.ETag, Generation: env.Generation, CreatedAt: env.CreatedAt, UpdatedAt: env.UpdatedAt}, nil
}

// envelopeOf is a stored envelope (Record) with its body read as R.
type envelopeOf[R any] struct {
	ETag       string    `json:"etag"`
	Generation int64     `json:"generation"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	Body       *R        `json:"body"`
}

// SaveTx writes body, a record of type R, under bucket/key and returns the new envelope.
func SaveTx[R any](tx *bolt.Tx, bucket, key string, body *R, pre Precondition, now time.Time, specChanged bool) (Record, error) {
	if err := checkRecordType[R](bucket); err != nil {
		return Record{}, err
	}
	return putTx(tx, bucket, key, body, pre, now, specChanged)
}

// Load reads one record in its own transaction.
func Load[R any](s *Store, bucket, key string) (*R, Record, error) {
	var body *R
	var rec Record
	err := s.View(func(tx *bolt.Tx) error {
		var err error
		body, rec, err = LoadTx[R](tx, bucket, key)
		return err
	})
	return body, rec, err
}

// LoadPlacement reads a placement in its own transaction, as Load does,
// without decoding again the bytes it decoded last: a placement of 1,000
// clusters is 270 KB a read would decode to replay its rollout to another
// instant (wait_for_rollout polls it; a command reads it, then plans it).
// The store keeps the stored form it read of each of the placements it read
// last (readPlacements), as an informer keeps the objects it watched, by
// the bytes stored: a write, from this process or another, is new bytes.
// Every read builds its own Placement from it (Placement.fromWire shares
// nothing a caller could change).
func LoadPlacement(s *Store, name string) (*Placement, Record, error) {
	var p *Placement
	var rec Record
	err := s.View(func(tx *bolt.Tx) error {
		v, err := storedEnvelope(tx, BucketPlacements, name)
		if err != nil {
			return err
		}
		read, _ := s.placements.Get(name)
		last, _ := read.(*placementRead)
		if last == nil || !bytes.Equal(last.stored, v) {
			w, r, err := decodeEnvelope[placementRead](BucketPlacements, name, v)
			if err != nil {
				return err
			}
			last = &placementRead{stored: bytes.Clone(v), rec: r, wire: w.wire}
			s.placements.Add(name, last)
		}
		p, rec = new(Placement), last.rec
		return p.fromWire(last.wire)
	})
	return p, rec, err
}

// ForgetReads drops the stored forms LoadPlacement keeps: the store then
// reads as a new provider process's does.
func (s *Store) ForgetReads() { s.placements.Clear() }

// placementRead is a stored placement as LoadPlacement keeps it: its
// envelope's bytes, the envelope and the body's stored form.
type placementRead struct {
	stored []byte
	rec    Record
	wire   placementWire
}

// UnmarshalJSONFrom reads the body as Placement.UnmarshalJSONFrom does.
func (r *placementRead) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return jsonv2.UnmarshalDecode(dec, &r.wire, strict)
}

// Save stores a record with a new specification in its own transaction.
func Save[R any](s *Store, bucket, key string, body *R, pre Precondition, now time.Time) (Record, error) {
	if err := CheckName(key); err != nil {
		return Record{}, err
	}
	var rec Record
	err := s.Update(func(tx *bolt.Tx) error {
		var err error
		rec, err = SaveTx(tx, bucket, key, body, pre, now, true)
		return err
	})
	return rec, err
}

func Delete(s *Store, bucket, key string, pre Precondition) error {
	return s.Update(func(tx *bolt.Tx) error { return DeleteTx(tx, bucket, key, pre) })
}

// CheckName refuses a key no object may have.
func CheckName(name string) error {
	if name == "" || len(name) > maxObjectNameSize {
		return fmt.Errorf("invalid object name %q", name)
	}
	return nil
}
