package armfleet

import "testing"

// TestParseChild: a fleet child's ARM id, compared as ARM compares ids
// (keywords and types in any case), with or without the leading slash;
// anything else — another collection or provider, a nested or a missing
// part — is refused with the form expected.
func TestParseChild(t *testing.T) {
	const id = "/subscriptions/sub-1/resourceGroups/rg-1/providers/Microsoft.ContainerService/fleets/fleet-1/updateRuns/run-1"
	for _, c := range []struct {
		id, want string // want "": refused
	}{
		{id, "sub-1/rg-1/fleet-1/run-1"},
		{"/SUBSCRIPTIONS/sub-1/resourcegroups/rg-1/PROVIDERS/microsoft.containerservice/Fleets/fleet-1/updateruns/run-1", "sub-1/rg-1/fleet-1/run-1"},
		{id[1:], "sub-1/rg-1/fleet-1/run-1"},
		{id + "/", "sub-1/rg-1/fleet-1/run-1"},
		{"/subscriptions/sub-1/resourceGroups/rg-1/providers/Microsoft.ContainerService/fleets/fleet-1/updateStrategies/s", ""},
		{"/subscriptions/sub-1/resourceGroups/rg-1/providers/Microsoft.Compute/fleets/fleet-1/updateRuns/run-1", ""},
		{id + "/skip", ""},
		{"/subscriptions/sub-1/resourceGroups/rg-1/providers/Microsoft.ContainerService/fleets/fleet-1/updateRuns", ""},
		{"/subscriptions/sub-1/providers/Microsoft.ContainerService/fleets/fleet-1/updateRuns/run-1", ""},
		{"run-1", ""},
		{"", ""},
	} {
		f, name, err := ParseChild(UpdateRuns, c.id)
		got := ""
		if err == nil {
			got = f.SubscriptionID + "/" + f.ResourceGroup + "/" + f.Fleet + "/" + name
		}
		if got != c.want {
			t.Errorf("ParseChild(%q) = %q (%v), want %q", c.id, got, err, c.want)
		}
	}
}

func FuzzParseChild(f *testing.F) {
	f.Add("/subscriptions/s/resourceGroups/g/providers/Microsoft.ContainerService/fleets/f/members/m")
	f.Add("subscriptions//resourceGroups")
	f.Fuzz(func(t *testing.T, id string) {
		fl, name, err := ParseChild(Members, id)
		if err != nil {
			return
		}
		if fl.SubscriptionID == "" || fl.ResourceGroup == "" || fl.Fleet == "" || name == "" {
			t.Fatalf("%q parsed with an empty part: %+v %q", id, fl, name)
		}
		// What parses prints back to an id that parses to the same.
		again, name2, err := ParseChild(Members, fl.Child(Members, name))
		if err != nil || again != fl || name2 != name {
			t.Fatalf("%q: %+v %q does not round-trip: %+v %q %v", id, fl, name, again, name2, err)
		}
	})
}
