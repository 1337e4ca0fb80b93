//go:build e2e

package e2e

import (
	"path/filepath"
	"slices"
	"testing"
)

// droidScenario is one Droid session in a scratch project: the hooks
// registered by register, then each prompt run in turn, the first as a
// new session, each later one as a fork of the one before
// (`droid exec --fork <id>`: continuing a session needs Factory's API).
type droidScenario struct {
	state    any
	turns    []turn
	prompts  []string // none: one run of prompt
	flags    []string // more flags for every run
	register func(t *testing.T, p *project)
	// runaway is what the test expects of the stand-in's limit: false,
	// no run may pass it; true, the last run must (and is killed).
	runaway bool
	limit   int // the stand-in's limit of agent turns; 0: chatTurnLimit
}

type droidSession struct {
	p    *project
	api  *chatAPI
	runs []*droidRun
}

// runDroidScenario runs the scenario and checks what every test needs:
// each run exited 0, and ran into the stand-in's limit only where the
// scenario says.
func runDroidScenario(t *testing.T, sc droidScenario) *droidSession {
	t.Helper()
	cli := setupDroid(t)
	p := newProject(t, sc.state)
	sc.register(t, p)
	s := &droidSession{p: p, api: newChatAPI(t, droidShell, p.statePath(), sc.turns)}
	if sc.limit > 0 {
		s.api.limit = sc.limit
	}
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
			sessions := droidSessions(p)
			if len(sessions) == 0 {
				t.Fatalf("no Droid session to fork")
			}
			id := filepath.Base(sessions[len(sessions)-1])
			flags = append(flags, "--fork", id[:len(id)-len(".jsonl")])
		}
		r := runDroid(t, cli, p, s.api, pr, flags...)
		s.runs = append(s.runs, r)
		if r.killed {
			if !sc.runaway || i < len(prompts)-1 {
				t.Fatalf("droid exec %q ran past the stand-in's limit of %d agent turns: killed", pr, s.api.limit)
			}
			continue
		}
		if r.exitCode != 0 {
			t.Fatalf("droid exec %q exited %d\nstdout: %s\nstderr: %s", pr, r.exitCode, r.stdout, r.stderr)
		}
	}
	if sc.runaway {
		if !s.runs[len(s.runs)-1].killed {
			t.Fatalf("the last run ended by itself; want it to run past the stand-in's limit")
		}
	} else {
		for _, err := range s.api.failures() {
			t.Error(err)
		}
	}
	return s
}

// log tells a failing test's reader what the model got.
func (s *droidSession) log(t *testing.T) {
	for i, r := range s.api.requests() {
		text, _ := r.newUser()
		t.Logf("request %d: turn=%v refused=%v new user message: %q", i+1, r.Turn, r.Refused, text)
	}
	for _, r := range s.runs {
		t.Logf("exit %d killed %v\nstdout: %s\nstderr: %s", r.exitCode, r.killed, r.stdout, r.stderr)
	}
}

// TestDroidHarness checks the parts of factory-droid/PROTOCOL.md the
// loophook tests rely on, with a scripted hook: a block's reason reaches
// the model verbatim as the next user message; stop_hook_active is false
// at the first stop and true after a block; there is no
// last_assistant_message; the SessionStart context is a user message of
// its own before the prompt; and Droid has no cap: a hook that always
// blocks runs it into the stand-in's limit.
func TestDroidHarness(t *testing.T) {
	const reason = `Go on: <loop-complete> & "quotes"` + "\nline two"
	const context = `A loop <x> & y is under way.`
	t.Run("block, then let go", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		stop := newScriptedHook(t, filepath.Join(dir, "stop"), `{"decision":"block","reason":`+jsonString(reason)+`}`, `{}`)
		start := newScriptedHook(t, filepath.Join(dir, "start"), `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":`+jsonString(context)+`}}`)
		s := runDroidScenario(t, droidScenario{
			turns:    []turn{{text: "first reply"}, {text: "second reply"}},
			register: func(t *testing.T, p *project) { writeDroidHooks(t, p, stop.command(), start.command()) },
		})
		turns := s.api.turns()
		if len(turns) != 2 {
			t.Fatalf("%d agent turns, want 2", len(turns))
		}
		if got := reasonsAfter(turns, prompt); len(got) != 1 || got[0] != reason {
			t.Errorf("the model got the reasons %q, want %q", got, reason)
		}
		if got, ok := droidContext(turns[0], prompt); !ok || got != context {
			t.Errorf("the first request's context is %q (%v), want %q", got, ok, context)
		}
		in := stop.inputs(t)
		if len(in) != 2 {
			t.Fatalf("%d Stop inputs, want 2", len(in))
		}
		for i, active := range []bool{false, true} {
			if in[i]["stop_hook_active"] != active {
				t.Errorf("stop %d: stop_hook_active %v, want %v", i+1, in[i]["stop_hook_active"], active)
			}
			if _, ok := in[i]["last_assistant_message"]; ok {
				t.Errorf("stop %d: a last_assistant_message: %v", i+1, in[i])
			}
			if in[i]["cwd"] != s.p.dir {
				t.Errorf("stop %d: cwd %v, want %s", i+1, in[i]["cwd"], s.p.dir)
			}
		}
	})
	t.Run("no cap", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		stop := newScriptedHook(t, filepath.Join(dir, "stop"), `{"decision":"block","reason":"again"}`)
		start := newScriptedHook(t, filepath.Join(dir, "start"), `{}`)
		s := runDroidScenario(t, droidScenario{
			register: func(t *testing.T, p *project) { writeDroidHooks(t, p, stop.command(), start.command()) },
			runaway:  true,
			limit:    12,
		})
		if n := len(s.api.turns()); n < 13 {
			t.Errorf("%d agent turns, want Droid to go past the limit of 12", n)
		}
	})
}
