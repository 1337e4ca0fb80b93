//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The loophook tests on Codex CLI, Gemini CLI and Copilot CLI: the real
// loophook registered as each host's hooks with --protocol <host>, by hand
// through the host's harness (writeCodexHooks, registerGeminiHooks,
// writeCopilotHooks), and every command wrapped by a hookRecorder, so that
// a test reads what loophook answered. What loophook decided at each stop
// is read back from its own journal (loophook why --json).

// hostLoop is one loop as a host other than Claude Code and loophook run
// it together, in one headless run of prompt.
type hostLoop struct {
	name   string
	state  any // .loop/state.json; nil: none
	onLoop any // an on-loop session's state (onLoopState); nil: none
	turns  []turn
	// stopFlags are added to the registered stop command.
	stopFlags []string
	// config, when set, is the project's .loophook.json, approved.
	config string
	// wantRules are the journal's rules, stop by stop: every model turn
	// ends in a stop, so there are as many model turns; the loop ends at
	// the first rule that lets the agent stop (letsGo).
	wantRules []string
	// wantReasons[i] holds substrings of the i-th block's reason.
	wantReasons [][]string
}

// letsGo says whether a rule lets the agent stop.
func letsGo(rule string) bool {
	switch rule {
	case "unmet", "no-exit-signal", "assumption", "invalid-state", "no-marker", "check-failed":
		return false
	}
	return true
}

// onLoopSession is the on-loop session the on-loop scenarios run.
const onLoopSession = "20260101_000000_x"

// onLoopState is where on-loop keeps its session's state, for the project
// whose .loop/state.json is statePath: the stand-ins' turns edit
// statePath, and onLoop turns an edit of that into one of this.
func onLoopState(statePath string) string {
	return filepath.Join(filepath.Dir(filepath.Dir(statePath)), ".on-loop", "sessions", onLoopSession, "state.json")
}

// onLoop makes e edit the on-loop session's state instead.
func onLoop(e edit) edit {
	return func(path string) error { return e(onLoopState(path)) }
}

// advance completes the on-loop session's phase and moves it to next.
func advance(next string) edit {
	return onLoop(update(func(s state) {
		done, _ := s["phases_completed"].([]any)
		s["phases_completed"] = append(done, s["phase"])
		s["phase"] = next
	}))
}

// writeOnLoop writes sc's on-loop state into the project, if it has one,
// and its approved .loophook.json.
func (sc hostLoop) writeOnLoop(t *testing.T, p *project) {
	t.Helper()
	if sc.config != "" {
		approveConfig(t, p, sc.config)
	}
	if sc.onLoop == nil {
		return
	}
	if err := writeState(onLoopState(p.statePath()), sc.onLoop); err != nil {
		t.Fatal(err)
	}
}

