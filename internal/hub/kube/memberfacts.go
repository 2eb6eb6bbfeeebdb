package kube

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// MemberError is a MemberCluster that does not read as fleet facts: which member,
// which field, and what is wrong with it.
type MemberError struct {
	// Member is the object's metadata.name; empty when it has none.
	Member string
	// Field is the JSON path of the field, e.g.
	// status.agentStatus[0].conditions[1].lastTransitionTime; empty for the
	// object as a whole.
	Field string
	Msg   string
}

func (e *MemberError) Error() string {
	who := "MemberCluster"
	if e.Member != "" {
		who = fmt.Sprintf("MemberCluster %q", e.Member)
	}
	if e.Field == "" {
		return who + ": " + e.Msg
	}
	return who + ": " + e.Field + ": " + e.Msg
}

// MemberFactsFrom reads a member cluster's facts from its MemberCluster, as a hub
// cluster serves it (see the package documentation for where each fact
// lives). It reads what Fleet's scheduler reads, as it reads it: the first
// agent status entry of type MemberAgent, and the first Joined and Healthy
// conditions of that entry; a member is leaving when its deletionTimestamp is
// set. Fields it does not read are not checked. A field of the wrong type, a
// time that is not RFC 3339, a condition status other than True, False or
// Unknown, or a resource quantity that does not parse is an *Error naming the
// member and the field. MemberFactsFrom does not panic, whatever the object holds.
func MemberFactsFrom(u *unstructured.Unstructured) (MemberFacts, error) {
	if u == nil || u.Object == nil {
		return MemberFacts{}, &MemberError{Msg: "no object"}
	}
	r := &memberReader{}
	obj := u.Object
	meta, err := r.object(obj["metadata"], "metadata")
	if err != nil {
		return MemberFacts{}, err
	}
	name, err := r.str(meta["name"], "metadata.name")
	r.member = name // named in the errors that follow, even of the type
	if terr := r.checkType(obj); terr != nil {
		return MemberFacts{}, terr
	}
	if err != nil {
		return MemberFacts{}, err
	}
	if _, ok := present(meta, "name"); !ok {
		return MemberFacts{}, r.fail("metadata.name", "is missing")
	}
	if name == "" {
		return MemberFacts{}, r.fail("metadata.name", "is empty")
	}

	var f MemberFacts
	if f.Labels, err = r.stringMap(meta["labels"], "metadata.labels"); err != nil {
		return MemberFacts{}, err
	}
	if f.Agent.Leaving, err = r.deleted(meta["deletionTimestamp"], "metadata.deletionTimestamp"); err != nil {
		return MemberFacts{}, err
	}

	spec, err := r.object(obj["spec"], "spec")
	if err != nil {
		return MemberFacts{}, err
	}
	if f.Taints, err = r.taints(spec["taints"], "spec.taints"); err != nil {
		return MemberFacts{}, err
	}

	status, err := r.object(obj["status"], "status")
	if err != nil {
		return MemberFacts{}, err
	}
	if f.Properties, err = r.properties(status["properties"], "status.properties"); err != nil {
		return MemberFacts{}, err
	}
	if f.Usage, err = r.usage(status["resourceUsage"], "status.resourceUsage"); err != nil {
		return MemberFacts{}, err
	}
	leaving := f.Agent.Leaving
	if f.Agent, err = r.agent(status["agentStatus"], "status.agentStatus"); err != nil {
		return MemberFacts{}, err
	}
	f.Agent.Leaving = leaving
	return f, nil
}

// memberReader reads the fields of one MemberCluster, naming it in errors.
type memberReader struct{ member string }

func (r *memberReader) fail(path, format string, args ...any) error {
	return &MemberError{Member: r.member, Field: path, Msg: fmt.Sprintf(format, args...)}
}

// checkType accepts an object of kind MemberCluster in Fleet's API group, or
// one that does not say (a list's items may leave it to the list). Fleet's
// v1beta1 has the same shape as v1 in every field read here.
func (r *memberReader) checkType(obj map[string]any) error {
	if v, ok := present(obj, "kind"); ok {
		kind, err := r.str(v, "kind")
		if err != nil {
			return err
		}
		if kind != "" && kind != MemberClusterKind {
			return r.fail("kind", "is %q, not %s", kind, MemberClusterKind)
		}
	}
	if v, ok := present(obj, "apiVersion"); ok {
		av, err := r.str(v, "apiVersion")
		if err != nil {
			return err
		}
		if group, _, _ := strings.Cut(av, "/"); av != "" && group != MemberClusterGroup {
			return r.fail("apiVersion", "is %q, not of the API group %s", av, MemberClusterGroup)
		}
	}
	return nil
}

