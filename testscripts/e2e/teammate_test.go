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

// teammateNotice is how the committed registration's guard tells a person
// at session start that loophook is missing (hook/install's noticeMissing).
const teammateNotice = "loophook is not on PATH on this machine"

// TestTeammateWithoutLoophook: the project's .claude/settings.json, written
// by a plain `loophook install` and committed, runs loophook from PATH; a
// teammate without loophook gets no hook error at each turn: the session
// start tells them once, the stop says nothing, and the agent is not held.
// With loophook on PATH the same file holds the loop.
func TestTeammateWithoutLoophook(t *testing.T) {
	claude, bin := setup(t)
	p := newProject(t, loop("empty input parses"))
	cmd := exec.Command(bin, "install")
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + pathWith(t, bin), "HOME=" + t.TempDir()}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("loophook install: %v\n%s", err, out)
	}
	settings, err := os.ReadFile(filepath.Join(p.dir, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(settings), filepath.Dir(bin)) {
		t.Fatalf("the committed file names this machine's path:\n%s", settings)
	}

	api := newStubAPI(t, prompt, p.statePath(), nil)
	env := claudeEnv(p, api.URL())
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + pathWithout(t)
		}
	}
	run := logged(t, api, func() *claudeRun { return runClaudeWith(t, claude, p, env, prompt, sessionID) })
	for _, err := range api.failures() {
		t.Error(err)
	}
	if main := api.mainRequests(); len(main) != 1 {
		t.Errorf("%d main-loop requests, want 1: the agent was kept working without loophook", len(main))
	}
	if run.result.NumTurns != 1 || run.result.IsError {
		t.Errorf("claude reports %+v, want one turn and no error", run.result)
	}
	start := run.hookRuns("SessionStart")
	var answer map[string]string
	if len(start) != 1 || json.Unmarshal([]byte(start[0].stdout), &answer) != nil || !strings.HasPrefix(answer["systemMessage"], teammateNotice) {
		t.Errorf("SessionStart ran %+v, want one answer with the notice %q", start, teammateNotice)
	}
	// A stop that says nothing leaves no attachment in the transcript.
	for _, r := range run.hookRuns("Stop") {
		if r.blocked || strings.TrimSpace(r.stdout) != "" {
			t.Errorf("Stop ran %+v, want it to say nothing", r)
		}
	}
	if got := run.systemMessages(); len(got) != 1 || !strings.HasPrefix(got[0], teammateNotice) {
		t.Errorf("the person is shown %q, want the notice once", got)
	}
}
