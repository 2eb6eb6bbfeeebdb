package provider

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// The reviewed_preview guard (designs/previews.md §4): a preview data source
// exports `review`, a token of the decisions that matter to apply
// (designs/previews.md §5), frozen in the plan file; a resource given it
// recomputes the same decisions whenever Terraform plans it — at plan, and
// at apply right before its own create or update — and refuses, naming each
// difference, when they differ.

// reviewPrefix versions the token's format.
const reviewPrefix = "aks-review-v1:"

// Preview kinds: which data source made a token, for which resource.
const (
	reviewPlacement = "placement"
	reviewRun       = "update run"
	reviewProfile   = "auto-upgrade profile"
	reviewNodePool  = "NodePool"
)

// reviewIdentity says how each kind's data source names its object.
var reviewIdentity = map[string]string{
	reviewPlacement: "name",
	reviewRun:       "name",
	reviewProfile:   "name",
	reviewNodePool:  "cluster and nodepool",
}

// reviewSources names the data source whose review each kind is.
var reviewSources = map[string]string{
	reviewPlacement: "aks_fleet_placement_preview",
	reviewRun:       "aks_fleet_update_preview",
	reviewProfile:   "aks_fleet_autoupgrade_preview",
	reviewNodePool:  "aks_nap_disruption_preview",
}

// review is a token's content. It holds no instant: the same decisions
// give the same token, so a guarded resource plans no change while what its
// configuration leads to stays the same, however the clock moves.
type review struct {
	Kind string `json:"kind"`
	// Object names what the preview is of (a placement's name, a NodePool's
	// <cluster>/<name>); empty for a data source that names none.
	Object string `json:"object"`
	// Spec is the digest of the configuration the preview was made for.
	Spec string `json:"spec"`
	// Expect are the decisions that matter to apply (designs/previews.md §5).
	Expect json.RawMessage `json:"expect"`
}

// reviewToken is the token of a preview's decisions: gzip-compressed JSON,
// base64, on one line whatever its size (a plan prints it as one line), the
// same for the same content (gzip's header carries no time unless set).
func reviewToken(kind, object, spec string, expect any) (string, error) {
	e, err := json.Marshal(expect)
	if err != nil {
		return "", err
	}
	raw, err := json.Marshal(review{Kind: kind, Object: object, Spec: spec, Expect: e})
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(raw); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return reviewPrefix + base64.RawURLEncoding.EncodeToString(b.Bytes()), nil
}

// settle is what Read records in a guarded resource's reviewed_preview: the
// token of what its configuration, which the hub holds, leads to now — the
// token its data source gives when nothing is pending. So the plan shows no
// change while the configuration does not change, however the fleet and the
// clock move (designs/previews.md §4).
func settle(diags *diag.Diagnostics, token string, kind string, obj objectRef, spec string, expect func() (any, bool)) string {
	if r, err := decodeReview(token); token == "" || err != nil || r.Object == "" {
		return token // nothing to settle: the plan says what is wrong with it
	}
	e, ok := expect()
	if !ok {
		return token
	}
	t, err := reviewToken(kind, obj.ID, spec, e)
	if err != nil {
		diags.AddError("Cannot record the review", err.Error())
		return token
	}
	return t
}

// maxReviewSize bounds what a token may expand to.
const maxReviewSize = 64 << 20

// decodeReview reads a token.
func decodeReview(token string) (review, error) {
	var r review
	body, ok := strings.CutPrefix(token, reviewPrefix)
	if !ok {
		return r, errors.New("it does not start with " + reviewPrefix)
	}
	z, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return r, errors.New("it is not base64")
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return r, errors.New("it is not compressed as a review is")
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxReviewSize))
	if err != nil {
		return r, errors.New("it is truncated")
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Kind == "" {
		return r, errors.New("its content is not a review")
	}
	return r, nil
}

// specDigest identifies a configuration: the canonical form of the spec
// after its defaults (sameSpec's comparison, designs/hub.md §5), hashed.
func specDigest[S any](spec S, withDefaults func(S) S) string {
	raw, _ := json.Marshal(canonical(reflect.ValueOf(withDefaults(spec)), false))
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:8])
}

