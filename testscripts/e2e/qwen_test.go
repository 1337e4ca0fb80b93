//go:build e2e

package e2e

import (
	"path/filepath"
	"slices"
	"testing"
)

// qwenScenario is one Qwen Code session in a scratch project: the hooks
// registered by register, then each prompt run in turn, the first as a
// new session, each later one with --continue.
type qwenScenario struct {
	state    any
	turns    []turn
	prompts  []string // none: one run of prompt
	flags    []string // more flags for every run
	register func(t *testing.T, p *project)
}

type qwenSession struct {
	p    *project
	api  *chatAPI
	runs []*qwenRun
}

// runQwenScenario runs the scenario and checks what every test needs:
// each run exited 0 with a result that is no error, and the stand-in
// never saw a runaway.
func runQwenScenario(t *testing.T, sc qwenScenario) *qwenSession {
	t.Helper()
	cli := setupQwen(t)
	p := newProject(t, sc.state)
	sc.register(t, p)
	s := &qwenSession{p: p, api: newChatAPI(t, qwenShell, p.statePath(), sc.turns)}
	prompts := sc.prompts
	if len(prompts) == 0 {
		prompts = []string{prompt}
	}
	t.Cleanup(func() {
		if t.Failed() {
			s.log(t)
		}
	})
	for i, pr := range prompts {
		flags := slices.Clone(sc.flags)
		if i > 0 {
			flags = append(flags, "--continue")
		}
		r := runQwen(t, cli, p, s.api.URL(), pr, flags...)
		s.runs = append(s.runs, r)
		if r.exitCode != 0 || r.result.IsError {
			t.Fatalf("qwen -p %q exited %d, result %+v\nstderr: %s", pr, r.exitCode, r.result, r.stderr)
		}
	}
	for _, err := range s.api.failures() {
		t.Error(err)
	}
	return s
}

// log tells a failing test's reader what the model got and the hooks did.
func (s *qwenSession) log(t *testing.T) {
	for i, r := range s.api.requests() {
		text, _ := r.newUser()
		t.Logf("request %d: turn=%v refused=%v new user message: %q", i+1, r.Turn, r.Refused, text)
	}
	for _, r := range s.runs {
		t.Logf("session %s, debug log:\n%s", r.result.SessionID, joinLines(qwenDebugLog(s.p, r.result.SessionID)))
		t.Logf("stderr: %s", r.stderr)
	}
}

// TestQwenHarness checks the parts of qwen-code/PROTOCOL.md the loophook
// tests rely on, with a scripted hook: a block's reason reaches the model
// verbatim as the next user message; stop_hook_active is false at the
// first stop and true after a block; last_assistant_message is the last
// reply; the SessionStart context ends the system prompt, < and >
// escaped; the project's own settings cap the blocks.
func TestQwenHarness(t *testing.T) {
	const reason = `Go on: <loop-complete> & "quotes"` + "\nline two"
	const context = `A loop <x> & y is under way.`
	t.Run("block, then let go", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		stop := newScriptedHook(t, filepath.Join(dir, "stop"), `{"decision":"block","reason":`+jsonString(reason)+`}`, `{}`)
		start := newScriptedHook(t, filepath.Join(dir, "start"), `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":`+jsonString(context)+`}}`)
		s := runQwenScenario(t, qwenScenario{
			turns:    []turn{{text: "first reply"}, {text: "second reply"}},
			register: func(t *testing.T, p *project) { writeQwenHooks(t, p, stop.command(), start.command(), 0) },
		})
		turns := s.api.turns()
		if len(turns) != 2 {
			t.Fatalf("%d agent turns, want 2", len(turns))
		}
		if got := reasonsAfter(turns, prompt); len(got) != 1 || got[0] != reason {
			t.Errorf("the model got the reasons %q, want %q", got, reason)
		}
		if got, ok := qwenContext(turns[0]); !ok || got != context {
			t.Errorf("the first request's system prompt ends with the context %q (%v), want %q", got, ok, context)
		}
		in := stop.inputs(t)
		if len(in) != 2 {
			t.Fatalf("%d Stop inputs, want 2", len(in))
		}
		for i, want := range []struct {
			active bool
			last   string
		}{{false, "first reply"}, {true, "second reply"}} {
			if in[i]["stop_hook_active"] != want.active || in[i]["last_assistant_message"] != want.last {
				t.Errorf("stop %d: stop_hook_active %v, last_assistant_message %q; want %v, %q",
					i+1, in[i]["stop_hook_active"], in[i]["last_assistant_message"], want.active, want.last)
			}
			if in[i]["cwd"] != s.p.dir {
				t.Errorf("stop %d: cwd %v, want %s", i+1, in[i]["cwd"], s.p.dir)
			}
		}
	})
	t.Run("the block cap of the project settings", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		stop := newScriptedHook(t, filepath.Join(dir, "stop"), `{"decision":"block","reason":"again"}`)
		start := newScriptedHook(t, filepath.Join(dir, "start"), `{}`)
		s := runQwenScenario(t, qwenScenario{
			register: func(t *testing.T, p *project) { writeQwenHooks(t, p, stop.command(), start.command(), 3) },
		})
		if n := len(s.api.turns()); n != 3 {
			t.Errorf("%d agent turns with stopHookBlockingCap 3, want 3", n)
		}
	})
}
