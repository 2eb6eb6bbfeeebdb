package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// kind is the shared lifecycle of one resource type, generic over its
// Terraform model M, its hub object O and its spec S (designs/hub.md §5).
// The skeleton every resource repeats — read the state, get the object from
// the hub (gone: drop it from the state), record its version, adopt a spec
// changed outside Terraform in the practitioner's form, guard an update or a
// delete with the version last read, refuse at plan a name another object
// holds — lives here once; a resource gives the hooks below and keeps what
// is its own (its schema, its preview, how it applies).
type kind[M, O, S any] struct {
	// typ is the Terraform resource type, e.g. aks_fleet_placement.
	typ string
	// id is the model's id attribute: the hub object the state holds.
	id func(m *M) string
	// name is the id the model's name attributes give, known at plan before
	// id is (e.g. <cluster>/<name> for a NodePool).
	name func(m *M) string
	// writeByName: an update or a delete finds the object by its name
	// attributes rather than by id (a NodePool: its cluster and name
	// attributes hold, even when the id of a state edited by hand does not).
	writeByName bool
	// spec is the model's spec; defaults is the engine's WithDefaults of it.
	spec     func(m *M) S
	defaults func(S) S
	// get reads the object with the given id from the hub; del deletes it
	// (nil for a kind with a Delete of its own, which never calls delete).
	get func(ctx context.Context, h hub.Hub, id string) (*O, error)
	del func(ctx context.Context, h hub.Hub, id string, pre hub.Precondition) error
	// parts are the object's metadata, its spec, and the spec as written
	// (nil when the hub cannot tell: designs/hub.md §5).
	parts func(o *O) (meta hub.Meta, spec S, written *S)
	// status is the object's status document for the state's status
	// attribute; nil for a kind without one.
	status func(o *O) any
}

// invalidID is get's error for an id that names no object of the kind (a
// state edited by hand).
type invalidID struct{ problem string }

func (e invalidID) Error() string { return e.problem }

func (k *kind[M, O, S]) ref(id string) objectRef { return objectRef{k.typ, id} }

// read is Read's skeleton: the prior state, and the object the hub holds
// now with its version recorded. ok is false when there is nothing more to
// do: the object is gone (removed from the state) or the read failed.
func (k *kind[M, O, S]) read(ctx context.Context, h hub.Hub, req resource.ReadRequest, resp *resource.ReadResponse) (prior M, o *O, ok bool) {
	if _, ok := readValue(req.State.Raw, &prior, &resp.Diagnostics); !ok {
		return prior, nil, false
	}
	id := k.id(&prior)
	o, err := k.get(ctx, h, id)
	var bad invalidID
	switch {
	case errors.Is(err, hub.ErrNotFound):
		resp.State.RemoveResource(ctx)
		return prior, nil, false
	case errors.As(err, &bad):
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Invalid "+k.typ+" id", bad.problem)
		return prior, nil, false
	case err != nil:
		hubError(&resp.Diagnostics, opRead, k.ref(id), err)
		return prior, nil, false
	}
	meta, _, _ := k.parts(o)
	saveVersion(ctx, resp.Private, meta, &resp.Diagnostics)
	return prior, o, true
}

// adopt is the spec Read records: prior when the hub's spec means the same
// (the practitioner's form, whatever defaults the hub filled in), else the
// hub's, in the form of the configuration it was written from, or of the
// import's written form (importForm). adopted tells which.
func (k *kind[M, O, S]) adopt(ctx context.Context, get privateGetter, set privateSetter, prior S, o *O, diags *diag.Diagnostics) (spec S, adopted bool) {
	_, live, written := k.parts(o)
	if sameSpec(prior, live, k.defaults) {
		return prior, false
	}
	return adoptSpec(live, importForm(ctx, get, set, prior, written, diags), k.defaults), true
}

// current reads the object for conditionalWrite: its metadata, and whether
// its spec is still the one Terraform last read (same). It reads fresh: the version
// a write is conditioned on is the hub's now, not a listing of the process.
func (k *kind[M, O, S]) current(ctx context.Context, h hub.Hub, id string, same func(S) bool) func() (hub.Meta, bool, error) {
	return currentSpec(func() (hub.Meta, S, error) {
		o, err := k.get(hub.FreshReads(ctx), h, id)
		if err != nil {
			var zero S
			return hub.Meta{}, zero, err
		}
		meta, spec, _ := k.parts(o)
		return meta, spec, nil
	}, same)
}

// writeID is the id writes and deletes of m address.
func (k *kind[M, O, S]) writeID(m *M) string {
	if k.writeByName {
		return k.name(m)
	}
	return k.id(m)
}

