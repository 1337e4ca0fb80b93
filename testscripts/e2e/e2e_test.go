//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

const (
	// Every session runs under a fixed id (--session-id) so that a state
	// can name it, or name another session. Each test has its own HOME,
	// so the ids never collide.
	sessionID      = "0e2e0000-1005-4000-8000-000000000001"
	otherSessionID = "0e2e0000-1005-4000-8000-000000000002"

	prompt = "Work the loop in .loop/state.json until it is done."
	spec   = "Make the config parser handle every input."
)

// scenario is one loop as Claude Code and loophook run it together.
type scenario struct {
	name  string
	state any    // the initial .loop/state.json; nil: no loop at all
	turns []turn // the scripted agent, turn by turn

	wantTurns int // main-loop model requests: 1 + the times loophook blocked
	// wantReasons[i] holds substrings of the reason of the i-th block
	// (nil: the reasons are not checked); it has wantTurns-1 entries.
	wantReasons [][]string
	// wantContext holds substrings of the SessionStart additionalContext
	// that must reach the first request; noContext says none may.
	wantContext []string
	noContext   bool
	// wantEndMessage says the last Stop answer carries a systemMessage,
	// as SPEC.md §3 asks when a loop just ended (complete, limit,
	// breaker, guard, budget, must-not), and not when nothing governed.
	wantEndMessage bool
}

// completionScenario is rules 10 (unmet), 12 (no-exit-signal) and 14
// (complete): one criterion per turn, then the explicit exit signal, in a
// loop that governs this session, and the SessionStart context.
func completionScenario() scenario {
	three := []string{"empty input parses", "bad UTF-8 is rejected", "go vet is clean"}
	return scenario{
		name:  "progress to completion",
		state: with(loop(three...), "session_id", sessionID),
		turns: []turn{
			progress(three[0]),
			progress(three[1]),
			progress(three[2]),
			{edit: set("exit_signal", true), text: "Verified everything; exit_signal set."},
		},
		wantTurns: 4,
		wantReasons: [][]string{
			{three[1], three[2], "step 2"},
			{three[2], "step 3"},
			{"exit_signal"},
		},
		wantContext:    []string{spec, three[0], three[1], three[2], "step 1"},
		wantEndMessage: true,
	}
}

// guardScenario is rule 9: the agent never touches the state. The first
// stop (stop_hook_active false) blocks on rule 10; the next three have
// stop_hook_active true and the file unchanged, and the third of them
// (guard limit 3) lets the session end, not Claude Code's cap of 8 blocks.
func guardScenario() scenario {
	return scenario{
		name:           "runaway guard",
		state:          loop("empty input parses"),
		wantTurns:      4,
		wantReasons:    repeat(3, []string{"empty input parses"}),
		wantContext:    []string{spec, "empty input parses"},
		wantEndMessage: true,
	}
}

