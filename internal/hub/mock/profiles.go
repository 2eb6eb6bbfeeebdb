package mock

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// Auto-upgrade profiles (designs/updates.md §5). When a profile triggers is
// the engine's decision (update.ProfileTriggers); the hub keeps what the
// channel last resolved to and creates and starts the runs.

// GetAutoUpgradeProfile reads an auto-upgrade profile, after any trigger
// due at the hub's clock, with the runs it generated.
func (h *Hub) GetAutoUpgradeProfile(ctx context.Context, name string) (*hub.AutoUpgradeProfile, error) {
	var out *hub.AutoUpgradeProfile
	err := h.readTx(ctx, func(tx *bolt.Tx, _ *fleet.Fleet) error {
		r, rec, err := store.LoadTx[store.Profile](tx, store.BucketProfiles, name)
		if err != nil {
			return err
		}
		out = profileObject(r, rec.Meta(name))
		out.Status.Runs, err = profileRunsTx(tx, name)
		return err
	})
	return out, err
}

// profileRunsTx lists the existing runs profile generated, oldest first.
func profileRunsTx(tx *bolt.Tx, profile string) ([]string, error) {
	b := tx.Bucket([]byte(store.BucketRuns))
	if b == nil {
		return nil, nil
	}
	type run struct {
		name string
		at   time.Time
	}
	var runs []run
	err := b.ForEach(func(k, _ []byte) error {
		r, rec, err := store.LoadTx[store.Run](tx, store.BucketRuns, string(k))
		if err != nil {
			return err
		}
		if r.AutoUpgrade != nil && r.AutoUpgrade.Profile == profile {
			runs = append(runs, run{string(k), rec.CreatedAt})
		}
		return nil
	})
	// Oldest first; ForEach's order of names (profile-<instant>[-n]) breaks ties.
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].at.Before(runs[j].at) })
	var out []string
	for _, r := range runs {
		out = append(out, r.name)
	}
	return out, err
}

// PutAutoUpgradeProfile creates or replaces an auto-upgrade profile, keeping
// its trigger history. Its channel starts from what it resolves to now:
// releases made before this write (or while it was disabled) never trigger it.
func (h *Hub) PutAutoUpgradeProfile(ctx context.Context, p hub.AutoUpgradeProfile, pre store.Precondition) (*hub.AutoUpgradeProfile, error) {
	if err := store.CheckName(p.Name); err != nil {
		return nil, err
	}
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, err
	}
	now := h.Now()
	r := &store.Profile{Spec: p.Spec, Trigger: &store.ProfileTrigger{Key: update.ResolveProfile(p.Spec, f.Regions, now).Key(), At: now}}
	var rec store.Record
	err = h.store.Update(func(tx *bolt.Tx) error {
		// Its strategy must exist, as for a run (the service resolves the id).
		if _, err := resolveStrategyTx(tx, "auto-upgrade profile "+p.Name, update.RunSpec{UpdateStrategyID: p.Spec.UpdateStrategyID}); err != nil {
			return err
		}
		old, _, err := store.LoadTx[store.Profile](tx, store.BucketProfiles, p.Name)
		switch {
		case err == nil:
			r.Status = old.Status
			if old.Trigger != nil && !update.ProfileRetargets(old.Spec, p.Spec) {
				r.Trigger = old.Trigger // a release due now still triggers it
			}
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		rec, err = store.SaveTx(tx, store.BucketProfiles, p.Name, r, pre, now, true)
		return err
	})
	if err != nil {
		return nil, err
	}
	return profileObject(r, rec.Meta(p.Name)), nil
}

// DeleteAutoUpgradeProfile removes a profile. Runs it generated stay.
func (h *Hub) DeleteAutoUpgradeProfile(_ context.Context, name string, pre store.Precondition) error {
	return store.Delete(h.store, store.BucketProfiles, name, pre)
}

// GenerateUpdateRun creates, without starting it, the run the profile's
// channel calls for now: a full upgrade to the channel's target version, or
// a node-image upgrade for the NodeImage channel.
func (h *Hub) GenerateUpdateRun(ctx context.Context, profile string) (string, error) {
	f, err := h.Fleet(ctx)
	if err != nil {
		return "", err
	}
	now := h.Now()
	var name string
	err = h.store.Update(func(tx *bolt.Tx) error {
		p, _, err := store.LoadTx[store.Profile](tx, store.BucketProfiles, profile)
		if err != nil {
			return err
		}
		res := update.ResolveProfile(p.Spec, f.Regions, now)
		if res.Err != "" {
			return &hub.InvalidError{Object: "auto-upgrade profile " + profile, Reason: "its channel resolves to nothing now: " + res.Err}
		}
		name, err = createProfileRunTx(tx, profile, p.Spec, res, now)
		return err
	})
	if err != nil {
		return "", err
	}
	return name, nil
}

// createProfileRunTx creates the run profile generates at resolution res
// (not started), named after the instant res.At, and returns its name.
func createProfileRunTx(tx *bolt.Tx, profile string, spec update.ProfileSpec, res update.Resolution, now time.Time) (string, error) {
	u, _ := update.ProfileUpdate(spec, res)
	r := &store.Run{Spec: update.RunSpec{UpdateStrategyID: spec.UpdateStrategyID, ManagedClusterUpdate: u},
		Status:      update.RunStatus{State: update.StateNotStarted},
		AutoUpgrade: &update.AutoUpgrade{Profile: profile, LongTermSupport: spec.LongTermSupport}}
	var err error
	if r.ResolvedStrategy, err = resolveStrategyTx(tx, "auto-upgrade profile "+profile, r.Spec); err != nil {
		return "", err
	}
	// Every call creates a new run, as the service does. Runs are named
	// after the instant, and a fixed or fast clock gives several the same
	// one: those get a counter.
	base := generatedRunName(profile, res.At)
	for n := 1; ; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		_, err := store.SaveTx(tx, store.BucketRuns, name, r, store.Precondition{IfNoneMatch: true}, now, true)
		if !errors.Is(err, store.ErrPreconditionFailed) {
			return name, err
		}
	}
}

