package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	tfattr "github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// The lifecycle every resource shares, as plain helpers in the style of the
// tls provider's common_cert.go: each resource's methods read as "decode,
// ask the engine, call the hub, record", and the rules of that sequence live
// here once (designs/hub.md §5):
//
//   - validation at plan skips only the rules that depend on an unknown leaf;
//   - the preview is kept while the spec is unchanged (sameSpec);
//   - Read compares specs normalised by the engine's WithDefaults and keeps
//     the practitioner's form when they are equal, so a hub that fills in
//     defaults never causes a diff;
//   - the hub's ETag lives in private state and guards every update and
//     delete (If-Match); a mismatch is one diagnostic that names the object;
//   - hub errors map to diagnostics in one place (hubError).

// objectRef names a hub object in diagnostics and logs.
type objectRef struct {
	// Kind is the Terraform resource type, e.g. aks_fleet_placement.
	Kind string
	// ID is the import id, e.g. web or aks-east-prod-01/default.
	ID string
}

func (o objectRef) String() string { return o.Kind + " " + o.ID }

// readValue decodes a plan, state or configuration value into a model. The
// returned paths are the values not known yet.
func readValue(raw tftypes.Value, out any, diags *diag.Diagnostics) (unknownPaths, bool) {
	unknown, err := decode(raw, out)
	if err != nil {
		addDecodeError(diags, err)
		return nil, false
	}
	return unknown, true
}

// readPlan decodes a planned value into a model. The returned paths are the
// configurable values not known yet: computed-only attributes (id, preview,
// status) are always unknown in a plan and are no input to any rule.
// readConfig decodes a configuration for validation, like readValue; the
// required blocks it leaves out count as unknown too (missingBlocks): the
// rules about their contents wait, the block's validator says it once.
func readConfig(config tfsdk.Config, out any, diags *diag.Diagnostics) (unknownPaths, bool) {
	if !checkWholeNumbers(context.Background(), config.Schema.AttributeAtTerraformPath, config.Raw, diags) {
		return nil, false
	}
	unknown, ok := readValue(config.Raw, out, diags)
	return append(unknown, missingBlocks(config)...), ok
}

func readPlan(plan tfsdk.Plan, out any, diags *diag.Diagnostics) (unknownPaths, bool) {
	if !checkWholeNumbers(context.Background(), plan.Schema.AttributeAtTerraformPath, plan.Raw, diags) {
		return nil, false
	}
	unknown, ok := readValue(plan.Raw, out, diags)
	var inputs unknownPaths
	for _, u := range unknown {
		if steps := u.Steps(); len(steps) > 0 {
			if a, ok := plan.Schema.GetAttributes()[steps[0].Name]; ok && a.IsComputed() && !a.IsOptional() {
				continue
			}
		}
		inputs = append(inputs, u)
	}
	return inputs, ok
}

// reportErrors adds the engine's rule violations that do not depend on an
// unknown value; those are checked again once known (at apply).
func reportErrors(diags *diag.Diagnostics, summary string, errs field.Errors, unknown unknownPaths) {
	var known field.Errors
	for _, e := range errs {
		if !unknown.covers(e.Path) {
			known = append(known, e)
		}
	}
	addFieldErrors(diags, path.Empty(), summary, known)
}

// reportWarnings adds the engine's plan warnings, each on its attribute.
func reportWarnings(diags *diag.Diagnostics, subject string, ws []field.Warning) {
	for _, w := range ws {
		p := attributePath(path.Empty(), w.Path)
		diags.AddAttributeWarning(p, subject+": "+firstWords(w.Message), p.String()+": "+w.Message)
	}
}

// sameSpec reports whether two specs mean the same once the engine's defaults
// are applied to both: what a server that fills in defaults returns equals
// what the practitioner wrote without them.
// An empty list or map and an absent one compare equal, except where the
// engine type marks the difference as meaningful (`empty:"distinct"`, see
// package field): a hub built on Go types with omitempty returns `labels =
// {}` as absent.
func sameSpec[S any](a, b S, withDefaults func(S) S) bool {
	return reflect.DeepEqual(canonical(reflect.ValueOf(withDefaults(a)), false), canonical(reflect.ValueOf(withDefaults(b)), false))
}

