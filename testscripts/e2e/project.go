//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// project is one test's scratch world: a git repository that Claude Code
// runs in, and a home and temp directory of its own, so that neither
// Claude Code nor the hooks ever touch the real home or /tmp.
type project struct {
	dir  string // the repository; claude's cwd and $CLAUDE_PROJECT_DIR
	home string // $HOME for claude and the hooks it runs
	tmp  string // $TMPDIR for them
}

// newProject makes a scratch repository holding state as its
// .loop/state.json (no .loop at all when state is nil; see writeState).
func newProject(t *testing.T, state any) *project {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir()) // cwd as the hooks will see it
	if err != nil {
		t.Fatal(err)
	}
	p := &project{
		dir:  filepath.Join(root, "project"),
		home: filepath.Join(root, "home"),
		tmp:  filepath.Join(root, "tmp"),
	}
	for _, d := range []string{p.dir, p.home, p.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// loophook never looks above the git work tree's root, so the project
	// must be one, or a state file above the temp dir could leak in.
	git := exec.Command("git", "init", "-q", p.dir)
	git.Env = append(os.Environ(), "HOME="+p.home, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if state != nil {
		if err := writeState(p.statePath(), state); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func (p *project) statePath() string { return filepath.Join(p.dir, ".loop", "state.json") }

// installHooks registers loophook's Stop and SessionStart hooks for the
// project the way a person does, with `loophook install --scope project`,
// so that the suite proves what the installer writes (absolute path,
// --protocol claude, the raised block cap) works with the real Claude Code.
func installHooks(t *testing.T, dir, bin string) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(bin, "install", "--scope", "project")
	cmd.Dir = dir
	// A sealed environment: the real home must not be touched, and a
	// LOOPHOOK_BIN of the developer's would change the path written. The
	// built binary is not on PATH, so the project scope is given its path
	// (else it runs loophook from PATH); the install record goes to a
	// configuration directory of its own.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LOOPHOOK_BIN=" + bin, "XDG_CONFIG_HOME=" + t.TempDir()}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("loophook install --scope project: %v\n%s", err, out)
	}
	if left, _ := os.ReadDir(home); len(left) != 0 {
		t.Errorf("loophook install --scope project wrote under $HOME: %v", left)
	}
}

// stopCommand returns the Stop hook command registered in the project's
// settings, which Claude Code quotes back when the hook blocks. It is read,
// not assumed, so that the suite checks whatever the installer wrote.
func stopCommand(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Hooks struct {
			Stop []struct {
				Hooks []struct {
					Type    string `json:"type"`
					Command string `json:"command"`
				} `json:"hooks"`
			} `json:"Stop"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &settings); err != nil {
		t.Fatalf(".claude/settings.json: %v", err)
	}
	var commands []string
	for _, group := range settings.Hooks.Stop {
		for _, h := range group.Hooks {
			if h.Type == "command" {
				commands = append(commands, h.Command)
			}
		}
	}
	if len(commands) != 1 {
		t.Fatalf("want one Stop command hook in .claude/settings.json, found %q", commands)
	}
	return commands[0]
}

// writeState writes a state file: raw bytes as they are (a string or
// []byte, for states that are meant to be broken), anything else as JSON.
func writeState(path string, state any) error {
	switch s := state.(type) {
	case string:
		return writeFile(path, []byte(s))
	case []byte:
		return writeFile(path, s)
	}
	return writeJSON(path, state)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(b, '\n'))
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// readIfAny returns the file at path, and false when there is none (a
// hook that never ran wrote nothing); any other failure fails the test.
func readIfAny(t *testing.T, path string) ([]byte, bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return b, true
}

// readInputs decodes the JSON Lines file at path, where a stand-in or a
// recorder keeps the hook inputs it got, in order; nil when there is none.
func readInputs(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, ok := readIfAny(t, path)
	if !ok {
		return nil
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var in map[string]any
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("%s: a hook input that is not one JSON object on one line: %v: %q", path, err, line)
		}
		out = append(out, in)
	}
	return out
}

// scanLines calls f with each line of the file at path (lines up to
// 16 MiB long, as hosts' JSON lines can be); a file that cannot be read
// fails the test.
func scanLines(t *testing.T, path string, f func(line []byte)) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		f(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// state is a loop state as the scripted agent handles it: decoded JSON.
type state = map[string]any

// An edit is what the scripted agent does to the state file in a turn.
type edit func(path string) error

// readState reads and decodes a state file.
func readState(path string) (state, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s state
	return s, json.Unmarshal(b, &s)
}

// update decodes the state file, lets fn change it and writes it back.
func update(fn func(s state)) edit {
	return func(path string) error {
		s, err := readState(path)
		if err != nil {
			return err
		}
		fn(s)
		return writeJSON(path, s)
	}
}

// replace overwrites the whole state file, e.g. to repair a broken one.
func replace(s any) edit {
	return func(path string) error { return writeState(path, s) }
}

// edits applies several edits in order.
func edits(es ...edit) edit {
	return func(path string) error {
		for _, e := range es {
			if err := e(path); err != nil {
				return err
			}
		}
		return nil
	}
}

// meet marks criteria met in criteriaStatus, with a verification.
func meet(names ...string) edit {
	return update(func(s state) {
		cs, _ := s["criteriaStatus"].(map[string]any)
		if cs == nil {
			cs = map[string]any{}
			s["criteriaStatus"] = cs
		}
		for _, n := range names {
			cs[n] = map[string]any{"met": true, "verification": "execution output"}
		}
	})
}

// bump adds one to an integer field, creating it at 1.
func bump(key string) edit {
	return update(func(s state) { s[key] = number(s[key]) + 1 })
}

// bumpStuck adds one to circuitBreaker.stuckCount, as an agent does when
// an iteration made no headway.
func bumpStuck() edit {
	return update(func(s state) {
		cb, _ := s["circuitBreaker"].(map[string]any)
		if cb == nil {
			cb = map[string]any{}
			s["circuitBreaker"] = cb
		}
		cb["stuckCount"] = number(cb["stuckCount"]) + 1
	})
}

// set sets a top-level field.
func set(key string, v any) edit {
	return update(func(s state) { s[key] = v })
}

// number reads a decoded JSON number, 0 when absent.
func number(v any) float64 {
	f, _ := v.(float64)
	return f
}
