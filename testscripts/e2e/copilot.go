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
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The GitHub Copilot CLI release the Copilot tests run against, pinned for
// the reasons claude.go gives: PROTOCOL.md (copilot-cli/) was observed on
// this version, and the integrity is the tarball's npm integrity. The
// package is the native build for linux/amd64, one executable that the
// @github/copilot loader would pick as an optional dependency.
const (
	copilotPackage   = "@github/copilot-linux-x64"
	copilotVersion   = "1.0.102"
	copilotIntegrity = "sha512-eGHPbsP0p2QgfVZCjtbGBFZPBOJQ0DN7xIbBRAo7oG8b1zfLirQIdfI4h8Iy68Dv2cKJGJZg2/EO7W7KpIMJOw=="
	copilotHost      = "Copilot CLI " + copilotVersion

	// copilotModel is the model the CLI asks its BYOK provider for; the
	// stand-in answers whatever it is asked for.
	copilotModel = "claude-sonnet-4.5"
)

// copilotCLI is the pinned Copilot CLI, ready to run.
type copilotCLI struct {
	version string // the release (release(): the pinned one, or the newest)
	bin     string // the native executable
	// pkgCache is COPILOT_PKG_CACHE_HOME for every run: the executable
	// unpacks its app (235 MB) there on first use, and each test's fresh
	// HOME would otherwise unpack it again.
	pkgCache string
}

// fetchCopilot returns the pinned Copilot CLI, downloading the native
// package with `npm pack` the first time (as fetchClaude does) and
// unpacking its app into the shared package cache; later runs need no
// network at all.
func fetchCopilot(ctx context.Context) (copilotCLI, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return copilotCLI{}, fmt.Errorf("%w: the Copilot tests pin %s, which runs on linux/amd64 only, not %s/%s",
			errUnsupported, copilotPackage, runtime.GOOS, runtime.GOARCH)
	}
	v, integrity, err := release(ctx, copilotPackage, copilotVersion, copilotIntegrity)
	if err != nil {
		return copilotCLI{}, err
	}
	bin, err := fetchExecutable(ctx, "copilot-linux-x64-"+v, copilotPackage+"@"+v, integrity, "copilot")
	if err != nil {
		return copilotCLI{}, err
	}
	cache, err := cacheDir()
	if err != nil {
		return copilotCLI{}, err
	}
	cli := copilotCLI{version: v, bin: bin, pkgCache: filepath.Join(cache, "copilot-pkg")}
	return cli, cli.unpack(ctx)
}

// unpack makes the executable unpack its app into the package cache, once:
// `copilot --version` does it and checks the version on the way. The
// executable marks a finished unpacking with .extraction-complete.
func (c copilotCLI) unpack(ctx context.Context) error {
	done := filepath.Join(c.pkgCache, "pkg", "linux-x64", c.version, ".extraction-complete")
	if _, err := os.Stat(done); err == nil {
		return nil
	}
	home, err := os.MkdirTemp("", "copilot-e2e-home-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, "--version")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "COPILOT_PKG_CACHE_HOME=" + c.pkgCache, "COPILOT_AUTO_UPDATE=false"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("copilot --version: %v\n%s", err, out)
	}
	if want := "GitHub Copilot CLI " + c.version + "."; !strings.Contains(string(out), want) {
		return fmt.Errorf("copilot --version printed %q, want %q", out, want)
	}
	if _, err := os.Stat(done); err != nil {
		return fmt.Errorf("copilot --version left no unpacked app: %v", err)
	}
	return nil
}

