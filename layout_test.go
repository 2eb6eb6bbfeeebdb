package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const (
	module = "github.com/fleetform/terraform-provider-aks"
	tf     = "github.com/hashicorp/terraform-plugin"
)

// terraformTypes are the modules of Terraform's plugin protocol and types.
var terraformTypes = []string{tf + "-framework", tf + "-framework-validators", tf + "-framework-timeouts", tf + "-go", tf + "-testing"}

// The layout by role (README's house): what ships never imports the wire
// twin, and the arrows point down — the engine imports neither the hubs
// nor the provider nor Terraform, the hubs not the provider. Every Go file
// of the repository but tests is read for its imports; the emulator's own
// packages and its command may import anything.
func TestImportBoundaries(t *testing.T) {
	rules := []struct {
		from   string // a folder of the repository
		except []string
		refuse []string // import path prefixes
		why    string
	}{
		{"", []string{"internal/emulator", "cmd/fleet-emulator"}, []string{module + "/internal/emulator"},
			"the wire twin (Resource Manager, Entra ID, the clusters' API servers, Fleet's and Karpenter's controllers) is for tests and the emulator command only"},
		{"internal/engine", nil, append([]string{module + "/internal/hub", module + "/internal/provider", tf + "-log"}, terraformTypes...),
			"the engine is pure: no hub, no provider, no Terraform types, no logging (no I/O)"},
		{"internal/hub", nil, append([]string{module + "/internal/provider"}, terraformTypes...),
			"hubs store and execute; the provider sits above them (tflog is theirs too: every hub call is logged)"},
		{"internal/hub/mock/inventory", nil, []string{module + "/internal/hub/mock", "go.etcd.io/bbolt"},
			"the inventory reads files and keeps nothing: the mock hub stores what it decoded"},
		{"internal/hub/mock/store", nil, []string{module + "/internal/hub/mock/inventory"},
			"the store keeps records and decides nothing about them; what an inventory says is the mock hub's business"},
	}
	checked := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == "bin" || strings.HasPrefix(d.Name(), ".") && p != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, r := range rules {
			if !under(p, r.from) || anyUnder(p, r.except) {
				continue
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, refused := range r.refuse {
					if path == refused || strings.HasPrefix(path, refused+"/") {
						t.Errorf("%s imports %s: %s", p, path, r.why)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files read: is the walk in the repository's root?", checked)
	}
}

func under(p, dir string) bool {
	return dir == "" || p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

func anyUnder(p string, dirs []string) bool {
	for _, d := range dirs {
		if under(p, d) {
			return true
		}
	}
	return false
}
