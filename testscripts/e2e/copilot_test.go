//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// copilotScenario is one Copilot CLI session in a scratch project, with
// the hooks under test registered by register.
type copilotScenario struct {
	state    any                            // the initial .loop/state.json; nil: no loop at all
	register func(t *testing.T, p *project) // registers the hooks, as a person or an installer would
	turns    []turn                         // the scripted agent, turn by turn, over all prompts
	// prompts are the session's prompts: the first starts it (-p with
	// --trust-folder), each later one resumes it (-p with --continue).
	// None: one run of prompt.
	prompts []string
	// sessionID, when set, pins the session's id: every run passes
	// --session-id instead (and trusts the folder in config.json, since
	// --trust-folder is refused with it), for states that name a session.
	sessionID string
}

// runCopilotScenario runs the scenario's session and checks what every
// test needs to hold before its own checks mean anything: each run
// exited 0, never went past the stand-in's limit, and sent its prompt as
// its first turn. The session it returns holds each run's model requests,
// hook runs (events.jsonl) and log.
func runCopilotScenario(t *testing.T, sc copilotScenario) *copilotSession {
	t.Helper()
	cli := setupCopilot(t)
	p := newProject(t, sc.state)
	sc.register(t, p)
	api := newCopilotAPI(t, p.statePath(), sc.turns)
	s := newCopilotSession(cli, p, api)
	s.sessionID = sc.sessionID
	t.Cleanup(func() {
		if t.Failed() {
			s.logRuns(t)
		}
	})
	prompts := sc.prompts
	if len(prompts) == 0 {
		prompts = []string{prompt}
	}
	for _, pr := range prompts {
		r := s.run(t, pr)
		for _, req := range r.requests {
			if req.Refused {
				t.Fatalf("copilot %v went past the stand-in's limit of %d model requests", r, api.limit)
			}
		}
		if r.exitCode != 0 {
			t.Fatalf("copilot %v exited %d\nstderr: %s", r, r.exitCode, r.stderr)
		}
		turns := r.turns()
		if len(turns) == 0 {
			t.Fatalf("copilot %v sent the stand-in no conversation turn", r)
		}
		if got, err := turns[0].newUserText(); err != nil || got != pr {
			t.Fatalf("copilot %v: the first turn brings %q (%v), want the prompt %q", r, got, err, pr)
		}
	}
	for _, err := range api.failures() {
		t.Error(err)
	}
	return s
}

