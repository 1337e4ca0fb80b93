package criteria

import (
	"sort"
	"strings"
	"sync"
)

// Rule names the rule of SPEC.md section 2 that decided a verdict.
type Rule string

// The rules, in the order they are tried.
const (
	RuleBadInput       Rule = "bad-input"
	RuleNoState        Rule = "no-state"
	RuleOtherSession   Rule = "other-session"
	RuleInvalidState   Rule = "invalid-state"
	RuleInactive       Rule = "inactive"
	RuleWaiting        Rule = "waiting"
	RuleFailed         Rule = "failed"
	RuleMustNot        Rule = "must-not"
	RuleCircuitOpen    Rule = "circuit-open"
	RuleIterationLimit Rule = "iteration-limit"
	RuleBudget         Rule = "budget"
	RuleUnenforced     Rule = "unenforced"
	RuleGuard          Rule = "guard"
	RuleCheckpoint     Rule = "checkpoint"
	RuleUnmet          Rule = "unmet"
	RuleAssumption     Rule = "assumption"
	RuleNoExitSignal   Rule = "no-exit-signal"
	RuleNoMarker       Rule = "no-marker"
	RuleCheckFailed    Rule = "check-failed"
	RuleComplete       Rule = "complete"
	// RuleStandAside is not a rule of the spec: another registration of
	// the same hook answers (the plugin beside `loophook install`).
	RuleStandAside Rule = "stand-aside"
	// RuleMisconfigured is not a rule of the spec: the hook's flags cannot
	// be read, so it enforces nothing, and the person must hear of it.
	RuleMisconfigured Rule = "misconfigured"
	// RuleVanished is not a numbered rule of the spec (section 5): the
	// state of an unfinished contract that governs the session is gone,
	// so the agent is let go, and the person told.
	RuleVanished Rule = "vanished"
	// RuleInternalError is not a rule of the spec: loophook itself failed,
	// and a broken hook must not trap a session.
	RuleInternalError Rule = "internal-error"
)

// RuleContinuationLimit is rule 9b, tried right after the guard.
const RuleContinuationLimit Rule = "continuation-limit"

// Ends reports whether the rule ends a loop that was under way, which a person
// should hear about, as opposed to a stop with no loop to speak of.
func (r Rule) Ends() bool {
	switch r {
	case RuleComplete, RuleIterationLimit, RuleCircuitOpen, RuleGuard, RuleContinuationLimit, RuleBudget, RuleMustNot:
		return true
	}
	return false
}

// Tells reports whether a person must see the verdict: the loop ended, or it
// pauses for them (waiting, failed, a checkpoint), or the hook enforces
// nothing until they fix its flags. The hosts show such a stop to the person.
func (r Rule) Tells() bool {
	switch r {
	case RuleWaiting, RuleFailed, RuleCheckpoint, RuleMisconfigured, RuleUnenforced, RuleVanished:
		return true
	}
	return r.Ends()
}

// Marker is what the agent's last message must contain under --require-marker,
// and what stands for the exit signal in a state with no exit_signal field.
const Marker = "<loop-complete>"

// A colleague-shaped loop's status block, which makes a stop its checkpoint.
const (
	StatusBlockStart = "---LOOP_STATUS---"
	StatusBlockEnd   = "---END_STATUS---"
)

// Defaults for the limits.
const (
	DefaultStuckLimit    = 5
	DefaultMaxIterations = 10
	DefaultGuardLimit    = 3
	// DefaultBudget caps a loop that records a cost but sets no budget.
	DefaultBudget = 25
	// The ceilings an agent cannot lift its own limits past.
	DefaultIterationCeiling = 50
	DefaultBudgetCeiling    = 100
	// DefaultMaxContinuations is rule 9b's N: far above any host's own cap,
	// so it ends only a loop that no host would.
	DefaultMaxContinuations = 50
)

// Verdict is the answer to one Stop evaluation. OK lets the agent stop.
type Verdict struct {
	OK     bool
	Reason string
	Rule   Rule
	// Unfinished says a loop was let go with work unmet (paused or
	// cancelled): the person must hear of it, as of a rule that Tells.
	Unfinished bool
}

