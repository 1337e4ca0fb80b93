//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// registerDroidLoophook registers the real loophook as the project's Droid
// hooks with `loophook install --host droid` (.factory/hooks.json, keyed by
// event), each command recorded by rec.
func registerDroidLoophook(sc hostLoop, rec *hookRecorder) func(t *testing.T, p *project) {
	return func(t *testing.T, p *project) {
		t.Helper()
		sc.writeOnLoop(t, p)
		installWrapped(t, p, rec, "droid", filepath.Join(".factory", "hooks.json"), "", sc.stopFlags...)
	}
}

// TestDroidLoophook runs loophook's loops in the real Factory Droid, which
// has no cap at all: loophook's rules alone end each loop, the default
// continuation limit one that records progress for ever.
func TestDroidLoophook(t *testing.T) {
	// Progress every turn for ever, in a field no limit reads (the
	// iteration ceiling, 50, would end it first): the 50th continuation in
	// a row is the last.
	forever := hostLoop{
		name:        "the default continuation limit",
		state:       loop("empty input parses"),
		turns:       repeat(60, turn{edit: bump("attempts"), text: "Another attempt, recorded."}),
		wantRules:   append(repeat(50, "unmet"), "continuation-limit"),
		wantReasons: repeat(50, []string{"empty input parses"}),
	}
	for _, sc := range append(hostLoops(), ceilingLoop(), forever) {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
			s := runDroidScenario(t, droidScenario{state: sc.state, turns: sc.turns, register: registerDroidLoophook(sc, rec)})
			checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasonsAfter(s.api.turns(), prompt), 0, true)
		})
	}

	t.Run("SessionStart context on --fork", func(t *testing.T) {
		t.Parallel()
		sc := resumeLoop()
		rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
		s := runDroidScenario(t, droidScenario{
			state: sc.state, turns: sc.turns, prompts: []string{prompt, resumePrompt},
			register: registerDroidLoophook(sc, rec),
		})
		turns := s.api.turns()
		first := -1
		for i, r := range turns {
			if text, _ := r.newUser(); strings.HasSuffix(text, resumePrompt) {
				first = i
				break
			}
		}
		if first != 4 {
			t.Fatalf("the forked run starts at turn %d, want 5 (the guard ends the first run at 4)", first+1)
		}
		ctx, ok := droidContext(turns[first], resumePrompt)
		if !ok {
			t.Fatalf("the forked run's first request carries no SessionStart context")
		}
		checkResumeContext(t, rec, 2, ctx)
		checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasonsAfter(turns, prompt, resumePrompt), 0, true)
	})
}

// TestDroidAccept runs the agent's own loophook accept through Droid's
// Execute tool, which --auto high runs without asking: refused, for
// FACTORY_DISABLE_SETTINGS_PERSISTENCE, which droid exec sets for its
// whole process, and so for every command the tool runs. (Droid sets no
// variable of its own for them; the tool runs them with stdin /dev/null.
// The interactive UI runs its agent as a droid exec child: the same.)
func TestDroidAccept(t *testing.T) {
	sc := acceptLoop(t)
	rec := newHookRecorder(t, filepath.Join(t.TempDir(), "recorder"))
	s := runDroidScenario(t, droidScenario{state: sc.state, turns: sc.turns, flags: []string{"--auto", "high"}, register: registerDroidLoophook(sc, rec)})
	checkAcceptRefused(t, s.p, s.api.toolOutputs(), "FACTORY_DISABLE_SETTINGS_PERSISTENCE")
	checkHostLoop(t, s.p, rec, sc.wantRules, sc.wantReasons, reasonsAfter(s.api.turns(), prompt), 0, true)
}

// TestDroidAcceptUI runs the agent's own loophook accept through the
// Execute tool of the interactive Droid (plain droid, on a terminal of its
// own, autonomy high): refused for the same marker, which the UI's agent,
// a droid exec child of the UI, sets for its whole process; and the
// command's stdin is no terminal either.
func TestDroidAcceptUI(t *testing.T) {
	cli := setupDroid(t)
	sc := acceptLoop(t)
	p := newProject(t, sc.state)
	accept := turn{text: "Accepted, or not.", bash: shellQuote(loophookBinary(t)) + " accept; tty"}
	api := newChatAPI(t, droidShell, p.statePath(), []turn{accept})
	runDroidUI(t, cli, p, api, prompt, func() bool { return len(api.toolOutputs()) > 0 })
	for _, err := range api.failures() {
		t.Error(err)
	}
	outputs := api.toolOutputs()
	checkRefusal(t, outputs, "FACTORY_DISABLE_SETTINGS_PERSISTENCE")
	if len(outputs) == 0 || !strings.Contains(outputs[0], "not a tty") {
		t.Errorf("the Execute tool's command had a terminal on stdin: %q", outputs)
	}
}
