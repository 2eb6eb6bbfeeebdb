// Package selector holds the two cluster selectors of Fleet: Kubernetes label
// selectors and Fleet property selectors. Each type validates itself against
// the rules Kubernetes and Fleet admission apply, and matches clusters with
// the same semantics.
package selector

import (
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// Label selector operators.
const (
	OpIn           = "In"
	OpNotIn        = "NotIn"
	OpExists       = "Exists"
	OpDoesNotExist = "DoesNotExist"
)

// LabelOperators are the operators a label selector expression accepts.
var LabelOperators = []string{OpIn, OpNotIn, OpExists, OpDoesNotExist}

// LabelSelector is a Kubernetes label selector: match_labels AND match_expressions.
// The empty selector matches everything.
type LabelSelector struct {
	MatchLabels      map[string]string `json:"match_labels"`
	MatchExpressions []LabelExpression `json:"match_expressions"`
}

// LabelExpression is one match_expressions entry.
type LabelExpression struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values"`
}

// Validate applies Kubernetes' label selector validation. Paths are relative to the selector.
func (s LabelSelector) Validate() field.Errors {
	var errs field.Errors
	keys := make([]string, 0, len(s.MatchLabels))
	for k := range s.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := field.Root("match_labels").Key(k)
		errs = append(errs, qualifiedName(p, k)...)
		errs = append(errs, labelValue(p, s.MatchLabels[k])...)
	}
	for i, e := range s.MatchExpressions {
		p := field.Root("match_expressions").Index(i)
		errs = append(errs, qualifiedName(p.Child("key"), e.Key)...)
		switch e.Operator {
		case OpIn, OpNotIn:
			if len(e.Values) == 0 {
				errs = append(errs, field.Errorf(p.Child("values"), "Give at least one value, or use Exists / DoesNotExist.", "operator %s needs at least one value", e.Operator))
			}
		case OpExists, OpDoesNotExist:
			if len(e.Values) > 0 {
				errs = append(errs, field.Errorf(p.Child("values"), "Remove values.", "operator %s takes no values", e.Operator))
			}
		default:
			errs = append(errs, field.Errorf(p.Child("operator"), "Use one of "+strings.Join(LabelOperators, ", ")+".", "%q is not a label selector operator", e.Operator))
		}
		for j, v := range e.Values {
			errs = append(errs, labelValue(p.Child("values").Index(j), v)...)
		}
	}
	return errs
}

func qualifiedName(p field.Path, v string) field.Errors {
	if msgs := validation.IsQualifiedName(v); len(msgs) > 0 {
		return field.Errors{field.Errorf(p, "Use a Kubernetes label key such as example.com/tier.", "%q is not a valid label key: %s", v, strings.Join(msgs, "; "))}
	}
	return nil
}

func labelValue(p field.Path, v string) field.Errors {
	if msgs := validation.IsValidLabelValue(v); len(msgs) > 0 {
		return field.Errors{field.Errorf(p, "", "%q is not a valid label value: %s", v, strings.Join(msgs, "; "))}
	}
	return nil
}

// Compile turns a valid selector into a matcher with Kubernetes semantics.
func (s LabelSelector) Compile() (labels.Selector, error) {
	ls := &metav1.LabelSelector{MatchLabels: s.MatchLabels}
	for _, e := range s.MatchExpressions {
		ls.MatchExpressions = append(ls.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: e.Key, Operator: metav1.LabelSelectorOperator(e.Operator), Values: e.Values,
		})
	}
	sel, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		return nil, fmt.Errorf("label selector: %w", err)
	}
	return sel, nil
}
