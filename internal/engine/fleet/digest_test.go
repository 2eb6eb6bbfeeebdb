package fleet

import "testing"

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