// Tells reports whether the person must see the verdict.
func (v Verdict) Tells() bool { return v.Unfinished || v.Rule.Tells() }

// Limits are the person's settings for the rules.
type Limits struct {
	StuckLimit    int     // circuit-open at stuckCount >= StuckLimit
	MaxIterations int     // when the loop sets no maxIterations
	GuardLimit    int     // guard at this many unchanged stops in a row
	Budget        float64 // when the loop records a cost and sets no budget; 0: none
	// IterationCeiling and BudgetCeiling cap the loop's own maxIterations
	// and budget; 0: no ceiling.
	IterationCeiling int
	BudgetCeiling    float64
	AllowInvalid     bool // --on-invalid allow
	RequireMarker    bool

	// MaxContinuations ends a loop at this many stops in a row with
	// stop_hook_active, whatever progress; 0 is no limit.
	MaxContinuations int
}

// DefaultLimits are the limits with no flags given.
func DefaultLimits() Limits {
	return Limits{
		StuckLimit: DefaultStuckLimit, MaxIterations: DefaultMaxIterations, GuardLimit: DefaultGuardLimit,
		Budget: DefaultBudget, IterationCeiling: DefaultIterationCeiling, BudgetCeiling: DefaultBudgetCeiling,
		MaxContinuations: DefaultMaxContinuations,
	}
}

// Evaluation is everything one Stop evaluation knows.
type Evaluation struct {
	BadInput string // why the hook input could not be read; "" if it could

	Path string // the state file as the reason names it; "" when there is none
	// LookedFor and Searched are, when there is no state file, the file
	// names the search looked for and the directories it looked in.
	LookedFor, Searched []string
	Loop                *Loop    // nil when there is no state file or it is invalid
	Problems            []string // why the state file is invalid, as "pointer: message" lines
	// StateSession is the state's session_id when the file parses as JSON,
	// even if it fails the schema, so another session's broken loop stays theirs.
	StateSession string

	SessionID      string // the hook input's session
	StopHookActive bool
	// Unchanged counts the consecutive evaluations of this session, this one
	// included, with stop_hook_active true and no progress in the state.
	Unchanged int
	// Continuations counts the consecutive evaluations of this session, this
	// one included, with stop_hook_active true, progress or not.
	Continuations int
	// Unenforced says why the hook cannot keep its memory (the path and
	// the error), "" when it can: then nothing counts this session's stops.
	Unenforced string
	// Removed are criteria of the loop's contract that the state no longer
	// lists: unmet until a person accepts the change.
	Removed []string
	// Budgets are the budgets of the approved .loophook.json, as loophook
	// measured them for this loop.
	Budgets []Measured
	// LastMessage returns the agent's last message; it is called only when
	// a rule needs it, and at most once, because reading a transcript costs.
	LastMessage func() (string, error)
	// Checks runs the approved checks of the person's .loophook.json and
	// returns those that failed; nil when there are none. It is called
	// only when every other rule would let the loop end, at most once,
	// because a check costs what its command costs.
	Checks func() []CheckFailure
	// WasGoverned says the loop's unfinished contract governed this
	// session before (its memory says so): a state that now names another
	// session lets it go with a message, not in silence (rule 2).
	WasGoverned bool
	// ByInit says loophook init wrote the loop: a paused or cancelled one
	// is told how to resume it in loophook's words, not a loop system's.
	ByInit bool
	// FailedChecks names the approved checks that failed at the loop's
	// last claim of completion; it is called only when the guard or the
	// continuation limit lets a stop go, to name the work left undone.
	FailedChecks func() []string
}

// CheckFailure is an approved check that failed at this stop.
type CheckFailure struct {
	Name      string
	Run       string // the command
	Criterion string // the criterion it guards, unmet while it fails; "" none
	Cause     string // how it ended: "exited with status 1", "timed out after 5m0s"
	Tail      string // the last lines of its output
}