// deleted reads metadata.deletionTimestamp: set (and not the zero time,
// which metav1.Time reads as unset) means the member is leaving.
func (r *memberReader) deleted(v any, path string) (bool, error) {
	if v == nil {
		return false, nil
	}
	t, err := r.instant(v, path)
	if err != nil {
		return false, err
	}
	return !t.IsZero(), nil
}

func (r *memberReader) taints(v any, path string) ([]fleet.Taint, error) {
	items, err := r.list(v, path)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	out := make([]fleet.Taint, len(items))
	for i, item := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		m, err := r.object(item, p)
		if err != nil {
			return nil, err
		}
		if m == nil {
			return nil, r.fail(p, "is null, not a taint")
		}
		var t fleet.Taint
		if t.Key, err = r.requiredString(m, "key", p); err != nil {
			return nil, err
		}
		if t.Effect, err = r.requiredString(m, "effect", p); err != nil {
			return nil, err
		}
		if t.Value, err = r.str(m["value"], p+".value"); err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

func (r *memberReader) properties(v any, path string) (map[string]string, error) {
	m, err := r.object(v, path)
	if err != nil || len(m) == 0 {
		return nil, err
	}
	out := make(map[string]string, len(m))
	for name, pv := range m {
		p := path + "[" + strconv.Quote(name) + "]"
		prop, err := r.object(pv, p)
		if err != nil {
			return nil, err
		}
		if prop == nil {
			return nil, r.fail(p, "is null, not a property value")
		}
		if _, ok := present(prop, "value"); !ok {
			return nil, r.fail(p+".value", "is missing")
		}
		if out[name], err = r.str(prop["value"], p+".value"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *memberReader) usage(v any, path string) (fleet.ResourceUsage, error) {
	m, err := r.object(v, path)
	if err != nil || m == nil {
		return fleet.ResourceUsage{}, err
	}
	var u fleet.ResourceUsage
	if u.Capacity, err = r.quantities(m["capacity"], path+".capacity"); err != nil {
		return fleet.ResourceUsage{}, err
	}
	if u.Allocatable, err = r.quantities(m["allocatable"], path+".allocatable"); err != nil {
		return fleet.ResourceUsage{}, err
	}
	if u.Available, err = r.quantities(m["available"], path+".available"); err != nil {
		return fleet.ResourceUsage{}, err
	}
	return u, nil
}

// quantities reads a resource list; its values are quantities written as
// strings or, as the CRD allows (int-or-string), as numbers.
func (r *memberReader) quantities(v any, path string) (map[string]resource.Quantity, error) {
	m, err := r.object(v, path)
	if err != nil || len(m) == 0 {
		return nil, err
	}
	out := make(map[string]resource.Quantity, len(m))
	for name, qv := range m {
		p := path + "[" + strconv.Quote(name) + "]"
		var s string
		switch q := qv.(type) {
		case string:
			s = q
		case int64:
			s = strconv.FormatInt(q, 10)
		case int:
			s = strconv.Itoa(q)
		case int32:
			s = strconv.FormatInt(int64(q), 10)
		case float64:
			s = strconv.FormatFloat(q, 'f', -1, 64)
		case json.Number:
			s = q.String()
		default:
			return nil, r.fail(p, "is %s, not a quantity", describe(qv))
		}
		q, ok := fleet.ParseQuantity(s)
		if !ok {
			return nil, r.fail(p, "%q is not a quantity", truncate(s))
		}
		out[name] = q
	}
	return out, nil
}

// agent reads the member agent's status as Fleet's eligibility checker does.
func (r *memberReader) agent(v any, path string) (fleet.AgentStatus, error) {
	entries, err := r.list(v, path)
	if err != nil {
		return fleet.AgentStatus{}, err
	}
	for i, e := range entries {
		p := fmt.Sprintf("%s[%d]", path, i)
		m, err := r.object(e, p)
		if err != nil {
			return fleet.AgentStatus{}, err
		}
		if m == nil {
			return fleet.AgentStatus{}, r.fail(p, "is null, not an agent status")
		}
		typ, err := r.requiredString(m, "type", p)
		if err != nil {
			return fleet.AgentStatus{}, err
		}
		if typ == AgentTypeMember {
			return r.memberAgent(m, p)
		}
	}
	return fleet.AgentStatus{}, nil // the member agent never reported
}

func (r *memberReader) memberAgent(m map[string]any, path string) (fleet.AgentStatus, error) {
	a := fleet.AgentStatus{Present: true}
	var err error
	if a.LastHeartbeat, err = r.instant(m["lastReceivedHeartbeat"], path+".lastReceivedHeartbeat"); err != nil {
		return fleet.AgentStatus{}, err
	}
	conds, err := r.list(m["conditions"], path+".conditions")
	if err != nil {
		return fleet.AgentStatus{}, err
	}
	var joined, healthy bool // found
	for i, c := range conds {
		p := fmt.Sprintf("%s.conditions[%d]", path, i)
		cm, err := r.object(c, p)
		if err != nil {
			return fleet.AgentStatus{}, err
		}
		if cm == nil {
			return fleet.AgentStatus{}, r.fail(p, "is null, not a condition")
		}
		typ, err := r.requiredString(cm, "type", p)
		if err != nil {
			return fleet.AgentStatus{}, err
		}
		switch {
		case typ == AgentConditionJoined && !joined:
			joined = true
			st, err := r.conditionStatus(cm, p)
			if err != nil {
				return fleet.AgentStatus{}, err
			}
			a.Joined = st == fleet.ConditionTrue
		case typ == AgentConditionHealthy && !healthy:
			healthy = true
			if a.Healthy, err = r.conditionStatus(cm, p); err != nil {
				return fleet.AgentStatus{}, err
			}
			if a.HealthSince, err = r.instant(cm["lastTransitionTime"], p+".lastTransitionTime"); err != nil {
				return fleet.AgentStatus{}, err
			}
		}
	}
	return a, nil
}

func (r *memberReader) conditionStatus(m map[string]any, path string) (string, error) {
	st, err := r.requiredString(m, "status", path)
	if err != nil {
		return "", err
	}
	switch st {
	case fleet.ConditionTrue, fleet.ConditionFalse, fleet.ConditionUnknown:
		return st, nil
	}
	return "", r.fail(path+".status", "is %q, not True, False or Unknown", truncate(st))
}

// instant reads a time: RFC 3339, with or without a fraction of a second;
// absent or null is the zero time, as metav1.Time reads it.
func (r *memberReader) instant(v any, path string) (time.Time, error) {
	if v == nil {
		return time.Time{}, nil
	}
	s, ok := v.(string)
	if !ok {
		return time.Time{}, r.fail(path, "is %s, not an RFC 3339 time", describe(v))
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, r.fail(path, "%q is not an RFC 3339 time", truncate(s))
	}
	if t.IsZero() {
		return time.Time{}, nil
	}
	return t.UTC(), nil
}

func (r *memberReader) stringMap(v any, path string) (map[string]string, error) {
	m, err := r.object(v, path)
	if err != nil || len(m) == 0 {
		return nil, err
	}
	out := make(map[string]string, len(m))
	for k, val := range m {
		s, ok := val.(string)
		if !ok {
			return nil, r.fail(path+"["+strconv.Quote(k)+"]", "is %s, not a string", describe(val))
		}
		out[k] = s
	}
	return out, nil
}

// requiredString reads m[key], which must be a non-empty string.
func (r *memberReader) requiredString(m map[string]any, key, path string) (string, error) {
	p := path + "." + key
	if _, ok := present(m, key); !ok {
		return "", r.fail(p, "is missing")
	}
	s, err := r.str(m[key], p)
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", r.fail(p, "is empty")
	}
	return s, nil
}

// object reads a JSON object; null or absent is nil.
func (r *memberReader) object(v any, path string) (map[string]any, error) {
	switch m := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return m, nil
	}
	return nil, r.fail(path, "is %s, not an object", describe(v))
}

// list reads a JSON array; null or absent is nil.
func (r *memberReader) list(v any, path string) ([]any, error) {
	switch l := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return l, nil
	}
	return nil, r.fail(path, "is %s, not a list", describe(v))
}

// str reads a JSON string; null or absent is "".
func (r *memberReader) str(v any, path string) (string, error) {
	switch s := v.(type) {
	case nil:
		return "", nil
	case string:
		return s, nil
	}
	return "", r.fail(path, "is %s, not a string", describe(v))
}

// present tells whether m has key with a value other than null.
func present(m map[string]any, key string) (any, bool) {
	v, ok := m[key]
	return v, ok && v != nil
}

// describe names the JSON type of a decoded value, for errors.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", truncate(x))
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int, int32, int64, float32, float64, json.Number:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// truncate shortens a value quoted in an error.
func truncate(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