// logRuns tells a failing test's reader what each run did.
func (s *copilotSession) logRuns(t *testing.T) {
	for _, r := range s.runs {
		t.Logf("---- %v, exit %d, files in %s", r, r.exitCode, r.dir)
		for i, req := range r.requests {
			text, err := req.newUserText()
			if err != nil {
				text = err.Error()
			}
			t.Logf("request %d: %s %s x-interaction-type=%q refused=%v: %q", i+1, req.Method, req.Path, req.Interaction, req.Refused, text)
		}
		for _, typ := range []string{"sessionStart", "agentStop"} {
			for i, h := range r.hookRuns(typ) {
				t.Logf("%s %d: input %s output %s success %v", typ, i+1, h.Input, h.Output, h.Success)
			}
		}
		t.Logf("hook lines of the log:\n%s", strings.Join(r.logLines("hook", "Hook"), "\n"))
		t.Logf("stdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
}

// copilotStandIn is a hook script the test controls: its k-th call answers
// the k-th of its answers (the last one again once past the list). It
// keeps, per call, the input, the environment and a copy of the state file
// as the call found it.
type copilotStandIn struct {
	dir     string // the script, its answers, what it kept
	command string // what to register
}

const copilotStandInScript = `#!/bin/sh
d=$(dirname "$0")
input=$(cat)
printf '%s\n' "$input" >> "$d/inputs"
n=$(($(wc -l < "$d/inputs")))
env > "$d/env-$n"
state="$COPILOT_PROJECT_DIR/.loop/state.json"
if [ -f "$state" ]; then cp "$state" "$d/state-$n"; fi
f="$d/answer-$n"
if [ ! -f "$f" ]; then f="$d/answer-last"; fi
cat "$f"
`

func newCopilotStandIn(t *testing.T, name string, answers ...string) *copilotStandIn {
	t.Helper()
	h := &copilotStandIn{dir: filepath.Join(t.TempDir(), name)}
	files := map[string]string{"hook.sh": copilotStandInScript, "answer-last": answers[len(answers)-1]}
	for i, a := range answers {
		files["answer-"+strconv.Itoa(i+1)] = a
	}
	for name, content := range files {
		if err := writeFile(filepath.Join(h.dir, name), []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(h.dir, "hook.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.command = "'" + filepath.Join(h.dir, "hook.sh") + "'"
	return h
}

// inputs returns the inputs of the hook's calls, in order.
func (h *copilotStandIn) inputs(t *testing.T) []map[string]any {
	t.Helper()
	return readInputs(t, filepath.Join(h.dir, "inputs"))
}

// env returns the environment of the hook's k-th call (from 1).
func (h *copilotStandIn) env(t *testing.T, k int) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(h.dir, "env-"+strconv.Itoa(k)))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = v
		}
	}
	return env
}

// state returns the state file as the hook's k-th call found it.
func (h *copilotStandIn) state(t *testing.T, k int) state {
	t.Helper()
	s, err := readState(filepath.Join(h.dir, "state-"+strconv.Itoa(k)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// registerCopilotStandIns registers the stand-in hooks in the project's
// .github/hooks/loophook.json, where `loophook install --host copilot`
// will register loophook.
func registerCopilotStandIns(stop, start *copilotStandIn) func(t *testing.T, p *project) {
	return func(t *testing.T, p *project) {
		t.Helper()
		hooks := map[string][]copilotHook{
			"agentStop":    {{Type: "command", Bash: stop.command, TimeoutSec: 30}},
			"sessionStart": {{Type: "command", Bash: start.command, TimeoutSec: 30}},
		}
		if err := writeCopilotHooks(p.dir, "loophook.json", hooks); err != nil {
			t.Fatal(err)
		}
	}
}

// copilotBlock is an agentStop answer: go on, with reason.
func copilotBlock(reason string) string {
	b, _ := json.Marshal(map[string]string{"decision": "block", "reason": reason})
	return string(b)
}

// copilotContextAnswer is a sessionStart answer: context for the model.
func copilotContextAnswer(ctx string) string {
	b, _ := json.Marshal(map[string]string{"additionalContext": ctx})
	return string(b)
}

// copilotReason is the reason of the stand-in's i-th block: with a quote, a
// newline and non-ASCII text, which must all reach the model intact.
func copilotReason(i int) string {
	return fmt.Sprintf("Block %d: \"criterion %d\" is unmet.\nNext step — make it hold.", i, i)
}

// TestCopilotHarness proves the harness with stand-in hooks before it
// carries loophook: that the real Copilot CLI, driven headless against the
// stand-in, runs agentStop and sessionStart hooks from
// .github/hooks/loophook.json, gives the model each block reason and the
// session context, resumes with --continue, and caps a turn at 8
// continuations (PROTOCOL.md sections 4 to 8).
func TestCopilotHarness(t *testing.T) {
	const ctx = "Loop in progress (iteration 0/10): the config parser. Unmet: empty input parses."

	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprintf("blocks %d then lets go", n), func(t *testing.T) {
			t.Parallel()
			var answers, want []string
			for i := 1; i <= n; i++ {
				answers = append(answers, copilotBlock(copilotReason(i)))
				want = append(want, copilotReason(i))
			}
			stop := newCopilotStandIn(t, "agentStop", append(answers, "{}")...)
			start := newCopilotStandIn(t, "sessionStart", copilotContextAnswer(ctx))
			s := runCopilotScenario(t, copilotScenario{
				state:    loop("empty input parses"),
				register: registerCopilotStandIns(stop, start),
				// The agent counts its iterations, so the hook can
				// tell it sees each reply's edit.
				turns: repeat(n+1, turn{edit: bump("iteration")}),
			})
			r := s.runs[0]

			checkCopilotLoaded(t, r, 2)
			checkCopilotTurns(t, r, n)
			checkCopilotReasons(t, r, want)
			checkCopilotContext(t, r.turns()[0], ctx)

			ins := stop.inputs(t)
			if len(ins) != n+1 {
				t.Fatalf("agentStop ran %d times, want %d", len(ins), n+1)
			}
			for k, in := range ins {
				// stop_hook_active: false at the turn's first stop, true at
				// each stop after a block.
				if got, want := in["stop_hook_active"], k > 0; got != want {
					t.Errorf("agentStop %d: stop_hook_active %v, want %v", k+1, got, want)
				}
				if it := number(stop.state(t, k+1)["iteration"]); it != float64(k+1) {
					t.Errorf("agentStop %d found iteration %v in the state, want %d: the hook ran before the turn's edit", k+1, it, k+1)
				}
			}
			checkCopilotHookEnv(t, stop.env(t, 1), s.p)
			checkCopilotStarts(t, start, s.p, "new")
			checkCopilotEvents(t, r, n+1)
		})
	}

	t.Run("resume with --continue", func(t *testing.T) {
		t.Parallel()
		const resumed = "Loop in progress (iteration 2/10), resumed."
		second := "Pick the loop up where it stopped."
		stop := newCopilotStandIn(t, "agentStop", copilotBlock(copilotReason(1)), copilotBlock(copilotReason(2)), "{}")
		start := newCopilotStandIn(t, "sessionStart", copilotContextAnswer(ctx), copilotContextAnswer(resumed))
		s := runCopilotScenario(t, copilotScenario{
			register: registerCopilotStandIns(stop, start),
			prompts:  []string{prompt, second},
		})
		first, again := s.runs[0], s.runs[1]
		checkCopilotLoaded(t, first, 2)
		checkCopilotLoaded(t, again, 2) // trusted through config.json
		checkCopilotTurns(t, first, 2)
		checkCopilotReasons(t, first, []string{copilotReason(1), copilotReason(2)})
		checkCopilotContext(t, first.turns()[0], ctx)

		// The resumed run: sessionStart again, as source "resume" of the
		// same session; its context replaces the first in the history.
		checkCopilotTurns(t, again, 0)
		starts := checkCopilotStarts(t, start, s.p, "new", "resume")
		if len(starts) == 2 && starts[0]["sessionId"] != starts[1]["sessionId"] {
			t.Errorf("--continue ran session %v, want %v", starts[1]["sessionId"], starts[0]["sessionId"])
		}
		checkCopilotContext(t, again.turns()[0], resumed)
		history := again.turns()[0].userTexts()
		if want := []string{prompt, copilotReason(1), copilotReason(2), second}; !slices.Equal(history, want) {
			t.Errorf("the resumed run's first request has the user messages\n%q\nwant\n%q", history, want)
		}
		ins := stop.inputs(t)
		if len(ins) != 4 {
			t.Fatalf("agentStop ran %d times over both runs, want 4", len(ins))
		}
		if ins[3]["stop_hook_active"] != false {
			t.Errorf("the resumed run's stop: stop_hook_active %v, want false", ins[3]["stop_hook_active"])
		}
		if ins[3]["sessionId"] != ins[0]["sessionId"] {
			t.Errorf("the resumed run's stop is of session %v, want %v", ins[3]["sessionId"], ins[0]["sessionId"])
		}
	})

	t.Run("a pinned session id", func(t *testing.T) {
		t.Parallel()
		stop := newCopilotStandIn(t, "agentStop", copilotBlock(copilotReason(1)), "{}")
		start := newCopilotStandIn(t, "sessionStart", copilotContextAnswer(ctx), copilotContextAnswer("again"))
		s := runCopilotScenario(t, copilotScenario{
			register:  registerCopilotStandIns(stop, start),
			prompts:   []string{prompt, "Once more."},
			sessionID: sessionID,
		})
		checkCopilotLoaded(t, s.runs[0], 2)
		checkCopilotTurns(t, s.runs[0], 1)
		checkCopilotTurns(t, s.runs[1], 0)
		checkCopilotContext(t, s.runs[1].turns()[0], "again")
		for _, in := range append(checkCopilotStarts(t, start, s.p, "new", "resume"), stop.inputs(t)...) {
			if in["sessionId"] != sessionID {
				t.Errorf("a hook got sessionId %v, want %s", in["sessionId"], sessionID)
			}
		}
	})

	t.Run("the stand-in's limit ends a runaway", func(t *testing.T) {
		t.Parallel()
		cli := setupCopilot(t)
		p := newProject(t, nil)
		stop := newCopilotStandIn(t, "agentStop", copilotBlock("Never done."))
		start := newCopilotStandIn(t, "sessionStart", "{}")
		registerCopilotStandIns(stop, start)(t, p)
		api := newCopilotAPI(t, p.statePath(), nil)
		api.limit = 2
		s := newCopilotSession(cli, p, api)
		t.Cleanup(func() {
			if t.Failed() {
				s.logRuns(t)
			}
		})
		r := s.run(t, prompt)
		// The third request is refused: no retry, no agentStop after it,
		// and copilot fails.
		if len(r.requests) != 3 || !r.requests[2].Refused {
			t.Errorf("%d requests, want 3, the last refused", len(r.requests))
		}
		if n := len(stop.inputs(t)); n != 2 {
			t.Errorf("agentStop ran %d times, want 2", n)
		}
		if r.exitCode != 1 {
			t.Errorf("copilot exited %d, want 1", r.exitCode)
		}
	})

	t.Run("the fixed cap of 8 continuations", func(t *testing.T) {
		t.Parallel()
		stop := newCopilotStandIn(t, "agentStop", copilotBlock("Never done."))
		start := newCopilotStandIn(t, "sessionStart", "{}")
		s := runCopilotScenario(t, copilotScenario{register: registerCopilotStandIns(stop, start)})
		r := s.runs[0]
		checkCopilotLoaded(t, r, 2)
		if len(r.requests) != 9 {
			t.Errorf("%d model requests, want 9: the prompt's and 8 continuations", len(r.requests))
		}
		checkCopilotTurns(t, r, 8)
		checkCopilotReasons(t, r, repeat(8, "Never done."))
		if n := len(stop.inputs(t)); n != 9 {
			t.Errorf("agentStop ran %d times, want 9 (the 9th block is ignored)", n)
		}
		if lines := r.logLines(copilotCapLine); len(lines) != 1 {
			t.Errorf("the log has %d lines saying %q, want 1", len(lines), copilotCapLine)
		}
		if _, ok := r.turns()[0].sessionContext(); ok {
			t.Errorf("a sessionStart answering {} put context in the first request")
		}
	})
}

// checkCopilotLoaded checks the run loaded n repo hooks.
func checkCopilotLoaded(t *testing.T, r *copilotRun, n int) {
	t.Helper()
	if got := r.repoHooks(); got != n {
		t.Errorf("%v loaded %d repo hooks, want %d", r, got, n)
	}
}

// checkCopilotTurns checks that the run took 1+blocks conversation turns,
// and that no request went without the turn header.
func checkCopilotTurns(t *testing.T, r *copilotRun, blocks int) {
	t.Helper()
	if got := len(r.turns()); got != 1+blocks {
		t.Errorf("%v took %d conversation turns, want %d", r, got, 1+blocks)
	}
	for i, req := range r.requests {
		if !req.isTurn() {
			t.Errorf("%v: request %d (%s %s) has x-interaction-type %q, not %q",
				r, i+1, req.Method, req.Path, req.Interaction, copilotTurn)
		}
	}
}

// checkCopilotReasons checks that each continuation brought the model
// exactly a block's reason, in order.
func checkCopilotReasons(t *testing.T, r *copilotRun, want []string) {
	t.Helper()
	got, err := r.reasons()
	if err != nil {
		t.Error(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%v: the model was sent reasons\n%q\nwant\n%q", r, got, want)
	}
}

// checkCopilotContext checks the sessionStart context a request carries.
func checkCopilotContext(t *testing.T, req *copilotRequest, want string) {
	t.Helper()
	got, ok := req.sessionContext()
	if !ok || got != want {
		t.Errorf("the first user message carries context %q (found %v), want %q", got, ok, want)
	}
}

// checkCopilotHookEnv checks what PROTOCOL.md §7 says a hook can rely on.
func checkCopilotHookEnv(t *testing.T, env map[string]string, p *project) {
	t.Helper()
	for k, want := range map[string]string{
		"COPILOT_PROJECT_DIR": p.dir,
		"CLAUDE_PROJECT_DIR":  p.dir,
		"COPILOT_CLI":         "1",
		"COPILOT_HOOK_DIR":    filepath.Join(p.dir, ".github", "hooks"),
		"HOME":                p.home,
	} {
		if env[k] != want {
			t.Errorf("hook environment: %s=%q, want %q", k, env[k], want)
		}
	}
	for k := range env {
		if strings.HasPrefix(k, "COPILOT_PROVIDER_") {
			t.Errorf("hook environment has %s", k)
		}
	}
}

// checkCopilotStarts checks the sessionStart hook ran once per run with the
// given sources, and returns its inputs.
func checkCopilotStarts(t *testing.T, start *copilotStandIn, p *project, sources ...string) []map[string]any {
	t.Helper()
	ins := start.inputs(t)
	var got []string
	for _, in := range ins {
		s, _ := in["source"].(string)
		got = append(got, s)
		if in["cwd"] != p.dir {
			t.Errorf("sessionStart input cwd %v, want %s", in["cwd"], p.dir)
		}
	}
	if !slices.Equal(got, sources) {
		t.Errorf("sessionStart ran with sources %q, want %q", got, sources)
	}
	return ins
}

// checkCopilotEvents checks events.jsonl recorded each agentStop, ended
// and successful.
func checkCopilotEvents(t *testing.T, r *copilotRun, stops int) {
	t.Helper()
	runs := r.hookRuns("agentStop")
	if len(runs) != stops {
		t.Errorf("events.jsonl records %d agentStop runs, want %d", len(runs), stops)
	}
	for i, h := range runs {
		if !h.Ended || !h.Success {
			t.Errorf("agentStop %d in events.jsonl: ended %v, success %v", i+1, h.Ended, h.Success)
		}
	}
}
