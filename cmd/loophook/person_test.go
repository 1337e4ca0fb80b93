package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook/host"
)

// TestPersonOnlyEveryMarker: cancel, init over an unfinished loop and
// uninstall refuse under every marker of every host in the table (SPEC
// section 5), a host added later included, and change nothing.
func TestPersonOnlyEveryMarker(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("LOOPHOOK_BIN", filepath.Join(string(filepath.Separator), "opt", "loophook", "bin", "loophook"))
	if runtime.GOOS == "windows" {
		t.Setenv("LOOPHOOK_BIN", `C:\loophook\loophook.exe`)
	}
	for _, h := range host.All() {
		for _, v := range h.AgentEnv {
			name, _, _ := strings.Cut(v, "=")
			t.Setenv(name, "")
		}
	}
	loophook := func(args ...string) (int, string) {
		var stderr bytes.Buffer
		code := run(append([]string{"loophook"}, args...), strings.NewReader(""), &bytes.Buffer{}, &stderr)
		return code, stderr.String()
	}
	if code, out := loophook("init", "--spec", "s", "--criterion", "tests pass"); code != 0 {
		t.Fatalf("init: %d %s", code, out)
	}
	if code, out := loophook("install"); code != 0 {
		t.Fatalf("install: %d %s", code, out)
	}
	state, settings := filepath.Join(".loop", "state.json"), filepath.Join(".claude", "settings.json")
	before := map[string][]byte{}
	for _, f := range []string{state, settings} {
		before[f], _ = os.ReadFile(f)
	}
	markers := 0
	for _, h := range host.All() {
		for _, v := range h.AgentEnv {
			markers++
			// NAME=value: the marker only with that value (AI_AGENT=pi).
			name, value, exact := strings.Cut(v, "=")
			if !exact {
				value = "1"
			}
			t.Setenv(name, value)
			for _, args := range [][]string{
				{"cancel"},
				{"init", "--force", "--spec", "easy", "--criterion", "done"},
				{"uninstall"},
			} {
				code, out := loophook(args...)
				if code != 2 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "a person's act") || !strings.Contains(out, v+" is set") {
					t.Errorf("%s=%s loophook %s: exit %d, %q; want exit 2 and one line naming %s", name, value, strings.Join(args, " "), code, out, v)
				}
			}
			t.Setenv(name, "")
		}
	}
	if markers < 7 {
		t.Errorf("%d markers in the host table; want every host's", markers)
	}
	for f, data := range before {
		if now, _ := os.ReadFile(f); !bytes.Equal(now, data) {
			t.Errorf("%s changed under a refused command", f)
		}
	}
}

// TestPluginPersonOnlyCommands: the Claude Code plugin's commands for a
// person's acts grant the agent no tool permission and tell the person
// what to type in their own terminal (SPEC section 5).
func TestPluginPersonOnlyCommands(t *testing.T) {
	for _, command := range []string{"cancel", "accept"} {
		data, err := os.ReadFile(filepath.Join("..", "..", ".claude-plugin", "commands", command+".md"))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if strings.Contains(text, "allowed-tools") {
			t.Errorf("/loophook:%s grants the agent a tool permission", command)
		}
		if !strings.Contains(text, "in their own terminal") || !strings.Contains(text, "loophook "+command+" $ARGUMENTS") {
			t.Errorf("/loophook:%s does not tell the person what to type in their own terminal", command)
		}
	}
}
