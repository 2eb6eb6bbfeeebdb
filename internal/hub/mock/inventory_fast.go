package mock

import (
	"strings"
	"unicode/utf8"
)

// The fast inventory decoder.
//
// yaml.v3 spends about 0.4 s on a 5,000-cluster inventory, most of it in its
// general scanner and parser, before any reflection. Inventories, though, are
// written in a small, regular part of YAML: block mappings and sequences,
// one-line flow collections, plain and quoted one-line scalars, comments. The
// fast decoder reads exactly that part, straight into rawInventory, and gives
// up on anything else — anchors, tags, block scalars, multi-line scalars or
// flows, escapes, tabs, document markers, nulls, merge keys, unknown fields,
// duplicate keys, type mismatches, numbers that are not plain decimals — so
// that yaml.v3 decodes the document instead. Whatever the fast decoder
// accepts, yaml.v3 accepts with the same result (FuzzInventoryDecoders checks
// it); every error, with its line, still comes from yaml.v3.

// fastBail is the panic value with which the fast decoder gives up.
type fastBail struct{}

// decodeInventoryFast decodes data if it keeps to the fast decoder's part of
// YAML; ok is false when yaml.v3 must decode it.
func decodeInventoryFast(data []byte) (raw *rawInventory, ok bool) {
	if !fastInput(data) {
		return nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			if _, bail := r.(fastBail); !bail {
				panic(r)
			}
			raw, ok = nil, false
		}
	}()
	p := &fastParser{s: string(data)}
	return p.document(), true
}

// fastInput tells whether data holds only characters the fast decoder knows
// how yaml.v3 reads: line feeds, printable ASCII and valid UTF-8 in the
// ranges YAML allows, without tabs, carriage returns, byte order marks or
// the characters YAML 1.1 counts as line breaks (U+0085, U+2028, U+2029).
func fastInput(data []byte) bool {
	ascii := true
	for _, b := range data {
		if b >= 0x80 {
			ascii = false
			continue
		}
		if (b < 0x20 && b != '\n') || b == 0x7f {
			return false
		}
	}
	if ascii {
		return true
	}
	for i := 0; i < len(data); {
		if data[i] < 0x80 {
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return false
		}
		switch {
		case r == 0x2028 || r == 0x2029 || r == 0xfeff:
			return false
		case r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= 0x10ffff:
		default:
			return false
		}
		i += size
	}
	return true
}

// fastParser is a cursor over the document. In block context it rests at
// the first character of the next content line (neither blank nor a
// comment), whose column is col, or at the end (eof).
type fastParser struct {
	s         string
	pos       int
	lineStart int
	col       int
	eof       bool
}

// Where a node starts.
type fastCtxKind uint8

const (
	afterKey  fastCtxKind = iota // after "key:" in a block mapping whose keys are at column indent
	afterDash                    // after "-" in a block sequence whose dashes are at column indent
	inFlow                       // inside a flow collection
	atRoot                       // the document's top-level mapping, at the first content line
)

type fastCtx struct {
	kind   fastCtxKind
	indent int
}

func bail() { panic(fastBail{}) }

func (p *fastParser) at(i int) byte {
	if i < len(p.s) {
		return p.s[i]
	}
	return 0
}

func (p *fastParser) skipSpaces() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

// nextContentLine moves from the start of a line to the next line with
// content, skipping blank and comment lines.
func (p *fastParser) nextContentLine() {
	for {
		if p.pos >= len(p.s) {
			p.eof = true
			return
		}
		p.lineStart = p.pos
		p.skipSpaces()
		if p.pos >= len(p.s) {
			p.eof = true
			return
		}
		switch p.s[p.pos] {
		case '\n':
			p.pos++
			continue
		case '#':
			p.toLineEnd()
			if p.pos < len(p.s) {
				p.pos++
			}
			continue
		}
		p.col = p.pos - p.lineStart
		if p.col == 0 && (strings.HasPrefix(p.s[p.pos:], "---") || strings.HasPrefix(p.s[p.pos:], "...")) {
			bail() // a document marker, or a plain scalar that looks like one
		}
		return
	}
}

func (p *fastParser) toLineEnd() {
	if i := strings.IndexByte(p.s[p.pos:], '\n'); i >= 0 {
		p.pos += i
	} else {
		p.pos = len(p.s)
	}
}

