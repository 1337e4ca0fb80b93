package criteria

import (
	"sort"
	"strings"
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
	RuleMustNot        Rule = "must-not"
	RuleCircuitOpen    Rule = "circuit-open"
	RuleIterationLimit Rule = "iteration-limit"
	RuleBudget         Rule = "budget"
	RuleGuard          Rule = "guard"
	RuleUnmet          Rule = "unmet"
	RuleAssumption     Rule = "assumption"
	RuleNoExitSignal   Rule = "no-exit-signal"
	RuleNoMarker       Rule = "no-marker"
	RuleComplete       Rule = "complete"
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

// Marker is what the agent's last message must contain under --require-marker.
const Marker = "<loop-complete>"

// Defaults for the limits.
const (
	DefaultStuckLimit    = 5
	DefaultMaxIterations = 10
	DefaultGuardLimit    = 3
	// DefaultMaxContinuations is rule 9b's N: far above any host's own cap,
	// so it ends only a loop that no host would.
	DefaultMaxContinuations = 50
)

// Verdict is the answer to one Stop evaluation. OK lets the agent stop.
type Verdict struct {
	OK     bool
	Reason string
	Rule   Rule
}

// Limits are the person's settings for the rules.
type Limits struct {
	StuckLimit    int  // circuit-open at stuckCount >= StuckLimit
	MaxIterations int  // when the loop sets no maxIterations
	GuardLimit    int  // guard at this many unchanged stops in a row
	AllowInvalid  bool // --on-invalid allow
	RequireMarker bool

	// MaxContinuations ends a loop at this many stops in a row with
	// stop_hook_active, whatever progress; 0 is no limit.
	MaxContinuations int
}

// DefaultLimits are the limits with no flags given.
func DefaultLimits() Limits {
	return Limits{StuckLimit: DefaultStuckLimit, MaxIterations: DefaultMaxIterations, GuardLimit: DefaultGuardLimit, MaxContinuations: DefaultMaxContinuations}
}

// Evaluation is everything one Stop evaluation knows.
type Evaluation struct {
	BadInput string // why the hook input could not be read; "" if it could

	Path     string   // the state file as the reason names it; "" when there is none
	Loop     *Loop    // nil when there is no state file or it is invalid
	Problems []string // why the state file is invalid, as "pointer: message" lines
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
	// Removed are criteria of the loop's contract that the state no longer
	// lists: unmet until a person accepts the change.
	Removed []string
	// LastMessage returns the agent's last message; it is called only when
	// a rule needs it, because reading a transcript costs.
	LastMessage func() (string, error)
}

// Decide applies the rules in order; the first that matches decides.
func Decide(e Evaluation, lim Limits) Verdict {
	switch {
	case e.BadInput != "":
		return stop(RuleBadInput, reasonBadInput(e.BadInput))
	case e.Path == "":
		return stop(RuleNoState, reasonNoState())
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
	for _, rule := range []func(*Loop, Limits) (Verdict, bool){inactive, mustNot, circuitOpen, iterationLimit, budget} {
		if v, ok := rule(e.Loop, lim); ok {
			return v
		}
	}
	if v, ok := runaway(e, lim); ok {
		return v
	}
	if v, ok := unmet(e, lim); ok {
		return v
	}
	for _, rule := range []func(*Loop, string, Limits) (Verdict, bool){assumption, noExitSignal} {
		if v, ok := rule(e.Loop, e.Path, lim); ok {
			return v
		}
	}
	if lim.RequireMarker {
		if v, ok := noMarker(e, lim); ok {
			return v
		}
	}
	return stop(RuleComplete, reasonComplete(e.Loop, lim))
}

// OtherSession reports whether a state bound to stateSession leaves the
// session alone: it is bound, and not to this session.
func OtherSession(stateSession, session string) bool {
	return stateSession != "" && stateSession != session
}

func invalid(e Evaluation, lim Limits) Verdict {
	if lim.AllowInvalid {
		return stop(RuleInvalidState, reasonInvalidAllowed(e.Path, e.Problems))
	}
	return goOn(RuleInvalidState, reasonInvalid(e.Path, e.Problems))
}

func inactive(l *Loop, _ Limits) (Verdict, bool) {
	if l.Active() {
		return Verdict{}, false
	}
	return stop(RuleInactive, reasonInactive(l.LoopStatus)), true
}

func mustNot(l *Loop, _ Limits) (Verdict, bool) {
	var happened []string
	for cond, yes := range l.MustNotStatus {
		if yes {
			happened = append(happened, cond)
		}
	}
	if len(happened) == 0 {
		return Verdict{}, false
	}
	sort.Strings(happened)
	return stop(RuleMustNot, reasonMustNot(happened)), true
}

func circuitOpen(l *Loop, lim Limits) (Verdict, bool) {
	if l.StuckCount < float64(lim.StuckLimit) {
		return Verdict{}, false
	}
	return stop(RuleCircuitOpen, reasonCircuitOpen(l.StuckCount, lim.StuckLimit)), true
}

func iterationLimit(l *Loop, lim Limits) (Verdict, bool) {
	if l.Iteration < maxIterations(l, lim) {
		return Verdict{}, false
	}
	return stop(RuleIterationLimit, reasonIterationLimit(l.Iteration, maxIterations(l, lim))), true
}

func budget(l *Loop, _ Limits) (Verdict, bool) {
	if !l.HasBudget || l.Cost < l.Budget {
		return Verdict{}, false
	}
	return stop(RuleBudget, reasonBudget(l.Cost, l.Budget)), true
}

// runaway is rules 9 and 9b: the guard, then the continuation limit.
func runaway(e Evaluation, lim Limits) (Verdict, bool) {
	if v, ok := guard(e, lim); ok {
		return v, true
	}
	return continuationLimit(e, lim)
}

func guard(e Evaluation, lim Limits) (Verdict, bool) {
	if !e.StopHookActive || e.Unchanged < lim.GuardLimit {
		return Verdict{}, false
	}
	return stop(RuleGuard, reasonGuard(e.Unchanged, e.Path)), true
}

func continuationLimit(e Evaluation, lim Limits) (Verdict, bool) {
	if !e.StopHookActive || lim.MaxContinuations == 0 || e.Continuations < lim.MaxContinuations {
		return Verdict{}, false
	}
	return stop(RuleContinuationLimit, reasonContinuationLimit(e.Continuations, lim.MaxContinuations)), true
}

func unmet(e Evaluation, lim Limits) (Verdict, bool) {
	l := e.Loop
	missing, n := l.Unmet(listable)
	if n == 0 && len(e.Removed) == 0 {
		return Verdict{}, false
	}
	return goOn(RuleUnmet, reasonUnmet(l, lim, e.Path, missing, n, e.Removed)), true
}

func assumption(l *Loop, _ string, lim Limits) (Verdict, bool) {
	var assumed []string
	for _, c := range l.Criteria {
		if c.Met && c.Verification == Assumption {
			assumed = append(assumed, c.Name)
		}
	}
	if len(assumed) == 0 {
		return Verdict{}, false
	}
	return goOn(RuleAssumption, reasonAssumption(l, lim, assumed)), true
}

func noExitSignal(l *Loop, path string, lim Limits) (Verdict, bool) {
	if l.ExitSignal {
		return Verdict{}, false
	}
	return goOn(RuleNoExitSignal, reasonNoExitSignal(l, lim, path)), true
}

func noMarker(e Evaluation, lim Limits) (Verdict, bool) {
	var msg string
	var err error
	if e.LastMessage != nil {
		msg, err = e.LastMessage()
	}
	if err == nil && strings.Contains(msg, Marker) {
		return Verdict{}, false
	}
	return goOn(RuleNoMarker, reasonNoMarker(e.Loop, lim, err)), true
}

// maxIterations is the loop's maxIterations, else the person's default.
func maxIterations(l *Loop, lim Limits) float64 {
	if l.MaxIterations > 0 {
		return l.MaxIterations
	}
	return float64(lim.MaxIterations)
}

func stop(r Rule, reason string) Verdict {
	return Verdict{OK: true, Rule: r, Reason: capReason(reason)}
}

func goOn(r Rule, reason string) Verdict {
	return Verdict{OK: false, Rule: r, Reason: capReason(reason)}
}
