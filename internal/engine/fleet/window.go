package fleet

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Evaluating a maintenance window (designs/maintenance.md §2): when it is
// open, when it next opens, and the priority an update run gives a member by
// it. Evaluation is pure: every function takes the instant.
//
// Times are Unix seconds and days are local days (in the window's
// utc_offset) counted from 1970-01-01. Every boundary of a window (an
// opening, a closing, the edge of a blocked span) is a whole minute, so an
// instant is evaluated by its whole second.

// WindowState is a window evaluated at an instant.
type WindowState struct {
	Open        bool      // open at the instant (start included, end excluded, blocked days excluded)
	ClosesAt    time.Time // when Open: the end of the current open span (UTC)
	NextOpening time.Time // when !Open: the next instant it opens (UTC); zero when HasNext is false
	HasNext     bool      // when !Open: whether it ever opens again within the search horizon
}

// Window priorities of designs/maintenance.md §2 (designs/updates.md §3):
// within a group, members are updated in increasing priority, then by name.
const (
	PriorityOpen      = 1 // open at the instant
	PriorityOpensSoon = 2 // closed, opens within OpensSoon
	PriorityNoWindow  = 3 // no maintenance window
	PriorityClosed    = 4 // closed and not opening within OpensSoon
)

// OpensSoon is the horizon of PriorityOpensSoon: 4 hours.
const OpensSoon = 4 * time.Hour

// horizonDays bounds the search for a next opening: occurrences on local days
// up to about six years after the later of the instant and start_date. A
// window whose every occurrence in it is blocked does not open again.
const horizonDays = 6*365 + 2

const secondsPerDay = 24 * 60 * 60

// WindowPriority is the priority of a member with window w (nil = no window) reached at t.
// A window that opens exactly OpensSoon after t opens soon. A window that
// does not pass Validate never opens, so it is PriorityClosed.
func WindowPriority(w *MaintenanceWindow, t time.Time) int {
	if w == nil {
		return PriorityNoWindow
	}
	switch s := w.At(t); {
	case s.Open:
		return PriorityOpen
	case s.HasNext && !s.NextOpening.After(t.Add(OpensSoon)):
		return PriorityOpensSoon
	}
	return PriorityClosed
}

// SkipsShortMonths reports whether an absolute-monthly window names a
// day_of_month > 28, which some months lack (no occurrence in those months,
// designs/maintenance.md §2). Previews that depend on such a window say so.
func (w *MaintenanceWindow) SkipsShortMonths() bool {
	return w.Schedule.Type == ScheduleAbsoluteMonthly && w.Schedule.DayOfMonth > 28
}

// At evaluates the window at instant t (designs/maintenance.md §2).
//
// An occurrence opens at start_time on its local day and is open for
// duration_hours; a blocked local day is closed even within an occurrence,
// so an occurrence may open at the end of a blocked span, or close at its
// start. ClosesAt is the end of the current occurrence (or the start of the
// blocked span that cuts it): a daily window of 24 hours every day opens its
// next occurrence at that very instant. Without start_date, intervals count
// from 1970-01-01 (local) and the window has no first occurrence.
//
// A window that does not pass Validate never opens.
func (w *MaintenanceWindow) At(t time.Time) WindowState {
	c, ok := w.compile()
	if !ok {
		return WindowState{}
	}
	return c.at(t.Unix())
}

// evalWindow is a MaintenanceWindow read for evaluation.
type evalWindow struct {
	kind     string
	interval int64 // days, weeks or months, by kind
	weekday  int64 // weekly, relative_monthly: Sunday = 0
	day      int64 // absolute_monthly: day of the month
	week     int64 // relative_monthly: 0–3 for First–Fourth, 4 for Last
	start    int64 // opening, seconds after local midnight
	duration int64 // seconds
	offset   int64 // seconds east of UTC
	bounded  bool  // start_date is set: no occurrence before the day first
	first    int64 // start_date
	// anchor is the day intervals count from (daily: the anchor date;
	// weekly: the first day_of_week on or after it), or its month
	// (monthly: year*12 + month-1).
	anchor  int64
	blocked []blockedSpan // sorted, disjoint and not adjacent
}

// blockedSpan is a blocked span of time, [from, to) in Unix seconds.
type blockedSpan struct{ from, to int64 }

