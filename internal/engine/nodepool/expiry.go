package nodepool

import (
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
// expireAfter is the NodePool's template.expire_after: "Never" (or an
// unparseable value) yields no expiries; "" means the default 720h.
func Expiring(nodes []Node, expireAfter string, now time.Time, within time.Duration) []Expiry {
	if expireAfter == "" {
		expireAfter = DefaultExpireAfter
	}
	if expireAfter == Never {
		return nil
	}
	ttl, err := time.ParseDuration(expireAfter)
	if err != nil {
		return nil
	}
	now = now.UTC()
	horizon := now.Add(within)
	var out []Expiry
	for _, n := range nodes {
		if n.MarkedForDeletion {
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

// Expiring is the package-level Expiring with the pool's expireAfter (after
// defaults).
func (np NodePool) Expiring(nodes []Node, now time.Time, within time.Duration) []Expiry {
	return Expiring(nodes, *WithDefaults(np).Template.ExpireAfter, now, within)
}
