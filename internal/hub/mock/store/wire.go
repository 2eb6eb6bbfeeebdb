package store

import (
	"bytes"
	"encoding/json"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/engine/update"
	"github.com/fleetform/terraform-provider-aks/internal/hub/azure/armfleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub/kube"
)

// Records in the upstream wire forms (designs/hub.md §6): a record's Go
// fields are the engine's types, which the mock computes with, and its
// stored form is what Karpenter's, Fleet's or Resource Manager's API holds,
// written and read by the converters the azure hub uses (package kube,
// armfleet). The engine's json tags are Terraform's attribute names; in a
// body stored this way they never reach the database, so renaming an
// attribute needs no migration. NodePools, strategies and profiles are
// stored so since format 5; placements and runs still hold the engine's
// encoding (TestStoredKeysAreNotTerraformNames lists them).
//
// Each record type whose stored form changed to a wire form keeps a twin of
// its format-4 form (v4Types), which the migrations of earlier formats
// decode.

// nodePoolWire is a NodePool's stored form.
type nodePoolWire struct {
	// Spec is the karpenter.sh/v1 NodePool's spec (kube.NodePoolObject).
	Spec map[string]any `json:"spec"`
}

// MarshalJSON stores the NodePool as Karpenter's API holds it.
func (r NodePool) MarshalJSON() ([]byte, error) {
	spec, _ := kube.NodePoolObject("stored", r.Spec).Object["spec"].(map[string]any)
	return json.Marshal(nodePoolWire{Spec: spec})
}

// UnmarshalJSON reads a stored NodePool strictly: a key Karpenter's API
// does not have, or the model cannot hold, is an error.
func (r *NodePool) UnmarshalJSON(data []byte) error {
	var w nodePoolWire
	if err := strictJSON(data, &w); err != nil {
		return err
	}
	obj := &unstructured.Unstructured{Object: map[string]any{"spec": w.Spec}}
	obj.SetGroupVersionKind(kube.NodePoolGVK)
	obj.SetName("stored")
	_, spec, err := kube.NodePoolFromObject(obj)
	if err != nil {
		return err
	}
	*r = NodePool{Spec: spec}
	return nil
}

// strategyWire is an update strategy's stored form: the updateStrategy's
// properties as Resource Manager holds them (armfleet.StrategyToWire).
type strategyWire struct {
	Strategy armfleet.RunStrategy `json:"strategy"`
}

// MarshalJSON stores the strategy as Resource Manager holds it.
func (r Strategy) MarshalJSON() ([]byte, error) {
	return json.Marshal(strategyWire{Strategy: armfleet.StrategyToWire(r.Spec)})
}

// UnmarshalJSON reads a stored strategy strictly.
func (r *Strategy) UnmarshalJSON(data []byte) error {
	var w strategyWire
	if err := strictJSON(data, &w); err != nil {
		return err
	}
	*r = Strategy{Spec: armfleet.StrategyFromWire(w.Strategy)}
	return nil
}

// profileWire is an auto-upgrade profile's stored form: the
// autoUpgradeProfile's properties as Resource Manager holds them, with the
// update strategy id as it was sent (armfleet.ProfileSpecToWire writes a
// name as an ARM id), and what the mock keeps beside them: the runs the
// profile generated (which Resource Manager does not list on the profile)
// and its channel's last resolution.
type profileWire struct {
	Properties armfleet.AutoUpgradeProfileProperties `json:"properties"`
	LastRun    string                                `json:"lastRun,omitempty"`
	Runs       []string                              `json:"runs,omitempty"`
	Trigger    *ProfileTrigger                       `json:"trigger"`
}

// MarshalJSON stores the profile as Resource Manager holds it.
func (r Profile) MarshalJSON() ([]byte, error) {
	p := armfleet.ProfileSpecToWire(armfleet.FleetID{}, r.Spec)
	p.UpdateStrategyID = r.Spec.UpdateStrategyID
	p.AutoUpgradeProfileStatus = armfleet.ProfileStatusToWire(r.Status)
	return json.Marshal(profileWire{Properties: p, LastRun: r.Status.LastRun, Runs: r.Status.Runs, Trigger: r.Trigger})
}

// UnmarshalJSON reads a stored profile strictly.
func (r *Profile) UnmarshalJSON(data []byte) error {
	var w profileWire
	if err := strictJSON(data, &w); err != nil {
		return err
	}
	st := armfleet.ProfileStatusFromWire(w.Properties.AutoUpgradeProfileStatus)
	st.LastRun, st.Runs = w.LastRun, w.Runs
	*r = Profile{Spec: armfleet.ProfileSpecFromWire(w.Properties), Status: st, Trigger: w.Trigger}
	return nil
}

// v4Strategy and v4Profile are the format-4 forms of a strategy and a
// profile (see v4NodePool).
type v4Strategy struct {
	Spec update.Strategy `json:"spec"`
}

type v4Profile struct {
	Spec    update.ProfileSpec   `json:"spec"`
	Status  update.ProfileStatus `json:"status"`
	Trigger *ProfileTrigger      `json:"trigger"`
}

// v4NodePool is a NodePool's format-4 form: the engine's encoding of its
// spec. It decodes with the engine's json tags as they are; a rename of one
// of them must first give this type a copy of the tags of format 4 (the
// golden format-4 database, testdata/state-v4.db, fails to migrate until it
// does).
type v4NodePool struct {
	Spec nodepool.NodePool `json:"spec"`
}

// strictJSON decodes data into v, refusing unknown keys.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
