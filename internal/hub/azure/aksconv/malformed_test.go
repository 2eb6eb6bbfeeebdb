package aksconv

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// goodCluster is a valid managed cluster and window to break one way at a time.
func goodCluster() (armcontainerservice.ManagedCluster, armcontainerservice.MaintenanceConfiguration) {
	c := &fleet.Cluster{Name: "aks-test", Region: "eastus", ResourceID: testClusterID, KubernetesVersion: "1.31.1",
		NodePools: []fleet.NodePool{{Name: "system", VMSize: "Standard_D4s_v5", NodeCount: 3, NodeImageFamily: "AKSUbuntu-2204gen2containerd", NodeImageVersion: "202610.27.0"}},
		MaintenanceWindow: &fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule{Type: fleet.ScheduleRelativeMonthly, IntervalMonths: 1, WeekIndex: "First", DayOfWeek: "Monday"},
			StartTime: "02:00", DurationHours: 4, NotAllowed: []fleet.DateSpan{{Start: "2026-12-23", End: "2027-01-02"}}}}
	cfg, _ := MaintenanceConfiguration(c)
	return ManagedCluster(c), cfg
}

func TestClusterFactsMalformed(t *testing.T) {
	good, goodCfg := goodCluster()
	if _, err := ClusterFacts(good, &goodCfg); err != nil {
		t.Fatalf("the good cluster fails: %v", err)
	}
	pool := func(mc *armcontainerservice.ManagedCluster) *armcontainerservice.ManagedClusterAgentPoolProfile {
		return mc.Properties.AgentPoolProfiles[0]
	}
	win := func(cfg *armcontainerservice.MaintenanceConfiguration) *armcontainerservice.MaintenanceWindow {
		return cfg.Properties.MaintenanceWindow
	}
	for _, tc := range []struct {
		name    string
		breakMC func(*armcontainerservice.ManagedCluster)
		breakMW func(*armcontainerservice.MaintenanceConfiguration)
		wantErr string
	}{
		{name: "no id", breakMC: func(mc *armcontainerservice.ManagedCluster) { mc.ID = nil },
			wantErr: `managed cluster "aks-test": ARM returned it without an id`},
		{name: "id of another resource type", breakMC: func(mc *armcontainerservice.ManagedCluster) {
			mc.ID = ptr("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/aks-test")
		}, wantErr: "is not a managed cluster id"},
		{name: "id of a child resource", breakMC: func(mc *armcontainerservice.ManagedCluster) {
			mc.ID = ptr(testClusterID + "/agentPools/system")
		}, wantErr: "is not a managed cluster id"},
		{name: "id that is no id", breakMC: func(mc *armcontainerservice.ManagedCluster) { mc.ID = ptr("aks-test") },
			wantErr: "is not a managed cluster id"},
		{name: "no location", breakMC: func(mc *armcontainerservice.ManagedCluster) { mc.Location = nil },
			wantErr: "without a location"},
		{name: "no properties", breakMC: func(mc *armcontainerservice.ManagedCluster) { mc.Properties = nil },
			wantErr: "without properties"},
		{name: "pool without a name", breakMC: func(mc *armcontainerservice.ManagedCluster) { pool(mc).Name = nil },
			wantErr: "agentPoolProfiles[0]: the agent pool has no name"},
		{name: "pool without an image", breakMC: func(mc *armcontainerservice.ManagedCluster) { pool(mc).NodeImageVersion = nil },
			wantErr: `agent pool "system" has no nodeImageVersion`},
		{name: "image without a family", breakMC: func(mc *armcontainerservice.ManagedCluster) { pool(mc).NodeImageVersion = ptr("202610.27.0") },
			wantErr: `"202610.27.0" is not a node image version: AKS writes them <family>-<version>`},
		{name: "image without a version", breakMC: func(mc *armcontainerservice.ManagedCluster) {
			pool(mc).NodeImageVersion = ptr("AKSUbuntu-2204gen2containerd-")
		}, wantErr: "is not a node image version"},
		{name: "image with a version that is not one", breakMC: func(mc *armcontainerservice.ManagedCluster) {
			pool(mc).NodeImageVersion = ptr("AKSUbuntu-2204gen2containerd-latest")
		}, wantErr: "is not a node image version"},
		{name: "configuration without properties", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) { cfg.Properties = nil },
			wantErr: `maintenance configuration "aksManagedAutoUpgradeSchedule" has no maintenanceWindow`},
		{name: "legacy timeInWeek configuration", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			cfg.Properties = &armcontainerservice.MaintenanceConfigurationProperties{TimeInWeek: []*armcontainerservice.TimeInWeek{{Day: ptr(armcontainerservice.WeekDayMonday)}}}
		}, wantErr: "has no maintenanceWindow"},
		{name: "missing schedule", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) { win(cfg).Schedule = nil },
			wantErr: "maintenanceWindow.schedule is missing; AKS requires one of daily, weekly, absoluteMonthly or relativeMonthly"},
		{name: "empty schedule", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule = &armcontainerservice.Schedule{}
		}, wantErr: "maintenanceWindow.schedule names no recurrence"},
		{name: "two recurrences", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule.Daily = &armcontainerservice.DailySchedule{IntervalDays: ptr(int32(1))}
		}, wantErr: "schedule names 2 recurrences (daily, relativeMonthly); AKS allows exactly one"},
		{name: "missing interval", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule.RelativeMonthly.IntervalMonths = nil
		}, wantErr: "schedule.relativeMonthly.intervalMonths is missing"},
		{name: "missing day of week", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule.RelativeMonthly.DayOfWeek = nil
		}, wantErr: "schedule.relativeMonthly.dayOfWeek is missing"},
		{name: "not a day of the week", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule.RelativeMonthly.DayOfWeek = ptr(armcontainerservice.WeekDay("Funday"))
		}, wantErr: `schedule.relativeMonthly.dayOfWeek: "Funday" is not a day of the week`},
		{name: "missing week index", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule.RelativeMonthly.WeekIndex = nil
		}, wantErr: "schedule.relativeMonthly.weekIndex is missing"},
		{name: "not a week index", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule.RelativeMonthly.WeekIndex = ptr(armcontainerservice.Type("Fifth"))
		}, wantErr: `"Fifth" is not a week index`},
		{name: "weekly without a day", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule = &armcontainerservice.Schedule{Weekly: &armcontainerservice.WeeklySchedule{IntervalWeeks: ptr(int32(1))}}
		}, wantErr: "schedule.weekly.dayOfWeek is missing"},
		{name: "daily without an interval", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule = &armcontainerservice.Schedule{Daily: &armcontainerservice.DailySchedule{}}
		}, wantErr: "schedule.daily.intervalDays is missing"},
		{name: "absolute monthly without a day", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) {
			win(cfg).Schedule = &armcontainerservice.Schedule{AbsoluteMonthly: &armcontainerservice.AbsoluteMonthlySchedule{IntervalMonths: ptr(int32(1))}}
		}, wantErr: "schedule.absoluteMonthly.dayOfMonth is missing"},
		{name: "missing start time", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) { win(cfg).StartTime = nil },
			wantErr: "maintenanceWindow.startTime is missing"},
		{name: "missing duration", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) { win(cfg).DurationHours = nil },
			wantErr: "maintenanceWindow.durationHours is missing"},
		{name: "span without an end", breakMW: func(cfg *armcontainerservice.MaintenanceConfiguration) { win(cfg).NotAllowedDates[0].End = nil },
			wantErr: "maintenanceWindow.notAllowedDates[0] lacks its start or end date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mc, cfg := goodCluster()
			if tc.breakMC != nil {
				tc.breakMC(&mc)
			}
			if tc.breakMW != nil {
				tc.breakMW(&cfg)
			}
			f, err := ClusterFacts(mc, &cfg)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %+v, %v; want an error containing %q", f, err, tc.wantErr)
			}
			if !reflect.DeepEqual(f, Facts{}) {
				t.Errorf("facts %+v returned with the error", f)
			}
			if !strings.HasPrefix(err.Error(), `managed cluster "aks-test": `) {
				t.Errorf("error %q does not say which cluster", err)
			}
		})
	}
}