// canonical is a spec as plain data for comparison: pointers followed,
// struct fields by json name, and empty collections absent unless distinct.
func canonical(v reflect.Value, distinct bool) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return canonical(v.Elem(), distinct)
	case reflect.Struct:
		out := map[string]any{}
		canonicalFields(v, out)
		return out
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() || v.Len() == 0 && !distinct {
			return nil
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = canonical(v.Index(i), false)
		}
		return out
	case reflect.Map:
		if v.IsNil() || v.Len() == 0 && !distinct {
			return nil
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			out[fmt.Sprint(it.Key().Interface())] = canonical(it.Value(), false)
		}
		return out
	}
	return v.Interface()
}

func canonicalFields(v reflect.Value, out map[string]any) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && name == "":
			canonicalFields(reflect.Indirect(v.Field(i)), out)
		case f.IsExported() && name != "-":
			if name == "" {
				name = f.Name
			}
			out[name] = canonical(v.Field(i), f.Tag.Get("empty") == "distinct")
		}
	}
}

// adoptSpec is the spec Read records when the hub's differs from the state's
// (an import, or a change made outside Terraform). A hub that fills in
// defaults returns them all; recorded as they are, they would show as
// removals in the next plan. So, top down, every value the practitioner did
// not write is dropped when the spec means the same without it — what is
// left is the hub's spec in the practitioner's form: their own values, and
// whatever really differs. On import written is the object's written form
// when the hub knows it (importForm), so the values its writer spelled
// stay, defaults included; when it does not, written is the zero spec and
// every default is dropped: the shortest form (designs/hub.md §5).
func adoptSpec[S any](live, written S, withDefaults func(S) S) S {
	liveTree, err1 := toTree(live)
	writtenTree, err2 := toTree(written)
	if err1 != nil || err2 != nil {
		return live
	}
	same := func(tree any) bool {
		var s S
		raw, err := json.Marshal(tree)
		if err != nil || json.Unmarshal(raw, &s) != nil {
			return false
		}
		return sameSpec(s, live, withDefaults)
	}
	var prune func(node, written any)
	prune = func(node, written any) {
		switch n := node.(type) {
		case map[string]any:
			w, _ := written.(map[string]any)
			keys := make([]string, 0, len(n))
			for k := range n {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				v := n[k]
				if v == nil {
					continue
				}
				if w[k] == nil || w[k] == "" { // not written ("" is null in state): drop it if it is only a default
					delete(n, k)
					if same(liveTree) {
						continue
					}
					n[k] = v
				}
				prune(v, w[k])
			}
		case []any:
			w, _ := written.([]any)
			for i, e := range n {
				var we any
				if i < len(w) {
					we = w[i]
				}
				prune(e, we)
			}
		}
	}
	prune(liveTree, writtenTree)
	var out S
	raw, err := json.Marshal(liveTree)
	if err != nil || json.Unmarshal(raw, &out) != nil {
		return live
	}
	return out
}

// privateImported marks a resource imported and not read yet.
const privateImported = "imported"

// markImported is what ImportState records beside the id: the read that
// follows adopts the object's written form (importForm), and the triggers'
// first values are recorded, not acted on (importedTrigger).
func markImported(ctx context.Context, private privateSetter, diags *diag.Diagnostics) {
	diags.Append(private.SetKey(ctx, privateImported, []byte("true"))...)
	diags.Append(private.SetKey(ctx, privateTriggersUnknown, []byte("true"))...)
}

// privateTriggersUnknown marks an imported resource not applied since.
const privateTriggersUnknown = "triggers_unknown"