// hostLoops are the loops every host runs: a hope loop to completion, an
// on-loop session through its last phases, the stuck breaker and the
// runaway guard. (The continuation limit is host by host: Copilot's own
// cap ends a turn first.)
func hostLoops() []hostLoop {
	three := []string{"empty input parses", "bad UTF-8 is rejected", "go vet is clean"}
	phases := []any{"INIT", "SPEC", "PLAN", "CODE", "TEST", "SECURITY", "DOC"}
	return []hostLoop{{
		// Rules 10, 12 and 14: one criterion a turn, then the exit signal.
		name:  "hope loop to completion",
		state: loop(three...),
		turns: []turn{
			progress(three[0]),
			progress(three[1]),
			progress(three[2]),
			{edit: set("exit_signal", true), text: "Verified everything; exit_signal set."},
		},
		wantRules:   []string{"unmet", "unmet", "no-exit-signal", "complete"},
		wantReasons: [][]string{{three[1], three[2], "step 2"}, {three[2], "step 3"}, {"exit_signal"}},
	}, {
		// Another dialect: an on-loop session finishes a phase a turn,
		// then claims COMPLETE with every phase completed.
		name: "on-loop session to COMPLETE",
		onLoop: map[string]any{
			"version": "1.1", "session_id": onLoopSession, "prompt": spec,
			"phase": "BUILD", "phases_completed": phases, "error": nil, "todos": []any{},
		},
		turns: []turn{
			{edit: advance("REVIEW"), text: "BUILD done."},
			{edit: advance("GIT"), text: "REVIEW done."},
			{edit: advance("COMPLETE"), text: "GIT done; the session is complete."},
		},
		wantRules:   []string{"unmet", "unmet", "complete"},
		wantReasons: [][]string{{"REVIEW", "GIT"}, {"GIT"}},
	}, {
		// Rule 6: a stuck iteration a turn opens the breaker at 5.
		name:  "stuck breaker",
		state: loop("empty input parses"),
		turns: repeat(6, turn{
			edit: edits(bumpStuck(), bump("iteration")),
			text: "Still failing the same way.",
		}),
		wantRules:   append(repeat(4, "unmet"), "circuit-open"),
		wantReasons: repeat(4, []string{"empty input parses"}),
	}, {
		// Rule 9: the state is never touched; the third continuation in
		// a row without progress lets the agent stop.
		name:        "runaway guard",
		state:       loop("empty input parses"),
		wantRules:   append(repeat(3, "unmet"), "guard"),
		wantReasons: repeat(3, []string{"empty input parses"}),
	}}
}

// ceilingLoop is rule 9b: progress every turn, for ever; with
// --max-continuations 6 the 6th continuation in a row is the last.
func ceilingLoop() hostLoop {
	return hostLoop{
		name:        "continuation ceiling",
		state:       with(loop("empty input parses"), "maxIterations", 40),
		turns:       repeat(10, turn{edit: bump("iteration"), text: "Another iteration, recorded."}),
		stopFlags:   []string{"--max-continuations", "6"},
		wantRules:   append(repeat(6, "unmet"), "continuation-limit"),
		wantReasons: repeat(6, []string{"empty input parses"}),
	}
}

// loophookCommands returns the hook commands that run the real loophook
// as host's hooks, recorded by rec under "stop" and "session-start".
func loophookCommands(t *testing.T, rec *hookRecorder, host string, stopFlags ...string) (stop, start string) {
	t.Helper()
	bin := loophookBinary(t)
	stop = strings.Join(append([]string{shellQuote(bin), "stop", "--protocol", host}, stopFlags...), " ")
	start = shellQuote(bin) + " session-start --protocol " + host
	return rec.wrap("stop", stop), rec.wrap("session-start", start)
}

// journalRules returns the rule of every stop loophook evaluated in the
// project, oldest first, from its journal.
func journalRules(t *testing.T, p *project) []string {
	t.Helper()
	bin := loophookBinary(t)
	cmd := exec.Command(bin, "why", "--json", "-n", "500", "--dir", p.dir)
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + p.home, "TMPDIR=" + p.tmp}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("loophook why --json: %v\n%s", err, out)
	}
	var entries []struct {
		Rule string `json:"rule"`
	}
	if err := json.Unmarshal(out, &entries); err != nil {
		t.Fatalf("loophook why --json: %v: %s", err, out)
	}
	var rules []string
	for _, e := range entries {
		rules = append(rules, e.Rule)
	}
	return rules
}

// stopAnswer is a Stop answer of loophook's, as recorded: a block, or
// Pi's continue and message.
type stopAnswer struct {
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	Continue      bool   `json:"continue"`
	Message       string `json:"message"`
	SystemMessage string `json:"systemMessage"`
}

// holds says whether the answer keeps the agent working, and with what.
func (a stopAnswer) holds() (reason string, ok bool) {
	switch {
	case a.Decision == "block" && a.Reason != "":
		return a.Reason, true
	case a.Continue && a.Message != "":
		return a.Message, true
	}
	return "", false
}