// TestLoop runs each scenario as a real headless Claude Code session with
// loophook as its hooks. The turn counts follow from SPEC.md §2: the
// scripted agent edits the state before each reply, loophook evaluates it
// after each reply, and every block buys exactly one more turn.
func TestLoop(t *testing.T) {
	twelve := names(12)

	scenarios := []scenario{completionScenario(), {
		// Rule 6: the agent records a stuck iteration each turn; the
		// breaker opens when stuckCount reaches 5.
		name:  "stuck breaker",
		state: loop("empty input parses"),
		turns: repeat(10, turn{
			edit: edits(bumpStuck(), bump("iteration")),
			text: "Still failing the same way.",
		}),
		wantTurns:      5,
		wantReasons:    repeat(4, []string{"empty input parses"}),
		wantContext:    []string{spec, "empty input parses"},
		wantEndMessage: true,
	}, {
		// Rule 7: iteration reaches maxIterations 3 on the third turn.
		name:  "iteration limit",
		state: with(loop("empty input parses"), "maxIterations", 3),
		turns: repeat(10, turn{
			edit: bump("iteration"),
			text: "Another iteration, not there yet.",
		}),
		wantTurns:      3,
		wantReasons:    repeat(2, []string{"empty input parses"}),
		wantContext:    []string{spec, "empty input parses"},
		wantEndMessage: true,
	}, guardScenario(), {
		// Rule 3, then normal work: the state fails the schema, the
		// block names the bad field's JSON pointer, the agent repairs
		// the file, and the loop goes on to completion.
		name: "invalid state then repaired",
		state: `{"spec": "` + spec + `", "criteria": ["tests pass"],
 "criteriaStatus": {"tests pass": "yes"}, "exit_signal": false, "iteration": 0}
`,
		turns: []turn{
			{text: "Looking at the state file."},
			{edit: replace(with(loop("tests pass"), "criteriaStatus", map[string]any{"tests pass": false})),
				text: "Repaired the state file."},
			{edit: edits(meet("tests pass"), set("exit_signal", true)), text: "Tests pass; done."},
		},
		wantTurns: 3,
		wantReasons: [][]string{
			// SPEC.md's own example of a problem and its pointer.
			{"state.json", "/criteriaStatus/tests pass: expected boolean or object, got string"},
			{"tests pass"},
		},
		wantEndMessage: true,
	}, {
		// Rule 5: the agent records that a must-not happened.
		name:  "must-not",
		state: with(loop("empty input parses"), "mustNot", []string{"user data is deleted"}),
		turns: []turn{
			{text: "Working."},
			{edit: set("mustNotStatus", map[string]any{"user data is deleted": true}), text: "Oops."},
		},
		wantTurns:      2,
		wantReasons:    [][]string{{"empty input parses"}},
		wantContext:    []string{spec},
		wantEndMessage: true,
	}, {
		// Rule 8: spend reaches the budget on the second turn.
		name:  "budget",
		state: with(loop("empty input parses"), "cost", 0, "budget", 5),
		turns: []turn{
			{edit: set("cost", 2.5), text: "Spent some."},
			{edit: set("cost", 5), text: "Spent the rest."},
		},
		wantTurns:      2,
		wantReasons:    [][]string{{"empty input parses"}},
		wantContext:    []string{spec},
		wantEndMessage: true,
	}, {
		// Rule 4: a paused loop does not hold the session, and a pause
		// with work unmet is told to the person (SPEC §2 rule 4).
		name:           "paused",
		state:          with(loop("empty input parses"), "status", "paused"),
		wantTurns:      1,
		noContext:      true,
		wantEndMessage: true,
	}, {
		// Rule 4 again: nor does a cancelled one, told likewise.
		name:           "cancelled",
		state:          with(loop("empty input parses"), "status", "cancelled"),
		wantTurns:      1,
		noContext:      true,
		wantEndMessage: true,
	}, {
		// Rule 1: no .loop at all.
		name:      "no loop",
		wantTurns: 1,
		noContext: true,
	}, {
		// Rule 2: the loop belongs to another session.
		name:      "another session's loop",
		state:     with(loop("empty input parses"), "session_id", otherSessionID),
		wantTurns: 1,
		noContext: true,
	}, {
		// More blocks in a row than Claude Code's default cap of 8: only
		// the CLAUDE_CODE_STOP_HOOK_BLOCK_CAP the install sets lets the
		// loop run to its own end (12 criteria, then the exit signal).
		name:           "longer than the default block cap",
		state:          with(loop(twelve...), "maxIterations", 20),
		turns:          append(progressAll(twelve), turn{edit: set("exit_signal", true), text: "All verified."}),
		wantTurns:      13,
		wantReasons:    append(nextUnmet(twelve), []string{"exit_signal"}),
		wantContext:    []string{spec, twelve[0], twelve[11]},
		wantEndMessage: true,
	}}

	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			runScenario(t, sc)
		})
	}
}

// runScenario sets up the scenario's project, runs the session and checks
// what the stand-in, the transcript and Claude Code's summary saw.
func runScenario(t *testing.T, sc scenario) {
	claude, loophook := setup(t)
	p := newProject(t, sc.state)
	installHooks(t, p.dir, loophook)
	api := newStubAPI(t, prompt, p.statePath(), sc.turns)
	run := logged(t, api, func() *claudeRun { return runClaude(t, claude, p, api.URL(), prompt, sessionID) })
	checkSession(t, sc, api, run, stopCommand(t, p.dir))
}

