package nodepool

import (
	"testing"
	"time"
)

func TestExpiring(t *testing.T) {
	now := at(t, "2024-01-10 12:00:00")
	nodes := []Node{
		{Name: "fresh", CreatedAt: at(t, "2024-01-10 00:00:00"), Ready: true},
		{Name: "b-old", CreatedAt: at(t, "2024-01-04 00:00:00"), Ready: true},
		{Name: "a-old", CreatedAt: at(t, "2024-01-04 00:00:00"), Ready: true},
		{Name: "overdue", CreatedAt: at(t, "2024-01-01 00:00:00"), Ready: true, DoNotDisrupt: true},
		{Name: "deleting", CreatedAt: at(t, "2024-01-01 00:00:00"), MarkedForDeletion: true},
		{Name: "edge", CreatedAt: at(t, "2024-01-10 12:00:00"), Ready: true}, // expires exactly at now+within: excluded
	}
	tests := []struct {
		name        string
		expireAfter string
		within      time.Duration
		want        []string
		wantAt      []string
	}{
		{"168h over 7 days", "168h", 7 * 24 * time.Hour, []string{"overdue", "a-old", "b-old", "fresh"},
			[]string{"2024-01-08 00:00:00", "2024-01-11 00:00:00", "2024-01-11 00:00:00", "2024-01-17 00:00:00"}},
		{"168h over 1 day", "168h", 24 * time.Hour, []string{"overdue", "a-old", "b-old"}, nil},
		{"Never", "Never", 7 * 24 * time.Hour, nil, nil},
		{"default 720h", "", 21 * 24 * time.Hour, []string{"overdue"}, []string{"2024-01-31 00:00:00"}},
		{"invalid", "1d", 7 * 24 * time.Hour, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Expiring(nodes, tt.expireAfter, now, tt.within)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d expiries %+v, want %v", len(got), got, tt.want)
			}
			for i, e := range got {
				if e.Node.Name != tt.want[i] {
					t.Errorf("[%d] = %s, want %s", i, e.Node.Name, tt.want[i])
				}
				if tt.wantAt != nil && !e.At.Equal(at(t, tt.wantAt[i])) {
					t.Errorf("[%d] at %s, want %s", i, e.At, tt.wantAt[i])
				}
				if e.Overdue != (tt.expireAfter == "168h" && e.Node.Name == "overdue") {
					t.Errorf("[%d] overdue = %v", i, e.Overdue)
				}
			}
		})
	}
	if got := (NodePool{}).Expiring(nodes, now, 21*24*time.Hour); len(got) != 1 || got[0].Node.Name != "overdue" {
		t.Errorf("pool default expireAfter: %+v", got)
	}
}

// TestExpiringByTheClaimsOwnExpireAfter: Karpenter's expiration controller
// (pkg/controllers/nodeclaim/expiration, v1.14.1) expires a NodeClaim at its
// creation + its own spec.expireAfter, which the claim took from the pool's
// template when it was launched; a pool whose expire_after changed since
// replaces those nodes by drift, not by the new expiry.
func TestExpiringByTheClaimsOwnExpireAfter(t *testing.T) {
	now := at(t, "2024-01-10 12:00:00")
	created := at(t, "2024-01-01 00:00:00")
	nodes := []Node{
		{Name: "launched-at-720h", CreatedAt: created, Ready: true, ExpireAfter: "720h"},
		{Name: "launched-at-168h", CreatedAt: created, Ready: true, ExpireAfter: "168h"},
		{Name: "launched-never", CreatedAt: created, Ready: true, ExpireAfter: Never},
		{Name: "unknown", CreatedAt: created, Ready: true}, // its own value not known: the pool's
	}
	got := Expiring(nodes, "216h", now, 30*24*time.Hour)
	want := []struct {
		name, at string
		overdue  bool
	}{
		{"launched-at-168h", "2024-01-08 00:00:00", true},
		{"unknown", "2024-01-10 00:00:00", true},
		{"launched-at-720h", "2024-01-31 00:00:00", false},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		if got[i].Node.Name != w.name || !got[i].At.Equal(at(t, w.at)) || got[i].Overdue != w.overdue {
			t.Errorf("[%d] = %s at %s overdue %v; want %+v", i, got[i].Node.Name, got[i].At, got[i].Overdue, w)
		}
	}
	// The pool's Never does not keep a node launched with a lifetime.
	if got := Expiring(nodes, Never, now, 30*24*time.Hour); len(got) != 2 || got[0].Node.Name != "launched-at-168h" {
		t.Errorf("pool Never: %+v", got)
	}
}
