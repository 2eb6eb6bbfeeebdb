// Package azure is the real hub: Azure Kubernetes Fleet Manager through
// Azure Resource Manager (update strategies, update runs, auto-upgrade
// profiles, gates and members, on the hand-typed wire format of armfleet),
// and the member clusters' facts through the generated armcontainerservice
// SDK (designs/hub.md §9); placements on the fleet hub cluster's Kubernetes
// API and NodePools on the member clusters' (designs/hub.md §10), through
// client-go's dynamic client and the converters of package kube.
//
// The hub stores and executes; it never decides policy. It converts between
// the hub's objects and the wire, and derives what the wire does not carry
// (designs/hub.md §9) from other reads, never from a rule of its own.
package azure

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armclient"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
)

// DefaultUpgradeDuration is the nominal time one member's upgrade takes,
// which previews use to estimate a rollout (the mock hub's default too).
const DefaultUpgradeDuration = 15 * time.Minute

// DefaultConcurrency bounds the requests the inventory sends at once.
const DefaultConcurrency = 16

// Config configures the azure hub.
type Config struct {
	Fleet  armfleet.FleetID
	Client armclient.Options
	// UpgradeDuration estimates one member's upgrade for previews;
	// DefaultUpgradeDuration unless UpgradeDurationSet.
	UpgradeDuration    time.Duration
	UpgradeDurationSet bool
	// Concurrency bounds the inventory's parallel requests; 0 means DefaultConcurrency.
	Concurrency int
	// CredentialDescription names the authentication method for logs (never a secret).
	CredentialDescription string
	// HubCluster is the fleet hub cluster's kubeconfig; nil: the fleet's listCredentials.
	HubCluster *KubeconfigSource
	// MemberClusters are member clusters' kubeconfigs by member name; a
	// member not listed: its managed cluster's user credentials.
	MemberClusters map[string]KubeconfigSource
	// PlacementTimeout bounds the wait for the Fleet scheduler's decisions
	// after a placement is written; 0 means DefaultPlacementTimeout.
	PlacementTimeout time.Duration
}

// Hub is the azure hub.
type Hub struct {
	cfg      Config
	c        *armclient.Client
	inv      *inventory
	clusters *clusters

	mu    sync.Mutex
	fleet *fleet.Fleet // the fleet, read once per provider process (one Terraform operation)
}

var _ hub.Hub = (*Hub)(nil)

