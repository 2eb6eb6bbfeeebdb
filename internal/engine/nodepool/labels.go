package nodepool

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Label keys with special meaning.
const (
	LabelCapacityType = "karpenter.sh/capacity-type"
	LabelNodePool     = "karpenter.sh/nodepool"
	// LabelInitialized is on every node Karpenter has initialized ("true").
	LabelInitialized    = "karpenter.sh/initialized"
	LabelHostname       = "kubernetes.io/hostname"
	LabelAKSMode        = "kubernetes.azure.com/mode"
	LabelAKSOSSKU       = "kubernetes.azure.com/os-sku"
	LabelPlacementScope = "karpenter.azure.com/placement-scope"
	// LabelAKSNodeClass is admitted by the AKS CRD but rejected by AKS
	// Karpenter at runtime (RestrictedLabel).
	LabelAKSNodeClass = "karpenter.azure.com/aksnodeclass"

	// AnnotationDoNotDisrupt on a node or pod blocks voluntary disruption.
	AnnotationDoNotDisrupt = "karpenter.sh/do-not-disrupt"
)

// Label domains whose keys are restricted.
const (
	DomainKarpenter      = "karpenter.sh"
	DomainKarpenterAzure = "karpenter.azure.com"
	DomainKubernetesAKS  = "kubernetes.azure.com"
)

// AllowedKarpenterAzureLabels are the only keys of the karpenter.azure.com
// domain that requirements and template labels may use (AKS). The AKS CRD
// also admits aksnodeclass, but AKS Karpenter's runtime check rejects it:
// karpenter.azure.com is one of its restricted label domains
// (RestrictedLabelDomains) and aksnodeclass is not a well-known label.
var AllowedKarpenterAzureLabels = []string{
	"sku-name", "sku-family", "sku-series", "sku-version", "sku-cpu", "sku-memory",
	"sku-networking-accelerated", "sku-storage-premium-capable", "sku-storage-ultra-ssd",
	"sku-storage-ephemeralos-maxsize", "sku-gpu-name", "sku-gpu-manufacturer",
	"sku-gpu-count", "placement-scope",
}

// AllowedKubernetesAzureLabels are the only keys of the kubernetes.azure.com
// domain that requirements and template labels may use (AKS).
var AllowedKubernetesAzureLabels = []string{
	"mode", "scalesetpriority", "priority", "fips_enabled", "os-sku", "cluster",
	"sku-cpu", "sku-memory", "ebpf-dataplane", "ebpf-host-routing", "network-policy",
	"hostedvm",
}

// RestrictedBareLabels are unprefixed keys AKS reserves.
var RestrictedBareLabels = []string{"agentpool", "storageprofile", "storagetier", "accelerator"}

// KnownLabelValues are the well-known keys with a closed set of values on
// AKS, and those values (the AKS provider registers them in Karpenter's
// WellKnownValuesForRequirements). How they are enforced: validateLabels
// (a template label) and validateKnownValues (a requirement, failing open
// like Karpenter's validateWellKnownValues).
var KnownLabelValues = map[string][]string{
	LabelCapacityType:   {"on-demand", "spot"},
	LabelAKSMode:        {"system", "user"},
	LabelPlacementScope: {"zonal", "regional"},
	LabelAKSOSSKU:       {"Ubuntu", "AzureLinux"},
	DomainKubernetesAKS + "/scalesetpriority":             {"regular", "spot"},
	DomainKubernetesAKS + "/priority":                     {"regular", "spot"},
	DomainKubernetesAKS + "/fips_enabled":                 {"true"},
	DomainKarpenterAzure + "/sku-gpu-manufacturer":        {"nvidia", "amd"},
	DomainKarpenterAzure + "/sku-networking-accelerated":  {"true", "false"},
	DomainKarpenterAzure + "/sku-storage-premium-capable": {"true", "false"},
	DomainKarpenterAzure + "/sku-storage-ultra-ssd":       {"true", "false"},
}

