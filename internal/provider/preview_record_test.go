package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// Acceptance tests read the plan diagnostic a preview is shown in
// (designs/previews.md §2) as the reviewer does. terraform-plugin-testing
// does not expose warnings, so the provider under test is served through a
// recorder of the previews its PlanResourceChange returns; each Terraform
// command configures the provider first, which starts a new recording.

// testAccProviders runs the provider in-process for the Terraform CLI that
// terraform-plugin-testing starts (TF_ACC_TERRAFORM_PATH).
var testAccProviders = map[string]func() (tfprotov6.ProviderServer, error){
	"aks": func() (tfprotov6.ProviderServer, error) {
		s, err := providerserver.NewProtocol6WithError(New("test")())()
		return recordingServer{s}, err
	},
}

// recorded are the previews of the last Terraform command, by object
// ("aks_fleet_placement web"), and every other diagnostic's summary.
var recorded struct {
	sync.Mutex
	previews map[string]tfprotov6.Diagnostic
	other    []tfprotov6.Diagnostic
}

type recordingServer struct{ tfprotov6.ProviderServer }

func (s recordingServer) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	recorded.Lock()
	recorded.previews, recorded.other = map[string]tfprotov6.Diagnostic{}, nil
	recorded.Unlock()
	return s.ProviderServer.ConfigureProvider(ctx, req)
}

func (s recordingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		recorded.Lock()
		for _, d := range resp.Diagnostics {
			if obj, ok := previewObject(d); ok {
				recorded.previews[obj] = *d
			} else {
				recorded.other = append(recorded.other, *d)
			}
		}
		recorded.Unlock()
	}
	return resp, err
}

// previewObject is the object a preview diagnostic is of ("<type> <id>").
func previewObject(d *tfprotov6.Diagnostic) (string, bool) {
	rest, ok := strings.CutPrefix(d.Summary, previewSummaryPrefix)
	if !ok || d.Severity != tfprotov6.DiagnosticSeverityWarning {
		return "", false
	}
	obj, _, _ := strings.Cut(rest, " — ")
	return obj, true
}

// previewOf is the preview of obj the last command recorded.
func previewOf(obj string) (tfprotov6.Diagnostic, bool) {
	recorded.Lock()
	defer recorded.Unlock()
	d, ok := recorded.previews[obj]
	return d, ok
}

// expectPreview checks that the plan showed a preview of obj whose summary
// and detail contain every phrase (a run of spaces in a phrase matches any
// white space, as the columns of a preview are padded).
func expectPreview(obj string, phrases ...string) plancheck.PlanCheck {
	return previewCheck{obj: obj, phrases: phrases}
}

// expectNoPreview checks that the plan showed no preview of obj.
func expectNoPreview(obj string) plancheck.PlanCheck { return previewCheck{obj: obj, none: true} }

// expectPreviewLacks checks that the preview of obj does not contain phrase.
func expectPreviewLacks(obj, phrase string) plancheck.PlanCheck {
	return previewCheck{obj: obj, lacks: phrase}
}

type previewCheck struct {
	obj     string
	phrases []string
	lacks   string
	none    bool
}

func (c previewCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	d, ok := previewOf(c.obj)
	switch {
	case c.none && ok:
		resp.Error = fmt.Errorf("the plan shows a preview of %s: %s\n%s", c.obj, d.Summary, d.Detail)
		return
	case c.none:
		return
	case !ok:
		resp.Error = fmt.Errorf("the plan shows no preview of %s", c.obj)
		return
	}
	text := d.Summary + "\n" + d.Detail
	for _, p := range c.phrases {
		if !expectError(p).MatchString(text) {
			resp.Error = fmt.Errorf("the preview of %s does not show %q:\n%s", c.obj, p, text)
			return
		}
	}
	if c.lacks != "" && expectError(c.lacks).MatchString(text) {
		resp.Error = fmt.Errorf("the preview of %s shows %q:\n%s", c.obj, c.lacks, text)
	}
}

