package nodepool

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestImageDate reads the date of a Linux node image as AKS NAP does
// (karpenter-provider-azure, the node class status controller's
// isLinuxImageVersion: YYYYMM.DD.PATCH), from the node label or the gallery
// image id; other forms have none.
func TestImageDate(t *testing.T) {
	for image, want := range map[string]string{
		"AKSUbuntu-2204gen2containerd-202409.02.0": "2024-09-02",
		"AKSAzureLinux-V3gen2-202511.14.3":         "2025-11-14",
		"/CommunityGalleries/AKSUbuntu-38d80f77-467a-481f-a8d4-09b6d4220bd2/images/2204gen2containerd/versions/202410.03.1": "2024-10-03",
		"202410.03.1":                    "2024-10-03",
		"AKSUbuntu-1804-2020.03.05":      "", // an older form
		"AKSWindows-2022-20348.2340.240": "", // Windows: not refreshed by age
		"AKSUbuntu-2204-202413.01.0":     "", // month 13
		"":                               "",
	} {
		d, ok := ImageDate(image)
		if got := map[bool]string{true: d.Format("2006-01-02")}[ok]; got != want {
			t.Errorf("ImageDate(%q) = %q, %v; want %q", image, got, ok, want)
		}
	}
}

// TestImageRefreshes: AKS NAP moves its node class to the newest image once
// an image is older than 90 days less 30 minutes (upgradeAnyExpiredImages,
// isImageExpired: now − date > 90d − 30m), outside any maintenance window;
// the nodes on the old image then drift. Azure/karpenter-provider-azure#1188.
func TestImageRefreshes(t *testing.T) {
	now := at(t, "2024-12-01 12:00:00")
	node := func(name, image string, edit ...func(*Node)) Node {
		n := Node{Name: name, Ready: true, Labels: map[string]string{LabelNodeImageVersion: image}}
		for _, e := range edit {
			e(&n)
		}
		return n
	}
	nodes := []Node{
		node("b", "AKSUbuntu-2204gen2containerd-202409.05.0"), // 2024-09-05 + 90d − 30m = 2024-12-03 23:30
		node("a", "AKSUbuntu-2204gen2containerd-202409.05.0"),
		node("old", "AKSUbuntu-2204gen2containerd-202408.01.1"), // refreshed since 2024-10-29 23:30
		node("new", "AKSUbuntu-2204gen2containerd-202411.20.0"), // not within 7 days
		node("going", "AKSUbuntu-2204gen2containerd-202408.01.1", func(n *Node) { n.MarkedForDeletion = true }),
		node("windows", "AKSWindows-2022-20348.2340.240"),
		{Name: "unlabelled", Ready: true},
	}
	got := ImageRefreshes(nodes, now, 7*24*time.Hour)
	if len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
	if r := got[0]; r.Image != "AKSUbuntu-2204gen2containerd-202408.01.1" || !r.Overdue || !slices.Equal(r.Nodes, []string{"old"}) ||
		!r.At.Equal(at(t, "2024-10-29 23:30:00")) {
		t.Errorf("overdue: %+v", r)
	}
	if r := got[1]; r.Image != "AKSUbuntu-2204gen2containerd-202409.05.0" || r.Overdue || !slices.Equal(r.Nodes, []string{"a", "b"}) ||
		!r.At.Equal(at(t, "2024-12-03 23:30:00")) {
		t.Errorf("due: %+v", r)
	}
	if s := got[1].String(); s != "Tue 2024-12-03 23:30 UTC · node image refresh (AKS): AKSUbuntu-2204gen2containerd-202409.05.0 turns 90 days old; "+
		"2 nodes drift, replaced at the Drifted allowance even outside maintenance windows" {
		t.Errorf("line: %s", s)
	}
	if s := got[0].String(); s != "now · node image refresh (AKS): AKSUbuntu-2204gen2containerd-202408.01.1 is over 90 days old (since Tue 2024-10-29 23:30 UTC); "+
		"1 node drifts, replaced at the Drifted allowance even outside maintenance windows" {
		t.Errorf("overdue line: %s", s)
	}
	// The instant itself is not past: expired only once older than 90d − 30m.
	if got := ImageRefreshes(nodes[:1], at(t, "2024-12-03 23:30:00"), time.Hour); len(got) != 1 || got[0].Overdue {
		t.Errorf("at the instant: %+v", got)
	}
	if got := ImageRefreshes(nodes[:1], at(t, "2024-12-03 22:30:00"), time.Hour); len(got) != 0 {
		t.Errorf("an hour early, an hour ahead: %+v", got)
	}
}

// TestTimelineLines: a refresh sits among the windows at its instant,
// overdue refreshes first.
func TestTimelineLines(t *testing.T) {
	now := at(t, "2024-12-02 00:00:00")
	budgets := []Budget{budget("1"), scheduled("0", "0 9 * * *", "8h")}
	windows := MergeReasons(Timeline(budgets, 10, 0, now, 2*24*time.Hour))
	refreshes := ImageRefreshes([]Node{
		{Name: "x", Labels: map[string]string{LabelNodeImageVersion: "AKSUbuntu-2204gen2containerd-202409.04.0"}}, // 2024-12-02 23:30
		{Name: "y", Labels: map[string]string{LabelNodeImageVersion: "AKSUbuntu-2204gen2containerd-202401.01.0"}}, // overdue
	}, now, 2*24*time.Hour)
	lines := TimelineLines(windows, refreshes)
	want := []string{"now · node image refresh", "Mon 00:00–09:00 UTC · ", "Mon 09:00–17:00 UTC · ", "Mon 17:00–Tue 09:00 UTC · ",
		"Mon 2024-12-02 23:30 UTC · node image refresh", "Tue 09:00–17:00 UTC · ", "Tue 17:00–Wed 00:00 UTC · "}
	if len(lines) != len(want) {
		t.Fatalf("lines:\n%s", strings.Join(lines, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want it to start %q", i, lines[i], w)
		}
	}
}

// BenchmarkImageRefreshes1k: the refreshes of a pool of 1,000 nodes on 10 images.
func BenchmarkImageRefreshes1k(b *testing.B) {
	now := time.Date(2024, 12, 2, 0, 0, 0, 0, time.UTC)
	nodes := make([]Node, 1_000)
	for i := range nodes {
		nodes[i] = Node{Name: fmt.Sprintf("n-%04d", i), Labels: map[string]string{
			LabelNodeImageVersion: fmt.Sprintf("AKSUbuntu-2204gen2containerd-202409.%02d.0", 1+i%10)}}
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(ImageRefreshes(nodes, now, 7*24*time.Hour)) != 10 {
			b.Fatal("want 10 refreshes")
		}
	}
}
