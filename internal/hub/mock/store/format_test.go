package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// rawDB writes buckets of raw values into a new bbolt file, as another
// release or another program would have left it.
func rawDB(t *testing.T, buckets map[string]map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		for name, kv := range buckets {
			b, err := tx.CreateBucket([]byte(name))
			if err != nil {
				return err
			}
			for k, v := range kv {
				if err := b.Put([]byte(k), []byte(v)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// rawValue reads one value straight from the file; "" when it has none.
func rawValue(t *testing.T, path, bucket, key string) string {
	t.Helper()
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v string
	_ = db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte(bucket)); b != nil {
			v = string(b.Get([]byte(key)))
		}
		return nil
	})
	return v
}

const clockValue = `{"start":"2027-01-01T00:00:00Z","scale":60,"anchor":"2026-11-21T12:00:00Z"}`

func TestFormatVersion(t *testing.T) {
	for _, tc := range []struct {
		name    string
		buckets map[string]map[string]string
		// wantErr are fragments of the error; none means the store opens.
		wantErr []string
	}{
		{name: "a new database is stamped"},
		{name: "an unversioned database without objects is stamped",
			buckets: map[string]map[string]string{BucketMeta: {"clock": clockValue}}},
		{name: "the current version opens",
			buckets: map[string]map[string]string{BucketMeta: {FormatKey: strconv.Itoa(FormatVersion), "clock": clockValue}}},
		{name: "an earlier version without objects is migrated",
			buckets: map[string]map[string]string{BucketMeta: {FormatKey: "1", "clock": clockValue}}},
		{name: "the previous version without objects is migrated",
			buckets: map[string]map[string]string{BucketMeta: {FormatKey: strconv.Itoa(FormatVersion - 1), "clock": clockValue}}},
		{name: "a newer version is refused",
			buckets: map[string]map[string]string{BucketMeta: {FormatKey: strconv.Itoa(FormatVersion + 1)}},
			wantErr: []string{fmt.Sprintf("format version %d", FormatVersion+1), fmt.Sprintf("reads version %d at most", FormatVersion), "a newer version of the provider wrote it"}},
		{name: "a version that is not a number is refused",
			buckets: map[string]map[string]string{BucketMeta: {FormatKey: "v1"}},
			wantErr: []string{`format version "v1" is not a version this provider knows`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "new", "state.db")
			if tc.buckets != nil {
				path = rawDB(t, tc.buckets)
			}
			before := rawValue(t, path, BucketMeta, FormatKey)
			_, err := Open(path)
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				if got := rawValue(t, path, BucketMeta, FormatKey); got != strconv.Itoa(FormatVersion) {
					t.Fatalf("format %q after opening, want %d", got, FormatVersion)
				}
				if tc.buckets[BucketMeta]["clock"] != "" && rawValue(t, path, BucketMeta, "clock") != clockValue {
					t.Fatal("the clock anchor changed")
				}
				return
			}
			for _, want := range tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("error %v, want it to say %q", err, want)
				}
			}
			if got := rawValue(t, path, BucketMeta, FormatKey); got != before {
				t.Fatalf("a refused database was changed: format %q, was %q", got, before)
			}
		})
	}
}
