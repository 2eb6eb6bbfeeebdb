package nodepool_test

import (
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/engine/enginetest"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool/nodepooltest"
)

// TestValidate runs the validation corpus (package nodepooltest): each case
// gets exactly the errors the corpus lists, at the path it names, each with a
// rule and a fix.
func TestValidate(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range nodepooltest.Cases() {
		if seen[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			errs := nodepool.Validate(c.Pool)
			if len(c.Errors) == 0 {
				if len(errs) > 0 {
					t.Fatalf("expected valid, got:\n%v", errs)
				}
				return
			}
			if len(errs) != len(c.Errors) {
				t.Fatalf("expected errors %v at %s, got %d:\n%v", c.Errors, nodepooltest.ErrorPath(c.Name), len(errs), errs)
			}
			for i, e := range errs {
				if e.ID != c.Errors[i] {
					t.Errorf("error %d: got %s, want %s (%v)", i, e.ID, c.Errors[i], e)
				}
				if e.Rule == "" || e.Fix == "" {
					t.Errorf("incomplete error %+v", e)
				}
				if want := e.Path.String() + ": " + e.Rule + ". " + e.Fix; e.Error() != want {
					t.Errorf("Error() = %q, want %q", e.Error(), want)
				}
				if nodepool.PathFromSteps(e.Path.Steps()).String() != e.Path.String() {
					t.Errorf("steps of %s do not rebuild it", e.Path)
				}
			}
			if want := nodepooltest.ErrorPath(c.Name); errs[0].Path.String() != want {
				t.Errorf("got %s at %q, want it at %q", errs[0].ID, errs[0].Path, want)
			}
		})
	}
}

// TestCasesAreFresh: every call builds new values, so a test that changes a
// case cannot change another test's.
func TestCasesAreFresh(t *testing.T) {
	a := nodepooltest.Cases()
	a[1].Pool.Template.Labels["team"] = "changed"
	a[0].Pool.Template.Requirements[0].Values[0] = "changed"
	b := nodepooltest.Cases()
	if b[1].Pool.Template.Labels["team"] == "changed" || b[0].Pool.Template.Requirements[0].Values[0] == "changed" {
		t.Fatal("Cases shares values between calls")
	}
}

// TestContract checks the engine contract (package enginetest) over the
// validation corpus and the pools of the package's other test tables.
func TestContract(t *testing.T) {
	fx := nodepool.TableFixtures()
	for _, c := range nodepooltest.Cases() {
		fx["validate "+c.Name] = c.Pool
	}
	rich := nodepooltest.RichPool()
	fx["defaults written"] = nodepool.WithDefaults(rich)
	rich.Disruption.Budgets[0].Nodes = ptr(nodepool.DefaultBudgetNodes)
	fx["some defaults written"] = rich
	enginetest.Contract[nodepool.NodePool]{
		Validate:       nodepool.Validate,
		ValidateUpdate: nodepool.ValidateUpdate,
		WithDefaults:   nodepool.WithDefaults,
		Warnings:       nodepool.Warnings,
		WarningIDs: []string{nodepool.WarnEmptyBudgets, nodepool.WarnBlocksForever, nodepool.WarnNeverFires, nodepool.WarnDurationCoversPeriod, nodepool.WarnNeverActive,
			nodepool.WarnReasonsEmpty, nodepool.WarnCannotRaise, nodepool.WarnUnlimitedOutsideWindows, nodepool.WarnReasonUnbudgeted,
			nodepool.WarnUnknownValues, nodepool.WarnBalanced},
	}.Check(t, fx)
}

func ptr[T any](v T) *T { return &v }