// compile reads w; ok is false exactly when w does not pass Validate.
func (w *MaintenanceWindow) compile() (evalWindow, bool) {
	s := w.Schedule
	c := evalWindow{kind: s.Type}
	valid := true
	interval := func(v, hi int) {
		c.interval = int64(v)
		valid = valid && v >= 1 && v <= hi
	}
	weekday := func() {
		i := slices.Index(Weekdays, s.DayOfWeek)
		c.weekday = int64(i)
		valid = valid && i >= 0
	}
	switch s.Type {
	case ScheduleDaily:
		interval(s.IntervalDays, 7)
	case ScheduleWeekly:
		interval(s.IntervalWeeks, 4)
		weekday()
	case ScheduleAbsoluteMonthly:
		interval(s.IntervalMonths, 6)
		c.day = int64(s.DayOfMonth)
		valid = valid && s.DayOfMonth >= 1 && s.DayOfMonth <= 31
	case ScheduleRelativeMonthly:
		interval(s.IntervalMonths, 6)
		weekday()
		i := slices.Index(WeekIndexes, s.WeekIndex)
		c.week = int64(i)
		valid = valid && i >= 0
	default:
		return c, false
	}
	start, ok1 := parseClock(w.StartTime)
	offset, ok2 := parseOffset(w.UTCOffset)
	if !valid || !ok1 || !ok2 || w.DurationHours < 4 || w.DurationHours > 24 {
		return c, false
	}
	c.start, c.offset, c.duration = start, offset, int64(w.DurationHours)*3600

	var anchor int64 // 1970-01-01
	if w.StartDate != "" {
		d, ok := parseDay(w.StartDate)
		if !ok {
			return c, false
		}
		c.bounded, c.first, anchor = true, d, d
	}
	switch c.kind {
	case ScheduleDaily:
		c.anchor = anchor
	case ScheduleWeekly:
		c.anchor = anchor + floorMod(c.weekday-weekdayOf(anchor), 7)
	default:
		y, m, _ := civilDate(anchor)
		c.anchor = y*12 + m - 1
	}

	if len(w.NotAllowed) > 0 {
		c.blocked = make([]blockedSpan, 0, len(w.NotAllowed))
	}
	for _, d := range w.NotAllowed {
		from, ok1 := parseDay(d.Start)
		to, ok2 := parseDay(d.End)
		if !ok1 || !ok2 || to < from {
			return c, false
		}
		c.blocked = append(c.blocked, blockedSpan{from*secondsPerDay - offset, (to+1)*secondsPerDay - offset})
	}
	c.blocked = mergeBlocked(c.blocked)
	return c, true
}

