//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 22 in the real Claude Code: no escape through the contract, and
// the reasons in each loop system's terms.

func TestContract(t *testing.T) {
	// An orchestrator discovers two systems, then drops the one it did
	// not finish and claims COMPLETE: the discovered system is the
	// contract's, so the claim is held until the guard ends the session.
	t.Run("orchestrator drops a discovered system", func(t *testing.T) {
		t.Parallel()
		discovering := orchestrator()
		discovering["currentPhase"] = "DISCOVER"
		discovering["scopeDiscovery"] = map[string]any{"completedAt": nil, "gaps": []any{map[string]any{"description": spec}}, "systems": []any{}}
		discovering["subAgents"], discovering["completedSystems"] = []any{}, []any{}
		runDialect(t, dialectScenario{
			scenario: scenario{
				name:  "orchestrator drops a discovered system",
				state: discovering,
				turns: []turn{
					{edit: orch(func(s state) {
						scope := s["scopeDiscovery"].(map[string]any)
						scope["completedAt"] = "2026-01-21T10:15:00Z"
						scope["systems"] = []any{map[string]any{"name": "deployment"}, map[string]any{"name": "testing"}}
						s["completedSystems"], s["currentPhase"] = []any{"deployment"}, "EXECUTE"
					}), text: "Discovered deployment and testing; deployment is done."},
					{edit: orch(func(s state) {
						s["scopeDiscovery"].(map[string]any)["systems"] = []any{map[string]any{"name": "deployment"}}
						s["currentPhase"] = "COMPLETE"
					}), text: "Testing was out of scope after all; all work done."},
				},
				wantTurns:      5,
				wantReasons:    append([][]string{{"system testing"}}, repeat(3, []string{"removed", "loophook accept", "system testing"})...),
				wantContext:    []string{"DISCOVER"},
				wantEndMessage: true,
			},
			file:    orchestratorFile,
			wantEnd: []string{"runaway guard"},
		})
	})

	// on-loop sent back from TEST to CODE: the reason names CODE, as the
	// retry it is, with every later phase to do again.
	t.Run("on-loop retry names CODE", func(t *testing.T) {
		t.Parallel()
		all := []any{"INIT", "SPEC", "PLAN", "CODE", "TEST", "SECURITY", "DOC", "BUILD", "REVIEW", "GIT"}
		runDialect(t, dialectScenario{
			scenario: scenario{
				name:  "on-loop retry names CODE",
				state: onLoopPipeline("TEST"),
				turns: []turn{
					{edit: onLoop(update(func(s state) {
						s["phases_completed"] = append(s["phases_completed"].([]any), "TEST")
						s["phase"], s["retries"] = "CODE", map[string]any{"test_to_code": 1}
					})), text: "The tests fail; back to CODE (retry: test failures)."},
					{edit: onLoop(update(func(s state) { s["phases_completed"], s["phase"] = all, "COMPLETE" })),
						text: "Fixed, tested, reviewed and committed."},
				},
				wantTurns:      2,
				wantReasons:    [][]string{{"phase CODE with the coding agent (retry after test failures), then TEST"}},
				wantContext:    []string{spec, "TEST"},
				wantEndMessage: true,
			},
			file:    onLoopFile,
			wantEnd: []string{"complete", "marked done"},
		})
	})

	// A person's second hope loop after a completed one reuses "tests
	// pass": a new loop, held to its own criteria, not the first's.
	t.Run("second hope loop is a new loop", func(t *testing.T) {
		t.Parallel()
		claude, loophook := setup(t)
		p := newProject(t, loop("tests pass", "lint clean"))
		installHooks(t, p.dir, loophook)
		command := stopCommand(t, p.dir)
		first := scenario{
			name: "first loop",
			turns: []turn{{edit: edits(meet("tests pass", "lint clean"), set("exit_signal", true)),
				text: "Both hold; done."}},
			wantTurns: 1, wantContext: []string{"tests pass", "lint clean"}, wantEndMessage: true,
		}
		api := newStubAPI(t, dialectPrompt, p.statePath(), first.turns)
		run := logged(t, api, func() *claudeRun { return runClaude(t, claude, p, api.URL(), dialectPrompt, sessionID) })
		checkSession(t, first, api, run, command)
		checkEndMessage(t, run, []string{"complete"})
		if t.Failed() {
			return
		}
		// The person starts a second loop, as the loop skill writes it.
		second := with(loop("tests pass", "docs updated"), "spec", "document the --json flag")
		if err := writeState(p.statePath(), second); err != nil {
			t.Fatal(err)
		}
		again := scenario{
			name: "second loop",
			turns: []turn{{edit: edits(meet("tests pass", "docs updated"), set("exit_signal", true)),
				text: "Documented and tested; done."}},
			wantTurns: 1, wantContext: []string{"docs updated"}, wantEndMessage: true,
		}
		api2 := newStubAPI(t, dialectPrompt, p.statePath(), again.turns)
		run2 := logged(t, api2, func() *claudeRun { return runClaude(t, claude, p, api2.URL(), dialectPrompt, otherSessionID) })
		if main := api2.mainRequests(); len(main) != 1 {
			t.Errorf("the second loop took %d turns, want 1 (held to the first loop's criteria?)", len(main))
		} else {
			checkStops(t, again, run2, main, command)
		}
		checkEndMessage(t, run2, []string{"complete"})
	})

	// The agent drops a criterion and runs loophook accept, cancel and
	// init --force through its own shell tool: each refused (CLAUDECODE is
	// set), the contract holds, the next stop still blocks, and the guard
	// ends the session.
	t.Run("agent's own accept, cancel and init refused", func(t *testing.T) {
		t.Parallel()
		two := acceptCriteria
		claude, loophook := setup(t)
		p := newProject(t, loop(two...))
		installHooks(t, p.dir, loophook)
		turns := []turn{progress(two[0]), {
			edit: edits(set("criteria", []string{two[0]}), set("exit_signal", true)),
			text: "Dropped the UTF-8 criterion; accepting the change.",
			bash: loophook + " accept; " + loophook + " cancel; " + loophook + " init --force --spec easy --criterion done",
		}}
		api := newStubAPI(t, dialectPrompt, p.statePath(), turns)
		env := claudeEnv(p, api.URL())
		run := logged(t, api, func() *claudeRun {
			return runClaudeWith(t, claude, p, env, dialectPrompt, sessionID, "--allowedTools", "Bash")
		})
		checkAcceptRefused(t, p, api.toolResults(), "CLAUDECODE", "init over the unfinished loop")
		stops := run.hookRuns("Stop")
		if len(stops) < 2 {
			t.Fatalf("the Stop hook ran %d times, want the drop held", len(stops))
		}
		if s := stops[1].reason; !strings.Contains(s, "removed from the state") || !strings.Contains(s, two[1]) {
			t.Errorf("the stop after the refused accept: %s", s)
		}
		checkEndMessage(t, run, []string{"runaway guard"})
	})
}

// checkContractHolds fails the test unless a contract kept in the
// project's user cache still holds criterion name: what an agent's own
// refused accept must leave as it was.
func checkContractHolds(t *testing.T, p *project, name string) {
	t.Helper()
	cache := filepath.Join(p.home, ".cache", "loophook")
	found := false
	filepath.WalkDir(cache, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == ".contract" {
			data, _ := os.ReadFile(path)
			found = found || strings.Contains(string(data), name)
		}
		return nil
	})
	if !found {
		t.Errorf("no contract under %s holds %q", cache, name)
	}
}
