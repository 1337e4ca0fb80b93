package criteria

import (
	"strings"
	"testing"
)

// TestOtherSystemsReasons: a loop system that counts no iterations and
// keeps its own record is told in its own terms, not hope's.
func TestOtherSystemsReasons(t *testing.T) {
	l := &Loop{Dialect: "on-loop", Uncounted: true, RecordIn: "phases_completed", DoneBy: "set phase to COMPLETE", NextStep: "phase GIT",
		Criteria: Criteria{{Name: "INIT", Met: true}, {Name: "GIT"}}}
	v := Decide(Evaluation{Path: "state.json", Loop: l}, DefaultLimits())
	if v.Rule != RuleUnmet || !strings.HasPrefix(v.Reason, "the on-loop loop: 1 of 2 criteria unmet") || !strings.Contains(v.Reason, "record it in phases_completed in state.json") {
		t.Errorf("unmet: %+v", v)
	}
	l.Criteria[1].Met = true
	v = Decide(Evaluation{Path: "state.json", Loop: l}, DefaultLimits())
	if v.Rule != RuleNoExitSignal || strings.Contains(v.Reason, "exit_signal") || strings.Contains(v.Reason, Marker) ||
		!strings.Contains(v.Reason, "Next step: phase GIT") || !strings.HasSuffix(v.Reason, "set phase to COMPLETE") {
		t.Errorf("no exit signal: %+v", v)
	}
	// The marker is hope's: another system's agent cannot end with it.
	v = Decide(Evaluation{Path: "state.json", Loop: l, LastMessage: func() (string, error) { return Marker, nil }}, DefaultLimits())
	if v.Rule != RuleNoExitSignal {
		t.Errorf("the marker ended an on-loop loop: %+v", v)
	}
	l.DoneClaim = true
	v = Decide(Evaluation{Path: "state.json", Loop: l}, DefaultLimits())
	if v.Rule != RuleComplete || strings.Contains(v.Reason, "exit_signal") || !strings.Contains(v.Reason, "marked done") {
		t.Errorf("complete: %+v", v)
	}
	for _, c := range []string{Context("state.json", l, DefaultLimits())} {
		if strings.Contains(c, "iteration") || strings.Contains(c, "stuck") || strings.Contains(c, "exit_signal") {
			t.Errorf("context in hope's terms: %s", c)
		}
	}
}

// TestHopeWithoutExitSignalField: a hope file with no exit_signal speaks
// the loop-mechanics protocol: it is told to end with the marker.
func TestHopeWithoutExitSignalField(t *testing.T) {
	l := &Loop{Criteria: Criteria{{Name: "a", Met: true}}}
	v := Decide(Evaluation{Path: "s.json", Loop: l}, DefaultLimits())
	if v.Rule != RuleNoExitSignal || strings.Contains(v.Reason, "exit_signal") || !strings.HasSuffix(v.Reason, "end your message with "+Marker) {
		t.Errorf("%+v", v)
	}
	if c := Context("s.json", l, DefaultLimits()); !strings.Contains(c, "until every criterion is met and verified and your last message says "+Marker) {
		t.Errorf("context: %s", c)
	}
}

// TestPausedWithWorkUnmetTells: a loop paused or cancelled with criteria
// unmet lets the agent go, and tells the person what is unmet.
func TestPausedWithWorkUnmetTells(t *testing.T) {
	l := &Loop{LoopStatus: "paused", HasExitSignal: true, Criteria: Criteria{{Name: "a", Met: true}, {Name: "b"}}}
	v := Decide(Evaluation{Path: "s.json", Loop: l}, DefaultLimits())
	if !v.OK || v.Rule != RuleInactive || !v.Tells() || !strings.Contains(v.Reason, `1 of 2 criteria unmet: "b"`) {
		t.Errorf("%+v", v)
	}
	l.Criteria[1].Met = true
	if v := Decide(Evaluation{Path: "s.json", Loop: l}, DefaultLimits()); !v.OK || v.Tells() {
		t.Errorf("a paused loop with nothing unmet: %+v", v)
	}
}
