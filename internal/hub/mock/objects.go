package mock

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// getObject reads the hub object stored under name in its own
// transaction, converted from its record by object.
func getObject[R, O any](s *store.Store, bucket, name string, object func(*R, hub.Meta) *O) (*O, error) {
	r, rec, err := store.Load[R](s, bucket, name)
	if err != nil {
		return nil, err
	}
	return object(r, rec.Meta(name)), nil
}

// ListNames lists the names of a collection of the fleet — updateStrategies,
// updateRuns or autoUpgradeProfiles, as ARM names them — sorted, in the
// world advanced to now (a run an auto-upgrade trigger started is listed
// before any write stores it). The wire emulator answers ARM's LISTs with
// it (armemu.Lister).
func (h *Hub) ListNames(ctx context.Context, collection string) ([]string, error) {
	switch collection {
	case store.BucketStrategies, store.BucketRuns, store.BucketProfiles:
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
