package placement

import (
	"slices"
	"sync"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// What a hub keeps of a scheduling cycle, and when it runs one again: the
// mock hub and the test fixture that plays Fleet's scheduler on a real API
// server (internal/emulator/fleetsim) keep and report the same.

// FulfilledMessage is the message of Fleet's ClusterResourcePlacementScheduled
// condition when the policy is fulfilled (Fleet's own wording).
const FulfilledMessage = "found all cluster needed as specified by the scheduling policy"

// FleetFingerprint digests what scheduling depends on: each member's
// labels, taints, properties, resource usage, eligibility at now, and
// whether it is leaving the fleet. Fleet's
// scheduler runs again for a placement when a member changes; a hub that
// schedules lazily runs it again when the fingerprint changes. It is an
// explicit key (fleet.Digest): a hub stores it, and no field name or
// encoding of the fleet's types is part of it.
func FleetFingerprint(f *fleet.Fleet, now time.Time) string {
	return FleetFingerprintWith(nil, f, now)
}

// MemberFacts are what FleetFingerprint writes of each member of a fleet
// besides its eligibility and whether it is leaving: the facts that do not
// change with the clock. A hub whose fleets at successive instants differ
// only in times and in what scheduling does not read (Kubernetes versions,
// node pools) computes them once and fingerprints each of those fleets with
// them (FleetFingerprintWith). They also keep the last fingerprint they
// gave for their own members, with each member's eligibility and leaving
// then: a later fleet whose members are all the same again has it.
type MemberFacts struct {
	names []string
	facts []fleet.Part

	mu     sync.Mutex
	states []memberState // of the last fingerprint of these members
	last   string
}

// memberState is what a fleet fingerprint reads of a member at an instant.
type memberState struct{ eligible, leaving bool }

// FleetMemberFacts are f's members' facts.
func FleetMemberFacts(f *fleet.Fleet) *MemberFacts {
	m := &MemberFacts{names: make([]string, len(f.Clusters)), facts: make([]fleet.Part, len(f.Clusters))}
	for i := range f.Clusters {
		c := &f.Clusters[i]
		m.names[i] = c.Name
		m.facts[i] = fleet.NewPart(func(d *fleet.Digest) { writeMemberFacts(d, c) })
	}
	return m
}

// FleetFingerprintWith is FleetFingerprint(f, now), reading each member's
// facts from m (FleetMemberFacts of an earlier fleet of the hub's whose
// members have the same facts) where m has the member at the same place,
// else from f.
func FleetFingerprintWith(m *MemberFacts, f *fleet.Fleet, now time.Time) string {
	states := make([]memberState, len(f.Clusters))
	mine := m != nil && len(m.names) == len(f.Clusters) // every member at its place in m
	for i := range f.Clusters {
		c := &f.Clusters[i]
		// a held cluster leaving goes, an ineligible one stays (leftFleet)
		states[i] = memberState{fleet.CheckEligibility(c, now).Eligible, c.Agent.Leaving}
		mine = mine && m.names[i] == c.Name
	}
	if mine {
		m.mu.Lock()
		defer m.mu.Unlock()
		if slices.Equal(states, m.states) {
			return m.last
		}
	}
	d := fleet.NewDigest("placement.FleetFingerprint/2")
	d.Int(int64(len(f.Clusters)))
	for i := range f.Clusters {
		c := &f.Clusters[i]
		if m != nil && i < len(m.names) && m.names[i] == c.Name {
			d.Part(m.facts[i])
		} else {
			writeMemberFacts(d, c)
		}
		d.Bool(states[i].eligible)
		d.Bool(states[i].leaving)
	}
	fp := d.Sum()
	if mine {
		m.states, m.last = states, fp
	}
	return fp
}

// writeMemberFacts writes what a fleet fingerprint covers of c besides its
// eligibility and whether it is leaving.
func writeMemberFacts(d *fleet.Digest, c *fleet.Cluster) {
	d.String(c.Name)
	d.Map(c.Labels)
	d.Int(int64(len(c.Taints)))
	for _, t := range c.Taints {
		d.String(t.Key)
		d.String(t.Value)
		d.String(t.Effect)
	}
	d.Map(c.Properties)
	// 1000m and 1 are one quantity (1Gi and 1073741824 are two: one extra cycle)
	d.Quantities(c.Usage.Capacity)
	d.Quantities(c.Usage.Allocatable)
	d.Quantities(c.Usage.Available)
}

// StoredDecisions are the decisions of a cycle a hub keeps, bounded as
// Fleet bounds a policy snapshot's status: every selected cluster's, with
// the score recorded when it was picked (the next scale-in ranks by it),
// then at most DefaultPreviewLimit (Fleet's 20) clusters left out — the ones
// Preview lists, in its order — however large the fleet. Preview of the
// stored decisions, at that limit or below, lists what Preview of the whole
// cycle lists.
func StoredDecisions(decisions []Decision) []Decision {
	pv := Preview(Result{Decisions: decisions}, DefaultPreviewLimit)
	return append(append(make([]Decision, 0, len(pv.Selected)+len(pv.LeftOut)), pv.Selected...), pv.LeftOut...)
}
