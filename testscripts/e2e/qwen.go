//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The Qwen Code tests run the real CLI headless (`qwen -p`) against the
// Chat Completions stand-in (chat_api.go), as shared/qwen-code/PROTOCOL.md
// §9 says:
//
//	go test -tags e2e -run Qwen ./testscripts/e2e/ -v

// The Qwen Code release the tests pin: PROTOCOL.md was observed on it.
// The integrity is the package tarball's, as npm records it after
// checking it; a cache that holds anything else is reinstalled.
const (
	qwenPackage   = "@qwen-code/qwen-code"
	qwenVersion   = "0.24.4"
	qwenIntegrity = "sha512-pmexy/Nj+BKd3Un1ogqGQE8V4GJn5B6N9PQOrU1GH+lMR29kn6Bgf6YdbZa8hNIoTmAKT1LTPK+P8TibZRPPVg=="
	qwenModel     = "e2e-model"
)

// qwenCLI is an installed Qwen Code: its version and cli-entry.js.
type qwenCLI struct{ version, entry string }

// installQwen installs version, whose tarball has integrity, into the
// cache the first time and reuses it after, with no network at all.
func installQwen(ctx context.Context, version, integrity string) (qwenCLI, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return qwenCLI{}, fmt.Errorf("%w: node is not installed: %v", errUnsupported, err)
	}
	if err := checkNode(node); err != nil {
		return qwenCLI{}, err
	}
	check := func(dir string) error { return checkNPMInstall(dir, qwenPackage, version, integrity) }
	dir, err := cachedInstall{
		name:  "qwen-code-" + version,
		whole: func(dir string) bool { return isRegular(qwenEntry(dir)) && check(dir) == nil },
		install: func(work, dir string) error {
			return npmInstall(ctx, work, dir, qwenPackage+"@"+version, npmTimeout, "--loglevel=error")
		},
		check: check,
	}.get()
	if err != nil {
		return qwenCLI{}, err
	}
	return qwenCLI{version: version, entry: qwenEntry(dir)}, nil
}

func qwenEntry(dir string) string {
	return filepath.Join(dir, "node_modules", "@qwen-code", "qwen-code", "cli-entry.js")
}

// checkNPMInstall checks that dir holds pkg at version as npm recorded
// it, with the tarball integrity it verified.
func checkNPMInstall(dir, pkg, version, integrity string) error {
	locked, err := readNPMLock(dir, "node_modules/.package-lock.json")
	if err != nil {
		return err
	}
	got := locked["node_modules/"+pkg]
	if got.Version != version || got.Integrity != integrity {
		return fmt.Errorf("installed %s %q with integrity %q, want %q with %q", pkg, got.Version, got.Integrity, version, integrity)
	}
	return nil
}

// qwenRunTimeout bounds one headless run: a run of the longest scenario
// takes well under a minute on an idle machine, minutes on a busy one; a
// hook that hangs must fail the test, not hang CI.
const qwenRunTimeout = 8 * time.Minute

// qwenUserSettings is ~/.qwen/settings.json for every run (PROTOCOL.md
// §9): the OpenAI auth, no usage statistics, no update, and no managed
// memory, whose extraction subagent would make requests of its own.
var qwenUserSettings = map[string]any{
	"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}},
	"privacy":  map[string]any{"usageStatisticsEnabled": false},
	"general":  map[string]any{"enableAutoUpdate": false},
	"memory":   map[string]any{"enableManagedAutoMemory": false, "enableManagedAutoDream": false},
}

// qwenEnv is the whole environment the CLI runs with: nothing inherited
// but PATH, so no QWEN_* (QWEN_HOME moves ~/.qwen, the cap variable sets
// the cap), OPENAI_* or DASHSCOPE_* of the developer's leaks in.
func qwenEnv(p *project, baseURL string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + p.home,
		"TMPDIR=" + p.tmp,
		"XDG_CACHE_HOME=" + filepath.Join(p.home, ".cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(p.home, ".config"),
		"OPENAI_BASE_URL=" + baseURL + "/v1",
		"OPENAI_API_KEY=sk-e2e-dummy",
		"OPENAI_MODEL=" + qwenModel,
		"QWEN_DEBUG_LOG_FILE=1",
	}
}

// qwenRun is what one `qwen -p` run left behind.
type qwenRun struct {
	exitCode       int
	stdout, stderr string
	result         qwenResult
}

// qwenResult is the "result" message of the --output-format json array.
type qwenResult struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	IsError   bool   `json:"is_error"`
	Result    string `json:"result"`
	SessionID string `json:"session_id"`
}

// runQwen runs one headless turn in the project against the stand-in:
// `qwen [flags] -p prompt --output-format json`, stdin /dev/null. A
// run that ends non-zero is returned, not failed.
func runQwen(t *testing.T, cli qwenCLI, p *project, baseURL, prompt string, flags ...string) *qwenRun {
	t.Helper()
	settings := filepath.Join(p.home, ".qwen", "settings.json")
	if _, err := os.Stat(settings); err != nil {
		if err := writeJSON(settings, qwenUserSettings); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), qwenRunTimeout)
	defer cancel()
	args := append([]string{cli.entry}, flags...)
	args = append(args, "-p", prompt, "--output-format", "json")
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = p.dir
	cmd.Env = qwenEnv(p, baseURL)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// The CLI relaunches itself as a child node, which runs the hooks.
	ownGroup(cmd)
	start := time.Now()
	err := cmd.Run()
	run := &qwenRun{stdout: stdout.String(), stderr: stderr.String()}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("qwen -p did not finish within %v\nstderr: %s", qwenRunTimeout, run.stderr)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("qwen -p: %v\nstderr: %s", err, run.stderr)
	}
	run.exitCode = cmd.ProcessState.ExitCode()
	t.Logf("qwen %s -p ran %v, exit %d", cli.version, time.Since(start).Round(time.Millisecond), run.exitCode)
	var msgs []json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &msgs); err != nil {
		t.Fatalf("qwen -p printed no JSON array (exit %d): %v\nstdout: %s\nstderr: %s", run.exitCode, err, run.stdout, run.stderr)
	}
	for _, m := range msgs {
		var r qwenResult
		if json.Unmarshal(m, &r) == nil && r.Type == "result" {
			run.result = r
		}
	}
	return run
}

// qwenDebugLog returns the hook lines of the session's debug log
// (~/.qwen/debug/<session_id>.txt), which Qwen writes asynchronously.
func qwenDebugLog(p *project, sessionID string) []string {
	b, _ := os.ReadFile(filepath.Join(p.home, ".qwen", "debug", sessionID+".txt"))
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "HOOKS]") || strings.Contains(line, "Stop hook blocked") {
			out = append(out, line)
		}
	}
	return out
}

// qwenSuite is the Qwen Code tests' one-time setup.
var qwenSuite = hostSuite[qwenCLI]{
	host: "Qwen Code " + qwenVersion, verb: "installed",
	fetch: func(ctx context.Context) (qwenCLI, error) {
		v, i, err := release(ctx, qwenPackage, qwenVersion, qwenIntegrity)
		if err != nil {
			return qwenCLI{}, err
		}
		return installQwen(ctx, v, i)
	},
	where: func(c qwenCLI) string { return c.entry },
}

func setupQwen(t *testing.T) qwenCLI { return qwenSuite.get(t) }