// expectPreviewLine checks that a line of the preview of obj matches re.
func expectPreviewLine(obj string, re *regexp.Regexp) plancheck.PlanCheck {
	return previewLineCheck{obj, re}
}

type previewLineCheck struct {
	obj string
	re  *regexp.Regexp
}

func (c previewLineCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	d, ok := previewOf(c.obj)
	if !ok {
		resp.Error = fmt.Errorf("the plan shows no preview of %s", c.obj)
		return
	}
	for _, l := range strings.Split(d.Summary+"\n"+d.Detail, "\n") {
		if c.re.MatchString(strings.TrimSpace(l)) {
			return
		}
	}
	resp.Error = fmt.Errorf("no line of the preview of %s matches %s:\n%s\n%s", c.obj, c.re, d.Summary, d.Detail)
}

// expectWarning checks that the last command returned a diagnostic other
// than a preview whose summary and detail contain every phrase.
func expectWarning(phrases ...string) plancheck.PlanCheck { return warningCheck(phrases) }

type warningCheck []string

func (c warningCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	recorded.Lock()
	defer recorded.Unlock()
	var all []string
	for _, d := range recorded.other {
		text := d.Summary + "\n" + d.Detail
		all = append(all, text)
		found := true
		for _, p := range c {
			found = found && expectError(p).MatchString(text)
		}
		if found {
			return
		}
	}
	resp.Error = fmt.Errorf("no diagnostic says %q; the plan returned:\n%s", []string(c), strings.Join(all, "\n---\n"))
}

// keyLine matches a preview line "<key>  <value>" (columns padded).
func keyLine(key, value string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(key) + `\s+` + regexp.QuoteMeta(value) + `$`)
}

// sectionLines are the lines of the section titled title in a preview's
// detail (the lines indented under "  <title>:"), runs of spaces collapsed.
func sectionLines(detail, title string) ([]string, bool) {
	var out []string
	in, found := false, false
	for _, l := range strings.Split(detail, "\n") {
		switch {
		case l == "  "+title+":":
			in, found = true, true
		case in && strings.HasPrefix(l, "    "):
			out = append(out, strings.Join(strings.Fields(l), " "))
		default:
			in = false
		}
	}
	return out, found
}

// expectSection checks the lines of a section of the preview of obj: all of
// them, in order (want nil: the preview has no such section).
func expectSection(obj, title string, want ...string) plancheck.PlanCheck {
	return sectionCheck{obj: obj, title: title, want: want, size: -1}
}

// expectSectionSize checks how many lines a section of the preview of obj has.
func expectSectionSize(obj, title string, n int) plancheck.PlanCheck {
	return sectionCheck{obj: obj, title: title, size: n}
}

type sectionCheck struct {
	obj, title string
	want       []string
	size       int
}

func (c sectionCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	d, ok := previewOf(c.obj)
	if !ok {
		resp.Error = fmt.Errorf("the plan shows no preview of %s", c.obj)
		return
	}
	got, found := sectionLines(d.Detail, c.title)
	if c.size >= 0 {
		if len(got) != c.size {
			resp.Error = fmt.Errorf("section %q of the preview of %s has %d lines, want %d:\n%s", c.title, c.obj, len(got), c.size, d.Detail)
		}
		return
	}
	var want []string
	for _, w := range c.want {
		want = append(want, strings.Join(strings.Fields(w), " "))
	}
	if c.want == nil && found || c.want != nil && strings.Join(got, "\n") != strings.Join(want, "\n") {
		resp.Error = fmt.Errorf("section %q of the preview of %s:\n got %q\nwant %q\n%s", c.title, c.obj, got, want, d.Detail)
	}
}

// lineIs matches a preview line exactly.
func lineIs(s string) *regexp.Regexp { return regexp.MustCompile(`^` + regexp.QuoteMeta(s) + `$`) }
