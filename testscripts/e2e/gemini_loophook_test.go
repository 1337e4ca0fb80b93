//go:build e2e

package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// registerGeminiLoophook registers the real loophook, recorded by rec, as
// the project's Gemini hooks (.gemini/settings.json; the harness trusts
// the folder).
func registerGeminiLoophook(sc hostLoop, rec *hookRecorder) func(t *testing.T, p *project) {
	return func(t *testing.T, p *project) {
		t.Helper()
		sc.writeOnLoop(t, p)
		stop, start := loophookCommands(t, rec, "gemini", sc.stopFlags...)
		registerGeminiHooks(t, p.dir,
			geminiHook{event: "AfterAgent", name: "loophook-stop", command: stop},
			geminiHook{event: "SessionStart", name: "loophook-session-start", command: start},
		)
	}
}

// checkGeminiHookRuns checks --debug reported one AfterAgent per chat
// turn of each run and one SessionStart per run (none failed: checked by
// runGeminiScenario), and that the person was shown why the loop ended.
func checkGeminiHookRuns(t *testing.T, s *geminiSession) {
	t.Helper()
	turns := s.runsTurns()
	if len(turns) != len(s.runs) {
		t.Fatalf("the chat turns make %d runs, want %d", len(turns), len(s.runs))
	}
	for i, run := range s.runs {
		if got := run.countHooks("AfterAgent"); got != len(turns[i]) {
			t.Errorf("run %d: --debug reports %d AfterAgent executions over %d chat turns", i+1, got, len(turns[i]))
		}
		if got := run.countHooks("SessionStart"); got != 1 {
			t.Errorf("run %d: --debug reports %d SessionStart executions, want 1", i+1, got)
		}
		// What loophook tells the person of a .loophook.json (changed since
		// it was approved, say) is a message of its own.
		ended := slices.DeleteFunc(run.systemMessages(), func(m string) bool { return strings.Contains(m, ".loophook.json") })
		if len(ended) != 1 {
			t.Errorf("run %d: hook system messages %q, want the one saying why the loop ended", i+1, run.systemMessages())
		}
	}
}

// TestGeminiLoophook runs loophook's loops in the real Gemini CLI, which
// has no cap of its own: loophook's rules alone end each loop.
func TestGeminiLoophook(t *testing.T) {
	for _, sc := range append(append(hostLoops(), ceilingLoop(), tokenBudgetLoop()), checksLoops()...) {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
			s := runGeminiScenario(t, geminiScenario{
				state:    sc.state,
				turns:    sc.turns,
				prompts:  []string{prompt},
				register: registerGeminiLoophook(sc, rec),
				maxChat:  len(sc.wantRules) + 2,
			})
			checkGeminiHookRuns(t, s)
			checkHostLoop(t, s.project, rec, sc.wantRules, sc.wantReasons, s.api.blockReasons(), 0, true)
		})
	}

	t.Run("SessionStart context on resume", func(t *testing.T) {
		t.Parallel()
		sc := resumeLoop()
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s := runGeminiScenario(t, geminiScenario{
			state:    sc.state,
			turns:    sc.turns,
			prompts:  []string{prompt, resumePrompt},
			register: registerGeminiLoophook(sc, rec),
			maxChat:  len(sc.wantRules) + 2,
		})
		checkGeminiHookRuns(t, s)
		runs := s.runsTurns()
		if n := len(runs[0]); n != 4 {
			t.Errorf("the first run took %d chat turns, want 4 (the guard ends it)", n)
		}
		if !runs[1][0].hasContext {
			t.Fatalf("the resumed run's first request carries no <hook_context>: %q", runs[1][0].text)
		}
		checkResumeContext(t, rec, 2, runs[1][0].context)
		checkHostLoop(t, s.project, rec, sc.wantRules, sc.wantReasons, s.api.blockReasons(), 0, true)
	})
}

// TestGeminiAccept runs the agent's own loophook accept through Gemini
// CLI's shell tool (run_shell_command, which --yolo offers and runs
// without asking): refused, for GEMINI_CLI, which the tool sets for every
// command it runs. Headless, 0.61.0 runs the command without a
// pseudo-terminal (it uses one only interactively), so the terminal test
// would refuse it too: the marker, checked first, is what must be named.
func TestGeminiAccept(t *testing.T) {
	sc := acceptLoop(t)
	rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
	s := runGeminiScenario(t, geminiScenario{
		state:    sc.state,
		turns:    sc.turns,
		prompts:  []string{prompt},
		flags:    []string{"--yolo"},
		register: registerGeminiLoophook(sc, rec),
		maxChat:  len(sc.wantRules) + 2,
	})
	checkGeminiHookRuns(t, s)
	checkAcceptRefused(t, s.project, s.api.toolOutputs(), "GEMINI_CLI")
	checkHostLoop(t, s.project, rec, sc.wantRules, sc.wantReasons, s.api.blockReasons(), 0, true)
}
