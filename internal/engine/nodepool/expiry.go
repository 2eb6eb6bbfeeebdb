package nodepool

import (
	"cmp"
	"sort"
	"time"
)

// Expiry is a node that expires, and when.
type Expiry struct {
	Node Node
	// At is CreatedAt + expireAfter. Expiration is forceful: budgets and
	// do-not-disrupt do not delay it (draining is bounded by the
	// terminationGracePeriod, if any).
	At time.Time
	// Overdue is true when At is not after now: the node is already expired
	// and Karpenter is, or will immediately be, replacing it.
	Overdue bool
}

// Expiring returns the nodes whose expiration time (CreatedAt + expireAfter)
// falls before now+within, sorted by time then name. Nodes already past
// their expiration are included and marked Overdue. Nodes marked for
// deletion are skipped (they are already going away).
//
// Each node expires by its own NodeClaim's expireAfter (Node.ExpireAfter),
// as Karpenter's expiration controller reads it: the claim keeps the value
// the pool had when it launched the node, so a pool whose expire_after
// changed replaces its nodes by drift, not by the new expiry. A node whose
// own value is not known ("") expires by expireAfter, the NodePool's
// template.expire_after ("" means the default 720h). "Never" (or an
// unparseable value) yields no expiry.
func Expiring(nodes []Node, expireAfter string, now time.Time, within time.Duration) []Expiry {
	if expireAfter == "" {
		expireAfter = DefaultExpireAfter
	}
	now = now.UTC()
	horizon := now.Add(within)
	var out []Expiry
	for _, n := range nodes {
		if n.MarkedForDeletion {
			continue
		}
		ttl, ok := expiresAfter(cmp.Or(n.ExpireAfter, expireAfter))
		if !ok {
			continue
		}
		at := n.CreatedAt.UTC().Add(ttl)
		if at.Before(horizon) {
			out = append(out, Expiry{Node: n, At: at, Overdue: !at.After(now)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].Node.Name < out[j].Node.Name
	})
	return out
}

// expiresAfter is an expireAfter value as a duration; false for "Never" or a
// value that does not parse (no expiry).
func expiresAfter(v string) (time.Duration, bool) {
	if v == Never {
		return 0, false
	}
	d, err := time.ParseDuration(v)
	return d, err == nil
}

// Expiring is the package-level Expiring with the pool's expireAfter (after
// defaults).
func (np NodePool) Expiring(nodes []Node, now time.Time, within time.Duration) []Expiry {
	return Expiring(nodes, *WithDefaults(np).Template.ExpireAfter, now, within)
}