// importedTrigger is the prior value of a trigger (rerun_trigger,
// generate_run_trigger) to compare the planned one with. A trigger is an
// instruction, not a property of the object: an import cannot know the
// value it was last set to, and the configuration that made the object
// holds it. So until the first apply after an import, a trigger with no
// prior value takes the planned one — recorded, not acted on (a completed
// run is not run again, a profile generates no second run), which the plan
// says when warn (designs/hub.md §5). The apply clears the mark
// (appliedSinceImport).
func importedTrigger(ctx context.Context, private privateGetter, attribute, prior, planned string, warn bool, diags *diag.Diagnostics) string {
	if prior != "" || planned == "" {
		return prior
	}
	raw, d := private.GetKey(ctx, privateTriggersUnknown)
	diags.Append(d...)
	if len(raw) == 0 {
		return prior
	}
	if warn {
		diags.AddAttributeWarning(path.Root(attribute), "Recorded, not acted on", fmt.Sprintf("%s: this resource was imported, and "+
			"the value %s was last set to is not known: %q is recorded, and this apply does nothing for it. Change it again to "+
			"act on it.", attribute, attribute, planned))
	}
	return planned
}

// appliedSinceImport clears the mark importedTrigger reads.
func appliedSinceImport(ctx context.Context, private privateSetter, diags *diag.Diagnostics) {
	diags.Append(private.SetKey(ctx, privateTriggersUnknown, nil)...)
}

// importForm is the form Read adopts the hub's spec in (adoptSpec's
// written): the state's, except on the read that follows an import, which
// knows nothing of the configuration and takes the object's written form —
// the spec as its writer sent it, before the server's defaults — when the
// hub knows it, and the shortest form (no value written) when it does not
// (designs/hub.md §5). That read clears the mark.
func importForm[S any](ctx context.Context, req privateGetter, resp privateSetter, state S, written *S, diags *diag.Diagnostics) S {
	raw, d := req.GetKey(ctx, privateImported)
	diags.Append(d...)
	if len(raw) == 0 {
		return state
	}
	diags.Append(resp.SetKey(ctx, privateImported, nil)...)
	if written == nil {
		var none S
		return none
	}
	return *written
}

// toTree is a value as plain JSON data (objects are maps).
func toTree(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers round-trip exactly
	var tree any
	return tree, dec.Decode(&tree)
}

// recordRead is what Read records: the whole model when it adopted the
// hub's spec (an import, or a change made outside Terraform); otherwise the
// state as it was, in the practitioner's form, with the computed attributes
// and reviewed_preview (settled) of the model (designs/hub.md §5).
func recordRead(ctx context.Context, state *tfsdk.State, model any, adopted bool, diags *diag.Diagnostics) {
	v, err := encode(model, state.Raw.Type())
	if err != nil {
		diags.AddError("Cannot record the state", err.Error())
		return
	}
	defer fillDefaults(ctx, state, diags)
	if adopted {
		state.Raw = v
		return
	}
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		diags.AddError("Cannot record the state", err.Error())
		return
	}
	for name, a := range state.Schema.GetAttributes() {
		if name != "reviewed_preview" && (!a.IsComputed() || a.IsOptional()) {
			continue // configurable: kept as written
		}
		av, err := a.GetType().ValueFromTerraform(ctx, m[name])
		if err != nil {
			diags.AddError("Cannot record the state", name+": "+err.Error())
			return
		}
		diags.Append(state.SetAttribute(ctx, path.Root(name), av)...)
	}
}

// fillDefaults sets every null attribute of a state that has a default in
// the schema (an Optional+Computed attribute, e.g. a resource selector's
// `group`, "" for the core group) to that default: what the framework plans
// for a configuration that leaves it out, and what the state already holds
// after a create. A state written from a model (an import, a change made
// outside Terraform: the bridge writes "" as null) or by an earlier release
// would otherwise plan the default as a change.
func fillDefaults(ctx context.Context, state *tfsdk.State, diags *diag.Diagnostics) {
	v, err := tftypes.Transform(state.Raw, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsNull() || len(p.Steps()) == 0 {
			return v, nil
		}
		a, err := state.Schema.AttributeAtTerraformPath(ctx, p)
		if err != nil {
			return v, nil // a block or an element: no default
		}
		if d, ok := defaultOf(ctx, a); ok {
			return d, nil
		}
		return v, nil
	})
	if err != nil {
		diags.AddError("Cannot record the state", err.Error())
		return
	}
	state.Raw = v
}

