package selector

import (
	"strings"
	"testing"
)

// A quantity whose unit is almost certainly not the one meant: memory
// without a unit is bytes, CPU with a byte suffix is billions of cores.
func TestQuantityUnitSlips(t *testing.T) {
	for _, c := range []struct {
		name, value, want string
	}{
		{"resources.kubernetes-fleet.io/available-memory", "64", `"64" has no unit, so it is 64 bytes of memory: Fleet compares it exactly as written. Write the unit, e.g. "64Gi"`},
		{"resources.kubernetes-fleet.io/total-cpu", "8Gi", `"8Gi" is 8589934592 cores`},
		{"resources.kubernetes-fleet.io/available-memory", "64Gi", ""},
		{"resources.kubernetes-fleet.io/available-memory", "2097152", ""}, // 2 MiB in bytes: deliberate
		{"resources.kubernetes-fleet.io/available-cpu", "8", ""},
		{"resources.kubernetes-fleet.io/available-cpu", "500m", ""},
		{"kubernetes-fleet.io/node-count", "64", ""},
	} {
		msg, ok := quantityUnitSlip(c.name, c.value)
		if ok != (c.want != "") || !strings.Contains(msg, c.want) {
			t.Errorf("%s %s: got %q (%v), want %q", c.name, c.value, msg, ok, c.want)
		}
	}
}