// endLine finishes a line whose node ended at pos in block context: only
// spaces and a comment may follow. It then moves to the next content line.
func (p *fastParser) endLine() {
	start := p.pos
	p.skipSpaces()
	if p.pos < len(p.s) && p.s[p.pos] == '#' {
		if p.pos == start {
			bail() // a '#' right after a node: keep to comments after a space
		}
		p.toLineEnd()
	}
	if p.pos < len(p.s) {
		if p.s[p.pos] != '\n' {
			bail()
		}
		p.pos++
	}
	p.nextContentLine()
}

// endNode finishes a scalar or flow collection that started in c.
func (p *fastParser) endNode(c fastCtx) {
	if c.kind != inFlow {
		p.endLine()
	}
}

func (p *fastParser) isDash() bool {
	return p.at(p.pos) == '-' && (p.pos+1 >= len(p.s) || p.s[p.pos+1] == ' ' || p.s[p.pos+1] == '\n')
}

// inlineStart skips the spaces after "key:" or "-". It reports whether the
// node starts on this line; if not, it moves to the next content line.
func (p *fastParser) inlineStart() bool {
	p.skipSpaces()
	if p.pos >= len(p.s) {
		p.eof = true
		return false
	}
	switch p.s[p.pos] {
	case '\n':
		p.pos++
		p.nextContentLine()
		return false
	case '#':
		if p.s[p.pos-1] != ' ' {
			bail()
		}
		p.toLineEnd()
		if p.pos < len(p.s) {
			p.pos++
		}
		p.nextContentLine()
		return false
	}
	return true
}

// ---- scalars

// plainStart tells whether a plain scalar may start at pos.
func (p *fastParser) plainStart(flow bool) bool {
	if p.pos >= len(p.s) {
		return false
	}
	switch c := p.s[p.pos]; c {
	case '-':
		next := p.at(p.pos + 1)
		switch next {
		case 0, ' ', '\n':
			return false
		case ',', '[', ']', '{', '}':
			return !flow
		}
		return true
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\n':
		return false
	}
	return true
}

// quoted reads a one-line quoted scalar; the only escape it knows is a
// doubled single quote in a single-quoted one.
func (p *fastParser) quoted() string {
	q := p.s[p.pos]
	start := p.pos + 1
	if q == '"' {
		for i := start; i < len(p.s); i++ {
			switch p.s[i] {
			case '"':
				p.pos = i + 1
				return p.s[start:i]
			case '\\', '\n':
				bail()
			}
		}
		bail()
	}
	var b *strings.Builder
	seg := start
	for i := start; i < len(p.s); i++ {
		switch p.s[i] {
		case '\'':
			if p.at(i+1) == '\'' {
				if b == nil {
					b = &strings.Builder{}
				}
				b.WriteString(p.s[seg : i+1])
				i++
				seg = i + 1
				continue
			}
			p.pos = i + 1
			if b == nil {
				return p.s[start:i]
			}
			b.WriteString(p.s[seg:i])
			return b.String()
		case '\n':
			bail()
		}
	}
	bail()
	return ""
}

// blockPlain reads a plain scalar in block context: up to the end of the
// line or a comment. A ": " inside is a mapping where a scalar was expected.
func (p *fastParser) blockPlain() string {
	start, end := p.pos, p.pos
	i := p.pos
	for i < len(p.s) {
		switch c := p.s[i]; c {
		case '\n':
			p.pos = end
			return p.s[start:end]
		case ' ':
			if p.at(i+1) == '#' {
				p.pos = end
				return p.s[start:end]
			}
			i++
			continue
		case ':':
			if n := p.at(i + 1); n == 0 || n == ' ' || n == '\n' {
				bail()
			}
		}
		i++
		end = i
	}
	p.pos = end
	return p.s[start:end]
}

// flowPlain reads a plain scalar in a flow collection, up to ',', ']' or '}'
// or to ": " (after a key).
func (p *fastParser) flowPlain() string {
	start, end := p.pos, p.pos
	for i := p.pos; i < len(p.s); {
		switch c := p.s[i]; c {
		case ',', ']', '}':
			p.pos = end
			return p.s[start:end]
		case ':':
			if p.at(i+1) == ' ' {
				p.pos = end
				return p.s[start:end]
			}
			bail()
		case ' ':
			if p.at(i+1) == '#' {
				bail() // a comment inside a flow collection
			}
			i++
			continue
		case '\n', '?', '[', '{':
			bail()
		}
		i++
		end = i
	}
	bail()
	return ""
}