// generatedRunName names a run a profile generates at t:
// <profile>-<YYYYMMDD-HHMMSS>, the profile's name cut so that the run's name,
// with a counter ("-99") when several share the instant, stays within the
// name rule's length (update.MaxNameLength).
func generatedRunName(profile string, t time.Time) string {
	stamp := t.UTC().Format("20060102-150405")
	if room := update.MaxNameLength - len(stamp) - len("--99"); len(profile) > room {
		profile = strings.TrimRight(profile[:room], "-")
	}
	return profile + "-" + stamp
}

// fireTriggersTx fires, inside tx, the auto-upgrade triggers due at now
// over f (the fleet at now), oldest first; a trigger's members are those
// of the fleet at its own instant (doc built then, members upgrading for
// upgrade each). It
// reports whether it fired any. A write stores them (advanceTx); a read
// sees them in a transaction it rolls back.
func fireTriggersTx(tx *bolt.Tx, doc *inventoryDoc, f *fleet.Fleet, now time.Time, upgrade time.Duration) (bool, error) {
	fired := false
	for range maxTriggersPerRead {
		name, res, ok, err := nextTriggerTx(tx, f, now)
		if err != nil || !ok {
			return fired, err
		}
		then, err := buildTx(tx, doc, res.At, upgrade)
		if err != nil {
			return fired, err
		}
		if err := fireTriggerTx(tx, name, res, then, now); err != nil {
			return fired, err
		}
		fired = true
	}
	return fired, nil
}

// fireTriggerTx fires profile name's trigger res with the members of then
// (the fleet at res.At).
func fireTriggerTx(tx *bolt.Tx, name string, res update.Resolution, then *fleet.Fleet, now time.Time) error {
	p, _, err := store.LoadTx[store.Profile](tx, store.BucketProfiles, name)
	if err != nil {
		return err
	}
	p.Status = update.ProfileStatus{LastTriggeredAt: res.At, LastTriggerUpgradeVersions: res.UpgradeVersions()}
	run, err := createProfileRunTx(tx, name, p.Spec, res, now)
	var invalid *hub.InvalidError
	switch {
	case errors.As(err, &invalid): // e.g. its strategy was deleted: the trigger fails
		p.Status.LastTriggerStatus, p.Status.LastTriggerError = update.TriggerFailed, invalid.Reason
	case err != nil:
		return err
	default:
		ev := store.RunEvent{Action: update.ActionStart, At: res.At, Members: update.Members(then)}
		if _, err := store.SaveTx(tx, store.BucketRunEvents, run, &store.RunEvents{Events: []store.RunEvent{ev}}, store.Precondition{}, now, true); err != nil {
			return err
		}
		p.Status.LastTriggerStatus, p.Status.LastRun = update.TriggerSucceeded, run
	}
	p.Trigger = &store.ProfileTrigger{Key: res.Key(), At: res.At}
	_, err = store.SaveTx(tx, store.BucketProfiles, name, p, store.Precondition{}, now, false) // the spec is unchanged: same generation
	return err
}

// maxTriggersPerRead bounds the triggers one advance fires (the rest wait for the next).
const maxTriggersPerRead = 50

// nextTriggerTx is the oldest trigger due at now over all enabled profiles.
func nextTriggerTx(tx *bolt.Tx, f *fleet.Fleet, now time.Time) (name string, res update.Resolution, ok bool, err error) {
	err = forEachProfileTx(tx, func(n string, p *store.Profile, rec store.Record) error {
		if due := profileTriggersOf(p, rec, f, now); len(due) > 0 && (!ok || due[0].At.Before(res.At)) {
			name, res, ok = n, due[0], true
		}
		return nil
	})
	return name, res, ok, err
}

// profilesStoredTx tells whether any auto-upgrade profile is stored.
func profilesStoredTx(tx *bolt.Tx) bool {
	b := tx.Bucket([]byte(store.BucketProfiles))
	if b == nil {
		return false
	}
	k, _ := b.Cursor().First()
	return k != nil
}

// profileTriggersOf are the triggers of stored profile p due at now. A
// format-3 record has no trigger state: it starts from its last write.
func profileTriggersOf(p *store.Profile, rec store.Record, f *fleet.Fleet, now time.Time) []update.Resolution {
	last := p.Trigger
	if last == nil {
		last = &store.ProfileTrigger{Key: update.ResolveProfile(p.Spec, f.Regions, rec.UpdatedAt).Key(), At: rec.UpdatedAt}
		p.Trigger = last
	}
	return update.ProfileTriggers(p.Spec, f.Regions, last.Key, last.At, now)
}

func forEachProfileTx(tx *bolt.Tx, fn func(name string, p *store.Profile, rec store.Record) error) error {
	b := tx.Bucket([]byte(store.BucketProfiles))
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, _ []byte) error {
		p, rec, err := store.LoadTx[store.Profile](tx, store.BucketProfiles, string(k))
		if err != nil {
			return err
		}
		return fn(string(k), p, rec)
	})
}