// defaultOf is an attribute's static default, if it has one.
func defaultOf(ctx context.Context, a any) (tftypes.Value, bool) {
	var val tfattr.Value
	switch a := a.(type) {
	case interface{ StringDefaultValue() defaults.String }:
		if d := a.StringDefaultValue(); d != nil {
			var resp defaults.StringResponse
			d.DefaultString(ctx, defaults.StringRequest{}, &resp)
			val = resp.PlanValue
		}
	case interface{ BoolDefaultValue() defaults.Bool }:
		if d := a.BoolDefaultValue(); d != nil {
			var resp defaults.BoolResponse
			d.DefaultBool(ctx, defaults.BoolRequest{}, &resp)
			val = resp.PlanValue
		}
	case interface{ NumberDefaultValue() defaults.Number }:
		if d := a.NumberDefaultValue(); d != nil {
			var resp defaults.NumberResponse
			d.DefaultNumber(ctx, defaults.NumberRequest{}, &resp)
			val = resp.PlanValue
		}
	}
	if val == nil || val.IsNull() {
		return tftypes.Value{}, false
	}
	tv, err := val.ToTerraformValue(ctx)
	return tv, err == nil
}

// setComputed records a Go value in a computed attribute through the bridge.
func setComputed(ctx context.Context, target interface {
	SetAttribute(context.Context, path.Path, any) diag.Diagnostics
}, schema interface {
	TypeAtPath(context.Context, path.Path) (tfattr.Type, diag.Diagnostics)
}, p path.Path, v any, diags *diag.Diagnostics) {
	at, d := schema.TypeAtPath(ctx, p)
	diags.Append(d...)
	if at == nil {
		return
	}
	tv, err := encode(v, at.TerraformType(ctx))
	if err != nil {
		diags.AddAttributeError(p, "Cannot record a computed value", p.String()+": "+err.Error())
		return
	}
	val, err := at.ValueFromTerraform(ctx, tv)
	if err != nil {
		diags.AddAttributeError(p, "Cannot record a computed value", p.String()+": "+err.Error())
		return
	}
	diags.Append(target.SetAttribute(ctx, p, val)...)
}

// setState replaces a whole state with a model (Read adopting the hub's spec).
func setState(ctx context.Context, state *tfsdk.State, model any, diags *diag.Diagnostics) {
	v, err := encode(model, state.Raw.Type())
	if err != nil {
		diags.AddError("Cannot record the state", err.Error())
		return
	}
	state.Raw = v
	fillDefaults(ctx, state, diags)
}

// The version of the hub object last read is kept in private state under
// this key: Terraform carries it from Read through plan to apply, so an
// update or delete applies only to the object that was last read.
const privateVersion = "version"

// objectVersion is what the provider remembers of the object it last read:
// its ETag (sent as If-Match) and when it was created (which tells the same
// object from one deleted and created again under the same name).
type objectVersion struct {
	ETag      string    `json:"etag"`
	CreatedAt time.Time `json:"created_at"`
	// Spec is the digest of the version's spec (specDigest), recorded where
	// the version was read for a destroy's plan (planDestroy): Delete
	// compares the spec it finds against it, not against the prior state.
	Spec string `json:"spec,omitempty"`
}

// versionOf is the version m is.
func versionOf(m hub.Meta) objectVersion { return objectVersion{ETag: m.ETag, CreatedAt: m.CreatedAt} }

type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// saveVersion records the version of the hub object in private state.
func saveVersion(ctx context.Context, private privateSetter, m hub.Meta, diags *diag.Diagnostics) {
	recordVersion(ctx, private, versionOf(m), diags)
}

// recordVersion records v in private state.
func recordVersion(ctx context.Context, private privateSetter, v objectVersion, diags *diag.Diagnostics) {
	raw, err := json.Marshal(v)
	if err != nil {
		diags.AddError("Cannot record the object version", err.Error())
		return
	}
	diags.Append(private.SetKey(ctx, privateVersion, raw)...)
}

// savedVersion is the version last read. A state written before versions
// were recorded has none, and the write is unconditional until the next
// refresh records one.
func savedVersion(ctx context.Context, private privateGetter, diags *diag.Diagnostics) objectVersion {
	raw, d := private.GetKey(ctx, privateVersion)
	diags.Append(d...)
	var v objectVersion
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &v); err != nil {
			diags.AddError("Cannot read the object version", "The private state of the resource is corrupt: "+err.Error()+". Refresh and apply again.")
		}
	}
	return v
}

