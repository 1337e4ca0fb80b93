//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The plugin's Stop hook command, as .claude-plugin/hooks.json declares it
// and as Claude Code quotes it back when the hook blocks (it runs it with
// ${CLAUDE_PLUGIN_ROOT} replaced, but quotes it as written).
const pluginStopCommand = `sh "${CLAUDE_PLUGIN_ROOT}/.claude-plugin/hook.sh" stop`

// notInstalled is how the plugin's hook tells the person that loophook is
// missing from PATH.
const notInstalled = "loophook is not installed: go install github.com/loophook/loophook/cmd/loophook@latest"

// TestPlugin runs loops with loophook registered by the repository's
// Claude Code plugin alone, loaded with --plugin-dir: no settings file of
// any scope names a hook, and the plugin's hook finds loophook on PATH.
func TestPlugin(t *testing.T) {
	scenarios := []scenario{completionScenario(), guardScenario()}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			claude, loophook := setup(t)
			p := newProject(t, sc.state)
			api := newStubAPI(t, prompt, p.statePath(), sc.turns)
			run := logged(t, api, func() *claudeRun { return runWithPlugin(t, claude, p, api, pathWith(t, loophook)) })
			checkSession(t, sc, api, run, pluginStopCommand)
		})
	}
}

// TestPluginWithoutLoophook loads the plugin with no loophook on PATH: the
// agent must not be trapped, even by an in-progress loop, and the person
// must be told why nothing governs it.
func TestPluginWithoutLoophook(t *testing.T) {
	t.Parallel()
	claude, _ := setup(t)
	p := newProject(t, loop("empty input parses"))
	api := newStubAPI(t, prompt, p.statePath(), nil)
	run := logged(t, api, func() *claudeRun { return runWithPlugin(t, claude, p, api, pathWithout(t)) })

	for _, err := range api.failures() {
		t.Error(err)
	}
	if main := api.mainRequests(); len(main) != 1 {
		t.Errorf("%d main-loop requests, want 1: the agent was kept working without loophook", len(main))
	}
	if run.result.NumTurns != 1 || run.result.IsError {
		t.Errorf("claude reports %+v, want one turn and no error", run.result)
	}
	for _, event := range []string{"SessionStart", "Stop"} {
		runs := run.hookRuns(event)
		if len(runs) != 1 || runs[0].blocked {
			t.Errorf("%s: want one run of the plugin's hook that does not block, got %+v", event, runs)
			continue
		}
		var answer map[string]any
		if err := json.Unmarshal([]byte(runs[0].stdout), &answer); err != nil {
			t.Errorf("%s: the hook's answer is not JSON: %v: %q", event, err, runs[0].stdout)
			continue
		}
		if msg, _ := answer["systemMessage"].(string); !strings.HasPrefix(msg, notInstalled) || len(answer) != 1 {
			t.Errorf("%s: the hook answered %s, want only a systemMessage starting %q", event, runs[0].stdout, notInstalled)
		}
	}
	// What the person sees: Claude Code keeps each systemMessage in the
	// transcript as its own entry.
	if got := run.systemMessages(); len(got) != 2 || !strings.HasPrefix(got[0], notInstalled) {
		t.Errorf("the transcript shows the person %q, want the not-installed message for SessionStart and Stop", got)
	}
	// No loop context reached the model: nothing could read the state.
	if system := strings.Join(api.mainRequests()[0].Msg.systemTexts(), "\n"); strings.Contains(system, sessionContextPrefix) {
		t.Errorf("the first request carries SessionStart context, want none")
	}
}

// runWithPlugin runs the session with the repository loaded as a plugin and
// PATH set to path, after checking that no settings file registers a hook,
// so that whatever hook runs is the plugin's.
func runWithPlugin(t *testing.T, claude string, p *project, api *stubAPI, path string, typed ...string) *claudeRun {
	t.Helper()
	noHooksInSettings(t, p)
	env := claudeEnv(p, api.URL())
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + path
		}
	}
	say := prompt
	if len(typed) > 0 {
		say = typed[0]
	}
	run := runClaudeWith(t, claude, p, env, say, sessionID, "--plugin-dir", repoRoot(t))
	noHooksInSettings(t, p)
	return run
}

// repoRoot is the repository, which is the plugin (.claude-plugin/ at its
// top). go test runs a package's tests in its directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".claude-plugin", "plugin.json")); err != nil {
		t.Fatalf("the repository is not a plugin: %v", err)
	}
	return root
}

// pathWith returns a PATH on which `loophook` is the binary under test,
// whatever its file is called, ahead of the rest of this process's PATH.
func pathWith(t *testing.T, loophook string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(loophook, filepath.Join(bin, "loophook")); err != nil {
		t.Fatal(err)
	}
	return bin + string(os.PathListSeparator) + pathWithout(t)
}

