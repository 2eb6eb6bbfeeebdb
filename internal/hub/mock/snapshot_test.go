package mock

import (
	"reflect"
	"testing"
	"time"
)

// A snapshot written by a build whose inventory types differ must not be
// read (gob would drop the fields it cannot match): the type shape in its key
// changes with every rename or change of type, and only then.
func TestSnapshotKeyFollowsTypes(t *testing.T) {
	type node struct {
		Name  string
		Ready uint8
	}
	type base struct {
		Name   string
		Labels map[string]string
		Nodes  []node
		At     time.Time
	}
	type same struct {
		Name   string
		Labels map[string]string
		Nodes  []node
		At     time.Time
	}
	type renamed struct {
		Title  string
		Labels map[string]string
		Nodes  []node
		At     time.Time
	}
	type nestedRenamed struct {
		Name   string
		Labels map[string]string
		Nodes  []struct {
			Name    string
			IsReady uint8
		}
		At time.Time
	}
	type retyped struct {
		Name   string
		Labels map[string]int
		Nodes  []node
		At     time.Time
	}
	shape := func(t reflect.Type) string { return typeShape(t, map[reflect.Type]bool{}) }
	want := shape(reflect.TypeFor[base]())
	for _, tc := range []struct {
		name string
		typ  reflect.Type
		same bool
	}{
		{"the same fields", reflect.TypeFor[same](), true},
		{"a renamed field", reflect.TypeFor[renamed](), false},
		{"a renamed nested field", reflect.TypeFor[nestedRenamed](), false},
		{"a field of another type", reflect.TypeFor[retyped](), false},
	} {
		if got := shape(tc.typ); (got == want) != tc.same {
			t.Errorf("%s: shape %s, base %s", tc.name, got, want)
		}
	}
}