// Decide applies the rules in order; the first that matches decides.
func Decide(e Evaluation, lim Limits) Verdict {
	e.LastMessage = once(e.LastMessage)
	switch {
	case e.BadInput != "":
		return stop(RuleBadInput, reasonBadInput(e.BadInput))
	case e.Path == "":
		return stop(RuleNoState, reasonNoState(e.LookedFor, e.Searched))
	case OtherSession(e.StateSession, e.SessionID) && e.WasGoverned:
		// The state now names another session, but its unfinished
		// contract governed this one: let go, and never in silence.
		v := stop(RuleOtherSession, reasonOtherSessionGoverned(e.Path, e.StateSession)+workLeft(e))
		v.Unfinished = true
		return v
	case OtherSession(e.StateSession, e.SessionID):
		return stop(RuleOtherSession, reasonOtherSession(e.Path, e.StateSession))
	case e.Loop == nil:
		// The guard comes first here too, so a state the agent never
		// repairs cannot trap the session.
		if v, ok := runaway(e, lim); ok {
			return v
		}
		return invalid(e, lim)
	}
	for _, rule := range rules {
		if v, ok := rule(e, lim); ok {
			return v
		}
	}
	return stop(RuleComplete, reasonComplete(e.Loop, lim, exit(e)))
}

// rules are the rules after invalid-state, in the spec's order; complete is
// what is left when none of them decides.
var rules = []func(Evaluation, Limits) (Verdict, bool){
	inactive, waiting, failed, mustNot, circuitOpen, iterationLimit, budget,
	unenforced, guard, continuationLimit,
	checkpoint,
	unmet, assumption, noExitSignal, noMarker, checkFailed,
}

// OtherSession reports whether a state bound to stateSession leaves the
// session alone: it is bound, and not to this session.
func OtherSession(stateSession, session string) bool {
	return stateSession != "" && stateSession != session
}

// Vanished is the verdict when the state of an unfinished contract that
// governs the session is gone (SPEC section 5): nothing to work from, so
// the agent is let go, and the person told which loop vanished and the
// criteria of its contract.
func Vanished(path string, contract []string) Verdict {
	return stop(RuleVanished, reasonVanished(path, contract))
}

// Ended is the verdict on an ended loop's own file, seen again after its
// end was told: no loop (SPEC section 5), as for no state. how is the rule
// that ended it, or "cancel".
func Ended(path, how string) Verdict {
	return stop(RuleNoState, reasonEnded(path, how))
}

// Misconfigured is the verdict when the hook's flags cannot be read: the
// agent may stop, and the person is told which flag is wrong.
func Misconfigured(err error) Verdict {
	return stop(RuleMisconfigured, reasonMisconfigured(err))
}

func invalid(e Evaluation, lim Limits) Verdict {
	if lim.AllowInvalid {
		return stop(RuleInvalidState, reasonInvalidAllowed(e.Path, e.Problems))
	}
	return goOn(RuleInvalidState, reasonInvalid(e.Path, e.Problems))
}

func inactive(e Evaluation, _ Limits) (Verdict, bool) {
	l := e.Loop
	if !l.Inactive() {
		return Verdict{}, false
	}
	missing, n := l.Unmet(listable)
	if n == 0 && len(e.Removed) == 0 && l.Criteria.Len() > 0 {
		return stop(RuleInactive, reasonInactive(l.LoopStatus)), true
	}
	v := stop(RuleInactive, reasonInactiveUnmet(l, e.Path, missing, n, e.Removed, e.ByInit))
	v.Unfinished = true
	return v, true
}

func waiting(e Evaluation, _ Limits) (Verdict, bool) {
	if e.Loop.Waiting == "" {
		return Verdict{}, false
	}
	return stop(RuleWaiting, reasonWaiting(e.Loop.Waiting)), true
}

func failed(e Evaluation, _ Limits) (Verdict, bool) {
	if e.Loop.Failed == "" {
		return Verdict{}, false
	}
	return stop(RuleFailed, reasonFailed(e.Loop.Failed)), true
}

func mustNot(e Evaluation, _ Limits) (Verdict, bool) {
	var happened []string
	for cond, yes := range e.Loop.MustNotStatus {
		if yes {
			happened = append(happened, cond)
		}
	}
	if len(happened) == 0 {
		return Verdict{}, false
	}
	sort.Strings(happened)
	return stop(RuleMustNot, reasonMustNot(happened)+workLeft(e)), true
}

