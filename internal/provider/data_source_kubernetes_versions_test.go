package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const kvAddr = "data.aks_fleet_kubernetes_versions.test"

// kvFleet: at the test clock (2026-11-21T12:00:00Z) westus has 1.31.2 and
// not yet 1.32.1 (released in December); eastus has only a 1.31 preview.
// 1.28 is a long-term-support minor, outside N−2 fleet-wide (N = 1.31) but
// not in eastus alone (N = 1.30). northeurope has nothing generally available.
const kvFleet = `
regions:
  - name: westus
    kubernetes_versions:
      - { version: 1.28.15, lts: true, released_at: "2026-01-10T00:00:00Z" }
      - { version: 1.29.9,  released_at: "2026-03-01T00:00:00Z" }
      - { version: 1.30.5,  released_at: "2026-07-01T00:00:00Z" }
      - { version: 1.32.1,  released_at: "2026-12-01T00:00:00Z" }
      - { version: 1.31.2,  released_at: "2026-11-01T00:00:00Z" }
    node_images:
      - { family: AKSUbuntu-2204gen2containerd, version: 202611.10.0, released_at: "2026-11-12T00:00:00Z" }
      - { family: AKSUbuntu-2204gen2containerd, version: 202611.24.0, released_at: "2026-11-24T00:00:00Z" }
  - name: eastus
    kubernetes_versions:
      - { version: 1.28.15, lts: true, released_at: "2026-01-10T00:00:00Z" }
      - { version: 1.29.9,  released_at: "2026-03-01T00:00:00Z" }
      - { version: 1.30.4,  released_at: "2026-06-01T00:00:00Z" }
      - { version: 1.30.5,  released_at: "2026-07-01T00:00:00Z" }
      - { version: 1.31.0,  released_at: "2026-10-01T00:00:00Z", preview: true }
    node_images:
      - { family: AzureLinuxV3gen2, version: 202611.03.0, released_at: "2026-11-03T00:00:00Z" }
      - { family: AKSUbuntu-2204gen2containerd, version: 202610.27.0, released_at: "2026-10-29T00:00:00Z" }
      - { family: AKSUbuntu-2204gen2containerd, version: 202611.10.0, released_at: "2026-11-12T00:00:00Z" }
  - name: northeurope
    kubernetes_versions:
      - { version: 1.31.0, released_at: "2026-10-01T00:00:00Z", preview: true }
`

func kvPath(steps ...any) tfjsonpath.Path {
	p := tfjsonpath.New(steps[0].(string))
	for _, s := range steps[1:] {
		switch s := s.(type) {
		case int:
			p = p.AtSliceIndex(s)
		case string:
			p = p.AtMapKey(s)
		}
	}
	return p
}

func kvExpect(value knownvalue.Check, steps ...any) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(kvAddr, kvPath(steps...), value)
}

func strList(vs ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(vs))
	for i, v := range vs {
		checks[i] = knownvalue.StringExact(v)
	}
	return knownvalue.ListExact(checks)
}

// kvChannel checks a channel's resolution: a Kubernetes version ("" for
// null), node images (nil for null) and a note ("" for null).
func kvChannel(kubernetesVersion string, nodeImages map[string]string, note knownvalue.Check, steps ...any) []statecheck.StateCheck {
	str := func(s string) knownvalue.Check {
		if s == "" {
			return knownvalue.Null()
		}
		return knownvalue.StringExact(s)
	}
	var images knownvalue.Check = knownvalue.Null()
	if nodeImages != nil {
		m := map[string]knownvalue.Check{}
		for k, v := range nodeImages {
			m[k] = knownvalue.StringExact(v)
		}
		images = knownvalue.MapExact(m)
	}
	if note == nil {
		note = knownvalue.Null()
	}
	at := func(attr string) []any { return append(append([]any{}, steps...), attr) }
	return []statecheck.StateCheck{
		kvExpect(str(kubernetesVersion), at("kubernetes_version")...),
		kvExpect(images, at("node_images")...),
		kvExpect(note, at("note")...),
	}
}

