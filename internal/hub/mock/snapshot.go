package mock

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/gob"
	"encoding/hex"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/inventory"
	bolt "go.etcd.io/bbolt"
)

// inventorySnapshot is a decoded inventory kept in the state database.
// Unlike the hub objects it is a cache: it is stored with gob, and never
// migrated, only replaced.
type inventorySnapshot struct {
	Raw   *inventory.Document
	Epoch time.Time
}

// snapshotKey is the cache key of an inventory document: a digest of the
// document and of the Go types of inventorySnapshot. gob matches fields by
// name and drops those it cannot match, so a snapshot written by a build
// whose types differ would decode into a silently incomplete inventory; with
// the types in the key, such a snapshot is never read, and the next command
// parses the file again.
func snapshotKey(data []byte) string {
	h := sha256.New()
	h.Write([]byte(snapshotSchema()))
	h.Write([]byte{0})
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

var snapshotSchema = sync.OnceValue(func() string {
	return typeShape(reflect.TypeFor[inventorySnapshot](), map[reflect.Type]bool{})
})

var binaryMarshalerType = reflect.TypeFor[encoding.BinaryMarshaler]()

// typeShape describes the shape of t as gob sees it: field names and kinds,
// recursively. Types that encode themselves (time.Time) count by name.
func typeShape(t reflect.Type, seen map[reflect.Type]bool) string {
	if t.Implements(binaryMarshalerType) || reflect.PointerTo(t).Implements(binaryMarshalerType) {
		return t.String()
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return t.Kind().String() + " " + typeShape(t.Elem(), seen)
	case reflect.Map:
		return "map[" + typeShape(t.Key(), seen) + "]" + typeShape(t.Elem(), seen)
	case reflect.Struct:
		if seen[t] {
			return t.String()
		}
		seen[t] = true
		var b strings.Builder
		b.WriteString("{")
		for i := range t.NumField() {
			f := t.Field(i)
			b.WriteString(f.Name + " " + typeShape(f.Type, seen) + "; ")
		}
		b.WriteString("}")
		return b.String()
	}
	return t.Kind().String()
}

// cachedInventory returns the snapshot stored under key, if any decodes.
func (h *Hub) cachedInventory(key string) (inventorySnapshot, bool) {
	var snap inventorySnapshot
	found := false
	_ = h.store.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketInventoryCache))
		if b == nil {
			return nil
		}
		if v := b.Get([]byte(key)); v != nil {
			found = gob.NewDecoder(bytes.NewReader(v)).Decode(&snap) == nil && snap.Raw != nil
		}
		return nil
	})
	return snap, found
}

// pendingSnapshot is a decoded inventory that no write stored yet.
type pendingSnapshot struct {
	key  string
	snap inventorySnapshot
}

// putSnapshotTx replaces the stored snapshot with snap under key.
func putSnapshotTx(tx *bolt.Tx, key string, snap inventorySnapshot) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(snap); err != nil {
		return err
	}
	_ = tx.DeleteBucket([]byte(bucketInventoryCache))
	b, err := tx.CreateBucket([]byte(bucketInventoryCache))
	if err != nil {
		return err
	}
	return b.Put([]byte(key), buf.Bytes())
}
