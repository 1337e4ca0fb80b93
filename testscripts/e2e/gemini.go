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
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Gemini tests run the real Gemini CLI headless against a stand-in for
// the Gemini API (gemini_api.go), with hooks registered in the scratch
// project's .gemini/settings.json (gemini_test.go):
//
//	go test -tags e2e -run Gemini ./testscripts/e2e/ -v
//
// What 0.61.0 does here, beyond shared/gemini-cli/PROTOCOL.md:
//   - It connects to nothing but the stand-in (strace: 127.0.0.1 only, no
//     DNS). Each run sends one auxiliary request, the router's classifier
//     (generateContent, gemini-3.5-flash-lite); chat turns go to
//     gemini-3.8-flash; no countTokens, no GET.
//   - A failed run (the stand-in's HTTP 400) prints its JSON summary, with
//     "error", on stderr, not stdout, and exits with the error's code
//     modulo 256 (400: 144).
//   - A resumed session (--resume latest) replays the earlier turns and
//     reasons, but not the earlier prompt: its history starts with
//     <session_context>, then the first reply. The new prompt carries the
//     SessionStart context again.
//   - --session-id UUID starts a session under that id (it excludes
//     --resume), so a state can name the session.
//   - A hook's systemMessage shows on stderr as "Hook system message: M";
//     a failed hook as "… 0 succeeded, 1 failed (name) …" and twice
//     "Hook(s) [name] failed for event E. Press F12 …".

// The Gemini CLI release the Gemini tests run against, pinned like Claude
// Code: shared/gemini-cli/PROTOCOL.md was observed on this version.
// The integrity is the package tarball's, as the registry publishes it and
// as npm records it after checking it; a cache that holds anything else is
// reinstalled, and an install that yields anything else fails.
const (
	geminiPackage   = "@google/gemini-cli"
	geminiVersion   = "0.61.0"
	geminiIntegrity = "sha512-dbQ9A0qBtFJNi6XBkHvfZ6Azpn6PNgH/P8h2MZ67RLlX8hSAVjup39CRWqdRxZv7YXIuhrFaytr8y0jKnkoxnQ=="
)

// geminiInstallTimeout bounds the one-time install (about 15 MB of
// packages) and stays under go test's default -timeout of 10m.
const geminiInstallTimeout = 8 * time.Minute

// installGemini returns the pinned CLI's bundle/gemini.js, installing it
// with `npm install` (npm's own configured registry) into the cache the
// first time and reusing it afterwards, with no network at all.
func installGemini(ctx context.Context) (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", fmt.Errorf("%w: node is not installed: %v", errUnsupported, err)
	}
	if err := checkNode(node); err != nil {
		return "", err
	}
	v, integrity, err := release(ctx, geminiPackage, geminiVersion, geminiIntegrity)
	if err != nil {
		return "", err
	}
	check := func(dir string) error {
		if _, err := os.Stat(geminiBundle(dir)); err != nil {
			return err
		}
		return checkNPMInstall(dir, geminiPackage, v, integrity)
	}
	dir, err := cachedInstall{
		name:  "gemini-" + v,
		whole: func(dir string) bool { return check(dir) == nil },
		install: func(work, dir string) error {
			return npmInstall(ctx, work, dir, geminiPackage+"@"+v, geminiInstallTimeout, "--loglevel=error")
		},
		check: func(dir string) error {
			if err := check(dir); err != nil {
				return fmt.Errorf("npm install %s@%s: %w", geminiPackage, v, err)
			}
			return nil
		},
	}.get()
	if err != nil {
		return "", err
	}
	return geminiBundle(dir), nil
}