func TestAccKubernetesVersions_catalog(t *testing.T) {
	cfg := providerConfig(t, writeFleet(t, kvFleet))
	var checks []statecheck.StateCheck
	add := func(cs ...statecheck.StateCheck) { checks = append(checks, cs...) }
	add(
		kvExpect(knownvalue.StringExact(testClock), "evaluated_at"),
		// N is 1.31 (westus's 1.31.2): neither eastus's 1.31.0 preview nor
		// westus's 1.32.1, not released yet, counts.
		kvExpect(knownvalue.StringExact("1.31"), "newest_minor"),
		kvExpect(strList("1.31", "1.30", "1.29"), "supported_minors"),
		kvExpect(knownvalue.MapSizeExact(3), "channels"),
	)
	// Fleet-wide: Rapid the newest GA patch released by now in any region,
	// Stable the newest patch of N−1, NodeImage the newest released image of
	// each family in any region.
	add(kvChannel("1.31.2", nil, nil, "channels", "Rapid")...)
	add(kvChannel("1.30.5", nil, nil, "channels", "Stable")...)
	add(kvChannel("", map[string]string{"AKSUbuntu-2204gen2containerd": "202611.10.0", "AzureLinuxV3gen2": "202611.03.0"}, nil, "channels", "NodeImage")...)

	// Catalogs sorted by region name.
	add(
		kvExpect(knownvalue.ListSizeExact(3), "catalogs"),
		kvExpect(knownvalue.StringExact("eastus"), "catalogs", 0, "name"),
		kvExpect(knownvalue.StringExact("northeurope"), "catalogs", 1, "name"),
		kvExpect(knownvalue.StringExact("westus"), "catalogs", 2, "name"),
	)
	// eastus: newest version first, the preview flagged; its own N is 1.30.
	add(kvExpect(knownvalue.ListExact([]knownvalue.Check{
		knownvalue.ObjectExact(map[string]knownvalue.Check{"version": knownvalue.StringExact("1.31.0"), "preview": knownvalue.Bool(true),
			"lts": knownvalue.Bool(false), "released_at": knownvalue.StringExact("2026-10-01T00:00:00Z"), "released": knownvalue.Bool(true)}),
		knownvalue.ObjectExact(map[string]knownvalue.Check{"version": knownvalue.StringExact("1.30.5"), "preview": knownvalue.Bool(false),
			"lts": knownvalue.Bool(false), "released_at": knownvalue.StringExact("2026-07-01T00:00:00Z"), "released": knownvalue.Bool(true)}),
		knownvalue.ObjectExact(map[string]knownvalue.Check{"version": knownvalue.StringExact("1.30.4"), "preview": knownvalue.Bool(false),
			"lts": knownvalue.Bool(false), "released_at": knownvalue.StringExact("2026-06-01T00:00:00Z"), "released": knownvalue.Bool(true)}),
		knownvalue.ObjectExact(map[string]knownvalue.Check{"version": knownvalue.StringExact("1.29.9"), "preview": knownvalue.Bool(false),
			"lts": knownvalue.Bool(false), "released_at": knownvalue.StringExact("2026-03-01T00:00:00Z"), "released": knownvalue.Bool(true)}),
		knownvalue.ObjectExact(map[string]knownvalue.Check{"version": knownvalue.StringExact("1.28.15"), "preview": knownvalue.Bool(false),
			"lts": knownvalue.Bool(true), "released_at": knownvalue.StringExact("2026-01-10T00:00:00Z"), "released": knownvalue.Bool(true)}),
	}), "catalogs", 0, "kubernetes_versions"))
	// Node images by family, then newest first.
	add(kvExpect(knownvalue.ListExact([]knownvalue.Check{
		knownvalue.ObjectExact(map[string]knownvalue.Check{"family": knownvalue.StringExact("AKSUbuntu-2204gen2containerd"),
			"version": knownvalue.StringExact("202611.10.0"), "released_at": knownvalue.StringExact("2026-11-12T00:00:00Z"), "released": knownvalue.Bool(true)}),
		knownvalue.ObjectExact(map[string]knownvalue.Check{"family": knownvalue.StringExact("AKSUbuntu-2204gen2containerd"),
			"version": knownvalue.StringExact("202610.27.0"), "released_at": knownvalue.StringExact("2026-10-29T00:00:00Z"), "released": knownvalue.Bool(true)}),
		knownvalue.ObjectExact(map[string]knownvalue.Check{"family": knownvalue.StringExact("AzureLinuxV3gen2"),
			"version": knownvalue.StringExact("202611.03.0"), "released_at": knownvalue.StringExact("2026-11-03T00:00:00Z"), "released": knownvalue.Bool(true)}),
	}), "catalogs", 0, "node_images"))
	add(kvChannel("1.30.5", nil, nil, "catalogs", 0, "channels", "Rapid")...)
	add(kvChannel("1.29.9", nil, nil, "catalogs", 0, "channels", "Stable")...)
	add(kvChannel("", map[string]string{"AKSUbuntu-2204gen2containerd": "202611.10.0", "AzureLinuxV3gen2": "202611.03.0"}, nil,
		"catalogs", 0, "channels", "NodeImage")...)

	// northeurope: a preview only, no image: every channel resolves to nothing, and says why.
	add(kvExpect(knownvalue.ListSizeExact(1), "catalogs", 1, "kubernetes_versions"),
		kvExpect(knownvalue.ListSizeExact(0), "catalogs", 1, "node_images"))
	add(kvChannel("", nil, knownvalue.StringExact("no generally available Kubernetes version in the catalog"), "catalogs", 1, "channels", "Rapid")...)
	add(kvChannel("", nil, knownvalue.StringExact("no generally available Kubernetes version in the catalog"), "catalogs", 1, "channels", "Stable")...)
	add(kvChannel("", nil, knownvalue.StringExact("no node image is released in any region of the fleet"), "catalogs", 1, "channels", "NodeImage")...)

	// westus: 1.32.1 is listed, not released, and does not count.
	add(
		kvExpect(knownvalue.StringExact("1.32.1"), "catalogs", 2, "kubernetes_versions", 0, "version"),
		kvExpect(knownvalue.Bool(false), "catalogs", 2, "kubernetes_versions", 0, "released"),
		kvExpect(knownvalue.StringExact("2026-12-01T00:00:00Z"), "catalogs", 2, "kubernetes_versions", 0, "released_at"),
		kvExpect(knownvalue.StringExact("1.31.2"), "catalogs", 2, "kubernetes_versions", 1, "version"),
		kvExpect(knownvalue.Bool(true), "catalogs", 2, "kubernetes_versions", 1, "released"),
		kvExpect(knownvalue.StringExact("202611.24.0"), "catalogs", 2, "node_images", 0, "version"),
		kvExpect(knownvalue.Bool(false), "catalogs", 2, "node_images", 0, "released"),
	)
	add(kvChannel("1.31.2", nil, nil, "catalogs", 2, "channels", "Rapid")...)
	add(kvChannel("1.30.5", nil, nil, "catalogs", 2, "channels", "Stable")...)
	add(kvChannel("", map[string]string{"AKSUbuntu-2204gen2containerd": "202611.10.0"}, nil, "catalogs", 2, "channels", "NodeImage")...)

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config:            cfg + `data "aks_fleet_kubernetes_versions" "test" {}`,
			ConfigStateChecks: checks,
		}},
	})
}