// checkHostLoop checks a loop's stops against what the model got: the
// journal's rules are wantRules; loophook answered a block at each rule
// that holds the agent and let go at the others (with a systemMessage
// saying why when tells, as Codex and Gemini show one); the model got
// each block's reason, word for word, as the next turn's new message
// (modelReasons, over all runs, in order), and the first ignored of them
// not at all (a host cap's); each reason names what wantReasons says.
func checkHostLoop(t *testing.T, p *project, rec *hookRecorder, wantRules []string, wantReasons [][]string,
	modelReasons []string, ignored int, tells bool) {
	t.Helper()
	if got := journalRules(t, p); !slices.Equal(got, wantRules) {
		t.Errorf("loophook's journal has the rules %q, want %q", got, wantRules)
	}
	raw := rec.answers(t, "stop")
	if len(raw) != len(wantRules) {
		t.Errorf("loophook answered %d stops, want %d", len(raw), len(wantRules))
	}
	var blocks []string
	for i, line := range raw {
		var a stopAnswer
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Errorf("stop %d: the answer is not one JSON object: %v: %q", i+1, err, line)
			continue
		}
		if i >= len(wantRules) {
			continue
		}
		reason, held := a.holds()
		switch rule := wantRules[i]; {
		case !letsGo(rule):
			if !held {
				t.Errorf("stop %d (%s): answered %s, want a block with a reason", i+1, rule, line)
			}
			blocks = append(blocks, reason)
		case a.Decision != "" || a.Continue:
			t.Errorf("stop %d (%s): answered %s, want to let the agent stop", i+1, rule, line)
		case tells && !strings.HasPrefix(a.SystemMessage, "loophook: "):
			t.Errorf("stop %d (%s): answered %s, want a systemMessage saying why the loop ended", i+1, rule, line)
		case !tells && line != "{}":
			t.Errorf("stop %d (%s): answered %s, want {}", i+1, rule, line)
		default:
			t.Logf("stop %d (%s): %s", i+1, rule, line)
		}
	}
	if n := len(blocks) - ignored; n >= 0 && !slices.Equal(modelReasons, blocks[:n]) {
		t.Errorf("the model was sent the reasons\n%q\nloophook blocked with\n%q", modelReasons, blocks[:n])
	}
	for i, want := range wantReasons {
		if i >= len(blocks) {
			t.Errorf("block %d never happened", i+1)
			continue
		}
		for _, sub := range want {
			if !strings.Contains(blocks[i], sub) {
				t.Errorf("block %d: the reason does not mention %q:\n%s", i+1, sub, blocks[i])
			}
		}
	}
}

// sessionContextOf returns the additionalContext of the n-th (from 1)
// recorded session-start answer, at the top level (Copilot) or under
// hookSpecificOutput (Codex, Gemini), or Pi's message.
func sessionContextOf(t *testing.T, rec *hookRecorder, n int) string {
	t.Helper()
	answers := rec.answers(t, "session-start")
	if len(answers) < n {
		t.Fatalf("loophook answered %d session starts, want at least %d", len(answers), n)
	}
	var a struct {
		AdditionalContext  string `json:"additionalContext"`
		Message            string `json:"message"` // Pi's
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(answers[n-1]), &a); err != nil {
		t.Fatalf("session start %d: %v: %q", n, err, answers[n-1])
	}
	return a.AdditionalContext + a.HookSpecificOutput.AdditionalContext + a.Message
}

// resumeLoop is the loop of the resume tests: the first run records one
// criterion of two and then no progress, so that the runaway guard ends
// it (rules unmet, then three more stops: unmet, unmet, guard); the
// resumed run's SessionStart context names the criterion still unmet, and
// the agent finishes the loop (no-exit-signal, complete).
var resumeCriteria = []string{"empty input parses", "bad UTF-8 is rejected"}

