package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	bolt "go.etcd.io/bbolt"

	"github.com/fleetform/terraform-provider-aks/internal/hub/mock/store"
)

// TestStoreHoldsNoTerraformAttributeName: the mock hub's database, as the
// current format writes it (its golden file, written through the hub from
// every kind of object), holds no key that is one of Terraform's attribute
// names — the multi-word ones, snake_case, which no upstream wire form
// uses. Renaming an attribute of any resource or data source therefore
// changes nothing stored and needs no migration (designs/hub.md §6).
func TestStoreHoldsNoTerraformAttributeName(t *testing.T) {
	server := providerserver.NewProtocol6(New("test")())()
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	var walkAttrs func(where string, attrs []*tfprotov6.SchemaAttribute)
	walkAttrs = func(where string, attrs []*tfprotov6.SchemaAttribute) {
		for _, a := range attrs {
			if strings.Contains(a.Name, "_") {
				names[a.Name] = where + "." + a.Name
			}
			if a.NestedType != nil {
				walkAttrs(where+"."+a.Name, a.NestedType.Attributes)
			}
		}
	}
	var walkBlock func(where string, b *tfprotov6.SchemaBlock)
	walkBlock = func(where string, b *tfprotov6.SchemaBlock) {
		walkAttrs(where, b.Attributes)
		for _, nb := range b.BlockTypes {
			if strings.Contains(nb.TypeName, "_") {
				names[nb.TypeName] = where + "." + nb.TypeName
			}
			walkBlock(where+"."+nb.TypeName, nb.Block)
		}
	}
	for name, s := range resp.ResourceSchemas {
		walkBlock(name, s.Block)
	}
	for name, s := range resp.DataSourceSchemas {
		walkBlock(name, s.Block)
	}
	if len(names) < 50 {
		t.Fatalf("only %d multi-word attribute names found", len(names))
	}

	golden := fmt.Sprintf("../hub/mock/testdata/state-v%d.db", store.FormatVersion)
	db, err := bolt.Open(golden, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bodies := 0
	err = db.View(func(tx *bolt.Tx) error {
		for bucket := range store.RecordTypes() {
			b := tx.Bucket([]byte(bucket))
			if b == nil {
				continue // upgrades: kept only when a run that completed some is deleted
			}
			err := b.ForEach(func(k, v []byte) error {
				var rec store.Record
				if err := json.Unmarshal(v, &rec); err != nil {
					return err
				}
				var body any
				if err := json.Unmarshal(rec.Body, &body); err != nil {
					return err
				}
				bodies++
				for _, key := range keysOf(body, nil) {
					if attr, ok := names[key]; ok {
						t.Errorf("%s/%s stores the key %q, Terraform's attribute %s", bucket, k, key, attr)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if bodies < 7 {
		t.Fatalf("only %d objects in the golden file", bodies)
	}
}

// keysOf lists every object key in a decoded JSON value.
func keysOf(v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			out = keysOf(e, append(out, k))
		}
	case []any:
		for _, e := range v {
			out = keysOf(e, out)
		}
	}
	return out
}
