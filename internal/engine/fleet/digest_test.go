package fleet

import (
	"strings"
	"testing"
)

// A Digest is unambiguous (where one value ends is part of the key), and a
// map's key does not depend on the order Go iterates it in.
func TestDigestIsUnambiguous(t *testing.T) {
	sum := func(write func(d *Digest)) string {
		d := NewDigest("test")
		write(d)
		return d.Sum()
	}
	distinct := map[string]string{
		"ab|c":      sum(func(d *Digest) { d.String("ab"); d.String("c") }),
		"a|bc":      sum(func(d *Digest) { d.String("a"); d.String("bc") }),
		"{a:bc}":    sum(func(d *Digest) { d.Map(map[string]string{"a": "bc"}) }),
		"{ab:c}":    sum(func(d *Digest) { d.Map(map[string]string{"ab": "c"}) }),
		"[a,b]":     sum(func(d *Digest) { d.Strings([]string{"a", "b"}) }),
		"[a],[b]":   sum(func(d *Digest) { d.Strings([]string{"a"}); d.Strings([]string{"b"}) }),
		"true":      sum(func(d *Digest) { d.Bool(true) }),
		"false":     sum(func(d *Digest) { d.Bool(false) }),
		"-1":        sum(func(d *Digest) { d.Int(-1) }),
		"empty":     sum(func(d *Digest) {}),
		"other key": func() string { d := NewDigest("other"); return d.Sum() }(),
	}
	seen := map[string]string{}
	for name, s := range distinct {
		if other, dup := seen[s]; dup {
			t.Errorf("%s and %s have the same key", name, other)
		}
		seen[s] = name
	}
	m := map[string]string{}
	for i := range 50 {
		m[string(rune('a'+i%26))+string(rune('a'+i/26))] = "v"
	}
	first := sum(func(d *Digest) { d.Map(m) })
	for range 20 {
		if sum(func(d *Digest) { d.Map(m) }) != first {
			t.Fatal("the key of a map depends on its iteration order")
		}
	}
	if sum(func(d *Digest) { d.Map(nil) }) != sum(func(d *Digest) { d.Map(map[string]string{}) }) {
		t.Error("a nil map and an empty one differ")
	}
}

// A key is stored (a placement's observed fleet) and compared in a later
// process: how Digest hashes what is written must never change what it
// hashes. The expected sums are those of the unbuffered Digest.
func TestDigestSumsAreStable(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 3000) // longer than the buffer
	cases := []struct {
		name  string
		write func(d *Digest)
		want  string
	}{
		{"empty", func(d *Digest) {}, "bf9ef0555bc495120102f558b10edbf653357e88f4af25e8d2434027a8dd2555"},
		{"values", func(d *Digest) {
			d.String("a")
			d.Int(-5)
			d.Bool(true)
			d.Strings([]string{"x", "", "yz"})
			d.Map(map[string]string{"b": "2", "a": "1"})
		}, "d2a2120812931bc8cdd13a01187d3274c49ec32d68bdf0d2afe4715bc4ccf061"},
		{"long", func(d *Digest) {
			for i := range 5000 {
				d.String("cluster")
				d.Int(int64(i))
			}
			d.String(long)
			d.Int(7)
		}, "6f3988cd043cd6ccc005d47a330049fb6a7e4cfe77800e07e9d244149beeb395"},
	}
	for _, c := range cases {
		d := NewDigest("test")
		c.write(d)
		if got := d.Sum(); got != c.want {
			t.Errorf("%s: sum %s, want %s", c.name, got, c.want)
		}
	}
}

// A key that writes a recorded part is the key that writes its values,
// however long the part.
func TestDigestPartIsItsValues(t *testing.T) {
	long := strings.Repeat("x", 3*digestChunk)
	for name, write := range map[string]func(d *Digest){
		"short": func(d *Digest) { d.String("a"); d.Map(map[string]string{"k": "v"}) },
		"long":  func(d *Digest) { d.String(long); d.Int(3) },
	} {
		direct := NewDigest("test")
		direct.String("before")
		write(direct)
		direct.Int(9)
		parted := NewDigest("test")
		parted.String("before")
		parted.Part(NewPart(write))
		parted.Int(9)
		if direct.Sum() != parted.Sum() {
			t.Errorf("%s: the part's key differs from its values'", name)
		}
	}
}
