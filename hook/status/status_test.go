package status

import (
	"strings"
	"testing"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/memory"
)

func TestOfAnInvalidStateHasItsProblemsAndNoLoop(t *testing.T) {
	r := hook.Result{Verdict: criteria.Verdict{Rule: criteria.RuleUnmet, Reason: "repair it"}}
	st := reportOf(r, criteria.Limits{GuardLimit: 3}, "state.json", "s1", memory.Memory{Unchanged: 2}, true)
	if st.Valid || st.Loop != nil {
		t.Errorf("a result without a loop read as valid: %+v", st)
	}
	if st.Guard != 2 || st.GuardLimit != 3 || st.Session != "s1" || st.Verdict.Reason != "repair it" {
		t.Errorf("Of = %+v", st)
	}
}

func TestCheckFailedOnlyWhenACheckDecided(t *testing.T) {
	entries := []memory.Entry{{Rule: criteria.RuleUnmet}}
	if CheckFailed(entries) {
		t.Error("CheckFailed with no check-failed entry = true")
	}
	if !CheckFailed(append(entries, memory.Entry{Rule: criteria.RuleCheckFailed})) {
		t.Error("CheckFailed with a check-failed entry = false")
	}
}

func TestLoopMetCounts(t *testing.T) {
	l := &Loop{Criteria: []Criterion{{Met: true}, {Met: false}, {Met: true}}}
	if got := l.Met(); got != 2 {
		t.Errorf("Met = %d, want 2", got)
	}
}

// eval --input of a file that is not there names it, and says what --input
// wants.
func TestReplayOfAMissingFileHints(t *testing.T) {
	_, err := Replay("/nonexistent/input.json", nil, hook.Wire{})
	h, ok := err.(interface{ Hint() string })
	if !ok || err.Error() != "read the hook input /nonexistent/input.json: no such file or directory" || !strings.Contains(h.Hint(), "--input names a file") {
		t.Errorf("Replay = %v", err)
	}
}
