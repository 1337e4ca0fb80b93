//go:build e2e

package e2e

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// geminiScenario is one session of the real Gemini CLI with some hooks:
// one headless run per prompt, the first starting the session and each
// later one resuming it (--resume latest).
type geminiScenario struct {
	state   any      // the initial .loop/state.json; nil: no loop at all
	turns   []turn   // the scripted agent, chat turn by chat turn, over all runs
	prompts []string // at least one
	// sessionID, when set, is the session's id (--session-id), so that a
	// state can name it; else the CLI makes one up.
	sessionID string
	flags     []string // more flags for every run, e.g. --approval-mode auto_edit
	// register writes the hooks into the project, typically its
	// .gemini/settings.json (the only place 0.61.0 reads project hooks
	// from: the directory it starts in).
	register func(t *testing.T, p *project)
	maxChat  int // the stand-in's cap on chat requests; 0: geminiMaxChat
}

// geminiSession is what a scenario left behind, for the test to check.
type geminiSession struct {
	project *project
	api     *geminiAPI
	runs    []*geminiRun // one per prompt
}

// runGeminiScenario sets up the scenario's project, registers its hooks
// and runs its prompts in order, then checks what holds for every
// scenario: each run ended with exit 0 and its JSON summary, in one
// session; the stand-in saw no runaway and no failed edit; and --debug
// reported no failed hook.
func runGeminiScenario(t *testing.T, sc geminiScenario) *geminiSession {
	t.Helper()
	bundle := setupGemini(t)
	if len(sc.prompts) == 0 {
		t.Fatal("scenario bug: no prompt")
	}
	p := newProject(t, sc.state)
	writeGeminiUserSettings(t, p) // before register: a user-scope install adds to it
	sc.register(t, p)
	s := &geminiSession{project: p, api: newGeminiAPI(t, sc.prompts, p.statePath(), sc.turns)}
	if sc.maxChat > 0 {
		store(&s.api.standIn, &s.api.maxChat, sc.maxChat)
	}
	t.Cleanup(func() {
		if t.Failed() {
			s.log(t)
		}
	})
	for i, prompt := range sc.prompts {
		flags := slices.Clone(sc.flags)
		switch {
		case i > 0:
			flags = append(flags, "--resume", "latest")
		case sc.sessionID != "":
			flags = append(flags, "--session-id", sc.sessionID)
		}
		run := runGemini(t, bundle, p, s.api.URL(), prompt, flags...)
		s.runs = append(s.runs, run)
		if run.exitCode != 0 {
			t.Errorf("run %d: gemini -p exited %d: %+v", i+1, run.exitCode, run.output.Error)
		}
		if want := cmp.Or(sc.sessionID, s.runs[0].output.SessionID); run.output.SessionID != want {
			t.Errorf("run %d: session %q, want %q", i+1, run.output.SessionID, want)
		}
		for _, f := range run.hookFailures() {
			t.Errorf("run %d: a hook failed: %s", i+1, f)
		}
	}
	for _, err := range s.api.failures() {
		t.Error(err)
	}
	return s
}

// runsTurns splits the chat turns by run: each run starts with its
// prompt's turn.
func (s *geminiSession) runsTurns() [][]chatTurn {
	var out [][]chatTurn
	for _, ct := range s.api.chatTurns() {
		if ct.prompt || len(out) == 0 {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], ct)
	}
	return out
}

// log tells a failing test's reader what happened.
func (s *geminiSession) log(t *testing.T) {
	for i, ct := range s.api.chatTurns() {
		t.Logf("chat request %d (%s, %d contents): new user message %q", i+1, ct.req.Model, len(ct.req.Gen.Contents), ct.text)
	}
	for _, req := range s.api.auxRequests() {
		t.Logf("auxiliary request: %s %s", req.Method, req.Path)
	}
	for i, run := range s.runs {
		t.Logf("run %d: exit %d\nstdout: %s\nhooks: %+v", i+1, run.exitCode, run.stdout, run.hookExecutions())
		t.Logf("run %d: stderr:\n%s", i+1, run.stderr)
	}
}

// geminiHook is one command hook, as .gemini/settings.json registers it.
type geminiHook struct {
	event   string // AfterAgent, SessionStart, …
	name    string // what warnings and --debug call it
	command string // run with bash -c; no "$" (0.61.0 expands variables in settings)
}

