package fleetsim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
)

// fleet returns the backend and its current fleet.
func (s *Sim) fleet(ctx context.Context) (hub.Hub, *fleet.Fleet, error) {
	h, err := s.backend(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("fleetsim: the backend hub: %w", err)
	}
	f, err := h.Fleet(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("fleetsim: the backend's fleet: %w", err)
	}
	return h, f, nil
}

func metaName(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: name} }

// sameJSON tells whether a and b serialize alike (maps with sorted keys):
// what the API server stores of an object read back compares with what
// was written.
func sameJSON(a, b any) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

// byName lists every object of client (with the labels sel, when set) by name.
func byName(ctx context.Context, client dynamic.ResourceInterface, sel labels.Set) (map[string]*unstructured.Unstructured, error) {
	list, err := client.List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, err
	}
	out := make(map[string]*unstructured.Unstructured, len(list.Items))
	for i := range list.Items {
		out[list.Items[i].GetName()] = &list.Items[i]
	}
	return out, nil
}

// remove deletes an object at once, whatever finalizers it has (the
// controllers that own them are not running): the finalizers are dropped,
// which removes an object already being deleted, then it is deleted. An
// object that is not there is not an error.
func remove(ctx context.Context, client dynamic.ResourceInterface, obj *unstructured.Unstructured) error {
	if len(obj.GetFinalizers()) > 0 {
		_, err := client.Patch(ctx, obj.GetName(), types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return deleteObject(ctx, client, obj.GetName())
}

// deleteObject deletes an object; one that is not there is not an error.
func deleteObject(ctx context.Context, client dynamic.ResourceInterface, name string) error {
	if err := client.Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return nil
}

// withoutFinalizer removes the finalizer from obj (re-reading it on a
// conflict); an object that is gone is not an error.
func withoutFinalizer(ctx context.Context, client dynamic.ResourceInterface, obj *unstructured.Unstructured, finalizer string) error {
	for {
		fs := obj.GetFinalizers()
		i := slices.Index(fs, finalizer)
		if i < 0 {
			return nil
		}
		upd := obj.DeepCopy()
		upd.SetFinalizers(slices.Delete(slices.Clone(fs), i, i+1))
		_, err := client.Update(ctx, upd, metav1.UpdateOptions{})
		switch {
		case err == nil, apierrors.IsNotFound(err):
			return nil
		case !apierrors.IsConflict(err):
			return err
		}
		if obj, err = client.Get(ctx, obj.GetName(), metav1.GetOptions{}); err != nil {
			if apierrors.IsNotFound(err) {
				return nil
			}
			return err
		}
	}
}

// writeStatus sets obj's status to status through the status subresource
// unless it holds it already, and returns the object stored.
func writeStatus(ctx context.Context, client dynamic.ResourceInterface, obj *unstructured.Unstructured, status any) (*unstructured.Unstructured, error) {
	if sameJSON(obj.Object["status"], status) {
		return obj, nil
	}
	upd := obj.DeepCopy()
	upd.Object["status"] = status
	return client.UpdateStatus(ctx, upd, metav1.UpdateOptions{})
}

// clear removes every object of the resources from a cluster, finalizers
// and all: a Sim that takes over a cluster of its Env (another Sim, of
// another mock state, used it before) starts from what a new mock state
// holds — nothing.
func clear(ctx context.Context, c dynamic.Interface, gvrs ...schema.GroupVersionResource) error {
	for _, gvr := range gvrs {
		objs, err := byName(ctx, c.Resource(gvr), nil)
		if err != nil {
			return fmt.Errorf("fleetsim: listing %s: %w", gvr.Resource, err)
		}
		for _, obj := range objs {
			if err := remove(ctx, c.Resource(gvr), obj); err != nil {
				return fmt.Errorf("fleetsim: removing %s %s: %w", gvr.Resource, obj.GetName(), err)
			}
		}
	}
	return nil
}
