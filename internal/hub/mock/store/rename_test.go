package store

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestRenameKeys(t *testing.T) {
	type inner struct {
		When   time.Time         `json:"when"`
		Labels map[string]string `json:"labels"`
	}
	type outer struct {
		Count  *int             `json:"count"`
		Inners []inner          `json:"inners"`
		ByName map[string]inner `json:"by_name"`
		Skip   string           `json:"-"`
	}
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{name: "Go names become json names", in: `{"Count":2,"Inners":[{"When":"2026-01-01T00:00:00Z","Labels":{"Count":"x"}}]}`,
			want: `{"count":2,"inners":[{"labels":{"Count":"x"},"when":"2026-01-01T00:00:00Z"}]}`},
		{name: "json names stay", in: `{"count":2,"by_name":{"Inners":{"Labels":null}}}`, want: `{"by_name":{"Inners":{"labels":null}},"count":2}`},
		{name: "an unknown key is an error", in: `{"Inners":[{"Colour":"red"}]}`, err: `body.inners[0]: "Colour" is not a field of store.inner`},
		{name: "a field not stored is unknown", in: `{"Skip":"x"}`, err: `body: "Skip" is not a field of store.outer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(tc.in), &v); err != nil {
				t.Fatal(err)
			}
			got, err := renameKeys(reflect.TypeFor[outer](), v, "body")
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("got error %v, want %s", err, tc.err)
				}
				return
			}
			raw, _ := json.Marshal(got)
			if err != nil || string(raw) != tc.want {
				t.Fatalf("got %s (%v), want %s", raw, err, tc.want)
			}
		})
	}
}
