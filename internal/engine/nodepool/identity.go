package nodepool

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/fleetform/terraform-provider-aks/internal/engine/field"
)

// Identity rules: a NodePool is a cluster-scoped Kubernetes object (its name
// a DNS-1123 subdomain) on a member cluster (a DNS-1123 label, as Fleet
// member names are).
const (
	RuleNodePoolName RuleID = "nodepool-name"
	RuleClusterName  RuleID = "cluster-name"
)

// ValidateIdentity checks where the NodePool lives and what it is called.
func ValidateIdentity(cluster, name string) field.Errors {
	var es field.Errors
	if msgs := validation.IsDNS1123Label(cluster); len(msgs) > 0 {
		add(&es, field.Root("cluster"), RuleClusterName, "\""+cluster+"\" is not a member cluster name: "+strings.Join(msgs, "; "),
			"Use the member's name, e.g. aks-east-prod-01")
	}
	if msgs := validation.IsDNS1123Subdomain(name); len(msgs) > 0 {
		add(&es, field.Root("name"), RuleNodePoolName, "\""+name+"\" is not a valid NodePool name: "+strings.Join(msgs, "; "),
			"Use lower-case letters, digits, '-' and '.', e.g. default or gpu-spot")
	}
	return es
}
