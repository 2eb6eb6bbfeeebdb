package update

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/fleetform/terraform-provider-aks/internal/engine/fleet"
)

// Preview is the rollout a run would perform if it started at the preview's
// instant (designs/updates.md §3): the order of stages, groups and members,
// each member's predicted outcome and estimated times, and the totals. It is
// the run's own simulation with no user action but approving every gate
// when it is reached, so a run started at that instant does exactly this.
type Preview struct {
	At     time.Time      `json:"at"`
	Start  time.Time      `json:"start"`
	Finish time.Time      `json:"finish"` // zero when some member never gets its upgrade
	Stages []StagePreview `json:"stages"`
	Totals PreviewTotals  `json:"totals"`
	// SelectedNodeImages are the images a Consistent selection picks, by family.
	SelectedNodeImages map[string]string `json:"selected_node_images"`
	// Gates lists the approval gates the preview assumed approved when reached.
	Gates []string `json:"gates"`
}

// PreviewTotals counts members by predicted outcome.
type PreviewTotals struct {
	Members int `json:"members"`
	Upgrade int `json:"upgrade"`
	Skipped int `json:"skipped"`
	Pending int `json:"pending"`
	Fail    int `json:"fail"`
}

// StagePreview is one stage of a previewed rollout.
type StagePreview struct {
	Name                    string         `json:"name"`
	Start                   time.Time      `json:"start"`
	Finish                  time.Time      `json:"finish"`
	AfterStageWaitInSeconds int            `json:"after_stage_wait_in_seconds"`
	Concurrency             int            `json:"concurrency"`
	Groups                  []GroupPreview `json:"groups"`
}

// GroupPreview is one group of a previewed stage.
type GroupPreview struct {
	Name        string          `json:"name"`
	Concurrency int             `json:"concurrency"`
	Start       time.Time       `json:"start"`
	Finish      time.Time       `json:"finish"`
	Members     []MemberPreview `json:"members"`
}

// MemberPreview is one member's predicted course, in the order the run reaches members.
type MemberPreview struct {
	Name    string `json:"name"`
	Region  string `json:"region"`
	Outcome string `json:"outcome"` // Upgrade, Skipped or Pending
	Reason  string `json:"reason"`
	Message string `json:"message"`
	From    string `json:"from"`
	To      string `json:"to"`
	// Priority is the maintenance-window priority when the member is reached (1–4).
	Priority int       `json:"priority"`
	Reached  time.Time `json:"reached"`
	// Start and Finish are the estimated upgrade; zero when it never starts.
	Start  time.Time `json:"start"`
	Finish time.Time `json:"finish"`
	// BringBack: for a member an auto-upgrade profile leaves behind, the
	// versions manual runs must take it to, in order, before the profile
	// moves it again.
	BringBack []string `json:"bring_back"`
	// Fails is why the member's upgrade fails once it starts, for a member
	// that waits first (Pending): its wait ends in a failure.
	Fails string `json:"fails,omitempty"`
}

// ReasonNotReached: an earlier level never finishes (a member pending for
// good), so the run never reaches the member.
const ReasonNotReached = "not-reached"

// PreviewRun previews update u in the order of strategy (nil: one by one)
// over members, started at now, with d the nominal upgrade duration of one member.
func PreviewRun(u ManagedClusterUpdate, strategy *Strategy, members []Member, regions []fleet.Region, d time.Duration, now time.Time) Preview {
	return PreviewGeneratedRun(u, strategy, nil, members, regions, d, now)
}

// PreviewGeneratedRun is PreviewRun of a run an auto-upgrade profile
// generated (a nil a: any run): the profile's rules for members apply
// (designs/updates.md §5), as they do when the run executes.
func PreviewGeneratedRun(u ManagedClusterUpdate, strategy *Strategy, a *AutoUpgrade, members []Member, regions []fleet.Region, d time.Duration, now time.Time) Preview {
	return previewExecution(&Execution{Update: u, Strategy: strategy, Regions: regions, UpgradeDuration: d, AutoUpgrade: a}, members, now)
}

// PreviewRestart previews a run started (again) at now, with skip skipped
// at the start and the members its status (nil: a run never started) shows
// completed staying completed, as a re-run does (designs/updates.md §4).
// From a run that never started it is PreviewGeneratedRun of a run whose
// skips were made before it started.
func PreviewRestart(u ManagedClusterUpdate, strategy *Strategy, a *AutoUpgrade, members []Member, regions []fleet.Region, d time.Duration, now time.Time,
	status *RunStatus, skip []SkipTarget) Preview {
	x := &Execution{Update: u, Strategy: strategy, Regions: regions, UpgradeDuration: d, AutoUpgrade: a, Carried: map[string]MemberStatus{}}
	if status != nil {
		for _, m := range status.Members() {
			if m.State == StateCompleted {
				x.Carried[m.Name] = m
			}
		}
	}
	if len(skip) > 0 {
		x.Events = append(x.Events, Event{Action: ActionSkip, At: now, Targets: skip})
	}
	return previewExecution(x, members, now)
}

