//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// codexScenario is one loop as the real Codex CLI and the hooks under test
// run it.
type codexScenario struct {
	state    any               // the initial .loop/state.json; nil: no loop at all
	turns    []turn            // the scripted agent, turn by turn, across exec and resumes
	register codexRegistration // puts the hooks under test in place
}

// runCodexScenario sets up a session for sc, runs `codex exec prompt` in
// it and checks what every run must hold (checkCodexRun). It returns the
// session, to resume it or read the stand-in, and the run, whose requests
// are the model turns it took: the first one is the prompt's, and each
// later one exists because a Stop hook blocked.
//
// To run loophook instead of a stand-in, pass a registration that runs
// `loophook install --host codex` in s.p.dir with s.env() (so that it
// writes where this Codex reads), and trustCodexHooks(t, s) after it if
// the installer leaves trust to the person. To read loophook's answers,
// which Codex does not show, register its commands wrapped by a
// hookRecorder instead (TestCodexHookRecorder).
func runCodexScenario(t *testing.T, sc codexScenario, prompt string) (*codexSession, *codexRun) {
	t.Helper()
	s := newCodexSession(t, sc.state, sc.turns, sc.register)
	run := s.exec(prompt)
	checkCodexRun(t, s, run)
	return s, run
}

// checkCodexRun checks what every run must hold whatever the hooks decide:
// Codex exited 0, the stand-in was read without trouble and not driven to
// its cap, the model was asked at least once, no hook failed (an answer
// Codex rejects counts as Failed and ends the turn), and the Stop hook ran
// once per model turn: a turn ends in a Stop, which either blocks (one
// more turn) or lets the agent stop (this assumes one Stop registration;
// each registration reports its own outcome). A hook that Codex does not
// trust is skipped without a word, so that last check is what catches it.
func checkCodexRun(t *testing.T, s *codexSession, run *codexRun) {
	t.Helper()
	for _, err := range s.api.failures() {
		t.Error(err)
	}
	if n := len(s.api.refusedRequests()); n > 0 {
		t.Errorf("the stand-in refused %d turn requests past its cap of %d: the loop ran away", n, s.api.turnCap())
	}
	if run.exitCode != 0 {
		t.Errorf("codex %q exited %d\nstderr: %s", run.args, run.exitCode, run.stderr)
	}
	if len(run.requests) == 0 {
		t.Fatalf("codex %q asked the stand-in nothing\nstderr: %s", run.args, run.stderr)
	}
	for _, h := range run.hooks() {
		if h.status == "Failed" {
			t.Errorf("a %s hook failed (Codex rejected its answer or it exited non-zero)", h.event)
		}
	}
	if stops := run.hookStatuses("Stop"); len(stops) != len(run.requests) {
		t.Errorf("the Stop hook ran %d times (%v) over %d model turns, want once a turn (is it trusted?)",
			len(stops), stops, len(run.requests))
	}
}

