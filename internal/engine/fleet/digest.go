package fleet

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"slices"
)

// Digest is an explicit key: the values written into it, each unambiguously
// (a string with its length, a map in key order), hashed with SHA-256. A key
// built with it names exactly the values it depends on, so renaming a Go
// field or a json tag never changes it; a hub may store one (a placement's
// observed fleet) and compare it in a later process.
type Digest struct {
	h    hash.Hash
	buf  [binary.MaxVarintLen64]byte
	keys []string // reused by Map
}

// NewDigest starts a key of the given domain (what it identifies), so that
// keys of different things never collide.
func NewDigest(domain string) *Digest {
	d := &Digest{h: sha256.New()}
	d.String(domain)
	return d
}

// String writes s.
func (d *Digest) String(s string) {
	d.Int(int64(len(s)))
	_, _ = io.WriteString(d.h, s)
}

// Int writes n.
func (d *Digest) Int(n int64) {
	d.h.Write(d.buf[:binary.PutVarint(d.buf[:], n)])
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
	d.keys = d.keys[:0]
	for k := range m {
		d.keys = append(d.keys, k)
	}
	slices.Sort(d.keys)
	for _, k := range d.keys {
		d.String(k)
		d.String(m[k])
	}
}

// Sum is the key, in hex.
func (d *Digest) Sum() string { return hex.EncodeToString(d.h.Sum(nil)) }
