//go:build e2e

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The README's quick start, followed word for word (issue 32): its shell
// block runs in a scratch Go project with a HOME of its own, loophook
// installed from this clone as the README says for a clone, and then the
// real Claude Code is held to the check it set until the code is fixed.

// quickStartProject is the person's project: a Go module whose test
// fails until count.go is fixed.
var quickStartProject = map[string]string{
	"go.mod":        "module example.com/count\n\ngo 1.22\n",
	"count.go":      "package count\n\n// Count counts the letters of s.\nfunc Count(s string) int { return 7 }\n",
	"count_test.go": "package count\n\nimport \"testing\"\n\nfunc TestCount(t *testing.T) {\n\tif got := Count(\"abcd\"); got != 4 {\n\t\tt.Errorf(\"Count: got %d, want 4\", got)\n\t}\n}\n",
}

// countFixed is count.go as the agent fixes it.
const countFixed = "package count\n\n// Count counts the letters of s.\nfunc Count(s string) int { return len(s) }\n"

func TestQuickStart(t *testing.T) {
	claude, _ := setup(t)
	root := moduleRoot(t)
	lines := quickStart(t, filepath.Join(root, "README.md"))

	p := newProject(t, nil)
	for name, text := range quickStartProject {
		if err := writeFile(filepath.Join(p.dir, name), []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	// A person's environment: a fresh HOME, loophook where make install
	// puts it and on PATH; Go's build and module caches are the
	// developer's, so that nothing is downloaded and the check's go test
	// is quick.
	bin := filepath.Join(filepath.Dir(p.home), "bin")
	env := append([]string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + p.home,
		"TMPDIR=" + p.tmp,
		"GOBIN=" + bin,
		"GOTOOLCHAIN=local",
		"GOPROXY=off",
		"GOFLAGS=",
	}, goCaches(t)...)

	// The block as written, but for the two lines that name the person's
	// world: loophook is installed from this clone, and "your-project" is
	// the scratch project.
	var script []string
	installed, entered := false, false
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "go install ") && strings.Contains(line, "from a clone: make install"):
			line, installed = "(cd "+shellQuote(root)+" && make install)", true
		case strings.TrimSpace(line) == "cd your-project":
			line, entered = "cd "+shellQuote(p.dir), true
		}
		script = append(script, line)
	}
	if !installed || !entered {
		t.Fatalf("the quick start no longer has the lines this test replaces (go install ... # or, from a clone: make install; cd your-project):\n%s", strings.Join(lines, "\n"))
	}
	runAsPerson(t, p.dir, env, strings.Join(script, "\n")+"\n")

	api := newStubAPI(t, prompt, p.statePath(), []turn{
		{edit: meetAll(), text: "Everything is done; exit_signal set."},
		{edit: inTree("count.go", countFixed), text: "Fixed Count; go test passes now."},
	})
	cenv := claudeEnv(p, api.URL())
	cenv = slices.DeleteFunc(cenv, func(kv string) bool { return strings.HasPrefix(kv, "PATH=") })
	cenv = append(append(cenv, env[0]), goCaches(t)...)
	cenv = append(cenv, "GOTOOLCHAIN=local", "GOPROXY=off")
	run := logged(t, api, func() *claudeRun { return runClaudeWith(t, claude, p, cenv, prompt, sessionID) })
	checkSession(t, scenario{
		wantTurns:      2,
		wantReasons:    [][]string{{`Check "tests"`, "go test ./...", "--- FAIL: TestCount", "Count: got 7, want 4"}},
		wantContext:    []string{"loophook runs the checks a person approved", `"tests"`},
		wantEndMessage: true,
	}, api, run, stopCommand(t, p.dir))
	checkEndMessage(t, run, []string{"loop complete"})
	if got, want := journalRules(t, p), []string{"check-failed", "complete"}; !slices.Equal(got, want) {
		t.Errorf("loophook's journal has the rules %q, want %q", got, want)
	}
}

// quickStart returns the lines of the first sh block under the README's
// "## Quick start".
func quickStart(t *testing.T, readme string) []string {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Quick start\n")
	if ok {
		section, _, _ = strings.Cut(section, "\n## ")
		_, section, ok = strings.Cut(section, "\n```sh\n")
	}
	block, _, closed := strings.Cut(section, "\n```\n")
	if !ok || !closed {
		t.Fatalf("%s has no ```sh block under ## Quick start", readme)
	}
	return strings.Split(block, "\n")
}

// runAsPerson runs script with sh in dir, as a person at a terminal does:
// its standard input a terminal (loophook accept asks for one), env the
// whole environment (no agent host's marker in it).
func runAsPerson(t *testing.T, dir string, env []string, script string) {
	t.Helper()
	master, tty, err := openPTY(24, 80)
	if err != nil {
		t.Fatalf("a pseudo-terminal: %v", err)
	}
	defer master.Close()
	defer tty.Close()
	cmd := exec.CommandContext(t.Context(), "sh", "-eux", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, &out, &out
	cmd.WaitDelay = time.Minute
	err = cmd.Run()
	t.Logf("the quick start:\n%s", &out)
	if err != nil {
		t.Fatalf("the quick start failed: %v", err)
	}
}

// meetAll marks every criterion of the state met and sets exit_signal:
// an agent's claim, whatever criteria the person wrote.
func meetAll() edit {
	return func(path string) error {
		s, err := readState(path)
		if err != nil {
			return err
		}
		var names []string
		list, _ := s["criteria"].([]any)
		for _, c := range list {
			if name, ok := c.(string); ok {
				names = append(names, name)
			}
		}
		return edits(meet(names...), set("exit_signal", true))(path)
	}
}

// moduleRoot is the top of this clone.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("finding the module root: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// goCaches are the developer's Go build and module caches, as variables.
func goCaches(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		t.Fatalf("go env GOCACHE GOMODCACHE: %q", out)
	}
	return []string{"GOCACHE=" + f[0], "GOMODCACHE=" + f[1]}
}
