package mock

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

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
	nodePoolKeySep    = "/"
	maxObjectNameSize = 253
)

// metaObject is a hub object: a struct embedding hub.Meta.
type metaObject[T any] interface {
	*T
	ObjectMeta() *hub.Meta
}

// loadTx reads an object and fills its metadata from the record.
func loadTx[T any, PT metaObject[T]](tx *bolt.Tx, bucket, key string) (*T, error) {
	rec, err := getRecord(tx, bucket, key)
	if err != nil {
		return nil, err
	}
	obj := new(T)
	if err := json.Unmarshal(rec.Body, obj); err != nil {
		return nil, fmt.Errorf("mock hub state: %s/%s is corrupt: %w", bucket, key, err)
	}
	setMeta(PT(obj).ObjectMeta(), rec)
	return obj, nil
}

func setMeta(m *hub.Meta, rec Record) {
	m.ETag, m.Generation, m.CreatedAt, m.UpdatedAt = rec.ETag, rec.Generation, rec.CreatedAt, rec.UpdatedAt
}

// saveTx writes an object and updates its metadata from the new record.
func saveTx[T any, PT metaObject[T]](tx *bolt.Tx, bucket, key string, obj PT, pre Precondition, now time.Time, specChanged bool) error {
	rec, err := putTx(tx, bucket, key, obj, pre, now, specChanged)
	if err != nil {
		return err
	}
	setMeta(obj.ObjectMeta(), rec)
	return nil
}

// get reads one object in its own transaction.
func get[T any, PT metaObject[T]](s *Store, bucket, key string) (*T, error) {
	var obj *T
	err := s.View(func(tx *bolt.Tx) error {
		var err error
		obj, err = loadTx[T, PT](tx, bucket, key)
		return err
	})
	return obj, err
}

// put stores an object's specification in its own transaction.
func put[T any, PT metaObject[T]](s *Store, bucket, key string, obj PT, pre Precondition, now time.Time) (*T, error) {
	if err := checkName(key); err != nil {
		return nil, err
	}
	err := s.Update(func(tx *bolt.Tx) error { return saveTx[T](tx, bucket, key, obj, pre, now, true) })
	if err != nil {
		return nil, err
	}
	return (*T)(obj), nil
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