// checkSession checks what the stand-in, the transcript and Claude Code's
// summary saw of a scenario's session; command is the Stop hook command
// that Claude Code quotes back when the hook blocks.
func checkSession(t *testing.T, sc scenario, api *stubAPI, run *claudeRun, command string) {
	t.Helper()
	for _, err := range api.failures() {
		t.Error(err)
	}
	if run.result.IsError {
		t.Errorf("claude -p reported an error: %+v", run.result)
	}
	// The session-scoped scenarios rely on --session-id being the id the
	// hooks see.
	if run.result.SessionID != sessionID {
		t.Errorf("claude ran session %q, want %q", run.result.SessionID, sessionID)
	}
	main := api.mainRequests()
	if len(main) == 0 {
		t.Fatal("the stand-in got no main-loop request")
	}
	if len(main) != sc.wantTurns {
		t.Errorf("the loop took %d main-loop turns, want %d", len(main), sc.wantTurns)
	}
	// Claude Code's own count, as a check on how requests are classified;
	// it counts the request that brings a Bash call's output back too.
	calls := 0
	for _, tu := range sc.turns[:min(len(main), len(sc.turns))] {
		if tu.bash != "" {
			calls++
		}
	}
	if run.result.NumTurns != len(main)+calls {
		t.Errorf("claude reports num_turns %d, the stand-in counted %d main-loop requests and %d Bash calls", run.result.NumTurns, len(main), calls)
	}

	checkStops(t, sc, run, main, command)
	checkSessionStart(t, sc, run, main[0])
}

// checkStops checks what the Stop hook said each turn, as the model got it
// and as the transcript recorded it.
func checkStops(t *testing.T, sc scenario, run *claudeRun, main []*apiRequest, command string) {
	t.Helper()
	stops := run.hookRuns("Stop")
	if len(stops) != len(main) {
		t.Errorf("the Stop hook ran %d times over %d turns, want once a turn", len(stops), len(main))
	}

	// Every turn after the first exists because the hook blocked the one
	// before it; its request carries the reason, in two forms.
	reasons := make([]string, 0, len(main))
	for i, req := range main[1:] {
		reason, err := blockReason(req.Msg, command)
		if err != nil {
			t.Errorf("turn %d: %v", i+2, err)
			continue
		}
		reasons = append(reasons, reason)
		t.Logf("block %d: %s", i+1, reason)
		if i < len(stops) && stops[i].reason != reason {
			t.Errorf("block %d: the transcript has reason %q, the model got %q", i+1, stops[i].reason, reason)
		}
	}
	if sc.wantReasons != nil {
		if len(sc.wantReasons) != sc.wantTurns-1 {
			t.Fatalf("scenario bug: %d wantReasons for %d turns", len(sc.wantReasons), sc.wantTurns)
		}
		for i, want := range sc.wantReasons {
			if i >= len(reasons) {
				break
			}
			for _, sub := range want {
				if !strings.Contains(reasons[i], sub) {
					t.Errorf("block %d: reason does not mention %q:\n%s", i+1, sub, reasons[i])
				}
			}
		}
	}

	// The last Stop evaluation let the session end: loophook answered
	// something other than a block, with a systemMessage when a loop
	// just ended.
	if len(stops) == 0 {
		return
	}
	last := stops[len(stops)-1]
	if last.blocked {
		t.Fatalf("the last Stop hook run blocked (reason %q): Claude Code ended the turn itself, not loophook", last.reason)
	}
	var answer map[string]any
	if err := json.Unmarshal([]byte(last.stdout), &answer); err != nil {
		t.Fatalf("the last Stop answer is not one JSON object: %v: %q", err, last.stdout)
	}
	if d, ok := answer["decision"]; ok && d == "block" {
		t.Errorf("the last Stop answer is a block, yet the session ended: %s", last.stdout)
	}
	msg, _ := answer["systemMessage"].(string)
	switch {
	case sc.wantEndMessage && msg == "":
		t.Errorf("the last Stop answer has no systemMessage saying why the loop ended: %s", last.stdout)
	case !sc.wantEndMessage && len(answer) != 0:
		t.Errorf("the last Stop answer is %s, want {} (no loop governs this session)", last.stdout)
	}
	t.Logf("the last Stop answer: %s", last.stdout)
}

