//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPiLoophook runs loophook's loops in the real Pi, with the extension
// loophook install writes: Pi has no cap on continuations at all, so
// loophook's rules alone end each loop, the default continuation limit
// one that records progress for ever; a token budget is measured in Pi's
// session file.
func TestPiLoophook(t *testing.T) {
	forever := hostLoop{
		name:        "the default continuation limit",
		state:       loop("empty input parses"),
		turns:       repeat(60, turn{edit: bump("attempts"), text: "Another attempt, recorded."}),
		wantRules:   append(repeat(50, "unmet"), "continuation-limit"),
		wantReasons: repeat(50, []string{"empty input parses"}),
	}
	for _, sc := range append(hostLoops(), ceilingLoop(), forever, tokenBudgetLoop()) {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
			s := runPiScenario(t, piScenario{state: sc.state, turns: sc.turns, register: registerPiLoophook(sc, rec)})
			checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, piReasons(s.api.turns(), prompt), 0, true)
			checkPiStops(t, s, rec)
			if sc.config != "" {
				answers := rec.answers(t, "stop")
				if last := answers[len(answers)-1]; !strings.Contains(last, "token budget reached: 45 tokens since the loop began, of 40") {
					t.Errorf("the last stop answered %s, want the token budget reached at 45 of 40", last)
				}
			}
		})
	}

	t.Run("SessionStart context on -c", func(t *testing.T) {
		t.Parallel()
		sc := resumeLoop()
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s := runPiScenario(t, piScenario{
			state: sc.state, turns: sc.turns, prompts: []string{prompt, resumePrompt},
			register: registerPiLoophook(sc, rec),
		})
		turns := s.api.turns()
		first := -1
		for i, r := range turns {
			if _, ok := piContext(r, resumePrompt); ok {
				first = i
				break
			}
		}
		if first != 4 {
			t.Fatalf("the resumed run starts at turn %d, want 5 (the guard ends the first run at 4)", first+1)
		}
		ctx, _ := piContext(turns[first], resumePrompt)
		checkResumeContext(t, rec, 2, ctx)
		if got, ok := piContext(turns[0], prompt); !ok || got != sessionContextOf(t, rec, 1) {
			t.Errorf("the first request carries the context %q (%v), want loophook's first", got, ok)
		}
		checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, piReasons(turns, prompt, resumePrompt), 0, true)
		if n := len(piSessions(s.p)); n != 1 {
			t.Errorf("%d session files, want the one -c went on with", n)
		}
	})
}

// checkPiStops checks what the extension sent loophook at each stop:
// Pi's session id and session file, the project as cwd, stop_hook_active
// false at the prompt's first stop and true after a continuation, the
// reply that ended the run, and its time.
func checkPiStops(t *testing.T, s *piSession, rec *hookRecorder) {
	t.Helper()
	sessions := piSessions(s.p)
	if len(sessions) != 1 {
		t.Fatalf("%d Pi session files, want 1", len(sessions))
	}
	inputs := rec.inputs(t, "stop")
	for i, in := range inputs {
		want := i > 0
		if in["stop_hook_active"] != want || in["transcript_path"] != sessions[0] || in["cwd"] != s.p.dir ||
			!strings.HasSuffix(sessions[0], "_"+in["session_id"].(string)+".jsonl") || in["timestamp"] == nil {
			t.Errorf("stop %d: input %v; want stop_hook_active %v, the session file %s, cwd %s, a timestamp", i+1, in, want, sessions[0], s.p.dir)
		}
	}
}

// TestPiAccept runs the agent's own loophook accept and loophook cancel
// through Pi's bash tool, which runs commands without asking: refused, for
// PI_CODING_AGENT, which the pi CLI sets for its whole process and so for
// every command the tool runs.
func TestPiAccept(t *testing.T) {
	sc := acceptLoop(t)
	rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
	s := runPiScenario(t, piScenario{state: sc.state, turns: sc.turns, register: registerPiLoophook(sc, rec)})
	checkAcceptRefused(t, s.p, s.api.toolOutputs(), "PI_CODING_AGENT")
	checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, piReasons(s.api.turns(), prompt), 0, true)
}

// TestPiExtensionNeverBreaksPi: with the extension install writes, a
// loophook that cannot be run lets the run end after its one reply, told
// on stderr, and a failed model request (Pi obeys continue even then, with
// no cap) is not continued: the extension does not even ask loophook.
func TestPiExtensionNeverBreaksPi(t *testing.T) {
	t.Run("loophook gone", func(t *testing.T) {
		t.Parallel()
		sc := hostLoops()[0]
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s := runPiScenario(t, piScenario{
			state: sc.state, turns: sc.turns, expectFailure: true,
			register: func(t *testing.T, p *project) {
				registerPiLoophook(sc, rec)(t, p)
				if err := os.Remove(filepath.Join(rec.dir, "pi-loophook")); err != nil {
					t.Fatal(err)
				}
			},
		})
		if n := len(s.api.turns()); n != 1 {
			t.Errorf("%d model turns, want the one before the stop", n)
		}
		if want := "loophook: cannot run " + filepath.Join(rec.dir, "pi-loophook") + ": "; strings.Count(s.runs[0].stderr, want) != 2 {
			t.Errorf("stderr does not say twice (session start, stop) %q:\n%s", want, s.runs[0].stderr)
		}
	})
	t.Run("failed model request", func(t *testing.T) {
		t.Parallel()
		sc := hostLoops()[0]
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s := runPiScenario(t, piScenario{
			state: sc.state, turns: sc.turns, refuseAll: true, runaway: true,
			register: registerPiLoophook(sc, rec),
		})
		if n := len(s.api.turns()); n != 1 {
			t.Errorf("%d model requests, want the one refused", n)
		}
		if in := rec.inputs(t, "stop"); len(in) != 0 {
			t.Errorf("loophook was asked %d times at a failed request's settle, want never", len(in))
		}
		if n := len(rec.answers(t, "session-start")); n != 1 {
			t.Errorf("%d session starts, want 1", n)
		}
	})
}