// copilotEnv is the whole environment copilot runs with, and so the whole
// environment its hooks run with (plus what the CLI adds for them).
// Nothing is inherited but PATH: in particular no COPILOT_*, GITHUB_*,
// GH_* or XDG_* variable of the developer's (a classic token in
// GITHUB_TOKEN aborts the run even offline), no proxy, no home.
func copilotEnv(cli copilotCLI, p *project, baseURL string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + p.home,
		"TMPDIR=" + p.tmp,
		"COPILOT_PKG_CACHE_HOME=" + cli.pkgCache,
		// BYOK offline mode: the stand-in is the model provider, and
		// there is no GitHub login, telemetry or update check.
		"COPILOT_PROVIDER_BASE_URL=" + baseURL,
		"COPILOT_PROVIDER_TYPE=anthropic",
		"COPILOT_PROVIDER_API_KEY=sk-e2e-dummy",
		"COPILOT_MODEL=" + copilotModel,
		"COPILOT_OFFLINE=true",
		"COPILOT_AUTO_UPDATE=false",
	}
}

// copilotSession is one Copilot CLI session in a project, run over one
// or more prompts: the first starts it, each later one resumes it with
// --continue (or its pinned --session-id), as a person picking the work
// up again would.
type copilotSession struct {
	cli  copilotCLI
	p    *project
	api  *copilotAPI
	runs []*copilotRun
	// sessionID, when set, is the session's id (--session-id): a new
	// session gets it, and a later run resumes it by it.
	sessionID string
	// seen counts the events.jsonl lines of earlier runs, by file, so
	// that each run gets the events it added.
	seen map[string]int
}

func newCopilotSession(cli copilotCLI, p *project, api *copilotAPI) *copilotSession {
	return &copilotSession{cli: cli, p: p, api: api, seen: map[string]int{}}
}

// copilotRun is what one `copilot -p` run left behind.
type copilotRun struct {
	n        int // 1 for the run that started the session
	prompt   string
	resumed  bool // not the session's first run: --continue, or --session-id again
	exitCode int
	dir      string // stdout, stderr and the --log-dir logs
	stdout   string
	stderr   string
	log      string            // the --log-dir files, concatenated
	requests []*copilotRequest // the model requests of this run, in order
	events   []copilotEvent    // the events.jsonl lines this run added
	leftover bool              // processes of copilot's were still running at its exit
	elapsed  time.Duration
}

func (r *copilotRun) String() string {
	if r.resumed {
		return fmt.Sprintf("run %d (resumed)", r.n)
	}
	return fmt.Sprintf("run %d (new session)", r.n)
}

// run runs copilot -p prompt in the project, headless, and returns what it
// left behind. It fails the test only when copilot cannot be started or
// does not finish within runTimeout; the caller judges the exit code.
func (s *copilotSession) run(t *testing.T, prompt string) *copilotRun {
	t.Helper()
	r := &copilotRun{n: len(s.runs) + 1, prompt: prompt, resumed: len(s.runs) > 0}
	r.dir = filepath.Join(filepath.Dir(s.p.dir), fmt.Sprintf("copilot-run-%d", r.n))
	logDir := filepath.Join(r.dir, "logs")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"-p", prompt, "--allow-all", "--no-auto-update", "--no-color",
		"--log-level", "all", "--log-dir", logDir}
	if !r.resumed && s.sessionID == "" {
		args = append(args, "--trust-folder")
	} else {
		// --trust-folder is refused with --continue and --session-id:
		// trust the project the way a person's "remember this folder"
		// does.
		if err := copilotTrustFolder(s.p.home, s.p.dir); err != nil {
			t.Fatal(err)
		}
		if s.sessionID != "" {
			args = append(args, "--session-id", s.sessionID)
		} else {
			args = append(args, "--continue")
		}
	}

	stdout, err := os.Create(filepath.Join(r.dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(r.dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()

	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.cli.bin, args...)
	cmd.Dir = s.p.dir
	cmd.Env = copilotEnv(s.cli, s.p, s.api.URL())
	cmd.Stdin = nil // /dev/null
	// Files, not pipes: a child that outlives copilot cannot hold Wait.
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// copilot starts a runtime and the hooks as children: run it in a
	// process group of its own and end the whole group, on timeout and
	// after it exits.
	ownGroup(cmd)

	s.api.beginRun(r.n)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("copilot: %v", err)
	}
	err = cmd.Wait()
	r.elapsed = time.Since(start)
	if syscall.Kill(-cmd.Process.Pid, 0) == nil {
		r.leftover = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	s.api.endRun()
	s.runs = append(s.runs, r)

	r.stdout, r.stderr = readCopilotFile(filepath.Join(r.dir, "stdout")), readCopilotFile(filepath.Join(r.dir, "stderr"))
	r.log = readCopilotLogs(logDir)
	r.requests = s.api.requestsOf(r.n)
	r.events = s.newEvents(t)
	t.Logf("copilot -p %v took %v, exit %d, %d model requests",
		r, r.elapsed.Round(time.Millisecond), cmd.ProcessState.ExitCode(), len(r.requests))
	if r.leftover {
		t.Logf("copilot -p %v left processes running in its group; killed them", r)
	}

	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("copilot -p did not finish within %v (logs in %s)\nstderr: %s", runTimeout, logDir, r.stderr)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.exitCode = exit.ExitCode()
	default:
		t.Fatalf("copilot -p: %v\nstderr: %s", err, r.stderr)
	}
	return r
}

