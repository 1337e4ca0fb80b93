//go:build e2e

package e2e

import (
	"path/filepath"
	"testing"
)

// registerCodexLoophook registers the real loophook, recorded by rec, as
// the project's Codex hooks, and trusts them as a person would.
func registerCodexLoophook(sc hostLoop, rec *hookRecorder) codexRegistration {
	return func(t *testing.T, s *codexSession) {
		t.Helper()
		sc.writeOnLoop(t, s.p)
		stop, start := loophookCommands(t, rec, "codex", sc.stopFlags...)
		if err := writeCodexHooks(s.projectHooksPath(),
			codexHook{event: "Stop", command: stop, timeout: 60},
			codexHook{event: "SessionStart", command: start, timeout: 60},
		); err != nil {
			t.Fatal(err)
		}
		trustCodexHooks(t, s)
	}
}

// codexReasons returns the block reasons the model got over runs: the one
// hook prompt of each turn after a run's first.
func codexReasons(t *testing.T, runs ...*codexRun) []string {
	t.Helper()
	var out []string
	for _, run := range runs {
		for i, req := range run.requests[min(1, len(run.requests)):] {
			prompts := req.Req.newHookPrompts()
			if len(prompts) != 1 {
				t.Errorf("%s: turn %d carries hook prompts %v, want one", run.name(), i+2, prompts)
				continue
			}
			out = append(out, prompts[0].reason)
		}
	}
	return out
}

// TestCodexLoophook runs loophook's loops in the real Codex CLI, which
// has no cap of its own: loophook's rules alone end each loop.
func TestCodexLoophook(t *testing.T) {
	for _, sc := range append(hostLoops(), ceilingLoop()) {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
			s := newCodexSession(t, sc.state, sc.turns, registerCodexLoophook(sc, rec))
			s.api.setTurnCap(len(sc.wantRules) + 2)
			run := s.exec(prompt)
			checkCodexRun(t, s, run)
			if got := run.hookStatuses("SessionStart"); len(got) != 1 || got[0] != "Completed" {
				t.Errorf("SessionStart outcomes %v, want [Completed]", got)
			}
			checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, codexReasons(t, run), 0, true)
		})
	}

	t.Run("SessionStart context on resume", func(t *testing.T) {
		t.Parallel()
		sc := resumeLoop()
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s := newCodexSession(t, sc.state, sc.turns, registerCodexLoophook(sc, rec))
		s.api.setTurnCap(len(sc.wantRules) + 2)
		first := s.exec(prompt)
		checkCodexRun(t, s, first)
		resumed := s.resume(resumePrompt)
		checkCodexRun(t, s, resumed)
		if n := len(first.requests); n != 4 {
			t.Errorf("the first run took %d turns, want 4 (the guard ends it)", n)
		}
		// The resumed session's history keeps the first context; the
		// resume's own comes last.
		contexts := resumed.requests[0].Req.sessionContexts()
		if len(contexts) != 2 {
			t.Fatalf("the resumed run's first request carries the contexts %q, want two", contexts)
		}
		checkResumeContext(t, rec, 2, contexts[1])
		checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, codexReasons(t, first, resumed), 0, true)
	})
}

// TestCodexAccept runs the agent's own loophook accept through Codex's
// shell tool (exec_command): sandboxed as the suite's config.toml says
// (workspace-write, approval never), and with full access in a
// pseudo-terminal, where standard input is a terminal and only the marker
// tells the agent from a person. Refused both ways, for CODEX_THREAD_ID,
// which Codex sets for every command its tool runs, sandboxed or not.
func TestCodexAccept(t *testing.T) {
	for _, c := range []struct {
		name  string
		tty   bool
		flags []string
	}{
		{"sandboxed", false, nil},
		{"full access in a terminal", true, []string{"--dangerously-bypass-approvals-and-sandbox"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sc := acceptLoop(t)
			rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
			s := newCodexSession(t, sc.state, sc.turns, registerCodexLoophook(sc, rec))
			s.api.setTurnCap(len(sc.wantRules) + 2)
			s.api.setTTY(c.tty)
			run := s.runCodex(append(append([]string{"exec", "--strict-config"}, c.flags...), prompt)...)
			checkCodexRun(t, s, run)
			checkAcceptRefused(t, s.p, s.api.toolOutputs(), "CODEX_THREAD_ID")
			checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, codexReasons(t, run), 0, true)
		})
	}
}