func resumeLoop() hostLoop {
	return hostLoop{
		name:  "resume",
		state: loop(resumeCriteria...),
		turns: []turn{
			progress(resumeCriteria[0]),
			{text: "Looked around; nothing recorded."},
			{text: "Still nothing recorded."},
			{text: "Nothing recorded again."},
			progress(resumeCriteria[1]),
			{edit: set("exit_signal", true), text: "Verified everything; exit_signal set."},
		},
		wantRules:   []string{"unmet", "unmet", "unmet", "guard", "no-exit-signal", "complete"},
		wantReasons: [][]string{{resumeCriteria[1]}, {resumeCriteria[1]}, {resumeCriteria[1]}, {"exit_signal"}},
	}
}

const resumePrompt = "Pick the loop up where it stopped."

// checkResumeContext checks the resumed session's context as loophook
// answered it (the n-th session start) and as the model got it.
func checkResumeContext(t *testing.T, rec *hookRecorder, n int, got string) {
	t.Helper()
	want := sessionContextOf(t, rec, n)
	for _, sub := range []string{"Unmet criteria (1 of 2)", resumeCriteria[1]} {
		if !strings.Contains(want, sub) {
			t.Errorf("the resumed session's context does not mention %q:\n%s", sub, want)
		}
	}
	if got != want {
		t.Errorf("the model got the resumed session's context\n%q\nloophook answered\n%q", got, want)
	}
}

// acceptLoop is the escape through the shell tool (issues 22 and 30): the
// agent meets one criterion of two, then drops the other from the state,
// sets exit_signal and runs loophook accept, then loophook cancel, with the
// host's shell tool. Both are refused, the dropped criterion held as
// removed (a cancel that went through would let the next stop go), and,
// the agent doing nothing more, the runaway guard ends the session.
var acceptCriteria = []string{"empty input parses", "bad UTF-8 is rejected"}

func acceptLoop(t *testing.T) hostLoop {
	two := acceptCriteria
	loophook := shellQuote(loophookBinary(t))
	return hostLoop{
		name:  "agent's own accept and cancel refused",
		state: loop(two...),
		turns: []turn{progress(two[0]), {
			edit: edits(set("criteria", []string{two[0]}), set("exit_signal", true)),
			text: "Dropped the UTF-8 criterion; accepting the change, or else cancelling the loop.",
			bash: loophook + " accept; " + loophook + " cancel",
		}},
		wantRules:   []string{"unmet", "unmet", "unmet", "unmet", "guard"},
		wantReasons: append([][]string{{two[1]}}, repeat(3, []string{"removed from the state", two[1]})...),
	}
}

// checkAcceptRefused checks what the agent's commands printed (outputs,
// as the host sent them to the model) for the refusals of loophook accept
// and loophook cancel (and of any further acts named), in the words that
// name the host's marker variable, as its shell tool set it, and that the
// contract still holds the dropped criterion.
func checkAcceptRefused(t *testing.T, p *project, outputs []string, marker string, acts ...string) {
	t.Helper()
	logOutputs(t, outputs)
	for _, act := range append([]string{"accept", "cancel"}, acts...) {
		checkActRefused(t, outputs, marker, act)
	}
	checkContractHolds(t, p, acceptCriteria[1])
}

// checkRefusal checks that one of outputs says loophook accept was
// refused for marker.
func checkRefusal(t *testing.T, outputs []string, marker string) {
	t.Helper()
	logOutputs(t, outputs)
	checkActRefused(t, outputs, marker, "accept")
}

func logOutputs(t *testing.T, outputs []string) {
	t.Helper()
	for _, out := range outputs {
		t.Logf("the shell tool's output: %s", out)
	}
}

// checkActRefused checks that one of outputs says the person's act (accept,
// cancel, "init over the unfinished loop") was refused for marker.
func checkActRefused(t *testing.T, outputs []string, marker, act string) {
	t.Helper()
	refused := false
	for _, out := range outputs {
		for line := range strings.Lines(out) {
			refused = refused || strings.Contains(line, act) && strings.Contains(line, "is a person's act") && strings.Contains(line, "("+marker+" is set)")
		}
	}
	if !refused {
		t.Errorf("no output of the shell tool says loophook %s was refused for %s: %q", act, marker, outputs)
	}
}
