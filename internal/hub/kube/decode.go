package kube

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	k8sjson "sigs.k8s.io/json"
)

// Error is an object that does not read into a model: which object, which
// field, and what is wrong with it. The readers of placements, bindings,
// policy snapshots and nodes return it (several joined with errors.Join
// when more than one field is at fault; errors.As finds the first).
type Error struct {
	// Kind is the object's kind, e.g. ClusterResourcePlacement.
	Kind string
	// Name is the object's metadata.name; empty when it has none.
	Name string
	// Field is the JSON path of the field, e.g.
	// spec.policy.affinity.clusterAffinity.requiredDuringSchedulingIgnoredDuringExecution.clusterSelectorTerms[0].labelSelector;
	// empty for the object as a whole.
	Field string
	Msg   string
}

func (e *Error) Error() string {
	who := e.Kind
	if e.Name != "" {
		who = fmt.Sprintf("%s %q", e.Kind, e.Name)
	}
	if e.Field == "" {
		return who + ": " + e.Msg
	}
	return who + ": " + e.Field + ": " + e.Msg
}

// cannotHold is the message of a field the model has no place for.
const cannotHold = "the model cannot hold this field (writing the object back from the model would drop it)"

// reader reads the fields of one object into wire structs, naming the object
// in its errors.
type reader struct {
	kind, name string
}

// newReader checks that obj is a gvk and returns a reader for it.
func newReader(obj *unstructured.Unstructured, gvk schema.GroupVersionKind) (reader, error) {
	r := reader{kind: gvk.Kind}
	if obj == nil || obj.Object == nil {
		return r, &Error{Kind: gvk.Kind, Msg: "no object"}
	}
	r.name = obj.GetName()
	if got := obj.GroupVersionKind(); got != gvk {
		return r, r.errorf("", "the object is a %s, not a %s", got, gvk)
	}
	return r, nil
}

// readObject checks that obj is a gvk and reads it whole into out (a wire
// struct), leniently.
func readObject(obj *unstructured.Unstructured, gvk schema.GroupVersionKind, out any) (reader, error) {
	r, err := newReader(obj, gvk)
	if err != nil {
		return r, err
	}
	return r, r.lenient("", obj.Object, out)
}

func (r reader) errorf(field, format string, args ...any) *Error {
	return &Error{Kind: r.kind, Name: r.name, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// strict decodes v, the value at path, into out (a pointer to a wire
// struct): a field out has no place for is an error naming it, as is a
// value of the wrong type. Keys are matched exactly, as the API server
// matches them (encoding/json would also take a key that differs in case),
// and every unknown field is named with its full path (sigs.k8s.io/json's
// strict decoding, the API server's own; a type that decodes itself, such as
// intOrString, is not looked into).
func (r reader) strict(path string, v any, out any) error {
	return r.decode(path, v, out, true)
}

// lenient decodes v, the value at path, into out, ignoring fields out has no
// place for (an object's status and metadata, which other controllers write
// and the model only partly reads). A value of the wrong type is an error.
func (r reader) lenient(path string, v any, out any) error {
	return r.decode(path, v, out, false)
}

func (r reader) decode(path string, v any, out any, disallowUnknown bool) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return r.errorf(path, "%v", err)
	}
	opts := []k8sjson.StrictOption{k8sjson.DisallowDuplicateFields}
	if disallowUnknown {
		opts = append(opts, k8sjson.DisallowUnknownFields)
	}
	unknown, err := k8sjson.UnmarshalStrict(raw, out, opts...)
	if err != nil {
		// A value of the wrong type: encoding/json's error names its field
		// (sigs.k8s.io/json's own error type is internal to it).
		var te *json.UnmarshalTypeError
		if errors.As(json.Unmarshal(raw, reflect.New(reflect.TypeOf(out).Elem()).Interface()), &te) {
			return r.errorf(joinPath(path, te.Field), "a JSON %s where the API has %s", te.Value, wireTypeName(te.Type))
		}
		return r.errorf(path, "%v", err)
	}
	var errs []error
	for _, u := range unknown {
		var fe k8sjson.FieldError
		if errors.As(u, &fe) {
			errs = append(errs, r.errorf(joinPath(path, fe.FieldPath()), "%s", cannotHold))
			continue
		}
		errs = append(errs, r.errorf(path, "%v", u))
	}
	return errors.Join(errs...)
}

func joinPath(path, field string) string {
	switch {
	case field == "":
		return path
	case path == "", strings.HasPrefix(field, "["):
		return path + field
	}
	return path + "." + field
}

// wireTypeName names a Go wire type as the API's type.
func wireTypeName(t reflect.Type) string {
	if t == reflect.TypeFor[intOrString]() {
		return "an integer or a string"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Slice:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}

// wireObject is the wire form of an object whose spec is S and status T
// (struct{} for a kind without one). An empty spec or status is omitted.
type wireObject[S, T any] struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   objectMeta `json:"metadata"`
	Spec       S          `json:"spec,omitzero"`
	Status     T          `json:"status,omitzero"`
}

// newObject returns the gvk called meta.Name with spec and status as an
// Unstructured.
func newObject[S, T any](gvk schema.GroupVersionKind, meta objectMeta, spec S, status T) *unstructured.Unstructured {
	return toUnstructured(wireObject[S, T]{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Metadata: meta, Spec: spec, Status: status})
}

// toUnstructured returns the object w (a wire struct with apiVersion, kind
// and metadata) as an Unstructured.
func toUnstructured(w any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: toValue(w).(map[string]any)}
}

// setField sets obj's field at path to the wire value w.
func setField(obj *unstructured.Unstructured, w any, path ...string) {
	if err := unstructured.SetNestedField(obj.Object, toValue(w), path...); err != nil {
		panic(fmt.Sprintf("kube: setting %s: %v", strings.Join(path, "."), err))
	}
}

// toValue is the wire value w as Unstructured holds it: maps, lists,
// strings, booleans and int64 numbers (DeepCopy panics on other numbers).
func toValue(w any) any {
	raw, err := json.Marshal(w)
	if err != nil {
		panic(fmt.Sprintf("kube: encoding a %T: %v", w, err)) // strings, integers, lists and maps only: cannot fail
	}
	var v any
	if err := utiljson.Unmarshal(raw, &v); err != nil {
		panic(fmt.Sprintf("kube: decoding a %T: %v", w, err))
	}
	return v
}

// timestamp is a Kubernetes time (metav1.Time) as the API writes it:
// RFC 3339 in UTC, to the second.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// parseTime reads a Kubernetes time at field; "" is the zero time.
func (r reader) parseTime(field, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, r.errorf(field, "%q is not an RFC 3339 time", s)
	}
	return t.UTC(), nil
}
