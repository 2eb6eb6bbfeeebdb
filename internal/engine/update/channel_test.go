package update

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

func TestChannelTarget(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	rel := func(v string, preview bool, daysAgo int) fleet.KubernetesRelease {
		return fleet.KubernetesRelease{Version: v, Preview: preview, ReleasedAt: now.AddDate(0, 0, -daysAgo)}
	}
	regions := []fleet.Region{
		{Name: "a", KubernetesVersions: []fleet.KubernetesRelease{rel("1.31.9", false, 100), rel("1.31.10", false, 50), rel("1.32.6", false, 40), rel("1.33.2", false, 10), rel("1.34.0", true, 5)}},
		{Name: "b", KubernetesVersions: []fleet.KubernetesRelease{rel("1.33.3", false, -3)}}, // not released yet
	}
	ga := GAVersions(regions, now)
	cases := []struct {
		channel, minor, want string
		ok, wantErr          bool
	}{
		{ChannelRapid, "", "1.33.2", true, false}, // preview 1.34 never counts; 1.33.3 is in the future
		{ChannelStable, "", "1.32.6", true, false},
		{ChannelTargetKubernetesVersion, "1.31", "1.31.10", true, false},
		{ChannelTargetKubernetesVersion, "1.29", "", false, true},
		{ChannelNodeImage, "", "", false, false},
		{"Weekly", "", "", false, true},
	}
	for _, c := range cases {
		v, ok, err := ChannelTarget(c.channel, c.minor, ga)
		if ok != c.ok || (err != nil) != c.wantErr || (ok && v.String() != c.want) {
			t.Errorf("%s %s: got %v %v %v, want %s", c.channel, c.minor, v, ok, err, c.want)
		}
	}
	if _, _, err := ChannelTarget(ChannelStable, "", []Version{{1, 33, 0}}); err == nil {
		t.Error("Stable without an N-1 minor must fail")
	}
}

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]string{"1.31.2": "1.31.2", "v1.30": "1.30.0", "V1.2.3": "1.2.3"} {
		v, err := ParseVersion(in)
		if err != nil || v.String() != want {
			t.Errorf("%s: %v %v", in, v, err)
		}
	}
	for _, bad := range []string{"1", "1.x", "1.2.3.4", "-1.2"} {
		if _, err := ParseVersion(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// FuzzParseVersion checks ParseVersion against the plain reading of
// designs/updates.md §5 (a `v`, then two or three dot-separated runs of
// decimal digits, the first without a leading zero, as apimachinery reads
// them): it never panics, accepts exactly those forms and prints back what
// it read.
func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"1.31.2", "v1.30", "V1.2.3", "1", "1.x", "1.2.3.4", "-1.2", "+1.2", "1..2", ".1.2", "1.2.", "99999999999.1", "v", "", "01.2.3", "1.02.3", " 1.2.3", "1.2.3-rc.1", "2147483647.0", "2147483648.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVersion(s)
		body := strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
		if len(s) > 0 && s[0] == 'v' {
			body = s[1:]
		}
		parts := strings.Split(body, ".")
		valid := len(parts) == 2 || len(parts) == 3
		for i, p := range parts {
			n, perr := strconv.Atoi(p)
			if p == "" || strings.Trim(p, "0123456789") != "" || perr != nil || n > math.MaxInt32 || (i == 0 && len(p) > 1 && p[0] == '0') {
				valid = false
			}
		}
		if valid != (err == nil) {
			t.Fatalf("ParseVersion(%q) = %v, %v; want valid=%v", s, v, err, valid)
		}
		if err == nil {
			want := parts[0] + "." + parts[1] + ".0"
			if len(parts) == 3 {
				want = parts[0] + "." + parts[1] + "." + parts[2]
			}
			if a, _ := strconv.Atoi(parts[0]); a != v.Major {
				t.Fatalf("%q: major %d", s, v.Major)
			}
			if got, _ := ParseVersion(v.String()); got != v {
				t.Fatalf("%q: %v does not round-trip (%s)", s, v, want)
			}
		}
	})
}
