package criteria

import (
	"strings"
	"testing"
)

// TestRulesInOrder: each rule decides where the spec puts it, ahead of the
// rules after it, and says what it must in its reason.
func TestRulesInOrder(t *testing.T) {
	unmet := CriteriaOf(Criterion{Name: "tests pass"}, Criterion{Name: "docs", Met: true})
	met := CriteriaOf(Criterion{Name: "tests pass", Met: true})
	said := func(msg string) func() (string, error) { return func() (string, error) { return msg, nil } }
	block := said("Step 1 done.\n" + StatusBlockStart + "\nEXIT_SIGNAL: false\n" + StatusBlockEnd + "\nContinue? [Y/n]")
	happened := map[string]bool{"push to main": true}
	for _, tc := range []struct {
		name string
		loop Loop
		e    Evaluation
		lim  *Limits
		want Rule
		says []string
	}{
		{name: "inactive before waiting", loop: Loop{LoopStatus: "paused", Waiting: "an approval"}, want: RuleInactive},
		{name: "waiting before failed", loop: Loop{Waiting: "gate security approved", Failed: "boom"}, want: RuleWaiting, says: []string{"gate security approved"}},
		{name: "failed before must-not", loop: Loop{Failed: "boom; resume with /x", MustNotStatus: happened}, want: RuleFailed, says: []string{"boom; resume with /x"}},
		{name: "must-not", loop: Loop{MustNotStatus: happened, Exhausted: "retries"}, want: RuleMustNot},
		{name: "exhausted retries open the circuit", loop: Loop{Exhausted: "TEST retried 4 times of 3", Iteration: 99}, want: RuleCircuitOpen, says: []string{"TEST retried 4 times of 3"}},
		{name: "iteration limit held to the ceiling", loop: Loop{Iteration: 50, MaxIterations: 80}, want: RuleIterationLimit, says: []string{"50 of 50", "80 is above the ceiling"}},
		{name: "no ceiling", loop: Loop{Iteration: 50, MaxIterations: 80, Criteria: unmet}, lim: &Limits{StuckLimit: 5, MaxIterations: 10, GuardLimit: 3}, want: RuleUnmet, says: []string{"iteration 50 of 80"}},
		{name: "budget held to the ceiling", loop: Loop{Cost: 100, Budget: 500, HasBudget: true, HasCost: true}, want: RuleBudget, says: []string{"cost 100 of budget 100", "500 is above the ceiling"}},
		{name: "default budget", loop: Loop{Cost: 25, HasCost: true}, want: RuleBudget, says: []string{"default budget 25"}},
		{name: "no default budget without a cost", loop: Loop{Criteria: unmet}, want: RuleUnmet},
		{name: "budget before unenforced", loop: Loop{Cost: 10, Budget: 10, HasBudget: true, HasCost: true}, e: Evaluation{StopHookActive: true, Unenforced: "no memory"}, want: RuleBudget},
		{name: "unenforced before the guard", loop: Loop{Criteria: unmet}, e: Evaluation{StopHookActive: true, Unchanged: 3, Unenforced: "write memory: read-only file system"}, want: RuleUnenforced, says: []string{"(write memory: read-only file system)", "cannot count"}},
		{name: "a first stop unenforced may be blocked", loop: Loop{Criteria: unmet}, e: Evaluation{Unenforced: "no memory"}, want: RuleUnmet},
		{name: "guard before checkpoint", loop: Loop{Checkpoints: true, Criteria: unmet}, e: Evaluation{StopHookActive: true, Unchanged: 3, LastMessage: block}, want: RuleGuard},
		{name: "checkpoint before unmet", loop: Loop{Checkpoints: true, Criteria: unmet}, e: Evaluation{StopHookActive: true, Unchanged: 2, LastMessage: block}, want: RuleCheckpoint, says: []string{"1 of 2 criteria met"}},
		{name: "no checkpoint without the block", loop: Loop{Checkpoints: true, Criteria: unmet}, e: Evaluation{LastMessage: said(StatusBlockStart)}, want: RuleUnmet},
		{name: "no checkpoint for a tool", loop: Loop{Criteria: unmet}, e: Evaluation{LastMessage: block}, want: RuleUnmet},
		{name: "next step", loop: Loop{Criteria: unmet, NextStep: "run the TEST agent", RemainingSteps: []string{"later"}}, want: RuleUnmet, says: []string{"Next step: run the TEST agent."}},
		{name: "done claim with unmet criteria", loop: Loop{Criteria: unmet, DoneClaim: true, ExitSignal: true}, want: RuleUnmet, says: []string{"marked done", `"tests pass"`}},
		{name: "no criteria", loop: Loop{ExitSignal: true}, want: RuleUnmet, says: []string{"the loop lists no criteria"}},
		{name: "no criteria with a done claim", loop: Loop{DoneClaim: true}, want: RuleUnmet, says: []string{"marked done", "lists no criteria"}},
		{name: "assumption despite a done claim", loop: Loop{Criteria: CriteriaOf(Criterion{Name: "a", Met: true, Verification: Assumption}), DoneClaim: true}, want: RuleAssumption},
		{name: "done claim is the exit signal", loop: Loop{Criteria: met, DoneClaim: true, HasExitSignal: true}, want: RuleComplete, says: []string{"marked done"}},
		{name: "marker is the exit signal without the field", loop: Loop{Criteria: met}, e: Evaluation{LastMessage: said("done " + Marker)}, want: RuleComplete, says: []string{"says " + Marker}},
		{name: "the field, when there, decides", loop: Loop{Criteria: met, HasExitSignal: true}, e: Evaluation{LastMessage: said("done " + Marker)}, want: RuleNoExitSignal},
		{name: "no marker", loop: Loop{Criteria: met, DoneClaim: true}, lim: &Limits{StuckLimit: 5, MaxIterations: 10, GuardLimit: 3, RequireMarker: true}, want: RuleNoMarker},
		{name: "no marker before check-failed", loop: Loop{Criteria: met, DoneClaim: true}, lim: &Limits{StuckLimit: 5, MaxIterations: 10, GuardLimit: 3, RequireMarker: true}, e: Evaluation{Checks: failing}, want: RuleNoMarker},
		{name: "check-failed", loop: Loop{Criteria: met, DoneClaim: true}, e: Evaluation{Checks: failing}, want: RuleCheckFailed, says: []string{`Check "tests" (go test ./...) exited with status 1; criterion "tests pass" is unmet whatever the state says`, "--- FAIL: TestX"}},
		{name: "checks that pass", loop: Loop{Criteria: met, DoneClaim: true}, e: Evaluation{Checks: func() []CheckFailure { return nil }}, want: RuleComplete},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := DefaultLimits()
			if tc.lim != nil {
				lim = *tc.lim
			}
			e := tc.e
			e.Path, e.Loop = ".loop/state.json", &tc.loop
			v := Decide(e, lim)
			if v.Rule != tc.want {
				t.Fatalf("rule %s, want %s: %s", v.Rule, tc.want, v.Reason)
			}
			for _, s := range tc.says {
				if !strings.Contains(v.Reason, s) {
					t.Errorf("reason lacks %q: %s", s, v.Reason)
				}
			}
		})
	}
}