// TestCodexHarness proves the harness on the real Codex CLI with a
// stand-in for loophook's hooks, so that the loophook tests can rely on
// it: the hooks registered and trusted as PROTOCOL.md says run; each
// Stop block buys one more model turn and its reason reaches the model;
// the SessionStart context reaches the first request; the scripted agent's
// state edits land before the hook reads the state; and a resumed session
// runs SessionStart again (source resume), whose context reaches the model.
func TestCodexHarness(t *testing.T) {
	t.Parallel()
	reasons := []string{
		// Codex XML-escapes a reason for the model: the stand-in API must
		// undo exactly that.
		"block 1 of 2: <loop-complete> is not yet true & the tests fail",
		`block 2 of 2: "quoted" and 'single' and \backslash`,
		"block 1 of 1 after the resume",
	}
	const (
		startContext  = `stand-in context: a loop <is> under way & "iteration" 0`
		resumeContext = "stand-in context after the resume"
		resumePrompt  = "Go on with the loop after a restart."
	)
	var turns []turn
	for i := 1; i <= 5; i++ {
		turns = append(turns, turn{edit: bump("iteration"), text: fmt.Sprintf("worked on iteration %d", i)})
	}
	// A space in the hook's path: Codex must run the quoted command, and
	// the trust hash must cover the quotes.
	sh := newStandInHook(t, filepath.Join(t.TempDir(), "stand-in hooks"), reasons, startContext)
	sh.blockNext(t, 2)

	s, run := runCodexScenario(t, codexScenario{
		state:    loop("empty input parses"),
		turns:    turns,
		register: sh.registration(),
	}, prompt)

	// exec: 1 + 2 blocks.
	checkTurns(t, "exec", run, reasons[:2], []string{"Blocked", "Blocked", "Completed"})
	checkContexts(t, "exec", run.requests[0], startContext)
	if got := sh.stopIterations(t); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Errorf("the Stops saw iterations %v, want 1 2 3: each turn's edit lands before its Stop", got)
	}
	starts := sh.inputs(t, "session-start")
	if len(starts) != 1 || starts[0]["source"] != "startup" {
		t.Fatalf("SessionStart inputs %v, want one with source startup", starts)
	}
	session, _ := starts[0]["session_id"].(string)
	stops := sh.inputs(t, "stop")
	checkStopInputs(t, "exec", stops, session, s.p.dir, turns[:3])
	for _, req := range run.requests {
		if req.Meta.SessionID != session || req.Meta.HistoryInitialization != "new" {
			t.Errorf("exec request metadata %+v, want session %s and history new", req.Meta, session)
		}
	}

	// resume: SessionStart again, then 1 + 1 block.
	sh.blockNext(t, 1)
	sh.setContext(t, resumeContext)
	resumed := s.resume(resumePrompt)
	checkCodexRun(t, s, resumed)
	checkTurns(t, "resume", resumed, reasons[2:], []string{"Blocked", "Completed"})
	// The history keeps the first context; the new one comes last.
	checkContexts(t, "resume", resumed.requests[0], startContext, resumeContext)
	if last := resumed.requests[0].Req.lastUser(); last != resumePrompt {
		t.Errorf("resume: the first request ends with %q, want the prompt %q", last, resumePrompt)
	}
	starts = sh.inputs(t, "session-start")
	if len(starts) != 2 || starts[1]["source"] != "resume" || starts[1]["session_id"] != session {
		t.Errorf("SessionStart inputs %v, want a second with source resume and session %s", starts, session)
	}
	stops = sh.inputs(t, "stop")
	if len(stops) == 5 {
		checkStopInputs(t, "resume", stops[3:], session, s.p.dir, turns[3:])
		if stops[3]["turn_id"] == stops[0]["turn_id"] {
			t.Errorf("resume: the Stop input has the first run's turn_id %v, want a new turn", stops[3]["turn_id"])
		}
	}
	for _, req := range resumed.requests {
		if req.Meta.SessionID != session || req.Meta.HistoryInitialization != "cold_resume" {
			t.Errorf("resume request metadata %+v, want session %s and history cold_resume", req.Meta, session)
		}
	}
	if other := s.api.otherRequests(); len(other) != 0 {
		t.Errorf("codex exec sent %d requests besides the turns, want none (first: %s %s %+v)",
			len(other), other[0].Method, other[0].Path, other[0].Meta)
	}
}

// TestCodexRunawayEndsAtCap checks the stand-in's brake, which the loophook
// tests rely on to end a loop that loophook fails to end (Codex has no cap
// of its own): past the cap, HTTP 400 ends `codex exec` at once, with no
// retry and no further Stop.
func TestCodexRunawayEndsAtCap(t *testing.T) {
	t.Parallel()
	const limit = 4
	reasons := slices.Repeat([]string{"keep going"}, 2*limit)
	sh := newStandInHook(t, filepath.Join(t.TempDir(), "stand-in hooks"), reasons, "C")
	sh.blockNext(t, len(reasons)) // blocks more often than the stand-in answers
	s := newCodexSession(t, nil, nil, sh.registration())
	s.api.setTurnCap(limit)

	run := s.exec(prompt)
	if len(run.requests) != limit || len(s.api.refusedRequests()) != 1 {
		t.Errorf("%d turns answered and %d refused, want %d and 1", len(run.requests), len(s.api.refusedRequests()), limit)
	}
	if run.exitCode != 1 || !strings.Contains(run.stderr, "ERROR: ") {
		t.Errorf("codex exec exited %d, want 1 with an ERROR line\nstderr: %s", run.exitCode, run.stderr)
	}
	if stops := run.hookStatuses("Stop"); len(stops) != limit {
		t.Errorf("Stop outcomes %v, want %d blocks and none after the refusal", stops, limit)
	}
}