// conditionalWrite runs an update or delete with the ETag last read as
// If-Match. The hub's own status writes (the scheduler's decisions, the
// agents' reports, a rollout's progress) change the ETag too, as they change
// a Kubernetes object's resourceVersion; so when the precondition fails, the
// object is read again, and if it is the same object (created at the same
// instant) with the spec Terraform last read (current reports it), nobody
// changed what Terraform manages and the write is retried with the current
// ETag — again after each status write that slips in between the read and
// the write, as client-go's RetryOnConflict does, at most statusRetries
// times with its backoff. Anything else is a conflict:
// hub.ErrPreconditionFailed reaches the caller.
func conditionalWrite(saved objectVersion, current func() (m hub.Meta, sameSpec bool, err error), write func(hub.Precondition) error) error {
	err := write(hub.Precondition{IfMatch: saved.ETag})
	if saved.ETag == "" {
		return err
	}
	backoff := statusRetries
	for errors.Is(err, hub.ErrPreconditionFailed) && backoff.Steps > 0 {
		cur, same, gerr := current()
		if gerr != nil || !same || !cur.CreatedAt.Equal(saved.CreatedAt) {
			return err
		}
		if err = write(hub.Precondition{IfMatch: cur.ETag}); errors.Is(err, hub.ErrPreconditionFailed) {
			time.Sleep(backoff.Step())
		}
	}
	return err
}

// statusRetries bounds conditionalWrite's retries after status writes:
// client-go's retry.DefaultRetry (5 attempts, 10 ms apart with jitter).
var statusRetries = wait.Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1.0, Jitter: 0.1}

// writeGuard is how a create or an update guards its write.
type writeGuard func(write func(hub.Precondition) error) error

// createGuard: a create must not find the object (If-None-Match).
func createGuard(write func(hub.Precondition) error) error {
	return write(hub.Precondition{IfNoneMatch: true})
}

// updateGuard: an update must find the version last read, kept in private
// state (conditionalWrite); current reads the object as it is now.
func updateGuard(ctx context.Context, private privateGetter, current func() (hub.Meta, bool, error), diags *diag.Diagnostics) writeGuard {
	saved := savedVersion(ctx, private, diags)
	return func(write func(hub.Precondition) error) error { return conditionalWrite(saved, current, write) }
}

// currentSpec is conditionalWrite's read of an object: its metadata, and
// whether its spec still means what Terraform last read (same).
func currentSpec[S any](get func() (hub.Meta, S, error), same func(S) bool) func() (hub.Meta, bool, error) {
	return func() (hub.Meta, bool, error) {
		m, spec, err := get()
		if err != nil {
			return hub.Meta{}, false, err
		}
		return m, same(spec), nil
	}
}

// sameAs tells whether a spec means what last means (sameSpec).
func sameAs[S any](last S, withDefaults func(S) S) func(S) bool {
	return func(spec S) bool { return sameSpec(spec, last, withDefaults) }
}

// Operations named in diagnostics and logs.
const (
	opCreate = "create"
	opRead   = "read"
	opUpdate = "update"
	opDelete = "delete"
)

// hubError reports a failed hub call as one diagnostic that says what to do.