// failing is a stop's checks where one fails.
func failing() []CheckFailure {
	return []CheckFailure{{Name: "tests", Run: "go test ./...", Criterion: "tests pass", Cause: "exited with status 1", Tail: "--- FAIL: TestX\nFAIL"}}
}

// TestChecksRunOnlyAtAClaim: the checks cost what their commands cost, so
// no rule before check-failed runs them.
func TestChecksRunOnlyAtAClaim(t *testing.T) {
	ran := 0
	checks := func() []CheckFailure { ran++; return failing() }
	unmet := CriteriaOf(Criterion{Name: "a"})
	for _, l := range []Loop{{Criteria: unmet}, {Criteria: CriteriaOf(Criterion{Name: "a", Met: true}), HasExitSignal: true}, {LoopStatus: "paused"}} {
		Decide(Evaluation{Path: "p", Loop: &l, Checks: checks}, DefaultLimits())
	}
	if ran != 0 {
		t.Errorf("the checks ran %d times at stops that claimed nothing", ran)
	}
}

// TestLastMessageIsReadOnce: the checkpoint, the marker as exit signal and
// --require-marker all look at the last message; the transcript is read once.
func TestLastMessageIsReadOnce(t *testing.T) {
	reads := 0
	e := Evaluation{Path: "p", Loop: &Loop{Checkpoints: true, Criteria: CriteriaOf(Criterion{Name: "a", Met: true})},
		LastMessage: func() (string, error) { reads++; return Marker, nil }}
	lim := DefaultLimits()
	lim.RequireMarker = true
	if v := Decide(e, lim); v.Rule != RuleComplete || reads != 1 {
		t.Errorf("rule %s after %d reads, want complete after 1", v.Rule, reads)
	}
}