// blockReason returns the reason a Stop hook block fed back to the model,
// checking both forms 2.1.330 sends: the user message "Stop hook
// feedback:\n<reason>" and, last of all, a system message naming the hook
// command.
func blockReason(req messagesRequest, command string) (string, error) {
	user := req.lastUser()
	reason, ok := stopFeedback(user)
	if !ok {
		return "", fmt.Errorf("the last user message is not Stop hook feedback: %q", user)
	}
	last := req.Messages[len(req.Messages)-1]
	if want := blockingError(command, reason); last.Role != "system" || last.text() != want {
		return reason, fmt.Errorf("the last message is %s %q, want system %q", last.Role, last.text(), want)
	}
	return reason, nil
}

// sessionContextPrefix is how 2.1.330 introduces a SessionStart hook's
// additionalContext to the model, in a role "system" message that also
// holds the environment section.
const sessionContextPrefix = "SessionStart hook additional context: "

// checkSessionStart checks that what loophook's SessionStart hook answered
// reached the first model request.
func checkSessionStart(t *testing.T, sc scenario, run *claudeRun, first *apiRequest) {
	t.Helper()
	starts := run.hookRuns("SessionStart")
	if len(starts) != 1 || starts[0].blocked {
		t.Fatalf("want one SessionStart hook run, got %+v", starts)
	}
	var answer struct {
		HookSpecificOutput *struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(starts[0].stdout), &answer); err != nil {
		t.Fatalf("the SessionStart answer is not JSON: %v: %q", err, starts[0].stdout)
	}
	t.Logf("SessionStart answer: %s", starts[0].stdout)
	system := strings.Join(first.Msg.systemTexts(), "\n")

	if sc.noContext {
		if answer.HookSpecificOutput != nil {
			t.Errorf("SessionStart answered %s, want {} (no in-progress loop governs this session)", starts[0].stdout)
		}
		if strings.Contains(system, sessionContextPrefix) {
			t.Errorf("the first request carries SessionStart context, want none")
		}
		return
	}
	if sc.wantContext == nil {
		return
	}
	if answer.HookSpecificOutput == nil || answer.HookSpecificOutput.AdditionalContext == "" {
		t.Fatalf("SessionStart answered %s, want additionalContext about the loop", starts[0].stdout)
	}
	ctx := answer.HookSpecificOutput.AdditionalContext
	if name := answer.HookSpecificOutput.HookEventName; name != "SessionStart" {
		t.Errorf("hookEventName %q, want SessionStart", name)
	}
	if !strings.Contains(system, sessionContextPrefix+ctx) {
		t.Errorf("the first request's system prompt lacks %q", sessionContextPrefix+ctx)
	}
	for _, sub := range sc.wantContext {
		if !strings.Contains(ctx, sub) {
			t.Errorf("SessionStart context does not mention %q:\n%s", sub, ctx)
		}
	}
}

// logged runs start and, should the test fail, tells its reader what the
// stand-in and the run saw.
func logged(t *testing.T, api *stubAPI, start func() *claudeRun) *claudeRun {
	var run *claudeRun
	t.Cleanup(func() {
		if t.Failed() {
			logRun(t, api, run)
		}
	})
	run = start()
	return run
}