// scalar reads a scalar node that starts in c and returns its text and
// whether it was plain. A plain null (empty, ~, null) is left to yaml.v3.
func (p *fastParser) scalar(c fastCtx) (string, bool) {
	switch c.kind {
	case afterKey:
		if !p.inlineStart() {
			bail() // null, or a node on the next lines
		}
	case afterDash:
		bail() // the inventory has no sequences of scalars
	}
	var v string
	plain := false
	switch q := p.at(p.pos); {
	case q == '"' || q == '\'':
		v = p.quoted()
		if c.kind == inFlow {
			p.skipSpaces()
		}
	case p.plainStart(c.kind == inFlow):
		plain = true
		if c.kind == inFlow {
			v = p.flowPlain()
		} else {
			v = p.blockPlain()
		}
		switch v {
		case "", "~", "null", "Null", "NULL":
			bail()
		}
	default:
		bail()
	}
	p.endNode(c)
	return v, plain
}

func (p *fastParser) str(c fastCtx) string {
	v, _ := p.scalar(c)
	return v
}

// integer reads a plain decimal that yaml.v3 resolves to the same int.
func (p *fastParser) integer(c fastCtx) int {
	v, plain := p.scalar(c)
	if !plain || len(v) == 0 || len(v) > 18 {
		bail()
	}
	digits := v
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if digits == "" || (digits[0] == '0' && len(digits) > 1) {
		bail()
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		d := digits[i]
		if d < '0' || d > '9' {
			bail()
		}
		n = n*10 + int(d-'0')
	}
	if v[0] == '-' {
		n = -n
	}
	return n
}

func (p *fastParser) boolean(c fastCtx) bool {
	v, plain := p.scalar(c)
	if plain {
		switch v {
		case "true", "True", "TRUE":
			return true
		case "false", "False", "FALSE":
			return false
		}
	}
	bail()
	return false
}

func (p *fastParser) optBool(c fastCtx) optBool {
	if p.boolean(c) {
		return boolTrue
	}
	return boolFalse
}

// ---- collections

// fastMapping iterates over the entries of a mapping.
type fastMapping struct {
	p      *fastParser
	parent fastCtx
	flow   bool
	indent int // of a block mapping's keys
	first  bool
	key    string
}

// mapping starts reading the mapping node that starts in c.
func (p *fastParser) mapping(c fastCtx) fastMapping {
	m := fastMapping{p: p, parent: c, first: true}
	switch c.kind {
	case inFlow:
		if p.at(p.pos) != '{' {
			bail()
		}
		m.flow = true
	case afterKey:
		if p.inlineStart() {
			if p.at(p.pos) != '{' {
				bail()
			}
			m.flow = true
		} else if p.eof || p.col <= c.indent || p.isDash() {
			bail()
		}
	case afterDash:
		if p.inlineStart() {
			if p.at(p.pos) == '{' {
				m.flow = true
			} // else a compact mapping: "- key: value"
		} else if p.eof || p.col <= c.indent || p.isDash() {
			bail()
		}
	case atRoot:
		if p.isDash() || p.at(p.pos) == '{' || p.at(p.pos) == '[' {
			bail()
		}
	}
	if m.flow {
		p.pos++ // '{'
	} else {
		m.indent = p.pos - p.lineStart
	}
	return m
}

// next moves to the next entry, reading its key; false at the end.
func (m *fastMapping) next() bool {
	p := m.p
	if m.flow {
		if !p.flowNext(m.first, '}', m.parent) {
			return false
		}
		m.first = false
		m.key = p.key(true)
		return true
	}
	if !m.first {
		if p.eof || p.col < m.indent {
			return false
		}
		if p.col > m.indent || p.isDash() {
			bail()
		}
	}
	m.first = false
	m.key = p.key(false)
	return true
}

// flowNext moves to the next entry of a flow collection that started in
// parent and ends with end: past the ',' before it, or past the end (false).
func (p *fastParser) flowNext(first bool, end byte, parent fastCtx) bool {
	p.skipSpaces()
	switch p.at(p.pos) {
	case end:
		p.pos++
		p.endNode(parent)
		return false
	case ',':
		if first {
			bail()
		}
		p.pos++
		p.skipSpaces()
		if p.at(p.pos) == end {
			bail() // "{a: 1,}"
		}
	default:
		if !first {
			bail()
		}
	}
	return true
}

