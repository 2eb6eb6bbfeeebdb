package nodepool

import (
	"testing"
	"time"
)

// The budget fuzz test: random budget designs (scheduled and not, every kind
// of cron field, durations from 0m to a month, reasons, malformed nodes and
// schedules that fail closed), pool sizes up to beyond int32, start times
// from 2000 to 2120 (leap days, year ends, the five-year cron horizon) and
// spans up to 31 days. For each, checkTimeline compares Timeline with direct
// evaluation — Karpenter's GetAllowedDisruptionsByReason and the subtraction
// of disrupting nodes, as EvaluateBudgets/AllowedDisruptions do them — at
// every change point: each interval bound, and each schedule hit h and
// h+duration in the span, with the second before each.
//
// `go test` runs the seed corpus below (fast); `go test -fuzz FuzzTimeline
// ./internal/engine/nodepool` explores further.

// Choices the fuzzer's bytes pick from, per budget field.
var (
	fuzzNodes     = []string{"0", "1", "3", "10%", "50%", "100%", "2147483647", "0%", "x"}
	fuzzMinutes   = []string{"0", "*/15", "30", "0,30", "5-10", "45"}
	fuzzHours     = []string{"*", "0", "9", "*/6", "22", "8-18/2", "23"}
	fuzzDoms      = []string{"*", "1", "29", "30", "31", "28-31", "15"}
	fuzzMonths    = []string{"*", "2", "12", "1,7", "*/3", "2,3"}
	fuzzDows      = []string{"*", "0", "1-5", "6", "mon,wed,fri", "sun"}
	fuzzMacros    = []string{"@daily", "@hourly", "@weekly", "@monthly", "@yearly", "@midnight", "@annually", "0 0 * * 7"}
	fuzzDurations = []string{"0m", "1m", "10m", "1h", "8h", "48h", "1h30m", "744h", "25h"}
	fuzzReasons   = [][]string{nil, {}, {"Drifted"}, {"Empty", "Underutilized"}, {"Underutilized"}}
)

// fuzzBudgets decodes up to five budgets, eight bytes each.
func fuzzBudgets(design []byte) []Budget {
	pick := func(list []string, b byte) string { return list[int(b)%len(list)] }
	var out []Budget
	for len(design) >= 8 && len(out) < 5 {
		b := design[:8]
		design = design[8:]
		var budget Budget
		if b[0]%10 != 9 { // else nodes unset: the default 10%
			budget.Nodes = new(pick(fuzzNodes, b[0]))
		}
		budget.Reasons = fuzzReasons[int(b[1]>>4)%len(fuzzReasons)]
		switch b[1] % 4 {
		case 1, 2:
			budget.Schedule = new(pick(fuzzMinutes, b[2]) + " " + pick(fuzzHours, b[3]) + " " + pick(fuzzDoms, b[4]) + " " +
				pick(fuzzMonths, b[5]) + " " + pick(fuzzDows, b[6]))
			budget.Duration = new(pick(fuzzDurations, b[7]))
		case 3:
			budget.Schedule = new(pick(fuzzMacros, b[2]))
			budget.Duration = new(pick(fuzzDurations, b[7]))
		}
		out = append(out, budget)
	}
	return out
}

// fuzzDesign encodes budgets for the seed corpus: each budget is its eight
// choice bytes (see fuzzBudgets).
func fuzzDesign(budgets ...[8]byte) []byte {
	var out []byte
	for _, b := range budgets {
		out = append(out, b[:]...)
	}
	return out
}

var fuzzEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// fuzzMinutesSince is the fuzzer's encoding of t.
func fuzzMinutesSince(t time.Time) uint32 { return uint32(t.Sub(fuzzEpoch) / time.Minute) }

func FuzzTimeline(f *testing.F) {
	at := func(s string) uint32 { return fuzzMinutesSince(at(f, s)) }
	const day = 24 * 60
	// Business hours: 10%, and 0 on weekdays 09:00 for 8h.
	f.Add(fuzzDesign([8]byte{3}, [8]byte{0, 1, 0, 2, 0, 0, 2, 4}), uint32(20), uint16(0), at("2024-01-01 00:00:00"), uint16(7*day))
	// The leap day of 2096 with duration 0m: active from the hit, the next
	// hit (2104) lying beyond cron's five-year horizon.
	f.Add(fuzzDesign([8]byte{0, 1, 0, 1, 2, 1, 0, 0}), uint32(10), uint16(0), at("2096-02-28 12:00:00"), uint16(2*day))
	// ... and where the horizon reaches 2104 again (2099-01-01).
	f.Add(fuzzDesign([8]byte{0, 1, 0, 1, 2, 1, 0, 0}, [8]byte{1}), uint32(10), uint16(1), at("2098-12-30 00:00:00"), uint16(3*day))
	// Leap day with a long window, month ends, a pool beyond int32.
	f.Add(fuzzDesign([8]byte{5}, [8]byte{1, 0x21, 0, 1, 2, 1, 0, 5}, [8]byte{3, 0x12, 0, 1, 5, 0, 0, 3}), uint32(3_000_000_000), uint16(7),
		at("2024-02-26 00:00:00"), uint16(7*day))
	// Malformed nodes fail closed only inside the window; a day-of-week 7
	// schedule fails closed everywhere.
	f.Add(fuzzDesign([8]byte{8, 1, 1, 3, 0, 0, 0, 3}, [8]byte{4}), uint32(40), uint16(2), at("2030-06-01 00:00:00"), uint16(2*day))
	f.Add(fuzzDesign([8]byte{0, 3, 7, 0, 0, 0, 0, 3}, [8]byte{4}), uint32(40), uint16(2), at("2030-06-01 00:00:00"), uint16(day))
	// Macros, dense quarter hours, reasons, a default budget, a month span.
	f.Add(fuzzDesign([8]byte{1, 0x33, 0, 0, 0, 0, 0, 2}, [8]byte{2, 0x41, 1, 0, 0, 0, 0, 1}, [8]byte{9, 0x20}, [8]byte{6, 0x13, 4, 0, 0, 0, 0, 7}),
		uint32(33), uint16(3), at("2027-12-30 20:00:00"), uint16(31*day))
	// Year end and yearly macro with a 744h window.
	f.Add(fuzzDesign([8]byte{0, 3, 4, 0, 0, 0, 0, 7}, [8]byte{4, 0x10}), uint32(12), uint16(0), at("2031-12-31 23:00:00"), uint16(3*day))

	f.Fuzz(func(t *testing.T, design []byte, total uint32, disrupting uint16, fromMinutes uint32, spanMinutes uint16) {
		budgets := fuzzBudgets(design)
		from := fuzzEpoch.Add(time.Duration(fromMinutes%(120*366*day)) * time.Minute)
		span := time.Duration(1+int(spanMinutes)%(31*day)) * time.Minute
		n := int(total)
		checkTimeline(t, budgets, n, min(int(disrupting), n), from, span)
	})
}
