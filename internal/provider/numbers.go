package provider

import (
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// checkNumbers applies an engine's number rules to every known number of a
// configuration or plan before it is decoded: a fraction or a number beyond
// a model field's range (`weight = 2.5`, `min_values = 1e30`) cannot be
// decoded, and gets the attribute's own rule and range from the engine
// instead of a decoding error. check returns the errors for the number at a
// path, nil where it has no rule. It reports them and returns false when
// there are any.
func checkNumbers(v tftypes.Value, summary string, check func(field.Path, string) field.Errors, diags *diag.Diagnostics) bool {
	var errs field.Errors
	_ = tftypes.Walk(v, func(ap *tftypes.AttributePath, x tftypes.Value) (bool, error) {
		if !x.Type().Is(tftypes.Number) || !x.IsKnown() || x.IsNull() {
			return true, nil
		}
		p, ok := enginePath(ap)
		var n big.Float
		if !ok || x.As(&n) != nil {
			return true, nil
		}
		errs = append(errs, check(p, n.Text('f', -1))...)
		return true, nil
	})
	addFieldErrors(diags, path.Empty(), summary, errs)
	return len(errs) == 0
}

// enginePath turns a Terraform attribute path into an engine path; false for
// steps the engine's paths do not have (set elements).
func enginePath(ap *tftypes.AttributePath) (field.Path, bool) {
	var p field.Path
	for _, s := range ap.Steps() {
		switch s := s.(type) {
		case tftypes.AttributeName:
			p = p.Child(string(s))
		case tftypes.ElementKeyInt:
			p = p.Index(int(s))
		case tftypes.ElementKeyString:
			p = p.Key(string(s))
		default:
			return p, false
		}
	}
	return p, true
}