// value is where the current entry's value starts.
func (m *fastMapping) value() fastCtx {
	if m.flow {
		return fastCtx{kind: inFlow}
	}
	return fastCtx{kind: afterKey, indent: m.indent}
}

// key reads a mapping key and the ':' after it.
func (p *fastParser) key(flow bool) string {
	start := p.pos
	var k string
	switch p.at(p.pos) {
	case '"', '\'':
		k = p.quoted()
	default:
		if !p.plainStart(flow) || p.s[p.pos] == '-' {
			bail()
		}
		if flow {
			k = p.flowPlain()
		} else {
			k = p.blockKey()
		}
		switch k {
		case "", "~", "null", "Null", "NULL", "<<":
			bail()
		}
	}
	if p.at(p.pos) != ':' || p.pos-start > 1000 { // yaml.v3 wants the ':' of a simple key within 1024 characters
		bail()
	}
	p.pos++
	switch n := p.at(p.pos); {
	case flow:
		if n != ' ' {
			bail()
		}
		p.skipSpaces()
	case n != ' ' && n != '\n' && p.pos < len(p.s):
		bail()
	}
	return k
}

// blockKey reads a plain key in block context up to its ": " or ":\n".
func (p *fastParser) blockKey() string {
	start, end := p.pos, p.pos
	for i := p.pos; i < len(p.s); {
		switch p.s[i] {
		case '\n':
			bail()
		case ' ':
			if p.at(i+1) == '#' {
				bail()
			}
			i++
			continue
		case ':':
			if n := p.at(i + 1); n == 0 || n == ' ' || n == '\n' {
				p.pos = i
				return p.s[start:end]
			}
		}
		i++
		end = i
	}
	bail()
	return ""
}

// fastSequence iterates over the items of a sequence.
type fastSequence struct {
	p          *fastParser
	parent     fastCtx
	flow       bool
	indent     int // of a block sequence's dashes
	sameIndent bool
	first      bool
}

// sequence starts reading the sequence node that starts in c.
func (p *fastParser) sequence(c fastCtx) fastSequence {
	s := fastSequence{p: p, parent: c, first: true}
	switch c.kind {
	case inFlow:
		if p.at(p.pos) != '[' {
			bail()
		}
		s.flow = true
	case afterKey:
		if p.inlineStart() {
			if p.at(p.pos) != '[' {
				bail()
			}
			s.flow = true
		} else if p.eof || p.col < c.indent || !p.isDash() {
			bail()
		} else {
			s.sameIndent = p.col == c.indent // "key:\n- item": YAML's indentless sequence
		}
	case afterDash:
		bail() // the inventory has no sequences of sequences
	}
	if s.flow {
		p.pos++ // '['
	} else {
		s.indent = p.col
	}
	return s
}

// next moves to the next item; false at the end.
func (s *fastSequence) next() bool {
	p := s.p
	if s.flow {
		if !p.flowNext(s.first, ']', s.parent) {
			return false
		}
		s.first = false
		return true
	}
	if !s.first {
		if p.eof || p.col < s.indent {
			return false
		}
		if p.col > s.indent {
			bail()
		}
		if !p.isDash() {
			if s.sameIndent {
				return false
			}
			bail()
		}
	}
	s.first = false
	p.pos++ // '-'
	return true
}

// item is where the current item starts.
func (s *fastSequence) item() fastCtx {
	if s.flow {
		return fastCtx{kind: inFlow}
	}
	return fastCtx{kind: afterDash, indent: s.indent}
}

// fieldSet tracks the fields of a struct already read: yaml.v3 rejects a
// field given twice.
type fieldSet uint32

func (f *fieldSet) set(i int) {
	if *f&(1<<i) != 0 {
		bail()
	}
	*f |= 1 << i
}

// ---- the inventory, field by field

// fastField reads the field of a T named name.
type fastField[T any] struct {
	name string
	read func(p *fastParser, c fastCtx, t *T)
}

// object reads the mapping that starts in c into t. A key that names no
// field, or a field given twice, is yaml.v3's to report.
func object[T any](p *fastParser, c fastCtx, t *T, fields []fastField[T]) {
	var seen fieldSet
	for m := p.mapping(c); m.next(); {
		i := 0
		for i < len(fields) && fields[i].name != m.key {
			i++
		}
		if i == len(fields) {
			bail()
		}
		seen.set(i)
		fields[i].read(p, m.value(), t)
	}
}

