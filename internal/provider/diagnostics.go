package provider

import (
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// attributePath turns an engine path into a framework path below base.
func attributePath(base path.Path, p field.Path) path.Path {
	out := base
	for _, s := range p.Steps() {
		switch {
		case s.IsKey:
			out = out.AtMapKey(s.Key)
		case s.Name == "":
			out = out.AtListIndex(s.Index)
		default:
			if out.Equal(path.Empty()) {
				out = path.Root(s.Name)
			} else {
				out = out.AtName(s.Name)
			}
		}
	}
	return out
}

// addFieldErrors reports engine validation errors as attribute errors. The
// summary names the rule's subject; the detail repeats the full path (also
// shown by Terraform as the config location), the rule, and the fix.
func addFieldErrors(diags *diag.Diagnostics, base path.Path, summary string, errs field.Errors) {
	for _, e := range errs {
		p := attributePath(base, e.Path)
		detail := e.Rule
		if e.Fix != "" {
			detail += ". " + e.Fix
		}
		diags.AddAttributeError(p, summary, p.String()+": "+detail)
	}
}

// addDecodeError reports a failure to read the configuration, on the
// top-level attribute it concerns when known (the detail names the full path).
func addDecodeError(diags *diag.Diagnostics, err error) {
	var de *decodeError
	if errors.As(err, &de) && de.Attr != "" {
		root, _, _ := strings.Cut(de.Attr, ".")
		diags.AddAttributeError(path.Root(root), "Invalid value", de.Error())
		return
	}
	diags.AddError("Cannot read the configuration", err.Error())
}

// firstWords shortens a message for a diagnostic summary.
func firstWords(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	for i := max; i > 0; i-- {
		if s[i] == ' ' {
			return s[:i] + " …"
		}
	}
	return s[:max] + " …"
}
