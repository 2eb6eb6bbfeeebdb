// Package enginetest checks the engine contract: what every domain package
// under internal/engine exports for each spec it models, and the properties
// of those functions that the provider relies on.
//
// The four functions of the contract, and the file each one lives in:
//
//	Validate(spec) field.Errors            validation.go
//	ValidateUpdate(old, new) field.Errors  validation.go
//	WithDefaults(spec) spec                defaults.go
//	Warnings(spec, ...) []field.Warning    warnings.go
//
// What each one does:
//
//   - Validate applies every rule that needs only the spec, at paths in the
//     provider's attribute names.
//   - ValidateUpdate is Validate(new) plus the rules of the change
//     (immutable fields, append-only lists), so a caller checking an update
//     makes one call and reports each error once.
//   - WithDefaults is the spec as the API server stores it, every default
//     filled in.
//   - Warnings are accepted but surprising configurations, each carrying the
//     id of its rule (the package's Warn... constants).
//
// Beside them stand doc.go (the package documentation and its layout, one
// concern per file) and types.go (the domain model). Warnings may take more
// than the spec (placement's needs the fleet); the other three take exactly
// these arguments. A package that models several specs names the four after
// each spec (package update).
//
// The properties, checked by Contract.Check over a package's test fixtures:
//
//   - WithDefaults never modifies its input, and is idempotent. The provider
//     compares a spec read back from a server, which has filled in the
//     defaults, with the practitioner's by applying WithDefaults to both; a
//     second application that changed anything would show a diff forever.
//   - Defaults change nothing that is said about a valid spec: Validate and
//     Warnings give the same answer for spec and WithDefaults(spec).
//   - Updating a valid spec to itself, or between its written and its
//     defaulted form, breaks no rule of ValidateUpdate: the state may hold
//     either form.
//   - Validate, ValidateUpdate and Warnings do not modify their arguments.
package enginetest

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// Contract holds one engine package's contract functions for its spec type T.
type Contract[T any] struct {
	Validate       func(T) field.Errors
	ValidateUpdate func(old, new T) field.Errors
	WithDefaults   func(T) T
	// Warnings is the package's Warnings with any argument beyond the spec
	// bound (a fixed fleet, say). It is called on valid specs only.
	Warnings func(T) []field.Warning
	// WarningIDs lists every warning id the package declares; each warning
	// must carry one of them.
	WarningIDs []string
}

// Check runs every property of the contract (see the package documentation)
// on each fixture, one subtest per fixture. Fixtures should span the
// package's test tables: valid specs, specs that break each rule, and specs
// with and without the defaults spelled out. With Warnings set, each of
// WarningIDs must be raised by some fixture, so that the list and the tests
// keep up with the rules.
func (c Contract[T]) Check(t *testing.T, fixtures map[string]T) {
	t.Helper()
	names := make([]string, 0, len(fixtures))
	for name := range fixtures {
		names = append(names, name)
	}
	sort.Strings(names)
	raised := map[string]bool{}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			for _, v := range c.Violations(fixtures[name]) {
				t.Error(v)
			}
		})
		if c.Warnings != nil && len(c.Validate(fixtures[name])) == 0 {
			for _, w := range c.Warnings(fixtures[name]) {
				raised[w.ID] = true
			}
		}
	}
	for _, id := range c.WarningIDs {
		if !raised[id] {
			t.Errorf("no fixture raises warning %q", id)
		}
	}
}

// Violations returns how c breaks the contract on spec, one sentence each;
// none when it keeps it.
func (c Contract[T]) Violations(spec T) []string {
	var out []string
	fail := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	written := DeepCopy(spec)
	modified := func(what string) bool {
		if reflect.DeepEqual(spec, written) {
			return false
		}
		fail("%s modified its input:\n got %+v\nwant %+v", what, spec, written)
		return true
	}

	defaulted := c.WithDefaults(spec)
	if modified("WithDefaults") {
		return out
	}
	if again := c.WithDefaults(DeepCopy(defaulted)); !reflect.DeepEqual(again, defaulted) {
		fail("WithDefaults is not idempotent:\n once  %+v\n twice %+v", defaulted, again)
	}

	errs := c.Validate(spec)
	if modified("Validate") || len(errs) > 0 {
		return out // the remaining properties are about valid specs
	}
	if errs := c.Validate(DeepCopy(defaulted)); len(errs) > 0 {
		fail("valid, but invalid once defaulted: %v", errs)
	}
	for _, u := range []struct {
		name     string
		old, new T
	}{
		{"to itself", spec, spec},
		{"to its defaulted form", spec, DeepCopy(defaulted)},
		{"from its defaulted form", DeepCopy(defaulted), spec},
		{"defaulted to itself", DeepCopy(defaulted), DeepCopy(defaulted)},
	} {
		if errs := c.ValidateUpdate(u.old, u.new); len(errs) > 0 {
			fail("ValidateUpdate %s: %v", u.name, errs)
		}
	}
	if modified("ValidateUpdate") || c.Warnings == nil {
		return out
	}

	ws := c.Warnings(spec)
	if modified("Warnings") {
		return out
	}
	for _, w := range ws {
		if !slices.Contains(c.WarningIDs, w.ID) || w.Message == "" {
			fail("warning without a declared id or a message: %q %s", w.ID, w)
		}
	}
	if wd := c.Warnings(DeepCopy(defaulted)); !reflect.DeepEqual(wd, ws) {
		fail("defaults change the warnings:\n written   %v\n defaulted %v", ws, wd)
	}
	return out
}
