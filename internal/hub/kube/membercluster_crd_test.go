package kube

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiextvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// crdFile is Fleet's MemberCluster CRD, a copy of
// internal/emulator/kubetest/crds/fleet-cluster.kubernetes-fleet.io_memberclusters.yaml
// (kubefleet-dev/kubefleet config/crd/bases at e160c1cd).
const crdFile = "testdata/fleet-cluster.kubernetes-fleet.io_memberclusters.yaml"

// crdValidator validates an object as the API server validates a custom
// resource of the CRD's v1 on create: metadata, the OpenAPI schema (types,
// enums, patterns, formats, required fields), list-map keys, CEL rules, and
// no field the schema would prune.
func crdValidator(t *testing.T) func(u *unstructured.Unstructured) field.ErrorList {
	t.Helper()
	data, err := os.ReadFile(crdFile)
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextv1.CustomResourceDefinition
	if err := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096).Decode(&crd); err != nil {
		t.Fatalf("%s: %v", crdFile, err)
	}
	if crd.Spec.Group != MemberClusterGroup || crd.Spec.Names.Plural != MemberClusterResource || crd.Spec.Names.Kind != MemberClusterKind || crd.Spec.Names.ListKind != MemberClusterListKind ||
		crd.Spec.Names.Singular != MemberClusterSingular || crd.Spec.Scope != apiextv1.ClusterScoped {
		t.Fatalf("the CRD names %s %+v %s, not this package's", crd.Spec.Group, crd.Spec.Names, crd.Spec.Scope)
	}
	var v1 *apiextv1.CustomResourceValidation
	for _, v := range crd.Spec.Versions {
		if v.Name == MemberClusterVersion && v.Served {
			v1 = v.Schema
		}
	}
	if v1 == nil || v1.OpenAPIV3Schema == nil {
		t.Fatalf("%s: no served %s with a schema", crdFile, MemberClusterVersion)
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v1.OpenAPIV3Schema, &internal, nil); err != nil {
		t.Fatal(err)
	}
	openAPI, _, err := apiextvalidation.NewSchemaValidator(&internal)
	if err != nil {
		t.Fatal(err)
	}
	structural, err := structuralschema.NewStructural(&internal)
	if err != nil {
		t.Fatal(err)
	}
	rules := cel.NewValidator(structural, true, celconfig.PerCallLimit)
	if rules == nil {
		t.Fatal("the CRD has no CEL rules; expected the metadata.name rule")
	}
	return func(u *unstructured.Unstructured) field.ErrorList {
		obj := u.UnstructuredContent()
		errs := metavalidation.ValidateObjectMetaAccessor(u, false, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
		errs = append(errs, apiextvalidation.ValidateCustomResource(nil, obj, openAPI)...)
		errs = append(errs, listtype.ValidateListSetsAndMaps(nil, structural, obj)...)
		celErrs, _ := rules.Validate(context.Background(), nil, structural, obj, nil, celconfig.RuntimeCELCostBudget)
		errs = append(errs, celErrs...)
		pruned := runtime.DeepCopyJSON(obj)
		for _, p := range pruning.PruneWithOptions(pruned, structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}) {
			errs = append(errs, field.Invalid(field.NewPath(p), nil, "unknown field: the API server would drop it"))
		}
		return errs
	}
}

// TestObjectsMatchTheCRD: every object MemberCluster makes, for the sample
// fleet and for every agent state, is one the hub's API server admits.
func TestObjectsMatchTheCRD(t *testing.T) {
	validate := crdValidator(t)
	clusters := sampleFleet(t).Clusters
	for name, a := range agentCases() {
		c := *full()
		c.Name = "agent-" + map[bool]string{true: "x", false: "y"}[a.Present] + "-" + slug(name)
		c.Agent = a
		clusters = append(clusters, c)
	}
	clusters = append(clusters, fleet.Cluster{Name: "bare"})
	for i := range clusters {
		c := &clusters[i]
		if errs := validate(wire(t, MemberCluster(c))); len(errs) > 0 {
			t.Errorf("%s: the CRD rejects the object:\n%v", c.Name, errs.ToAggregate())
		}
	}

	// The validator does reject what the CRD forbids.
	bad := MemberCluster(full())
	setPath(bad.Object, "Maybe", "status", "agentStatus", 0, "conditions", 0, "status")
	setPath(bad.Object, "PreferNoSchedule", "spec", "taints", 0, "effect")
	setPath(bad.Object, "unknown", "spec", "color")
	setPath(bad.Object, "yesterday", "status", "agentStatus", 0, "lastReceivedHeartbeat")
	setPath(bad.Object, "x"+strings.Repeat("y", 63), "metadata", "name")
	errs := validate(bad)
	for _, want := range []string{"conditions[0].status", "taints[0].effect", "spec.color", "lastReceivedHeartbeat", "metadata.name max length is 63"} {
		if !strings.Contains(errs.ToAggregate().Error(), want) {
			t.Errorf("a broken object: no error about %s in %v", want, errs)
		}
	}
}

func slug(s string) string {
	b := []byte{}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b = append(b, byte(r))
		case len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, '-')
		}
	}
	return string(bytes.TrimRight(b, "-"))
}