// TestClusterFactsFromJSON reads documents as ARM might send them, odd ones included.
func TestClusterFactsFromJSON(t *testing.T) {
	for _, tc := range []struct {
		name, mc, mw string
		want         Facts
		wantErr      string
	}{{
		name: "kubernetesVersion only, id with lower-case segments, null pool",
		mc: `{"id":"/subscriptions/s1/resourcegroups/rg1/providers/Microsoft.ContainerService/managedClusters/c1","location":"westeurope",
			"properties":{"kubernetesVersion":"1.30.14","agentPoolProfiles":[null,{"name":"p1","nodeImageVersion":"AzureLinuxV3gen2-202611.10.0"}]}}`,
		want: Facts{Region: "westeurope", ResourceGroup: "rg1", SubscriptionID: "s1", KubernetesVersion: "1.30.14",
			NodePools: []fleet.NodePool{{Name: "p1", NodeImageFamily: "AzureLinuxV3gen2", NodeImageVersion: "202611.10.0"}}},
	}, {
		name: "currentKubernetesVersion wins",
		mc:   `{"id":"` + testClusterID + `","location":"eastus","properties":{"kubernetesVersion":"1.31","currentKubernetesVersion":"1.31.2"}}`,
		mw:   `{"properties":{"maintenanceWindow":{"schedule":{"daily":{"intervalDays":2}},"startTime":"01:00","durationHours":5,"utcOffset":"+00:00","startDate":"2026-01-31"}}}`,
		want: Facts{Region: "eastus", ResourceGroup: "rg-test", SubscriptionID: "11111111-2222-3333-4444-555555555555", KubernetesVersion: "1.31.2",
			MaintenanceWindow: &fleet.MaintenanceWindow{Schedule: fleet.MaintenanceSchedule{Type: fleet.ScheduleDaily, IntervalDays: 2},
				StartTime: "01:00", DurationHours: 5, UTCOffset: "+00:00", StartDate: "2026-01-31"}},
	}, {
		name:    "bad node image",
		mc:      `{"id":"` + testClusterID + `","name":"aks-test","location":"eastus","properties":{"kubernetesVersion":"1.31.2","agentPoolProfiles":[{"name":"p1","nodeImageVersion":"ubuntu"}]}}`,
		wantErr: `managed cluster "aks-test": agentPoolProfiles[0]: agent pool "p1": "ubuntu" is not a node image version`,
	}, {
		name:    "empty schedule",
		mc:      `{"id":"` + testClusterID + `","name":"aks-test","location":"eastus","properties":{"kubernetesVersion":"1.31.2"}}`,
		mw:      `{"name":"aksManagedAutoUpgradeSchedule","properties":{"maintenanceWindow":{"schedule":{},"startTime":"01:00","durationHours":5}}}`,
		wantErr: `managed cluster "aks-test": maintenance configuration "aksManagedAutoUpgradeSchedule": maintenanceWindow.schedule names no recurrence`,
	}, {
		name:    "no id, no name",
		mc:      `{}`,
		wantErr: `a managed cluster without name or id: ARM returned it without an id`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var mc armcontainerservice.ManagedCluster
			if err := json.Unmarshal([]byte(tc.mc), &mc); err != nil {
				t.Fatal(err)
			}
			var mw *armcontainerservice.MaintenanceConfiguration
			if tc.mw != "" {
				mw = &armcontainerservice.MaintenanceConfiguration{}
				if err := json.Unmarshal([]byte(tc.mw), mw); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ClusterFacts(mc, mw)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr && !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("got %+v, %v; want an error starting %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestLatestNodeImageMalformed(t *testing.T) {
	for _, p := range []armcontainerservice.AgentPoolUpgradeProfile{
		{},
		{Properties: &armcontainerservice.AgentPoolUpgradeProfileProperties{}},
		{Properties: &armcontainerservice.AgentPoolUpgradeProfileProperties{LatestNodeImageVersion: ptr("")}},
		{Properties: &armcontainerservice.AgentPoolUpgradeProfileProperties{LatestNodeImageVersion: ptr("ubuntu")}},
		{Properties: &armcontainerservice.AgentPoolUpgradeProfileProperties{LatestNodeImageVersion: ptr("-202611.10.0")}},
		{Properties: &armcontainerservice.AgentPoolUpgradeProfileProperties{LatestNodeImageVersion: ptr("AKSUbuntu-2204gen2containerd-")}},
		{Properties: &armcontainerservice.AgentPoolUpgradeProfileProperties{LatestNodeImageVersion: ptr("AKSUbuntu-2204gen2containerd-2026.x")}},
	} {
		if im, ok := LatestNodeImage(p); ok {
			t.Errorf("%+v: %+v", p.Properties, im)
		}
	}
	if _, _, err := ParseNodeImageVersion("ubuntu"); err == nil || err.Error() != `"ubuntu" is not a node image version: AKS writes them <family>-<version>, e.g. AKSUbuntu-2204gen2containerd-202611.03.0` {
		t.Errorf("error %v", err)
	}
	// Windows families have several dashes: the split is at the last.
	if fam, ver, err := ParseNodeImageVersion("AKSWindows-2022-containerd-20348.2582.240716"); err != nil || fam != "AKSWindows-2022-containerd" || ver != "20348.2582.240716" {
		t.Errorf("got %q %q %v", fam, ver, err)
	}
}

func TestReleasesMalformed(t *testing.T) {
	var l armcontainerservice.KubernetesVersionListResult
	if err := json.Unmarshal([]byte(`{"values":[null,{},
		{"version":"1.31","capabilities":{"supportPlan":[null,"AKSLongTermSupport"]},"patchVersions":{"1.31.2":null,"latest":{},"1.31.1":{"upgrades":[null]}}},
		{"version":"1.32","isPreview":true,"patchVersions":{"1.32.0":{}}},
		{"version":"1.32-again","patchVersions":{"1.32.0":{}}}]}`), &l); err != nil {
		t.Fatal(err)
	}
	want := []fleet.KubernetesRelease{{Version: "1.31.1", LTS: true}, {Version: "1.31.2", LTS: true}, {Version: "1.32.0", Preview: true}}
	if got := Releases(l); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if got := Releases(armcontainerservice.KubernetesVersionListResult{}); got != nil {
		t.Errorf("empty list: %+v", got)
	}
}