func strField[T any](name string, f func(*T) *string) fastField[T] {
	return fastField[T]{name, func(p *fastParser, c fastCtx, t *T) { *f(t) = p.str(c) }}
}

func intField[T any](name string, f func(*T) *int) fastField[T] {
	return fastField[T]{name, func(p *fastParser, c fastCtx, t *T) { *f(t) = p.integer(c) }}
}

func boolField[T any](name string, f func(*T) *bool) fastField[T] {
	return fastField[T]{name, func(p *fastParser, c fastCtx, t *T) { *f(t) = p.boolean(c) }}
}

func optBoolField[T any](name string, f func(*T) *optBool) fastField[T] {
	return fastField[T]{name, func(p *fastParser, c fastCtx, t *T) { *f(t) = p.optBool(c) }}
}

// strMapField reads a map of strings; an empty mapping is an empty map, as
// with yaml.v3.
func strMapField[T any](name string, f func(*T) *map[string]string) fastField[T] {
	return fastField[T]{name, func(p *fastParser, c fastCtx, t *T) {
		out := map[string]string{}
		for m := p.mapping(c); m.next(); {
			if _, dup := out[m.key]; dup {
				bail()
			}
			out[m.key] = p.str(m.value())
		}
		*f(t) = out
	}}
}

// structField reads a nested struct.
func structField[T, E any](name string, f func(*T) *E, fields []fastField[E]) fastField[T] {
	return fastField[T]{name, func(p *fastParser, c fastCtx, t *T) { object(p, c, f(t), fields) }}
}

// pointerField reads a nested struct that may be left out; given, even as
// {}, it is allocated, as with yaml.v3.
func pointerField[T, E any](name string, f func(*T) **E, fields []fastField[E]) fastField[T] {
	return fastField[T]{name, func(p *fastParser, c fastCtx, t *T) {
		e := new(E)
		object(p, c, e, fields)
		*f(t) = e
	}}
}

// listField reads a sequence of structs; an empty one is an empty slice, as
// with yaml.v3.
func listField[T, E any](name string, f func(*T) *[]E, fields []fastField[E]) fastField[T] {
	return fastField[T]{name, func(p *fastParser, c fastCtx, t *T) {
		out := []E{}
		for s := p.sequence(c); s.next(); {
			out = append(out, *new(E))
			object(p, s.item(), &out[len(out)-1], fields)
		}
		*f(t) = out
	}}
}

