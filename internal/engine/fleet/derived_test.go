package fleet

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

func TestDerive(t *testing.T) {
	count := func(f *Fleet, key string, calls *atomic.Int32) int {
		return Derive(f, key, func() int { return int(calls.Add(1)) })
	}

	t.Run("a fleet that is not shared computes every time", func(t *testing.T) {
		var calls atomic.Int32
		f := &Fleet{}
		count(f, "k", &calls)
		count(f, "k", &calls)
		count(nil, "k", &calls)
		if calls.Load() != 3 {
			t.Fatalf("built %d times, want 3", calls.Load())
		}
	})

	t.Run("a shared fleet computes each key once, also for concurrent callers", func(t *testing.T) {
		var calls atomic.Int32
		f := &Fleet{}
		f.Share()
		var wg sync.WaitGroup
		got := make([]int, 16)
		for i := range got {
			wg.Go(func() { got[i] = count(f, "k", &calls) })
		}
		wg.Wait()
		for _, v := range got {
			if v != 1 {
				t.Fatalf("got %v, want every caller to see the first build", got)
			}
		}
		if count(f, "other", &calls) != 2 || calls.Load() != 2 {
			t.Fatalf("another key: built %d times in all, want 2", calls.Load())
		}
	})

	t.Run("at most MaxDerived values are kept, the oldest goes first", func(t *testing.T) {
		var calls atomic.Int32
		f := &Fleet{}
		f.Share()
		for i := range MaxDerived + 1 {
			count(f, strconv.Itoa(i), &calls)
		}
		if n := len(f.derived.byKey); n != MaxDerived {
			t.Fatalf("%d values kept, want %d", n, MaxDerived)
		}
		count(f, strconv.Itoa(MaxDerived), &calls) // newest: kept
		count(f, "0", &calls)                      // oldest: built again
		if want := int32(MaxDerived + 2); calls.Load() != want {
			t.Fatalf("built %d times, want %d", calls.Load(), want)
		}
	})
}
