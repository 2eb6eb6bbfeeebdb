package provider

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// rfc3339Validator checks that a string is an RFC 3339 instant.
type rfc3339Validator struct{}

func (rfc3339Validator) Description(context.Context) string {
	return "value must be an RFC 3339 instant such as 2026-11-21T09:00:00Z"
}

func (v rfc3339Validator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (rfc3339Validator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := time.Parse(time.RFC3339, req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid time",
			fmt.Sprintf("%s: %q is not an RFC 3339 instant. Write it like 2026-11-21T09:00:00Z.", req.Path, req.ConfigValue.ValueString()))
	}
}

// maxPreviewLimit bounds preview_limit.
const maxPreviewLimit = 10000

// wholeNumberBetween checks a provider-owned whole-number setting (engine
// attributes are range-checked by their engine).
func wholeNumberBetween(min, max int64) validator.Number { return wholeNumberValidator{min, max} }

type wholeNumberValidator struct{ min, max int64 }

func (v wholeNumberValidator) Description(context.Context) string {
	return fmt.Sprintf("value must be a whole number from %d to %d", v.min, v.max)
}

func (v wholeNumberValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v wholeNumberValidator) ValidateNumber(_ context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	f := req.ConfigValue.ValueBigFloat()
	i, acc := f.Int64()
	if !f.IsInt() || acc != big.Exact || i < v.min || i > v.max {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value",
			fmt.Sprintf("%s: %s is not allowed: write a whole number from %d to %d.", req.Path, f.Text('g', -1), v.min, v.max))
	}
}