// logRun tells a failing test's reader what happened.
func logRun(t *testing.T, api *stubAPI, run *claudeRun) {
	for i, req := range api.mainRequests() {
		t.Logf("main-loop request %d: last user message %q", i+1, req.Msg.lastUser())
	}
	for _, req := range api.sideRequests() {
		t.Logf("side request: %s %s model=%s max_tokens=%d tools=%d last user %q",
			req.Method, req.Path, req.Msg.Model, req.Msg.MaxTokens, len(req.Msg.Tools), req.Msg.lastUser())
	}
	if run == nil { // claude itself failed, and said how
		return
	}
	for i, h := range run.hookRuns("Stop") {
		t.Logf("Stop hook run %d: %+v", i+1, h)
	}
	t.Logf("claude stdout: %s\nclaude stderr: %s", run.stdout, run.stderr)
	t.Logf("hook lines of %s:\n%s", run.debugLog, run.debugTail())
}

// TestSideRequestsAreNotTurns checks the stand-in's split of main-loop
// and side requests, which every turn count above relies on, by making
// Claude Code send a side request: a prompt-type Stop hook asks the model
// whether the session may end.
func TestSideRequestsAreNotTurns(t *testing.T) {
	t.Parallel()
	claude, _ := setup(t)
	p := newProject(t, nil)
	settings := map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "prompt", "prompt": "Is the work done? $ARGUMENTS"},
	}}}}}
	if err := writeJSON(filepath.Join(p.dir, ".claude", "settings.json"), settings); err != nil {
		t.Fatal(err)
	}
	api := newStubAPI(t, prompt, p.statePath(), nil)
	run := runClaude(t, claude, p, api.URL(), prompt, sessionID)

	if main := api.mainRequests(); len(main) != 1 {
		t.Errorf("%d main-loop requests, want 1", len(main))
	}
	var asked int
	for _, req := range api.sideRequests() {
		if req.Path == "/v1/messages" {
			asked++
		}
	}
	if asked == 0 {
		t.Errorf("the prompt hook's request was not seen as a side request")
	}
	if run.result.NumTurns != 1 {
		t.Errorf("claude reports num_turns %d, want 1", run.result.NumTurns)
	}
}

// ---- The scripted agent and its states ----

// loop returns an in-progress state with the given criteria, all unmet,
// and one plan step per criterion.
func loop(criteria ...string) state {
	steps := make([]string, len(criteria))
	for i, c := range criteria {
		steps[i] = "step " + fmt.Sprint(i+1) + ": make " + c + " hold"
	}
	return state{
		"spec":           spec,
		"criteria":       criteria,
		"criteriaStatus": map[string]any{},
		"exit_signal":    false,
		"status":         "in_progress",
		"iteration":      0,
		"maxIterations":  10,
		"remainingSteps": steps,
		"completedSteps": []string{},
	}
}

// with returns s with the key/value pairs set.
func with(s state, kv ...any) state {
	for i := 0; i+1 < len(kv); i += 2 {
		s[kv[i].(string)] = kv[i+1]
	}
	return s
}

// names returns n criterion names.
func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("criterion %02d", i+1)
	}
	return out
}

// nextStep moves the first remaining step to the completed ones.
func nextStep() edit {
	return update(func(s state) {
		rem, _ := s["remainingSteps"].([]any)
		if len(rem) == 0 {
			return
		}
		done, _ := s["completedSteps"].([]any)
		s["completedSteps"] = append(done, rem[0])
		s["remainingSteps"] = rem[1:]
	})
}

// progress is the turn of an agent that does what the plan says: it
// makes one criterion hold, records it, and counts the iteration.
func progress(criterion string) turn {
	return turn{
		edit: edits(meet(criterion), nextStep(), bump("iteration")),
		text: "Made " + criterion + " hold and recorded it.",
	}
}

// repeat returns n copies of v.
func repeat[T any](n int, v T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// progressAll makes the criteria hold one per turn, in order.
func progressAll(criteria []string) []turn {
	var out []turn
	for _, c := range criteria {
		out = append(out, progress(c))
	}
	return out
}

// nextUnmet expects each block after criterion i was met to name
// criterion i+1, for all but the last criterion.
func nextUnmet(criteria []string) [][]string {
	var out [][]string
	for _, c := range criteria[1:] {
		out = append(out, []string{c})
	}
	return out
}