// pathWithout returns this process's PATH without the directories that
// hold a loophook, such as a developer's GOPATH/bin.
func pathWithout(t *testing.T) string {
	t.Helper()
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(dir, "loophook")); err == nil && !fi.IsDir() {
			t.Logf("PATH without %s, which holds a loophook", dir)
			continue
		}
		keep = append(keep, dir)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// noHooksInSettings fails the test when a settings file of any scope
// registers hooks: these tests prove what the plugin does on its own.
func noHooksInSettings(t *testing.T, p *project) {
	t.Helper()
	for _, f := range []string{
		filepath.Join(p.home, ".claude", "settings.json"),
		filepath.Join(p.dir, ".claude", "settings.json"),
		filepath.Join(p.dir, ".claude", "settings.local.json"),
	} {
		b, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var settings struct {
			Hooks map[string]any `json:"hooks"`
		}
		if err := json.Unmarshal(b, &settings); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(settings.Hooks) != 0 {
			t.Fatalf("%s registers hooks, want none: %s", f, b)
		}
	}
}

// systemMessages returns the hooks' systemMessages as the transcript
// recorded them for the person, in order.
func (r *claudeRun) systemMessages() []string {
	var out []string
	for _, e := range r.transcript {
		if a := e.Attachment; a != nil && a.Type == "hook_system_message" {
			var s string
			_ = json.Unmarshal(a.Content, &s)
			out = append(out, s)
		}
	}
	return out
}

// TestPluginHookScript checks the plugin's hook script without Claude Code:
// it runs loophook from PATH with --protocol claude and LOOPHOOK_VIA=plugin,
// and without loophook it answers with the systemMessage and reads its
// input.
func TestPluginHookScript(t *testing.T) {
	t.Parallel()
	script := filepath.Join(repoRoot(t), ".claude-plugin", "hook.sh")
	fake := filepath.Join(t.TempDir(), "bin")
	if err := writeFile(filepath.Join(fake, "loophook"), []byte("#!/bin/sh\necho \"$* via=$LOOPHOOK_VIA\"\n")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(fake, "loophook"), 0o755); err != nil {
		t.Fatal(err)
	}
	hook := func(path, event string) string {
		t.Helper()
		cmd := exec.Command("sh", script, event)
		cmd.Env = []string{"PATH=" + path}
		cmd.Stdin = strings.NewReader(`{"hook_event_name":"Stop"}`)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("hook.sh %s: %v", event, err)
		}
		return string(out)
	}
	for _, event := range []string{"stop", "session-start"} {
		if got, want := hook(fake+string(os.PathListSeparator)+pathWithout(t), event), event+" --protocol claude via=plugin\n"; got != want {
			t.Errorf("with loophook on PATH, hook.sh %s ran loophook %q, want %q", event, got, want)
		}
		got := hook(pathWithout(t), event)
		var answer map[string]string
		if err := json.Unmarshal([]byte(got), &answer); err != nil || len(answer) != 1 || !strings.HasPrefix(answer["systemMessage"], notInstalled) {
			t.Errorf("without loophook, hook.sh %s answered %q, want only a systemMessage starting %q", event, got, notInstalled)
		}
	}
}

// TestPluginCommands checks that Claude Code loads the plugin's slash
// commands and sends the model each one's instruction, with the person's
// arguments: to run loophook status and why, and to tell the person what to
// type in their own terminal for cancel and accept (SPEC section 5).
func TestPluginCommands(t *testing.T) {
	for _, command := range []string{"status", "cancel", "accept", "why"} {
		t.Run(command, func(t *testing.T) {
			t.Parallel()
			claude, loophook := setup(t)
			p := newProject(t, nil)
			typed := "/loophook:" + command + " --state x.json"
			api := newStubAPI(t, typed, p.statePath(), nil)
			run := runWithPlugin(t, claude, p, api, pathWith(t, loophook), typed)
			if run.result.IsError {
				t.Errorf("claude reports %+v", run.result)
			}
			want := "Run `loophook " + command + " --state x.json`"
			if command == "cancel" || command == "accept" {
				want = "in their own terminal, in the project directory:\n\n    loophook " + command + " --state x.json"
			}
			var asked []string
			for _, req := range append(api.mainRequests(), api.sideRequests()...) {
				last := req.Msg.lastUser()
				if strings.Contains(last, want) {
					return
				}
				asked = append(asked, last)
			}
			t.Errorf("no request asked the model to %q; the last user messages were %q", want, asked)
		})
	}
}