// mergeBlocked sorts spans and joins those that overlap or touch.
func mergeBlocked(spans []blockedSpan) []blockedSpan {
	if len(spans) < 2 {
		return spans
	}
	slices.SortFunc(spans, func(a, b blockedSpan) int { return cmp.Compare(a.from, b.from) })
	out := spans[:1]
	for _, s := range spans[1:] {
		if last := &out[len(out)-1]; s.from <= last.to {
			last.to = max(last.to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

// at evaluates the window at now (Unix seconds).
//
// Occurrences are visited in order from the one on the day before now's (an
// occurrence lasts at most 24 hours, so no earlier one can still be open).
// cur is the earliest instant not yet known to be closed: the first
// occurrence with an unblocked instant at or after cur gives the answer. An
// occurrence blocked to its end moves cur past the blocked span and the
// search on to the occurrences that may reach beyond it, so a long blocked
// span costs one step.
func (c *evalWindow) at(now int64) WindowState {
	today := c.dayOf(now)
	limit := today
	if c.bounded && c.first > today {
		limit = c.first
	}
	limit += horizonDays
	cur := now
	for from := today - 1; ; {
		d, ok := c.next(from, limit)
		if !ok {
			return WindowState{}
		}
		open := d*secondsPerDay + c.start - c.offset
		end := open + c.duration
		p, blockedAt := c.unblocked(max(open, cur))
		if p < end {
			if p == now {
				return WindowState{Open: true, ClosesAt: unixUTC(min(end, blockedAt))}
			}
			return WindowState{NextOpening: unixUTC(p), HasNext: true}
		}
		cur = max(cur, p)
		from = max(d+1, c.dayOf(cur)-1)
	}
}

// unblocked is the first instant at or after p outside every blocked span,
// and the start of the blocked span after that (math.MaxInt64 if none).
func (c *evalWindow) unblocked(p int64) (int64, int64) {
	for _, s := range c.blocked {
		switch {
		case s.to <= p:
		case s.from <= p:
			p = s.to // the next span starts after s ends
		default:
			return p, s.from
		}
	}
	return p, math.MaxInt64
}

// next is the first occurrence day on or after from, if it is not after limit.
func (c *evalWindow) next(from, limit int64) (int64, bool) {
	if c.bounded {
		from = max(from, c.first)
	}
	var d int64
	switch c.kind {
	case ScheduleDaily:
		d = from + floorMod(c.anchor-from, c.interval)
	case ScheduleWeekly:
		d = from + floorMod(c.anchor-from, 7*c.interval)
	default:
		return c.nextMonthly(from, limit)
	}
	return d, d <= limit
}

// nextMonthly is next for the monthly kinds: the eligible months from from's
// are tried in turn (a few at most: every month has each weekday four times,
// and every cycle of eligible months has a month of 31 days).
func (c *evalWindow) nextMonthly(from, limit int64) (int64, bool) {
	y, m, _ := civilDate(from)
	month := y*12 + m - 1
	month += floorMod(c.anchor-month, c.interval)
	// The months up to limit are fewer than maxMonths, unless the instant is
	// so far out that the arithmetic overflows.
	const maxMonths = horizonDays/28 + 3
	for i := 0; i < maxMonths; i, month = i+1, month+c.interval {
		first, next := monthStart(month), monthStart(month+1)
		if first > limit {
			break
		}
		var d int64
		switch c.kind {
		case ScheduleAbsoluteMonthly:
			if c.day > next-first {
				continue // the month lacks the day: no occurrence
			}
			d = first + c.day - 1
		case ScheduleRelativeMonthly:
			if c.week < 4 {
				d = first + floorMod(c.weekday-weekdayOf(first), 7) + 7*c.week
			} else {
				last := next - 1
				d = last - floorMod(weekdayOf(last)-c.weekday, 7)
			}
		}
		if d >= from {
			return d, d <= limit
		}
	}
	return 0, false
}

func (c *evalWindow) dayOf(sec int64) int64 {
	return floorDiv(sec+c.offset, secondsPerDay)
}

// parseClock reads an HH:mm time of day (00:00–23:59) as seconds after midnight.
func parseClock(s string) (int64, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	h, ok1 := twoDigits(s[0:2])
	m, ok2 := twoDigits(s[3:5])
	return (h*60 + m) * 60, ok1 && ok2 && h <= 23 && m <= 59
}

// parseOffset reads a ±hh:mm UTC offset (hours up to 14; empty is +00:00) as seconds east of UTC.
func parseOffset(s string) (int64, bool) {
	if s == "" {
		return 0, true
	}
	if len(s) != 6 || s[0] != '+' && s[0] != '-' {
		return 0, false
	}
	off, ok := parseClock(s[1:])
	if off > 14*3600+59*60 {
		ok = false
	}
	if s[0] == '-' {
		off = -off
	}
	return off, ok
}

// twoDigits reads two decimal digits.
func twoDigits(s string) (int64, bool) {
	if s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, false
	}
	return int64(s[0]-'0')*10 + int64(s[1]-'0'), true
}

// parseDay reads a YYYY-MM-DD date as written (as Validate does) as a day number.
func parseDay(s string) (int64, bool) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil || t.Format(time.DateOnly) != s {
		return 0, false
	}
	return floorDiv(t.Unix(), secondsPerDay), true
}

// civilDate is the date of a day number.
func civilDate(day int64) (y, m, d int64) {
	yy, mm, dd := time.Unix(day*secondsPerDay, 0).UTC().Date()
	return int64(yy), int64(mm), int64(dd)
}

// monthStart is the day number of the first day of a month (year*12 + month-1).
func monthStart(month int64) int64 {
	t := time.Date(int(floorDiv(month, 12)), time.Month(floorMod(month, 12)+1), 1, 0, 0, 0, 0, time.UTC)
	return floorDiv(t.Unix(), secondsPerDay)
}

// weekdayOf is the weekday of a day number, Sunday = 0 (1970-01-01 was a Thursday).
func weekdayOf(day int64) int64 {
	return floorMod(day+4, 7)
}

func unixUTC(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

// floorMod is a modulo b in [0, b), for b > 0.
func floorMod(a, b int64) int64 {
	r := a % b
	if r < 0 {
		r += b
	}
	return r
}

func floorDiv(a, b int64) int64 { return (a - floorMod(a, b)) / b }
