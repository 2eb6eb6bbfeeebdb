package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
)

// Plans a reviewer can read at fleet scale (designs/previews.md §6), counted
// on the real CLI's output: an in-place change of one attribute of a PickAll
// placement over 1,000 clusters prints at most 70 lines, a create at most 40
// lines per placement preview at the default limit, a NodePool's change at
// most 80.
func TestAccPreviewPlanLines(t *testing.T) {
	w := newWorld(t, testClock)
	big := filepath.Join(t.TempDir(), "fleet.json")
	if err := os.WriteFile(big, fleetgen.Generate(fleetgen.Options{Clusters: 1000, Seed: 7, StaleEvery: 50, TaintEvery: 40}), 0o644); err != nil {
		t.Fatal(err)
	}
	w.provider = providerConfigAt(filepath.Join(w.dir, "state.db"), big, testClock)
	placements := func(selector string) string {
		return `
resource "aks_fleet_placement" "everywhere" {
  name               = "everywhere"
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "` + selector + `"
  }
  policy {
    tolerations {
      key = "dedicated"
      operator = "Exists"
    }
  }
}

resource "aks_fleet_placement" "best" {
  name               = "best"
  resource_selectors {
    version = "v1"
    kind = "Namespace"
    name = "web"
  }
  policy {
    placement_type     = "PickN"
    number_of_clusters = 10
    affinity {
      preferred {
        weight = 100
        preference {
          property_sorter {
            name = "resources.kubernetes-fleet.io/available-cpu"
            sort_order = "Descending"
          }
        }
      }
    }
  }
}
`
	}
	w.config(placements("web"))
	w.must("init", "-input=false", "-no-color")
	create := w.must("plan", "-input=false", "-no-color")
	for _, obj := range []string{"aks_fleet_placement everywhere", "aks_fleet_placement best"} {
		n := len(previewBlock(t, create, obj))
		t.Logf("create: the preview of %s prints %d lines", obj, n)
		if n > 40 {
			t.Errorf("the create's preview of %s prints %d lines, more than 40:\n%s", obj, n, strings.Join(previewBlock(t, create, obj), "\n"))
		}
	}
	w.must("apply", "-input=false", "-no-color", "-auto-approve")

	// One attribute of the PickAll placement over 1,000 clusters changes.
	w.config(placements("api"))
	change := w.must("plan", "-input=false", "-no-color")
	lines := planLines(change)
	t.Logf("an in-place change of one attribute of a PickAll placement over 1,000 clusters prints %d lines", len(lines))
	if len(lines) > 70 || !strings.Contains(change, "Plan: 0 to add, 1 to change, 0 to destroy.") {
		t.Errorf("the change prints %d lines, more than 70:\n%s", len(lines), change)
	}

	// A NodePool: created, then its budgets changed (the sample fleet's pool of 3 nodes).
	w.provider = providerConfigAt(filepath.Join(w.dir, "pool.db"), "", testClock)
	pool := func(budgets string) string {
		return `
resource "aks_nap_nodepool" "default" {
  cluster = "aks-east-prod-01"
  name    = "default"
  template {
    node_class_ref {
      group = "karpenter.azure.com"
      kind = "AKSNodeClass"
      name = "default"
    }
    requirements {
      key = "karpenter.azure.com/sku-family"
      operator = "In"
      values = ["D", "E"]
    }
  }
  disruption {
    consolidate_after = "5m"
` + blocksOf("budgets", budgets) + `
  }
}
`
	}
	if err := os.Remove(filepath.Join(w.dir, "terraform.tfstate")); err != nil {
		t.Fatal(err)
	}
	w.config(pool(budgetsAlways))
	w.must("apply", "-input=false", "-no-color", "-auto-approve")
	w.config(pool(budgetsBusiness))
	poolPlan := w.must("plan", "-input=false", "-no-color")
	n := len(planLines(poolPlan))
	t.Logf("a NodePool's change prints %d lines", n)
	if n > 80 || !strings.Contains(poolPlan, "Preview: aks_nap_nodepool aks-east-prod-01/default") {
		t.Errorf("the NodePool's change prints %d lines, more than 80:\n%s", n, poolPlan)
	}
}

// planLines are a plan's lines, without the lines Terraform prints before it
// (refreshing, reading) and without the CLI configuration warning of the
// test's environment.
func planLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if strings.HasSuffix(l, "Refreshing state...") || strings.Contains(l, ": Refreshing state... [id=") || strings.Contains(l, ": Reading...") ||
			strings.Contains(l, ": Read complete after") {
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

// previewBlock is the warning that shows the preview of obj, from its
// "Warning:" line to the line before the next diagnostic.
func previewBlock(t *testing.T, out, obj string) []string {
	t.Helper()
	lines := strings.Split(out, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, "│╷ "), "Warning: "+previewSummaryPrefix+obj+" ") {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("no preview of %s in:\n%s", obj, out)
	}
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		if l := strings.TrimLeft(lines[i], "│╷ "); strings.HasPrefix(l, "Warning: ") || strings.HasPrefix(l, "Error: ") {
			end = i
			break
		}
	}
	block := lines[start:end]
	for len(block) > 0 && strings.TrimSpace(block[len(block)-1]) == "" {
		block = block[:len(block)-1]
	}
	return block
}