// reviewedPreviewAttr is the guard's attribute; kind names its data source.
func reviewedPreviewAttr(kind, matters string) rschema.StringAttribute {
	src := reviewSources[kind]
	return rschema.StringAttribute{Optional: true, MarkdownDescription: "The `review` of an `" + src + "` data source given " +
		"the same configuration, read at plan: apply then does what was reviewed, or nothing. Whenever Terraform plans " +
		"the resource (at plan, and at apply right before the resource is written) the provider computes the preview " +
		"again and fails, naming each difference, when " + matters + " — the fleet or the clock moved in a way that " +
		"matters. Differences that do not change what apply does pass. Unset: apply does what the hub decides at apply."}
}

// reviewAttr is a preview data source's `review`.
func reviewAttr(resource string) dschema.StringAttribute {
	return dschema.StringAttribute{Computed: true, MarkdownDescription: "This preview's decisions that matter to apply, as " +
		"an opaque single-line token for `reviewed_preview` of `" + resource + "`: the resource then refuses to apply when " +
		"what it would do differs from what was reviewed here (the preview is read at plan and kept in the plan file). " +
		"The data source must name the object it previews; the review of one that names none is refused."}
}

// guard is a resource's reviewed_preview check: its kind, the token (empty:
// no guard), and the object it guards.
type guard struct {
	kind  string
	token string
	obj   objectRef
}

// check compares the decisions of the preview now (spec digest, expectation,
// at now) with the reviewed ones. what names the configuration the digest
// covers; differences is the engine's comparison of two expectations.
func check[E any](g guard, diags *diag.Diagnostics, what, spec string, now time.Time, expect E, differences func(reviewed, now E) []string) {
	if g.token == "" {
		return
	}
	p := path.Root("reviewed_preview")
	src, identity := reviewSources[g.kind], reviewIdentity[g.kind]
	r, err := decodeReview(g.token)
	if err == nil && r.Kind != g.kind {
		err = fmt.Errorf("it is the review of another kind of preview (%s)", r.Kind)
	}
	var reviewed E
	if err == nil && json.Unmarshal(r.Expect, &reviewed) != nil {
		err = errors.New("its decisions cannot be read")
	}
	switch {
	case err != nil:
		diags.AddAttributeError(p, "Invalid reviewed preview", fmt.Sprintf("reviewed_preview: %s, so it is not the review of an "+
			"%s data source. Set it to data.%s.<name>.review.", err, src, src))
	case r.Object == "":
		diags.AddAttributeError(p, "Reviewed preview of no object", fmt.Sprintf("reviewed_preview: %s: the %s data source "+
			"names no object (%s unset): its preview cannot tell this resource's change from a new one, and would hold apply to "+
			"nothing. Give the data source this resource's %s.", g.obj, src, identity, identity))
	case r.Object != g.obj.ID:
		diags.AddAttributeError(p, "Reviewed preview of another object", fmt.Sprintf("reviewed_preview: %s: this is the "+
			"review of %s %s, not of %s. Give the data source this resource's %s.", g.obj, g.kind, r.Object, g.obj.ID, identity))
	case r.Spec != spec:
		diags.AddAttributeError(p, "Reviewed preview of another configuration", fmt.Sprintf("reviewed_preview: %s: the "+
			"%s data source previewed a configuration other than this resource's (what differs: its %s). Give both the "+
			"same values, from one local value or variable, so that the preview reviewed is the one applied.", g.obj, src, what))
	default:
		if diffs := differences(reviewed, expect); len(diffs) > 0 {
			diags.AddAttributeError(p, "The fleet changed since the plan was made", fmt.Sprintf("%s: what apply would do now (%s) "+
				"differs from the preview reviewed (the fleet or the clock moved since the data source was read):\n  - %s\n"+
				"Nothing was applied to %s. Plan again (terraform plan -out), review the new preview, and apply that plan.",
				g.obj, now.UTC().Format(time.RFC3339), strings.Join(diffs, "\n  - "), g.obj))
		}
	}
}

// reviewUnknown warns that a guard given a value known only at apply cannot
// hold: its data source is read at apply, so it reviews nothing.
func reviewUnknown(diags *diag.Diagnostics, kind string, obj objectRef) {
	src := reviewSources[kind]
	diags.AddAttributeWarning(path.Root("reviewed_preview"), "Reviewed preview not known at plan",
		fmt.Sprintf("reviewed_preview: %s: Terraform reads the %s data source at apply — it depends on a value known "+
			"only then, or on a resource this apply creates or changes — so this plan cannot be held to what it previews. "+
			"Give the data source values from the configuration only (the same local values as the resource), not "+
			"attributes of managed resources.", obj, src))
}
