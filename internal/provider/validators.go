package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
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

// blockRequired requires a block where its parent block is written: a
// required block cannot be Required in the schema (designs/schema.md §1),
// and the framework's IsRequired also fires inside an absent optional
// parent, where the block cannot be written at all.
type blockRequired struct{}

func (blockRequired) Description(context.Context) string { return "the block is required" }

func (v blockRequired) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// parentWritten reports whether the block at p is inside a written block
// (or at the top level).
func parentWritten(ctx context.Context, config tfsdk.Config, p path.Path) bool {
	parent := p.ParentPath()
	if len(parent.Steps()) == 0 {
		return true
	}
	var obj types.Object
	if diags := config.GetAttribute(ctx, parent, &obj); diags.HasError() {
		return true
	}
	return !obj.IsNull() && !obj.IsUnknown()
}

// nameIn is the attribute or block name a path ends with, and where it is:
// "in <parent path>", or "here" at the top level.
func nameIn(p path.Path) (name, where string) {
	name, where = p.String(), "here"
	if steps := p.Steps(); len(steps) > 0 {
		if a, ok := steps[len(steps)-1].(path.PathStepAttributeName); ok {
			name = string(a)
		}
	}
	if parent := p.ParentPath(); len(parent.Steps()) > 0 {
		where = "in " + parent.String()
	}
	return name, where
}

// missingBlock reports a required block left out where its enclosing block is written.
func missingBlock(ctx context.Context, config tfsdk.Config, p path.Path, list bool, diags *diag.Diagnostics) {
	if !parentWritten(ctx, config, p) {
		return
	}
	name, where := nameIn(p)
	detail := fmt.Sprintf("%s: at least one %s block is required %s. Add one: %s { … }.", p, name, where, name)
	if !list {
		article := "a"
		if strings.ContainsAny(name[:1], "aeiou") {
			article = "an"
		}
		detail = fmt.Sprintf("%s: %s %s block is required %s. Add it: %s { … }.", p, article, name, where, name)
	}
	diags.AddAttributeError(p, "Missing required block", detail)
}

func (blockRequired) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if !req.ConfigValue.IsUnknown() && len(req.ConfigValue.Elements()) == 0 {
		missingBlock(ctx, req.Config, req.Path, true, &resp.Diagnostics)
	}
}

func (blockRequired) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() {
		missingBlock(ctx, req.Config, req.Path, false, &resp.Diagnostics)
	}
}

// argRequired requires an argument of a single block where the block is
// written (requiredInBlock).
type argRequired struct{}

func (argRequired) Description(context.Context) string {
	return "the argument is required in its block"
}

func (v argRequired) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// missingArgument is a required attribute left out of a written block.
func missingArgument(ctx context.Context, config tfsdk.Config, p path.Path, null bool, diags *diag.Diagnostics) {
	if !null || !parentWritten(ctx, config, p) {
		return
	}
	name, where := nameIn(p)
	diags.AddAttributeError(p, "Missing required argument", fmt.Sprintf("%s: the argument %q is required %s. Add it.", p, name, where))
}

func (argRequired) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	missingArgument(ctx, req.Config, req.Path, req.ConfigValue.IsNull(), &resp.Diagnostics)
}

func (argRequired) ValidateNumber(ctx context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	missingArgument(ctx, req.Config, req.Path, req.ConfigValue.IsNull(), &resp.Diagnostics)
}

func (argRequired) ValidateInt64(ctx context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	missingArgument(ctx, req.Config, req.Path, req.ConfigValue.IsNull(), &resp.Diagnostics)
}

func (argRequired) ValidateBool(ctx context.Context, req validator.BoolRequest, resp *validator.BoolResponse) {
	missingArgument(ctx, req.Config, req.Path, req.ConfigValue.IsNull(), &resp.Diagnostics)
}

func (argRequired) ValidateMap(ctx context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	missingArgument(ctx, req.Config, req.Path, req.ConfigValue.IsNull(), &resp.Diagnostics)
}

func (argRequired) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	missingArgument(ctx, req.Config, req.Path, req.ConfigValue.IsNull(), &resp.Diagnostics)
}

// idOfName plans a resource's id from its name (and, for a NodePool, its
// cluster): the id is known at plan whenever they are — on a create and on a
// replacement too — so that resources referring to it (a run's or a
// profile's update_strategy_id) are not replaced along with it when the name
// stays (from the user trial: `-replace` of a strategy replaced its runs).
func idOfName(parts ...string) planmodifier.String { return idOfNameModifier(parts) }

type idOfNameModifier []string

func (m idOfNameModifier) Description(context.Context) string {
	return "the id is " + strings.Join(m, "/")
}

func (m idOfNameModifier) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m idOfNameModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	values := make([]string, 0, len(m))
	for _, name := range m {
		var v types.String
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(name), &v)...)
		if resp.Diagnostics.HasError() || v.IsUnknown() || v.IsNull() {
			return
		}
		values = append(values, v.ValueString())
	}
	resp.PlanValue = types.StringValue(strings.Join(values, "/"))
}
