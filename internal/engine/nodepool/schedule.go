package nodepool

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// schedulePattern is the CRD's OpenAPI pattern for budgets[].schedule, i.e.
// what the Kubernetes API server admits. It is deliberately loose (it admits
// time zones, seconds and day-of-week 7); ParseSchedule is the real test.
var schedulePattern = regexp.MustCompile(`^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\s(.+)\s(.+)\s(.+)\s(.+))$`)

// ParseSchedule parses a budget schedule exactly as Karpenter evaluates it:
// cron.ParseStandard("TZ=UTC " + schedule). Because Karpenter prefixes the
// time zone itself, a schedule with its own TZ= or CRON_TZ= prefix fails to
// parse, just as it does in Karpenter (which then blocks all disruption).
func ParseSchedule(schedule string) (cron.Schedule, error) {
	return cron.ParseStandard("TZ=UTC " + schedule)
}

// checkSchedule validates a schedule and returns the rule it breaks and how to
// fix it, or ok. It accepts exactly what both the API server (the CRD
// pattern) and Karpenter (ParseSchedule) accept.
func checkSchedule(s string) (rule, fix string, ok bool) {
	const std = "Use a standard 5-field cron expression (minute hour day-of-month month day-of-week, in UTC) or one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly"
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, "TZ=") || strings.HasPrefix(trimmed, "CRON_TZ=") {
		return fmt.Sprintf("schedule %q has a time zone prefix, which Karpenter does not support (it evaluates every schedule in UTC and would block all disruption)", s),
			"Remove the prefix and express the schedule in UTC", false
	}
	if !schedulePattern.MatchString(s) {
		return fmt.Sprintf("schedule %q is not a cron expression", s), std + ".", false
	}
	if _, err := ParseSchedule(s); err != nil {
		// The messages are ours: robfig/cron's errors name strconv and its
		// own internals.
		fields := strings.Fields(trimmed)
		switch {
		case strings.HasPrefix(trimmed, "@"):
			return fmt.Sprintf("schedule %q is not a supported macro", s), std + ".", false
		case len(fields) == 6:
			return fmt.Sprintf("schedule %q has 6 fields; a seconds field is not supported", s), std + ".", false
		case len(fields) != 5:
			return fmt.Sprintf("schedule %q has %d fields, expected 5", s, len(fields)), std + ".", false
		}
		pr, found := diagnoseCron(fields)
		switch {
		case !found:
			return fmt.Sprintf("schedule %q is not a valid cron expression", s), std + ".", false
		case pr.kind == cronOutOfRange && pr.field.name == "day-of-week" && pr.value == 7:
			return fmt.Sprintf("schedule %q uses day-of-week 7, which Karpenter rejects (Kubernetes admits it, then Karpenter blocks all disruption)", s),
				"Use 0 (or sun) for Sunday; day-of-week is 0-6 or sun-sat", false
		case pr.kind == cronWrapping:
			return fmt.Sprintf("schedule %q has a wrapping range (%q in the %s field), which Karpenter rejects (Kubernetes admits it, then Karpenter blocks all disruption)", s, pr.expr, pr.field.name),
				"Write a wrapping range as a list, e.g. sat,sun or 6,0", false
		case pr.kind == cronOutOfRange:
			return fmt.Sprintf("schedule %q: %d in the %s field (%q) is outside %d-%d", s, pr.value, pr.field.name, pr.expr, pr.field.min, pr.field.max), std + ".", false
		case pr.kind == cronZeroStep:
			return fmt.Sprintf("schedule %q: the step of %q in the %s field must be a positive number", s, pr.expr, pr.field.name), std + ".", false
		case pr.kind == cronBadShape:
			return fmt.Sprintf("schedule %q: %q in the %s field is not a value, a range (a-b) or a step (*/n, a/n or a-b/n)", s, pr.expr, pr.field.name), std + ".", false
		default: // cronNotNumber
			what := fmt.Sprintf("a number from %d to %d", pr.field.min, pr.field.max)
			if pr.field.example != "" {
				what += " or a name such as " + pr.field.example
			}
			return fmt.Sprintf("schedule %q: %q in the %s field is not %s", s, pr.word, pr.field.name, what), std + ".", false
		}
	}
	return "", "", true
}