// TestTells: a person sees every stop that ends a loop or pauses it for
// them, and a misconfigured hook; not a stop with no loop to speak of.
func TestTells(t *testing.T) {
	tells := []Rule{RuleWaiting, RuleFailed, RuleComplete, RuleIterationLimit, RuleCircuitOpen, RuleGuard, RuleBudget, RuleMustNot, RuleCheckpoint, RuleMisconfigured}
	quiet := []Rule{RuleBadInput, RuleNoState, RuleOtherSession, RuleInvalidState, RuleInactive, RuleUnmet, RuleAssumption, RuleNoExitSignal, RuleNoMarker, RuleCheckFailed}
	for _, r := range tells {
		if !r.Tells() {
			t.Errorf("%s does not tell", r)
		}
	}
	for _, r := range quiet {
		if r.Tells() {
			t.Errorf("%s tells", r)
		}
	}
}

func TestActive(t *testing.T) {
	met := CriteriaOf(Criterion{Name: "a", Met: true})
	for _, tc := range []struct {
		loop Loop
		want bool
	}{
		{Loop{}, true},
		{Loop{LoopStatus: "active"}, true},
		{Loop{LoopStatus: "paused"}, false},
		{Loop{LoopStatus: "cancelled"}, false},
		{Loop{Waiting: "x"}, false},
		{Loop{Failed: "x"}, false},
		{Loop{DoneClaim: true, Criteria: met}, false},
		{Loop{DoneClaim: true, Criteria: CriteriaOf(Criterion{Name: "a"})}, true},
		{Loop{DoneClaim: true}, true},
	} {
		if got := tc.loop.Active(); got != tc.want {
			t.Errorf("%+v: active %v, want %v", tc.loop, got, tc.want)
		}
	}
}

// TestCheckOutputKeepsItsLines: a failing check's output reaches the agent
// line by line; its other control characters, and a newline anywhere else
// in the reason, are escaped.
func TestCheckOutputKeepsItsLines(t *testing.T) {
	l := &Loop{ExitSignal: true, Criteria: CriteriaOf(Criterion{Name: "a", Met: true})}
	f := CheckFailure{Name: "tests", Run: "a\nb", Cause: "exited with status 1", Tail: "FAIL\tx\n\x1b[31mred"}
	v := Decide(Evaluation{Path: "p", Loop: l, Checks: func() []CheckFailure { return []CheckFailure{f} }}, DefaultLimits())
	for _, want := range []string{"(a\\nb)", "lines:\nFAIL\tx\n\\x1b[31mred"} {
		if !strings.Contains(v.Reason, want) {
			t.Errorf("reason lacks %q: %q", want, v.Reason)
		}
	}
}

// TestRunawayNamesWorkLeft: the guard and the continuation limit name the
// unmet criteria and the checks that failed at the last claim, and only
// ask for the failed checks when one of them decides.
func TestRunawayNamesWorkLeft(t *testing.T) {
	asked := 0
	failed := func() []string { asked++; return []string{"tests"} }
	l := &Loop{Criteria: CriteriaOf(Criterion{Name: "a"}, Criterion{Name: "b", Met: true})}
	v := Decide(Evaluation{Path: "p", Loop: l, StopHookActive: true, Unchanged: 3, FailedChecks: failed}, DefaultLimits())
	want := `. The loop is not done: 1 of 2 criteria unmet: "a"; 1 check failed at the last claim of completion: "tests"`
	if v.Rule != RuleGuard || !strings.HasSuffix(v.Reason, want) {
		t.Errorf("guard: %+v", v)
	}
	Decide(Evaluation{Path: "p", Loop: l, FailedChecks: failed}, DefaultLimits())
	if asked != 1 {
		t.Errorf("the failed checks were asked for %d times, want 1", asked)
	}
	done := &Loop{Criteria: CriteriaOf(Criterion{Name: "a", Met: true})}
	v = Decide(Evaluation{Path: "p", Loop: done, StopHookActive: true, Continuations: 50}, DefaultLimits())
	if v.Rule != RuleContinuationLimit || strings.Contains(v.Reason, "not done") {
		t.Errorf("nothing unmet, nothing named: %+v", v)
	}
}