// updateGuard is Update's guard of its write: the object must be the
// version last read, or hold the spec Terraform last read (conditionalWrite).
func (k *kind[M, O, S]) updateGuard(ctx context.Context, h hub.Hub, private privateGetter, prior *M, diags *diag.Diagnostics) writeGuard {
	id := k.writeID(prior)
	return updateGuard(ctx, private, k.current(ctx, h, id, sameAs(k.spec(prior), k.defaults)), diags)
}

// write sends the object with put under guarded; a failure is one
// diagnostic naming the operation and the object.
func (k *kind[M, O, S]) write(op string, m *M, guarded writeGuard, put func(pre hub.Precondition) (*O, error), diags *diag.Diagnostics) (*O, bool) {
	var o *O
	err := guarded(func(pre hub.Precondition) (err error) {
		o, err = put(pre)
		return err
	})
	if err != nil {
		hubError(diags, op, k.ref(k.name(m)), err)
		return nil, false
	}
	return o, true
}

// record stores raw (the plan applied, or the state read) with the hub's
// id, status document and version.
func (k *kind[M, O, S]) record(ctx context.Context, raw tftypes.Value, id string, o *O, state *tfsdk.State, private privateSetter, diags *diag.Diagnostics) {
	state.Raw = raw
	diags.Append(state.SetAttribute(ctx, path.Root("id"), id)...)
	if k.status != nil {
		setComputed(ctx, state, state.Schema, path.Root("status"), k.status(o), diags)
	}
	meta, _, _ := k.parts(o)
	saveVersion(ctx, private, meta, diags)
}

// delete is Delete: under the version last read (conditionalWrite); an
// object already gone is deleted.
func (k *kind[M, O, S]) delete(ctx context.Context, h hub.Hub, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m M
	if _, ok := readValue(req.State.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	id := k.writeID(&m)
	del := func(pre hub.Precondition) error { return k.del(ctx, h, id, pre) }
	saved, same := savedVersion(ctx, req.Private, &resp.Diagnostics), sameAs(k.spec(&m), k.defaults)
	if saved.Spec != "" { // the version the plan read (planDestroy)
		same = func(spec S) bool { return specDigest(spec, k.defaults) == saved.Spec }
	}
	err := conditionalWrite(saved, k.current(ctx, h, id, same), del)
	var bad invalidID
	switch {
	case errors.As(err, &bad):
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Invalid "+k.typ+" id", bad.problem)
	case err != nil && !errors.Is(err, hub.ErrNotFound):
		hubError(&resp.Diagnostics, opDelete, k.ref(id), err)
	}
}

// planDestroy is ModifyPlan's step for a destroy: it records in the planned
// private state the version of the object as the hub holds it now, with
// its spec's digest, and Delete deletes that version or one that differs
// from it only in status (conditionalWrite). The version the refresh
// recorded would not do: Terraform 1.11 plans the destroy of a resource
// removed from the configuration from its state as it was before the
// refresh, so a change made outside Terraform before the plan — which the
// refresh read — failed every apply as a change made after it. An object
// gone, another object under its name (deleted and created again: a plan
// with -refresh=false does not read it), or a hub that cannot be read now
// leaves the version last read: Delete says what it finds.
func (k *kind[M, O, S]) planDestroy(ctx context.Context, h hub.Hub, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m M
	if h == nil || req.State.Raw.IsNull() {
		return
	}
	if _, ok := readValue(req.State.Raw, &m, &resp.Diagnostics); !ok {
		return
	}
	id := k.writeID(&m)
	o, err := k.get(ctx, h, id)
	if err != nil {
		tflog.Debug(ctx, "destroy planned on the version last read", map[string]any{"object": k.ref(id).String(), "reason": err.Error()})
		return
	}
	meta, spec, _ := k.parts(o)
	if last := savedVersion(ctx, req.Private, &resp.Diagnostics); last.ETag != "" && !last.CreatedAt.Equal(meta.CreatedAt) {
		return // another object under the name (a plan without refresh): Delete says so
	}
	v := versionOf(meta)
	v.Spec = specDigest(spec, k.defaults)
	recordVersion(ctx, resp.Private, v, &resp.Diagnostics)
}

// refuseTaken is refuseTakenName for the planned model: another object
// holding its name is an error at plan, the same spec a warning.
func (k *kind[M, O, S]) refuseTaken(ctx context.Context, req resource.ModifyPlanRequest, h hub.Hub, plan *M, nameUnknown bool, diags *diag.Diagnostics) bool {
	name := k.name(plan)
	return refuseTakenName(ctx, req, h, k.ref(name), nameUnknown, func() (bool, error) {
		o, err := k.get(ctx, h, name)
		if err != nil {
			return false, err
		}
		_, spec, _ := k.parts(o)
		return sameSpec(spec, k.spec(plan), k.defaults), nil
	}, diags)
}
