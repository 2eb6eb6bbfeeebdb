package provider

import (
	"errors"

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
// attribute it concerns when known.
func addDecodeError(diags *diag.Diagnostics, err error) {
	var de *decodeError
	if errors.As(err, &de) {
		diags.AddAttributeError(path.Root(de.Attr), "Invalid value", de.Attr+": "+de.Err.Error())
		return
	}
	diags.AddError("Cannot read the configuration", err.Error())
}

// knownOnly drops the errors about attributes that are not known yet: they
// are validated again once known (at apply).
func knownOnly(errs field.Errors, unknown map[string]bool) field.Errors {
	if len(unknown) == 0 {
		return errs
	}
	var out field.Errors
	for _, e := range errs {
		if steps := e.Path.Steps(); len(steps) > 0 && unknown[steps[0].Name] {
			continue
		}
		out = append(out, e)
	}
	return out
}