// Selected regions: the fleet-wide resolution is over them only.
func TestAccKubernetesVersions_regions(t *testing.T) {
	cfg := providerConfig(t, writeFleet(t, kvFleet))
	var checks []statecheck.StateCheck
	checks = append(checks,
		kvExpect(strList("northeurope", "eastus"), "regions"), // the input as written
		kvExpect(knownvalue.ListSizeExact(2), "catalogs"),
		kvExpect(knownvalue.StringExact("eastus"), "catalogs", 0, "name"),
		kvExpect(knownvalue.StringExact("northeurope"), "catalogs", 1, "name"),
		kvExpect(knownvalue.StringExact("1.30"), "newest_minor"),
		kvExpect(strList("1.30", "1.29", "1.28"), "supported_minors"),
	)
	checks = append(checks, kvChannel("1.30.5", nil, nil, "channels", "Rapid")...)
	checks = append(checks, kvChannel("1.29.9", nil, nil, "channels", "Stable")...)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: cfg + `data "aks_fleet_kubernetes_versions" "test" {
  regions = ["northeurope", "eastus"]
}`,
			ConfigStateChecks: checks,
		}},
	})
}

// Channel TargetKubernetesVersion: a minor in the window resolves to its
// newest patch; the LTS minor 1.28, outside N−2 fleet-wide, needs
// long_term_support (the note says so) and resolves with it. In eastus alone
// (N = 1.30) 1.28 is N−2 and resolves either way.
func TestAccKubernetesVersions_target(t *testing.T) {
	cfg := providerConfig(t, writeFleet(t, kvFleet))
	ds := func(body string) string {
		return cfg + "data \"aks_fleet_kubernetes_versions\" \"test\" {\n" + body + "\n}"
	}
	ltsNote := knownvalue.StringExact("1.28 is outside the supported minors (1.31, 1.30, 1.29); it is a long-term-support minor: " +
		"set long_term_support = true to follow it")
	var noLTS []statecheck.StateCheck
	noLTS = append(noLTS,
		kvExpect(knownvalue.MapSizeExact(4), "channels"),
		kvExpect(strList("1.31", "1.30", "1.29"), "supported_minors"))
	noLTS = append(noLTS, kvChannel("", nil, ltsNote, "channels", "TargetKubernetesVersion")...)
	noLTS = append(noLTS, kvChannel("1.28.15", nil, nil, "catalogs", 0, "channels", "TargetKubernetesVersion")...)
	noLTS = append(noLTS, kvChannel("", nil, knownvalue.StringExact("no generally available version of 1.28 in the catalog"),
		"catalogs", 1, "channels", "TargetKubernetesVersion")...)
	noLTS = append(noLTS, kvChannel("", nil, ltsNote, "catalogs", 2, "channels", "TargetKubernetesVersion")...)

	var withLTS []statecheck.StateCheck
	withLTS = append(withLTS, kvExpect(strList("1.31", "1.30", "1.29", "1.28"), "supported_minors"))
	withLTS = append(withLTS, kvChannel("1.28.15", nil, nil, "channels", "TargetKubernetesVersion")...)
	withLTS = append(withLTS, kvChannel("1.28.15", nil, nil, "catalogs", 2, "channels", "TargetKubernetesVersion")...)
	withLTS = append(withLTS, kvChannel("1.31.2", nil, nil, "channels", "Rapid")...) // the other channels are unchanged

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: ds(`target_kubernetes_version = "1.30"`),
				ConfigStateChecks: append(kvChannel("1.30.5", nil, nil, "channels", "TargetKubernetesVersion"),
					kvExpect(knownvalue.MapSizeExact(4), "channels")),
			},
			{Config: ds(`target_kubernetes_version = "1.28"`), ConfigStateChecks: noLTS},
			{Config: ds("target_kubernetes_version = \"1.28\"\nlong_term_support = true"), ConfigStateChecks: withLTS},
		},
	})
}

// Invalid inputs fail at plan, on the attribute.
func TestAccKubernetesVersions_invalid(t *testing.T) {
	cfg := providerConfig(t, writeFleet(t, kvFleet))
	ds := func(body string) string {
		return cfg + "data \"aks_fleet_kubernetes_versions\" \"test\" {\n" + body + "\n}"
	}
	step := func(body, want string) resource.TestStep {
		return resource.TestStep{Config: ds(body), PlanOnly: true, ExpectError: expectError(want)}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			step(`regions = ["eastus", "centralus"]`,
				`regions[1]: "centralus" is not a region of the fleet. The fleet's regions are eastus, northeurope, westus`),
			step(`regions = []`, `regions: an empty list selects no region`),
			step(`target_kubernetes_version = "1.30.1"`, `target_kubernetes_version: "1.30.1" is not a major.minor version`),
			step(`target_kubernetes_version = "v1.30"`, `target_kubernetes_version: "v1.30" is not a major.minor version`),
			step(`long_term_support = true`, `long_term_support: long_term_support widens the minors target_kubernetes_version may name, and no target_kubernetes_version is set`),
		},
	})
}