// normalizedLabels maps deprecated aliases onto the keys Karpenter uses when
// it compares requirements with node labels.
var normalizedLabels = map[string]string{
	"failure-domain.beta.kubernetes.io/zone":   "topology.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region": "topology.kubernetes.io/region",
	"beta.kubernetes.io/arch":                  "kubernetes.io/arch",
	"beta.kubernetes.io/os":                    "kubernetes.io/os",
	"beta.kubernetes.io/instance-type":         "node.kubernetes.io/instance-type",
}

func normalizeKey(k string) string {
	if n, ok := normalizedLabels[k]; ok {
		return n
	}
	return k
}

// labelDomain returns what the CRD's CEL rules call the domain of a key:
// everything before the first '/', or the whole key when it has none.
func labelDomain(key string) string {
	if i := strings.IndexByte(key, '/'); i >= 0 {
		return key[:i]
	}
	return key
}

// RestrictedLabel reports why a requirement key or template label key may not
// be used, or "" when it may. The rules are the CRD's (Karpenter core and the
// AKS provider): domain matching is a plain suffix match on the part before
// the first '/', exactly like the CEL expression
// `self.find("^([^/]+)").endsWith(domain)`.
func RestrictedLabel(key string) string {
	domain := labelDomain(key)
	switch {
	case key == LabelNodePool:
		return fmt.Sprintf("label %q is restricted: Karpenter sets it on every node", key)
	case key == LabelHostname:
		return fmt.Sprintf("label %q is restricted", key)
	case key == LabelAKSNodeClass:
		return fmt.Sprintf("label %q is restricted: the AKS CRD admits it, but AKS Karpenter rejects it at runtime (the NodePool never becomes ready)", key)
	case strings.HasSuffix(domain, DomainKarpenter) && key != LabelCapacityType:
		return fmt.Sprintf("label domain %q is restricted: only %q may be used", DomainKarpenter, LabelCapacityType)
	case strings.HasSuffix(domain, DomainKarpenterAzure) && !inDomainList(key, DomainKarpenterAzure, AllowedKarpenterAzureLabels):
		return fmt.Sprintf("label domain %q is restricted: only %s may be used", DomainKarpenterAzure, strings.Join(AllowedKarpenterAzureLabels, ", "))
	case strings.HasSuffix(domain, DomainKubernetesAKS) && !inDomainList(key, DomainKubernetesAKS, AllowedKubernetesAzureLabels):
		return fmt.Sprintf("label domain %q is restricted: only %s may be used", DomainKubernetesAKS, strings.Join(AllowedKubernetesAzureLabels, ", "))
	case slices.Contains(RestrictedBareLabels, key):
		return fmt.Sprintf("label %q is reserved by AKS", key)
	}
	return ""
}

func inDomainList(key, domain string, names []string) bool {
	for _, n := range names {
		if key == domain+"/"+n {
			return true
		}
	}
	return false
}

// unknownValue returns the allowed values when key has a closed value set
// (AKS) that does not contain value.
func unknownValue(key, value string) ([]string, bool) {
	allowed, ok := KnownLabelValues[key]
	if !ok || slices.Contains(allowed, value) {
		return nil, false
	}
	return allowed, true
}

// qualifiedNameErrors is Kubernetes' validation.IsQualifiedName, which
// Karpenter applies to label, requirement and taint keys.
func qualifiedNameErrors(s string) []string { return validation.IsQualifiedName(s) }

// labelValueErrors is Kubernetes' validation.IsValidLabelValue.
func labelValueErrors(s string) []string { return validation.IsValidLabelValue(s) }

// quantityPattern is the OpenAPI pattern of resource.Quantity in CRDs, which
// is what the API server checks for spec.limits.
var quantityPattern = regexp.MustCompile(`^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`)

// validQuantity reports whether s is both admitted by the CRD pattern and
// parsed by resource.ParseQuantity (which Karpenter needs to read the
// NodePool). Neither implies the other: the pattern admits "1e1.5", which
// ParseQuantity rejects; ParseQuantity accepts "." and "+", which the
// pattern rejects.
func validQuantity(s string) bool {
	if !quantityPattern.MatchString(s) {
		return false
	}
	_, err := resource.ParseQuantity(s)
	return err == nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