// New connects to the fleet: it reads the fleet resource once, so that a
// missing fleet, bad credentials or an unreachable endpoint fail at
// configuration, with one clear error.
func New(ctx context.Context, cfg Config) (*Hub, error) {
	if !cfg.UpgradeDurationSet {
		cfg.UpgradeDuration = DefaultUpgradeDuration
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	c, err := armclient.New(cfg.Fleet, cfg.Client)
	if err != nil {
		return nil, err
	}
	f, err := c.GetFleet(ctx)
	if err != nil {
		if errors.Is(err, hub.ErrNotFound) {
			return nil, fmt.Errorf("the fleet %s does not exist: check subscription_id, resource_group_name and fleet_name", cfg.Fleet)
		}
		return nil, err
	}
	h := &Hub{cfg: cfg, c: c, inv: newInventory(c, cfg.Concurrency, f.Properties.HubProfile != nil)}
	h.clusters = &clusters{h: h}
	if h.inv.hubCluster || cfg.HubCluster != nil {
		h.inv.hubClient = h.clusters.hubCluster
	}
	return h, nil
}

// Now is Resource Manager's clock: the Date of its newest response, so that
// previews evaluate at the service's time (and at the emulated hub's clock
// behind the wire emulator).
func (h *Hub) Now() time.Time {
	if t := h.c.ServerTime(); !t.IsZero() {
		return t
	}
	return time.Now().UTC()
}

// Fleet assembles the fleet from its members, their managed clusters and
// maintenance configurations, and the regions' catalogs; once per process.
func (h *Hub) Fleet(ctx context.Context) (*fleet.Fleet, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fleet != nil {
		return h.fleet, nil
	}
	f, err := h.inv.read(ctx, h.cfg.Client)
	if err != nil {
		return nil, err
	}
	h.fleet = f
	return f, nil
}

// Identity is the configured fleet.
func (h *Hub) Identity() hub.FleetRef {
	return hub.FleetRef{SubscriptionID: h.cfg.Fleet.SubscriptionID, ResourceGroup: h.cfg.Fleet.ResourceGroup, Name: h.cfg.Fleet.Fleet}
}

// UpgradeDuration is the configured estimate of one member's upgrade.
func (h *Hub) UpgradeDuration() time.Duration { return h.cfg.UpgradeDuration }

// Update strategies.

func (h *Hub) GetUpdateStrategy(ctx context.Context, name string) (*hub.UpdateStrategy, error) {
	w, err := h.c.GetUpdateStrategy(ctx, name)
	return convert(w, err, armfleet.UpdateStrategyFromWire)
}

func (h *Hub) PutUpdateStrategy(ctx context.Context, s hub.UpdateStrategy, pre hub.Precondition) (*hub.UpdateStrategy, error) {
	body := armfleet.UpdateStrategy{Properties: armfleet.UpdateStrategyProperties{Strategy: armfleet.StrategyToWire(s.Spec)}}
	w, err := h.c.PutUpdateStrategy(ctx, s.Name, body, pre)
	w, err = adoptRetried(ctx, s.Name, w, err, h.c.GetUpdateStrategy, func(c *armfleet.UpdateStrategy) bool {
		return sameOnWire(armfleet.UpdateStrategyFromWire(*c).Spec, s.Spec, update.StrategyWithDefaults,
			func(s update.Strategy) any { return armfleet.StrategyToWire(s) })
	})
	return convert(w, err, armfleet.UpdateStrategyFromWire)
}

func (h *Hub) DeleteUpdateStrategy(ctx context.Context, name string, pre hub.Precondition) error {
	return deleteExisting(ctx, name, pre, h.c.GetUpdateStrategy, h.c.DeleteUpdateStrategy)
}

// deleteExisting deletes an object that must exist: ARM answers 204 to the
// DELETE of a missing resource, the hub contract ErrNotFound (§7), so an
// unconditional delete reads the object first (one with If-Match fails on a
// missing object anyway).
func deleteExisting[T any](ctx context.Context, name string, pre hub.Precondition,
	get func(context.Context, string) (*T, error), del func(context.Context, string, hub.Precondition) error) error {
	if pre.IfMatch == "" {
		if _, err := get(ctx, name); err != nil {
			return err
		}
	}
	err := del(ctx, name, pre)
	if errors.Is(err, armclient.ErrRetried) && errors.Is(err, hub.ErrNotFound) {
		return nil // the first attempt, whose answer was lost, deleted it
	}
	return err
}

// adoptRetried settles a write whose first attempt's answer was lost and
// whose retry was refused with 412 (it exists already, or its ETag moved):
// when the object now holds what was sent, the first attempt was applied
// and the write succeeded. Anything else stays the refusal — an object that
// someone else changed is never taken for ours.
func adoptRetried[W any](ctx context.Context, name string, w *W, err error,
	get func(context.Context, string) (*W, error), asked func(*W) bool) (*W, error) {
	if !errors.Is(err, armclient.ErrRetried) || !errors.Is(err, hub.ErrPreconditionFailed) {
		return w, err
	}
	if cur, gerr := get(ctx, name); gerr == nil && asked(cur) {
		return cur, nil
	}
	return nil, err
}

// sameOnWire compares two specifications as the service stores them: with
// the engine's defaults, in their wire form (where an empty list and an
// absent one are one value).
func sameOnWire[S any](a, b S, withDefaults func(S) S, wire func(S) any) bool {
	x, errX := json.Marshal(wire(withDefaults(a)))
	y, errY := json.Marshal(wire(withDefaults(b)))
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

// Update runs.

func (h *Hub) GetUpdateRun(ctx context.Context, name string) (*hub.UpdateRun, error) {
	return h.run(ctx)(h.c.GetUpdateRun(ctx, name))
}

func (h *Hub) PutUpdateRun(ctx context.Context, r hub.UpdateRun, pre hub.Precondition) (*hub.UpdateRun, error) {
	body := armfleet.UpdateRun{Properties: armfleet.RunSpecToWire(h.cfg.Fleet, r.Spec)}
	w, err := h.c.PutUpdateRun(ctx, r.Name, body, pre)
	w, err = adoptRetried(ctx, r.Name, w, err, h.c.GetUpdateRun, func(c *armfleet.UpdateRun) bool {
		spec, _ := armfleet.RunSpecFromWire(c.Properties)
		return sameOnWire(spec, r.Spec, update.RunWithDefaults,
			func(s update.RunSpec) any { return armfleet.RunSpecToWire(h.cfg.Fleet, s) })
	})
	return h.run(ctx)(w, err)
}

func (h *Hub) DeleteUpdateRun(ctx context.Context, name string, pre hub.Precondition) error {
	return deleteExisting(ctx, name, pre, h.c.GetUpdateRun, h.c.DeleteUpdateRun)
}

func (h *Hub) StartUpdateRun(ctx context.Context, name string, pre hub.Precondition) (*hub.UpdateRun, error) {
	defer h.invalidate()
	asked := h.Now().Truncate(time.Second)
	w, err := h.c.StartUpdateRun(ctx, name, pre)
	// A run started since we asked is our start, not someone else's.
	w, err = h.settleAction(ctx, name, w, err, func(st update.RunStatus) bool {
		return (st.State == update.StateRunning || st.State == update.StatePending) && !st.StartTime.Before(asked)
	})
	return h.run(ctx)(w, err)
}

func (h *Hub) StopUpdateRun(ctx context.Context, name string, pre hub.Precondition) (*hub.UpdateRun, error) {
	w, err := h.c.StopUpdateRun(ctx, name, pre)
	w, err = h.settleAction(ctx, name, w, err, func(st update.RunStatus) bool {
		return st.State == update.StateStopping || st.State == update.StateStopped
	})
	return h.run(ctx)(w, err)
}

func (h *Hub) SkipUpdateRun(ctx context.Context, name string, targets []update.SkipTarget, pre hub.Precondition) (*hub.UpdateRun, error) {
	w, err := h.c.SkipUpdateRun(ctx, name, armfleet.SkipToWire(targets), pre)
	w, err = h.settleAction(ctx, name, w, err, func(st update.RunStatus) bool { return skipped(st, targets) })
	return h.run(ctx)(w, err)
}

// settleAction settles an action on a run whose first attempt's answer was
// lost and whose retry was refused (412, 409 or 400: the first attempt
// changed the run): when the run now shows the action's effect (done), the
// action succeeded.
func (h *Hub) settleAction(ctx context.Context, name string, w *armfleet.UpdateRun, err error, done func(update.RunStatus) bool) (*armfleet.UpdateRun, error) {
	var conflict *hub.ConflictError
	var invalid *hub.InvalidError
	if !errors.Is(err, armclient.ErrRetried) ||
		!(errors.Is(err, hub.ErrPreconditionFailed) || errors.As(err, &conflict) || errors.As(err, &invalid)) {
		return w, err
	}
	if cur, gerr := h.c.GetUpdateRun(ctx, name); gerr == nil && cur.Properties.Status != nil &&
		done(armfleet.RunStatusFromWire(*cur.Properties.Status)) {
		return cur, nil
	}
	return w, err
}

// skipped tells whether every target is skipped in a run's status.
func skipped(st update.RunStatus, targets []update.SkipTarget) bool {
	state := map[update.SkipTarget]string{}
	for _, s := range st.Stages {
		state[update.SkipTarget{Type: update.TargetStage, Name: s.Name}] = s.State
		state[update.SkipTarget{Type: update.TargetAfterStageWait, Name: s.Name}] = s.AfterStageWait
		for _, g := range s.Groups {
			state[update.SkipTarget{Type: update.TargetGroup, Name: g.Name}] = g.State
			for _, m := range g.Members {
				state[update.SkipTarget{Type: update.TargetMember, Name: m.Name}] = m.State
			}
		}
	}
	for _, t := range targets {
		if state[t] != update.StateSkipped {
			return false
		}
	}
	return true
}

// ApproveUpdateRunGate approves the gates at one position of a run. ARM
// names gates by GUIDs that only the run's status knows (gateId, once the
// run has reached the gate), so the run is read first; its ETag is the
// precondition, as for every other action on the run.
func (h *Hub) ApproveUpdateRunGate(ctx context.Context, name, gate string, pre hub.Precondition) (*hub.UpdateRun, error) {
	w, err := h.c.GetUpdateRun(ctx, name)
	if err != nil {
		return nil, err
	}
	if pre.IfMatch != "" && pre.IfMatch != w.ETag {
		return nil, fmt.Errorf("update run %q: %w", name, hub.ErrPreconditionFailed)
	}
	object := fmt.Sprintf("update run %q", name)
	ids, found := gateIDs(w, gate)
	switch {
	case !found:
		return nil, &hub.InvalidError{Object: object, Reason: fmt.Sprintf("it has no approval gate %q", gate)}
	case len(ids) == 0:
		return nil, &hub.ConflictError{Object: object, Reason: fmt.Sprintf("its approval gate %q is not pending: not reached yet, or already approved or skipped", gate)}
	}
	for _, id := range ids {
		gname, err := armfleet.ChildName(armfleet.Gates, id)
		if err != nil {
			return nil, err
		}
		if _, err := h.c.ApproveGate(ctx, gname, hub.Precondition{}); err != nil {
			return nil, err
		}
	}
	return h.GetUpdateRun(ctx, name)
}

// gateIDs are the ids of the Pending gates at key in a run's status, and
// whether the run's strategy has a gate at key at all.
func gateIDs(w *armfleet.UpdateRun, key string) (ids []string, found bool) {
	at := func(stage, group string, before, after int) {
		found = found || (before > 0 && update.GateKey(stage, group, update.TimingBefore) == key) ||
			(after > 0 && update.GateKey(stage, group, update.TimingAfter) == key)
	}
	if s := w.Properties.Strategy; s != nil {
		for _, st := range s.Stages {
			at(st.Name, "", len(st.BeforeGates), len(st.AfterGates))
			for _, g := range st.Groups {
				at(st.Name, g.Name, len(g.BeforeGates), len(g.AfterGates))
			}
		}
	}
	if w.Properties.Status == nil {
		return nil, found
	}
	pending := func(stage, group string, before, after []armfleet.GateStatusResult) {
		for _, side := range []struct {
			timing string
			gates  []armfleet.GateStatusResult
		}{{update.TimingBefore, before}, {update.TimingAfter, after}} {
			if update.GateKey(stage, group, side.timing) != key {
				continue
			}
			for _, g := range side.gates {
				if g.GateID != "" && g.Status.State == armfleet.GatePending {
					ids = append(ids, g.GateID)
				}
			}
		}
	}
	for _, s := range w.Properties.Status.Stages {
		pending(s.Name, "", s.BeforeGates, s.AfterGates)
		for _, g := range s.Groups {
			pending(s.Name, g.Name, g.BeforeGates, g.AfterGates)
		}
	}
	return ids, found
}

// run converts a wire run, and fills the rules of the profile that
// generated it (the profile's long_term_support), which the wire does not
// carry on the run.
func (h *Hub) run(ctx context.Context) func(*armfleet.UpdateRun, error) (*hub.UpdateRun, error) {
	return func(w *armfleet.UpdateRun, err error) (*hub.UpdateRun, error) {
		if err != nil {
			return nil, err
		}
		r := armfleet.UpdateRunFromWire(*w)
		r.Spec.UpdateStrategyID = h.strategyName(r.Spec.UpdateStrategyID)
		if r.AutoUpgrade != nil {
			p, err := h.c.GetAutoUpgradeProfile(ctx, r.AutoUpgrade.Profile)
			switch {
			case errors.Is(err, hub.ErrNotFound): // deleted since: its rules no longer matter to a preview
			case err != nil:
				return nil, err
			default:
				r.AutoUpgrade.LongTermSupport = p.Properties.LongTermSupport
			}
		}
		return &r, nil
	}
}

// invalidate drops the cached fleet: a started run may change clusters.
func (h *Hub) invalidate() {
	h.mu.Lock()
	h.fleet = nil
	h.mu.Unlock()
}

// Auto-upgrade profiles.

func (h *Hub) GetAutoUpgradeProfile(ctx context.Context, name string) (*hub.AutoUpgradeProfile, error) {
	return h.profile(ctx)(h.c.GetAutoUpgradeProfile(ctx, name))
}

func (h *Hub) PutAutoUpgradeProfile(ctx context.Context, p hub.AutoUpgradeProfile, pre hub.Precondition) (*hub.AutoUpgradeProfile, error) {
	body := armfleet.AutoUpgradeProfile{Properties: armfleet.ProfileSpecToWire(h.cfg.Fleet, p.Spec)}
	w, err := h.c.PutAutoUpgradeProfile(ctx, p.Name, body, pre)
	w, err = adoptRetried(ctx, p.Name, w, err, h.c.GetAutoUpgradeProfile, func(c *armfleet.AutoUpgradeProfile) bool {
		return sameOnWire(armfleet.ProfileFromWire(*c).Spec, p.Spec, update.ProfileWithDefaults,
			func(s update.ProfileSpec) any { return armfleet.ProfileSpecToWire(h.cfg.Fleet, s) })
	})
	return h.profile(ctx)(w, err)
}

func (h *Hub) DeleteAutoUpgradeProfile(ctx context.Context, name string, pre hub.Precondition) error {
	return deleteExisting(ctx, name, pre, h.c.GetAutoUpgradeProfile, h.c.DeleteAutoUpgradeProfile)
}

func (h *Hub) GenerateUpdateRun(ctx context.Context, profile string) (string, error) {
	id, err := h.c.GenerateUpdateRun(ctx, profile)
	if err != nil {
		return "", err
	}
	return armfleet.ChildName(armfleet.UpdateRuns, id)
}

// profile converts a wire profile and finds the runs it generated among the
// fleet's runs (their autoUpgradeProfileId), which the profile does not
// list: oldest first; the last trigger's run is the started run closest to
// the trigger (a run generated on demand is not started).
func (h *Hub) profile(ctx context.Context) func(*armfleet.AutoUpgradeProfile, error) (*hub.AutoUpgradeProfile, error) {
	return func(w *armfleet.AutoUpgradeProfile, err error) (*hub.AutoUpgradeProfile, error) {
		if err != nil {
			return nil, err
		}
		p := armfleet.ProfileFromWire(*w)
		p.Spec.UpdateStrategyID = h.strategyName(p.Spec.UpdateStrategyID)
		runs, err := h.c.ListUpdateRuns(ctx)
		if err != nil {
			return nil, err
		}
		id := h.cfg.Fleet.Child(armfleet.AutoUpgradeProfiles, p.Name)
		var mine []hub.UpdateRun
		for _, r := range runs {
			if strings.EqualFold(r.Properties.AutoUpgradeProfileID, id) {
				mine = append(mine, armfleet.UpdateRunFromWire(r))
			}
		}
		sortByCreation(mine)
		closest := time.Duration(math.MaxInt64)
		for _, r := range mine {
			p.Status.Runs = append(p.Status.Runs, r.Name)
			start := r.Status.StartTime
			if p.Status.LastTriggerStatus != update.TriggerSucceeded || start.IsZero() {
				continue
			}
			// The trigger's run is the one the service started when it
			// fired: the started run closest to the trigger, not before it
			// (by more than the two timestamps may differ).
			d := start.Sub(p.Status.LastTriggeredAt)
			if d < -triggerSkew {
				continue
			}
			if d < 0 {
				d = -d
			}
			if d < closest {
				closest, p.Status.LastRun = d, r.Name
			}
		}
		return &p, nil
	}
}

// strategyName is how the hub reports a strategy reference: Resource Manager
// returns the ARM id of a strategy given by name; a strategy of this fleet
// is reported by its name, as it is written and imported, any other by its id.
func (h *Hub) strategyName(id string) string {
	f, name, err := armfleet.ParseChild(armfleet.UpdateStrategies, id)
	if err != nil || !f.SameFleet(h.cfg.Fleet) {
		return id
	}
	return name
}

// convert applies a wire-to-hub conversion to a client result.
func convert[W, H any](w *W, err error, f func(W) H) (*H, error) {
	if err != nil {
		return nil, err
	}
	h := f(*w)
	return &h, nil
}

// triggerSkew is how far a triggered run's start may precede the trigger's
// recorded time (the service stamps them separately).
const triggerSkew = time.Minute

// sortByCreation orders runs oldest first, by name among equals.
func sortByCreation(runs []hub.UpdateRun) {
	slices.SortStableFunc(runs, func(a, b hub.UpdateRun) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.Name, b.Name))
	})
}
