// Package criteria is loophook's decision: a loop in, a verdict and the rule
// that decided out. It touches no files, no clock, no stdin and no JSON;
// SPEC.md section 2 is its contract, and its rules are here in that order.
package criteria

// Loop is one loop as the rules see it, whichever loop system's file it was
// read from (schema reads each dialect's file into it).
type Loop struct {
	Dialect  string // the loop system's file it was read from
	Spec     string
	Criteria Criteria
	// MetUnlisted are criteria the file records as met without listing
	// them (an orchestrator's completed system it no longer scopes): a
	// contract criterion among them is not removed.
	MetUnlisted []string
	ExitSignal  bool // the agent's explicit "I am done"
	// HasExitSignal says the file has an exit-signal field at all.
	HasExitSignal bool
	LoopStatus    string // the file's status, as written; "" means in progress
	// CancelRecorded says that a person cancelled the loop with loophook
	// cancel in a file loophook does not write: the hook's own record, not
	// the file, makes it cancelled.
	CancelRecorded bool
	SessionID      string // when set, only that session is governed

	Iteration     float64
	MaxIterations float64 // 0: not set
	Cost          float64
	HasCost       bool // the file records a cost: a default budget applies
	Budget        float64
	HasBudget     bool
	StuckCount    float64

	// DoneClaim says the file claims the loop is finished (hope's status
	// complete, on-loop's COMPLETE...): the exit signal when every
	// criterion is met, never an exit by itself.
	DoneClaim bool
	// Waiting, when set, says what a person must do before the loop can go
	// on (blocked, an approval, a handoff, an unknown phase): rule waiting.
	Waiting string
	// Failed, when set, is the loop's error and how to resume: rule failed.
	Failed string
	// Exhausted, when set, says which of the dialect's retries ran out:
	// rule circuit-open.
	Exhausted string
	// NextStep is what the agent should do next, for a reason; "" falls
	// back to RemainingSteps[0].
	NextStep string
	// Checkpoints says the loop pauses for the person after each unit of
	// work (hope's colleague shape): rule checkpoint.
	Checkpoints bool
	// Uncounted says the loop counts no iterations: the other loop systems
	// than hope count phases, stages or loops instead.
	Uncounted bool
	// RecordIn names where the agent records a criterion it verified; ""
	// is hope's criteriaStatus.
	RecordIn string
	// DoneBy, for a loop system whose done claim is its only exit signal
	// (on-loop, the loop controller, the orchestrator), says how the agent
	// marks the loop done; "" is hope's exit_signal or <loop-complete>.
	DoneBy string
	// Limits are the limits of the loop's own system that apply to it,
	// for a resumed agent, one each; hope's iteration and stuck limits
	// are the rules' own and are not listed here.
	Limits []string
	// Ending are what a loop that ends as it is must name to the person
	// (an orchestrator's rejected gates and failed sub-agents), one each.
	Ending []string
	// Notes are what a resumed agent is told beyond the rules' fields
	// (on-loop's todos, an orchestrator's handoff), one line each.
	Notes []string

	Steps          []string
	CompletedSteps []string
	RemainingSteps []string // RemainingSteps[0] is the next step
	MustNot        []string
	MustNotStatus  map[string]bool // true: the condition happened
}

// Criterion is one success criterion and what the loop records of it.
type Criterion struct {
	Name         string
	Met          bool
	Verification string // how it was checked; "" when not recorded
}

// Assumption is the verification that verifies nothing (rule assumption).
const Assumption = "assumption"

// Criteria are a loop's criteria in order: the listed ones, then recorded
// ones the list does not name, sorted by name.
type Criteria []Criterion

// CriteriaOf makes Criteria of a list.
func CriteriaOf(list ...Criterion) Criteria { return list }

// Len is how many criteria there are.
func (c Criteria) Len() int { return len(c) }

// Inactive reports whether the loop is paused or cancelled (rule inactive).
func (l *Loop) Inactive() bool {
	return l.LoopStatus == "paused" || l.LoopStatus == "cancelled"
}

// Active reports whether the loop is under way, so that a resumed agent is
// told where it stands: not paused or cancelled, not waiting for a person,
// not failed, and not finished by a done claim its criteria back up.
func (l *Loop) Active() bool {
	if l.Inactive() || l.Waiting != "" || l.Failed != "" {
		return false
	}
	_, unmet := l.Unmet(0)
	return !l.DoneClaim || unmet > 0 || l.Criteria.Len() == 0
}

// Next is the step a reason names: NextStep, else RemainingSteps[0]; "" when
// the loop names none.
func (l *Loop) Next() string {
	switch {
	case l.NextStep != "":
		return l.NextStep
	case len(l.RemainingSteps) > 0:
		return l.RemainingSteps[0]
	}
	return ""
}

// Unmet returns the names of the first max criteria that are not met, in
// order, and how many are not met in all.
func (l *Loop) Unmet(max int) (names []string, total int) {
	for _, c := range l.Criteria {
		if !c.Met {
			if total < max {
				names = append(names, c.Name)
			}
			total++
		}
	}
	return names, total
}
