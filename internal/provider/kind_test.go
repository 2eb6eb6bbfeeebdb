package provider

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/fleetform/terraform-provider-aks/internal/engine/nodepool"
	"github.com/fleetform/terraform-provider-aks/internal/hub"
	"github.com/fleetform/terraform-provider-aks/internal/hub/mock"
)

// A NodePool whose id in the state was edited by hand (no <cluster>/ part):
// refresh says so on the id attribute, naming the resource type, and
// destroy still deletes the pool its cluster and name attributes name, as
// it did before the lifecycle was shared (kind.writeByName).
func TestNodePoolWithABrokenID(t *testing.T) {
	ctx := context.Background()
	h, err := mock.New(mock.Config{StatePath: filepath.Join(t.TempDir(), "state.db"),
		Clock: mock.ClockConfig{Mode: mock.ClockFixed, Time: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}})
	if err != nil {
		t.Fatal(err)
	}
	spec := nodepool.NodePool{Template: nodepool.Template{NodeClassRef: nodepool.NodeClassRef{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}}}
	if _, err := h.ApplyNodePool(ctx, hub.NodePool{Meta: hub.Meta{Name: "general"}, Cluster: "aks-east-prod-01", Spec: spec}, hub.Precondition{}); err != nil {
		t.Fatal(err)
	}
	r := &nodePoolResource{}
	r.hub = h
	var schema resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &schema)
	state := tfsdk.State{Schema: schema.Schema, Raw: tftypes.NewValue(schema.Schema.Type().TerraformType(ctx), nil)}
	var diags diag.Diagnostics
	setState(ctx, &state, nodePoolModel{ID: "nocluster", Cluster: "aks-east-prod-01", Name: "general", NodePool: spec}, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}

	read := resource.ReadResponse{State: state}
	r.Read(ctx, resource.ReadRequest{State: state}, &read)
	if got := diagsText(read.Diagnostics); !strings.Contains(got, "Invalid aks_nap_nodepool id") || !strings.Contains(got, "id nocluster is not <cluster>/<nodepool>.") {
		t.Errorf("refresh: %s", got)
	}

	var del resource.DeleteResponse
	r.Delete(ctx, resource.DeleteRequest{State: state}, &del)
	if del.Diagnostics.HasError() {
		t.Fatalf("destroy: %s", diagsText(del.Diagnostics))
	}
	if _, err := h.GetNodePool(ctx, "aks-east-prod-01", "general"); !errors.Is(err, hub.ErrNotFound) {
		t.Fatalf("the pool is still there after destroy: %v", err)
	}
}

func diagsText(ds diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Summary() + ": " + d.Detail() + "\n")
	}
	return b.String()
}