// ReasonDoneBefore: a member an earlier start of the run already upgraded.
const ReasonDoneBefore = "upgraded-by-this-run"

// previewExecution previews execution x (no start yet) started at now over
// members, each gate approved when reached.
func previewExecution(x *Execution, members []Member, now time.Time) Preview {
	u := x.Update
	x.Update = RunWithDefaults(RunSpec{ManagedClusterUpdate: u}).ManagedClusterUpdate
	x.Events = append(x.Events, Event{Action: ActionStart, At: now, Members: members})
	keys := gateKeys(strategyOf(x))
	for _, k := range keys {
		x.Events = append(x.Events, Event{Action: ActionApprove, At: now, Gate: k})
	}
	seg := x.segments(now)
	p := Preview{At: now, Start: now, SelectedNodeImages: seg.selected, Gates: keys}
	finish := now
	never := false
	for _, st := range seg.stages {
		sp := StagePreview{Name: st.name, Start: st.start, Finish: st.end, AfterStageWaitInSeconds: int(st.wait / time.Second), Concurrency: st.concurrency}
		for _, g := range st.groups {
			gp := GroupPreview{Name: g.name, Concurrency: g.concurrency, Start: g.start, Finish: g.end}
			tracks := append([]*track(nil), g.members...)
			sort.SliceStable(tracks, func(i, j int) bool {
				a, b := tracks[i], tracks[j]
				if a.reached.IsZero() != b.reached.IsZero() {
					return !a.reached.IsZero()
				}
				return a.seq < b.seq
			})
			for _, k := range tracks {
				mp := MemberPreview{Name: k.m.Name, Region: k.m.Region, Outcome: k.outcome, Reason: k.reason, Message: k.msg,
					From: k.fromK8s, To: k.toK8s, Reached: k.reached, Start: k.start, Finish: k.end, BringBack: k.bringBack}
				if k.carried {
					mp = MemberPreview{Name: k.m.Name, Region: k.m.Region, Outcome: OutcomeSkipped, Reason: ReasonDoneBefore,
						Message: "upgraded by an earlier start of this run", From: k.carriedStatus.FromVersion, To: k.carriedStatus.ToVersion,
						Reached: now}
				}
				if u.Upgrade.Type == UpgradeNodeImageOnly && !k.carried {
					mp.From, mp.To = k.fromImg, k.toImg
				}
				// A member that waits (a window, a release) and then fails is a
				// failure with its date, not a wait: the run fails there
				// (designs/previews.md §5; issue 24, finding 4).
				if k.deferred && k.fails != "" && !k.start.IsZero() && mp.Outcome == OutcomePending {
					mp.Fails = k.fails
					mp.Outcome, mp.Reason = OutcomeFail, ReasonInjectedFailure
					if k.failsAtOnce {
						mp.Reason = ReasonSkipsMinor
					}
					mp.Message = k.fails + ", once it starts (" + k.msg + ")"
				}
				if !k.reached.IsZero() {
					mp.Priority = k.priorityAt(k.reached)
				}
				if !k.skippedAt.IsZero() && !k.carried && (k.start.IsZero() || k.start.After(k.skippedAt)) {
					mp = MemberPreview{Name: k.m.Name, Region: k.m.Region, Outcome: OutcomeSkipped, Reason: ReasonSkippedByUser,
						Message: "skipped by the user", From: k.m.KubernetesVersion, Reached: k.skippedAt}
				}
				if k.reached.IsZero() && !k.carried && mp.Reason != ReasonSkippedByUser {
					mp.Outcome, mp.Reason = OutcomePending, ReasonNotReached
					mp.Message = "not reached: an earlier stage or group waits for good on a pending member"
					if !seg.failedAt.IsZero() {
						mp.Message = "not reached: the run fails before it gets here (" + seg.failedMsg + ")"
					}
					mp.From = k.m.KubernetesVersion
				}
				if mp.Outcome != OutcomeSkipped {
					if k.end.IsZero() {
						never = true
					} else if k.end.After(finish) {
						finish = k.end
					}
				}
				switch mp.Outcome {
				case OutcomeUpgrade:
					p.Totals.Upgrade++
				case OutcomeSkipped:
					p.Totals.Skipped++
				case OutcomePending:
					p.Totals.Pending++
				case OutcomeFail:
					p.Totals.Fail++
				}
				p.Totals.Members++
				gp.Members = append(gp.Members, mp)
			}
			sp.Groups = append(sp.Groups, gp)
		}
		if st.end.After(finish) {
			finish = st.end
		}
		p.Stages = append(p.Stages, sp)
	}
	if !never && !seg.endAt.IsZero() {
		p.Finish = finish
		if seg.endAt.After(p.Finish) {
			p.Finish = seg.endAt
		}
	}
	return p
}

