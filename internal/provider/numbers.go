package provider

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/placement"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
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

// wholeNumberBounds are the engines' bounds of the whole numbers a
// configuration writes, by the end of the attribute's path: the range a
// message about a fraction or an oversized number gives, and what the
// attribute's description states (TestSchemaAnnouncesEngineRules). The
// engines decide each range; this only names it.
var wholeNumberBounds = map[string][2]int64{
	"affinity.preferred.weight":            {placement.MinWeight, placement.MaxWeight},
	"policy.number_of_clusters":            {0, placement.MaxInt32},
	"topology_spread_constraints.max_skew": {1, placement.MaxInt32},
	"revision_history_limit":               {placement.MinRevisionHistory, placement.MaxRevisionHistory},
	"aks_nap_nodepool.weight":              {nodepool.MinWeight, nodepool.MaxWeight},
	"requirements.min_values":              {1, nodepool.MaxMinValues},
	"stages.after_stage_wait_in_seconds":   {0, update.MaxAfterStageWaitInSeconds},
	"preview_limit":                        {1, maxPreviewLimit},
}

// boundsOf is the range of the whole number at p (an attribute path with
// list indices, e.g. stages[1].after_stage_wait_in_seconds; a NodePool's
// numbers get their engine's own message first, checkNumbers).
func boundsOf(p string) (lo, hi int64, ok bool) {
	bare := indexes.ReplaceAllString(p, "")
	for suffix, b := range wholeNumberBounds {
		if bare == suffix || strings.HasSuffix(bare, "."+suffix) {
			return b[0], b[1], true
		}
	}
	return 0, 0, false
}

var indexes = regexp.MustCompile(`\[\d+\]`)

// checkWholeNumbers reports every number of a configuration or plan written
// to a whole-number attribute (wholeNumberType) that is not a whole number
// a 64-bit integer holds — `after_stage_wait_in_seconds = 1.5`, `max_skew =
// 1e30` — at its own path, list indices included, with the attribute's range
// (designs/schema.md §4); it returns false when there is one. The engines
// check the range of every whole number; this is only what cannot be
// decoded into one.
func checkWholeNumbers[A interface{ GetType() attr.Type }](ctx context.Context, attributeAt func(context.Context, *tftypes.AttributePath) (A, error),
	v tftypes.Value, diags *diag.Diagnostics) bool {
	ok := true
	_ = tftypes.Walk(v, func(ap *tftypes.AttributePath, x tftypes.Value) (bool, error) {
		if !x.Type().Is(tftypes.Number) || !x.IsKnown() || x.IsNull() {
			return true, nil
		}
		a, err := attributeAt(ctx, ap)
		if err != nil {
			return true, nil
		}
		if _, whole := a.GetType().(wholeNumberType); !whole {
			return true, nil
		}
		var n big.Float
		if x.As(&n) != nil {
			return true, nil
		}
		if _, acc := n.Int64(); n.IsInt() && acc == big.Exact {
			return true, nil
		}
		p, _ := enginePath(ap)
		what := "is not a whole number"
		if n.IsInt() {
			what = "is out of range"
		}
		rule := fmt.Sprintf("%s %s: write a whole number", n.Text('g', -1), what)
		if lo, hi, known := boundsOf(p.String()); known {
			rule += fmt.Sprintf(" from %d to %d", lo, hi)
		}
		addFieldErrors(diags, path.Empty(), "Invalid value", field.Errors{{Path: p, Rule: rule + "."}})
		ok = false
		return true, nil
	})
	return ok
}
