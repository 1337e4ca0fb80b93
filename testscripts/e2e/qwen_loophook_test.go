//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// registerQwenLoophook registers the real loophook as the project's Qwen
// Code hooks with `loophook install --host qwen` (.qwen/settings.json,
// stopHookBlockingCap 51), each command recorded by rec.
func registerQwenLoophook(sc hostLoop, rec *hookRecorder) func(t *testing.T, p *project) {
	return func(t *testing.T, p *project) {
		t.Helper()
		sc.writeOnLoop(t, p)
		installWrapped(t, p, rec, "qwen", filepath.Join(".qwen", "settings.json"), "hooks", sc.stopFlags...)
	}
}

// checkQwenHookRuns checks that the debug log names no failed hook and no
// turn the cap ended.
func checkQwenHookRuns(t *testing.T, s *qwenSession) {
	t.Helper()
	for _, r := range s.runs {
		for _, line := range qwenDebugLog(s.p, r.result.SessionID) {
			if strings.Contains(line, "failed for event") || strings.Contains(line, "Stop hook blocked continuation") {
				t.Errorf("session %s: %s", r.result.SessionID, line)
			}
		}
	}
}

// TestQwenLoophook runs loophook's loops in the real Qwen Code, registered
// by loophook install, which raises its block cap: loophook's rules end
// each loop, and no turn ends at Qwen's cap.
func TestQwenLoophook(t *testing.T) {
	for _, sc := range append(hostLoops(), ceilingLoop()) {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
			s := runQwenScenario(t, qwenScenario{state: sc.state, turns: sc.turns, register: registerQwenLoophook(sc, rec)})
			checkQwenHookRuns(t, s)
			checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasonsAfter(s.api.turns(), prompt), 0, true)
		})
	}

	t.Run("SessionStart context on --continue", func(t *testing.T) {
		t.Parallel()
		sc := resumeLoop()
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s := runQwenScenario(t, qwenScenario{
			state: sc.state, turns: sc.turns, prompts: []string{prompt, resumePrompt},
			register: registerQwenLoophook(sc, rec),
		})
		checkQwenHookRuns(t, s)
		turns := s.api.turns()
		first := -1
		for i, r := range turns {
			if text, _ := r.newUser(); strings.HasSuffix(text, resumePrompt) {
				first = i
				break
			}
		}
		if first != 4 {
			t.Fatalf("the resumed run starts at turn %d, want 5 (the guard ends the first run at 4)", first+1)
		}
		ctx, ok := qwenContext(turns[first])
		if !ok {
			t.Fatalf("the resumed run's first request carries no SessionStart context")
		}
		checkResumeContext(t, rec, 2, ctx)
		checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasonsAfter(turns, prompt, resumePrompt), 0, true)
	})
}

// TestQwenAccept runs the agent's own loophook accept through Qwen Code's
// shell tool (run_shell_command, which --yolo offers and runs without
// asking): refused, for QWEN_CODE, which the tool sets for every command
// it runs.
func TestQwenAccept(t *testing.T) {
	sc := acceptLoop(t)
	rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
	s := runQwenScenario(t, qwenScenario{state: sc.state, turns: sc.turns, flags: []string{"--yolo"}, register: registerQwenLoophook(sc, rec)})
	checkQwenHookRuns(t, s)
	checkAcceptRefused(t, s.p, s.api.toolOutputs(), "QWEN_CODE")
	checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasonsAfter(s.api.turns(), prompt), 0, true)
}