func circuitOpen(e Evaluation, lim Limits) (Verdict, bool) {
	l := e.Loop
	switch {
	case l.StuckCount >= float64(lim.StuckLimit):
		return stop(RuleCircuitOpen, reasonCircuitOpen(l.StuckCount, lim.StuckLimit)+workLeft(e)), true
	case l.Exhausted != "":
		return stop(RuleCircuitOpen, reasonExhausted(l.Exhausted)+workLeft(e)), true
	}
	return Verdict{}, false
}

func iterationLimit(e Evaluation, lim Limits) (Verdict, bool) {
	l := e.Loop
	if l.Iteration < MaxIterations(l, lim) {
		return Verdict{}, false
	}
	return stop(RuleIterationLimit, reasonIterationLimit(l, lim)+workLeft(e)), true
}

func budget(e Evaluation, lim Limits) (Verdict, bool) {
	l := e.Loop
	b, ok := Budget(l, lim)
	if !ok || l.Cost < b {
		return measuredBudget(e)
	}
	return stop(RuleBudget, reasonBudget(l, lim, b)+workLeft(e)), true
}

// runaway is rules unenforced, 9 and 9b: a stop that cannot be counted,
// the guard, then the continuation limit.
func runaway(e Evaluation, lim Limits) (Verdict, bool) {
	if v, ok := unenforced(e, lim); ok {
		return v, true
	}
	if v, ok := guard(e, lim); ok {
		return v, true
	}
	return continuationLimit(e, lim)
}

// unenforced: the hook never blocks a stop it cannot count. A first stop
// (stop_hook_active false) may still be blocked, so a turn gets at most one
// continuation.
func unenforced(e Evaluation, _ Limits) (Verdict, bool) {
	if !e.StopHookActive || e.Unenforced == "" {
		return Verdict{}, false
	}
	return stop(RuleUnenforced, reasonUnenforced(e.Unenforced)), true
}

func guard(e Evaluation, lim Limits) (Verdict, bool) {
	if !e.StopHookActive || e.Unchanged < lim.GuardLimit {
		return Verdict{}, false
	}
	return stop(RuleGuard, reasonGuard(e.Unchanged, e.Path)+workLeft(e)), true
}

func checkpoint(e Evaluation, lim Limits) (Verdict, bool) {
	if !e.Loop.Checkpoints {
		return Verdict{}, false
	}
	msg, err := e.LastMessage()
	if err != nil || !hasStatusBlock(msg) {
		return Verdict{}, false
	}
	return stop(RuleCheckpoint, reasonCheckpoint(e.Loop, lim)), true
}

// hasStatusBlock reports whether msg holds a status block, start to end.
func hasStatusBlock(msg string) bool {
	_, after, ok := strings.Cut(msg, StatusBlockStart)
	return ok && strings.Contains(after, StatusBlockEnd)
}

func continuationLimit(e Evaluation, lim Limits) (Verdict, bool) {
	if !e.StopHookActive || lim.MaxContinuations == 0 || e.Continuations < lim.MaxContinuations {
		return Verdict{}, false
	}
	return stop(RuleContinuationLimit, reasonContinuationLimit(e.Continuations, lim.MaxContinuations)+workLeft(e)), true
}

// workLeft is what a loop let go by the guard or the continuation limit
// leaves undone: its unmet criteria (the contract's removed ones too) and
// the checks that failed at its last claim; "" when nothing is known to
// be. A runaway must not read as a finish (SPEC rule 9).
func workLeft(e Evaluation) string {
	var missing, removed []string
	n, total, none := 0, 0, false
	if l := e.Loop; l != nil {
		missing, n = l.Unmet(listable)
		total = l.Criteria.Len()
		removed = e.Removed
		none = total == 0 && len(removed) == 0
	}
	var failed []string
	if e.FailedChecks != nil {
		failed = e.FailedChecks()
	}
	return reasonWorkLeft(missing, n, total, removed, none, failed)
}

