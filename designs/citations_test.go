// Package designs holds the design notes; its only code is this test, which
// keeps the code's citations of the notes true.
package designs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	// designs/placement.md §5, designs/placement.md §3–§5, designs/nap.md
	citation = regexp.MustCompile(`designs/([a-z]+)\.md(?: §(\d+)(?:–§(\d+))?)?`)
	// a spec file cited without the designs/ folder
	stray = regexp.MustCompile(`(^|[^/a-z])([a-z]+\.md §\d+)`)
	// files outside the repository, and the research notes cited by section
	outside = regexp.MustCompile(`(\.\./)?shared/(research|crds|spec|seeds)\b|/work/|\bresearch §?\d`)
)

// Every citation of a design note in the code points at a note and a
// section that exist.
func TestCitationsPointAtExistingSections(t *testing.T) {
	sections := map[string]map[int]bool{}
	heading := regexp.MustCompile(`(?m)^## (\d+)\. `)
	notes, _ := filepath.Glob("*.md")
	for _, n := range notes {
		raw, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		sections[n] = map[int]bool{}
		for _, m := range heading.FindAllStringSubmatch(string(raw), -1) {
			i, _ := strconv.Atoi(m[1])
			sections[n][i] = true
		}
	}
	cited := 0
	walk := func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, ".md") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for ln, line := range strings.Split(string(raw), "\n") {
			where := p + ":" + strconv.Itoa(ln+1)
			if m := outside.FindString(line); m != "" && p != "citations_test.go" {
				t.Errorf("%s: %q cites something outside the repository: cite designs/ or a file in the repository", where, m)
			}
			for _, m := range stray.FindAllStringSubmatch(line, -1) {
				if filepath.Dir(p) == "." {
					break // a note cites its neighbours without the folder
				}
				t.Errorf("%s: %q cites a spec outside the repository: write designs/%s", where, m[2], m[2])
			}
			for _, m := range citation.FindAllStringSubmatch(line, -1) {
				cited++
				secs, ok := sections[m[1]+".md"]
				if !ok {
					t.Errorf("%s: %s: no such note in designs/", where, m[0])
					continue
				}
				for _, s := range m[2:] {
					if i, err := strconv.Atoi(s); err == nil && !secs[i] {
						t.Errorf("%s: %s: designs/%s.md has no section %d", where, m[0], m[1], i)
					}
				}
			}
		}
		return nil
	}
	// The code, the tools and these notes themselves, with the README and
	// the templates of the generated docs.
	for _, root := range []string{"../internal", "../cmd", "../tools", "../templates", ".", "../README.md"} {
		if err := filepath.WalkDir(root, walk); err != nil {
			t.Fatal(err)
		}
	}
	if cited < 20 {
		t.Fatalf("only %d citations found: is the walk looking in the right place?", cited)
	}
}
