package nodepool

import (
	"testing"
	"time"
)

// TestHitsBetweenMatchesCronNext checks the bit-field enumeration used by
// Timeline against chained calls of the library's Next.
func TestHitsBetweenMatchesCronNext(t *testing.T) {
	schedules := []string{
		"0 9 * * 1-5", "@daily", "@hourly", "@weekly", "@monthly", "@yearly", "*/15 * * * *", "0 0 29 2 *",
		"0 0 1,15 * mon", "5 4 * * sun", "0 8-18/2 * jan-mar *", "0 0 30 2 *", "59 23 31 * *", "0 12 * * 0,6", "0 0 13 * 5",
	}
	from := time.Date(2023, 12, 20, 10, 30, 15, 500, time.UTC)
	to := from.Add(100 * 24 * time.Hour)
	for _, s := range schedules {
		sched, err := ParseSchedule(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		checkHitsMatchNext(t, s, sched, from, to)
	}
}

func TestLastHit(t *testing.T) {
	tests := []struct {
		schedule string
		lo, hi   string
		want     string // "" means none
	}{
		{"@daily", "2024-01-01 12:00:00", "2024-01-03 12:00:00", "2024-01-03 00:00:00"},
		{"* * * * *", "2024-01-01 00:00:00", "2024-01-03 12:00:30", "2024-01-03 12:00:00"},
		{"*/15 * * * *", "2023-01-01 00:00:00", "2024-01-03 12:14:59", "2024-01-03 12:00:00"},
		{"0 9 * * 1-5", "2024-01-05 17:00:00", "2024-01-08 08:00:00", ""},
		{"0 0 30 2 *", "2020-01-01 00:00:00", "2030-01-01 00:00:00", ""},
		{"0 0 29 2 *", "2020-01-01 00:00:00", "2030-01-01 00:00:00", "2028-02-29 00:00:00"},
	}
	for _, tt := range tests {
		sched, _ := ParseSchedule(tt.schedule)
		got, ok := lastHit(sched, at(t, tt.lo), at(t, tt.hi))
		if tt.want == "" {
			if ok {
				t.Errorf("%q: got %s, want none", tt.schedule, got)
			}
			continue
		}
		if !ok || !got.Equal(at(t, tt.want)) {
			t.Errorf("%q: got %s %v, want %s", tt.schedule, got, ok, tt.want)
		}
	}
}

func TestAnalyzeSchedule(t *testing.T) {
	tests := []struct {
		schedule         string
		fires            bool
		maxGap           time.Duration
		everyDay, weekly bool
	}{
		{"@daily", true, 24 * time.Hour, true, true},
		{"@hourly", true, time.Hour, true, true},
		{"*/15 * * * *", true, 15 * time.Minute, true, true},
		{"0 9 * * 1-5", true, 72 * time.Hour, false, true},
		{"0 0 * * 6", true, 7 * 24 * time.Hour, false, true},
		{"0 2,14 * * *", true, 12 * time.Hour, true, true},
		{"0 0 1 * *", true, 31 * 24 * time.Hour, false, false},
		{"0 0 29 2 *", true, 0, false, false}, // gap checked below
		{"0 0 30 2 *", false, 0, false, false},
		{"0 0 1-31 * *", true, 24 * time.Hour, true, true},
		{"0 0 1-31 * 1", true, 24 * time.Hour, true, true}, // both restricted: either matches
	}
	for _, tt := range tests {
		sched, _ := ParseSchedule(tt.schedule)
		p, ok := analyze(sched)
		if !ok || p.fires != tt.fires || p.everyDay != tt.everyDay || p.weekly != tt.weekly {
			t.Errorf("%q: %+v", tt.schedule, p)
		}
		if tt.maxGap != 0 && p.maxGap != tt.maxGap {
			t.Errorf("%q: maxGap %s, want %s", tt.schedule, p.maxGap, tt.maxGap)
		}
	}
	sched, _ := ParseSchedule("0 0 29 2 *")
	if p, _ := analyze(sched); p.maxGap < 4*365*24*time.Hour {
		t.Errorf("leap day gap %s", p.maxGap)
	}
}
