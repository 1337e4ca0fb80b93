//go:build e2e

package e2e

import (
	"os"
	"slices"
	"testing"
)

// TestInstallHost runs a hope loop to completion in each real host with
// loophook registered by `loophook install --host` as a person with
// loophook on PATH runs it: the project's file runs loophook from PATH,
// behind the committed registration's guard. What the installer writes
// (and, for Codex, the trust it records) is what the host obeys.
func TestInstallHost(t *testing.T) {
	sc := hostLoops()[0]
	// The hosts' sealed environments take this process's PATH.
	old := os.Getenv("PATH")
	os.Setenv("PATH", pathWith(t, loophookBinary(t)))
	t.Cleanup(func() { os.Setenv("PATH", old) })
	check := func(t *testing.T, p *project, turns int) {
		t.Helper()
		if got := journalRules(t, p); !slices.Equal(got, sc.wantRules) {
			t.Errorf("loophook's journal has the rules %q, want %q", got, sc.wantRules)
		}
		if turns != len(sc.wantRules) {
			t.Errorf("%d model turns, want %d", turns, len(sc.wantRules))
		}
	}
	t.Run("codex", func(t *testing.T) {
		t.Parallel()
		s := newCodexSession(t, sc.state, sc.turns, func(t *testing.T, s *codexSession) {
			installFromPath(t, s.p, "codex", s.env())
		})
		s.api.setTurnCap(len(sc.wantRules) + 2)
		run := s.exec(prompt)
		checkCodexRun(t, s, run)
		check(t, s.p, len(run.requests))
	})
	t.Run("gemini", func(t *testing.T) {
		t.Parallel()
		s := runGeminiScenario(t, geminiScenario{
			state: sc.state, turns: sc.turns, prompts: []string{prompt}, maxChat: len(sc.wantRules) + 2,
			register: func(t *testing.T, p *project) { installFromPath(t, p, "gemini", nil) },
		})
		check(t, s.project, len(s.runsTurns()[0]))
	})
	t.Run("copilot", func(t *testing.T) {
		t.Parallel()
		s := runCopilotScenario(t, copilotScenario{
			state: sc.state, turns: sc.turns, prompts: []string{prompt},
			register: func(t *testing.T, p *project) { installFromPath(t, p, "copilot", nil) },
		})
		check(t, s.p, len(s.runs[0].turns()))
	})
}