func unmet(e Evaluation, lim Limits) (Verdict, bool) {
	l := e.Loop
	if l.Criteria.Len() == 0 && len(e.Removed) == 0 {
		return goOn(RuleUnmet, reasonNoCriteria(l, lim, e.Path)), true
	}
	missing, n := l.Unmet(listable)
	if n == 0 && len(e.Removed) == 0 {
		return Verdict{}, false
	}
	return goOn(RuleUnmet, reasonUnmet(l, lim, e.Path, missing, n, e.Removed)), true
}

func assumption(e Evaluation, lim Limits) (Verdict, bool) {
	var assumed []string
	for _, c := range e.Loop.Criteria {
		if c.Met && c.Verification == Assumption {
			assumed = append(assumed, c.Name)
		}
	}
	if len(assumed) == 0 {
		return Verdict{}, false
	}
	return goOn(RuleAssumption, reasonAssumption(e.Loop, lim, assumed)), true
}

// noExitSignal: the exit signal is exit_signal true, or a done claim (every
// criterion is met by now), or, in a state with no exit_signal field, the
// marker in the agent's last message.
func noExitSignal(e Evaluation, lim Limits) (Verdict, bool) {
	if exit(e) != exitNone {
		return Verdict{}, false
	}
	return goOn(RuleNoExitSignal, reasonNoExitSignal(e.Loop, lim, e.Path)), true
}

func noMarker(e Evaluation, lim Limits) (Verdict, bool) {
	if !lim.RequireMarker {
		return Verdict{}, false
	}
	msg, err := e.LastMessage()
	if err == nil && strings.Contains(msg, Marker) {
		return Verdict{}, false
	}
	return goOn(RuleNoMarker, reasonNoMarker(e.Loop, lim, exit(e), err)), true
}

// checkFailed is rule 13b: an approved check fails. It runs the checks,
// so it comes last, where every other rule would let the loop end.
func checkFailed(e Evaluation, lim Limits) (Verdict, bool) {
	if e.Checks == nil {
		return Verdict{}, false
	}
	failed := e.Checks()
	if len(failed) == 0 {
		return Verdict{}, false
	}
	// The output's lines reach the agent as lines.
	return Verdict{OK: false, Rule: RuleCheckFailed, Reason: capLines(reasonCheckFailed(e.Loop, lim, failed))}, true
}

// exitKind is what gave a loop its exit signal.
type exitKind int

const (
	exitNone exitKind = iota
	exitField
	exitDoneClaim
	exitMarker
)

func exit(e Evaluation) exitKind {
	l := e.Loop
	switch {
	case l.ExitSignal:
		return exitField
	case l.DoneClaim:
		return exitDoneClaim
	case !l.HasExitSignal && l.DoneBy == "":
		if msg, err := e.LastMessage(); err == nil && strings.Contains(msg, Marker) {
			return exitMarker
		}
	}
	return exitNone
}

// once makes the agent's last message read at most once an evaluation;
// nil reads as an empty message.
func once(f func() (string, error)) func() (string, error) {
	if f == nil {
		return func() (string, error) { return "", nil }
	}
	return sync.OnceValues(f)
}

// MaxIterations is the loop's iteration limit: its own maxIterations, held
// to the ceiling, else the person's default.
func MaxIterations(l *Loop, lim Limits) float64 {
	switch {
	case l.MaxIterations <= 0:
		return float64(lim.MaxIterations)
	case lim.IterationCeiling > 0 && l.MaxIterations > float64(lim.IterationCeiling):
		return float64(lim.IterationCeiling)
	}
	return l.MaxIterations
}

// Budget is the loop's spending cap: its own budget, held to the ceiling,
// else the person's default when the loop records a cost; ok false: no cap.
func Budget(l *Loop, lim Limits) (b float64, ok bool) {
	switch {
	case l.HasBudget && lim.BudgetCeiling > 0 && l.Budget > lim.BudgetCeiling:
		return lim.BudgetCeiling, true
	case l.HasBudget:
		return l.Budget, true
	case l.HasCost && lim.Budget > 0:
		return lim.Budget, true
	}
	return 0, false
}

func stop(r Rule, reason string) Verdict {
	return Verdict{OK: true, Rule: r, Reason: capReason(reason)}
}

func goOn(r Rule, reason string) Verdict {
	return Verdict{OK: false, Rule: r, Reason: capReason(reason)}
}