// cronField is a field of a standard cron expression as robfig/cron parses
// it: its bounds and the names it takes.
type cronField struct {
	name     string
	min, max uint
	names    map[string]uint
	example  string
}

var cronFields = []cronField{
	{name: "minute", min: 0, max: 59},
	{name: "hour", min: 0, max: 23},
	{name: "day-of-month", min: 1, max: 31},
	{name: "month", min: 1, max: 12, example: "jan", names: map[string]uint{
		"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}},
	{name: "day-of-week", min: 0, max: 6, example: "sun", names: map[string]uint{
		"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}},
}

type cronProblemKind int

const (
	cronNotNumber  cronProblemKind = iota // a value that is neither a number nor a name
	cronBadShape                          // more than one '-' or '/'
	cronZeroStep                          // a step of 0
	cronOutOfRange                        // a value outside the field's bounds
	cronWrapping                          // a range whose start is after its end
)

// cronProblem is the first thing robfig/cron rejects in a schedule.
type cronProblem struct {
	kind  cronProblemKind
	field cronField
	expr  string // the comma-separated part at fault
	word  string // the value that is not a number (cronNotNumber)
	value uint   // the value out of range (cronOutOfRange)
}

// diagnoseCron finds what robfig/cron rejects in a 5-field schedule, by
// reading the fields as its getField and getRange do, in the same order.
func diagnoseCron(fields []string) (cronProblem, bool) {
	for i, f := range cronFields {
		for _, expr := range strings.FieldsFunc(fields[i], func(r rune) bool { return r == ',' }) {
			if pr, bad := diagnoseCronRange(f, expr); bad {
				return pr, true
			}
		}
	}
	return cronProblem{}, false
}

func diagnoseCronRange(f cronField, expr string) (cronProblem, bool) {
	pr := cronProblem{field: f, expr: expr}
	number := func(word string, names map[string]uint) (uint, bool) {
		if n, ok := names[strings.ToLower(word)]; ok {
			return n, true
		}
		n, err := strconv.Atoi(word)
		if err != nil || n < 0 {
			pr.kind, pr.word = cronNotNumber, word
			return 0, false
		}
		return uint(n), true
	}
	rangeAndStep := strings.Split(expr, "/")
	lowAndHigh := strings.Split(rangeAndStep[0], "-")
	var start, end uint
	var ok bool
	if lowAndHigh[0] == "*" || lowAndHigh[0] == "?" {
		start, end = f.min, f.max
	} else {
		if start, ok = number(lowAndHigh[0], f.names); !ok {
			return pr, true
		}
		switch len(lowAndHigh) {
		case 1:
			end = start
		case 2:
			if end, ok = number(lowAndHigh[1], f.names); !ok {
				return pr, true
			}
		default:
			pr.kind = cronBadShape
			return pr, true
		}
	}
	step := uint(1)
	switch len(rangeAndStep) {
	case 1:
	case 2:
		if step, ok = number(rangeAndStep[1], nil); !ok {
			return pr, true
		}
		if len(lowAndHigh) == 1 {
			end = f.max // "n/step" means n-max/step
		}
	default:
		pr.kind = cronBadShape
		return pr, true
	}
	switch {
	case start < f.min:
		pr.kind, pr.value = cronOutOfRange, start
	case end > f.max:
		pr.kind, pr.value = cronOutOfRange, end
	case start > end:
		pr.kind = cronWrapping
	case step == 0:
		pr.kind = cronZeroStep
	default:
		return cronProblem{}, false
	}
	return pr, true
}

// budgetDurationPattern is the CRD pattern for budgets[].duration: minutes
// and hours only, with an optional trailing "0s" (time.Duration.String
// output).
var budgetDurationPattern = regexp.MustCompile(`^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$`)

// nillableDurationPattern is the CRD pattern for expireAfter and
// consolidateAfter.
var nillableDurationPattern = regexp.MustCompile(`^(([0-9]+(s|m|h))+|Never)$`)

// durationPattern is the CRD pattern for terminationGracePeriod.
var durationPattern = regexp.MustCompile(`^([0-9]+(s|m|h))+$`)

// parseBudgetDuration returns the budget's duration; nil means 0, which is
// how Karpenter reads a missing duration.
func parseBudgetDuration(d *string) (time.Duration, error) {
	if d == nil {
		return 0, nil
	}
	return time.ParseDuration(*d)
}

// ---------------------------------------------------------------------------
// Hit enumeration. Karpenter only ever calls Schedule.Next; these helpers are
// built on Next alone so that they inherit the library's semantics,
// including "no hit within five years" (Next returns the zero time).

// ceilSecond is the first instant Next considers after t.
func ceilSecond(t time.Time) time.Time {
	return t.Add(time.Second - time.Duration(t.Nanosecond()))
}

// nextHit returns the first schedule hit strictly after `after` and not after
// limit. Unlike Schedule.Next it looks beyond the library's five-year horizon
// (it restarts the search past it), so it finds every hit.
func nextHit(s cron.Schedule, after, limit time.Time) (time.Time, bool) {
	for after.Before(limit) {
		h := s.Next(after)
		if h.IsZero() {
			// Nothing up to the end of year(ceil(after))+5: restart just
			// before the first second of the following year.
			y := ceilSecond(after).Year() + 6
			after = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Second)
			continue
		}
		if h.After(limit) {
			return time.Time{}, false
		}
		return h, true
	}
	return time.Time{}, false
}

// lastHit returns the latest hit in (lo, hi].
func lastHit(s cron.Schedule, lo, hi time.Time) (time.Time, bool) {
	last, ok := nextHit(s, lo, hi)
	if !ok {
		return time.Time{}, false
	}
	// Sparse schedules: walk forward a few hits.
	for i := 0; i < 64; i++ {
		n, ok := nextHit(s, last, hi)
		if !ok {
			return last, true
		}
		last = n
	}
	// Dense schedules: binary search the smallest whole-second delta such that
	// (hi-delta, hi] holds a hit. Hits are on whole seconds, so the hit found
	// with that delta is the latest one.
	has := func(delta int64) bool {
		_, ok := nextHit(s, hi.Add(-time.Duration(delta)*time.Second), hi)
		return ok
	}
	lo2, hi2 := int64(0), int64(hi.Sub(last)/time.Second)+1 // has(lo2)=false, has(hi2)=true
	for hi2-lo2 > 1 {
		mid := lo2 + (hi2-lo2)/2
		if has(mid) {
			hi2 = mid
		} else {
			lo2 = mid
		}
	}
	h, _ := nextHit(s, hi.Add(-time.Duration(hi2)*time.Second), hi)
	return h, true
}

// hitsBetween returns the hits in (after, before), ascending. For the UTC
// calendar schedules ParseSchedule produces it reads the parsed bit fields
// directly — a hit is a month, day, hour and minute whose bits are set,
// with robfig's day-of-month/day-of-week rule — which is what Next computes,
// one day at a time instead of one call per hit. Other schedules go through
// Next.
func hitsBetween(s cron.Schedule, after, before time.Time) []time.Time {
	spec, ok := s.(*cron.SpecSchedule)
	if !ok || spec.Second != 1 || spec.Location != time.UTC {
		var hits []time.Time
		for x := after; ; {
			h, ok := nextHit(s, x, before)
			if !ok || !h.Before(before) {
				return hits
			}
			hits, x = append(hits, h), h
		}
	}
	minutes := dayMinutes(spec)
	var hits []time.Time
	if len(minutes) == 0 {
		return hits
	}
	after, before = after.UTC(), before.UTC()
	for day := time.Date(after.Year(), after.Month(), after.Day(), 0, 0, 0, 0, time.UTC); day.Before(before); day = day.Add(24 * time.Hour) {
		if !specDayMatches(spec, day) {
			continue
		}
		for _, m := range minutes {
			t := day.Add(time.Duration(m) * time.Minute)
			if !t.After(after) {
				continue
			}
			if !t.Before(before) {
				break
			}
			hits = append(hits, t)
		}
	}
	return hits
}

// dayMinutes returns the minutes of the day at which spec fires on a firing
// day, ascending.
func dayMinutes(spec *cron.SpecSchedule) []int {
	var out []int
	for h := 0; h < 24; h++ {
		if spec.Hour&(1<<uint(h)) == 0 {
			continue
		}
		for m := 0; m < 60; m++ {
			if spec.Minute&(1<<uint(m)) != 0 {
				out = append(out, h*60+m)
			}
		}
	}
	return out
}

// specDayMatches is robfig's month and day test: when day-of-month or
// day-of-week is "*", both must match; otherwise either may.
func specDayMatches(spec *cron.SpecSchedule, day time.Time) bool {
	if spec.Month&(1<<uint(day.Month())) == 0 {
		return false
	}
	dom := spec.Dom&(1<<uint(day.Day())) != 0
	dow := spec.Dow&(1<<uint(day.Weekday())) != 0
	if spec.Dom&starBit != 0 || spec.Dow&starBit != 0 {
		return dom && dow
	}
	return dom || dow
}

// ---------------------------------------------------------------------------
// Static analysis of a schedule, used by Warnings (which takes no clock).

// firingPattern describes when a cron schedule fires: the minutes of the day
// (the same on every firing day) and the firing days over a full 28-year
// weekday/leap-year cycle.
type firingPattern struct {
	minutes []int // sorted minutes of day
	// fires is false when the schedule has no hit at all.
	fires bool
	// maxGap is the longest time between two consecutive hits; 0 when the
	// schedule never fires.
	maxGap time.Duration
	// everyDay and weekly tell whether the firing days depend on nothing, or
	// only on the weekday.
	everyDay, weekly bool
}

const (
	allDomBits   = uint64(0xFFFFFFFE) // days 1..31
	allMonthBits = uint64(0x1FFE)     // months 1..12
	allDowBits   = uint64(0x7F)       // weekdays 0..6
	starBit      = uint64(1) << 63    // robfig's marker for a "*" field
)

// analyze returns the firing pattern of a parsed schedule, or false when the
// schedule is not a cron spec (e.g. @every).
func analyze(s cron.Schedule) (firingPattern, bool) {
	spec, ok := s.(*cron.SpecSchedule)
	if !ok {
		return firingPattern{}, false
	}
	var p firingPattern
	p.minutes = dayMinutes(spec)
	monthAll := spec.Month&allMonthBits == allMonthBits
	domAll := spec.Dom&allDomBits == allDomBits
	dowAll := spec.Dow&allDowBits == allDowBits
	andSemantics := spec.Dom&starBit != 0 || spec.Dow&starBit != 0
	p.weekly = monthAll && domAll
	p.everyDay = p.weekly && (dowAll || !andSemantics)
	if len(p.minutes) == 0 {
		return p, true
	}
	// Firing days over 2001-01-01 .. 2030-01-01 (a 28-year cycle plus margin).
	day := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	prev, maxDays := -1, 0
	for i := 0; day.Before(end); i, day = i+1, day.Add(24*time.Hour) {
		if !specDayMatches(spec, day) {
			continue
		}
		if prev >= 0 && i-prev > maxDays {
			maxDays = i - prev
		}
		prev = i
	}
	if prev < 0 {
		return p, true // never fires
	}
	p.fires = true
	first, last := p.minutes[0], p.minutes[len(p.minutes)-1]
	gap := 0
	for i := 1; i < len(p.minutes); i++ {
		gap = max(gap, p.minutes[i]-p.minutes[i-1])
	}
	if maxDays > 0 {
		gap = max(gap, maxDays*1440-last+first)
	}
	p.maxGap = time.Duration(gap) * time.Minute
	return p, true
}

// budgetNodesPattern is the CRD pattern for budgets[].nodes.
var budgetNodesPattern = regexp.MustCompile(`^((100|[0-9]{1,2})%|[0-9]+)$`)
