package kubetest

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"

	karpenterapis "sigs.k8s.io/karpenter/pkg/apis"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// crdFiles holds the CRDs as the real clusters install them, unchanged: the
// Fleet hub's (crds/fleet-*.yaml, from Fleet's config/crd/bases) and AKS's
// NodePool (crds/aks-karpenter.sh_nodepools.yaml, from the AKS Karpenter
// provider). crds/README.md says where each comes from.
//
//go:embed crds/fleet-*.yaml crds/aks-karpenter.sh_nodepools.yaml
var crdFiles embed.FS

// nodeClaimCRDName is the name of Karpenter's NodeClaim CRD.
const nodeClaimCRDName = "nodeclaims.karpenter.sh"

var (
	hubCRDs    = sync.OnceValues(func() ([]*apiextv1.CustomResourceDefinition, error) { return loadCRDs("crds/fleet-*.yaml") })
	memberCRDs = sync.OnceValues(loadMemberCRDs)
)

// HubCRDs returns the CRDs of a Fleet hub cluster: every crds/fleet-*.yaml
// (MemberCluster, ClusterResourcePlacement, ClusterResourceBinding, ...).
// The result is a new copy at each call.
func HubCRDs() []*apiextv1.CustomResourceDefinition {
	return copies(hubCRDs())
}

// MemberCRDs returns the CRDs of an AKS cluster with Node Auto Provisioning:
// the NodePool CRD exactly as AKS installs it, and Karpenter's NodeClaim.
// The result is a new copy at each call.
func MemberCRDs() []*apiextv1.CustomResourceDefinition {
	return copies(memberCRDs())
}

// copies deep-copies the CRDs; the embedded files are known good, so an
// error loading them is a bug of this package.
func copies(crds []*apiextv1.CustomResourceDefinition, err error) []*apiextv1.CustomResourceDefinition {
	if err != nil {
		panic(err)
	}
	out := make([]*apiextv1.CustomResourceDefinition, len(crds))
	for i, crd := range crds {
		out[i] = crd.DeepCopy()
	}
	return out
}

func loadMemberCRDs() ([]*apiextv1.CustomResourceDefinition, error) {
	crds, err := loadCRDs("crds/aks-karpenter.sh_nodepools.yaml")
	if err != nil {
		return nil, err
	}
	for _, crd := range karpenterapis.CRDs {
		if crd.Name == nodeClaimCRDName {
			return append(crds, crd.DeepCopy()), nil
		}
	}
	return nil, fmt.Errorf("kubetest: sigs.k8s.io/karpenter/pkg/apis.CRDs has no %s", nodeClaimCRDName)
}

// loadCRDs decodes every CRD of the embedded files matching pattern.
func loadCRDs(pattern string) ([]*apiextv1.CustomResourceDefinition, error) {
	files, err := fs.Glob(crdFiles, pattern)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("kubetest: no CRD file matches %s", pattern)
	}
	var crds []*apiextv1.CustomResourceDefinition
	for _, file := range files {
		data, err := crdFiles.ReadFile(file)
		if err != nil {
			return nil, err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			var crd apiextv1.CustomResourceDefinition
			err := dec.Decode(&crd)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("kubetest: decoding %s: %w", file, err)
			}
			if crd.Name == "" { // an empty document
				continue
			}
			if crd.Kind != "CustomResourceDefinition" {
				return nil, fmt.Errorf("kubetest: %s holds a %s, not a CustomResourceDefinition", file, crd.Kind)
			}
			crds = append(crds, &crd)
		}
	}
	return crds, nil
}
