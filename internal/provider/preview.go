package provider

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// The plan diagnostic every resource shows its preview in (designs/previews.md
// §2): one warning per resource that is created or changed, with a summary of
// its own (Terraform folds warnings that share one), a first line that says
// when and on what the prediction was made, and a bounded list of lines, each
// indented so that Terraform prints it as one line (it wraps only detail
// lines that do not start with a space). A diagnostic is no planned value:
// the plan Terraform saves never depends on it, and the preview printed again
// at apply says what apply does then.

// preview is a resource's plan-time preview, as the reviewer reads it.
type preview struct {
	// Headline is the one-line gist, in the summary after the object.
	Headline string
	// At is the instant the preview was evaluated at (the hub's clock).
	At time.Time
	// Basis says what the prediction rests on, completing "Evaluated at <At> …".
	Basis string
	// First replaces the first line "Evaluated at <At> <Basis>." when set.
	First string
	// Sections are titled groups of lines; a section without lines is left out.
	Sections []previewSection
}

type previewSection struct {
	Title string
	Lines []string
}

// add appends a section.
func (p *preview) add(title string, lines ...string) {
	p.Sections = append(p.Sections, previewSection{Title: title, Lines: lines})
}

// previewSummaryPrefix starts every preview diagnostic's summary.
const previewSummaryPrefix = "Preview: "

// reportPreview adds the preview of obj as one warning.
func reportPreview(diags *diag.Diagnostics, obj objectRef, p preview) {
	diags.AddWarning(previewSummary(obj, p.Headline), p.detail())
}

func previewSummary(obj objectRef, headline string) string {
	return previewSummaryPrefix + obj.Kind + " " + obj.ID + " — " + headline
}

// detail renders the sections under a first line saying when and on what the
// preview was made. Section titles end with ":"; their lines are indented.
func (p preview) detail() string {
	var b strings.Builder
	if p.First != "" {
		b.WriteString(p.First)
	} else {
		fmt.Fprintf(&b, "Evaluated at %s %s.", p.At.UTC().Format(time.RFC3339), p.Basis)
	}
	b.WriteString("\n")
	for _, s := range p.Sections {
		if len(s.Lines) == 0 {
			continue
		}
		indent := "  " // lines of the preview itself
		if s.Title != "" {
			b.WriteString("  " + s.Title + ":\n")
			indent = "    " // a list's lines
		}
		for _, l := range s.Lines {
			b.WriteString(indent + l + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// bounded keeps at most limit lines, then says how many more there are and
// where they are listed.
func bounded(lines []string, limit int, where string) []string {
	if len(lines) <= limit {
		return lines
	}
	more := fmt.Sprintf("… and %d more", len(lines)-limit)
	if where != "" {
		more += " (" + where + ")"
	}
	return append(lines[:limit:limit], more)
}

// columns pads the first column of two-column lines to the widest.
func columns(rows [][2]string) []string {
	w := 0
	for _, r := range rows {
		w = max(w, len(r[0]))
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		if r[1] == "" {
			out[i] = r[0]
			continue
		}
		out[i] = fmt.Sprintf("%-*s  %s", w, r[0], r[1])
	}
	return out
}