func geminiBundle(dir string) string {
	return filepath.Join(dir, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js")
}

// checkNode refuses a node older than the CLI's engines field (>=20).
func checkNode(node string) error {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return fmt.Errorf("%w: %s --version: %v", errUnsupported, node, err)
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, err := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if err != nil || major < 20 {
		return fmt.Errorf("%w: Gemini CLI %s needs node >= 20, %s is %q", errUnsupported, geminiVersion, node, v)
	}
	return nil
}

// geminiRunTimeout bounds one headless run. A run here takes a few
// seconds; a hook that hangs or a loop that never ends must fail the
// test, not hang CI.
const geminiRunTimeout = 2 * time.Minute

// geminiRun is what one `gemini -p` run left behind.
type geminiRun struct {
	output   geminiOutput // its --output-format json summary
	exitCode int
	stdout   string
	stderr   string // with --debug: the hook execution lines, among much else
}

// geminiOutput is the part of the headless JSON summary the suite reads.
type geminiOutput struct {
	SessionID string   `json:"session_id"`
	Response  string   `json:"response"` // every model text, concatenated
	Warnings  []string `json:"warnings"`
	Error     *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Code    int    `json:"code"`
	} `json:"error"` // a failed run's, printed on stderr
}

// geminiUserSettings is ~/.gemini/settings.json for every run (PROTOCOL.md
// §8): the API-key auth (without it 0.61.0 picks "gateway" and exits 41),
// and nothing that phones home or updates itself.
var geminiUserSettings = map[string]any{
	"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
	"privacy":  map[string]any{"usageStatisticsEnabled": false},
	"general":  map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
}

// geminiEnv is the whole environment the CLI runs with. Nothing is
// inherited but PATH (hooks run through bash), so none of the developer's
// GEMINI_*/GOOGLE_* variables (GEMINI_CLI_HOME moves ~/.gemini, Google
// credentials change the auth), GITHUB_SHA or SURFACE (both strip the
// hooks' environment), proxies or LOOPHOOK_* settings can leak in.
func geminiEnv(p *project, baseURL string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + p.home,
		"TMPDIR=" + p.tmp,
		"GOOGLE_GEMINI_BASE_URL=" + baseURL,
		"GEMINI_API_KEY=dummy",
		// Project settings, hooks included, load only in a trusted folder.
		"GEMINI_CLI_TRUST_WORKSPACE=true",
	}
}

// writeGeminiUserSettings writes geminiUserSettings as the project's
// home's ~/.gemini/settings.json, unless that file exists: a test that
// installs hooks for the user scope writes these first, and the installer
// must keep them.
func writeGeminiUserSettings(t *testing.T, p *project) {
	t.Helper()
	path := filepath.Join(p.home, ".gemini", "settings.json")
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := writeJSON(path, geminiUserSettings); err != nil {
		t.Fatal(err)
	}
}

// runGemini runs one headless turn in the project, against the stand-in
// at baseURL: `gemini [flags] -p prompt --output-format json --debug`.
// Flags of note: `--resume latest` goes on with the project's last
// session; `--session-id UUID` starts a new session under that id (the
// two exclude each other). A run that ends non-zero is returned, not
// failed: a test that provokes one looks at it.
func runGemini(t *testing.T, bundle string, p *project, baseURL, prompt string, flags ...string) *geminiRun {
	t.Helper()
	writeGeminiUserSettings(t, p)
	ctx, cancel := context.WithTimeout(t.Context(), geminiRunTimeout)
	defer cancel()

	args := append([]string{bundle}, flags...)
	args = append(args, "-p", prompt, "--output-format", "json", "--debug")
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = p.dir
	cmd.Env = geminiEnv(p, baseURL)
	cmd.Stdin = nil // /dev/null: a non-TTY stdin would be read into the prompt
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// The CLI relaunches itself as a child node, which runs the hooks: on
	// timeout kill the whole group, and don't wait forever for pipes a
	// stray child still holds.
	ownGroup(cmd)

	start := time.Now()
	err := cmd.Run()
	run := &geminiRun{stdout: stdout.String(), stderr: stderr.String()}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("gemini -p did not finish within %v\nstderr: %s", geminiRunTimeout, run.stderr)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("gemini -p: %v\nstderr: %s", err, run.stderr)
	}
	run.exitCode = cmd.ProcessState.ExitCode()
	t.Logf("gemini -p ran %v, exit %d", time.Since(start).Round(time.Millisecond), run.exitCode)
	if err := run.readOutput(); err != nil {
		t.Fatalf("gemini -p printed no JSON summary (exit %d): %v\nstdout: %s\nstderr: %s", run.exitCode, err, run.stdout, run.stderr)
	}
	return run
}