// TestCodexHookRecorder checks the recorder that lets a test read the
// hooks' answers, which `codex exec` does not show.
func TestCodexHookRecorder(t *testing.T) {
	t.Parallel()
	sh := newStandInHook(t, filepath.Join(t.TempDir(), "stand-in hooks"), []string{"go on & <check>"}, "C")
	sh.blockNext(t, 1)
	rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder dir"))
	s, run := runCodexScenario(t, codexScenario{register: func(t *testing.T, s *codexSession) {
		if err := writeCodexHooks(s.projectHooksPath(),
			codexHook{event: "Stop", command: rec.wrap("stop", sh.command("stop")), timeout: 60},
			codexHook{event: "SessionStart", command: rec.wrap("session-start", sh.command("session-start")), timeout: 60},
		); err != nil {
			t.Fatal(err)
		}
		trustCodexHooks(t, s)
	}}, prompt)

	checkTurns(t, "exec", run, []string{"go on & <check>"}, []string{"Blocked", "Completed"})
	want := []string{`{"decision":"block","reason":"go on \u0026 \u003ccheck\u003e"}`, `{}`}
	if got := rec.answers(t, "stop"); !slices.Equal(got, want) {
		t.Errorf("recorded Stop answers %q, want %q", got, want)
	}
	want = []string{`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"C"}}`}
	if got := rec.answers(t, "session-start"); !slices.Equal(got, want) {
		t.Errorf("recorded SessionStart answers %q, want %q", got, want)
	}
	checkContexts(t, "exec", s.api.turnRequests()[0], "C")
}

// checkTurns checks one run's model turns against the Stop hook's answers:
// one turn more than blocks, the Stop outcomes Codex reported, and each
// block's reason, unescaped, as the one hook prompt of the next turn.
func checkTurns(t *testing.T, name string, run *codexRun, reasons []string, stops []string) {
	t.Helper()
	if len(run.requests) != 1+len(reasons) {
		t.Errorf("%s: %d model turns, want %d (1 + %d blocks)", name, len(run.requests), 1+len(reasons), len(reasons))
	}
	if got := run.hookStatuses("Stop"); !slices.Equal(got, stops) {
		t.Errorf("%s: Stop outcomes %v, want %v", name, got, stops)
	}
	if got := run.hookStatuses("SessionStart"); !slices.Equal(got, []string{"Completed"}) {
		t.Errorf("%s: SessionStart outcomes %v, want [Completed]", name, got)
	}
	for i, req := range run.requests {
		got := req.Req.newHookPrompts()
		if i == 0 {
			if len(got) != 0 {
				t.Errorf("%s: the first turn carries hook prompts %v, want none", name, got)
			}
			continue
		}
		if len(got) != 1 {
			t.Errorf("%s: turn %d carries hook prompts %v, want one", name, i+1, got)
			continue
		}
		if i-1 < len(reasons) && got[0].reason != reasons[i-1] {
			t.Errorf("%s: turn %d got the reason %q, want %q", name, i+1, got[0].reason, reasons[i-1])
		}
		if !strings.HasPrefix(got[0].runID, "stop:") {
			t.Errorf("%s: turn %d: hook_run_id %q, want stop:<order>:<hooks file>", name, i+1, got[0].runID)
		}
	}
}

// checkContexts checks the SessionStart contexts a request carries.
func checkContexts(t *testing.T, name string, req *codexRequest, want ...string) {
	t.Helper()
	if got := req.Req.sessionContexts(); !slices.Equal(got, want) {
		t.Errorf("%s: the first request carries SessionStart contexts %q, want %q", name, got, want)
	}
}

// checkStopInputs checks the Stop inputs of one turn of Codex: the first
// stop of the turn has stop_hook_active false and every later one true,
// all share the turn's id, and each carries the reply it follows.
func checkStopInputs(t *testing.T, name string, stops []map[string]any, session, cwd string, turns []turn) {
	t.Helper()
	if len(stops) != len(turns) {
		t.Errorf("%s: %d Stop inputs, want %d", name, len(stops), len(turns))
		return
	}
	for i, in := range stops {
		if in["hook_event_name"] != "Stop" || in["session_id"] != session || in["cwd"] != cwd {
			t.Errorf("%s: Stop input %d: %v, want event Stop, session %s, cwd %s", name, i+1, in, session, cwd)
		}
		if want := i > 0; in["stop_hook_active"] != want {
			t.Errorf("%s: Stop input %d: stop_hook_active %v, want %v", name, i+1, in["stop_hook_active"], want)
		}
		if in["turn_id"] != stops[0]["turn_id"] {
			t.Errorf("%s: Stop input %d: turn_id %v, want the turn's %v", name, i+1, in["turn_id"], stops[0]["turn_id"])
		}
		if in["last_assistant_message"] != turns[i].text {
			t.Errorf("%s: Stop input %d: last_assistant_message %v, want %q", name, i+1, in["last_assistant_message"], turns[i].text)
		}
	}
}