// copilotTrustFolder adds dir to trustedFolders in ~/.copilot/config.json,
// keeping whatever else the CLI keeps there. The CLI writes the file with
// comment lines at the top ("// This file is managed automatically.");
// they are dropped.
func copilotTrustFolder(home, dir string) error {
	path := filepath.Join(home, ".copilot", "config.json")
	config := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		var body []string
		for _, line := range strings.Split(string(b), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "//") {
				body = append(body, line)
			}
		}
		if err := json.Unmarshal([]byte(strings.Join(body, "\n")), &config); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	var trusted []any
	if list, ok := config["trustedFolders"].([]any); ok {
		trusted = list
	}
	if !slices.Contains(trusted, any(dir)) {
		trusted = append(trusted, dir)
	}
	config["trustedFolders"] = trusted
	return writeJSON(path, config)
}

func readCopilotFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// readCopilotLogs concatenates the files copilot wrote into its --log-dir.
func readCopilotLogs(dir string) string {
	var sb strings.Builder
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			sb.WriteString(readCopilotFile(path))
		}
		return nil
	})
	return sb.String()
}

// copilotEvent is one line of a session's events.jsonl
// (~/.copilot/session-state/<sessionId>/events.jsonl).
type copilotEvent struct {
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	file      string          // the session's events.jsonl
}

// newEvents returns the events.jsonl lines written since the last call, in
// every session of the project's home.
func (s *copilotSession) newEvents(t *testing.T) []copilotEvent {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(s.p.home, ".copilot", "session-state", "*", "events.jsonl"))
	var out []copilotEvent
	for _, path := range files {
		n := 0
		scanLines(t, path, func(line []byte) {
			n++
			if n <= s.seen[path] {
				return
			}
			e := copilotEvent{file: path}
			if err := json.Unmarshal(bytes.TrimSpace(line), &e); err != nil {
				t.Errorf("%s:%d: %v", path, n, err)
				return
			}
			out = append(out, e)
		})
		s.seen[path] = n
	}
	return out
}

// copilotHookRun is one run of a hook as events.jsonl records it: a
// hook.start with its input and the matching hook.end with its parsed
// output. The CLI records one pair per event however many hooks are
// registered for it.
type copilotHookRun struct {
	Input   json.RawMessage
	Output  json.RawMessage // absent when the hooks printed nothing usable
	Success bool
	Ended   bool // a hook.end was seen
}

