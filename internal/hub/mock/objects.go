package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// Buckets of hub objects.
const (
	bucketPlacements  = "placements"
	bucketStrategies  = "updateStrategies"
	bucketRuns        = "updateRuns"
	bucketRunEvents   = "updateRunEvents"
	bucketProfiles    = "autoUpgradeProfiles"
	bucketNodePools   = "nodePools"
	bucketUpgrades    = "upgrades"
	nodePoolKeySep    = "/"
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

// loadTx reads bucket/key and decodes its body, a record of type R.
func loadTx[R any](tx *bolt.Tx, bucket, key string) (*R, Record, error) {
	if err := checkRecordType[R](bucket); err != nil {
		return nil, Record{}, err
	}
	rec, err := getRecord(tx, bucket, key)
	if err != nil {
		return nil, Record{}, err
	}
	body := new(R)
	if err := json.Unmarshal(rec.Body, body); err != nil {
		return nil, Record{}, fmt.Errorf("mock hub state: %s/%s is corrupt: %w", bucket, key, err)
	}
	return body, rec, nil
}

// saveTx writes body, a record of type R, under bucket/key and returns the new envelope.
func saveTx[R any](tx *bolt.Tx, bucket, key string, body *R, pre Precondition, now time.Time, specChanged bool) (Record, error) {
	if err := checkRecordType[R](bucket); err != nil {
		return Record{}, err
	}
	return putTx(tx, bucket, key, body, pre, now, specChanged)
}

// get reads one record in its own transaction.
func get[R any](s *Store, bucket, key string) (*R, Record, error) {
	var body *R
	var rec Record
	err := s.View(func(tx *bolt.Tx) error {
		var err error
		body, rec, err = loadTx[R](tx, bucket, key)
		return err
	})
	return body, rec, err
}

// objectRecord is a record type that converts to hub object type O.
type objectRecord[R, O any] interface {
	*R
	object(m hub.Meta) *O
}

// getObject reads the hub object stored under name in its own transaction.
func getObject[O, R any, PR objectRecord[R, O]](s *Store, bucket, name string) (*O, error) {
	r, rec, err := get[R](s, bucket, name)
	if err != nil {
		return nil, err
	}
	return PR(r).object(rec.meta(name)), nil
}

// put stores a record with a new specification in its own transaction.
func put[R any](s *Store, bucket, key string, body *R, pre Precondition, now time.Time) (Record, error) {
	if err := checkName(key); err != nil {
		return Record{}, err
	}
	var rec Record
	err := s.Update(func(tx *bolt.Tx) error {
		var err error
		rec, err = saveTx(tx, bucket, key, body, pre, now, true)
		return err
	})
	return rec, err
}

func del(s *Store, bucket, key string, pre Precondition) error {
	return s.Update(func(tx *bolt.Tx) error { return DeleteTx(tx, bucket, key, pre) })
}

func checkName(name string) error {
	if name == "" || len(name) > maxObjectNameSize {
		return fmt.Errorf("invalid object name %q", name)
	}
	return nil
}

// ListNames lists the names of a collection of the fleet — updateStrategies,
// updateRuns or autoUpgradeProfiles, as ARM names them — sorted, in the
// world advanced to now (a run an auto-upgrade trigger started is listed
// before any write stores it). The wire emulator answers ARM's LISTs with
// it (armemu.Lister).
func (h *Hub) ListNames(ctx context.Context, collection string) ([]string, error) {
	switch collection {
	case bucketStrategies, bucketRuns, bucketProfiles:
	default:
		return nil, fmt.Errorf("the mock hub has no collection %q", collection)
	}
	var names []string
	err := h.readTx(ctx, func(tx *bolt.Tx, _ *fleet.Fleet) error {
		b := tx.Bucket([]byte(collection))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			names = append(names, string(k))
			return nil
		})
	})
	return names, err // bbolt iterates in key order
}
