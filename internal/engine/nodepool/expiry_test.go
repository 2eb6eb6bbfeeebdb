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
