//go:build e2e

package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// What the Pi tests share: the extension registered and recorded, a
// scenario's runs, and what the model got.

// registerPiLoophook installs loophook's extension for Pi in the project
// the way a person does, `loophook install --host pi`, checks that it runs
// the binary under test, and points it at a wrapper that runs the same
// commands recorded by rec (stop flags added to the stop command).
func registerPiLoophook(sc hostLoop, rec *hookRecorder) func(t *testing.T, p *project) {
	return func(t *testing.T, p *project) {
		t.Helper()
		sc.writeOnLoop(t, p)
		installFor(t, p, "pi", nil)
		path := filepath.Join(p.dir, ".pi", "extensions", "loophook.js")
		ext, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bin := loophookBinary(t)
		line := []byte("const LOOPHOOK = " + jsonString(bin) + ";\n")
		if !bytes.Contains(ext, line) {
			t.Fatalf("%s does not run %s", path, bin)
		}
		stop := strings.Join(append([]string{shellQuote(bin), "stop", "--protocol", "pi"}, sc.stopFlags...), " ")
		start := shellQuote(bin) + " session-start --protocol pi"
		wrapper := filepath.Join(rec.dir, "pi-loophook")
		script := "#!/bin/bash\ncase \"$1 $2 $3\" in\n" +
			"'stop --protocol pi') exec " + rec.wrap("stop", stop) + " ;;\n" +
			"'session-start --protocol pi') exec " + rec.wrap("session-start", start) + " ;;\n" +
			"esac\necho \"pi-loophook: unexpected arguments: $*\" >&2\nexit 3\n"
		if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		ext = bytes.Replace(ext, line, []byte("const LOOPHOOK = "+jsonString(wrapper)+";\n"), 1)
		if err := os.WriteFile(path, ext, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// piScenario is one Pi session in a scratch project: the extension
// registered by register, then each prompt run in turn, the first as a
// new session, each later one with -c (--continue).
type piScenario struct {
	state    any
	turns    []turn
	prompts  []string // none: one run of prompt
	flags    []string // more flags for every run
	register func(t *testing.T, p *project)
	// runaway: the stand-in is expected to refuse a turn, which ends the
	// run with exit 1.
	runaway bool
	// refuseAll: the stand-in refuses every turn (HTTP 400).
	refuseAll bool
	// expectFailure: the extension is meant to fail, and say so.
	expectFailure bool
}

type piSession struct {
	p    *project
	api  *chatAPI
	runs []*piRun
}

// runPiScenario runs the scenario and checks what every test needs: each
// run exited 0 and printed no extension error, and the stand-in never saw
// a runaway (unless expected).
func runPiScenario(t *testing.T, sc piScenario) *piSession {
	t.Helper()
	cli := setupPi(t)
	p := newProject(t, sc.state)
	sc.register(t, p)
	s := &piSession{p: p, api: newChatAPI(t, piShell, p.statePath(), sc.turns)}
	if sc.refuseAll {
		s.api.limit = 0
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
			flags = append(flags, "-c")
		}
		r := runPi(t, cli, p, s.api.URL(), pr, flags...)
		s.runs = append(s.runs, r)
		if (r.exitCode != 0) != sc.runaway {
			t.Fatalf("pi -p %q exited %d\nstdout: %s\nstderr: %s", pr, r.exitCode, r.stdout, r.stderr)
		}
		for _, line := range strings.Split(r.stderr, "\n") {
			if sc.expectFailure {
				break
			}
			if strings.Contains(line, "Extension error") || strings.HasPrefix(line, "loophook: exit") || strings.HasPrefix(line, "loophook: no ") || strings.HasPrefix(line, "loophook: cannot") {
				t.Errorf("pi -p %q: %s", pr, line)
			}
		}
	}
	if !sc.runaway {
		for _, err := range s.api.failures() {
			t.Error(err)
		}
	}
	return s
}

// log tells a failing test's reader what the model got and Pi said.
func (s *piSession) log(t *testing.T) {
	for i, r := range s.api.requests() {
		text, _ := r.newUser()
		t.Logf("request %d: turn=%v refused=%v new user message: %q", i+1, r.Turn, r.Refused, text)
	}
	for _, r := range s.runs {
		t.Logf("stdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
}

// piReasons returns the new user message of every agent turn that is
// neither a prompt nor a session's context (the message Pi adds right
// after the prompt): the continuation messages the model got, in order.
func piReasons(turns []*chatRequest, prompts ...string) []string {
	var out []string
	for _, r := range turns {
		text, ok := r.newUser()
		msgs := r.Chat.Messages
		if !ok || slices.Contains(prompts, text) {
			continue
		}
		if n := len(msgs); n >= 2 && msgs[n-2].Role == "user" && slices.Contains(prompts, msgs[n-2].text()) {
			continue // the session's context
		}
		out = append(out, text)
	}
	return out
}

// piContext is the session's context in r: the user message right after
// the prompt (PROTOCOL.md §6).
func piContext(r *chatRequest, prompt string) (string, bool) {
	msgs := r.Chat.Messages
	for i := len(msgs) - 2; i >= 0; i-- {
		if msgs[i].Role == "user" && msgs[i].text() == prompt && msgs[i+1].Role == "user" {
			return msgs[i+1].text(), true
		}
	}
	return "", false
}
