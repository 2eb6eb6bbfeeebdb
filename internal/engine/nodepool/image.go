package nodepool

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// AKS Node Auto Provisioning refreshes a node image that has grown too old,
// whatever the maintenance windows say (designs/nap.md §5).

// LabelNodeImageVersion is the label AKS puts on every node: the node image
// it booted, e.g. "AKSUbuntu-2204gen2containerd-202410.03.1".
const LabelNodeImageVersion = "kubernetes.azure.com/node-image-version"

// ImageMaxAge is the age past which AKS NAP moves a Linux node image to the
// newest version: 90 days, less the 30 minutes' margin AKS keeps
// (karpenter-provider-azure, the node class status controller's
// isImageExpired: expired when now − image date > 90 days − 30 minutes).
const ImageMaxAge = 90*24*time.Hour - 30*time.Minute

// linuxImageVersion is the version AKS gives its Linux node images,
// YYYYMM.DD.PATCH, at the end of the node label (after the last "-") as of
// the gallery image id (after the last "/").
var linuxImageVersion = regexp.MustCompile(`^(\d{4})(\d{2})\.(\d{2})\.\d+$`)

// ImageDate returns the release date of a node image, from its label value
// or version (…-YYYYMM.DD.PATCH, read as midnight UTC), and false for a
// version in another form (Windows images, older labels such as
// "AKSUbuntu-1804-2020.03.05"): AKS NAP refreshes only Linux images by age.
func ImageDate(image string) (time.Time, bool) {
	version := image[strings.LastIndexAny(image, "-/")+1:]
	m := linuxImageVersion.FindStringSubmatch(version)
	if m == nil {
		return time.Time{}, false
	}
	d, err := time.Parse("2006-01-02", m[1]+"-"+m[2]+"-"+m[3])
	return d, err == nil
}

// ImageRefresh is a node image that AKS NAP refreshes because of its age,
// and the pool's nodes that boot it.
type ImageRefresh struct {
	// Image is the nodes' kubernetes.azure.com/node-image-version.
	Image string
	// At is when the image is older than ImageMaxAge: from then on the node
	// class lists the newest image, and every node on this one has drifted.
	At time.Time
	// Overdue is true when At is before now: the refresh is due already.
	Overdue bool
	// Nodes are the names of the nodes on the image, sorted.
	Nodes []string
}

// ImageRefreshes returns, for each node image the nodes run that AKS NAP
// refreshes before now+within, when and which nodes drift by it: sorted by
// time, then image. Nodes marked for deletion are left out (they are going
// already), and so are images whose version carries no date (ImageDate).
//
// AKS refreshes the image its node class lists (the status images of the
// AKSNodeClass): this assumes the class still lists the image its nodes run
// — when an open maintenance window has moved it on earlier, those nodes have
// drifted already. Drifted nodes are replaced at the pace of the Drifted
// budgets: the refresh ignores maintenance windows, never budgets
// (Azure/karpenter-provider-azure#1188).
func ImageRefreshes(nodes []Node, now time.Time, within time.Duration) []ImageRefresh {
	now = now.UTC()
	horizon := now.Add(within)
	byImage := map[string]*ImageRefresh{}
	var out []*ImageRefresh
	for _, n := range nodes {
		image := n.Labels[LabelNodeImageVersion]
		if n.MarkedForDeletion || image == "" {
			continue
		}
		r := byImage[image]
		if r == nil {
			date, ok := ImageDate(image)
			if !ok || !date.Add(ImageMaxAge).Before(horizon) {
				continue
			}
			at := date.Add(ImageMaxAge)
			r = &ImageRefresh{Image: image, At: at, Overdue: at.Before(now)}
			byImage[image] = r
			out = append(out, r)
		}
		r.Nodes = append(r.Nodes, n.Name)
	}
	refreshes := make([]ImageRefresh, len(out))
	for i, r := range out {
		slices.Sort(r.Nodes)
		refreshes[i] = *r
	}
	slices.SortFunc(refreshes, func(a, b ImageRefresh) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return strings.Compare(a.Image, b.Image)
	})
	return refreshes
}

// String renders the refresh as a line of the preview's timeline, e.g.
// "Tue 2026-12-01 23:30 UTC · node image refresh (AKS): AKSUbuntu-2204gen2containerd-202409.02.0
// turns 90 days old; 3 nodes drift, replaced at the Drifted allowance even outside maintenance windows".
func (r ImageRefresh) String() string {
	when, age := r.At.UTC().Format("Mon 2006-01-02 15:04 UTC"), "turns 90 days old"
	if r.Overdue {
		when, age = "now", "is over 90 days old (since "+when+")"
	}
	nodes := "nodes drift"
	if len(r.Nodes) == 1 {
		nodes = "node drifts"
	}
	return fmt.Sprintf("%s · node image refresh (AKS): %s %s; %d %s, replaced at the Drifted allowance even outside maintenance windows",
		when, r.Image, age, len(r.Nodes), nodes)
}

// TimelineLines is the preview's timeline: the windows (MergeReasons) and the
// image refreshes in one chronology, a refresh after the windows that start
// at or before it and overdue refreshes first.
func TimelineLines(windows []Window, refreshes []ImageRefresh) []string {
	out := make([]string, 0, len(windows)+len(refreshes))
	i := 0
	for _, w := range windows {
		for ; i < len(refreshes) && (refreshes[i].Overdue || refreshes[i].At.Before(w.Start)); i++ {
			out = append(out, refreshes[i].String())
		}
		out = append(out, w.String())
	}
	for ; i < len(refreshes); i++ {
		out = append(out, refreshes[i].String())
	}
	return out
}
