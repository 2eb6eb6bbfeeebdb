package fleet

import "sync"

// Derived data (designs/hub.md §8). A hub builds a fleet once per provider
// process and every resource and data source of a Terraform operation reads
// that one snapshot; what the engines compute from it alone — a property's
// values over every cluster, a placement's scheduling decisions — is then
// the same for every caller, and is computed once for all of them.
//
// The engines stay pure functions of their inputs: a derived value is keyed
// by everything it depends on besides the fleet, and a fleet that is not
// shared (a test's literal, a fleet never marked) computes it every time.

// MaxDerived bounds the values kept per fleet; the oldest goes first. A
// placement's decisions over 5,000 clusters take about half a megabyte.
const MaxDerived = 64

type derived struct {
	mu    sync.Mutex
	byKey map[string]*derivedValue
	order []string // keys, oldest first
}

type derivedValue struct {
	once sync.Once
	v    any
}

// Share marks f as a snapshot that is no longer changed and is read by many
// callers: from now on Derive computes each value once. A hub calls it on
// the fleet it hands out.
func (f *Fleet) Share() {
	if f.derived == nil {
		f.derived = &derived{byKey: map[string]*derivedValue{}}
	}
}

// Shared tells whether f was marked shared: whether Derive remembers.
func (f *Fleet) Shared() bool { return f != nil && f.derived != nil }

// Derive returns build's result for key, computed once per shared fleet
// (concurrent callers of the same key wait for the first), or computed now
// when f is not shared. build must depend only on f and on what key names,
// and callers must not modify what it returns.
func Derive[T any](f *Fleet, key string, build func() T) T {
	if f == nil || f.derived == nil {
		return build()
	}
	d := f.derived
	d.mu.Lock()
	v, ok := d.byKey[key]
	if !ok {
		if len(d.order) >= MaxDerived {
			delete(d.byKey, d.order[0])
			d.order = d.order[1:]
		}
		v = &derivedValue{}
		d.byKey[key] = v
		d.order = append(d.order, key)
	}
	d.mu.Unlock()
	v.once.Do(func() { v.v = build() })
	return v.v.(T)
}