// gateKeys lists every gate position of a strategy.
func gateKeys(s Strategy) []string {
	var out []string
	for _, st := range s.Stages {
		if len(st.BeforeGates) > 0 {
			out = append(out, GateKey(st.Name, "", TimingBefore))
		}
		for _, g := range st.Groups {
			if len(g.BeforeGates) > 0 {
				out = append(out, GateKey(st.Name, g.Name, TimingBefore))
			}
			if len(g.AfterGates) > 0 {
				out = append(out, GateKey(st.Name, g.Name, TimingAfter))
			}
		}
		if len(st.AfterGates) > 0 {
			out = append(out, GateKey(st.Name, "", TimingAfter))
		}
	}
	return out
}

// Members lists the preview's members in rollout order.
func (p Preview) Members() []MemberPreview {
	var out []MemberPreview
	for _, s := range p.Stages {
		for _, g := range s.Groups {
			out = append(out, g.Members...)
		}
	}
	return out
}

// Summary is one line: the totals and the estimated duration.
func (p Preview) Summary() string {
	s := fmt.Sprintf("%d members: %d to upgrade, %d skipped, %d pending", p.Totals.Members, p.Totals.Upgrade, p.Totals.Skipped, p.Totals.Pending)
	if p.Totals.Fail > 0 {
		return fmt.Sprintf("%s, %d failing: the run fails at the first of them", s, p.Totals.Fail)
	}
	if p.Finish.IsZero() {
		return s + "; the run does not finish: some member waits for good"
	}
	return s + "; estimated duration " + p.Finish.Sub(p.Start).Round(time.Minute).String()
}

// Line is a member's one-line verdict for a plan: outcome, versions, reason and times.
func (m MemberPreview) Line() string {
	var b strings.Builder
	b.WriteString(m.Outcome)
	switch {
	case m.To == "" && m.From != "": // never reached: what it stays on
		fmt.Fprintf(&b, " %s", m.From)
	case m.From != "" || m.To != "":
		fmt.Fprintf(&b, " %s → %s", m.From, m.To)
	}
	switch m.Outcome {
	case OutcomeSkipped, OutcomePending, OutcomeFail:
		fmt.Fprintf(&b, " (%s)", m.Message)
	}
	if !m.Start.IsZero() {
		fmt.Fprintf(&b, ", %s – %s", m.Start.UTC().Format("2006-01-02 15:04"), m.Finish.UTC().Format("2006-01-02 15:04"))
	}
	return b.String()
}

// Gantt renders the rollout as a Mermaid gantt chart (one bar per member,
// a section per stage), for a pull-request comment of the plan.
func (p Preview) Gantt() string {
	const layout = "2006-01-02 15:04:05"
	var b strings.Builder
	b.WriteString("gantt\n")
	b.WriteString("    title Update rollout (estimated)\n")
	b.WriteString("    dateFormat YYYY-MM-DD HH:mm:ss\n")
	b.WriteString("    axisFormat %m-%d %H:%M\n")
	n := 0
	for _, s := range p.Stages {
		fmt.Fprintf(&b, "    section %s\n", s.Name)
		for _, g := range s.Groups {
			for _, m := range g.Members {
				n++
				label := fmt.Sprintf("%s/%s", g.Name, m.Name)
				switch {
				case m.Outcome == OutcomeSkipped:
					fmt.Fprintf(&b, "    %s skipped :done, milestone, m%d, %s, 0m\n", label, n, m.Reached.UTC().Format(layout))
				case m.Start.IsZero():
					at := m.Reached
					if at.IsZero() {
						at = p.Start
					}
					fmt.Fprintf(&b, "    %s pending :crit, milestone, m%d, %s, 0m\n", label, n, at.UTC().Format(layout))
				default:
					tag := ""
					switch m.Outcome {
					case OutcomePending:
						tag = "crit, "
						label += " after wait"
					case OutcomeFail:
						tag = "crit, "
						label += " fails"
					}
					end := m.Finish
					if !end.After(m.Start) {
						end = m.Start.Add(time.Minute) // a bar needs a length
					}
					fmt.Fprintf(&b, "    %s :%sm%d, %s, %s\n", label, tag, n, m.Start.UTC().Format(layout), end.UTC().Format(layout))
				}
			}
		}
	}
	return b.String()
}