// The inventory's fields, as rawInventory declares them.
var (
	fastK8sRelease = []fastField[rawK8sRelease]{
		strField("version", func(k *rawK8sRelease) *string { return &k.Version }),
		boolField("preview", func(k *rawK8sRelease) *bool { return &k.Preview }),
		boolField("lts", func(k *rawK8sRelease) *bool { return &k.LTS }),
		strField("released_at", func(k *rawK8sRelease) *string { return &k.ReleasedAt }),
	}
	fastNodeImage = []fastField[rawNodeImage]{
		strField("family", func(n *rawNodeImage) *string { return &n.Family }),
		strField("version", func(n *rawNodeImage) *string { return &n.Version }),
		strField("released_at", func(n *rawNodeImage) *string { return &n.ReleasedAt }),
	}
	fastRegion = []fastField[rawRegion]{
		strField("name", func(r *rawRegion) *string { return &r.Name }),
		listField("kubernetes_versions", func(r *rawRegion) *[]rawK8sRelease { return &r.KubernetesVersions }, fastK8sRelease),
		listField("node_images", func(r *rawRegion) *[]rawNodeImage { return &r.NodeImages }, fastNodeImage),
	}
	fastTaint = []fastField[rawTaint]{
		strField("key", func(t *rawTaint) *string { return &t.Key }),
		strField("value", func(t *rawTaint) *string { return &t.Value }),
		strField("effect", func(t *rawTaint) *string { return &t.Effect }),
	}
	fastAgent = []fastField[rawAgent]{
		optBoolField("present", func(a *rawAgent) *optBool { return &a.Present }),
		optBoolField("joined", func(a *rawAgent) *optBool { return &a.Joined }),
		strField("healthy", func(a *rawAgent) *string { return &a.Healthy }),
		strField("unhealthy_for", func(a *rawAgent) *string { return &a.UnhealthyFor }),
		strField("heartbeat_age", func(a *rawAgent) *string { return &a.HeartbeatAge }),
		strField("last_heartbeat", func(a *rawAgent) *string { return &a.LastHeartbeat }),
		boolField("leaving", func(a *rawAgent) *bool { return &a.Leaving }),
	}
	fastUsage = []fastField[rawUsage]{
		strMapField("capacity", func(u *rawUsage) *map[string]string { return &u.Capacity }),
		strMapField("allocatable", func(u *rawUsage) *map[string]string { return &u.Allocatable }),
		strMapField("available", func(u *rawUsage) *map[string]string { return &u.Available }),
	}
	fastNodePool = []fastField[rawNodePool]{
		strField("name", func(n *rawNodePool) *string { return &n.Name }),
		strField("vm_size", func(n *rawNodePool) *string { return &n.VMSize }),
		intField("node_count", func(n *rawNodePool) *int { return &n.NodeCount }),
		strField("node_image_family", func(n *rawNodePool) *string { return &n.NodeImageFamily }),
		strField("node_image_version", func(n *rawNodePool) *string { return &n.NodeImageVersion }),
	}
	fastSchedule = []fastField[rawSchedule]{
		pointerField("daily", func(s *rawSchedule) **rawDaily { return &s.Daily }, []fastField[rawDaily]{
			intField("interval_days", func(d *rawDaily) *int { return &d.IntervalDays }),
		}),
		pointerField("weekly", func(s *rawSchedule) **rawWeekly { return &s.Weekly }, []fastField[rawWeekly]{
			intField("interval_weeks", func(w *rawWeekly) *int { return &w.IntervalWeeks }),
			strField("day_of_week", func(w *rawWeekly) *string { return &w.DayOfWeek }),
		}),
		pointerField("absolute_monthly", func(s *rawSchedule) **rawAbsoluteMonthly { return &s.AbsoluteMonthly }, []fastField[rawAbsoluteMonthly]{
			intField("interval_months", func(a *rawAbsoluteMonthly) *int { return &a.IntervalMonths }),
			intField("day_of_month", func(a *rawAbsoluteMonthly) *int { return &a.DayOfMonth }),
		}),
		pointerField("relative_monthly", func(s *rawSchedule) **rawRelativeMonthly { return &s.RelativeMonthly }, []fastField[rawRelativeMonthly]{
			intField("interval_months", func(r *rawRelativeMonthly) *int { return &r.IntervalMonths }),
			strField("week_index", func(r *rawRelativeMonthly) *string { return &r.WeekIndex }),
			strField("day_of_week", func(r *rawRelativeMonthly) *string { return &r.DayOfWeek }),
		}),
	}
	fastWindow = []fastField[rawWindow]{
		structField("schedule", func(w *rawWindow) *rawSchedule { return &w.Schedule }, fastSchedule),
		strField("start_time", func(w *rawWindow) *string { return &w.StartTime }),
		strField("utc_offset", func(w *rawWindow) *string { return &w.UTCOffset }),
		intField("duration_hours", func(w *rawWindow) *int { return &w.DurationHours }),
		strField("start_date", func(w *rawWindow) *string { return &w.StartDate }),
		listField("not_allowed_dates", func(w *rawWindow) *[]rawDateSpan { return &w.NotAllowedDates }, []fastField[rawDateSpan]{
			strField("start", func(d *rawDateSpan) *string { return &d.Start }),
			strField("end", func(d *rawDateSpan) *string { return &d.End }),
		}),
	}
	fastNAPNode = []fastField[rawNAPNode]{
		strField("name", func(n *rawNAPNode) *string { return &n.Name }),
		strField("nodepool", func(n *rawNAPNode) *string { return &n.NodePool }),
		strMapField("labels", func(n *rawNAPNode) *map[string]string { return &n.Labels }),
		strField("age", func(n *rawNAPNode) *string { return &n.Age }),
		strField("created_at", func(n *rawNAPNode) *string { return &n.CreatedAt }),
		optBoolField("ready", func(n *rawNAPNode) *optBool { return &n.Ready }),
		boolField("marked_for_deletion", func(n *rawNAPNode) *bool { return &n.MarkedForDeletion }),
		boolField("do_not_disrupt", func(n *rawNAPNode) *bool { return &n.DoNotDisrupt }),
		optBoolField("initialized", func(n *rawNAPNode) *optBool { return &n.Initialized }),
		boolField("instance_terminating", func(n *rawNAPNode) *bool { return &n.InstanceTerminating }),
		strField("expire_after", func(n *rawNAPNode) *string { return &n.ExpireAfter }),
	}
	fastCluster = []fastField[rawCluster]{
		strField("name", func(c *rawCluster) *string { return &c.Name }),
		strField("region", func(c *rawCluster) *string { return &c.Region }),
		strField("resource_group", func(c *rawCluster) *string { return &c.ResourceGroup }),
		strField("subscription_id", func(c *rawCluster) *string { return &c.SubscriptionID }),
		strField("group", func(c *rawCluster) *string { return &c.Group }),
		strMapField("labels", func(c *rawCluster) *map[string]string { return &c.Labels }),
		listField("taints", func(c *rawCluster) *[]rawTaint { return &c.Taints }, fastTaint),
		structField("agent", func(c *rawCluster) *rawAgent { return &c.Agent }, fastAgent),
		strMapField("properties", func(c *rawCluster) *map[string]string { return &c.Properties }),
		structField("resource_usage", func(c *rawCluster) *rawUsage { return &c.ResourceUsage }, fastUsage),
		strField("kubernetes_version", func(c *rawCluster) *string { return &c.KubernetesVersion }),
		listField("node_pools", func(c *rawCluster) *[]rawNodePool { return &c.NodePools }, fastNodePool),
		pointerField("maintenance_window", func(c *rawCluster) **rawWindow { return &c.MaintenanceWindow }, fastWindow),
		listField("nap_nodes", func(c *rawCluster) *[]rawNAPNode { return &c.NAPNodes }, fastNAPNode),
		structField("failures", func(c *rawCluster) *rawFailures { return &c.Failures }, []fastField[rawFailures]{
			strField("upgrade", func(f *rawFailures) *string { return &f.Upgrade }),
			strField("placement", func(f *rawFailures) *string { return &f.Placement }),
		}),
	}
	fastHubObject = []fastField[rawHubObject]{
		strField("group", func(o *rawHubObject) *string { return &o.Group }),
		strField("version", func(o *rawHubObject) *string { return &o.Version }),
		strField("kind", func(o *rawHubObject) *string { return &o.Kind }),
		strField("name", func(o *rawHubObject) *string { return &o.Name }),
		strMapField("labels", func(o *rawHubObject) *map[string]string { return &o.Labels }),
		strMapField("data", func(o *rawHubObject) *map[string]string { return &o.Data }),
		listField("envelope", func(o *rawHubObject) *[]rawHubObjectRef { return &o.Envelope }, []fastField[rawHubObjectRef]{
			strField("group", func(r *rawHubObjectRef) *string { return &r.Group }),
			strField("version", func(r *rawHubObjectRef) *string { return &r.Version }),
			strField("kind", func(r *rawHubObjectRef) *string { return &r.Kind }),
			strField("namespace", func(r *rawHubObjectRef) *string { return &r.Namespace }),
			strField("name", func(r *rawHubObjectRef) *string { return &r.Name }),
		}),
	}
	fastInventory = []fastField[rawInventory]{
		listField("regions", func(i *rawInventory) *[]rawRegion { return &i.Regions }, fastRegion),
		listField("clusters", func(i *rawInventory) *[]rawCluster { return &i.Clusters }, fastCluster),
		structField("hub_cluster", func(i *rawInventory) *rawHubCluster { return &i.HubCluster }, []fastField[rawHubCluster]{
			listField("namespaces", func(h *rawHubCluster) *[]rawHubNamespace { return &h.Namespaces }, []fastField[rawHubNamespace]{
				strField("name", func(n *rawHubNamespace) *string { return &n.Name }),
				strMapField("labels", func(n *rawHubNamespace) *map[string]string { return &n.Labels }),
				listField("objects", func(n *rawHubNamespace) *[]rawHubObject { return &n.Objects }, fastHubObject),
			}),
			listField("objects", func(h *rawHubCluster) *[]rawHubObject { return &h.Objects }, fastHubObject),
		}),
	}
)

// document reads the whole inventory: a block mapping (at any indentation),
// then nothing but comments and blank lines.
func (p *fastParser) document() *rawInventory {
	raw := &rawInventory{}
	p.nextContentLine()
	if p.eof {
		return raw // yaml.v3: io.EOF, an empty fleet
	}
	object(p, fastCtx{kind: atRoot}, raw, fastInventory)
	if !p.eof {
		bail()
	}
	return raw
}
