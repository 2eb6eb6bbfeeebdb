package fleet

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"slices"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Digest is an explicit key: the values written into it, each unambiguously
// (a string with its length, a map in key order), hashed with SHA-256. A key
// built with it names exactly the values it depends on, so renaming a Go
// field or a json tag never changes it; a hub may store one (a placement's
// observed fleet) and compare it in a later process.
type Digest struct {
	h    hash.Hash // nil for a Part
	w    io.Writer // where buf goes: h, or a Part's bytes
	buf  []byte    // written values not hashed yet: hashing many small writes one by one costs more than the hash
	keys []string  // reused by Map
}

// Part is a run of values as a Digest writes them, recorded to be written
// into keys later (Digest.Part): a part of many keys computed once. A key
// that writes a part is the key that writes its values.
type Part []byte

// NewPart records what write writes.
func NewPart(write func(d *Digest)) Part {
	var b bytes.Buffer
	d := &Digest{w: &b}
	write(d)
	d.flush()
	return b.Bytes()
}

// Part writes the values p recorded.
func (d *Digest) Part(p Part) { writeRaw(d, []byte(p)) }

// digestChunk is how much Digest buffers before hashing it.
const digestChunk = 16 << 10

// NewDigest starts a key of the given domain (what it identifies), so that
// keys of different things never collide.
func NewDigest(domain string) *Digest {
	h := sha256.New()
	d := &Digest{h: h, w: h, buf: make([]byte, 0, digestChunk+binary.MaxVarintLen64)}
	d.String(domain)
	return d
}

// String writes s.
func (d *Digest) String(s string) {
	d.Int(int64(len(s)))
	writeRaw(d, s)
}

// writeRaw writes v's bytes as they are, through the buffer unless v is
// larger than it.
func writeRaw[T string | []byte](d *Digest, v T) {
	if len(d.buf)+len(v) > digestChunk {
		d.flush()
		if len(v) > digestChunk {
			_, _ = d.w.Write([]byte(v))
			return
		}
	}
	d.buf = append(d.buf, v...)
}

// Int writes n.
func (d *Digest) Int(n int64) {
	if len(d.buf) >= digestChunk {
		d.flush()
	}
	d.buf = binary.AppendVarint(d.buf, n)
}

// flush hashes what is buffered.
func (d *Digest) flush() {
	_, _ = d.w.Write(d.buf)
	d.buf = d.buf[:0]
}

// Bool writes b.
func (d *Digest) Bool(b bool) {
	if b {
		d.Int(1)
	} else {
		d.Int(0)
	}
}

// Strings writes a list of strings, its length first.
func (d *Digest) Strings(ss []string) {
	d.Int(int64(len(ss)))
	for _, s := range ss {
		d.String(s)
	}
}

// Map writes m in key order, its length first. An empty map and a nil one
// are the same key.
func (d *Digest) Map(m map[string]string) {
	d.Int(int64(len(m)))
	for _, k := range sortedKeys(d, m) {
		d.String(k)
		d.String(m[k])
	}
}

// Quantities writes m in key order, its length first, each quantity in its
// canonical form (Quantity.String: 1000m and 1 are one value).
func (d *Digest) Quantities(m map[string]resource.Quantity) {
	d.Int(int64(len(m)))
	for _, k := range sortedKeys(d, m) {
		q := m[k]
		d.String(k)
		d.String(q.String())
	}
}

// sortedKeys are m's keys in order, in d's reused slice.
func sortedKeys[V any](d *Digest, m map[string]V) []string {
	d.keys = d.keys[:0]
	for k := range m {
		d.keys = append(d.keys, k)
	}
	slices.Sort(d.keys)
	return d.keys
}

// Sum is the key, in hex.
func (d *Digest) Sum() string {
	d.flush()
	return hex.EncodeToString(d.h.Sum(nil))
}
