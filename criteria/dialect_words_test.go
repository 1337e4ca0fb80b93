package criteria

import (
	"strings"
	"testing"
)

// TestOtherSystemsReasons: a loop system that counts no iterations and
// keeps its own record is told in its own terms, not hope's.
func TestOtherSystemsReasons(t *testing.T) {
	l := &Loop{Dialect: "on-loop", Uncounted: true, RecordIn: "phases_completed", HasExitSignal: true, NextStep: "phase GIT",
		Criteria: Criteria{{Name: "INIT", Met: true}, {Name: "GIT"}}}
	v := Decide(Evaluation{Path: "state.json", Loop: l}, DefaultLimits())
	if v.Rule != RuleUnmet || !strings.HasPrefix(v.Reason, "the on-loop loop: 1 of 2 criteria unmet") || !strings.Contains(v.Reason, "record it in phases_completed in state.json") {
		t.Errorf("unmet: %+v", v)
	}
	l.Criteria[1].Met = true
	v = Decide(Evaluation{Path: "state.json", Loop: l}, DefaultLimits())
	if v.Rule != RuleNoExitSignal || strings.Contains(v.Reason, "exit_signal") || !strings.Contains(v.Reason, "Next step: phase GIT") {
		t.Errorf("no exit signal: %+v", v)
	}
}
