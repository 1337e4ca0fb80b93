//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checksConfig is a person's .loophook.json whose one check fails until
// the work tree holds fixed.txt, and says so in its output.
const checksConfig = `{
  // the loop may end only when the tree is fixed
  "checks": [{"name": "tests", "run": "test -f fixed.txt || { echo 'FAIL: fixed.txt is missing'; exit 1; }"}],
}`

// weakConfig is what an agent writes over checksConfig to pass.
const weakConfig = `{"checks": [{"name": "tests", "run": "true"}]}`

// inTree writes a file at the top of the project whose state is path:
// the agent's change to the work tree.
func inTree(name, text string) edit {
	return func(path string) error {
		return os.WriteFile(filepath.Join(filepath.Dir(filepath.Dir(path)), name), []byte(text), 0o644)
	}
}

// checksFixTurns: the agent claims done at once, every criterion met;
// held by the failing check, it fixes the tree and claims again. With
// weaken, its first turn also rewrites .loophook.json to pass.
func checksFixTurns(criterion string, weaken bool) []turn {
	claim := edits(meet(criterion), set("exit_signal", true))
	if weaken {
		claim = edits(claim, inTree(".loophook.json", weakConfig))
	}
	return []turn{
		{edit: claim, text: "Everything is done; exit_signal set."},
		{edit: edits(inTree("fixed.txt", "fixed\n"), bump("iteration")), text: "Fixed the tree; the check passes now."},
	}
}

// checkReasons are what the held claim's reason must carry: the check,
// its command's output, for the model to read.
var checkReasons = [][]string{{`Check "tests"`, "exited with status 1", "FAIL: fixed.txt is missing"}}

// TestChecks runs loops held by a check loophook runs itself, in real
// Claude Code: a premature claim is refused with the check's output, and
// completes once the agent fixes the tree; an agent that weakens the
// approved .loophook.json is still held by the approved version.
func TestChecks(t *testing.T) {
	for _, weaken := range []bool{false, true} {
		name := "premature claim held until the tree is fixed"
		if weaken {
			name = "weakened .loophook.json still held"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sc := scenario{
				name:           name,
				state:          loop("the tree is fixed"),
				turns:          checksFixTurns("the tree is fixed", weaken),
				wantTurns:      2,
				wantReasons:    checkReasons,
				wantContext:    []string{"loophook runs the checks a person approved", `"tests"`},
				wantEndMessage: true,
			}
			claude, loophook := setup(t)
			p := newProject(t, sc.state)
			approveConfig(t, p, checksConfig)
			installHooks(t, p.dir, loophook)
			api := newStubAPI(t, prompt, p.statePath(), sc.turns)
			run := logged(t, api, func() *claudeRun { return runClaude(t, claude, p, api.URL(), prompt, sessionID) })
			checkSession(t, sc, api, run, stopCommand(t, p.dir))
			stops := run.hookRuns("Stop")
			if len(stops) != 2 {
				t.Fatalf("%d Stop hook runs, want 2", len(stops))
			}
			// Held by the approved command, not the agent's "true". (Claude
			// Code records a block's reason, not its systemMessage; the
			// person's message is shown by testscripts/checks/weakened-file.)
			if first := stops[0]; !first.blocked || !strings.Contains(first.reason, "test -f fixed.txt") {
				t.Errorf("the claim was not held by the approved check: %+v", first)
			}
			if last := stops[1].stdout; !strings.Contains(last, "loop complete") {
				t.Errorf("the last Stop answer %s does not end the loop", last)
			}
		})
	}
}

// checksLoops are the same loops in another host, from the journal.
func checksLoops() []hostLoop {
	var out []hostLoop
	for _, weaken := range []bool{false, true} {
		name := "check holds a premature claim"
		if weaken {
			name = "check holds a weakened .loophook.json"
		}
		out = append(out, hostLoop{
			name:        name,
			state:       loop("the tree is fixed"),
			turns:       checksFixTurns("the tree is fixed", weaken),
			config:      checksConfig,
			wantRules:   []string{"check-failed", "complete"},
			wantReasons: [][]string{append(slices.Clone(checkReasons[0]), "test -f fixed.txt")},
		})
	}
	return out
}
