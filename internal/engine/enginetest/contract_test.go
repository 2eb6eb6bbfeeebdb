package enginetest

import (
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// toy is a spec small enough to break the contract on purpose.
type toy struct {
	Name string
	Size *int
	Tags []string
}

const defaultSize = 3

func validateToy(s toy) field.Errors {
	if s.Name == "" {
		return field.Errors{field.Errorf(field.Root("name"), "", "name is required")}
	}
	return nil
}

// goodToy keeps the contract; each case of TestViolations breaks one part.
func goodToy() Contract[toy] {
	return Contract[toy]{
		Validate: validateToy,
		ValidateUpdate: func(old, new toy) field.Errors {
			es := validateToy(new)
			if old.Name != new.Name {
				es = append(es, field.Errorf(field.Root("name"), "", "name is immutable"))
			}
			return es
		},
		WithDefaults: func(s toy) toy {
			out := DeepCopy(s)
			if out.Size == nil {
				n := defaultSize
				out.Size = &n
			}
			return out
		},
		Warnings: func(s toy) []field.Warning {
			if len(s.Tags) == 0 {
				return []field.Warning{{Path: field.Root("tags"), ID: "no_tags", Message: "nothing is tagged"}}
			}
			return nil
		},
		WarningIDs: []string{"no_tags"},
	}
}

func TestViolations(t *testing.T) {
	valid := toy{Name: "a", Tags: []string{"x"}}
	cases := []struct {
		name  string
		spoil func(c *Contract[toy])
		want  string // substring of the first violation; "" for none
	}{
		{"the good contract", func(c *Contract[toy]) {}, ""},
		{"WithDefaults writes through a shared slice", func(c *Contract[toy]) {
			c.WithDefaults = func(s toy) toy { s.Tags[0] = "changed"; return s }
		}, "WithDefaults modified its input"},
		{"WithDefaults adds on every call", func(c *Contract[toy]) {
			c.WithDefaults = func(s toy) toy { s.Tags = append(append([]string(nil), s.Tags...), "default"); return s }
		}, "not idempotent"},
		{"a default that Validate rejects", func(c *Contract[toy]) {
			c.WithDefaults = func(s toy) toy { s.Name = ""; return s }
		}, "invalid once defaulted"},
		{"an update to the defaulted form is refused", func(c *Contract[toy]) {
			good := c.ValidateUpdate
			c.ValidateUpdate = func(old, new toy) field.Errors {
				if (old.Size == nil) != (new.Size == nil) {
					return field.Errors{field.Errorf(field.Root("size"), "", "size is immutable")}
				}
				return good(old, new)
			}
		}, "ValidateUpdate to its defaulted form"},
		{"a warning without an id", func(c *Contract[toy]) {
			c.Warnings = func(toy) []field.Warning { return []field.Warning{{Message: "m"}} }
		}, "without a declared id"},
		{"defaults change the warnings", func(c *Contract[toy]) {
			c.Warnings = func(s toy) []field.Warning {
				if s.Size == nil {
					return nil
				}
				return []field.Warning{{ID: "no_tags", Message: "m"}}
			}
		}, "defaults change the warnings"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := goodToy()
			tc.spoil(&c)
			got := c.Violations(DeepCopy(valid))
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("violations of a kept contract: %q", got)
				}
				return
			}
			if len(got) == 0 || !strings.Contains(got[0], tc.want) {
				t.Fatalf("got %q, want first a violation containing %q", got, tc.want)
			}
		})
	}
}

func TestDeepCopy(t *testing.T) {
	n := 1
	in := toy{Size: &n, Tags: []string{}}
	out := DeepCopy(in)
	*out.Size = 2
	if *in.Size != 1 || out.Tags == nil || DeepCopy(toy{}).Tags != nil {
		t.Fatalf("DeepCopy shares memory or loses nil apart from empty: %+v %+v", in, out)
	}
	m := map[string][]string{"a": {"b"}}
	DeepCopy(m)["a"][0] = "changed"
	if m["a"][0] != "b" {
		t.Fatal("DeepCopy shares a map's values")
	}
}

func TestCheckKeptContract(t *testing.T) {
	goodToy().Check(t, map[string]toy{
		"tagged":   {Name: "a", Tags: []string{"x"}},
		"untagged": {Name: "b"}, // raises no_tags, so every declared id is raised
		"invalid":  {Tags: []string{}},
	})
}