// registerGeminiHooks writes the hooks into <dir>/.gemini/settings.json
// in the shape of PROTOCOL.md §1, replacing any settings there.
func registerGeminiHooks(t *testing.T, dir string, hooks ...geminiHook) {
	t.Helper()
	byEvent := map[string][]any{}
	for _, h := range hooks {
		if strings.Contains(h.command, "$") {
			t.Fatalf("hook command %q: 0.61.0 would expand its $", h.command)
		}
		byEvent[h.event] = append(byEvent[h.event], map[string]any{"hooks": []any{map[string]any{
			"name": h.name, "type": "command", "command": h.command, "timeout": 60000,
		}}})
	}
	if err := writeJSON(filepath.Join(dir, ".gemini", "settings.json"), map[string]any{"hooks": byEvent}); err != nil {
		t.Fatal(err)
	}
}

// geminiStandInHook is a hook script that stands in for loophook: its n-th
// AfterAgent call answers the n-th of the given answers (blockAnswer to
// make the agent go on), and every call past them {}, which lets the
// agent stop; SessionStart adds the given context. It logs every input
// and keeps a copy of the state file as each AfterAgent call found it.
type geminiStandInHook struct {
	dir string // the script, its answers, counter and logs
}

const geminiStandInScript = `#!/bin/sh
# e2e stand-in hook; $1 is the event it was registered for.
dir=$(dirname -- "$0")
cat >> "$dir/inputs.jsonl" && echo >> "$dir/inputs.jsonl"
case "$1" in
SessionStart)
	cat "$dir/session-start.json" ;;
AfterAgent)
	n=$(( $(cat "$dir/after-agent.count") + 1 ))
	echo "$n" > "$dir/after-agent.count"
	cp .loop/state.json "$dir/state-at-$n.json" 2>/dev/null
	if [ -f "$dir/answer-$n.json" ]; then cat "$dir/answer-$n.json"; else echo '{}'; fi ;;
*)
	echo '{}' ;;
esac
`

func newGeminiStandInHook(t *testing.T, p *project, context string, answers ...any) *geminiStandInHook {
	t.Helper()
	h := &geminiStandInHook{dir: filepath.Join(filepath.Dir(p.dir), "stand-in-hook")}
	files := map[string]any{
		"session-start.json": map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "SessionStart", "additionalContext": context,
		}},
	}
	for i, a := range answers {
		files[fmt.Sprintf("answer-%d.json", i+1)] = a
	}
	for name, v := range files {
		if err := writeJSON(filepath.Join(h.dir, name), v); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeFile(filepath.Join(h.dir, "after-agent.count"), []byte("0\n")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "hook.sh"), []byte(geminiStandInScript), 0o755); err != nil {
		t.Fatal(err)
	}
	return h
}

// blockAnswer is the AfterAgent answer that makes the agent go on, with
// the reason as its next user message.
func blockAnswer(reason string) map[string]any {
	return map[string]any{"decision": "block", "reason": reason}
}

// blockAnswers makes one blockAnswer per reason.
func blockAnswers(reasons ...string) []any {
	var out []any
	for _, r := range reasons {
		out = append(out, blockAnswer(r))
	}
	return out
}

// register registers the script for AfterAgent and SessionStart.
func (h *geminiStandInHook) register(t *testing.T, p *project) {
	script := shellQuote(filepath.Join(h.dir, "hook.sh"))
	registerGeminiHooks(t, p.dir,
		geminiHook{"AfterAgent", "e2e-stop", script + " AfterAgent"},
		geminiHook{"SessionStart", "e2e-session-start", script + " SessionStart"},
	)
}

// hookInput is the part of a hook input the tests read.
type hookInput struct {
	SessionID      string `json:"session_id"`
	Event          string `json:"hook_event_name"`
	Cwd            string `json:"cwd"`
	Source         string `json:"source"` // SessionStart
	Prompt         string `json:"prompt"`
	PromptResponse string `json:"prompt_response"`
	StopHookActive bool   `json:"stop_hook_active"`
}

// inputs returns what the hook was given, call by call.
func (h *geminiStandInHook) inputs(t *testing.T) []hookInput {
	t.Helper()
	var out []hookInput
	scanLines(t, filepath.Join(h.dir, "inputs.jsonl"), func(line []byte) {
		if len(bytes.TrimSpace(line)) == 0 {
			return
		}
		var in hookInput
		if err := json.Unmarshal(line, &in); err != nil {
			t.Fatalf("hook input %q: %v", line, err)
		}
		out = append(out, in)
	})
	return out
}