// hookRuns returns the runs of hookType ("agentStop", "sessionStart", ...)
// in this run, in order.
func (r *copilotRun) hookRuns(hookType string) []copilotHookRun {
	type hookData struct {
		ID      string          `json:"hookInvocationId"`
		Type    string          `json:"hookType"`
		Input   json.RawMessage `json:"input"`
		Output  json.RawMessage `json:"output"`
		Success bool            `json:"success"`
	}
	var runs []copilotHookRun
	at := map[string]int{}
	for _, e := range r.events {
		if e.Type != "hook.start" && e.Type != "hook.end" {
			continue
		}
		var d hookData
		if json.Unmarshal(e.Data, &d) != nil || d.Type != hookType {
			continue
		}
		if e.Type == "hook.start" {
			at[d.ID] = len(runs)
			runs = append(runs, copilotHookRun{Input: d.Input})
			continue
		}
		if i, ok := at[d.ID]; ok {
			runs[i].Output, runs[i].Success, runs[i].Ended = d.Output, d.Success, true
		}
	}
	return runs
}

// turns returns this run's conversation turns: the model requests that
// carry x-interaction-type conversation-user, the prompt's and one per
// continuation after a block (a follow-up after a tool result has none).
func (r *copilotRun) turns() []*copilotRequest {
	var out []*copilotRequest
	for _, req := range r.requests {
		if req.isTurn() {
			out = append(out, req)
		}
	}
	return out
}

// reasons returns what the model was sent at each continuation of this
// run: the new user message of every turn after the first, without its
// date stamp; a block's reason, word for word.
func (r *copilotRun) reasons() ([]string, error) {
	var out []string
	for i, req := range r.turns() {
		if i == 0 {
			continue
		}
		text, err := req.newUserText()
		if err != nil {
			return out, fmt.Errorf("turn %d: %v", i+1, err)
		}
		out = append(out, text)
	}
	return out, nil
}

// copilotCapLine is what 1.0.102 logs, and only logs, when it ends a turn
// after its fixed 8 consecutive agentStop blocks.
const copilotCapLine = "Agent stop hook blocked 8 consecutive times; ending turn."

// logLines returns the lines of the run's log that contain any of subs.
func (r *copilotRun) logLines(subs ...string) []string {
	var out []string
	for _, line := range strings.Split(r.log, "\n") {
		for _, sub := range subs {
			if strings.Contains(line, sub) {
				out = append(out, line)
				break
			}
		}
	}
	return out
}

// repoHooks returns how many repo-level hooks the run loaded, as its log
// says ("loaded repo hooks (hookCount=N)"), or -1 when it does not say:
// 0 means the folder was not trusted or no hooks file was found.
func (r *copilotRun) repoHooks() int {
	n := -1
	for _, line := range r.logLines("loaded repo hooks (hookCount=") {
		_, rest, _ := strings.Cut(line, "hookCount=")
		if v, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), ")")); err == nil {
			n = v
		}
	}
	return n
}

// copilotHook is one command hook as .github/hooks/*.json registers it.
type copilotHook struct {
	Type       string `json:"type"` // "command"
	Bash       string `json:"bash"`
	TimeoutSec int    `json:"timeoutSec,omitempty"`
}

// writeCopilotHooks registers hooks, by event name (agentStop,
// sessionStart, ...), in the project's <dir>/.github/hooks/<name>, the
// project scope a trusted folder loads.
func writeCopilotHooks(dir, name string, hooks map[string][]copilotHook) error {
	return writeJSON(filepath.Join(dir, ".github", "hooks", name),
		map[string]any{"version": 1, "hooks": hooks})
}

// copilotSuite is the Copilot tests' one-time setup: the pinned CLI,
// fetched on first use (loophookBinary builds the loophook under test).
var copilotSuite = hostSuite[copilotCLI]{host: copilotHost, verb: "fetched", fetch: fetchCopilot, where: func(c copilotCLI) string { return c.bin }}

// setupCopilot returns the pinned Copilot CLI (copilotSuite.get).
func setupCopilot(t *testing.T) copilotCLI { return copilotSuite.get(t) }
