package criteria

import (
	"fmt"
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
)

// Ends reports whether the rule ends a loop that was under way, which a person
// should hear about, as opposed to a stop with no loop to speak of.
func (r Rule) Ends() bool {
	switch r {
	case RuleComplete, RuleIterationLimit, RuleCircuitOpen, RuleGuard, RuleBudget, RuleMustNot:
		return true
	}
	return false
}

// MaxProblems is how many schema problems a reason names.
const MaxProblems = 5

// Marker is what the agent's last message must contain under --require-marker.
const Marker = "<loop-complete>"

// Defaults for the limits.
const (
	DefaultStuckLimit    = 5
	DefaultMaxIterations = 10
	DefaultGuardLimit    = 3
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
	MaxIterations int  // when the state sets no maxIterations
	GuardLimit    int  // guard at this many unchanged stops in a row
	AllowInvalid  bool // --on-invalid allow
	RequireMarker bool
}

// DefaultLimits are the limits with no flags given.
func DefaultLimits() Limits {
	return Limits{StuckLimit: DefaultStuckLimit, MaxIterations: DefaultMaxIterations, GuardLimit: DefaultGuardLimit}
}

// Evaluation is everything one Stop evaluation knows.
type Evaluation struct {
	BadInput string // why the hook input could not be read; "" if it could

	Path     string   // the state file as the reason names it; "" when there is none
	State    *State   // the parsed state; nil when there is no state file or it is invalid
	Problems []string // why the state file is invalid, as "pointer: message" lines
	// StateSession is the state's session_id when the file parses as JSON,
	// even if it fails the schema, so another session's broken loop stays theirs.
	StateSession string

	SessionID      string // the hook input's session
	StopHookActive bool
	// Unchanged counts the consecutive evaluations of this session, this one
	// included, with stop_hook_active true and the state's bytes unchanged.
	Unchanged int
	// LastMessage returns the agent's last message; it is called only when
	// rule no-marker needs it, because reading a transcript costs.
	LastMessage func() (string, error)
}

// Decide applies the rules in order; the first that matches decides.
func Decide(e Evaluation, lim Limits) Verdict {
	if e.BadInput != "" {
		return stop(RuleBadInput, "the hook could not read its input (%s); letting the agent stop", e.BadInput)
	}
	if e.Path == "" {
		return stop(RuleNoState, "no loop: no .loop/state.json here")
	}
	if OtherSession(e.StateSession, e.SessionID) {
		return stop(RuleOtherSession, "the loop in %s belongs to session %s, not this one", e.Path, clip(e.StateSession))
	}
	if e.State == nil {
		// The guard comes first here too, so a state the agent never repairs
		// cannot trap the session.
		if v, ok := guard(e, lim); ok {
			return v
		}
		return invalid(e, lim)
	}
	s := e.State
	for _, rule := range []func(*State, Limits) (Verdict, bool){inactive, mustNot, circuitOpen, iterationLimit, budget} {
		if v, ok := rule(s, lim); ok {
			return v
		}
	}
	if v, ok := guard(e, lim); ok {
		return v
	}
	for _, rule := range []func(*State, string, Limits) (Verdict, bool){unmet, assumption, noExitSignal} {
		if v, ok := rule(s, e.Path, lim); ok {
			return v
		}
	}
	if lim.RequireMarker {
		if v, ok := noMarker(e, lim); ok {
			return v
		}
	}
	return stop(RuleComplete, "loop complete at %s: %s met and exit_signal is true", where(s, lim), count(s.Criteria.Len(), "criterion", "criteria"))
}

// OtherSession reports whether a state bound to stateSession leaves the
// session alone: it is bound, and not to this session.
func OtherSession(stateSession, session string) bool {
	return stateSession != "" && stateSession != session
}

func invalid(e Evaluation, lim Limits) Verdict {
	problems := strings.Join(e.Problems[:min(len(e.Problems), MaxProblems)], "; ")
	if extra := len(e.Problems) - MaxProblems; extra > 0 {
		problems += fmt.Sprintf("; … and %d more", extra)
	}
	if lim.AllowInvalid {
		return stop(RuleInvalidState, "%s is not a valid loop state (%s); --on-invalid allow lets the agent stop", e.Path, problems)
	}
	return goOn(RuleInvalidState, "%s is not a valid loop state: %s. Fix the file so that `loophook validate` passes (`loophook schema` prints the schema), then stop again", e.Path, problems)
}

func inactive(s *State, _ Limits) (Verdict, bool) {
	if s.Active() {
		return Verdict{}, false
	}
	return stop(RuleInactive, "loop is %s; nothing to enforce", clip(s.LoopStatus)), true
}

