package criteria

import (
	"strings"
	"testing"
)

// TestContinuationLimitComesAfterTheGuard: rule 9b ends a loop at its Nth
// continuation whatever progress was recorded, the guard (9) decides first
// when both hold, 0 is no limit, and both come before invalid-state.
func TestContinuationLimitComesAfterTheGuard(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxContinuations = 5
	loop := &Loop{Criteria: CriteriaOf(Criterion{Name: "a"})}
	for _, tc := range []struct {
		name string
		e    Evaluation
		lim  Limits
		want Rule
	}{
		{"progress every stop", Evaluation{Path: "p", Loop: loop, StopHookActive: true, Continuations: 5}, lim, RuleContinuationLimit},
		{"below the limit", Evaluation{Path: "p", Loop: loop, StopHookActive: true, Continuations: 4}, lim, RuleUnmet},
		{"guard first", Evaluation{Path: "p", Loop: loop, StopHookActive: true, Continuations: 5, Unchanged: 3}, lim, RuleGuard},
		{"not a continuation", Evaluation{Path: "p", Loop: loop, Continuations: 9}, lim, RuleUnmet},
		{"no limit", Evaluation{Path: "p", Loop: loop, StopHookActive: true, Continuations: 1000}, Limits{GuardLimit: 3, MaxIterations: 10, StuckLimit: 5}, RuleUnmet},
		{"before invalid-state", Evaluation{Path: "p", Problems: []string{"x"}, StopHookActive: true, Continuations: 5}, lim, RuleContinuationLimit},
		{"unenforced before invalid-state", Evaluation{Path: "p", Problems: []string{"x"}, StopHookActive: true, Unenforced: "no memory"}, lim, RuleUnenforced},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Decide(tc.e, tc.lim)
			if v.Rule != tc.want {
				t.Fatalf("rule %s, want %s: %s", v.Rule, tc.want, v.Reason)
			}
			if v.Rule == RuleContinuationLimit && (!v.OK || !v.Rule.Ends() || !strings.Contains(v.Reason, "kept working 5 times in a row")) {
				t.Errorf("the limit must let the agent stop and tell the person: %+v", v)
			}
		})
	}
}

// TestRemovedCriteriaAreUnmet: a contract criterion the state dropped keeps
// the loop going even when every listed criterion is met, and the reason
// says it was removed and who can accept that.
func TestRemovedCriteriaAreUnmet(t *testing.T) {
	loop := &Loop{Iteration: 1, MaxIterations: 10, ExitSignal: true, Criteria: CriteriaOf(Criterion{Name: "a", Met: true, Verification: "execution output"})}
	v := Decide(Evaluation{Path: "p", Loop: loop, Removed: []string{"docs"}}, DefaultLimits())
	want := "iteration 1 of 10: 1 of 2 criteria unmet: removed from the state, but the loop's contract until a person runs `loophook accept`: \"docs\". Work on them, verify each, and record it in criteriaStatus in p before you stop"
	if v.OK || v.Rule != RuleUnmet || v.Reason != want {
		t.Errorf("got %+v\nwant reason %s", v, want)
	}
	loop.Criteria[0].Met = false
	v = Decide(Evaluation{Path: "p", Loop: loop, Removed: []string{"docs", "lint"}}, DefaultLimits())
	if !strings.HasPrefix(v.Reason, "iteration 1 of 10: 3 of 3 criteria unmet: \"a\"; removed from the state") || !strings.Contains(v.Reason, `"docs", "lint"`) {
		t.Errorf("listed and removed: %s", v.Reason)
	}
}