func hubError(diags *diag.Diagnostics, op string, obj objectRef, err error) {
	var conflict *hub.ConflictError
	var invalid *hub.InvalidError
	var cluster *hub.ClusterError
	switch {
	case errors.As(err, &cluster):
		diags.AddError("Cannot "+op+" "+obj.Kind+" on "+cluster.Cluster, obj.String()+": "+cluster.Cluster+": "+cluster.Problem+". "+
			strings.ToUpper(cluster.Fix[:1])+cluster.Fix[1:]+".")
	case errors.Is(err, hub.ErrPreconditionFailed) && op == opCreate:
		diags.AddError("Already exists", obj.String()+" already exists on the hub, created outside this configuration (by hand, "+
			"or by another Terraform state). Manage the existing object instead: "+importHint(obj)+"or give this resource another name.")
	case errors.Is(err, hub.ErrPreconditionFailed):
		diags.AddError("Changed outside Terraform", obj.String()+" was changed outside Terraform since it was read — refresh and "+
			"apply again (terraform apply refreshes first; review the plan: it shows what changed).")
	case errors.As(err, &conflict):
		diags.AddError("Refused by the hub", obj.String()+": "+conflict.Reason+". The object's current state does not allow "+
			"this change: refresh to see its state, and change the configuration or wait until the state allows it.")
	case errors.As(err, &invalid):
		diags.AddError("Refused by the hub", obj.String()+": "+invalid.Reason+". Change the configuration accordingly and apply again.")
	case errors.Is(err, hub.ErrNotFound):
		diags.AddError("Not found", obj.String()+" does not exist on the hub (deleted outside Terraform?). Refresh to remove it from the state.")
	default:
		diags.AddError("Cannot "+op+" "+obj.Kind, obj.String()+": "+err.Error()+". Check that the hub is reachable "+
			"(on the mock hub: that mock.state_path is writable and not held by another process) and try again.")
	}
}

// refuseTakenName refuses at plan the create of an object whose name is
// taken on the hub (by hand, or by another state): found only at apply, the
// create would fail after the resources before it were applied; it reports
// whether it refused. A replacement whose change requires it (or asked with
// -replace) is planned as a create too, but Terraform hands it the replaced
// object's private state, which records the version it was last read at:
// the name is its own. The replacement of a tainted object gets neither its
// prior state nor its private state — Terraform plans it exactly as a new
// object — so an object that holds what this configuration describes (get's
// same) may be this resource's own: a warning, as apply deletes a tainted
// object before it creates it again; one that holds something else is
// another's, an error. get reads the name on the hub; when the hub cannot
// tell at plan (a member cluster not reachable yet), apply's If-None-Match
// still decides. A name not known yet is checked at apply.
func refuseTakenName(ctx context.Context, req resource.ModifyPlanRequest, h hub.Hub, obj objectRef, nameUnknown bool, get func() (same bool, err error), diags *diag.Diagnostics) bool {
	if !req.State.Raw.IsNull() || nameUnknown || h == nil || savedVersion(ctx, req.Private, diags).ETag != "" || diags.HasError() {
		return diags.HasError()
	}
	same, err := get()
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return false
	case err != nil:
		tflog.Debug(ctx, "cannot tell at plan whether the name is taken; apply will", map[string]any{"object": obj.String(), "error": err.Error()})
		return false
	}
	adopt := importHint(obj)
	if same {
		diags.AddWarning("Already exists", fmt.Sprintf("%s already exists on the hub and holds what this configuration describes. If "+
			"this resource is tainted, that is its own object: apply deletes it, then creates it again. Otherwise another "+
			"configuration or a person made it, and the create will fail at apply: %sor give this resource another name.", obj, adopt))
		return false
	}
	diags.AddError("Already exists", fmt.Sprintf("%s already exists on the hub, created outside this configuration (by hand, or by "+
		"another Terraform state): creating it would fail at apply. Manage the existing object instead: %sor give this resource "+
		"another name.", obj, adopt))
	return true
}

// importHint says how to import obj: an import block beside the resource,
// or the import command (the provider does not know the resource's name).
func importHint(obj objectRef) string {
	return fmt.Sprintf("import it, with an import block beside this resource\n\n  import {\n    to = %s.<this resource's name>\n    id = %q\n  }\n\n"+
		"or with\n\n  terraform import %s.<this resource's name> %s\n\n", obj.Kind, obj.ID, obj.Kind, obj.ID)
}

// wholeUnknown plans the computed attribute at p unknown as a whole (the
// framework marks each of its attributes unknown, and Terraform then prints
// every one, and every element of its lists, as going away).
func wholeUnknown(ctx context.Context, plan *tfsdk.Plan, p path.Path, diags *diag.Diagnostics) {
	t, d := plan.Schema.TypeAtPath(ctx, p)
	diags.Append(d...)
	if d.HasError() {
		return
	}
	diags.Append(plan.SetAttribute(ctx, p, tftypes.NewValue(t.TerraformType(ctx), tftypes.UnknownValue))...)
}