func mustNot(s *State, _ Limits) (Verdict, bool) {
	var happened []string
	for cond, yes := range s.MustNotStatus {
		if yes {
			happened = append(happened, cond)
		}
	}
	if len(happened) == 0 {
		return Verdict{}, false
	}
	sort.Strings(happened)
	return stop(RuleMustNot, "a must-not condition happened: %s; stopping so a person can look", list(happened, len(happened), budgetFor("a must-not condition happened: ; stopping so a person can look"))), true
}

func circuitOpen(s *State, lim Limits) (Verdict, bool) {
	if s.StuckCount < float64(lim.StuckLimit) {
		return Verdict{}, false
	}
	return stop(RuleCircuitOpen, "circuit breaker open: stuck for %s iterations (limit %d); stopping so a person can look", number(s.StuckCount), lim.StuckLimit), true
}

func iterationLimit(s *State, lim Limits) (Verdict, bool) {
	if s.Iteration < maxIterations(s, lim) {
		return Verdict{}, false
	}
	return stop(RuleIterationLimit, "iteration limit reached: %s of %s; the loop ends here", number(s.Iteration), number(maxIterations(s, lim))), true
}

func budget(s *State, _ Limits) (Verdict, bool) {
	if !s.HasBudget || s.Cost < s.Budget {
		return Verdict{}, false
	}
	return stop(RuleBudget, "budget spent: cost %s of budget %s; the loop ends here", number(s.Cost), number(s.Budget)), true
}

func guard(e Evaluation, lim Limits) (Verdict, bool) {
	if !e.StopHookActive || e.Unchanged < lim.GuardLimit {
		return Verdict{}, false
	}
	return stop(RuleGuard, "runaway guard: %d stops in a row with no change to %s; letting the agent stop. Record progress in the state file to keep a loop going", e.Unchanged, e.Path), true
}

func unmet(s *State, path string, lim Limits) (Verdict, bool) {
	missing, n := s.Unmet(listable)
	if n == 0 {
		return Verdict{}, false
	}
	head := fmt.Sprintf("%s: %d of %d criteria unmet: ", where(s, lim), n, s.Criteria.Len())
	tail := ". Work on them, verify each, and record it in criteriaStatus in " + path + " before you stop"
	if len(s.RemainingSteps) > 0 {
		tail = ". Next step: " + clip(s.RemainingSteps[0]) + tail
	}
	return goOn(RuleUnmet, "%s%s%s", head, list(missing, n, budgetFor(head+tail)), tail), true
}

func assumption(s *State, _ string, lim Limits) (Verdict, bool) {
	var assumed []string
	for c := range s.Criteria.All() {
		if c.Met && c.Verification == "assumption" {
			assumed = append(assumed, c.Name)
		}
	}
	if len(assumed) == 0 {
		return Verdict{}, false
	}
	head := fmt.Sprintf("%s: %s only assumed met: ", where(s, lim), count(len(assumed), "criterion is", "criteria are"))
	tail := ". Verify them by execution output, observation, measurement or code review and record that verification in criteriaStatus"
	return goOn(RuleAssumption, "%s%s%s", head, list(assumed, len(assumed), budgetFor(head+tail)), tail), true
}

func noExitSignal(s *State, path string, lim Limits) (Verdict, bool) {
	if s.ExitSignal {
		return Verdict{}, false
	}
	return goOn(RuleNoExitSignal, "%s: every criterion is met, but exit_signal is not true. Once you have verified everything, set exit_signal to true in %s", where(s, lim), path), true
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
	why := "your last message lacks " + Marker
	if err != nil {
		why = "your last message could not be read (" + clip(err.Error()) + ")"
	}
	return goOn(RuleNoMarker, "%s: all criteria met and exit_signal is true, but %s. End your final message with %s to finish", where(e.State, lim), why, Marker), true
}

// maxIterations is the state's maxIterations, else the person's default.
func maxIterations(s *State, lim Limits) float64 {
	if s.MaxIterations > 0 {
		return s.MaxIterations
	}
	return float64(lim.MaxIterations)
}

// where says where the loop stands, for the agent reading the reason.
func where(s *State, lim Limits) string {
	return fmt.Sprintf("iteration %s of %s", number(s.Iteration), number(maxIterations(s, lim)))
}

func stop(r Rule, format string, args ...any) Verdict {
	return Verdict{OK: true, Rule: r, Reason: capReason(fmt.Sprintf(format, args...))}
}

func goOn(r Rule, format string, args ...any) Verdict {
	return Verdict{OK: false, Rule: r, Reason: capReason(fmt.Sprintf(format, args...))}
}