// readOutput reads the JSON summary: on stdout, or, when the run failed
// (an API error, say), at the end of stderr, where 0.61.0 prints
// {"session_id","error":{"type","message","code"}} and then exits with the
// error's code (HTTP 400: exit status 400&0xff = 144).
func (r *geminiRun) readOutput() error {
	if strings.TrimSpace(r.stdout) != "" || r.exitCode == 0 {
		return json.Unmarshal([]byte(r.stdout), &r.output)
	}
	tail := r.stderr
	for {
		i := strings.LastIndex(tail, "\n{")
		if i < 0 {
			return errors.New("no JSON summary on stdout or at the end of stderr")
		}
		if json.Unmarshal([]byte(r.stderr[i+1:]), &r.output) == nil {
			return nil
		}
		tail = tail[:i]
	}
}

// hookExecution is one hook event as --debug reports it on stderr.
type hookExecution struct {
	event  string
	ok     int      // hooks that succeeded
	failed []string // the names of those that failed
}

// geminiHookLine matches 0.61.0's --debug summary of one event's hooks, both
// "Hook execution for AfterAgent: 1 hooks executed successfully, total
// duration: 12ms" and "… 0 succeeded, 1 failed (name), total duration: …".
var geminiHookLine = regexp.MustCompile(`Hook execution for (\w+): (?:(\d+) hooks executed successfully|(\d+) succeeded, (\d+) failed \(([^)]*)\))`)

// hookExecutions lists the run's hook events in order, from --debug.
func (r *geminiRun) hookExecutions() []hookExecution {
	var out []hookExecution
	for _, m := range geminiHookLine.FindAllStringSubmatch(r.stderr, -1) {
		h := hookExecution{event: m[1]}
		if m[2] != "" {
			h.ok, _ = strconv.Atoi(m[2])
		} else {
			h.ok, _ = strconv.Atoi(m[3])
			for _, name := range strings.Split(m[5], ",") {
				h.failed = append(h.failed, strings.TrimSpace(name))
			}
		}
		out = append(out, h)
	}
	return out
}

// countHooks returns how many times --debug reported the event's hooks.
func (r *geminiRun) countHooks(event string) int {
	n := 0
	for _, h := range r.hookExecutions() {
		if h.event == event {
			n++
		}
	}
	return n
}

// hookFailures returns every failed hook run --debug reported, and every
// line of the CLI's that says a hook failed or was skipped (0.61.0 prints
// "Hook(s) [name] failed for event E. Press F12 …" twice, once with a
// "[WARNING] " prefix: it is kept once).
func (r *geminiRun) hookFailures() []string {
	var out []string
	for _, h := range r.hookExecutions() {
		if len(h.failed) > 0 {
			out = append(out, fmt.Sprintf("%s: %s failed", h.event, strings.Join(h.failed, ", ")))
		}
	}
	for _, line := range strings.Split(r.stderr, "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "[WARNING] ")
		for _, sign := range []string{"Hook(s) [", "Hook execution error", "Hook timed out", "Invalid hook event name"} {
			if strings.Contains(line, sign) && !slices.Contains(out, line) {
				out = append(out, line)
				break
			}
		}
	}
	return out
}

// systemMessages returns the hooks' systemMessages, which headless 0.61.0
// shows the person on stderr ("Hook system message: M"), one line each.
func (r *geminiRun) systemMessages() []string {
	var out []string
	for _, line := range strings.Split(r.stderr, "\n") {
		if _, m, ok := strings.Cut(line, "Hook system message: "); ok {
			out = append(out, m)
		}
	}
	return out
}

// geminiSuite is the Gemini tests' one-time setup: the pinned CLI's
// bundle/gemini.js, apart from Claude Code's so that either host can run
// where the other cannot.
var geminiSuite = hostSuite[string]{host: "Gemini CLI " + geminiVersion, verb: "installed", fetch: installGemini, where: func(b string) string { return b }}

// setupGemini returns the pinned CLI's bundle/gemini.js (geminiSuite.get).
func setupGemini(t *testing.T) string { return geminiSuite.get(t) }