// stateAt returns the state file as the n-th AfterAgent call found it.
func (h *geminiStandInHook) stateAt(t *testing.T, n int) state {
	t.Helper()
	s, err := readState(filepath.Join(h.dir, fmt.Sprintf("state-at-%d.json", n)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGeminiHarness proves the harness on the real Gemini CLI with a
// stand-in hook, before loophook speaks Gemini: every block buys one chat
// turn, whose new user message is the reason, verbatim; the SessionStart
// context reaches the first request, and again a resumed session's; the
// scripted edits land before the hook runs; --debug shows every hook run.
func TestGeminiHarness(t *testing.T) {
	t.Parallel()
	const (
		resumed = "Carry on with the loop."
		// Everything PROTOCOL.md says the CLI escapes or keeps.
		context    = `LOOP CONTEXT: goal is <ship> & "tests pass"`
		endMessage = "e2e: the loop is complete"
	)
	reasons := []string{
		"KEEP GOING: criterion <empty input parses> unmet & \"quoted\".\nNext: step 2 — ünïcode",
		"KEEP GOING: set exit_signal once everything is verified.",
	}
	turns := []turn{
		{edit: bump("iteration"), text: "Worked on iteration 1."},
		{edit: bump("iteration"), text: "Worked on iteration 2."},
		{edit: bump("iteration"), text: "Worked on iteration 3."},
		{edit: bump("iteration"), text: "Resumed: iteration 4."},
	}

	var hook *geminiStandInHook
	s := runGeminiScenario(t, geminiScenario{
		state:     loop("empty input parses"),
		turns:     turns,
		prompts:   []string{prompt, resumed},
		sessionID: sessionID,
		register: func(t *testing.T, p *project) {
			// Two blocks, {} (the agent stops), and in the resumed run a
			// systemMessage, as loophook answers when a loop has ended.
			answers := append(blockAnswers(reasons...), map[string]any{}, map[string]any{"systemMessage": endMessage})
			hook = newGeminiStandInHook(t, p, context, answers...)
			hook.register(t, p)
		},
	})

	// Model turns: 1 + blocks in the first run; the resumed run's hook
	// lets go at once.
	runs := s.runsTurns()
	if len(runs) != 2 {
		t.Fatalf("the chat turns make %d runs, want 2", len(runs))
	}
	if got, want := len(runs[0]), 1+len(reasons); got != want {
		t.Errorf("the first run took %d chat turns, want %d (1 + %d blocks)", got, want, len(reasons))
	}
	if got := len(runs[1]); got != 1 {
		t.Errorf("the resumed run took %d chat turns, want 1", got)
	}

	// Each reason reached the model verbatim, as the new user message.
	if got := s.api.blockReasons(); !slices.Equal(got, reasons) {
		t.Errorf("the model received block reasons %q, want %q", got, reasons)
	}

	// The context reached the first request of each run, escaped.
	for i, r := range runs {
		ct := r[0]
		switch {
		case !ct.hasContext:
			t.Errorf("run %d: the first request carries no <hook_context>: %q", i+1, ct.text)
		case ct.rawContext != escapeHookContext(context) || ct.context != context:
			t.Errorf("run %d: the first request's hook context is %q, want %q", i+1, ct.rawContext, escapeHookContext(context))
		}
	}
	// The resumed run went on with the conversation: its first request
	// holds the first run's turns and reasons before its prompt. (0.61.0
	// leaves the first run's prompt out of it: the history starts with
	// <session_context> and goes on with the first reply.)
	var history []string
	for _, c := range runs[1][0].req.Gen.Contents {
		history = append(history, c.Role+": "+strings.Join(c.texts(), "|"))
	}
	for _, want := range []string{
		"model: " + turns[0].text, "user: " + reasons[0],
		"model: " + turns[1].text, "user: " + reasons[1],
		"model: " + turns[2].text,
	} {
		if !slices.Contains(history, want) {
			t.Errorf("the resumed run's first request lacks %q from the first run", want)
		}
	}

	// The hook ran when and as the protocol says.
	var starts, stops []hookInput
	for _, in := range hook.inputs(t) {
		if in.SessionID != sessionID {
			t.Errorf("hook input for session %q, want the --session-id %q", in.SessionID, sessionID)
		}
		if in.Cwd != s.project.dir {
			t.Errorf("hook input cwd %q, want the project %q", in.Cwd, s.project.dir)
		}
		switch in.Event {
		case "SessionStart":
			starts = append(starts, in)
		case "AfterAgent":
			stops = append(stops, in)
		}
	}
	if got := sources(starts); !slices.Equal(got, []string{"startup", "resume"}) {
		t.Errorf("SessionStart sources %q, want startup then resume", got)
	}
	wantActive := []bool{false, true, true, false}
	var active []bool
	for _, in := range stops {
		active = append(active, in.StopHookActive)
	}
	if !slices.Equal(active, wantActive) {
		t.Errorf("AfterAgent stop_hook_active %v, want %v", active, wantActive)
	}
	if len(stops) == len(wantActive) {
		// prompt_response is cumulative over a prompt's chain of turns.
		if want := "Worked on iteration 1.\nWorked on iteration 2.\nWorked on iteration 3."; stops[2].PromptResponse != want {
			t.Errorf("the third AfterAgent's prompt_response is %q, want %q", stops[2].PromptResponse, want)
		}
		if want := turns[3].text; stops[3].PromptResponse != want {
			t.Errorf("the resumed AfterAgent's prompt_response is %q, want %q", stops[3].PromptResponse, want)
		}
	}
	// The scripted edit of turn n landed before the n-th AfterAgent call.
	for n := 1; n <= len(stops); n++ {
		if it := number(hook.stateAt(t, n)["iteration"]); it != float64(n) {
			t.Errorf("AfterAgent call %d found iteration %v, want %d", n, it, n)
		}
	}

	// A systemMessage is for the person: stderr has it, the model not.
	if got := s.runs[0].systemMessages(); len(got) != 0 {
		t.Errorf("run 1: hook system messages %q, want none", got)
	}
	if got := s.runs[1].systemMessages(); !slices.Equal(got, []string{endMessage}) {
		t.Errorf("run 2: hook system messages %q, want %q", got, endMessage)
	}

	// --debug accounts for every hook run, none failed (checked above).
	for i, want := range []struct{ starts, stops int }{{1, 3}, {1, 1}} {
		run := s.runs[i]
		if got := run.countHooks("SessionStart"); got != want.starts {
			t.Errorf("run %d: --debug reports %d SessionStart executions, want %d", i+1, got, want.starts)
		}
		if got := run.countHooks("AfterAgent"); got != want.stops {
			t.Errorf("run %d: --debug reports %d AfterAgent executions, want %d", i+1, got, want.stops)
		}
	}
}

// TestGeminiRunawayCap proves the stand-in's safety net: past its cap of
// chat requests it answers HTTP 400, which 0.61.0 does not retry; the run
// ends non-zero with no further AfterAgent call, so a hook that never lets
// the agent stop fails a test instead of hanging it.
func TestGeminiRunawayCap(t *testing.T) {
	t.Parallel()
	bundle := setupGemini(t)
	p := newProject(t, loop("empty input parses"))
	var reasons []string
	for i := range 10 {
		reasons = append(reasons, fmt.Sprintf("Keep going (%d).", i+1))
	}
	hook := newGeminiStandInHook(t, p, "C", blockAnswers(reasons...)...)
	hook.register(t, p)
	api := newGeminiAPI(t, []string{prompt}, p.statePath(), nil)
	store(&api.standIn, &api.maxChat, 3)

	run := runGemini(t, bundle, p, api.URL(), prompt)
	if run.exitCode == 0 {
		t.Errorf("gemini -p exited 0 after the stand-in refused a request")
	}
	if run.output.Error == nil || run.output.Error.Code != 400 {
		t.Errorf("the JSON summary's error is %+v, want code 400", run.output.Error)
	}
	if got := len(api.chatRequests()); got != api.maxChat+1 {
		t.Errorf("%d chat requests, want %d answered and one refused", got, api.maxChat)
	}
	if got := run.countHooks("AfterAgent"); got != api.maxChat {
		t.Errorf("AfterAgent ran %d times, want %d: once per answered turn", got, api.maxChat)
	}
	if errs := api.failures(); len(errs) != 1 || !strings.Contains(errs[0].Error(), "cap") {
		t.Errorf("the stand-in reports %v, want the runaway alone", errs)
	}
	if t.Failed() {
		t.Logf("stderr:\n%s", run.stderr)
	}
}

func sources(ins []hookInput) []string {
	var out []string
	for _, in := range ins {
		out = append(out, in.Source)
	}
	return out
}
