package nodepool

import "testing"

func TestValidateIdentity(t *testing.T) {
	if errs := ValidateIdentity("aks-east-prod-01", "gpu.spot-1"); len(errs) != 0 {
		t.Fatalf("valid identity rejected: %v", errs)
	}
	cases := []struct{ cluster, name, path string }{
		{"aks-east-prod-01", "", "name"},
		{"aks-east-prod-01", "a/b", "name"},
		{"aks-east-prod-01", "Default", "name"},
		{"", "default", "cluster"},
		{"a/b", "default", "cluster"},
	}
	for _, c := range cases {
		errs := ValidateIdentity(c.cluster, c.name)
		if len(errs) != 1 || errs[0].Path.String() != c.path {
			t.Errorf("%q/%q: got %v, want one error at %s", c.cluster, c.name, errs, c.path)
		}
	}
}
