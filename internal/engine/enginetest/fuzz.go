package enginetest

import (
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// libraryErrorText are fragments of the errors of the libraries the engines
// parse user input with (strconv, time, apimachinery's resource quantities,
// robfig/cron) and of fmt's verb mistakes. Engines state rules in their own
// words: a library's error passed through reaches the user as is, naming Go
// functions and regular expressions.
var libraryErrorText = []string{
	"strconv.", "invalid syntax", "value out of range", "time: ", "parsing time ", "cannot parse ",
	"quantities must match the regular expression", "unable to parse quantity", "unable to parse numeric part",
	"failed to parse int from", "failed to parse duration", "unrecognized descriptor", "expected exactly",
	"fields, found", "beginning of range", "end of range (", "too many hyphens", "too many slashes",
	"step of range", "negative number (", "empty spec string", "provided bad location",
	"%!", "<nil>", "runtime error",
}

// LibraryErrorText returns the fragment of a library error found in a
// message, if any, outside what it quotes (%q) and the inputs it names as
// they are (%s): those may hold anything.
func LibraryErrorText(msg string, inputs ...string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(msg); {
		if msg[i] == '"' {
			if q, err := strconv.QuotedPrefix(msg[i:]); err == nil {
				b.WriteString(`""`)
				i += len(q)
				continue
			}
		}
		b.WriteByte(msg[i])
		i++
	}
	s := b.String()
	inputs = slices.Clone(inputs)
	slices.SortFunc(inputs, func(a, b string) int { return len(b) - len(a) })
	for _, in := range inputs {
		if in != "" {
			s = strings.ReplaceAll(s, in, "")
		}
	}
	for _, frag := range libraryErrorText {
		if strings.Contains(s, frag) {
			return frag, true
		}
	}
	return "", false
}

// CheckErrors is what every fuzz target asks of a validator's errors,
// whatever the input: each names the attribute it is about (a non-empty
// path) and the rule it breaks, in the engine's words, never a library's.
// inputs are the values the validator was given: a message may quote them.
func CheckErrors(t testing.TB, errs field.Errors, inputs ...string) {
	t.Helper()
	for _, e := range errs {
		if e.Path.String() == "" || e.Rule == "" {
			t.Errorf("an error without a path or a rule: %#v", e)
		}
		if frag, ok := LibraryErrorText(e.Rule+"\n"+e.Fix, inputs...); ok {
			t.Errorf("%s: the message passes on a library error (%q): %s", e.Path, frag, e.Error())
		}
	}
}

// exponentForm is a quantity written with a decimal exponent, apimachinery's
// <number>e<integer>.
var exponentForm = regexp.MustCompile(`^[+-]?[0-9]*(\.[0-9]*)?[eE]([+-]?[0-9]+)$`)

// ReferenceQuantity is the reference reading of a quantity for the fuzz
// targets: apimachinery's resource.ParseQuantity, for at most 1000
// characters with a decimal exponent within ±1000. The engines refuse what
// lies beyond (fleet.ParseQuantity): apimachinery takes unbounded time to
// read or compare it, and so would this reference.
func ReferenceQuantity(s string) (resource.Quantity, bool) {
	if len(s) > 1000 {
		return resource.Quantity{}, false
	}
	if m := exponentForm.FindStringSubmatch(s); m != nil {
		if e, ok := new(big.Int).SetString(m[2], 10); ok && e.CmpAbs(big.NewInt(1000)) > 0 {
			return resource.Quantity{}, false
		}
	}
	q, err := resource.ParseQuantity(s)
	return q, err == nil
}
