package store

import (
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"
)

// FormatVersion is the version of the record format (records.go) this code
// reads and writes. It is stored in the database under BucketMeta/FormatKey.
//
// Version 1 is the first one stored. Databases of earlier releases carry no
// version and name their fields after the Go fields of the hub types; they
// are migrated when opened (migrate.go).
//
// Version 2 changed what two NodePool values mean (upgradeV1): a taint's
// `"value": ""` was an omitted value and is now an explicit empty one, and
// an omitted disruption block is now null instead of an object of nulls.
//
// Version 3 bounds a placement's stored decisions as Fleet bounds its status
// (upgradeV2): the selected clusters and at most 20 left out, where version
// 2 kept a decision for every cluster of the fleet.
//
// Version 4 adds what auto-upgrade triggering keeps (upgradeV3): a run
// records the profile that generated it, a profile the key its channel last
// resolved to; and a profile's node_image_selection_type is named
// node_image_selection.
//
// Version 5 stores NodePools in Karpenter's wire form, and update
// strategies and auto-upgrade profiles in Resource Manager's (upgradeV4,
// wire.go), no longer in the engine's encoding, whose keys are Terraform's
// attribute names.
//
// Version 6 stores placements in Fleet's vocabulary, update runs in
// Resource Manager's wire form and their histories in the mock's own
// record form (upgradeV5, wire.go); a run's status, which every read
// computes, is no longer stored. No body holds the engine's encoding.
const FormatVersion = 6

const FormatKey = "format"

// BucketMeta holds what describes the database itself: its format version,
// and the mock hub's clock settings.
const BucketMeta = "meta"

// formatCurrent tells whether the database has this provider's format:
// opening it then needs no write.
func formatCurrent(tx *bolt.Tx) bool {
	meta := tx.Bucket([]byte(BucketMeta))
	return meta != nil && string(meta.Get([]byte(FormatKey))) == strconv.Itoa(FormatVersion)
}

// checkFormat runs when the store is opened, in the same transaction as any
// migration, so a database is either fully migrated or untouched. A database
// written by a newer provider is refused rather than read with fields this
// code does not know, which the next write would drop.
func checkFormat(tx *bolt.Tx, path string) error {
	meta, err := tx.CreateBucketIfNotExists([]byte(BucketMeta))
	if err != nil {
		return err
	}
	v := meta.Get([]byte(FormatKey))
	from := 0 // unversioned
	if v != nil {
		n, err := strconv.Atoi(string(v))
		switch {
		case err != nil || n < 1:
			return fmt.Errorf("mock hub state %s: format version %q is not a version this provider knows; the file is not a mock hub state", path, v)
		case n > FormatVersion:
			return fmt.Errorf("mock hub state %s has format version %d, but this provider reads version %d at most: "+
				"a newer version of the provider wrote it; upgrade the provider, or set another state_path", path, n, FormatVersion)
		case n == FormatVersion:
			return nil
		}
		from = n
	}
	if err := migrate(tx, from); err != nil {
		return fmt.Errorf("mock hub state %s was written by an earlier release and cannot be migrated: %w; "+
			"delete the file to start from an empty hub", path, err)
	}
	return meta.Put([]byte(FormatKey), []byte(strconv.Itoa(FormatVersion)))
}
