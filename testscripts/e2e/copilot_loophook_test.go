//go:build e2e

package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// registerCopilotLoophook registers the real loophook, recorded by rec, as
// the project's Copilot hooks (.github/hooks/loophook.json; the harness
// trusts the folder).
func registerCopilotLoophook(sc hostLoop, rec *hookRecorder) func(t *testing.T, p *project) {
	return func(t *testing.T, p *project) {
		t.Helper()
		sc.writeOnLoop(t, p)
		stop, start := loophookCommands(t, rec, "copilot", sc.stopFlags...)
		if err := writeCopilotHooks(p.dir, "loophook.json", map[string][]copilotHook{
			"agentStop":    {{Type: "command", Bash: stop, TimeoutSec: 30}},
			"sessionStart": {{Type: "command", Bash: start, TimeoutSec: 30}},
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// copilotLoophookRun runs sc's prompts with loophook as the hooks and
// checks what every run must hold: both hooks loaded, one successful
// agentStop per conversation turn, and the cap line only where capped
// says. It returns the session and the block reasons the model got.
func copilotLoophookRun(t *testing.T, sc hostLoop, rec *hookRecorder, capped bool, prompts ...string) (*copilotSession, []string) {
	t.Helper()
	s := runCopilotScenario(t, copilotScenario{
		state:    sc.state,
		turns:    sc.turns,
		prompts:  prompts,
		register: registerCopilotLoophook(sc, rec),
	})
	var reasons []string
	for _, r := range s.runs {
		checkCopilotLoaded(t, r, 2)
		checkCopilotEvents(t, r, len(r.turns()))
		got, err := r.reasons()
		if err != nil {
			t.Error(err)
		}
		reasons = append(reasons, got...)
		if n := len(r.logLines(copilotCapLine)); (n == 1) != capped {
			t.Errorf("%v: the log says %q %d times, want capped=%v", r, copilotCapLine, n, capped)
		}
	}
	return s, reasons
}

// TestCopilotLoophook runs loophook's loops in the real Copilot CLI,
// whose own fixed cap of 8 continuations a prompt ends a turn that
// loophook does not end first: the guard and limits work inside it.
func TestCopilotLoophook(t *testing.T) {
	ceiling := ceilingLoop()
	ceiling.name = "continuation ceiling inside the cap"
	for _, sc := range append(hostLoops(), ceiling) {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
			s, reasons := copilotLoophookRun(t, sc, rec, false)
			checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasons, 0, false)
		})
	}

	t.Run("the cap of 8 continuations", func(t *testing.T) {
		// Progress every turn, loophook's limits far off (50
		// continuations): loophook blocks at all 9 stops, and Copilot
		// ignores the 9th block and ends the turn.
		t.Parallel()
		sc := hostLoop{
			state:       with(loop("empty input parses"), "maxIterations", 40),
			turns:       repeat(10, turn{edit: bump("iteration"), text: "Another iteration, recorded."}),
			wantRules:   repeat(9, "unmet"),
			wantReasons: repeat(9, []string{"empty input parses"}),
		}
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s, reasons := copilotLoophookRun(t, sc, rec, true)
		if n := len(s.runs[0].turns()); n != 9 {
			t.Errorf("%d conversation turns, want 9: the prompt's and 8 continuations", n)
		}
		checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasons, 1, false)
	})

	t.Run("SessionStart context on --continue", func(t *testing.T) {
		t.Parallel()
		sc := resumeLoop()
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s, reasons := copilotLoophookRun(t, sc, rec, false, prompt, resumePrompt)
		if n := len(s.runs[0].turns()); n != 4 {
			t.Errorf("the first run took %d turns, want 4 (the guard ends it)", n)
		}
		ctx, ok := s.runs[1].turns()[0].sessionContext()
		if !ok {
			t.Fatalf("the resumed run's first request carries no session context")
		}
		checkResumeContext(t, rec, 2, ctx)
		checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasons, 0, false)
	})

	t.Run("registered for Claude Code too", func(t *testing.T) {
		// Copilot also runs the project's .claude/settings.json hooks,
		// after its own, with the same session and instant (PROTOCOL.md
		// §9): each stop reaches loophook twice and must count once, or
		// the runaway guard ends a loop that records no progress a stop
		// early (3 model turns, not 4).
		t.Parallel()
		var sc hostLoop
		for _, l := range hostLoops() {
			if l.name == "runaway guard" {
				sc = l
			}
		}
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s := runCopilotScenario(t, copilotScenario{
			state: sc.state,
			turns: sc.turns,
			register: func(t *testing.T, p *project) {
				registerCopilotLoophook(sc, rec)(t, p)
				stop, start := loophookCommands(t, rec, "claude")
				stop = strings.Replace(stop, " stop ", " claude-stop ", 1)
				start = strings.Replace(start, " session-start ", " claude-session-start ", 1)
				group := func(command string) []any {
					return []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command}}}}
				}
				if err := writeJSON(filepath.Join(p.dir, ".claude", "settings.json"), map[string]any{
					"hooks": map[string]any{"Stop": group(stop), "SessionStart": group(start)},
				}); err != nil {
					t.Fatal(err)
				}
			},
		})
		checkCopilotTurns(t, s.runs[0], len(sc.wantRules)-1)
		copilot, claude := rec.answers(t, "stop"), rec.answers(t, "claude-stop")
		if len(copilot) != len(sc.wantRules) || len(claude) != len(copilot) {
			t.Fatalf("%d stops answered by the Copilot registration and %d by the Claude Code one, want %d each",
				len(copilot), len(claude), len(sc.wantRules))
		}
		for i := range copilot {
			var a, b stopAnswer
			if json.Unmarshal([]byte(copilot[i]), &a) != nil || json.Unmarshal([]byte(claude[i]), &b) != nil {
				t.Fatalf("stop %d: answers %s and %s", i+1, copilot[i], claude[i])
			}
			if a.Decision != b.Decision || a.Reason != b.Reason {
				t.Errorf("stop %d: the Copilot registration answered %s, the Claude Code one %s", i+1, copilot[i], claude[i])
			}
		}
	})
}

// TestCopilotAccept runs the agent's own loophook accept through
// Copilot's bash tool (-p --allow-all): refused, for COPILOT_CLI, which
// the CLI sets for the commands its tool runs as for its hooks.
func TestCopilotAccept(t *testing.T) {
	sc := acceptLoop(t)
	rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
	s, reasons := copilotLoophookRun(t, sc, rec, false)
	checkAcceptRefused(t, s.p, s.api.toolOutputs(), "COPILOT_CLI")
	checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasons, 0, false)
}
